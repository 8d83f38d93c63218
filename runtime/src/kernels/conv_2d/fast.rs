//! Fast path of [`super::conv_2d_s8`] for non-grouped convolutions with a compile-time
//! folded bias ([`super::Conv2dParams::folded_bias`]).
//!
//! A window fully inside the input accumulates `sum(w * x)` on top of the folded bias
//! (`bias + input_offset * sum(w)`), four output channels at a time over contiguous input
//! runs: a filter row `ky` with dilation 1 is one run of `filter_width * depth` int8 in both
//! the input and the OHWI filter. Border windows accumulate `sum(w * (x + input_offset))`
//! over their valid taps from the bias, as the reference, with the same run structure.
//! Windows with short runs (few input channels) are gathered into a small stack buffer
//! first ([`conv_im2col`]), border windows included (zero-point padding). Results are
//! identical to [`super::scalar`] (wrapping int32 accumulation).

use super::Conv2dParams;
use crate::kernels::dot::{dot1, dot1_offset, dot4, dot4_offset};
use crate::kernels::window::valid_taps;
use crate::quant::multiply_by_quantized_multiplier;

/// Whether [`conv_2d_s8`] can run these params: a folded bias per output channel and no
/// groups (and a non-empty window).
#[inline]
pub fn applies(p: &Conv2dParams) -> bool {
    let [out_d, f_h, f_w, f_d] = p.filter_shape;
    p.folded_bias.len() == out_d && f_d == p.input_shape[3] && f_h * f_w * f_d > 0
}

#[inline(always)]
fn requantize(p: &Conv2dParams, acc: i32, oc: usize) -> i8 {
    let q = if p.output_multiplier.len() == 1 { 0 } else { oc };
    let v = multiply_by_quantized_multiplier(acc, p.output_multiplier[q], p.output_shift[q]).wrapping_add(p.output_offset);
    v.max(p.output_activation_min).min(p.output_activation_max) as i8
}

/// See [`super::conv_2d_s8`]; requires [`applies`].
pub fn conv_2d_s8(p: &Conv2dParams, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let [batches, in_h, in_w, in_d] = p.input_shape;
    let [out_d, f_h, f_w, f_d] = p.filter_shape;
    let [_, out_h, out_w, _] = p.output_shape;
    debug_assert!(applies(p));
    debug_assert!(p.output_multiplier.len() == 1 || p.output_multiplier.len() == out_d);
    debug_assert_eq!(p.output_multiplier.len(), p.output_shift.len());
    if out_d == 0 {
        return;
    }
    let row_len = f_h * f_w * f_d;
    // Contiguous runs per filter row: one of `f_w * f_d` with dilation 1, else one per tap.
    let (runs, run_len) = if p.dilation_width == 1 { (1, f_w * f_d) } else { (f_w, f_d) };
    let folded = &p.folded_bias[..out_d];
    let blocks = out_d / 4;
    // Short runs (few input channels, e.g. a first layer on a 1- or 3-channel image): copy
    // each window into a stack buffer once (im2col, padding taps set to the input zero
    // point, whose `x + input_offset` is 0), then one long dot product per channel.
    if run_len < IM2COL_MIN_RUN && row_len <= IM2COL_MAX && (f_h > 1 || runs > 1) {
        return conv_im2col(p, input, filter, output);
    }

    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            let ky_range = valid_taps(in_y0, p.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let kx_range = valid_taps(in_x0, p.dilation_width, f_w, in_w);
                let out_px = &mut output[((b * out_h + oy) * out_w + ox) * out_d..][..out_d];
                if ky_range.len() != f_h || kx_range.len() != f_w {
                    border_pixel(p, input, filter, bias, out_px, b, in_y0, in_x0, ky_range.clone(), kx_range);
                    continue;
                }
                // Interior: every tap is in the image, so in_y0, in_x0 >= 0.
                let (y0, x0) = (in_y0 as usize, in_x0 as usize);
                // Offset in `input` of run `r` of filter row `ky`, and in a filter row.
                let x_at = |ky: usize, r: usize| ((b * in_h + y0 + ky * p.dilation_height) * in_w + x0 + r * p.dilation_width) * in_d;
                let w_at = |ky: usize, r: usize| (ky * f_w + r) * f_d;
                let (out_blocks, out_tail) = out_px.split_at_mut(blocks * 4);
                for (blk, (outs, ws)) in out_blocks.chunks_exact_mut(4).zip(filter.chunks_exact(4 * row_len)).enumerate() {
                    let oc = blk * 4;
                    let (w0, rest) = ws.split_at(row_len);
                    let (w1, rest) = rest.split_at(row_len);
                    let (w2, w3) = rest.split_at(row_len);
                    let mut acc = [folded[oc], folded[oc + 1], folded[oc + 2], folded[oc + 3]];
                    for ky in 0..f_h {
                        for r in 0..runs {
                            let xs = &input[x_at(ky, r)..][..run_len];
                            let wo = w_at(ky, r);
                            acc = dot4(xs, [&w0[wo..], &w1[wo..], &w2[wo..], &w3[wo..]], acc);
                        }
                    }
                    for (j, (o, a)) in outs.iter_mut().zip(acc).enumerate() {
                        *o = requantize(p, a, oc + j);
                    }
                }
                for (j, o) in out_tail.iter_mut().enumerate() {
                    let oc = blocks * 4 + j;
                    let w = &filter[oc * row_len..][..row_len];
                    let mut acc = folded[oc];
                    for ky in 0..f_h {
                        for r in 0..runs {
                            acc = dot1(&input[x_at(ky, r)..][..run_len], &w[w_at(ky, r)..], acc);
                        }
                    }
                    *o = requantize(p, acc, oc);
                }
            }
        }
    }
}

/// Runs shorter than this use [`conv_im2col`] (when the window fits [`IM2COL_MAX`]).
const IM2COL_MIN_RUN: usize = 16;
/// Largest window (`filter_height * filter_width * depth` int8) [`conv_im2col`] buffers.
const IM2COL_MAX: usize = 128;

/// The im2col form of [`conv_2d_s8`]: every window (border ones included) is gathered into
/// a contiguous buffer, the taps outside the image set to the input zero point. Such a tap
/// then contributes `w * (zp + input_offset) = 0`, exactly as the reference's skipped tap,
/// so every window starts from the folded bias.
#[inline(never)]
fn conv_im2col(p: &Conv2dParams, input: &[i8], filter: &[i8], output: &mut [i8]) {
    let [batches, in_h, in_w, in_d] = p.input_shape;
    let [out_d, f_h, f_w, f_d] = p.filter_shape;
    let [_, out_h, out_w, _] = p.output_shape;
    let row_len = f_h * f_w * f_d;
    debug_assert!(row_len <= IM2COL_MAX);
    // -input_offset is the input zero point, an int8.
    let zero_point = (-p.input_offset) as i8;
    let folded = &p.folded_bias[..out_d];
    let blocks = out_d / 4;
    let mut buf = [0i8; IM2COL_MAX];
    let col = &mut buf[..row_len];
    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            let ky_range = valid_taps(in_y0, p.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let kx_range = valid_taps(in_x0, p.dilation_width, f_w, in_w);
                for (ky, col_row) in col.chunks_exact_mut(f_w * f_d).enumerate() {
                    if !ky_range.contains(&ky) {
                        col_row.fill(zero_point);
                        continue;
                    }
                    let iy = (in_y0 + (p.dilation_height * ky) as isize) as usize;
                    let row = (b * in_h + iy) * in_w;
                    if p.dilation_width == 1 && kx_range.len() == f_w {
                        col_row.copy_from_slice(&input[(row + in_x0 as usize) * in_d..][..f_w * f_d]);
                        continue;
                    }
                    for (kx, tap) in col_row.chunks_exact_mut(f_d).enumerate() {
                        if kx_range.contains(&kx) {
                            let ix = (in_x0 + (p.dilation_width * kx) as isize) as usize;
                            tap.copy_from_slice(&input[(row + ix) * in_d..][..f_d]);
                        } else {
                            tap.fill(zero_point);
                        }
                    }
                }
                let out_px = &mut output[((b * out_h + oy) * out_w + ox) * out_d..][..out_d];
                let (out_blocks, out_tail) = out_px.split_at_mut(blocks * 4);
                for (blk, (outs, ws)) in out_blocks.chunks_exact_mut(4).zip(filter.chunks_exact(4 * row_len)).enumerate() {
                    let oc = blk * 4;
                    let (w0, rest) = ws.split_at(row_len);
                    let (w1, rest) = rest.split_at(row_len);
                    let (w2, w3) = rest.split_at(row_len);
                    let acc = dot4(col, [w0, w1, w2, w3], [folded[oc], folded[oc + 1], folded[oc + 2], folded[oc + 3]]);
                    for (j, (o, a)) in outs.iter_mut().zip(acc).enumerate() {
                        *o = requantize(p, a, oc + j);
                    }
                }
                for (j, o) in out_tail.iter_mut().enumerate() {
                    let oc = blocks * 4 + j;
                    *o = requantize(p, dot1(col, &filter[oc * row_len..][..row_len], folded[oc]), oc);
                }
            }
        }
    }
}

/// One output pixel whose window is clipped by the image, exact: `bias + sum(w * (x +
/// input_offset))` over the valid taps only (as the reference), four output channels at a
/// time over the contiguous runs of valid taps.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn border_pixel(
    p: &Conv2dParams,
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
    let [_, in_h, in_w, in_d] = p.input_shape;
    let [out_d, f_h, f_w, f_d] = p.filter_shape;
    let row_len = f_h * f_w * f_d;
    let bias_at = |c: usize| bias.map_or(0, |bs| bs[c]);
    let off = p.input_offset;
    // Runs of valid taps per filter row: all valid columns at once with dilation 1.
    let (kx0, n_kx) = (kx_range.start, kx_range.len());
    let (runs, run_len) = if p.dilation_width == 1 { (1, n_kx * f_d) } else { (n_kx, f_d) };
    let x_at = |ky: usize, r: usize| {
        let iy = (in_y0 + (p.dilation_height * ky) as isize) as usize;
        let ix = (in_x0 + (p.dilation_width * (kx0 + r)) as isize) as usize;
        ((b * in_h + iy) * in_w + ix) * in_d
    };
    let w_at = |ky: usize, r: usize| (ky * f_w + kx0 + r) * f_d;
    let blocks = out_d / 4;
    let (out_blocks, out_tail) = out_px.split_at_mut(blocks * 4);
    for (blk, (outs, ws)) in out_blocks.chunks_exact_mut(4).zip(filter.chunks_exact(4 * row_len)).enumerate() {
        let oc = blk * 4;
        let (w0, rest) = ws.split_at(row_len);
        let (w1, rest) = rest.split_at(row_len);
        let (w2, w3) = rest.split_at(row_len);
        let mut acc = [bias_at(oc), bias_at(oc + 1), bias_at(oc + 2), bias_at(oc + 3)];
        if n_kx > 0 {
            for ky in ky_range.clone() {
                for r in 0..runs {
                    let xs = &input[x_at(ky, r)..][..run_len];
                    let wo = w_at(ky, r);
                    acc = dot4_offset(xs, [&w0[wo..], &w1[wo..], &w2[wo..], &w3[wo..]], off, acc);
                }
            }
        }
        for (j, (o, a)) in outs.iter_mut().zip(acc).enumerate() {
            *o = requantize(p, a, oc + j);
        }
    }
    for (j, o) in out_tail.iter_mut().enumerate() {
        let oc = blocks * 4 + j;
        let w = &filter[oc * row_len..][..row_len];
        let mut acc = bias_at(oc);
        if n_kx > 0 {
            for ky in ky_range.clone() {
                for r in 0..runs {
                    acc = dot1_offset(&input[x_at(ky, r)..][..run_len], &w[w_at(ky, r)..], off, acc);
                }
            }
        }
        *o = requantize(p, acc, oc);
    }
}
