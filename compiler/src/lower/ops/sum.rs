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
        ("sum_f32_0", &[-15.880001, -93.58, -1.4500008, -9.220001, -12.55, 26.67, -34.75, 2.250001]),
        ("sum_f32_1", &[-104.63, 17.099998, 128.1]),
        ("sum_f32_2", &[-55.629993]),
        ("sum_f32_3", &[42.93, 22.210001, 27.390001, 17.77, 0.75, -45.13, 1.12, 17.4, -30.7, -32.550003, -10.72, -39.210003, 44.41, 5.5600004, -29.960001, -5.91, 34.05, 17.03, -37.730003, -4.7999997, 24.43, -3.69, 9.26, 3.34, -38.840004, 24.43, -40.320004, -23.67, 28.130001, 40.34]),
        ("sum_f32_4", &[42.93, -39.95, -39.95, -5.91, 42.93, -25.52, -22.19, 42.93, 28.130001, -46.61, -45.870003, -26.63, 9.63, -38.840004, -5.54, 3.71, -39.210003, -30.33, 37.01, -8.13, -23.67, 23.69, 11.110001, -27.0]),
        ("sum_f32_5", &[12.66, -33.960007, 40.78, 26.35, 67.42, 58.91, 158.43999, 132.91]),
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
