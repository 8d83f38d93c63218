//! NEON CONV_2D, the `Wide` variant (int8 and legacy uint8): the compile-time packed int16
//! weights of `crate::kernels::conv_2d::wide` (its module doc has the layout and the
//! exactness argument), four output pixels times eight output channels per block.
//!
//! Each pixel's window is gathered and widened to int16 once (`sxtl` / `uxtl`, taps outside
//! the image set to the zero point), then read by every block of channels. Per pair of taps
//! the block loads its eight packed words (channel `j`'s two int16 weights each, two
//! registers), broadcasts each pixel's tap pair (`ld1r` of one word: `x0, x1, x0, x1, ...`)
//! and multiplies into int32 (`smlal`, `smlal2`: |x * w| <= 255^2, exact), so each
//! accumulator lane holds one channel's sum over one tap of every pair; `addp` adds the two
//! halves of each channel at the end. The accumulation wraps in int32 like the reference's.
//! Eight channels are requantized together ([`super::Requant8`]).

use super::{Neon, Requant8};
use crate::kernels::conv_2d::wide::{blocks, pairs, wide_entry, WideAct, WideMicro, WidenRun, BLOCK, COL, SLACK};
use crate::kernels::conv_2d::{Conv2dParams, ConvGeometry};
use crate::kernels::numerics::{S8, U8};
use core::arch::aarch64::*;

/// Output pixels per block.
const PIXELS: usize = 4;

/// `Conv2dVariant::Wide`, int8.
pub(crate) fn conv_2d_s8_wide(_: Neon, p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let rq = Requant8::new(&p.quant, &p.clamp);
    let zp = (-p.quant.input_offset) as i8;
    // SAFETY: NEON is part of the build's target (the token exists).
    unsafe { entry(&NeonWide { rq }, &p.geometry, zp, input, packed, output) }
}

/// `Conv2dVariant::Wide`, legacy uint8.
pub(crate) fn conv_2d_u8_wide(_: Neon, p: &Conv2dParams<U8>, input: &[u8], packed: &[i32], output: &mut [u8]) {
    let rq = Requant8::new_u8(&p.quant, &p.clamp);
    let zp = (-p.quant.input_offset) as u8;
    // SAFETY: NEON is part of the build's target (the token exists).
    unsafe { entry(&NeonWide { rq }, &p.geometry, zp, input, packed, output) }
}

wide_entry! {
    /// `Wide` with NEON (part of the build's target: no `#[target_feature]`).
    fn entry<'r>(NeonWide<'r>) sizes [256, 2048] else PIXELS * COL + SLACK
}

/// The NEON micro-kernel of the one `Wide` driver: the requantization.
struct NeonWide<'a> {
    rq: Requant8<'a>,
}

impl<A: Widen> WideMicro<A> for NeonWide<'_> {
    type Widen = NeonWiden;
    const PIXELS: usize = PIXELS;

    #[inline(always)]
    fn widener(&self) -> NeonWiden {
        NeonWiden
    }

    #[inline(always)]
    unsafe fn pass(&self, g: &ConvGeometry, cols: &[&[i16]], packed: &[i32], output: &mut [A]) {
        let rq = &self.rq;
        match *cols {
            [c0, c1, c2, c3] => pixels::<4, A>(g, &[c0, c1, c2, c3], packed, output, 0, rq),
            [c0, c1, c2] => pixels::<3, A>(g, &[c0, c1, c2], packed, output, 0, rq),
            [c0, c1] => pixels::<2, A>(g, &[c0, c1], packed, output, 0, rq),
            [c0, ..] => pixels::<1, A>(g, &[c0], packed, output, 0, rq),
            [] => {}
        }
    }
}

/// The activations' widening (sign extension for int8, zero extension for uint8) and
/// requantized store.
pub(crate) trait Widen: WideAct {
    /// Widens `src` into `dst` (as long): eight at a time, the last `len % 8` scalar.
    fn copy_widen(src: &[Self], dst: &mut [i16]);

    /// `outs[j]` = lane `j` of `acc` requantized as output channel `c0 + j`.
    fn store(rq: &Requant8, c0: usize, acc: [int32x4_t; 2], outs: &mut [Self]);
}

impl Widen for i8 {
    #[inline(always)]
    fn copy_widen(src: &[i8], dst: &mut [i16]) {
        let n = src.len().min(dst.len());
        let mut i = 0;
        while i + 8 <= n {
            // SAFETY: NEON; reads 8 int8 of `src`, writes 8 int16 of `dst`, both in bounds.
            unsafe { vst1q_s16(dst[i..][..8].as_mut_ptr(), vmovl_s8(vld1_s8(src[i..][..8].as_ptr()))) };
            i += 8;
        }
        for (d, &s) in dst[i..n].iter_mut().zip(&src[i..n]) {
            *d = s as i16;
        }
    }

    #[inline(always)]
    fn store(rq: &Requant8, c0: usize, acc: [int32x4_t; 2], outs: &mut [i8]) {
        rq.store(c0, acc, outs)
    }
}

impl Widen for u8 {
    #[inline(always)]
    fn copy_widen(src: &[u8], dst: &mut [i16]) {
        let n = src.len().min(dst.len());
        let mut i = 0;
        while i + 8 <= n {
            // SAFETY: NEON; reads 8 uint8 of `src`, writes 8 int16 of `dst` (values <= 255),
            // both in bounds.
            unsafe { vst1q_s16(dst[i..][..8].as_mut_ptr(), vreinterpretq_s16_u16(vmovl_u8(vld1_u8(src[i..][..8].as_ptr())))) };
            i += 8;
        }
        for (d, &s) in dst[i..n].iter_mut().zip(&src[i..n]) {
            *d = s as i16;
        }
    }

    #[inline(always)]
    fn store(rq: &Requant8, c0: usize, acc: [int32x4_t; 2], outs: &mut [u8]) {
        rq.store_u8(c0, acc, outs)
    }
}

/// `P` pixels' accumulators for block `blk` of channels: lanes `j` of the result are
/// `biases[8 * blk + j] + sum_t x[p][t] . w[blk][t][j]`.
#[inline(always)]
fn tile<const P: usize>(cols: &[&[i16]; P], biases: &[i32], rows: &[i32], n_pairs: usize, blk: usize) -> [[int32x4_t; 2]; P] {
    let stride = BLOCK * n_pairs;
    let w = &rows[blk * stride..][..stride];
    let bias = &biases[blk * BLOCK..][..BLOCK];
    assert!(cols.iter().all(|c| c.len() >= 2 * n_pairs));
    let x: [*const i32; P] = core::array::from_fn(|p| cols[p].as_ptr().cast::<i32>());
    let w = w.as_ptr().cast::<i16>();
    // SAFETY: NEON (the module is compiled only then); the weight loads read the 16 int16
    // (8 words) of pair `t < n_pairs` inside `w` (`8 * t + 8 <= stride`), the broadcasts
    // read tap pair `t` of each column (asserted length; an unaligned read of one word of
    // an int16 slice), the bias loads read the 8 i32 of `bias`.
    unsafe {
        // Per pixel: lanes (c0 t0, c0 t1, c1 t0, c1 t1), (c2, c3), (c4, c5), (c6, c7).
        let mut acc = [[vdupq_n_s32(0); 4]; P];
        for t in 0..n_pairs {
            let w0 = vld1q_s16(w.add(16 * t));
            let w1 = vld1q_s16(w.add(16 * t + 8));
            for p in 0..P {
                let xv = vreinterpretq_s16_s32(vdupq_n_s32(x[p].add(t).read_unaligned()));
                let xl = vget_low_s16(xv);
                let a = &mut acc[p];
                a[0] = vmlal_s16(a[0], vget_low_s16(w0), xl);
                a[1] = vmlal_high_s16(a[1], w0, xv);
                a[2] = vmlal_s16(a[2], vget_low_s16(w1), xl);
                a[3] = vmlal_high_s16(a[3], w1, xv);
            }
        }
        let (b0, b1) = (vld1q_s32(bias.as_ptr()), vld1q_s32(bias.as_ptr().add(4)));
        core::array::from_fn(|p| {
            let a = &acc[p];
            [vaddq_s32(vpaddq_s32(a[0], a[1]), b0), vaddq_s32(vpaddq_s32(a[2], a[3]), b1)]
        })
    }
}

/// `P` pixels starting at pixel `px0`: every block of channels.
#[inline(always)]
fn pixels<const P: usize, A: Widen>(g: &ConvGeometry, cols: &[&[i16]; P], packed: &[i32], output: &mut [A], px0: usize, rq: &Requant8) {
    let out_d = g.filter_shape[0];
    let n_pairs = pairs(g);
    let n_blocks = blocks(g);
    let (biases, rows) = packed.split_at(BLOCK * n_blocks);
    for blk in 0..n_blocks {
        let acc = tile::<P>(cols, biases, rows, n_pairs, blk);
        let c0 = BLOCK * blk;
        let n = (out_d - c0).min(BLOCK);
        for (p, a) in acc.iter().enumerate() {
            A::store(rq, c0, *a, &mut output[(px0 + p) * out_d + c0..][..n]);
        }
    }
}

/// The gather's widening of a run: [`Widen::copy_widen`], one run at a time (the default
/// block of one, so the gather never writes past a run).
struct NeonWiden;

impl<A: Widen> WidenRun<A> for NeonWiden {
    #[inline(always)]
    fn widen_run(&self, src: &[A], dst: &mut [i16]) {
        A::copy_widen(src, &mut dst[..src.len()]);
    }
}
