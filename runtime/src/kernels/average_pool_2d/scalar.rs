//! Scalar reference implementation of [`super::average_pool_2d_s8`].
//!
//! TFLite sums each channel over the window separately (input stride `depth`); integer
//! sums do not depend on the order, so this sums a block of channels at a time with a
//! small stack accumulator, reading input pixels contiguously.

use super::AveragePool2dParams;

/// Channels summed together.
const CHANNEL_BLOCK: usize = 16;

/// See [`super::average_pool_2d_s8`].
pub fn average_pool_2d_s8(p: &AveragePool2dParams, input: &[i8], output: &mut [i8]) {
    let [batches, in_h, in_w, depth] = p.input_shape;
    debug_assert!(p.output_activation_min <= p.output_activation_max);
    for b in 0..batches {
        for oy in 0..p.output_height {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            // Window rows clipped to the input: [y_start, y_end) in input coordinates.
            let y_start = in_y0.max(0) as usize;
            let y_end = (in_y0 + p.filter_height as isize).min(in_h as isize).max(0) as usize;
            for ox in 0..p.output_width {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let x_start = in_x0.max(0) as usize;
                let x_end = (in_x0 + p.filter_width as isize).min(in_w as isize).max(0) as usize;
                // Only the cells inside the input are counted.
                let count = (y_end.saturating_sub(y_start) * x_end.saturating_sub(x_start)) as i32;
                debug_assert!(count > 0, "pooling window entirely in the padding");
                let half = count / 2;
                let out_pixel = ((b * p.output_height + oy) * p.output_width + ox) * depth;
                for c0 in (0..depth).step_by(CHANNEL_BLOCK) {
                    let n = CHANNEL_BLOCK.min(depth - c0);
                    let mut acc = [0i32; CHANNEL_BLOCK];
                    for iy in y_start..y_end {
                        for ix in x_start..x_end {
                            let xs = &input[((b * in_h + iy) * in_w + ix) * depth + c0..][..n];
                            for (a, &x) in acc.iter_mut().zip(xs) {
                                *a += x as i32;
                            }
                        }
                    }
                    for (o, &a) in output[out_pixel + c0..][..n].iter_mut().zip(&acc) {
                        // Round half away from zero; `/` truncates toward zero as in C++.
                        let avg = if a > 0 { (a + half) / count } else { (a - half) / count };
                        *o = avg.max(p.output_activation_min).min(p.output_activation_max) as i8;
                    }
                }
            }
        }
    }
}

/// See [`super::average_pool_2d_s16`].
pub fn average_pool_2d_s16(p: &AveragePool2dParams, input: &[i16], output: &mut [i16]) {
    let [batches, in_h, in_w, depth] = p.input_shape;
    for b in 0..batches {
        for oy in 0..p.output_height {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            let y_start = in_y0.max(0) as usize;
            let y_end = (in_y0 + p.filter_height as isize).min(in_h as isize).max(0) as usize;
            for ox in 0..p.output_width {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let x_start = in_x0.max(0) as usize;
                let x_end = (in_x0 + p.filter_width as isize).min(in_w as isize).max(0) as usize;
                let count = (y_end.saturating_sub(y_start) * x_end.saturating_sub(x_start)) as i32;
                debug_assert!(count > 0, "pooling window entirely in the padding");
                let half = count / 2;
                let out_pixel = ((b * p.output_height + oy) * p.output_width + ox) * depth;
                for c in 0..depth {
                    let mut acc: i32 = 0;
                    for iy in y_start..y_end {
                        for ix in x_start..x_end {
                            acc = acc.wrapping_add(input[((b * in_h + iy) * in_w + ix) * depth + c] as i32);
                        }
                    }
                    let avg = if acc > 0 { (acc + half) / count } else { (acc - half) / count };
                    output[out_pixel + c] = avg.max(p.output_activation_min).min(p.output_activation_max) as i16;
                }
            }
        }
    }
}
