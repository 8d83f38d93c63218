//! Scalar reference implementation of [`super::depthwise_conv_2d_s8`].
//!
//! TFLite's loop order (channel outermost, window innermost) reads the NHWC input with a
//! stride of `input_depth`. Integer accumulation is exact in any order, so for depth
//! multiplier 1 (the common case) this walks the window once per block of channels with a
//! small stack accumulator, reading each input pixel contiguously; other multipliers keep
//! TFLite's order.

use super::DepthwiseConv2dParams;
use crate::kernels::window::valid_taps;
use crate::quant::{multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_i64};

/// Channels accumulated together in the depth-multiplier-1 path.
const CHANNEL_BLOCK: usize = 16;

#[inline]
fn requantize(p: &DepthwiseConv2dParams, acc: i32, oc: usize) -> i8 {
    let q = if p.output_multiplier.len() == 1 { 0 } else { oc };
    let v = multiply_by_quantized_multiplier(acc, p.output_multiplier[q], p.output_shift[q]).wrapping_add(p.output_offset);
    v.max(p.output_activation_min).min(p.output_activation_max) as i8
}

/// See [`super::depthwise_conv_2d_s8`].
pub fn depthwise_conv_2d_s8(
    p: &DepthwiseConv2dParams,
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    output: &mut [i8],
) {
    let [batches, in_h, in_w, in_d] = p.input_shape;
    let [_, f_h, f_w, out_d] = p.filter_shape;
    let [out_batches, out_h, out_w, out_d2] = p.output_shape;
    let mult = p.depth_multiplier;
    debug_assert_eq!(batches, out_batches);
    debug_assert_eq!(out_d, out_d2);
    debug_assert_eq!(out_d, in_d * mult);
    debug_assert!(p.output_activation_min <= p.output_activation_max);
    debug_assert!(p.output_multiplier.len() == 1 || p.output_multiplier.len() == out_d);
    debug_assert_eq!(p.output_multiplier.len(), p.output_shift.len());

    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            let ky_range = valid_taps(in_y0, p.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let kx_range = valid_taps(in_x0, p.dilation_width, f_w, in_w);
                let out_pixel = ((b * out_h + oy) * out_w + ox) * out_d;
                // Input pixel offset of tap (ky, kx), both in range.
                let in_at = |ky: usize, kx: usize| {
                    let iy = (in_y0 + (p.dilation_height * ky) as isize) as usize;
                    let ix = (in_x0 + (p.dilation_width * kx) as isize) as usize;
                    ((b * in_h + iy) * in_w + ix) * in_d
                };
                if mult == 1 {
                    for c0 in (0..out_d).step_by(CHANNEL_BLOCK) {
                        let n = CHANNEL_BLOCK.min(out_d - c0);
                        let mut acc = [0i32; CHANNEL_BLOCK];
                        for ky in ky_range.clone() {
                            for kx in kx_range.clone() {
                                let xs = &input[in_at(ky, kx) + c0..][..n];
                                let ws = &filter[(ky * f_w + kx) * out_d + c0..][..n];
                                for ((a, &x), &w) in acc.iter_mut().zip(xs).zip(ws) {
                                    *a = a.wrapping_add(w as i32 * (x as i32 + p.input_offset));
                                }
                            }
                        }
                        for (j, &a) in acc[..n].iter().enumerate() {
                            let oc = c0 + j;
                            let a = a.wrapping_add(bias.map_or(0, |bs| bs[oc]));
                            output[out_pixel + oc] = requantize(p, a, oc);
                        }
                    }
                } else {
                    for ic in 0..in_d {
                        for m in 0..mult {
                            let oc = ic * mult + m;
                            let mut acc: i32 = 0;
                            for ky in ky_range.clone() {
                                for kx in kx_range.clone() {
                                    let x = input[in_at(ky, kx) + ic] as i32;
                                    let w = filter[(ky * f_w + kx) * out_d + oc] as i32;
                                    acc = acc.wrapping_add(w * (x + p.input_offset));
                                }
                            }
                            acc = acc.wrapping_add(bias.map_or(0, |bs| bs[oc]));
                            output[out_pixel + oc] = requantize(p, acc, oc);
                        }
                    }
                }
            }
        }
    }
}

/// See [`super::depthwise_conv_2d_s16`].
pub fn depthwise_conv_2d_s16(
    p: &DepthwiseConv2dParams,
    input: &[i16],
    filter: &[i8],
    bias: Option<&[i64]>,
    output: &mut [i16],
) {
    let [batches, in_h, in_w, in_d] = p.input_shape;
    let [_, f_h, f_w, out_d] = p.filter_shape;
    let [_, out_h, out_w, _] = p.output_shape;
    let mult = p.depth_multiplier;
    let per_tensor = p.output_multiplier.len() == 1;
    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            let ky_range = valid_taps(in_y0, p.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let kx_range = valid_taps(in_x0, p.dilation_width, f_w, in_w);
                let out_pixel = ((b * out_h + oy) * out_w + ox) * out_d;
                for ic in 0..in_d {
                    for m in 0..mult {
                        let oc = ic * mult + m;
                        let mut acc: i64 = 0;
                        for ky in ky_range.clone() {
                            let iy = (in_y0 + (p.dilation_height * ky) as isize) as usize;
                            for kx in kx_range.clone() {
                                let ix = (in_x0 + (p.dilation_width * kx) as isize) as usize;
                                let x = input[((b * in_h + iy) * in_w + ix) * in_d + ic] as i64;
                                let w = filter[(ky * f_w + kx) * out_d + oc] as i64;
                                acc = acc.wrapping_add(w * x);
                            }
                        }
                        if let Some(bias) = bias {
                            acc = acc.wrapping_add(bias[oc]);
                        }
                        let q = if per_tensor { 0 } else { oc };
                        let v = multiply_by_quantized_multiplier_i64(acc, p.output_multiplier[q], p.output_shift[q]);
                        output[out_pixel + oc] = v.max(p.output_activation_min).min(p.output_activation_max) as i16;
                    }
                }
            }
        }
    }
}
