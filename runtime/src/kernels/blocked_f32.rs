//! The float32 CONV_2D, FULLY_CONNECTED and (float16 weights) DEPTHWISE_CONV_2D variants for Arm targets with a scalar FPU (the
//! Cortex-M4F / M7 single-precision unit): [`LANES`] output channels (units) per pass, so
//! that each input value is loaded once for all of them and the loop overhead is shared,
//! with the weights packed at compile time so that one pointer walks them.
//!
//! Each output still accumulates alone and in TFLite's order: `total += x * w` over the
//! taps `(ky, kx, ic)` (FULLY_CONNECTED: over the depth), two roundings per tap (Rust does
//! not contract `a * b + c`), then `total + bias` and the clamp. The lanes only interleave
//! independent sums, so the results are [`F32`]'s reference kernels' bits
//! (`conv_2d_f32`, `fully_connected_f32`), which the suites check bit for bit.
//!
//! Packed layout: per block of [`LANES`] output channels, for every tap `t` in the
//! reference's order, the block's [`LANES`] weights: `packed[(block * taps + t) * LANES +
//! lane] = filter[(block * LANES + lane) * taps + t]`; the lanes past the last channel hold
//! zeros (computed, never stored). The model's bias is read as it is.
//!
//! The weights are [`Weight`]s: `f32`, or float16 kept in flash (`u16` binary16 bits,
//! `keep_f16_weights`), widened exactly per tap ([`crate::math::f16_to_f32`]), so the float16
//! form gives the float32 form's bits on the widened weights.
//!
//! CONV_2D with float16 weights and at most [`CONV_WIDE_TAPS`] taps per window widens each
//! block's weights once per call into a stack buffer (1,536 bytes at most) and computes
//! every output pixel of the block from it, instead of widening per tap and pixel.
//!
//! DEPTHWISE_CONV_2D with float16 weights ([`depthwise_conv_2d`], depth multiplier 1, at
//! most [`DEPTHWISE_MAX_TAPS`] taps): the model's `[1, H, W, C]` filter as it is, no packing.
//! Per block of [`DEPTHWISE_LANES`] (8) channels the block's weights are widened once into a
//! stack buffer (at most 800 bytes), then every output pixel of those channels is computed from it: one
//! widening per weight per call instead of one per weight per output pixel, which is what
//! the reference loop nest over [`crate::kernels::numerics::F32H`] pays. Each output
//! accumulates its taps `(ky, kx)` from zero as the reference does, then `+ bias` and the
//! clamp: the same bits.

use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::{Numerics, F32};
use crate::kernels::window::Window;

/// Output channels computed per pass: four accumulators, four weights and the input in
/// FPU registers.
pub const LANES: usize = 4;

/// A weight as the blocked kernels read it: `f32`, or binary16 bits widened exactly (the
/// numerics' [`FloatWeight`](crate::kernels::numerics::FloatWeight)).
pub use crate::kernels::numerics::FloatWeight as Weight;

/// The packed table's length for `channels` outputs of `taps` weights each.
pub const fn packed_len(channels: usize, taps: usize) -> usize {
    channels.div_ceil(LANES) * LANES * taps
}

/// Packs `filter` (`channels` rows of `taps` weights) into blocks of [`LANES`] rows,
/// tap-major within a block.
#[cfg(feature = "prepare")]
pub fn pack<W: Weight>(channels: usize, taps: usize, filter: &[W], packed: &mut [W]) {
    debug_assert_eq!(packed.len(), packed_len(channels, taps));
    for (block, chunk) in packed.chunks_exact_mut((LANES * taps).max(1)).enumerate() {
        for t in 0..taps {
            for lane in 0..LANES {
                let c = block * LANES + lane;
                chunk[t * LANES + lane] = if c < channels { filter[c * taps + t] } else { W::default() };
            }
        }
    }
}

/// `acc[lane] += x * w[lane]` for one input value and one block's weights.
#[inline(always)]
fn mac4<W: Weight>(acc: &mut [f32; LANES], x: f32, w: &[W]) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a = F32::mac(*a, x, w.widen(), 0, &());
    }
}

/// Stores a block's outputs: `total + bias`, clamped, for the lanes that are channels.
#[inline(always)]
fn store(acc: &[f32; LANES], bias: Option<&[f32]>, c0: usize, clamp: &crate::kernels::numerics::Clamp<f32>, out: &mut [f32]) {
    for (lane, (o, &a)) in out.iter_mut().zip(acc).enumerate() {
        let v = match bias {
            Some(b) => F32::add_bias(a, b[c0 + lane]),
            None => a,
        };
        *o = F32::requantize(v, &(), c0 + lane, clamp);
    }
}

/// The largest window (`f_h * f_w * f_d` taps) whose widened block [`conv_2d`] keeps on the
/// stack when the weights are float16: `CONV_WIDE_TAPS * LANES` floats (1,536 bytes).
pub const CONV_WIDE_TAPS: usize = 96;

/// Ungrouped float32 CONV_2D from [`pack`]'s table (`taps = f_h * f_w * f_d`). With
/// float16 weights and at most [`CONV_WIDE_TAPS`] taps, each block's weights are widened once
/// into a stack buffer and every output pixel of the block is computed from it (blocks
/// outermost); otherwise (and for float32 weights) pixels are outermost, each block's
/// weights read as they are. Each output is computed the same way in both orders.
#[inline(never)]
pub fn conv_2d<W: Weight>(p: &Conv2dParams<F32>, input: &[f32], packed: &[W], bias: Option<&[f32]>, output: &mut [f32]) {
    let g = &p.geometry;
    let [batches, _, _, in_d] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    debug_assert_eq!(f_d, in_d);
    let taps = f_h * f_w * f_d;
    debug_assert_eq!(packed.len(), packed_len(out_d, taps));
    let blocks = packed.chunks_exact((LANES * taps).max(1));
    if W::WIDENS && taps <= CONV_WIDE_TAPS {
        let mut wide = [0.0f32; CONV_WIDE_TAPS * LANES];
        let wide = &mut wide[..LANES * taps];
        for (block, ws_block) in blocks.enumerate() {
            for (d, w) in wide.iter_mut().zip(ws_block) {
                *d = w.widen();
            }
            let c0 = block * LANES;
            let n = LANES.min(out_d - c0);
            for b in 0..batches {
                for oy in 0..out_h {
                    let row = g.window_row(b, oy);
                    for ox in 0..out_w {
                        let win = row.at(g, ox);
                        let mut acc = [F32::ACC_ZERO; LANES];
                        conv_block_pixel(p, input, wide, &win, &mut acc);
                        let o = win.output_pixel(g) * out_d + c0;
                        store(&acc, bias, c0, &p.clamp, &mut output[o..o + n]);
                    }
                }
            }
        }
        return;
    }
    for b in 0..batches {
        for oy in 0..out_h {
            // The window's bounds once per row and pixel, not once per block and tap row.
            let row = g.window_row(b, oy);
            for ox in 0..out_w {
                let win = row.at(g, ox);
                let out_pixel = &mut output[win.output_pixel(g) * out_d..][..out_d];
                for (block, ws_block) in packed.chunks_exact((LANES * taps).max(1)).enumerate() {
                    let c0 = block * LANES;
                    let mut acc = [F32::ACC_ZERO; LANES];
                    conv_block_pixel(p, input, ws_block, &win, &mut acc);
                    let n = LANES.min(out_d - c0);
                    store(&acc, bias, c0, &p.clamp, &mut out_pixel[c0..c0 + n]);
                }
            }
        }
    }
}

/// One block of [`LANES`] output channels at one output pixel (`window`): each lane's taps
/// `(ky, kx, ic)` inside the input accumulated into `acc` (zeros) in that order (no bias,
/// no clamp).
#[inline(always)]
fn conv_block_pixel<W: Weight>(p: &Conv2dParams<F32>, input: &[f32], ws_block: &[W], window: &Window, acc: &mut [f32; LANES]) {
    let g = &p.geometry;
    let in_d = g.input_shape[3];
    let [_, _, f_w, f_d] = g.filter_shape;
    for ky in window.ky.clone() {
        for kx in window.kx.clone() {
            let xs = &input[window.input_pixel(g, ky, kx) * in_d..][..f_d];
            let ws = &ws_block[(ky * f_w + kx) * f_d * LANES..][..f_d * LANES];
            for (&x, w) in xs.iter().zip(ws.chunks_exact(LANES)) {
                mac4(acc, x, w);
            }
        }
    }
}

/// float32 FULLY_CONNECTED from [`pack`]'s table (`channels = units`, `taps = depth`).
#[inline(never)]
pub fn fully_connected<W: Weight>(p: &FullyConnectedParams<F32>, input: &[f32], packed: &[W], bias: Option<&[f32]>, output: &mut [f32]) {
    let g = &p.geometry;
    let (depth, units) = (g.input_depth, g.output_depth);
    debug_assert_eq!(packed.len(), packed_len(units, depth));
    for b in 0..g.batches {
        let xs = &input[b * depth..][..depth];
        let out = &mut output[b * units..][..units];
        for (block, ws) in packed.chunks_exact((LANES * depth).max(1)).enumerate() {
            let c0 = block * LANES;
            let mut acc = [F32::ACC_ZERO; LANES];
            for (&x, w) in xs.iter().zip(ws.chunks_exact(LANES)) {
                mac4(&mut acc, x, w);
            }
            let n = LANES.min(units - c0);
            store(&acc, bias, c0, &p.clamp, &mut out[c0..c0 + n]);
        }
    }
}

/// The largest depthwise window [`depthwise_conv_2d`] takes (5x5): its widened block is
/// `DEPTHWISE_MAX_TAPS * DEPTHWISE_LANES` floats on the stack (800 bytes).
pub const DEPTHWISE_MAX_TAPS: usize = 25;

/// Channels per pass of [`depthwise_conv_2d`]: eight accumulators, eight inputs and eight
/// weights fill 24 of the 32 single-precision FPU registers, and the address arithmetic and
/// bounds checks of a tap are shared by eight multiply-adds.
pub const DEPTHWISE_LANES: usize = 8;

/// Whether [`depthwise_conv_2d`] runs this depthwise convolution: depth multiplier 1, a
/// window of 1..=[`DEPTHWISE_MAX_TAPS`] taps, at least one channel.
pub fn depthwise_applies(p: &DepthwiseConv2dParams<F32>) -> bool {
    let [_, f_h, f_w, out_d] = p.geometry.filter_shape;
    out_d > 0 && out_d == p.geometry.input_shape[3] && (1..=DEPTHWISE_MAX_TAPS).contains(&(f_h * f_w))
}

/// float32 DEPTHWISE_CONV_2D with depth multiplier 1 ([`depthwise_applies`]) from the
/// model's `[1, H, W, C]` `filter`, each block of [`DEPTHWISE_LANES`] channels' weights
/// widened once.
#[inline(never)]
pub fn depthwise_conv_2d<W: Weight>(p: &DepthwiseConv2dParams<F32>, input: &[f32], filter: &[W], bias: Option<&[f32]>, output: &mut [f32]) {
    const L: usize = DEPTHWISE_LANES;
    let g = &p.geometry;
    let [_, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, out_d] = g.filter_shape;
    debug_assert!(depthwise_applies(p));
    let taps = (f_h * f_w).min(DEPTHWISE_MAX_TAPS);
    let mut wide = [0.0f32; DEPTHWISE_MAX_TAPS * L];
    for c0 in (0..out_d).step_by(L) {
        let n = L.min(out_d - c0);
        for (t, w) in wide.chunks_exact_mut(L).take(taps).enumerate() {
            for (j, w) in w.iter_mut().enumerate() {
                *w = if j < n { filter[t * out_d + c0 + j].widen() } else { 0.0 };
            }
        }
        let wide = &wide[..taps * L];
        for win in g.windows() {
            let mut acc = [F32::ACC_ZERO; L];
            for ky in win.ky.clone() {
                let row = &input[(win.b * in_h + win.iy(g, ky)) * in_w * in_d + c0..][..(in_w - 1) * in_d + n];
                let w_row = &wide[ky * f_w * L..][..f_w * L];
                for kx in win.kx.clone() {
                    let ix = win.ix(g, kx);
                    let ws = &w_row[kx * L..][..L];
                    if let Some(xs) = row.get(ix * in_d..).and_then(|r| r.first_chunk::<L>()) {
                        for ((a, &x), &w) in acc.iter_mut().zip(xs).zip(ws) {
                            *a = F32::mac(*a, x, w, 0, &());
                        }
                    } else {
                        // The last channels of the last column: fewer than L.
                        let xs = &row[ix * in_d..][..n];
                        for ((a, &x), &w) in acc.iter_mut().zip(xs).zip(ws) {
                            *a = F32::mac(*a, x, w, 0, &());
                        }
                    }
                }
            }
            let out = &mut output[win.output_pixel(g) * out_d + c0..][..n];
            for (j, (o, &a)) in out.iter_mut().zip(&acc).enumerate() {
                let v = match bias {
                    Some(bs) => F32::add_bias(a, bs[c0 + j]),
                    None => a,
                };
                *o = F32::requantize(v, &(), c0 + j, &p.clamp);
            }
        }
    }
}
