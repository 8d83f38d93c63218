//! SPACE_TO_DEPTH, any element type (TFLite Micro: int8 and float32). Mirrors
//! `reference_ops::SpaceToDepth`: `output[b, h / bs, w / bs, ((h % bs) * bs + w % bs) *
//! input_depth + d] = input[b, h, w, d]`. The compiler folds the index map into a strided
//! copy ([`prepare_space_to_depth`]); the kernel walks it.

use crate::kernels::nd::{strided_copy, StridedCopyParams};
#[cfg(feature = "prepare")]
use crate::kernels::nd::GatherPlan;

#[cfg(test)]
mod tests;

/// SPACE_TO_DEPTH parameters: a strided copy with `base = 0`.
pub type SpaceToDepthParams<'a> = StridedCopyParams<'a>;

/// Compile-time: the strided copy of SPACE_TO_DEPTH with `block_size` on the NHWC
/// `input_shape`. `None` where TFLite Micro's Prepare fails (a height or width that is not
/// a multiple of `block_size`) or would divide by zero (`block_size == 0`).
#[cfg(feature = "prepare")]
pub fn prepare_space_to_depth(input_shape: [usize; 4], block_size: usize) -> Option<GatherPlan> {
    let [b, h, w, c] = input_shape;
    if block_size == 0 || h % block_size != 0 || w % block_size != 0 {
        return None;
    }
    let (oh, ow) = (h / block_size, w / block_size);
    let s = |x: usize| isize::try_from(x).ok();
    // The output walked as [b, oh, ow, bs (rows), bs (columns), c].
    GatherPlan::simplified(
        0,
        &[
            (b, s(h * w * c)?),
            (oh, s(block_size.checked_mul(w * c)?)?),
            (ow, s(block_size.checked_mul(c)?)?),
            (block_size, s(w * c)?),
            (block_size, s(c)?),
            (c, 1),
        ],
    )
}

/// SPACE_TO_DEPTH of any `Copy` element.
#[inline]
pub fn space_to_depth<T: Copy>(params: &SpaceToDepthParams, input: &[T], output: &mut [T]) {
    strided_copy(params, input, output)
}

/// int8 SPACE_TO_DEPTH.
#[inline]
pub fn space_to_depth_s8(params: &SpaceToDepthParams, input: &[i8], output: &mut [i8]) {
    strided_copy(params, input, output)
}
