//! The loop nest of L2_POOL_2D: TFLite's `reference_ops::L2Pool` order (batch, output row,
//! output column, channel, window rows, window columns).

use super::L2Pool2dParams;
use crate::math::sqrtf;
use crate::kernels::numerics::{Numerics, F32};

/// See [`super::l2_pool_2d_f32`].
pub fn l2_pool_2d_f32(p: &L2Pool2dParams, input: &[f32], output: &mut [f32]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    for b in 0..batches {
        for oy in 0..g.output_height {
            for ox in 0..g.output_width {
                let (ys, xs) = g.clipped(oy, ox);
                let count = (ys.len() * xs.len()) as f32;
                let out_pixel = ((b * g.output_height + oy) * g.output_width + ox) * depth;
                for c in 0..depth {
                    let mut sum_squares = 0.0f32;
                    for iy in ys.clone() {
                        for ix in xs.clone() {
                            let v = input[((b * in_h + iy) * in_w + ix) * depth + c];
                            sum_squares += v * v;
                        }
                    }
                    output[out_pixel + c] = <F32 as Numerics>::clamp(sqrtf(sum_squares / count), &p.clamp);
                }
            }
        }
    }
}
