//! The loop nest of MAX_POOL_2D, written once for every numerics ([`Numerics`]).

use super::MaxPool2dParams;
use crate::kernels::numerics::Numerics;

/// See [`super::max_pool_2d`].
pub fn max_pool_2d<N: Numerics>(p: &MaxPool2dParams<N>, input: &[N::Act], output: &mut [N::Act]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    debug_assert!(p.clamp.min <= p.clamp.max);
    for b in 0..batches {
        for oy in 0..g.output_height {
            for ox in 0..g.output_width {
                let (ys, xs) = g.clipped(oy, ox);
                let out_pixel = ((b * g.output_height + oy) * g.output_width + ox) * depth;
                let out = &mut output[out_pixel..out_pixel + depth];
                out.fill(N::LOWEST);
                for iy in ys {
                    let row = (b * in_h + iy) * in_w;
                    for ix in xs.clone() {
                        let at = (row + ix) * depth;
                        for (o, &x) in out.iter_mut().zip(&input[at..at + depth]) {
                            *o = N::max(*o, x);
                        }
                    }
                }
                for o in out.iter_mut() {
                    *o = N::clamp(*o, &p.clamp);
                }
            }
        }
    }
}
