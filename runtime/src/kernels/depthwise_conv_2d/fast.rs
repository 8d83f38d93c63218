//! Fast path of [`super::depthwise_conv_2d_s8`] for depth multiplier 1 with a compile-time
//! folded bias ([`super::DepthwiseConv2dParams::folded_bias`]).
//!
//! A window fully inside the input accumulates `sum(w * x)` on top of the folded bias
//! (`bias + input_offset * sum(w)`), four channels at a time in registers, reading four
//! contiguous int8 of each tap's input pixel and filter tap. Border windows take the exact
//! per-tap path. Results are identical to [`super::scalar`] (wrapping int32 accumulation).

use super::DepthwiseConv2dParams;
use crate::kernels::dot::mac4;
use crate::kernels::window::valid_taps;
use crate::quant::multiply_by_quantized_multiplier;

/// Whether [`depthwise_conv_2d_s8`] can run these params: depth multiplier 1 and a folded
/// bias per channel (and a non-empty window).
#[inline]
pub fn applies(p: &DepthwiseConv2dParams) -> bool {
    let [_, f_h, f_w, depth] = p.filter_shape;
    p.depth_multiplier == 1 && p.folded_bias.len() == depth && p.input_shape[3] == depth && f_h * f_w > 0
}

#[inline(always)]
fn requantize(p: &DepthwiseConv2dParams, acc: i32, oc: usize) -> i8 {
    let q = if p.output_multiplier.len() == 1 { 0 } else { oc };
    let v = multiply_by_quantized_multiplier(acc, p.output_multiplier[q], p.output_shift[q]).wrapping_add(p.output_offset);
    v.max(p.output_activation_min).min(p.output_activation_max) as i8
}

#[inline(always)]
fn four(s: &[i8]) -> [i8; 4] {
    [s[0], s[1], s[2], s[3]]
}

/// See [`super::depthwise_conv_2d_s8`]; requires [`applies`].
pub fn depthwise_conv_2d_s8(
    p: &DepthwiseConv2dParams,
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    output: &mut [i8],
) {
    let [batches, in_h, in_w, depth] = p.input_shape;
    let [_, f_h, f_w, _] = p.filter_shape;
    let [_, out_h, out_w, _] = p.output_shape;
    debug_assert!(applies(p));
    debug_assert!(p.output_multiplier.len() == 1 || p.output_multiplier.len() == depth);
    debug_assert_eq!(p.output_multiplier.len(), p.output_shift.len());
    if depth == 0 {
        return;
    }
    let folded = &p.folded_bias[..depth];
    let filter = &filter[..f_h * f_w * depth];
    let blocks = depth / 4;
    // Distance in `input` between horizontally adjacent taps, and between tap rows.
    let tap_dx = p.dilation_width * depth;
    let tap_dy = p.dilation_height * in_w * depth;

    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            let ky_range = valid_taps(in_y0, p.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let kx_range = valid_taps(in_x0, p.dilation_width, f_w, in_w);
                let out_px = &mut output[((b * out_h + oy) * out_w + ox) * depth..][..depth];
                if ky_range.len() != f_h || kx_range.len() != f_w {
                    border_pixel(p, input, filter, bias, out_px, b, in_y0, in_x0, ky_range.clone(), kx_range);
                    continue;
                }
                // Interior: every tap is in the image. The window's input, from its first
                // tap to the end of its last tap's pixel.
                let origin = ((b * in_h + in_y0 as usize) * in_w + in_x0 as usize) * depth;
                let window = &input[origin..][..(f_h - 1) * tap_dy + (f_w - 1) * tap_dx + depth];
                let (out_blocks, out_tail) = out_px.split_at_mut(blocks * 4);
                for (blk, outs) in out_blocks.chunks_exact_mut(4).enumerate() {
                    let c = blk * 4;
                    let mut acc = [folded[c], folded[c + 1], folded[c + 2], folded[c + 3]];
                    for (ky, w_row) in filter.chunks_exact(f_w * depth).enumerate() {
                        let x_row = &window[ky * tap_dy..];
                        for (kx, w_tap) in w_row.chunks_exact(depth).enumerate() {
                            acc = mac4(four(&x_row[kx * tap_dx + c..]), four(&w_tap[c..]), acc);
                        }
                    }
                    for (j, (o, a)) in outs.iter_mut().zip(acc).enumerate() {
                        *o = requantize(p, a, c + j);
                    }
                }
                for (j, o) in out_tail.iter_mut().enumerate() {
                    let c = blocks * 4 + j;
                    let mut acc = folded[c];
                    for (ky, w_row) in filter.chunks_exact(f_w * depth).enumerate() {
                        let x_row = &window[ky * tap_dy..];
                        for (kx, w_tap) in w_row.chunks_exact(depth).enumerate() {
                            acc = acc.wrapping_add(x_row[kx * tap_dx + c] as i32 * w_tap[c] as i32);
                        }
                    }
                    *o = requantize(p, acc, c);
                }
            }
        }
    }
}

/// One output pixel whose window is clipped by the image, exact: over the valid taps only,
/// `bias + sum(w * x) + input_offset * sum(w)` (the same wrapping int32 value as the
/// reference's `sum(w * (x + input_offset))`), four channels at a time.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn border_pixel(
    p: &DepthwiseConv2dParams,
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    out_px: &mut [i8],
    b: usize,
    in_y0: isize,
    in_x0: isize,
    ky_range: core::ops::Range<usize>,
    kx_range: core::ops::Range<usize>,
) {
    let [_, in_h, in_w, depth] = p.input_shape;
    let f_w = p.filter_shape[2];
    let bias_at = |c: usize| bias.map_or(0, |bs| bs[c]);
    let pixel = |ky: usize, kx: usize| {
        let iy = (in_y0 + (p.dilation_height * ky) as isize) as usize;
        let ix = (in_x0 + (p.dilation_width * kx) as isize) as usize;
        ((b * in_h + iy) * in_w + ix) * depth
    };
    let blocks = depth / 4;
    let (out_blocks, out_tail) = out_px.split_at_mut(blocks * 4);
    for (blk, outs) in out_blocks.chunks_exact_mut(4).enumerate() {
        let c = blk * 4;
        let mut acc = [bias_at(c), bias_at(c + 1), bias_at(c + 2), bias_at(c + 3)];
        let mut wsum = [0i32; 4];
        for ky in ky_range.clone() {
            for kx in kx_range.clone() {
                let w = four(&filter[(ky * f_w + kx) * depth + c..]);
                acc = mac4(four(&input[pixel(ky, kx) + c..]), w, acc);
                for (s, w) in wsum.iter_mut().zip(w) {
                    *s = s.wrapping_add(w as i32);
                }
            }
        }
        for (j, (o, (a, s))) in outs.iter_mut().zip(acc.into_iter().zip(wsum)).enumerate() {
            *o = requantize(p, a.wrapping_add(p.input_offset.wrapping_mul(s)), c + j);
        }
    }
    for (j, o) in out_tail.iter_mut().enumerate() {
        let c = blocks * 4 + j;
        let mut acc: i32 = 0;
        for ky in ky_range.clone() {
            for kx in kx_range.clone() {
                let x = input[pixel(ky, kx) + c] as i32;
                let w = filter[(ky * f_w + kx) * depth + c] as i32;
                acc = acc.wrapping_add(w * (x + p.input_offset));
            }
        }
        *o = requantize(p, acc.wrapping_add(bias_at(c)), c);
    }
}
