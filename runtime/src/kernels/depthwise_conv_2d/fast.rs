//! Fast path of [`super::depthwise_conv_2d_s8`] for depth multiplier 1 with a compile-time
//! folded bias ([`super::DepthwiseConv2dParams::folded_bias`]).
//!
//! A window fully inside the input accumulates `sum(w * x)` on top of the folded bias
//! (`bias + input_offset * sum(w)`), four channels at a time in registers, reading four
//! contiguous int8 of each tap's input pixel and filter tap. A window clipped by the image
//! accumulates `sum(w * (x + input_offset))` over its valid taps from the bias, exactly as
//! the reference. Results are identical to [`super::scalar`] (wrapping int32 accumulation).

use super::DepthwiseConv2dParams;
use crate::kernels::dot::{mac4, mac4_offset};
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

/// Where the valid taps of one window are: rows of `n_kx` taps, `tap_dx` apart in the input
/// (`depth` apart in the filter), starting at `row0 + i * tap_dy` (`w0 + i * w_dy`).
struct Taps {
    row0: usize,
    tap_dy: usize,
    tap_dx: usize,
    row_span: usize,
    w0: usize,
    w_dy: usize,
    w_span: usize,
    n_ky: usize,
    n_kx: usize,
    depth: usize,
}

/// Channels `c..c + 4` accumulated over the window's valid taps, with `offset` added to the
/// input when `OFFSET` (clipped windows), without when the offset is folded (interior).
#[inline(always)]
fn taps4<const OFFSET: bool>(input: &[i8], filter: &[i8], g: &Taps, c: usize, offset: i32, mut acc: [i32; 4]) -> [i32; 4] {
    for i in 0..g.n_ky {
        let x_row = &input[g.row0 + i * g.tap_dy..][..g.row_span];
        let w_row = &filter[g.w0 + i * g.w_dy..][..g.w_span];
        for j in 0..g.n_kx {
            let x = four(&x_row[j * g.tap_dx + c..][..4]);
            let w = four(&w_row[j * g.depth + c..][..4]);
            acc = if OFFSET { mac4_offset(x, w, offset, acc) } else { mac4(x, w, acc) };
        }
    }
    acc
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
    let bias_at = |c: usize| bias.map_or(0, |bs| bs[c]);

    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            let ky_range = valid_taps(in_y0, p.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let kx_range = valid_taps(in_x0, p.dilation_width, f_w, in_w);
                let out_px = &mut output[((b * out_h + oy) * out_w + ox) * depth..][..depth];
                let interior = ky_range.len() == f_h && kx_range.len() == f_w;
                if ky_range.is_empty() || kx_range.is_empty() {
                    // No tap in the image: the accumulator is the bias alone.
                    for (c, o) in out_px.iter_mut().enumerate() {
                        *o = requantize(p, bias_at(c), c);
                    }
                    continue;
                }
                // The valid taps' input: rows `ky_range`, columns `kx_range`, all in the
                // image. `x_at(ky, kx)` is the input offset of tap (ky, kx)'s pixel.
                let (ky0, kx0) = (ky_range.start, kx_range.start);
                let (n_ky, n_kx) = (ky_range.len(), kx_range.len());
                let iy0 = (in_y0 + (p.dilation_height * ky0) as isize) as usize;
                let ix0 = (in_x0 + (p.dilation_width * kx0) as isize) as usize;
                let row0 = ((b * in_h + iy0) * in_w + ix0) * depth;
                let (tap_dy, tap_dx) = (p.dilation_height * in_w * depth, p.dilation_width * depth);
                let row_span = (n_kx - 1) * tap_dx + depth;
                let w_span = n_kx * depth;
                let (out_blocks, out_tail) = out_px.split_at_mut(blocks * 4);
                for (blk, outs) in out_blocks.chunks_exact_mut(4).enumerate() {
                    let c = blk * 4;
                    let mut acc = if interior {
                        [folded[c], folded[c + 1], folded[c + 2], folded[c + 3]]
                    } else {
                        [bias_at(c), bias_at(c + 1), bias_at(c + 2), bias_at(c + 3)]
                    };
                    let g = Taps { row0, tap_dy, tap_dx, row_span, w0: (ky0 * f_w + kx0) * depth, w_dy: f_w * depth, w_span, n_ky, n_kx, depth };
                    acc = if interior { taps4::<false>(input, filter, &g, c, 0, acc) } else { taps4::<true>(input, filter, &g, c, p.input_offset, acc) };
                    for (j, (o, a)) in outs.iter_mut().zip(acc).enumerate() {
                        *o = requantize(p, a, c + j);
                    }
                }
                for (j, o) in out_tail.iter_mut().enumerate() {
                    let c = blocks * 4 + j;
                    let mut acc = if interior { folded[c] } else { bias_at(c) };
                    let off = if interior { 0 } else { p.input_offset };
                    for i in 0..n_ky {
                        let x_row = &input[row0 + i * tap_dy..][..row_span];
                        let w_row = &filter[((ky0 + i) * f_w + kx0) * depth..][..w_span];
                        for j in 0..n_kx {
                            acc = acc.wrapping_add((x_row[j * tap_dx + c] as i32 + off) * w_row[j * depth + c] as i32);
                        }
                    }
                    *o = requantize(p, acc, c);
                }
            }
        }
    }
}
