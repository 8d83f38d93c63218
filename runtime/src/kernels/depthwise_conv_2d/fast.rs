//! [`super::DepthwiseConv2dVariant::Window`], int8, with the compile-time folded bias of
//! [`super::DepthwiseConv2dVariant::pack`]; depth multiplier 1 uses the four-lane
//! micro-kernel of `D` ([`crate::kernels::dot::Dot`]), larger multipliers (up to one
//! channel block) a broadcast loop.
//!
//! A window fully inside the input accumulates `sum(w * x)` on top of the folded bias
//! (`bias + input_offset * sum(w)`), in blocks of channels (a small stack accumulator),
//! tap by tap over contiguous channel runs of the input pixel and the filter tap. A window clipped by the image
//! accumulates `sum(w * (x + input_offset))` over its valid taps from the bias, exactly as
//! the reference. Results are identical to [`super::scalar`] (wrapping int32 accumulation).

use super::DepthwiseConv2dParams;
use crate::kernels::dot::Dot;
use crate::kernels::numerics::S8;
use crate::kernels::requant::Requant;
use crate::kernels::window::valid_taps;

/// Channels accumulated together (an i32 stack buffer: one pass over the window per block).
pub(crate) const CHANNEL_BLOCK: usize = 64;

/// `acc[c] += x[c] * w[c]` (with `offset` added to `x` when `OFFSET`) over one tap's
/// channels, four at a time.
#[inline(always)]
fn mac_run<D: Dot, const OFFSET: bool>(acc: &mut [i32], xs: &[i8], ws: &[i8], offset: i32) {
    let n = acc.len();
    let (xs, ws) = (&xs[..n], &ws[..n]);
    let mut a4 = acc.chunks_exact_mut(4);
    let mut x4 = xs.chunks_exact(4);
    let mut w4 = ws.chunks_exact(4);
    for ((a, x), w) in (&mut a4).zip(&mut x4).zip(&mut w4) {
        let r = if OFFSET {
            D::mac4_offset([x[0], x[1], x[2], x[3]], [w[0], w[1], w[2], w[3]], offset, [a[0], a[1], a[2], a[3]])
        } else {
            D::mac4([x[0], x[1], x[2], x[3]], [w[0], w[1], w[2], w[3]], [a[0], a[1], a[2], a[3]])
        };
        a.copy_from_slice(&r);
    }
    for ((a, &x), &w) in a4.into_remainder().iter_mut().zip(x4.remainder()).zip(w4.remainder()) {
        let x = if OFFSET { x as i32 + offset } else { x as i32 };
        *a = a.wrapping_add(x * w as i32);
    }
}

/// Depth multiplier `mult > 1`: `acc[ic * mult + m] += x[ic] * w[ic * mult + m]` (with
/// `offset` added to `x` when `OFFSET`), `xs` holding the block's input channels.
#[inline(always)]
fn mac_run_mult<const OFFSET: bool>(acc: &mut [i32], xs: &[i8], ws: &[i8], mult: usize, offset: i32) {
    let ws = &ws[..acc.len()];
    for ((a, &x), w) in acc.chunks_exact_mut(mult).zip(xs).zip(ws.chunks_exact(mult)) {
        let x = if OFFSET { x as i32 + offset } else { x as i32 };
        for (a, &w) in a.iter_mut().zip(w) {
            *a = a.wrapping_add(x * w as i32);
        }
    }
}

/// See [`super::depthwise_conv_2d_s8_window`].
pub(crate) fn depthwise_window<D: Dot>(
    p: &DepthwiseConv2dParams<S8>,
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    packed: &[i32],
    output: &mut [i8],
) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, depth] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let mult = p.depth_multiplier();
    debug_assert!(p.quant.output_multiplier.len() == 1 || p.quant.output_multiplier.len() == depth);
    if depth == 0 {
        return;
    }
    let folded = &packed[..depth];
    let rq = Requant::new(&p.quant, &p.clamp);
    // Output channels per block: whole groups of `mult` (input channel `ic` feeds output
    // channels `ic * mult..(ic + 1) * mult`).
    let block = CHANNEL_BLOCK / mult * mult;

    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
            let ky_range = valid_taps(in_y0, g.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let in_x0 = (ox * g.stride_width) as isize - g.pad_left as isize;
                let kx_range = valid_taps(in_x0, g.dilation_width, f_w, in_w);
                let out_px = &mut output[((b * out_h + oy) * out_w + ox) * depth..][..depth];
                let interior = ky_range.len() == f_h && kx_range.len() == f_w;
                // Input and filter offsets of tap (ky, kx), both valid.
                let x_at = |ky: usize, kx: usize| {
                    let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                    let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                    ((b * in_h + iy) * in_w + ix) * in_d
                };
                let w_at = |ky: usize, kx: usize| (ky * f_w + kx) * depth;
                for (blk, outs) in out_px.chunks_mut(block).enumerate() {
                    let c0 = blk * block;
                    let mut acc_buf = [0i32; CHANNEL_BLOCK];
                    let acc = &mut acc_buf[..outs.len()];
                    if interior {
                        acc.copy_from_slice(&folded[c0..][..outs.len()]);
                    } else if let Some(bias) = bias {
                        acc.copy_from_slice(&bias[c0..][..outs.len()]);
                    }
                    for ky in ky_range.clone() {
                        for kx in kx_range.clone() {
                            let (xs, ws) = (&input[x_at(ky, kx) + c0 / mult..], &filter[w_at(ky, kx) + c0..]);
                            match (mult, interior) {
                                (1, true) => mac_run::<D, false>(acc, xs, ws, 0),
                                (1, false) => mac_run::<D, true>(acc, xs, ws, p.quant.input_offset),
                                (_, true) => mac_run_mult::<false>(acc, xs, ws, mult, 0),
                                (_, false) => mac_run_mult::<true>(acc, xs, ws, mult, p.quant.input_offset),
                            }
                        }
                    }
                    rq.store(c0, acc, outs);
                }
            }
        }
    }
}
