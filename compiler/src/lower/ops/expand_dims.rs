//! EXPAND_DIMS: a view that inserts a size-1 dimension at a constant int32 axis
//! (`axis < 0` counts from the end of the OUTPUT's rank: `rank + 1 + axis`), TFLite Micro
//! `expand_dims.cc`. Element type and quantization are unchanged.

use super::movement::{const_axis, expect_shape, lower_view, View};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<View, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let input = cx.input(0)?;
    let axis_t = cx.input(1)?;
    let output = cx.output(0)?;
    let rank = input.shape.len() as i64;
    let axis = const_axis(cx, axis_t)?;
    let a = if axis < 0 { rank + 1 + axis } else { axis };
    if !(0..=rank).contains(&a) {
        return Err(cx.invalid(format!("axis {axis} is out of range for rank {rank}")));
    }
    let mut want = input.shape.clone();
    want.insert(a as usize, 1);
    expect_shape(cx, output, &want)?;
    lower_view(cx, "EXPAND_DIMS", input, output)
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(in_shape: &[usize], axis: &[i32], axis_shape: &[usize], out_shape: &[usize]) -> (Vec<u8>, TensorId, TensorId) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, in_shape, Some((0.1, 5)));
        let a = b.constant_i32("axis", axis_shape, axis, None);
        let y = b.activation("y", DType::I8, out_shape, Some((0.1, 5)));
        b.op(OpKind::ExpandDims, &[Some(x), Some(a)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    #[test]
    fn every_position_including_negative() {
        for (axis, out) in [(0, &[1, 4, 6][..]), (1, &[4, 1, 6]), (2, &[4, 6, 1]), (-1, &[4, 6, 1]), (-2, &[4, 1, 6]), (-3, &[1, 4, 6])] {
            let (bytes, x, y) = model(&[4, 6], &[axis], &[], out);
            let data = i8s(9, 24);
            let s = run_op0(&bytes, &[(x, TensorData::I8(data.clone()))]);
            assert_eq!(i8_of(&s, y), data);
            assert!(lower_op0(&bytes).unwrap().is_view());
            let (text, ni, no) = emit_op0(&bytes);
            assert_eq!((ni, no), (1, 1));
            assert!(text.contains("kernels :: reshape :: reshape_s8"), "{text}");
        }
        // A one-element axis vector, and a scalar input.
        assert!(lower_op0(&model(&[4, 6], &[1], &[1], &[4, 1, 6]).0).is_ok());
        assert!(lower_op0(&model(&[], &[0], &[], &[1]).0).is_ok());
    }

    #[test]
    fn malformed_variants_are_errors() {
        assert!(matches!(lower_err(&model(&[4, 6], &[3], &[], &[4, 6, 1]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[4, 6], &[-4], &[], &[1, 4, 6]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[4, 6], &[0], &[], &[4, 1, 6]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[4, 6], &[0, 1], &[2], &[1, 4, 6]).0), LowerError::Invalid { .. }));
        // A computed axis.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[4], Some((0.1, 5)));
        let a = b.activation("axis", DType::I32, &[], None);
        let y = b.activation("y", DType::I8, &[1, 4], Some((0.1, 5)));
        b.op(OpKind::ExpandDims, &[Some(x), Some(a)], &[y]);
        b.inputs(&[x, a]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
    }
}
