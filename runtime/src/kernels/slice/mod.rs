//! SLICE, any element type. Mirrors TFLite Micro `slice.cc` + `reference_ops::Slice`:
//! per dim `[begin, begin + size)` (`size == -1`: to the end), no clamping. The compiler
//! resolves begin/size into a strided copy ([`prepare_slice`]); the scalar implementation
//! is [`crate::kernels::nd::strided_copy`].

use crate::kernels::nd::{strided_copy, StridedCopyParams};
#[cfg(feature = "prepare")]
use crate::kernels::nd::{row_major_strides, GatherPlan, MAX_RANK};

#[cfg(test)]
mod tests;

/// SLICE parameters: a strided copy (unit steps).
pub type SliceParams<'a> = StridedCopyParams<'a>;

/// Compile-time: resolve SLICE's `begin` and `size` tensors (same length as the input's
/// rank) for `input_shape`. `None` if out of bounds (TFLite would read out of bounds).
#[cfg(feature = "prepare")]
pub fn prepare_slice(input_shape: &[usize], begin: &[i64], size: &[i64]) -> Option<GatherPlan> {
    let rank = input_shape.len();
    if begin.len() != rank || size.len() != rank || rank > MAX_RANK {
        return None;
    }
    let strides = row_major_strides(input_shape);
    let mut dims = [(1usize, 1isize); MAX_RANK];
    let mut base = 0usize;
    for d in 0..rank {
        let dim = input_shape[d] as i64;
        let start = begin[d];
        let stop = if size[d] == -1 { dim } else { start.checked_add(size[d])? };
        if start < 0 || stop < start || stop > dim {
            return None;
        }
        base += start as usize * strides[d];
        dims[d] = ((stop - start) as usize, strides[d] as isize);
    }
    GatherPlan::simplified(base, &dims[..rank.max(1)])
}

/// SLICE of any `Copy` element.
#[inline]
pub fn slice<T: Copy>(params: &SliceParams, input: &[T], output: &mut [T]) {
    strided_copy(params, input, output)
}

/// int8 SLICE.
#[inline]
pub fn slice_s8(params: &SliceParams, input: &[i8], output: &mut [i8]) {
    strided_copy(params, input, output)
}
