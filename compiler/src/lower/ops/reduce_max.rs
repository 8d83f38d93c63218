//! REDUCE_MAX: the maximum over the axes of a constant int32 input, float32 or int8 (with
//! the input's quantization on the output, as TFLite Micro requires); the reduction family
//! ([`super::reduce`]).

use super::reduce::{lower_reduce, Reduce, ReduceOp};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>, keep_dims: bool) -> Result<Reduce, LowerError> {
    lower_reduce(cx, ReduceOp::Max, keep_dims)
}

#[cfg(test)]
mod tests {
    use super::super::reduce::tests::*;
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{DType, OpKind};

    /// Every axis case in float32 (NaN, infinities, -0.0 among the values) and int8, against
    /// the naive reduction and TFLite Micro.
    #[test]
    fn against_tflite_micro() {
        let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 0.0];
        for (k, &(shape, axes, keep_dims, out_shape)) in AXES.iter().enumerate() {
            let kind = OpKind::ReduceMax { keep_dims };
            let n: usize = shape.iter().product();
            let resolved = super::super::reduce::resolve_axes(shape.len(), axes).unwrap();
            let mut xf: Vec<f32> = i8s(110 + k as u64, n).iter().map(|&q| f32::from(q) * 0.5).collect();
            for (i, v) in specials.iter().enumerate() {
                if let Some(x) = xf.get_mut(i * 5) {
                    *x = *v;
                }
            }
            let (bytes, [x, y]) = model(kind.clone(), DType::F32, shape, None, axes, out_shape, None);
            let name = format!("reduce_max_f32_{k}");
            let init = if "max" == "max" { -f32::MAX } else { f32::MAX };
            let s = run_op0(&name, &bytes, &[(x, TensorData::F32(xf.clone()))]);
            let want = naive(shape, &xf, &resolved, init, |cur, v| if v > cur { v } else { cur });
            match s.get(y) {
                Some(TensorData::F32(got)) => assert_eq!(got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), want.iter().map(|v| v.to_bits()).collect::<Vec<_>>()),
                other => panic!("{other:?}"),
            }
            check(&name, &bytes, &[(x, TensorData::F32(xf))], y, vector(VECTORS_F32, &name));
            let (bytes, [x, y]) = model(kind, DType::I8, shape, Some((0.05, -7)), axes, out_shape, Some((0.05, -7)));
            let name = format!("reduce_max_s8_{k}");
            let xq = i8s(120 + k as u64, n);
            let s = run_op0(&name, &bytes, &[(x, TensorData::I8(xq.clone()))]);
            let init = if "max" == "max" { i8::MIN } else { i8::MAX };
            assert_eq!(s.get(y), Some(&TensorData::I8(naive(shape, &xq, &resolved, init, |cur, v| if v > cur { v } else { cur }))));
            check(&name, &bytes, &[(x, TensorData::I8(xq))], y, vector(VECTORS_S8, &name));
        }
    }

    #[test]
    fn refusals() {
        let kind = OpKind::ReduceMax { keep_dims: false };
        check_malformed(kind.clone(), DType::I8, Some((0.5, 0)));
        check_malformed(kind.clone(), DType::F32, None);
        let e = lower_op0(&model(kind.clone(), DType::I8, &[2, 3], Some((0.5, 0)), &[1], &[2], Some((0.25, 0))).0).unwrap_err().to_string();
        assert!(e.contains("requires them equal"), "{e}");
        expect_unsupported(&model(kind.clone(), DType::I8, &[2, 3], Some((0.5, 0)), &[1], &[2], Some((0.5, 1))).0);
        expect_unsupported(&model(kind.clone(), DType::I16, &[2, 3], Some((0.5, 0)), &[1], &[2], Some((0.5, 0))).0);
        expect_unsupported(&model(kind, DType::I32, &[2, 3], None, &[1], &[2], None).0);
    }

    const VECTORS_F32: &[(&str, &[f32])] = &[
        ("reduce_max_f32_0", &[63.5, f32::INFINITY, -26.0, 44.5, 60.5, 49.5, 47.0, 9.0]),
        ("reduce_max_f32_1", &[31.5, f32::INFINITY, 33.0]),
        ("reduce_max_f32_2", &[f32::INFINITY]),
        ("reduce_max_f32_3", &[-3.4028235e38, -34.5, -25.0, 4.5, -42.5, f32::INFINITY, -53.5, -41.5, 32.0, -4.0, -3.4028235e38, -56.5, -29.5, -3.5, 61.0, -0.0, -64.0, -59.5, 22.5, -24.0, 0.0, -55.5, -42.5, -15.0, -10.0, 40.5, -43.5, -52.0, -58.0, 5.0]),
        ("reduce_max_f32_4", &[-3.4028235e38, 50.0, -17.5, 3.5, 55.0, f32::INFINITY, 7.5, 1.5, 16.5, 62.5, -3.4028235e38, 41.0, 50.0, 4.0, 61.5, -0.0, 56.5, -14.0, -40.5, -42.5, 0.0, 54.5, -25.0, -62.5]),
        ("reduce_max_f32_5", &[54.5, f32::INFINITY, 21.0, 31.0, 63.0, 63.0, 59.0, 61.0]),
    ];
    const VECTORS_S8: &[(&str, &[i8])] = &[
        ("reduce_max_s8_0", &[108, 22, 100, 67, 95, 113, -18, -99]),
        ("reduce_max_s8_1", &[118, 26, 109]),
        ("reduce_max_s8_2", &[106]),
        ("reduce_max_s8_3", &[-15, 13, -67, 42, -93, -42, -47, -19, 98, 4, 80, -20, -5, 50, -34, 4, -20, 64, 73, -55, -112, -75, 39, -41, 26, 65, -125, 0, 125, 53]),
        ("reduce_max_s8_4", &[49, -103, -127, 74, -33, 14, 95, -90, -2, 77, -120, 69, 111, 126, -5, -30, 6, -77, 118, -43, 116, 48, -100, 2]),
        ("reduce_max_s8_5", &[124, 106, 124, 62, 111, 106, 111, 114]),
    ];
}
