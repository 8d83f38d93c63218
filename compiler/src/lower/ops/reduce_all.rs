//! REDUCE_ALL: logical AND over the axes of a constant int32 input, bool only; the
//! reduction family ([`super::reduce`]).

use super::reduce::{lower_reduce, Reduce, ReduceOp};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>, keep_dims: bool) -> Result<Reduce, LowerError> {
    lower_reduce(cx, ReduceOp::All, keep_dims)
}

#[cfg(test)]
mod tests {
    use super::super::comparison::tests::{bits, check_bits};
    use super::super::reduce::tests::*;
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{DType, OpKind};

    /// Every axis case against the naive AND and TFLite Micro (mostly-true inputs, so both
    /// results occur).
    #[test]
    fn against_tflite_micro() {
        for (k, &(shape, axes, keep_dims, out_shape)) in AXES.iter().enumerate() {
            let n: usize = shape.iter().product();
            let resolved = super::super::reduce::resolve_axes(shape.len(), axes).unwrap();
            let xb: Vec<bool> = i8s(130 + k as u64, n).iter().map(|&q| q > -100).collect();
            let (bytes, [x, y]) = model(OpKind::ReduceAll { keep_dims }, DType::Bool, shape, None, axes, out_shape, None);
            let name = format!("reduce_all_{k}");
            let s = run_op0(&name, &bytes, &[(x, TensorData::Bool(xb.clone()))]);
            let want: String = naive(shape, &xb, &resolved, true, |a, b| a && b).iter().map(|&b| if b { '1' } else { '0' }).collect();
            assert_eq!(bits(&s, y), want);
            check_bits(&name, &bytes, &[(x, TensorData::Bool(xb))], y, VECTORS.iter().find(|(n, _)| *n == name).map_or("", |(_, v)| *v));
        }
    }

    #[test]
    fn refusals() {
        check_malformed(OpKind::ReduceAll { keep_dims: false }, DType::Bool, None);
        expect_unsupported(&model(OpKind::ReduceAll { keep_dims: false }, DType::F32, &[2, 3], None, &[1], &[2], None).0);
        expect_unsupported(&model(OpKind::ReduceAll { keep_dims: false }, DType::I8, &[2, 3], Some((0.5, 0)), &[1], &[2], Some((0.5, 0))).0);
    }

    const VECTORS: &[(&str, &str)] = &[
        ("reduce_all_0", "00110110"),
        ("reduce_all_1", "001"),
        ("reduce_all_2", "0"),
        ("reduce_all_3", "111111111111101111111111111100"),
        ("reduce_all_4", "111111111111111111111111"),
        ("reduce_all_5", "10001010"),
    ];
}
