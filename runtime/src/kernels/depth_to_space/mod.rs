//! DEPTH_TO_SPACE, any element type (TFLite Micro: int8 and float32). Mirrors
//! `reference_ops::DepthToSpace`: `output[b, h, w, d] = input[b, h / bs, w / bs,
//! ((h % bs) * bs + w % bs) * output_depth + d]`. The compiler folds the index map into a
//! strided copy ([`prepare_depth_to_space`]); the kernel walks it.

use crate::kernels::nd::{strided_copy, StridedCopyParams};
#[cfg(feature = "prepare")]
use crate::kernels::nd::GatherPlan;

#[cfg(test)]
mod tests;

/// DEPTH_TO_SPACE parameters: a strided copy with `base = 0`.
pub type DepthToSpaceParams<'a> = StridedCopyParams<'a>;

/// Compile-time: the strided copy of DEPTH_TO_SPACE with `block_size` on the NHWC
/// `input_shape`. `None` where TFLite Micro's Prepare fails (`block_size <= 0`, a depth
/// that is not a multiple of `block_size²`).
#[cfg(feature = "prepare")]
pub fn prepare_depth_to_space(input_shape: [usize; 4], block_size: usize) -> Option<GatherPlan> {
    let [b, h, w, c] = input_shape;
    let bs2 = block_size.checked_mul(block_size)?;
    if block_size == 0 || c % bs2 != 0 {
        return None;
    }
    let oc = c / bs2;
    let s = |x: usize| isize::try_from(x).ok();
    // The output walked as [b, h, bs, w, bs, oc].
    GatherPlan::simplified(
        0,
        &[
            (b, s(h * w * c)?),
            (h, s(w * c)?),
            (block_size, s(block_size * oc)?),
            (w, s(c)?),
            (block_size, s(oc)?),
            (oc, 1),
        ],
    )
}

/// DEPTH_TO_SPACE of any `Copy` element.
#[inline]
pub fn depth_to_space<T: Copy>(params: &DepthToSpaceParams, input: &[T], output: &mut [T]) {
    strided_copy(params, input, output)
}

/// int8 DEPTH_TO_SPACE.
#[inline]
pub fn depth_to_space_s8(params: &DepthToSpaceParams, input: &[i8], output: &mut [i8]) {
    strided_copy(params, input, output)
}
