//! SPLIT: `num_splits` equal parts of the input along an axis. The axis is the FIRST
//! input, a constant int32 scalar (TFLite Micro `split.cc` refuses a computed one);
//! negative counts from the end. Each output is one strided copy
//! (`tflc_runtime::kernels::split`).

use super::movement::{const_axis, copy_to_outputs, count, movable_dtype, resolve_axis, MoveKernel, StridedCopy};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::split::{prepare_split_output, split_size};

const KERNEL: MoveKernel = MoveKernel { op: "SPLIT", module: "split", func: "split", params: "SplitParams" };

pub(crate) fn lower(cx: &OpCx<'_, '_>, num_splits: i32) -> Result<StridedCopy, LowerError> {
    let n = count(cx, "num_splits", num_splits)?;
    if n == 0 {
        return Err(cx.invalid("num_splits is 0"));
    }
    cx.expect_arity(2..=2, n)?;
    let axis_t = cx.input(0)?;
    let input = cx.input(1)?;
    let dtype = movable_dtype(cx, input)?;
    let axis = resolve_axis(cx, const_axis(cx, axis_t)?, input.shape.len())?;
    let size = split_size(input.shape[axis], n)
        .ok_or_else(|| cx.invalid_tensor(input, format!("dimension {axis} ({}) is not divisible into {n} parts", input.shape[axis])))?;
    let mut out_shape = input.shape.clone();
    out_shape[axis] = size;
    copy_to_outputs(cx, KERNEL, input, dtype, n, |k| (out_shape.clone(), prepare_split_output(&input.shape, axis, k * size, size)))
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(shape: &[usize], axis: &[i32], axis_shape: &[usize], n: i32, out_shape: &[usize], outs: usize) -> (Vec<u8>, TensorId, Vec<TensorId>) {
        let mut b = ModelBuilder::new();
        let a = b.constant_i32("axis", axis_shape, axis, None);
        let x = b.activation("x", DType::I8, shape, Some((0.3, -7)));
        let ys: Vec<TensorId> = (0..outs).map(|k| b.activation(&format!("y{k}"), DType::I8, out_shape, Some((0.3, -7)))).collect();
        b.op(OpKind::Split { num_splits: n }, &[Some(a), Some(x)], &ys);
        b.inputs(&[x]).outputs(&ys);
        (b.finish(), x, ys)
    }

    /// Output `k`, element at `idx`, is the input at `idx` with `idx[axis] += k * size`.
    fn check(shape: &[usize], axis: i32, n: usize) {
        let rank = shape.len() as i32;
        let a = (if axis < 0 { axis + rank } else { axis }) as usize;
        let mut out_shape = shape.to_vec();
        out_shape[a] /= n;
        let (bytes, x, ys) = model(shape, &[axis], &[], n as i32, &out_shape, n);
        let data = i8s(3, shape.iter().product());
        let s = run_op0(&bytes, &[(x, TensorData::I8(data.clone()))]);
        for (k, &y) in ys.iter().enumerate() {
            let want: Vec<i8> = (0..out_shape.iter().product())
                .map(|i| {
                    let mut idx = unravel(i, &out_shape);
                    idx[a] += k * out_shape[a];
                    data[ravel(&idx, shape)]
                })
                .collect();
            assert_eq!(i8_of(&s, y), want, "shape {shape:?} axis {axis} output {k}");
        }
        let (text, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (1, n));
        if n > 1 {
            assert!(text.contains("split :: split_s8 (& P0 [1] ,"), "{text}");
        }
    }

    #[test]
    fn every_axis() {
        check(&[1, 4, 4, 6], 3, 2);
        check(&[1, 4, 4, 6], -1, 3);
        check(&[1, 72], 1, 3);
        check(&[6, 2, 3], 0, 3);
        check(&[2, 6, 3], 1, 6);
        check(&[2, 6, 3], -2, 2);
        check(&[2, 5], 1, 1);
    }

    #[test]
    fn axis_as_one_element_vector() {
        let (bytes, x, ys) = model(&[2, 4], &[1], &[1], 2, &[2, 2], 2);
        let s = run_op0(&bytes, &[(x, TensorData::I8(vec![1, 2, 3, 4, 5, 6, 7, 8]))]);
        assert_eq!(i8_of(&s, ys[0]), vec![1, 2, 5, 6]);
        assert_eq!(i8_of(&s, ys[1]), vec![3, 4, 7, 8]);
    }

    #[test]
    fn malformed_variants_are_errors() {
        // Not divisible, wrong output shape, output count differs from num_splits.
        assert!(matches!(lower_err(&model(&[2, 5], &[1], &[], 2, &[2, 2], 2).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[2, 4], &[1], &[], 2, &[2, 3], 2).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[2, 4], &[1], &[], 2, &[2, 2], 3).0), LowerError::Invalid { .. }));
        // Axis out of range, axis with two values, num_splits 0.
        assert!(matches!(lower_err(&model(&[2, 4], &[2], &[], 2, &[2, 2], 2).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[2, 4], &[1, 1], &[2], 2, &[2, 2], 2).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[2, 4], &[1], &[], 0, &[2, 2], 0).0), LowerError::Invalid { .. }));
        // A computed (non-constant) axis.
        let mut b = ModelBuilder::new();
        let a = b.activation("axis", DType::I32, &[], None);
        let x = b.activation("x", DType::I8, &[2, 4], Some((0.3, 0)));
        let ys = [b.activation("y0", DType::I8, &[2, 2], Some((0.3, 0))), b.activation("y1", DType::I8, &[2, 2], Some((0.3, 0)))];
        b.op(OpKind::Split { num_splits: 2 }, &[Some(a), Some(x)], &ys);
        b.inputs(&[a, x]).outputs(&ys);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
        // Output quantization differs.
        let mut b = ModelBuilder::new();
        let a = b.constant_i32("axis", &[], &[1], None);
        let x = b.activation("x", DType::I8, &[2, 4], Some((0.3, 0)));
        let ys = [b.activation("y0", DType::I8, &[2, 2], Some((0.3, 0))), b.activation("y1", DType::I8, &[2, 2], Some((0.3, 1)))];
        b.op(OpKind::Split { num_splits: 2 }, &[Some(a), Some(x)], &ys);
        b.inputs(&[x]).outputs(&ys);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
    }
}
