//! SUM: the sum over the axes of a constant int32 input, float32, int8 or int16 (requantized
//! to the output's quantization); the reduction family ([`super::reduce`]).

use super::reduce::{lower_reduce, Reduce, ReduceOp};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>, keep_dims: bool) -> Result<Reduce, LowerError> {
    lower_reduce(cx, ReduceOp::Sum, keep_dims)
}

#[cfg(test)]
mod tests {
    use super::super::reduce::tests::*;
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{DType, OpKind};

    /// Every axis case in float32 (against the naive sum in TFLite's order, and TFLite
    /// Micro), int8 with a different output quantization (sums saturate at both ends) and
    /// int16 (nonzero zero points), against TFLite Micro.
    #[test]
    fn against_tflite_micro() {
        for (k, &(shape, axes, keep_dims, out_shape)) in AXES.iter().enumerate() {
            let kind = OpKind::Sum { keep_dims };
            let n: usize = shape.iter().product();
            let resolved = super::super::reduce::resolve_axes(shape.len(), axes).unwrap();
            let xf: Vec<f32> = i8s(80 + k as u64, n).iter().map(|&q| f32::from(q) * 0.37 + 0.01).collect();
            let (bytes, [x, y]) = model(kind.clone(), DType::F32, shape, None, axes, out_shape, None);
            let s = run_op0(&format!("sum_f32_{k}"), &bytes, &[(x, TensorData::F32(xf.clone()))]);
            assert_eq!(s.get(y), Some(&TensorData::F32(naive(shape, &xf, &resolved, 0.0, |a, b| b + a))));
            check(&format!("sum_f32_{k}"), &bytes, &[(x, TensorData::F32(xf))], y, vector(VECTORS_F32, &format!("sum_f32_{k}")));
            let (bytes, [x, y]) = model(kind.clone(), DType::I8, shape, Some((0.05, -7)), axes, out_shape, Some((0.21, 12)));
            let name = format!("sum_s8_{k}");
            check(&name, &bytes, &[(x, TensorData::I8(i8s(90 + k as u64, n)))], y, vector(VECTORS_S8, &name));
            let (bytes, [x, y]) = model(kind, DType::I16, shape, Some((0.001, 3)), axes, out_shape, Some((0.0035, -5)));
            let x16: Vec<i16> = i8s(100 + k as u64, n).iter().map(|&q| i16::from(q) * 255).collect();
            let name = format!("sum_s16_{k}");
            check(&name, &bytes, &[(x, TensorData::I16(x16))], y, vector(VECTORS_S16, &name));
        }
    }

    #[test]
    fn refusals() {
        check_malformed(OpKind::Sum { keep_dims: false }, DType::I8, Some((0.5, 0)));
        check_malformed(OpKind::Sum { keep_dims: false }, DType::F32, None);
        expect_unsupported(&model(OpKind::Sum { keep_dims: false }, DType::I32, &[2, 3], None, &[1], &[2], None).0);
        expect_unsupported(&model(OpKind::Sum { keep_dims: false }, DType::Bool, &[2, 3], None, &[1], &[2], None).0);
        expect_unsupported(&model(OpKind::Sum { keep_dims: false }, DType::I8, &[2, 3], None, &[1], &[2], Some((0.5, 0))).0);
    }

    const VECTORS_F32: &[(&str, &[f32])] = &[
        ("sum_f32_0", &[-15.880001068115234, -93.58000183105469, -1.4500007629394531, -9.220001220703125, -12.550000190734863, 26.670000076293945, -34.75, 2.2500009536743164]),
        ("sum_f32_1", &[-104.62999725341797, 17.099998474121094, 128.10000610351562]),
        ("sum_f32_2", &[-55.6299934387207]),
        ("sum_f32_3", &[42.93000030517578, 22.21000099182129, 27.39000129699707, 17.770000457763672, 0.75, -45.130001068115234, 1.1200000047683716, 17.399999618530273, -30.700000762939453, -32.55000305175781, -10.720000267028809, -39.21000289916992, 44.40999984741211, 5.560000419616699, -29.96000099182129, -5.909999847412109, 34.04999923706055, 17.030000686645508, -37.730003356933594, -4.799999713897705, 24.43000030517578, -3.690000057220459, 9.260000228881836, 3.3399999141693115, -38.840003967285156, 24.43000030517578, -40.320003509521484, -23.670000076293945, 28.130001068115234, 40.34000015258789]),
        ("sum_f32_4", &[42.93000030517578, -39.95000076293945, -39.95000076293945, -5.909999847412109, 42.93000030517578, -25.520000457763672, -22.190000534057617, 42.93000030517578, 28.130001068115234, -46.61000061035156, -45.87000274658203, -26.6299991607666, 9.630000114440918, -38.840003967285156, -5.539999961853027, 3.7100000381469727, -39.21000289916992, -30.329999923706055, 37.0099983215332, -8.130000114440918, -23.670000076293945, 23.690000534057617, 11.110000610351562, -27.0]),
        ("sum_f32_5", &[12.65999984741211, -33.96000671386719, 40.779998779296875, 26.350000381469727, 67.41999816894531, 58.90999984741211, 158.4399871826172, 132.91000366210938]),
    ];
    const VECTORS_S8: &[(&str, &[i8])] = &[
        ("sum_s8_0", &[21, -18, 27, -37, 37, -7, 10, -35]),
        ("sum_s8_1", &[-40, 65, 3]),
        ("sum_s8_2", &[78]),
        ("sum_s8_3", &[-8, -4, -15, -7, 42, 28, 32, 11, 0, -7, -6, 24, -8, -9, -15, -11, 6, 19, 19, -12, 20, 24, 2, 35, -4, -11, -17, 33, 0, 41]),
        ("sum_s8_4", &[6, 41, 31, -16, 6, 15, -12, -13, 43, 31, 24, -15, 21, -3, -4, 36, 30, 21, 29, -15, -4, -8, -14, 10]),
        ("sum_s8_5", &[72, 105, 19, 118, 58, -10, 127, -26]),
    ];
    const VECTORS_S16: &[(&str, &[i16])] = &[
        ("sum_s16_0", &[22724, 17041, -11082, -3796, -7585, -736, 22214, 7934]),
        ("sum_s16_1", &[-4019, 32767, 5380]),
        ("sum_s16_2", &[-20790]),
        ("sum_s16_3", &[7499, -443, 5823, -1318, -1755, -8020, -443, -4378, -2119, -3358, -1682, 6770, 796, 9029, 1379, 3200, -6855, -5470, -4888, 5094, 6114, -4669, -3649, -9259, 2982, -7948, 8737, 8519, -9040, 4876]),
        ("sum_s16_4", &[-4305, -1099, 6114, 2326, -6490, 2690, 3273, -8749, -3212, -1755, 9029, 5896, -6345, -1026, 359, 2326, -4086, -7510, -2702, 1087, 9174, -8312, 4876, -3358]),
        ("sum_s16_5", &[21700, -32768, -9994, 11136, -522, -12252, -24201, 27018]),
    ];
}
