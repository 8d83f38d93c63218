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
