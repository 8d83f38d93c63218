//! Scalar reference implementation of int8 RESIZE_BILINEAR
//! (`reference_ops::ResizeBilinearInteger`).

use super::ResizeBilinearParams;

/// `ComputeInterpolationValuesInteger`: `(scaled_value, lower, upper)`. C++ `/` truncates
/// toward zero, as Rust's does.
#[inline(always)]
fn interpolation(value: i32, scale_10: i32, half_pixel_centers: bool, input_size: i32) -> (i32, i32, i32) {
    let scaled = if half_pixel_centers {
        value * scale_10 + scale_10 / 2 - (1 << 9)
    } else {
        value * scale_10
    };
    let lower = (scaled / (1 << 10)).max(0);
    let upper = ((scaled + (1 << 10) - 1) / (1 << 10)).min(input_size - 1);
    (scaled, lower, upper)
}

/// int8 RESIZE_BILINEAR in TFLite's integer arithmetic (10 fractional bits), batch by batch, NHWC.
pub fn resize_bilinear_s8(p: &ResizeBilinearParams, input: &[i8], output: &mut [i8]) {
    let (ih, iw, depth) = (p.input_height as i32, p.input_width as i32, p.depth);
    debug_assert_eq!(input.len(), p.batches * p.input_height * p.input_width * depth);
    debug_assert_eq!(output.len(), p.batches * p.output_height * p.output_width * depth);
    let at = |b: usize, y: i32, x: i32, c: usize| -> i64 {
        input[((b * p.input_height + y as usize) * p.input_width + x as usize) * depth + c] as i64
    };
    let mut o = 0usize;
    for b in 0..p.batches {
        for y in 0..p.output_height as i32 {
            let (input_y, y0, y1) = interpolation(y, p.height_scale_10, p.half_pixel_centers, ih);
            let wy1 = (input_y - (1 << 10) * y0) as i64;
            let wy0 = (1 << 10) - wy1;
            for x in 0..p.output_width as i32 {
                let (input_x, x0, x1) = interpolation(x, p.width_scale_10, p.half_pixel_centers, iw);
                let wx1 = (input_x - (1 << 10) * x0) as i64;
                let wx0 = (1 << 10) - wx1;
                for c in 0..depth {
                    let output_20 = at(b, y0, x0, c) * wy0 * wx0
                        + at(b, y1, x0, c) * wy1 * wx0
                        + at(b, y0, x1, c) * wy0 * wx1
                        + at(b, y1, x1, c) * wy1 * wx1;
                    let round: i64 = if output_20 > 0 { 1 << 19 } else { -(1 << 19) };
                    output[o] = ((output_20 + round) / (1 << 20)) as i8;
                    o += 1;
                }
            }
        }
    }
}

/// `std::floor` / `std::ceil` of a float source coordinate, as i32: `(floor, ceil)`. The
/// coordinate is at least -0.5 and below the input size (at most 2^24 apart from an
/// integer's exact float), so truncation toward zero and one correction give both.
#[inline(always)]
fn floor_ceil(v: f32) -> (i32, i32) {
    let t = v as i32;
    let tf = t as f32;
    let floor = if tf > v { t - 1 } else { t };
    let ceil = if tf < v { t + 1 } else { t };
    (floor, ceil)
}

/// `ComputeInterpolationValues`: `(scaled_value, lower, upper)`.
#[inline(always)]
fn interpolation_f32(value: usize, scale: f32, half_pixel_centers: bool, input_size: usize) -> (f32, usize, usize) {
    let v = value as f32;
    let scaled = if half_pixel_centers { (v + 0.5) * scale - 0.5 } else { v * scale };
    let (floor, ceil) = floor_ceil(scaled);
    let lower = floor.max(0) as usize;
    let upper = (ceil.max(0) as usize).min(input_size - 1);
    (scaled, lower, upper)
}

/// `reference_ops::ResizeBilinear<float>`: every product and sum in C++'s left-to-right
/// order, `(input_y - y0)` with `y0` converted to float, and `+ 0.0f` at the end (so -0.0
/// becomes 0.0, as in TFLite).
pub fn resize_bilinear_f32(p: &super::ResizeBilinearF32Params, input: &[f32], output: &mut [f32]) {
    let depth = p.depth;
    debug_assert_eq!(input.len(), p.batches * p.input_height * p.input_width * depth);
    debug_assert_eq!(output.len(), p.batches * p.output_height * p.output_width * depth);
    let at = |b: usize, y: usize, x: usize, c: usize| input[((b * p.input_height + y) * p.input_width + x) * depth + c];
    let mut o = 0usize;
    for b in 0..p.batches {
        for y in 0..p.output_height {
            let (input_y, y0, y1) = interpolation_f32(y, p.height_scale, p.half_pixel_centers, p.input_height);
            let dy = input_y - y0 as f32;
            for x in 0..p.output_width {
                let (input_x, x0, x1) = interpolation_f32(x, p.width_scale, p.half_pixel_centers, p.input_width);
                let dx = input_x - x0 as f32;
                for c in 0..depth {
                    output[o] = at(b, y0, x0, c) * (1.0 - dy) * (1.0 - dx)
                        + at(b, y1, x0, c) * dy * (1.0 - dx)
                        + at(b, y0, x1, c) * (1.0 - dy) * dx
                        + at(b, y1, x1, c) * dy * dx
                        + 0.0;
                    o += 1;
                }
            }
        }
    }
}
