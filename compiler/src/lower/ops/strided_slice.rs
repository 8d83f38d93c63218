//! STRIDED_SLICE with constant int32 `begin` / `end` / `strides` (one entry per input
//! dimension, rank at most 5) and `begin_mask`, `end_mask`, `shrink_axis_mask`, all
//! resolved at compile time into one strided copy (possibly with negative steps) by the
//! runtime's `prepare_strided_slice`, which mirrors TFLite Micro `strided_slice.cc` +
//! `reference_ops::StridedSlice`. The output shape is the per-axis element counts without
//! the shrunk axes.
//!
//! TFLite Micro silently ignores `ellipsis_mask`, `new_axis_mask` and the `offset` option
//! (it zeroes them), which changes the op's meaning; tflc refuses models that set them.

use super::movement::{expect_shape, lower_copy, plan, MoveKernel, StridedCopy};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::StridedSliceOptions;
use tflc_runtime::kernels::strided_slice::{prepare_strided_slice, strided_slice_bounds};

/// The runtime's padded rank: inputs of at most this rank.
const MAX_DIMS: usize = 5;

const KERNEL: MoveKernel = MoveKernel { op: "STRIDED_SLICE", module: "strided_slice", func: "strided_slice", params: "StridedSliceParams" };

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &StridedSliceOptions) -> Result<StridedCopy, LowerError> {
    let (input, output, dtype) = lower_copy(cx, 4)?;
    if o.ellipsis_mask != 0 || o.new_axis_mask != 0 {
        return Err(cx.unsupported("ellipsis_mask / new_axis_mask (TFLite Micro ignores them)"));
    }
    if o.offset {
        return Err(cx.unsupported("the offset option (TFLite Micro ignores it)"));
    }
    let rank = input.shape.len();
    if rank == 0 || rank > MAX_DIMS {
        return Err(cx.unsupported_tensor(input, format!("rank {rank} (1 to {MAX_DIMS} are supported)")));
    }
    let mut vecs = Vec::with_capacity(3);
    for i in 1..=3 {
        let t = cx.input(i)?;
        let v = cx.const_i32(t)?;
        if t.shape.len() != 1 || v.len() != rank {
            return Err(cx.invalid_tensor(t, format!("shape {:?}, expected [{rank}]", t.shape)));
        }
        vecs.push(v);
    }
    let (begin, end, strides) = (&vecs[0], &vecs[1], &vecs[2]);
    if strides.contains(&0) {
        return Err(cx.invalid(format!("strides {strides:?} contain 0")));
    }
    let (bm, em, sm) = (o.begin_mask as u32, o.end_mask as u32, o.shrink_axis_mask as u32);
    let bounds = strided_slice_bounds(&input.shape, begin, end, strides, bm, em, sm, false)
        .ok_or_else(|| cx.invalid(format!("begin {begin:?}, end {end:?}, strides {strides:?} do not fit the input")))?;
    let pad = MAX_DIMS - rank;
    // A shrunk axis must select exactly one element. With a negative stride, or a begin
    // clamped to the end, TFLite's loop selects none and TFLite Micro leaves the output
    // unwritten; refuse that instead of reproducing garbage.
    if let Some(d) = (0..rank).find(|&d| sm & (1 << d) != 0 && bounds.count[pad + d] != 1) {
        return Err(cx.unsupported(format!(
            "shrunk axis {d} selects {} elements (begin {}, stride {})",
            bounds.count[pad + d],
            begin[d],
            strides[d]
        )));
    }
    let want: Vec<usize> = (0..rank).filter(|&d| sm & (1 << d) == 0).map(|d| bounds.count[pad + d]).collect();
    expect_shape(cx, output, &want)?;
    let plan = plan(cx, prepare_strided_slice(&input.shape, begin, end, strides, bm, em, sm, false), "STRIDED_SLICE")?;
    Ok(StridedCopy::new(KERNEL, input, dtype, vec![output.id], vec![plan]))
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, StridedSliceOptions, TensorId};
    use crate::tflite::builder::ModelBuilder;

    struct Case<'a> {
        shape: &'a [usize],
        begin: &'a [i32],
        end: &'a [i32],
        strides: &'a [i32],
        masks: (i32, i32, i32),
    }

    fn model(c: &Case<'_>, o: StridedSliceOptions, out_shape: &[usize]) -> (Vec<u8>, TensorId, TensorId) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, c.shape, Some((0.5, 0)));
        let n = c.begin.len();
        let bt = b.constant_i32("begin", &[n], c.begin, None);
        let et = b.constant_i32("end", &[n], c.end, None);
        let st = b.constant_i32("strides", &[n], c.strides, None);
        let y = b.activation("y", DType::I8, out_shape, Some((0.5, 0)));
        b.op(OpKind::StridedSlice(o), &[Some(x), Some(bt), Some(et), Some(st)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    fn opts(c: &Case<'_>) -> StridedSliceOptions {
        StridedSliceOptions { begin_mask: c.masks.0, end_mask: c.masks.1, shrink_axis_mask: c.masks.2, ..Default::default() }
    }

    /// Runs on input `0, 1, 2, ...` (so each output value is its source index) and checks
    /// against hand-computed values.
    fn check(c: Case<'_>, out_shape: &[usize], want: &[i8]) {
        let (bytes, x, y) = model(&c, opts(&c), out_shape);
        let data: Vec<i8> = (0..c.shape.iter().product::<usize>()).map(|i| i as i8).collect();
        let s = run_op0(&bytes, &[(x, TensorData::I8(data))]);
        assert_eq!(i8_of(&s, y), want, "begin {:?} end {:?} strides {:?}", c.begin, c.end, c.strides);
        let (text, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (1, 1));
        assert!(text.contains("kernels :: strided_slice :: strided_slice_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn steps_masks_shrink_and_clamping() {
        let s = &[2, 3, 4][..];
        // Step 2 on the last axis.
        check(Case { shape: s, begin: &[0, 0, 0], end: &[2, 3, 4], strides: &[1, 1, 2], masks: (0, 0, 0) }, &[2, 3, 2], &[
            0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22,
        ]);
        // Shrink axis 0 at 1, every other row, last axis reversed via negative indices.
        check(Case { shape: s, begin: &[1, 0, -1], end: &[2, 3, -5], strides: &[1, 2, -1], masks: (0, 0, 1) }, &[2, 4], &[
            15, 14, 13, 12, 23, 22, 21, 20,
        ]);
        // begin_mask on axis 0, end_mask on axes 0 and 1, a negative begin.
        check(Case { shape: s, begin: &[1, -2, 1], end: &[0, 0, 3], strides: &[1, 1, 1], masks: (1, 3, 0) }, &[2, 2, 2], &[
            5, 6, 9, 10, 17, 18, 21, 22,
        ]);
        // An out-of-range begin clamps to an empty axis.
        check(Case { shape: s, begin: &[1, 5, 1], end: &[0, 0, 3], strides: &[1, 1, 1], masks: (1, 3, 0) }, &[2, 0, 2], &[]);
        // An out-of-range end clamps.
        check(Case { shape: &[5], begin: &[1], end: &[100], strides: &[2], masks: (0, 0, 0) }, &[2], &[1, 3]);
        // Reverse everything with masks.
        check(Case { shape: &[5], begin: &[0], end: &[0], strides: &[-2], masks: (1, 1, 0) }, &[3], &[4, 2, 0]);
        // Shrink every axis: a scalar.
        check(Case { shape: &[2, 3], begin: &[1, 2], end: &[0, 0], strides: &[1, 1], masks: (0, 0, 3) }, &[], &[5]);
        // Rank 5.
        check(
            Case { shape: &[1, 2, 1, 2, 3], begin: &[0, 1, 0, 0, 2], end: &[1, 2, 1, 2, 3], strides: &[1, 1, 1, 1, 1], masks: (0, 0, 0) },
            &[1, 1, 1, 2, 1],
            &[8, 11],
        );
    }

    #[test]
    fn malformed_and_unsupported_variants() {
        let c = Case { shape: &[2, 3], begin: &[0, 0], end: &[2, 3], strides: &[1, 1], masks: (0, 0, 0) };
        // Wrong output shape.
        assert!(matches!(lower_err(&model(&c, opts(&c), &[2, 2]).0), LowerError::Invalid { .. }));
        // ellipsis / new_axis / offset.
        for o in [
            StridedSliceOptions { ellipsis_mask: 1, ..Default::default() },
            StridedSliceOptions { new_axis_mask: 2, ..Default::default() },
            StridedSliceOptions { offset: true, ..Default::default() },
        ] {
            assert!(matches!(lower_err(&model(&c, o, &[2, 3]).0), LowerError::Unsupported { .. }));
        }
        // A zero stride, vectors of the wrong length.
        let z = Case { strides: &[1, 0], ..c };
        assert!(matches!(lower_err(&model(&z, opts(&z), &[2, 3]).0), LowerError::Invalid { .. }));
        let l = Case { begin: &[0], end: &[2], strides: &[1], ..c };
        assert!(matches!(lower_err(&model(&l, opts(&l), &[2, 3]).0), LowerError::Invalid { .. }));
        // A shrunk axis that selects nothing: a negative stride, or a begin past the end.
        let n = Case { shape: &[3, 2], begin: &[1, 0], end: &[2, 2], strides: &[-1, 1], masks: (0, 0, 1) };
        assert!(matches!(lower_err(&model(&n, opts(&n), &[2]).0), LowerError::Unsupported { .. }));
        let e = Case { shape: &[3, 2], begin: &[5, 0], end: &[6, 2], strides: &[1, 1], masks: (0, 0, 1) };
        assert!(matches!(lower_err(&model(&e, opts(&e), &[2]).0), LowerError::Unsupported { .. }));
        // Rank 6.
        let r = Case { shape: &[1, 1, 1, 1, 1, 2], begin: &[0; 6], end: &[1, 1, 1, 1, 1, 2], strides: &[1; 6], masks: (0, 0, 0) };
        assert!(matches!(lower_err(&model(&r, opts(&r), &[1, 1, 1, 1, 1, 2]).0), LowerError::Unsupported { .. }));
    }
}
