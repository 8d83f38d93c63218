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

/// Channels of one register group of [`depthwise_mult1`] (one word of int8 per tap).
pub(crate) const LANES: usize = 4;

/// `acc[j] + sum over the taps of x[j] * w[j]` (with `offset` added to `x` when `OFFSET`)
/// for four channels held in registers, over `rows x cols` taps: tap `(r, k)` reads four
/// int8 at `x + r * x_row + k * x_col` and the word `w[r * w_row + k]` (four int8, little
/// endian, [`super::DepthwiseConv2dVariant::pack`]).
///
/// # Safety
/// Every one of those `rows * cols` four-byte reads of `x` is inside one live allocation.
#[inline(always)]
unsafe fn taps4<D: Dot, const OFFSET: bool>(
    x: *const i8,
    w: &[i32],
    [rows, cols, w_row]: [usize; 3],
    [x_row, x_col]: [usize; 2],
    offset: i32,
    mut acc: [i32; 4],
) -> [i32; 4] {
    let mut xr = x;
    for wr in w.chunks(w_row.max(1)).take(rows) {
        let mut xp = xr;
        for &wv in wr.iter().take(cols) {
            // SAFETY: the caller guarantees the four-byte read is in bounds; `[i8; 4]` has
            // alignment 1 and every bit pattern is valid.
            let xv = unsafe { xp.cast::<[i8; 4]>().read() };
            let wv = (wv as u32).to_le_bytes().map(|b| b as i8);
            acc = if OFFSET { D::mac4_offset(xv, wv, offset, acc) } else { D::mac4(xv, wv, acc) };
            xp = xp.wrapping_add(x_col);
        }
        xr = xr.wrapping_add(x_row);
    }
    acc
}

/// One output pixel of [`depthwise_mult1`] with a 3x3 filter (the depthwise convolution of
/// MobileNet and DS-CNN) whose window is inside the input: every channel group from the
/// folded bias, the nine taps unrolled with constant weight offsets. Its own small function
/// so that the accumulators, the pointers and the steps fit in registers.
///
/// # Safety
/// For every channel group `j` and tap `(r, k)`, the four bytes at
/// `x0 + 4j + r * x_step[0] + k * x_step[1]` are inside one live allocation.
#[inline(never)]
unsafe fn interior_3x3<D: Dot>(x0: *const i8, words: &[i32], folded: &[i32], [x_row, x_col]: [usize; 2], rq: &Requant, out_px: &mut [i8]) {
    const K: usize = 3;
    let groups = out_px.chunks_exact_mut(LANES).zip(words.chunks_exact(K * K)).zip(folded.chunks_exact(LANES));
    for (j, ((outs, wg), init)) in groups.enumerate() {
        let c = j * LANES;
        let xg = x0.wrapping_add(c);
        let mut acc = [init[0], init[1], init[2], init[3]];
        for r in 0..K {
            let xr = xg.wrapping_add(r * x_row);
            for k in 0..K {
                // SAFETY: in bounds by the caller's guarantee; `[i8; 4]` has alignment 1 and
                // every bit pattern is valid.
                let xv = unsafe { xr.wrapping_add(k * x_col).cast::<[i8; 4]>().read() };
                let wv = (wg[r * K + k] as u32).to_le_bytes().map(|b| b as i8);
                acc = D::mac4(xv, wv, acc);
            }
        }
        store4(rq, c, acc, outs);
    }
}

/// [`Requant::store`] of one channel group, not inlined: one copy for the interior and the
/// border paths.
#[inline(never)]
fn store4(rq: &Requant, c: usize, acc: [i32; LANES], outs: &mut [i8]) {
    rq.store(c, &acc, outs);
}

/// See [`super::depthwise_conv_2d_s8_mult1`]: depth multiplier 1, depth a multiple of
/// [`LANES`], `packed` from [`super::DepthwiseConv2dVariant::pack`] (the folded bias, then
/// the filter as one word per group of four channels per tap, group by group). Each output
/// pixel is computed four channels at a time with the accumulators in registers over the
/// whole window (no stack accumulator, no per-tap bounds checks): from the folded bias over
/// all taps for an interior window, from the bias with the input offset over the valid taps
/// for a clipped one. Not inlined: a model calls it for many layers (one copy of the body,
/// see docs/KERNELS.md).
#[inline(never)]
pub(crate) fn depthwise_mult1<D: Dot>(
    p: &DepthwiseConv2dParams<S8>,
    input: &[i8],
    bias: Option<&[i32]>,
    packed: &[i32],
    output: &mut [i8],
) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    let [_, f_h, f_w, _] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let taps = f_h * f_w;
    // The bounds every unchecked read below relies on.
    assert!(
        depth % LANES == 0
            && g.filter_shape[3] == depth
            && g.output_shape[3] == depth
            && input.len() >= batches * in_h * in_w * depth
            && output.len() >= batches * out_h * out_w * depth
            && packed.len() >= depth + depth / LANES * taps
            && bias.is_none_or(|b| b.len() >= depth)
    );
    if depth == 0 || taps == 0 {
        return;
    }
    let (folded, words) = packed.split_at(depth);
    let rq = Requant::new(&p.quant, &p.clamp);
    let zeros = [0i32; LANES];
    let x_step = [g.dilation_height * in_w * depth, g.dilation_width * depth];
    let mut pixels = output.chunks_exact_mut(depth);
    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
            let ky = valid_taps(in_y0, g.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let Some(out_px) = pixels.next() else { return };
                let in_x0 = (ox * g.stride_width) as isize - g.pad_left as isize;
                let kx = valid_taps(in_x0, g.dilation_width, f_w, in_w);
                // Other interior windows take the border path (exact with the bias, only slower).
                let interior = ky.len() == 3 && kx.len() == 3 && f_h == 3 && f_w == 3;
                let shape = [ky.len(), kx.len(), f_w];
                // First valid tap: input pixel and filter tap offsets.
                let (x0, w0) = if ky.is_empty() || kx.is_empty() {
                    (0, 0)
                } else {
                    let iy = (in_y0 + (g.dilation_height * ky.start) as isize) as usize;
                    let ix = (in_x0 + (g.dilation_width * kx.start) as isize) as usize;
                    (((b * in_h + iy) * in_w + ix) * depth, ky.start * f_w + kx.start)
                };
                let x0 = input.as_ptr().wrapping_add(x0);
                if interior {
                    // SAFETY: the window is inside the input; tap (r, k) of channel group j
                    // reads input pixel (iy + r * dil_h, ix + k * dil_w), channels 4j..4j + 4
                    // <= depth, within the length asserted above.
                    unsafe { interior_3x3::<D>(x0, words, folded, x_step, &rq, out_px) };
                    continue;
                }
                for ((j, outs), wg) in out_px.chunks_exact_mut(LANES).enumerate().zip(words.chunks_exact(taps)) {
                    let c = j * LANES;
                    let init = |t: &[i32]| -> [i32; LANES] { [t[c], t[c + 1], t[c + 2], t[c + 3]] };
                    let acc = bias.map_or(zeros, init);
                    // SAFETY: as above, over the valid taps only (none when a range is
                    // empty).
                    let acc = unsafe { taps4::<D, true>(x0.wrapping_add(c), &wg[w0..], shape, x_step, p.quant.input_offset, acc) };
                    store4(&rq, c, acc, outs);
                }
            }
        }
    }
}
