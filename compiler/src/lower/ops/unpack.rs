//! UNPACK: output `k` is `input[.., k, ..]` along an axis (negative counts from the end of
//! the input's rank), the axis dropped from its shape. TFLite Micro `unpack.cc`; `num`
//! must equal both the output count and the input's extent along the axis. Each output is
//! one strided copy (`tflc_runtime::kernels::unpack`).

use super::movement::{copy_to_outputs, count, movable_dtype, resolve_axis, MoveKernel, StridedCopy};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::unpack::prepare_unpack_output;

const KERNEL: MoveKernel = MoveKernel { op: "UNPACK", module: "unpack", func: "unpack", params: "UnpackParams" };

pub(crate) fn lower(cx: &OpCx<'_, '_>, num: i32, axis: i32) -> Result<StridedCopy, LowerError> {
    let n = count(cx, "num", num)?;
    cx.expect_arity(1..=1, n)?;
    let input = cx.input(0)?;
    let dtype = movable_dtype(cx, input)?;
    let axis = resolve_axis(cx, i64::from(axis), input.shape.len())?;
    if input.shape[axis] != n {
        return Err(cx.invalid_tensor(input, format!("dimension {axis} is {}, but num is {n}", input.shape[axis])));
    }
    let mut want = input.shape.clone();
    want.remove(axis);
    copy_to_outputs(cx, KERNEL, input, dtype, n, |k| (want.clone(), prepare_unpack_output(&input.shape, axis, k)))
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(shape: &[usize], num: i32, axis: i32, out_shape: &[usize], outs: usize) -> (Vec<u8>, TensorId, Vec<TensorId>) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, shape, Some((0.2, 14)));
        let ys: Vec<TensorId> = (0..outs).map(|k| b.activation(&format!("y{k}"), DType::I8, out_shape, Some((0.2, 14)))).collect();
        b.op(OpKind::Unpack { num, axis }, &[Some(x)], &ys);
        b.inputs(&[x]).outputs(&ys);
        (b.finish(), x, ys)
    }

    /// Output `k` at `idx` is the input at `idx` with `k` inserted at the axis.
    fn check(shape: &[usize], axis: i32) {
        let a = (if axis < 0 { axis + shape.len() as i32 } else { axis }) as usize;
        let n = shape[a];
        let mut out_shape = shape.to_vec();
        out_shape.remove(a);
        let (bytes, x, ys) = model(shape, n as i32, axis, &out_shape, n);
        let data = i8s(5, shape.iter().product());
        let s = run_op0(&bytes, &[(x, TensorData::I8(data.clone()))]);
        for (k, &y) in ys.iter().enumerate() {
            let want: Vec<i8> = (0..out_shape.iter().product())
                .map(|i| {
                    let mut idx = unravel(i, &out_shape);
                    idx.insert(a, k);
                    data[ravel(&idx, shape)]
                })
                .collect();
            assert_eq!(i8_of(&s, y), want, "shape {shape:?} axis {axis} output {k}");
        }
        let (text, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (1, n));
        assert!(text.contains("kernels :: unpack :: unpack_s8 (& P0"), "{text}");
    }

    #[test]
    fn every_axis_including_negative() {
        check(&[3, 5], 0);
        check(&[3, 5], 1);
        check(&[3, 5], -1);
        check(&[1, 1, 24], 1);
        check(&[2, 3, 4], 0);
        check(&[2, 3, 4], -2);
        check(&[2, 3, 4], 2);
        check(&[4], 0);
    }

    #[test]
    fn malformed_variants_are_errors() {
        // num differs from the axis extent; output count differs; wrong output shape; axis range.
        assert!(matches!(lower_err(&model(&[3, 5], 2, 0, &[5], 2).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[3, 5], 3, 0, &[5], 2).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[3, 5], 3, 0, &[1, 5], 3).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[3, 5], 3, 2, &[5], 3).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[3, 5], 3, -3, &[5], 3).0), LowerError::Invalid { .. }));
        // Float is fine, int64 is not movable.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I64, &[2, 2], None);
        let ys = [b.activation("y0", DType::I64, &[2], None), b.activation("y1", DType::I64, &[2], None)];
        b.op(OpKind::Unpack { num: 2, axis: 0 }, &[Some(x)], &ys);
        b.inputs(&[x]).outputs(&ys);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
    }
}
