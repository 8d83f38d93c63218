//! STRIDED_SLICE, any element type. The begin/end/strides tensors and the masks are
//! resolved at compile time by [`prepare_strided_slice`], which mirrors TFLite Micro
//! `strided_slice.cc` (`BuildStridedSliceParams`) and `reference_ops::StridedSlice` with
//! `strided_slice::StridedSlicePadIndices` / `StridedSliceStartForAxis` /
//! `StridedSliceEndForAxis` (`strided_slice_logic.h`), into a strided copy with possibly
//! negative steps. The scalar implementation is [`crate::kernels::nd::strided_copy`].
//!
//! Like TFLite Micro, `ellipsis_mask` and `new_axis_mask` are not interpreted (TFLM sets
//! them to 0); a compiler should reject models that set them.

use crate::kernels::nd::{strided_copy, StridedCopyParams};
#[cfg(feature = "prepare")]
use crate::kernels::nd::{row_major_strides, GatherPlan};

#[cfg(test)]
mod tests;

/// STRIDED_SLICE parameters: a strided copy.
pub type StridedSliceParams<'a> = StridedCopyParams<'a>;

/// The padded rank `StridedSlicePadIndices` uses.
const DIMS: usize = 5;

/// The per-axis loop bounds TFLite computes, for tests and for checking the model's
/// output shape: `start`, `stop`, `stride` for each of the (front-padded) 5 dims, and
/// the resulting element count per dim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StridedSliceBounds {
    /// Per padded dimension, the first index read.
    pub start: [i32; DIMS],
    /// Per padded dimension, the index the walk stops at (exclusive, in the stride's direction).
    pub stop: [i32; DIMS],
    /// Per padded dimension, the step (negative walks backwards; never 0).
    pub stride: [i32; DIMS],
    /// Per padded dimension, the number of indices read: the output's dimension.
    pub count: [usize; DIMS],
}

fn clamp(v: i32, lo: i32, hi: i32) -> i32 {
    if hi < v {
        hi
    } else if v < lo {
        lo
    } else {
        v
    }
}

/// Compile-time: TFLite's per-axis start/stop for a STRIDED_SLICE on `input_shape`
/// (rank <= 5) with `begin`/`end`/`strides` (one entry per input dim) and the masks.
/// `offset` is TFLite's `StridedSliceParams::offset` (false in TFLite Micro).
/// `None` on a zero stride or mismatched lengths.
#[allow(clippy::too_many_arguments)]
pub fn strided_slice_bounds(
    input_shape: &[usize],
    begin: &[i32],
    end: &[i32],
    strides: &[i32],
    begin_mask: u32,
    end_mask: u32,
    shrink_axis_mask: u32,
    offset: bool,
) -> Option<StridedSliceBounds> {
    let n = input_shape.len();
    if n > DIMS || begin.len() != n || end.len() != n || strides.len() != n {
        return None;
    }
    if strides.contains(&0) {
        return None;
    }
    // StridedSlicePadIndices: front-pad to 5 dims with [0, 1) step 1, masks shifted, the
    // padded dims' begin/end mask bits set.
    let pad = DIMS - n;
    let mut shape = [1i32; DIMS];
    let mut b = [0i32; DIMS];
    let mut e = [1i32; DIMS];
    let mut s = [1i32; DIMS];
    for i in 0..n {
        shape[pad + i] = i32::try_from(input_shape[i]).ok()?;
        b[pad + i] = begin[i];
        e[pad + i] = end[i];
        s[pad + i] = strides[i];
    }
    let begin_mask = (begin_mask << pad) | ((1u32 << pad) - 1);
    let end_mask = (end_mask << pad) | ((1u32 << pad) - 1);
    let shrink_axis_mask = shrink_axis_mask << pad;

    let mut out = StridedSliceBounds { start: [0; DIMS], stop: [0; DIMS], stride: s, count: [0; DIMS] };
    for axis in 0..DIMS {
        let axis_size = shape[axis];
        let stride = s[axis];
        // StridedSliceStartForAxis
        let mut start = b[axis];
        if start < 0 {
            start = start.wrapping_add(axis_size);
        }
        start = if stride > 0 { clamp(start, 0, axis_size) } else { clamp(start, -1, axis_size - 1) };
        if begin_mask & (1 << axis) != 0 {
            start = if stride > 0 { 0 } else { axis_size - 1 };
        }
        // StridedSliceEndForAxis
        let stop = if shrink_axis_mask & (1 << axis) != 0 {
            if start >= axis_size {
                start
            } else {
                start + 1
            }
        } else {
            let mut end = e[axis];
            if offset {
                end = end.wrapping_add(start);
            }
            if end < 0 {
                end = end.wrapping_add(axis_size);
            }
            end = if stride > 0 { clamp(end, 0, axis_size) } else { clamp(end, -1, axis_size - 1) };
            if end_mask & (1 << axis) != 0 {
                end = if stride > 0 { axis_size } else { -1 };
            }
            end
        };
        // The reference loop: `for (i = start; stride > 0 ? i < stop : i > stop; i += stride)`.
        let count = if stride > 0 {
            if stop > start {
                ((stop as i64 - start as i64 + stride as i64 - 1) / stride as i64) as usize
            } else {
                0
            }
        } else if start > stop {
            ((start as i64 - stop as i64 + (-(stride as i64)) - 1) / -(stride as i64)) as usize
        } else {
            0
        };
        out.start[axis] = start;
        out.stop[axis] = stop;
        out.count[axis] = count;
    }
    Some(out)
}

/// Compile-time: the strided copy for a STRIDED_SLICE (see [`strided_slice_bounds`]).
/// The number of elements is the product of `bounds.count`; the model's output shape is
/// those counts minus the shrunk axes.
#[allow(clippy::too_many_arguments)]
#[cfg(feature = "prepare")]
pub fn prepare_strided_slice(
    input_shape: &[usize],
    begin: &[i32],
    end: &[i32],
    strides: &[i32],
    begin_mask: u32,
    end_mask: u32,
    shrink_axis_mask: u32,
    offset: bool,
) -> Option<GatherPlan> {
    let bounds =
        strided_slice_bounds(input_shape, begin, end, strides, begin_mask, end_mask, shrink_axis_mask, offset)?;
    let pad = DIMS - input_shape.len();
    let mut padded = [1usize; DIMS];
    padded[pad..].copy_from_slice(input_shape);
    let in_strides = row_major_strides(&padded);
    let mut dims = [(0usize, 0isize); DIMS];
    let mut base: isize = 0;
    let empty = bounds.count.contains(&0);
    for d in 0..DIMS {
        if !empty {
            base += bounds.start[d] as isize * in_strides[d] as isize;
        }
        dims[d] = (bounds.count[d], bounds.stride[d] as isize * in_strides[d] as isize);
    }
    GatherPlan::simplified(if empty { 0 } else { usize::try_from(base).ok()? }, &dims)
}

/// STRIDED_SLICE of any `Copy` element.
#[inline]
pub fn strided_slice<T: Copy>(params: &StridedSliceParams, input: &[T], output: &mut [T]) {
    strided_copy(params, input, output)
}

/// int8 STRIDED_SLICE.
#[inline]
pub fn strided_slice_s8(params: &StridedSliceParams, input: &[i8], output: &mut [i8]) {
    strided_copy(params, input, output)
}
