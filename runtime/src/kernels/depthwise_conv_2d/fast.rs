//! [`super::DepthwiseConv2dVariant::Window`], int8, with the compile-time folded bias of
//! [`super::DepthwiseConv2dVariant::pack`]; depth multiplier 1 uses the four-lane
//! micro-kernel of `D` (`crate::kernels::dot::Dot`), larger multipliers (up to one
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
use crate::kernels::requant::{Requant, Requant4, PACKED_REQUANT_WORDS};
use crate::kernels::window::{RowRange, Window};

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
    let in_d = g.input_shape[3];
    let [_, _, f_w, depth] = g.filter_shape;
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

    for win in g.windows() {
        let out_px = &mut output[win.output_pixel(g) * depth..][..depth];
        let interior = win.interior(g);
        // Input and filter offsets of tap (ky, kx), both valid.
        let x_at = |ky: usize, kx: usize| win.input_pixel(g, ky, kx) * in_d;
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
            for ky in win.ky.clone() {
                for kx in win.kx.clone() {
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

/// Channels of one register group of [`depthwise_mult1`] and [`depthwise_one_channel`].
pub(crate) const LANES: usize = 4;

/// Words per channel group of the packed table after the weights: the folded bias (four),
/// then the requantization ([`PACKED_REQUANT_WORDS`]).
pub(crate) const GROUP_TAIL: usize = LANES + PACKED_REQUANT_WORDS;

/// The folded bias and the requantization words of one group (the tail of its packed words).
#[inline(always)]
fn tail(g: &[i32]) -> ([i32; LANES], &[i32; PACKED_REQUANT_WORDS]) {
    let (init, rq) = g[g.len() - GROUP_TAIL..].split_at(LANES);
    let rq: &[i32; PACKED_REQUANT_WORDS] = rq.try_into().unwrap_or(&[0; PACKED_REQUANT_WORDS]);
    ([init[0], init[1], init[2], init[3]], rq)
}

/// The four int8 of a packed weight word.
#[inline(always)]
fn bytes(w: i32) -> [i8; 4] {
    (w as u32).to_le_bytes().map(|b| b as i8)
}

/// Stores four int8 at the start of `out` (one word store).
#[inline(always)]
fn store(out: &mut [i8], v: [i8; 4]) {
    if let Some(o) = out.first_chunk_mut::<4>() {
        *o = v;
    }
}

/// One tap of a channel group for a [`Dot::BYTE_LOADS`] micro-kernel (RV32): `acc` plus the
/// four input bytes at `x` (the zero point `zp` when not `valid`) times the four weights of
/// the packed word `w`, as references, so that each lane is one sign-extending byte load
/// (`Dot::mac4_ref`); the tap's address (the input or `zp`) is chosen instead of its value.
/// The other micro-kernels take the word forms (`Dot::mac4`: one unaligned word load and
/// the weight word, as the DSP micro-kernel wants them).
///
/// # Safety
/// When `valid`, the four bytes at `x` are inside one live allocation.
#[inline(always)]
unsafe fn tap_bytes<D: Dot>(x: *const i8, valid: bool, zp: &[i8; 4], w: &i32, acc: [i32; 4]) -> [i32; 4] {
    let p = if valid { x.cast::<[i8; 4]>() } else { zp as *const [i8; 4] };
    // SAFETY: `p` is the valid tap (the caller's guarantee) or `zp`, four bytes either way,
    // not written while the reference lives; `[i8; 4]` has alignment 1 and every bit pattern
    // is valid.
    let xv = unsafe { &*p };
    D::mac4_ref(xv, bytemuck::cast_ref::<i32, [i8; 4]>(w), acc)
}

/// One output pixel of [`depthwise_mult1`] with a 3x3 filter (the depthwise convolution of
/// MobileNet and DS-CNN): every channel group from its folded bias over the nine taps
/// unrolled, then requantized from its packed constants. `BORDER`: tap `t` (row-major) is
/// read only when bit `t` of `valid` is set, and is the input zero point otherwise (which
/// adds `w * (zp + input_offset) = 0` to the exact sum: the folded bias then gives the
/// reference's sum over the valid taps). Its own small function so that the accumulators,
/// the pointers and the steps fit in registers.
///
/// # Safety
/// For every channel group `j` and every tap `(r, k)` read, the four bytes at
/// `x0 + 4j + r * x_step[0] + k * x_step[1]` are inside one live allocation.
#[inline(never)]
unsafe fn pixel_3x3<D: Dot, const BORDER: bool>(
    x0: *const i8,
    groups: &[i32],
    [x_row, x_col]: [isize; 2],
    valid: u32,
    zp: [i8; 4],
    rq: &Requant4,
    out_px: &mut [i8],
) {
    const K: usize = 3;
    const W: usize = K * K + GROUP_TAIL;
    for (j, (outs, g)) in out_px.chunks_exact_mut(LANES).zip(groups.chunks_exact(W)).enumerate() {
        let xg = x0.wrapping_add(j * LANES);
        let (mut acc, rqw) = tail(g);
        for r in 0..K {
            let xr = xg.wrapping_offset(r as isize * x_row);
            for k in 0..K {
                let t = r * K + k;
                if D::BYTE_LOADS {
                    let valid = !BORDER || valid & (1 << t) != 0;
                    // SAFETY: the tap is read only when valid: in bounds by the caller's
                    // guarantee.
                    acc = unsafe { tap_bytes::<D>(xr.wrapping_offset(k as isize * x_col), valid, &zp, &g[t], acc) };
                    continue;
                }
                let xv = if !BORDER || valid & (1 << t) != 0 {
                    // SAFETY: a valid tap, in bounds by the caller's guarantee; `[i8; 4]` has
                    // alignment 1 and every bit pattern is valid.
                    unsafe { xr.wrapping_offset(k as isize * x_col).cast::<[i8; 4]>().read() }
                } else {
                    zp
                };
                acc = D::mac4(xv, bytes(g[t]), acc);
            }
        }
        store(outs, rq.apply::<D>(acc, rqw));
    }
}

/// Two horizontally adjacent output pixels of [`depthwise_mult1`] with a 3x3 filter, both
/// windows inside the input, for a [`Dot::BYTE_LOADS`] micro-kernel (RV32): as
/// [`pixel_3x3`], each channel group's nine weight words read once for both pixels (the
/// second pixel's taps `x_next` bytes after the first's), eight accumulators.
///
/// # Safety
/// For every channel group `j` and tap `(r, k)`, the four bytes at `x0 + 4j + r *
/// x_step[0] + k * x_step[1]` and those `x_next` bytes further are inside one live
/// allocation.
#[inline(never)]
unsafe fn pixel2_3x3<D: Dot>(x0: *const i8, x_next: isize, groups: &[i32], [x_row, x_col]: [isize; 2], rq: &Requant4, out0: &mut [i8], out1: &mut [i8]) {
    const K: usize = 3;
    const W: usize = K * K + GROUP_TAIL;
    let outs = out0.chunks_exact_mut(LANES).zip(out1.chunks_exact_mut(LANES));
    for (j, ((o0, o1), g)) in outs.zip(groups.chunks_exact(W)).enumerate() {
        let xg = x0.wrapping_add(j * LANES);
        let (init, rqw) = tail(g);
        let Some(w) = g.first_chunk::<{ K * K }>() else { return };
        // SAFETY: the caller's guarantee for group j's taps of both pixels.
        let [a, b] = unsafe { D::mac3x3_pair(xg, [x_row, x_col], x_next, w, [init, init]) };
        store(o0, rq.apply::<D>(a, rqw));
        store(o1, rq.apply::<D>(b, rqw));
    }
}

/// One output pixel of [`depthwise_mult1`] for any other filter: the taps in loops, the
/// invalid ones (outside the input) read as the zero point, as in [`pixel_3x3`].
///
/// # Safety
/// As [`pixel_3x3`], for the valid taps `ky x kx`.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
unsafe fn pixel_any<D: Dot>(
    x0: *const i8,
    groups: &[i32],
    [f_h, f_w]: [usize; 2],
    [ky, kx]: [core::ops::Range<usize>; 2],
    [x_row, x_col]: [isize; 2],
    zp: [i8; 4],
    rq: &Requant4,
    out_px: &mut [i8],
) {
    let taps = f_h * f_w;
    for (j, (outs, g)) in out_px.chunks_exact_mut(LANES).zip(groups.chunks_exact(taps + GROUP_TAIL)).enumerate() {
        let xg = x0.wrapping_add(j * LANES);
        let (mut acc, rqw) = tail(g);
        for (r, wr) in g[..taps].chunks_exact(f_w).enumerate() {
            let xr = xg.wrapping_offset(r as isize * x_row);
            for (k, w) in wr.iter().enumerate() {
                if D::BYTE_LOADS {
                    let valid = ky.contains(&r) && kx.contains(&k);
                    // SAFETY: the tap is read only when valid: in bounds by the caller's
                    // guarantee.
                    acc = unsafe { tap_bytes::<D>(xr.wrapping_offset(k as isize * x_col), valid, &zp, w, acc) };
                    continue;
                }
                let w = *w;
                let xv = if ky.contains(&r) && kx.contains(&k) {
                    // SAFETY: a valid tap, in bounds by the caller's guarantee.
                    unsafe { xr.wrapping_offset(k as isize * x_col).cast::<[i8; 4]>().read() }
                } else {
                    zp
                };
                acc = D::mac4(xv, bytes(w), acc);
            }
        }
        store(outs, rq.apply::<D>(acc, rqw));
    }
}

/// One output pixel of [`depthwise_mult1`] with a `K` x `K` filter for an implementation
/// with vector [`Dot::mac16_taps`] and [`Dot::requant16`] (`D::MAC16`, Helium): sixteen
/// channels (four groups) at a time. Inside the input the window's tap pointers are set
/// once per pixel and each block reads them at its channel offset; at a border too when
/// `zp_wide` (the zero point, the caller's buffer) holds at least the pixel's channels, a
/// tap outside the input pointing into it, else they are set per block, a tap outside the
/// input pointing to sixteen bytes of the zero point (either adds nothing to the folded
/// bias, as in [`pixel_3x3`]). The last `depth % 16`
/// channels go to [`pixel_any`]. `K` is a const generic so that the tap array and its
/// loops have fixed sizes.
///
/// # Safety
/// As [`pixel_3x3`], for the valid taps `ky x kx` of a `K` x `K` window.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
unsafe fn pixel_wide<D: Dot, const K: usize>(
    x0: *const i8,
    groups: &[i32],
    [ky, kx]: [core::ops::Range<usize>; 2],
    [x_row, x_col]: [isize; 2],
    zp: [i8; 4],
    zp_wide: &[i8],
    rq: &Requant4,
    out_px: &mut [i8],
) {
    const WIDE: usize = 4 * LANES;
    let taps = K * K;
    let stride = taps + GROUP_TAIL;
    let zp16 = [zp[0]; WIDE];
    let interior = ky.len() == K && kx.len() == K;
    // At a border, the taps outside the input read `zp_wide` (the zero point, at least as
    // many bytes as the pixel has channels) when it is there: then every pointer is set
    // once and each block read at its offset, as inside; else 16 bytes of `zp16`, the
    // pointers set per block.
    let once = interior || zp_wide.len() >= out_px.len();
    let pad = if interior || !once { zp16.as_ptr() } else { zp_wide.as_ptr() };
    let mut ptrs = [[pad; K]; K];
    let set = |ptrs: &mut [[*const i8; K]; K], xb: *const i8| {
        for (r, row) in ptrs.iter_mut().enumerate() {
            for (k, p) in row.iter_mut().enumerate() {
                let valid = interior || (ky.contains(&r) && kx.contains(&k));
                if !valid {
                    continue;
                }
                *p = xb.wrapping_offset(r as isize * x_row + k as isize * x_col);
            }
        }
    };
    if once {
        set(&mut ptrs, x0);
    }
    let blocks = out_px.len() / WIDE;
    let (wide_out, rest_out) = out_px.split_at_mut(blocks * WIDE);
    for (b, (outs, g)) in wide_out.chunks_exact_mut(WIDE).zip(groups.chunks_exact(LANES * stride)).enumerate() {
        let offset = if once {
            b * WIDE
        } else {
            set(&mut ptrs, x0.wrapping_add(b * WIDE));
            0
        };
        // SAFETY: a valid tap's pointer plus `offset` reads channels 16b..16b + 16 <= depth
        // of its input pixel (the caller's guarantee, as for `pixel_3x3`'s groups); the
        // other taps read bytes 16b..16b + 16 of `zp_wide` (at least depth long) or, with
        // `offset` 0, `zp16`. `g` holds four groups of `stride` words.
        let sums = unsafe { D::mac16_taps(ptrs.as_flattened(), offset, g, stride) };
        outs.copy_from_slice(&D::requant16(&sums, &g[taps..], stride, rq.k, rq.lo, rq.hi));
    }
    if !rest_out.is_empty() {
        let rest_groups = groups.get(blocks * LANES * stride..).unwrap_or(&[]);
        // SAFETY: the caller's guarantee, for the channels after the sixteen-channel blocks.
        unsafe { pixel_any::<D>(x0.wrapping_add(blocks * WIDE), rest_groups, [K, K], [ky, kx], [x_row, x_col], zp, rq, rest_out) };
    }
}

/// The shortest run of pixels [`run_wide`] hands to [`Dot::mac16_run`] (which regroups the
/// block's requantization constants once per call: on the Cortex-M55 that pays from about
/// four pixels on; kws's runs of three were 0.75% slower through it).
const MAC16_RUN_MIN: usize = 4;

/// A run of output pixels of one row of [`depthwise_mult1`] whose `K` x `K` windows all lie
/// inside the input, for an implementation with vector [`Dot::mac16_taps`] and
/// [`Dot::requant16`] (`D::MAC16`, Helium): [`pixel_wide`] without the borders, the tap
/// pointers set once for the whole run, pixel `p`'s window at `x0 + p * px_step` read
/// through `mac16_taps`' offset. `out` holds the run's pixels of `depth` channels; the
/// last `depth % 16` channels of each go to [`pixel_any`]. A function of its own so that
/// [`pixel_wide`]'s single border pixels keep their code.
///
/// # Safety
/// As [`pixel_3x3`] for every tap of the `K` x `K` window at `x0 + p * px_step`, for every
/// pixel `p` of `out`.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
unsafe fn run_wide<D: Dot, const K: usize>(
    x0: *const i8,
    groups: &[i32],
    [x_row, x_col]: [isize; 2],
    [depth, px_step]: [usize; 2],
    zp: [i8; 4],
    rq: &Requant4,
    out: &mut [i8],
) {
    const WIDE: usize = 4 * LANES;
    let taps = K * K;
    let stride = taps + GROUP_TAIL;
    let mut ptrs = [[x0; K]; K];
    for (r, row) in ptrs.iter_mut().enumerate() {
        for (k, p) in row.iter_mut().enumerate() {
            *p = x0.wrapping_offset(r as isize * x_row + k as isize * x_col);
        }
    }
    let blocks = depth / WIDE;
    let pixels = out.len().checked_div(depth).unwrap_or(0);
    if pixels == 0 {
        return;
    }
    if pixels < MAC16_RUN_MIN {
        // A short run (kws's 25x5 maps: three pixels): per pixel and block, as `pixel_wide`.
        for (px, out_px) in out.chunks_exact_mut(depth).enumerate() {
            let at = px * px_step;
            for (b, (outs, g)) in out_px[..blocks * WIDE].chunks_exact_mut(WIDE).zip(groups.chunks_exact(LANES * stride)).enumerate() {
                // SAFETY: every tap's pointer plus `at + 16b` reads channels 16b..16b + 16 <=
                // depth of pixel `px`'s window (the caller's guarantee); `g` holds four
                // groups of `stride` words.
                let sums = unsafe { D::mac16_taps(ptrs.as_flattened(), at + b * WIDE, g, stride) };
                outs.copy_from_slice(&D::requant16(&sums, &g[taps..], stride, rq.k, rq.lo, rq.hi));
            }
        }
    }
    // Block by block, each over the whole run (`Dot::mac16_run`: the block's weights and
    // constants regrouped once per run).
    for (b, g) in groups.chunks_exact(LANES * stride).take(if pixels < MAC16_RUN_MIN { 0 } else { blocks }).enumerate() {
        let Some(outs) = out.get_mut(b * WIDE..(pixels - 1) * depth + b * WIDE + WIDE) else { return };
        // SAFETY: every tap's pointer plus `16b + p * px_step` reads channels 16b..16b + 16
        // <= depth of pixel p's window (the caller's guarantee); `g` holds four groups of
        // `stride` words; `outs` holds (pixels - 1) * depth + 16 bytes.
        unsafe { D::mac16_run(ptrs.as_flattened(), [b * WIDE, px_step], g, stride, [rq.k, rq.lo as i32, rq.hi as i32], outs, depth, pixels) };
    }
    if depth % WIDE != 0 {
        let rest_groups = groups.get(blocks * LANES * stride..).unwrap_or(&[]);
        for (px, out_px) in out.chunks_exact_mut(depth).enumerate() {
            let xp = x0.wrapping_add(px * px_step + blocks * WIDE);
            // SAFETY: the caller's guarantee, for pixel `px`'s channels after the
            // sixteen-channel blocks.
            unsafe { pixel_any::<D>(xp, rest_groups, [K, K], [0..K, 0..K], [x_row, x_col], zp, rq, &mut out_px[blocks * WIDE..]) };
        }
    }
}

/// [`pixel_wide`] and [`run_wide`] for a depth of exactly 8 ([`Dot::mac8_taps`]): its own
/// function, so that the sixteen-channel path keeps its registers. `out` holds one pixel
/// (any window: taps outside the input read as the zero point) or a run of pixels whose
/// windows lie inside the input, pixel `p`'s at `x0 + p * px_step`; the tap pointers are set
/// once per call.
///
/// # Safety
/// As [`run_wide`] when `out` holds more than one pixel, else as [`pixel_wide`]; a depth of
/// 8.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
unsafe fn pixel_wide8<D: Dot, const K: usize>(
    x0: *const i8,
    groups: &[i32],
    [ky, kx]: [core::ops::Range<usize>; 2],
    [x_row, x_col]: [isize; 2],
    px_step: usize,
    zp: [i8; 4],
    rq: &Requant4,
    out: &mut [i8],
) {
    let taps = K * K;
    let stride = taps + GROUP_TAIL;
    let zp16 = [zp[0]; 4 * LANES];
    let mut ptrs = [[zp16.as_ptr(); K]; K];
    for (r, row) in ptrs.iter_mut().enumerate() {
        for (k, p) in row.iter_mut().enumerate() {
            if ky.contains(&r) && kx.contains(&k) {
                *p = x0.wrapping_offset(r as isize * x_row + k as isize * x_col);
            }
        }
    }
    let Some(g) = groups.get(..2 * stride) else { return };
    // SAFETY: a valid tap's pointer plus `px * px_step` reads channels 0..8 = depth of
    // output pixel `px`'s input pixel (the caller's guarantee), the others `zp16` (then
    // `out` is one pixel and `px` 0); `g` holds two groups of `stride` = taps + 9 words.
    unsafe { D::mac8_run(ptrs.as_flattened(), px_step, g, stride, rq.k, rq.lo, rq.hi, out) };
}

/// See [`super::depthwise_conv_2d_s8_mult1`]: depth multiplier 1, depth a multiple of
/// [`LANES`], `packed` from [`super::DepthwiseConv2dVariant::pack`] (per group of four
/// channels: the filter as one word per tap, the folded bias, the packed requantization).
/// Each output pixel is computed four channels at a time with the accumulators in
/// registers over the whole window, every window from the folded bias (taps outside the
/// input read as the zero point, so the model's bias is not needed). Not inlined: a model
/// calls it for many layers (one copy of the body, see docs/KERNELS.md).
#[inline(never)]
pub(crate) fn depthwise_mult1<D: Dot>(p: &DepthwiseConv2dParams<S8>, rows: RowRange, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    let [_, f_h, f_w, _] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let taps = f_h * f_w;
    // The bounds every unchecked read below relies on (`rows.fits`: the input slice holds
    // rows r0.. up to the last one the call reads).
    let batches = if rows == RowRange::whole(out_h) { batches } else { 1 };
    assert!(
        depth % LANES == 0
            && g.filter_shape[3] == depth
            && g.output_shape[3] == depth
            && rows.fits(g, input.len())
            && output.len() >= batches * (rows.oy1 - rows.oy0) * out_w * depth
            && packed.len() >= depth / LANES * (taps + GROUP_TAIL)
    );
    if depth == 0 || taps == 0 {
        return;
    }
    let rq = Requant4::new(&p.quant, &p.clamp);
    let zp = [(-p.quant.input_offset) as i8; 4];
    let x_step = [(g.dilation_height * in_w * depth) as isize, (g.dilation_width * depth) as isize];
    let is_3x3 = f_h == 3 && f_w == 3;
    if D::MAC16 && is_3x3 && (depth >= 4 * LANES || depth == 2 * LANES) {
        // SAFETY: the bounds asserted above.
        unsafe { mult1_wide::<D>(p, rows, input, packed, &rq, output) };
        return;
    }
    let mut pixels = output.chunks_exact_mut(depth);
    for Window { b, in_y0, ky, .. } in g.window_rows(rows) {
        let mut ox = 0;
        while ox < out_w {
            let Some(out_px) = pixels.next() else { return };
            let (in_x0, kx) = g.window_cols(ox);
            ox += 1;
            // Tap (0, 0) of the window, possibly outside the input (never read then);
            // the slice starts at input row r0.
            let x0 = ((b * in_h) as isize + in_y0 - rows.r0 as isize) * in_w as isize + in_x0;
            let x0 = input.as_ptr().wrapping_offset(x0 * depth as isize);
            // Tap (r, k) of channel group j reads input pixel (in_y0 + r * dil_h,
            // in_x0 + k * dil_w), channels 4j..4j + 4 <= depth, only when r is in `ky`
            // and k in `kx` (inside the input), a row from r0 on within the slice
            // (`rows.fits` above).
            if D::BYTE_LOADS && is_3x3 && ky.len() == 3 && kx.len() == 3 && ox < out_w && g.window_cols(ox).1.len() == 3 {
                // This pixel and the next one, both windows inside the input.
                let Some(next_px) = pixels.next() else { return };
                ox += 1;
                let x_next = (g.stride_width * depth) as isize;
                // SAFETY: as said above for both pixels (the next one's window starts
                // `stride_width` pixels further and is inside the input too).
                unsafe { pixel2_3x3::<D>(x0, x_next, packed, x_step, &rq, out_px, next_px) };
            } else if is_3x3 && ky.len() == 3 && kx.len() == 3 {
                // SAFETY: as said above; every tap is valid.
                unsafe { pixel_3x3::<D, false>(x0, packed, x_step, 0, zp, &rq, out_px) };
            } else if is_3x3 {
                // SAFETY: as said above; bit t of the mask is set only for valid taps.
                unsafe { pixel_3x3::<D, true>(x0, packed, x_step, taps_3x3(&ky, &kx), zp, &rq, out_px) };
            } else {
                // SAFETY: as said above; only taps in `ky` x `kx` are read.
                unsafe { pixel_any::<D>(x0, packed, [f_h, f_w], [ky.clone(), kx.clone()], x_step, zp, &rq, out_px) };
            }
        }
    }
}

/// Words of nibbles per channel group of [`depthwise_mult1_int4`]'s 3x3 filter: taps 0 and
/// 1, 2 and 3, 4 and 5, 6 and 7, then 8 alone.
pub(crate) const INT4_3X3_WORDS: usize = 5;

/// One output pixel of [`depthwise_mult1_int4`]: per channel group the nine taps in pairs
/// ([`Dot::mac4x2_int4`], sums of sixteen times the products from 0), the sums shifted right
/// by four (exact) and added to the folded bias, then requantized as [`pixel_3x3`] does.
/// `BORDER`: tap `t` is read only when bit `t` of `valid` is set, else the zero point (as
/// in [`pixel_3x3`]).
///
/// # Safety
/// As [`pixel_3x3`].
#[inline(never)]
unsafe fn pixel_3x3_int4<D: Dot, const BORDER: bool>(
    x0: *const i8,
    groups: &[i32],
    [x_row, x_col]: [isize; 2],
    valid: u32,
    zp: [i8; 4],
    rq: &Requant4,
    out_px: &mut [i8],
) {
    const K: usize = 3;
    for (j, (outs, g)) in out_px.chunks_exact_mut(LANES).zip(groups.chunks_exact(INT4_3X3_WORDS + GROUP_TAIL)).enumerate() {
        let xg = x0.wrapping_add(j * LANES);
        let (init, rqw) = tail(g);
        let tap = |t: usize| -> [i8; 4] {
            if t < K * K && (!BORDER || valid & (1 << t) != 0) {
                let at = (t / K) as isize * x_row + (t % K) as isize * x_col;
                // SAFETY: a valid tap of group j, in bounds by the caller's guarantee;
                // `[i8; 4]` has alignment 1 and every bit pattern is valid.
                unsafe { xg.wrapping_offset(at).cast::<[i8; 4]>().read() }
            } else {
                zp
            }
        };
        let Some(&[w0, w1, w2, w3, w4]) = g.first_chunk::<INT4_3X3_WORDS>() else { return };
        // Unrolled, so that every tap's offset and validity bit are constants.
        let mut s = D::mac4x2_int4(tap(0), tap(1), w0 as u32, [0; LANES]);
        s = D::mac4x2_int4(tap(2), tap(3), w1 as u32, s);
        s = D::mac4x2_int4(tap(4), tap(5), w2 as u32, s);
        s = D::mac4x2_int4(tap(6), tap(7), w3 as u32, s);
        s = D::mac4x2_int4(tap(8), zp, w4 as u32, s);
        let acc: [i32; LANES] = core::array::from_fn(|c| init[c].wrapping_add(s[c] >> 4));
        store(outs, rq.apply::<D>(acc, rqw));
    }
}

/// [`depthwise_mult1`] for int4 weights (`crate::kernels::int4::DepthwiseInt4::Mult1`): a
/// 3x3 filter, depth multiplier 1, whole groups of four channels; per group
/// [`INT4_3X3_WORDS`] words of nibbles ([`Dot::mac4x2_int4`]'s order) then `Mult1`'s tail
/// (folded biases, packed requantization). Not inlined, as [`depthwise_mult1`].
#[inline(never)]
pub(crate) fn depthwise_mult1_int4<D: Dot>(p: &DepthwiseConv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    const K: usize = 3;
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    // The bounds every unchecked read below relies on.
    assert!(
        depth % LANES == 0
            && g.filter_shape == [1, K, K, depth]
            && g.output_shape[3] == depth
            && input.len() >= batches * in_h * in_w * depth
            && output.len() >= batches * out_h * out_w * depth
            && packed.len() >= depth / LANES * (INT4_3X3_WORDS + GROUP_TAIL)
    );
    let rq = Requant4::new(&p.quant, &p.clamp);
    let zp = [(-p.quant.input_offset) as i8; 4];
    let x_step = [(g.dilation_height * in_w * depth) as isize, (g.dilation_width * depth) as isize];
    let mut pixels = output.chunks_exact_mut(depth.max(1));
    for win in g.windows() {
        let Some(out_px) = pixels.next() else { return };
        // Tap (0, 0) of the window, possibly outside the input (never read then).
        let x0 = ((win.b * in_h) as isize + win.in_y0) * in_w as isize + win.in_x0;
        let x0 = input.as_ptr().wrapping_offset(x0 * depth as isize);
        // Tap (r, k) of group j reads input pixel (in_y0 + r * dil_h, in_x0 + k * dil_w),
        // channels 4j..4j + 4 <= depth, only when bit 3r + k of the mask is set (inside the
        // input), within `input` by the assertion above.
        let valid = taps_3x3(&win.ky, &win.kx);
        if valid == 0o777 {
            // SAFETY: as said above; every tap is valid.
            unsafe { pixel_3x3_int4::<D, false>(x0, packed, x_step, valid, zp, &rq, out_px) };
        } else {
            // SAFETY: as said above.
            unsafe { pixel_3x3_int4::<D, true>(x0, packed, x_step, valid, zp, &rq, out_px) };
        }
    }
}

/// The taps of a 3x3 window inside the input as a mask: bit `3r + k` for tap `(r, k)`.
#[inline(always)]
fn taps_3x3(ky: &core::ops::Range<usize>, kx: &core::ops::Range<usize>) -> u32 {
    let rows = ky.clone().fold(0u32, |m, r| m | 7 << (3 * r));
    rows & kx.clone().fold(0u32, |m, k| m | 0o111 << k)
}

/// [`depthwise_mult1`]'s loop nest for an implementation with vector micro-kernels
/// (`D::MAC16`, Helium) and a 3x3 window on 8 or at least 16 channels: per output row, the
/// border pixels one by one ([`pixel_wide`], [`pixel_wide8`]) and the run of pixels whose
/// windows lie inside the input in one call ([`run_wide`], [`pixel_wide8`]), so the tap
/// pointers are set once per run instead of once per pixel. Its own function so that the
/// other implementations' loop nest is unchanged.
///
/// # Safety
/// [`depthwise_mult1`]'s assertion holds for `p`, `rows`, `input`, `packed` and `output`,
/// and the filter is 3x3 of a depth of 8 or at least 16.
#[inline(always)]
unsafe fn mult1_wide<D: Dot>(p: &DepthwiseConv2dParams<S8>, rows: RowRange, input: &[i8], packed: &[i32], rq: &Requant4, output: &mut [i8]) {
    const K: usize = 3;
    let g = &p.geometry;
    let [_, in_h, in_w, depth] = g.input_shape;
    let out_w = g.output_shape[2];
    let zp = [(-p.quant.input_offset) as i8; 4];
    let x_step = [(g.dilation_height * in_w * depth) as isize, (g.dilation_width * depth) as isize];
    // The output columns whose windows lie across the input: `ox_in.0..ox_in.1` (the same
    // for every row; empty when none is).
    let full_x = |ox: usize| g.window_cols(ox).1.len() == K;
    let lo = (0..out_w).find(|&ox| full_x(ox)).unwrap_or(out_w);
    let hi = (lo..out_w).find(|&ox| !full_x(ox)).unwrap_or(out_w);
    let px_step = g.stride_width * depth;
    // The zero point for border taps of up to 256 channels (`pixel_wide`).
    let zp_wide = [zp[0]; 256];
    let mut pixel = 0usize;
    let batches = if rows == RowRange::whole(g.output_shape[1]) { g.input_shape[0] } else { 1 };
    for b in 0..batches {
        for oy in rows.oy0..rows.oy1 {
            let Window { in_y0, ky, .. } = g.window_row(b, oy);
            let mut ox = 0;
            while ox < out_w {
                let (in_x0, kx) = g.window_cols(ox);
                // The run of interior pixels (their rows inside the input too) in one call,
                // or one pixel.
                let n = if ky.len() == K && ox == lo { hi - lo } else { 1 };
                let Some(out_px) = output.get_mut(pixel * depth..(pixel + n) * depth) else { return };
                pixel += n;
                ox += n;
                // Tap (0, 0) of the window, possibly outside the input (never read then);
                // the slice starts at input row r0.
                let x0 = ((b * in_h) as isize + in_y0 - rows.r0 as isize) * in_w as isize + in_x0;
                let x0 = input.as_ptr().wrapping_offset(x0 * depth as isize);
                // Tap (r, k) of channel group j reads input pixel (in_y0 + r * dil_h,
                // in_x0 + k * dil_w), channels 4j..4j + 4 <= depth, only when r is in `ky`
                // and k in `kx` (inside the input), a row from r0 on within the slice (the
                // caller's assertion, `rows.fits`). In a run of n > 1 pixels every window
                // lies inside the input (columns lo..hi, `ky` whole), pixel p's at
                // x0 + p * px_step.
                if depth == 2 * LANES {
                    // SAFETY: as said above; only taps in `ky` x `kx` are read.
                    unsafe { pixel_wide8::<D, K>(x0, packed, [ky.clone(), kx], x_step, px_step, zp, rq, out_px) };
                } else if n > 1 {
                    // SAFETY: as said above; every window of the run is inside the input.
                    unsafe { run_wide::<D, K>(x0, packed, x_step, [depth, px_step], zp, rq, out_px) };
                } else {
                    // SAFETY: as said above; only taps in `ky` x `kx` are read.
                    unsafe { pixel_wide::<D, K>(x0, packed, [ky.clone(), kx], x_step, zp, &zp_wide, rq, out_px) };
                }
            }
        }
    }
}

/// Taps per word of [`depthwise_one_channel`] (one input channel: a row's taps are
/// consecutive bytes).
pub(crate) const TAP_GROUP: usize = 4;

/// Bytes `c..c + 4` of `row` (at least 4 bytes long) as a little-endian word, the zero
/// point (`zp4` in every byte) where they are outside the row: one load and two shifts at
/// the edges.
#[inline(always)]
fn edge_word(row: &[i8], c: isize, zp4: u32) -> u32 {
    let n = row.len() as isize;
    let word = |at: usize| row.get(at..at + 4).map_or(zp4, |b| u32::from_le_bytes([b[0] as u8, b[1] as u8, b[2] as u8, b[3] as u8]));
    if c >= 0 && c + 4 <= n {
        word(c as usize)
    } else if c + 4 <= 0 || c >= n {
        zp4
    } else if c < 0 {
        let k = (-c * 8) as u32;
        (word(0) << k) | (zp4 >> (32 - k))
    } else {
        let k = ((c + 4 - n) * 8) as u32;
        (word((n as usize).saturating_sub(4)) >> k) | (zp4 << (32 - k))
    }
}

/// Widened words of one window of [`depthwise_one_channel`] gathered at a time (a stack
/// buffer of 256 bytes): a window of at most this many words (`f_h * ceil(f_w / 4)`) is
/// gathered once per output pixel, a larger one a few rows at a time.
const WINDOW_WORDS: usize = 32;

/// See [`super::depthwise_conv_2d_s8_one_channel`]: one input channel, depth multiplier a
/// multiple of [`LANES`], dilation 1 across. Four taps of a filter row are one word of the
/// input row. Per output pixel the window's words are gathered once, widened
/// ([`crate::kernels::dot::Dot::widen4`]) into a stack buffer, and read by every channel
/// group against its packed weight pairs ([`crate::kernels::dot::Dot::mac4x4_row`], two
/// SXTB16 halves of each word per SMLAD); a window of more than [`WINDOW_WORDS`] words is
/// gathered a few rows at a time per group. Every window accumulates from the folded bias
/// over all its taps, the ones outside the input read as the zero point (which adds
/// `w * 0`): a row outside is the zero-point word, and a word that crosses the left or
/// right edge is assembled from the row's bytes and the zero point. Not inlined, as
/// [`depthwise_mult1`].
#[inline(never)]
pub(crate) fn depthwise_one_channel<D: Dot>(p: &DepthwiseConv2dParams<S8>, rows: RowRange, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, _] = g.input_shape;
    let [_, f_h, f_w, depth] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let per_row = f_w.div_ceil(TAP_GROUP);
    let span = per_row * TAP_GROUP;
    let group_words = f_h * per_row * LANES + GROUP_TAIL;
    // The bounds every unchecked read below relies on.
    // `rows.fits`: the input slice holds rows r0.. up to the last one the call reads.
    let batches = if rows == RowRange::whole(out_h) { batches } else { 1 };
    assert!(
        g.input_shape[3] == 1
            && in_w >= TAP_GROUP
            && depth % LANES == 0
            && g.output_shape[3] == depth
            && rows.fits(g, input.len())
            && output.len() >= batches * (rows.oy1 - rows.oy0) * out_w * depth
            && packed.len() >= depth / LANES * group_words
    );
    if depth == 0 || f_h * f_w == 0 {
        return;
    }
    let rq = Requant4::new(&p.quant, &p.clamp);
    let zp = (-p.quant.input_offset) as i8;
    let zp4 = u32::from_le_bytes([zp as u8; 4]);
    // Filter rows per gathered part of a window: all of them when they fit the buffer.
    let part_rows = (WINDOW_WORDS / per_row).clamp(1, f_h);
    let whole = part_rows == f_h;
    let mut xw = [[0u32; 2]; WINDOW_WORDS];
    let mut pixels = output.chunks_exact_mut(depth);
    for Window { b, in_y0, ky, .. } in g.window_rows(rows) {
        // Batch b's image, from its row r0 (`rows.r0 == 0` unless one batch).
        let image = &input[b * in_h * in_w..];
        let row_at = |r: usize| (in_y0 + (r * g.dilation_height) as isize - rows.r0 as isize) * in_w as isize;
        for ox in 0..out_w {
            let Some(out_px) = pixels.next() else { return };
            let [_, in_x0] = g.origin(0, ox);
            // Whether the window's words (`span` bytes from in_x0) are inside the row.
            let inside = in_x0 >= 0 && in_x0 as usize + span <= in_w;
            // Widens the words of filter rows r0..r1 into `xw` (row r's word t at
            // (r - r0) * per_row + t).
            let gather = |xw: &mut [[u32; 2]], r0: usize, r1: usize| {
                for (r, dst) in (r0..r1).zip(xw.chunks_exact_mut(per_row)) {
                    let x0 = row_at(r) + in_x0;
                    for (t, d) in dst.iter_mut().enumerate() {
                        let xv = if !ky.contains(&r) {
                            zp4
                        } else if inside {
                            // SAFETY: row in_y0 + r * dil_h is inside the image (`ky`),
                            // at or after row r0 and within the slice (`rows.fits`), and
                            // bytes in_x0 + 4t..+4 inside the row (`inside`), so inside
                            // `image`; `[u8; 4]` has alignment 1.
                            u32::from_le_bytes(unsafe { image.as_ptr().wrapping_offset(x0 + (t * TAP_GROUP) as isize).cast::<[u8; 4]>().read() })
                        } else {
                            let line = &image[(x0 - in_x0) as usize..][..in_w];
                            edge_word(line, in_x0 + (t * TAP_GROUP) as isize, zp4)
                        };
                        *d = D::widen4(xv);
                    }
                }
            };
            if D::ONE_CHANNEL_PAIRS && whole {
                // Two channel groups per pass over the window, gathered once
                // ([`Dot::mac8x4_row`]); an odd last group alone.
                gather(&mut xw, 0, f_h);
                let n = f_h * per_row;
                let x = &xw[..n];
                let pairs = out_px.chunks_exact_mut(2 * LANES).zip(packed.chunks_exact(2 * group_words));
                let mut done = 0;
                for (outs, gw2) in pairs {
                    let (ga, gb) = gw2.split_at(group_words);
                    let ((ia, rqa), (ib, rqb)) = (tail(ga), tail(gb));
                    let [a, b] = D::mac8x4_row(x, &ga[..n * LANES], &gb[..n * LANES], [ia, ib]);
                    let (oa, ob) = outs.split_at_mut(LANES);
                    store(oa, rq.apply::<D>(a, rqa));
                    store(ob, rq.apply::<D>(b, rqb));
                    done += 2;
                }
                let rest = out_px.chunks_exact_mut(LANES).zip(packed.chunks_exact(group_words)).skip(done);
                for (outs, gw) in rest {
                    let (acc, rqw) = tail(gw);
                    store(outs, rq.apply::<D>(D::mac4x4_row(x, &gw[..n * LANES], acc), rqw));
                }
                continue;
            }
            for (j, (outs, gw)) in out_px.chunks_exact_mut(LANES).zip(packed.chunks_exact(group_words)).enumerate() {
                let (mut acc, rqw) = tail(gw);
                let mut r0 = 0;
                while r0 < f_h {
                    let r1 = (r0 + part_rows).min(f_h);
                    // A whole window is gathered once, for the first group.
                    if !whole || j == 0 {
                        gather(&mut xw, r0, r1);
                    }
                    let n = (r1 - r0) * per_row;
                    acc = D::mac4x4_row(&xw[..n], &gw[r0 * per_row * LANES..][..n * LANES], acc);
                    r0 = r1;
                }
                store(outs, rq.apply::<D>(acc, rqw));
            }
        }
    }
}
