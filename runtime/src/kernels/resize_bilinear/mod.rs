//! RESIZE_BILINEAR (NHWC), int8. TFLite Micro's int8 path is
//! `reference_ops::ResizeBilinearInteger`: 10-bit fixed-point source coordinates
//! (`ComputeInterpolationValuesInteger`) and an int64 weighted sum rounded half away from
//! zero (double-rounding build: `(sum + sign * 2^19) / 2^20`). No floats involved.
//! The compiler precomputes the two `scale_10` factors ([`prepare_resize_bilinear`]).

pub mod scalar;
#[cfg(test)]
mod tests;

/// Precomputed RESIZE_BILINEAR parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResizeBilinearParams {
    pub batches: usize,
    pub input_height: usize,
    pub input_width: usize,
    pub depth: usize,
    pub output_height: usize,
    pub output_width: usize,
    /// `round(1024 * in / out)` (or `(in - 1) / (out - 1)` with align_corners), integer.
    pub height_scale_10: i32,
    pub width_scale_10: i32,
    pub half_pixel_centers: bool,
}

/// Compile-time: the `*_scale_10` factors exactly as `ResizeBilinearInteger` computes
/// them. `None` for zero output sizes or align_corners together with half_pixel_centers
/// (TFLite rejects that).
#[allow(clippy::too_many_arguments)]
pub fn prepare_resize_bilinear(
    batches: usize,
    input_height: usize,
    input_width: usize,
    depth: usize,
    output_height: usize,
    output_width: usize,
    align_corners: bool,
    half_pixel_centers: bool,
) -> Option<ResizeBilinearParams> {
    if output_height == 0 || output_width == 0 || (align_corners && half_pixel_centers) {
        return None;
    }
    let (ih, iw, oh, ow) = (
        i32::try_from(input_height).ok()?,
        i32::try_from(input_width).ok()?,
        i32::try_from(output_height).ok()?,
        i32::try_from(output_width).ok()?,
    );
    let scale = |i: i32, o: i32| -> Option<i32> {
        if align_corners && o > 1 {
            Some(((1i32 << 10).checked_mul(i - 1)? + (o - 1) / 2) / (o - 1))
        } else {
            Some(((1i32 << 10).checked_mul(i)? + o / 2) / o)
        }
    };
    Some(ResizeBilinearParams {
        batches,
        input_height,
        input_width,
        depth,
        output_height,
        output_width,
        height_scale_10: scale(ih, oh)?,
        width_scale_10: scale(iw, ow)?,
        half_pixel_centers,
    })
}

/// int8 RESIZE_BILINEAR.
#[inline]
pub fn resize_bilinear_s8(params: &ResizeBilinearParams, input: &[i8], output: &mut [i8]) {
    scalar::resize_bilinear_s8(params, input, output)
}
