//! RESIZE_NEAREST_NEIGHBOR (NHWC), any element type. Mirrors TFLite Micro
//! `resize_nearest_neighbor.cc` + `reference_ops::ResizeNearestNeighbor`. The float
//! coordinate math (`GetNearestNeighbor`) depends only on sizes and flags, so the
//! compiler evaluates it once per output row and column ([`nearest_neighbor_index`]) and
//! stores element offsets; the kernel only copies `depth`-long pixels.

use crate::quant::{f32_to_i32_saturating, floor_f32, round_f32};

pub mod scalar;
#[cfg(test)]
mod tests;

/// Precomputed RESIZE_NEAREST_NEIGHBOR parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResizeNearestNeighborParams<'a> {
    /// Batch size.
    pub batches: usize,
    /// Channels (elements per pixel).
    pub depth: usize,
    /// `input_height * input_width * depth`.
    pub input_batch_stride: usize,
    /// Per output row `y`: `in_y * input_width * depth`.
    pub row_offsets: &'a [usize],
    /// Per output column `x`: `in_x * depth`.
    pub col_offsets: &'a [usize],
}

/// Compile-time: TFLite's `GetNearestNeighbor` (f32 math, `roundf`/`floorf`).
pub fn nearest_neighbor_index(
    output_index: usize,
    input_size: usize,
    output_size: usize,
    align_corners: bool,
    half_pixel_centers: bool,
) -> usize {
    let (input_size, output_size) = (input_size as i32, output_size as i32);
    let scale: f32 = if align_corners && output_size > 1 {
        (input_size - 1) as f32 / (output_size - 1) as f32
    } else {
        input_size as f32 / output_size as f32
    };
    let offset: f32 = if half_pixel_centers { 0.5 } else { 0.0 };
    let v = (output_index as i32 as f32 + offset) * scale;
    let mut out = if align_corners { f32_to_i32_saturating(round_f32(v)) } else { f32_to_i32_saturating(floor_f32(v)) };
    out = out.min(input_size - 1);
    if half_pixel_centers {
        out = out.max(0);
    }
    out.max(0) as usize
}

/// Compile-time: fill `row_offsets` (len = output height) and `col_offsets` (len =
/// output width) for an NHWC input of `input_height x input_width x depth`.
#[cfg(feature = "prepare")]
pub fn prepare_resize_nearest_neighbor(
    input_height: usize,
    input_width: usize,
    depth: usize,
    align_corners: bool,
    half_pixel_centers: bool,
    row_offsets: &mut [usize],
    col_offsets: &mut [usize],
) {
    let (oh, ow) = (row_offsets.len(), col_offsets.len());
    for (y, r) in row_offsets.iter_mut().enumerate() {
        *r = nearest_neighbor_index(y, input_height, oh, align_corners, half_pixel_centers) * input_width * depth;
    }
    for (x, c) in col_offsets.iter_mut().enumerate() {
        *c = nearest_neighbor_index(x, input_width, ow, align_corners, half_pixel_centers) * depth;
    }
}

/// RESIZE_NEAREST_NEIGHBOR of any `Copy` element.
#[inline]
pub fn resize_nearest_neighbor<T: Copy>(params: &ResizeNearestNeighborParams, input: &[T], output: &mut [T]) {
    scalar::resize_nearest_neighbor(params, input, output)
}

/// int8 RESIZE_NEAREST_NEIGHBOR.
#[inline]
pub fn resize_nearest_neighbor_s8(params: &ResizeNearestNeighborParams, input: &[i8], output: &mut [i8]) {
    scalar::resize_nearest_neighbor(params, input, output)
}
