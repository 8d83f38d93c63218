//! The loop nest of AVERAGE_POOL_2D, written once for every numerics ([`Numerics`]).
//!
//! TFLite sums each channel over the window separately (input stride `depth`); integer
//! sums do not depend on the order, so this sums a block of channels at a time with a
//! small stack accumulator, reading input pixels contiguously.

use super::AveragePool2dParams;
use crate::kernels::numerics::Numerics;

/// Channels summed together.
const CHANNEL_BLOCK: usize = 16;

/// See [`super::average_pool_2d`].
pub fn average_pool_2d<N: Numerics>(p: &AveragePool2dParams<N>, input: &[N::Act], output: &mut [N::Act]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    debug_assert!(p.clamp.min <= p.clamp.max);
    for b in 0..batches {
        for oy in 0..g.output_height {
            for ox in 0..g.output_width {
                // Only the cells inside the input are counted.
                let (ys, xs) = g.clipped(oy, ox);
                let count = ys.len() * xs.len();
                debug_assert!(count > 0, "pooling window entirely in the padding");
                let out_pixel = ((b * g.output_height + oy) * g.output_width + ox) * depth;
                for c0 in (0..depth).step_by(CHANNEL_BLOCK) {
                    let n = CHANNEL_BLOCK.min(depth - c0);
                    let mut acc = [N::POOL_ZERO; CHANNEL_BLOCK];
                    for iy in ys.clone() {
                        for ix in xs.clone() {
                            let cells = &input[((b * in_h + iy) * in_w + ix) * depth + c0..][..n];
                            for (a, &x) in acc.iter_mut().zip(cells) {
                                *a = N::pool_add(*a, x);
                            }
                        }
                    }
                    for (o, &a) in output[out_pixel + c0..][..n].iter_mut().zip(&acc) {
                        *o = N::pool_average(a, count, &p.clamp);
                    }
                }
            }
        }
    }
}
