//! RESIZE_BILINEAR (NHWC), int8. TFLite Micro's int8 path is
//! `reference_ops::ResizeBilinearInteger`: 10-bit fixed-point source coordinates
//! (`ComputeInterpolationValuesInteger`) and an int64 weighted sum rounded half away from
//! zero (double-rounding build: `(sum + sign * 2^19) / 2^20`). No floats involved.
//! The compiler precomputes the two `scale_10` factors ([`prepare_resize_bilinear`]).
//!
//! float32 is `reference_ops::ResizeBilinear<float>` (TFLite Micro's float path), bit for
//! bit: the source coordinate `y * scale` (or `(y + 0.5) * scale - 0.5`) in `f32`, its floor
//! and ceiling clamped to the input, and per channel
//! `a (1 - dy)(1 - dx) + b dy (1 - dx) + c (1 - dy) dx + d dy dx + 0` with TFLite's
//! association and one rounding per operation ([`ResizeBilinearF32Params`]).

pub mod scalar;
#[cfg(test)]
mod tests;

/// Precomputed RESIZE_BILINEAR parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResizeBilinearParams {
    /// Batch size.
    pub batches: usize,
    /// Input height, in pixels.
    pub input_height: usize,
    /// Input width, in pixels.
    pub input_width: usize,
    /// Channels (elements per pixel).
    pub depth: usize,
    /// Output height, in pixels.
    pub output_height: usize,
    /// Output width, in pixels.
    pub output_width: usize,
    /// `round(1024 * in / out)` (or `(in - 1) / (out - 1)` with align_corners), integer.
    pub height_scale_10: i32,
    /// The width counterpart of `height_scale_10`.
    pub width_scale_10: i32,
    /// Samples at pixel centres (`(x + 0.5) * scale - 0.5`) rather than corners.
    pub half_pixel_centers: bool,
}

/// float32 RESIZE_BILINEAR: the shapes and TFLite's two `f32` scales
/// (`float(in) / out`, or `float(in - 1) / (out - 1)` with `align_corners` and `out > 1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResizeBilinearF32Params {
    /// Batch size.
    pub batches: usize,
    /// Input height, in pixels.
    pub input_height: usize,
    /// Input width, in pixels.
    pub input_width: usize,
    /// Channels (elements per pixel).
    pub depth: usize,
    /// Output height, in pixels.
    pub output_height: usize,
    /// Output width, in pixels.
    pub output_width: usize,
    /// Input rows per output row.
    pub height_scale: f32,
    /// Input columns per output column.
    pub width_scale: f32,
    /// Samples at pixel centres (`(x + 0.5) * scale - 0.5`) rather than corners.
    pub half_pixel_centers: bool,
}

/// Compile-time: the float32 params, the scales computed as `ResizeBilinear<float>` does.
/// `None` for zero sizes or `align_corners` together with `half_pixel_centers`.
#[allow(clippy::too_many_arguments)]
#[cfg(feature = "prepare")]
pub fn prepare_resize_bilinear_f32(
    batches: usize,
    input_height: usize,
    input_width: usize,
    depth: usize,
    output_height: usize,
    output_width: usize,
    align_corners: bool,
    half_pixel_centers: bool,
) -> Option<ResizeBilinearF32Params> {
    if output_height == 0 || output_width == 0 || input_height == 0 || input_width == 0 || (align_corners && half_pixel_centers) {
        return None;
    }
    // `static_cast<float>(input) / output` (the int output converted to float).
    let scale = |i: usize, o: usize| if align_corners && o > 1 { (i - 1) as f32 / (o - 1) as f32 } else { i as f32 / o as f32 };
    Some(ResizeBilinearF32Params {
        batches,
        input_height,
        input_width,
        depth,
        output_height,
        output_width,
        height_scale: scale(input_height, output_height),
        width_scale: scale(input_width, output_width),
        half_pixel_centers,
    })
}

/// float32 RESIZE_BILINEAR.
#[inline]
pub fn resize_bilinear_f32(params: &ResizeBilinearF32Params, input: &[f32], output: &mut [f32]) {
    scalar::resize_bilinear_f32(params, input, output)
}

/// Compile-time: the `*_scale_10` factors exactly as `ResizeBilinearInteger` computes
/// them. `None` for zero output sizes or align_corners together with half_pixel_centers
/// (TFLite rejects that).
#[allow(clippy::too_many_arguments)]
#[cfg(feature = "prepare")]
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
