//! The reference loop nest of DEPTHWISE_CONV_2D, written once for every numerics
//! ([`Numerics`]).
//!
//! TFLite's loop order (channel outermost, window innermost) reads the NHWC input with a
//! stride of `input_depth`. Integer accumulation is exact in any order, so for depth
//! multiplier 1 (the common case) this walks the window once per block of channels with a
//! small stack accumulator, reading each input pixel contiguously; other multipliers keep
//! TFLite's order.

use super::DepthwiseConv2dParams;
use crate::kernels::numerics::Numerics;

/// Channels accumulated together in the depth-multiplier-1 path.
const CHANNEL_BLOCK: usize = 16;

/// See [`super::depthwise_conv_2d`].
pub fn depthwise_conv_2d<N: Numerics>(
    p: &DepthwiseConv2dParams<N>,
    input: &[N::Act],
    filter: &[N::Weight],
    bias: Option<&[N::Bias]>,
    output: &mut [N::Act],
) {
    let g = &p.geometry;
    let [batches, _, _, in_d] = g.input_shape;
    let [_, _, f_w, out_d] = g.filter_shape;
    let [out_batches, _, _, out_d2] = g.output_shape;
    let mult = p.depth_multiplier();
    debug_assert_eq!(batches, out_batches);
    debug_assert_eq!(out_d, out_d2);
    debug_assert_eq!(out_d, in_d * mult);
    debug_assert!(p.clamp.min <= p.clamp.max);
    debug_assert!(N::channels(&p.quant) == 1 || N::channels(&p.quant) == out_d);

    for win in g.windows() {
        let out_pixel = win.output_pixel(g) * out_d;
        // Input offset of tap (ky, kx), both in range.
        let in_at = |ky: usize, kx: usize| win.input_pixel(g, ky, kx) * in_d;
        if mult == 1 {
            for c0 in (0..out_d).step_by(CHANNEL_BLOCK) {
                let n = CHANNEL_BLOCK.min(out_d - c0);
                let mut acc = [N::ACC_ZERO; CHANNEL_BLOCK];
                for ky in win.ky.clone() {
                    for kx in win.kx.clone() {
                        let xs = &input[in_at(ky, kx) + c0..][..n];
                        let ws = &filter[(ky * f_w + kx) * out_d + c0..][..n];
                        for ((a, &x), &w) in acc.iter_mut().zip(xs).zip(ws) {
                            *a = N::mac(*a, x, w, 0, &p.quant);
                        }
                    }
                }
                for (j, &a) in acc[..n].iter().enumerate() {
                    let oc = c0 + j;
                    let a = match bias {
                        Some(bs) => N::add_bias(a, bs[oc]),
                        None => a,
                    };
                    output[out_pixel + oc] = N::requantize(a, &p.quant, oc, &p.clamp);
                }
            }
        } else {
            for ic in 0..in_d {
                for m in 0..mult {
                    let oc = ic * mult + m;
                    let mut acc = N::ACC_ZERO;
                    for ky in win.ky.clone() {
                        for kx in win.kx.clone() {
                            let x = input[in_at(ky, kx) + ic];
                            let w = filter[(ky * f_w + kx) * out_d + oc];
                            acc = N::mac(acc, x, w, 0, &p.quant);
                        }
                    }
                    if let Some(bs) = bias {
                        acc = N::add_bias(acc, bs[oc]);
                    }
                    output[out_pixel + oc] = N::requantize(acc, &p.quant, oc, &p.clamp);
                }
            }
        }
    }
}
