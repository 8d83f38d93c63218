//! BROADCAST_TO, any element type. Mirrors TFLite Micro `broadcast_to.cc` /
//! `reference_ops::BroadcastTo`: the input, right-aligned against the output shape, is
//! repeated along every dimension where it has size 1. The compiler folds this into a
//! strided copy with zero strides ([`prepare_broadcast_to`]); the kernel walks it.

use crate::kernels::nd::{strided_copy, StridedCopyParams};
#[cfg(feature = "prepare")]
use crate::kernels::nd::{row_major_strides, GatherPlan, MAX_RANK};

#[cfg(test)]
mod tests;

/// BROADCAST_TO parameters: a strided copy with `base = 0`.
pub type BroadcastToParams<'a> = StridedCopyParams<'a>;

/// Compile-time: the strided copy broadcasting `input_shape` to `output_shape`. `None`
/// where TFLite Micro's Prepare fails: an output of lower rank than the input, or an input
/// dimension that is neither 1 nor the output's (and ranks above [`MAX_RANK`]).
#[cfg(feature = "prepare")]
pub fn prepare_broadcast_to(input_shape: &[usize], output_shape: &[usize]) -> Option<GatherPlan> {
    let (ri, ro) = (input_shape.len(), output_shape.len());
    if ri > ro || ro > MAX_RANK {
        return None;
    }
    if ro == 0 {
        return GatherPlan::simplified(0, &[(1, 1)]);
    }
    let strides = row_major_strides(input_shape);
    let mut dims = [(0usize, 0isize); MAX_RANK];
    for d in 0..ro {
        let n = output_shape[d];
        dims[d] = match d.checked_sub(ro - ri) {
            None => (n, 0),
            Some(i) if input_shape[i] == n => (n, isize::try_from(strides[i]).ok()?),
            Some(i) if input_shape[i] == 1 => (n, 0),
            Some(_) => return None,
        };
    }
    GatherPlan::simplified(0, &dims[..ro])
}

/// BROADCAST_TO of any `Copy` element.
#[inline]
pub fn broadcast_to<T: Copy>(params: &BroadcastToParams, input: &[T], output: &mut [T]) {
    strided_copy(params, input, output)
}

/// int8 BROADCAST_TO.
#[inline]
pub fn broadcast_to_s8(params: &BroadcastToParams, input: &[i8], output: &mut [i8]) {
    strided_copy(params, input, output)
}
