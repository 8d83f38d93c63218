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
use crate::kernels::window::valid_taps;

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
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, out_d] = g.filter_shape;
    let [out_batches, out_h, out_w, out_d2] = g.output_shape;
    let mult = p.depth_multiplier();
    debug_assert_eq!(batches, out_batches);
    debug_assert_eq!(out_d, out_d2);
    debug_assert_eq!(out_d, in_d * mult);
    debug_assert!(p.clamp.min <= p.clamp.max);
    debug_assert!(N::channels(&p.quant) == 1 || N::channels(&p.quant) == out_d);

    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
            let ky_range = valid_taps(in_y0, g.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let in_x0 = (ox * g.stride_width) as isize - g.pad_left as isize;
                let kx_range = valid_taps(in_x0, g.dilation_width, f_w, in_w);
                let out_pixel = ((b * out_h + oy) * out_w + ox) * out_d;
                // Input pixel offset of tap (ky, kx), both in range.
                let in_at = |ky: usize, kx: usize| {
                    let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                    let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                    ((b * in_h + iy) * in_w + ix) * in_d
                };
                if mult == 1 {
                    for c0 in (0..out_d).step_by(CHANNEL_BLOCK) {
                        let n = CHANNEL_BLOCK.min(out_d - c0);
                        let mut acc = [N::ACC_ZERO; CHANNEL_BLOCK];
                        for ky in ky_range.clone() {
                            for kx in kx_range.clone() {
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
                            for ky in ky_range.clone() {
                                for kx in kx_range.clone() {
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
    }
}
