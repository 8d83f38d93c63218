//! SPLIT_V: parts of given sizes along an axis (inputs: data, `size_splits`, axis). The
//! axis is a constant int32 scalar, negative counts from the end. `size_splits` may hold
//! one `-1` ("the rest"); when it is constant it is resolved and must agree with the
//! output shapes. TFLite Micro (`split_v.cc`) itself only reads the output shapes, so a
//! computed `size_splits` is accepted and the output shapes (which must add up) rule.
//! Each output is one strided copy (`tflc_runtime::kernels::split_v`).

use super::movement::{const_axis, const_ints, copy_to_outputs, count, movable_dtype, resolve_axis, MoveKernel, StridedCopy};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::split_v::{prepare_split_output, split_v_sizes};

const KERNEL: MoveKernel = MoveKernel { op: "SPLIT_V", module: "split_v", func: "split", params: "SplitParams" };

pub(crate) fn lower(cx: &OpCx<'_, '_>, num_splits: i32) -> Result<StridedCopy, LowerError> {
    let n = count(cx, "num_splits", num_splits)?;
    if n == 0 {
        return Err(cx.invalid("num_splits is 0"));
    }
    cx.expect_arity(3..=3, n)?;
    let input = cx.input(0)?;
    let sizes_t = cx.input(1)?;
    let axis_t = cx.input(2)?;
    let dtype = movable_dtype(cx, input)?;
    let axis = resolve_axis(cx, const_axis(cx, axis_t)?, input.shape.len())?;
    let dim = input.shape[axis];

    let outs = (0..n).map(|k| cx.output(k)).collect::<Result<Vec<_>, _>>()?;
    let sizes: Vec<usize> = if sizes_t.is_constant() {
        let requested = const_ints(cx, sizes_t)?;
        if requested.len() != n {
            return Err(cx.invalid_tensor(sizes_t, format!("{} sizes for {n} outputs", requested.len())));
        }
        let mut sizes = vec![0; n];
        split_v_sizes(dim, &requested, &mut sizes).ok_or_else(|| {
            cx.invalid_tensor(sizes_t, format!("sizes {requested:?} do not split dimension {axis} ({dim})"))
        })?;
        sizes
    } else {
        // As TFLite Micro: the outputs' extents along the axis, which must add up.
        let mut sizes = Vec::with_capacity(n);
        for out in &outs {
            match out.shape.get(axis) {
                Some(&d) if out.shape.len() == input.shape.len() => sizes.push(d),
                _ => return Err(cx.invalid_tensor(out, format!("shape {:?} does not match the input's rank", out.shape))),
            }
        }
        if sizes.iter().sum::<usize>() != dim {
            return Err(cx.invalid(format!("the outputs' sizes {sizes:?} do not add up to dimension {axis} ({dim})")));
        }
        sizes
    };

    let mut start = 0;
    copy_to_outputs(cx, KERNEL, input, dtype, n, |k| {
        let (size, at) = (sizes[k], start);
        start += size;
        let mut want = input.shape.clone();
        want[axis] = size;
        (want, prepare_split_output(&input.shape, axis, at, size))
    })
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    /// A SPLIT_V model; `sizes = None` makes `size_splits` a graph input (computed).
    fn model(shape: &[usize], sizes: Option<&[i32]>, axis: i32, out_shapes: &[Vec<usize>]) -> (Vec<u8>, TensorId, Vec<TensorId>) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, shape, Some((0.3, 2)));
        let st = match sizes {
            Some(v) => b.constant_i32("sizes", &[v.len()], v, None),
            None => b.activation("sizes", DType::I32, &[out_shapes.len()], None),
        };
        let a = b.constant_i32("axis", &[], &[axis], None);
        let ys: Vec<TensorId> = out_shapes.iter().enumerate().map(|(k, s)| b.activation(&format!("y{k}"), DType::I8, s, Some((0.3, 2)))).collect();
        b.op(OpKind::SplitV { num_splits: out_shapes.len() as i32 }, &[Some(x), Some(st), Some(a)], &ys);
        b.inputs(&[x]).outputs(&ys);
        (b.finish(), x, ys)
    }

    /// Output `k` at `idx` is the input at `idx` shifted by the sizes before `k`.
    fn check(shape: &[usize], sizes: Option<&[i32]>, axis: i32, out_shapes: &[Vec<usize>]) {
        let a = (if axis < 0 { axis + shape.len() as i32 } else { axis }) as usize;
        let (bytes, x, ys) = model(shape, sizes, axis, out_shapes);
        let data = i8s(11, shape.iter().product());
        let s = run_op0(&bytes, &[(x, TensorData::I8(data.clone()))]);
        let mut start = 0;
        for (k, (&y, os)) in ys.iter().zip(out_shapes).enumerate() {
            let want: Vec<i8> = (0..os.iter().product())
                .map(|i| {
                    let mut idx = unravel(i, os);
                    idx[a] += start;
                    data[ravel(&idx, shape)]
                })
                .collect();
            assert_eq!(i8_of(&s, y), want, "output {k}");
            start += os[a];
        }
        let (_, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (1, out_shapes.len()));
    }

    #[test]
    fn sizes_with_minus_one_zero_and_computed() {
        check(&[1, 6, 4, 2], Some(&[2, 4]), 1, &[vec![1, 2, 4, 2], vec![1, 4, 4, 2]]);
        check(&[1, 288], Some(&[96, -1, 96]), -1, &[vec![1, 96], vec![1, 96], vec![1, 96]]);
        check(&[3, 5], Some(&[1, 0, -1]), 1, &[vec![3, 1], vec![3, 0], vec![3, 4]]);
        check(&[4, 3], Some(&[3, 1]), 0, &[vec![3, 3], vec![1, 3]]);
        check(&[2, 7, 3], None, 1, &[vec![2, 5, 3], vec![2, 2, 3]]);
    }

    #[test]
    fn malformed_variants_are_errors() {
        // Two -1, sizes that do not add up, a size count that differs from the outputs.
        assert!(matches!(lower_err(&model(&[2, 6], Some(&[-1, -1]), 1, &[vec![2, 3], vec![2, 3]]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[2, 6], Some(&[2, 3]), 1, &[vec![2, 2], vec![2, 3]]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[2, 6], Some(&[2, 2, 2]), 1, &[vec![2, 3], vec![2, 3]]).0), LowerError::Invalid { .. }));
        // Constant sizes that disagree with the output shapes.
        assert!(matches!(lower_err(&model(&[2, 6], Some(&[2, 4]), 1, &[vec![2, 3], vec![2, 3]]).0), LowerError::Invalid { .. }));
        // Computed sizes whose outputs do not add up.
        assert!(matches!(lower_err(&model(&[2, 6], None, 1, &[vec![2, 3], vec![2, 2]]).0), LowerError::Invalid { .. }));
        // Axis out of range.
        assert!(matches!(lower_err(&model(&[2, 6], Some(&[3, 3]), 2, &[vec![2, 3], vec![2, 3]]).0), LowerError::Invalid { .. }));
    }
}
