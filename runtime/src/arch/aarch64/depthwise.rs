//! NEON DEPTHWISE_CONV_2D int8, the `Window` variant with depth multiplier 1 (the model's
//! filter as is, `[tap][channel]`, and the folded bias): the micro-kernel [`Taps`] of the
//! one depthwise driver (`crate::kernels::depthwise_conv_2d::window_driver`, which walks the
//! pixels, the windows and the channel blocks). Other multipliers take the portable variant
//! (with the NEON dot micro-kernels).
//!
//! Sixteen channels per block (eight when eight are left, then a tail), the accumulators in
//! registers over the window: every window starts from the folded bias; per tap `smull` /
//! `smull2` multiply into int16 (|x * w| <= 2^14 is exact) and `saddw` / `saddw2` widen-add
//! into the four int32 accumulators. In a border window the taps outside the image read the
//! input zero point, which adds `w * (zp + input_offset) = 0` to the folded bias: the
//! reference's sum over the valid taps, modulo 2^32. Eight channels are requantized
//! together ([`super::Requant8`]).

use super::{Neon, Requant8};
use crate::kernels::depthwise_conv_2d::window_driver::{drive, Activations, DepthwiseMicro};
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::numerics::S8;
use core::arch::aarch64::*;

/// The longest window the driver takes here (its table of tap offsets, 24 KiB); a longer one
/// (more than 32x32 taps) takes the portable variant.
const MAX_TAPS: usize = 1024;

/// `DepthwiseConv2dVariant::Window`.
pub(crate) fn depthwise_window(_: Neon, p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    let depth = p.geometry.filter_shape[3];
    let taps = p.geometry.filter_shape[1] * p.geometry.filter_shape[2];
    if p.depth_multiplier() == 1 && p.geometry.input_shape[3] == depth && taps <= MAX_TAPS {
        let mut k = Taps { rq: Requant8::new(&p.quant, &p.clamp), zp: (-p.quant.input_offset) as i8, filter, folded: &packed[..depth], depth };
        // SAFETY: NEON is enabled for this build (the token).
        return unsafe {
            if taps <= 64 {
                drive::<_, 64>(&mut k, &p.geometry, input, output)
            } else {
                drive::<_, MAX_TAPS>(&mut k, &p.geometry, input, output)
            }
        };
    }
    crate::kernels::depthwise_conv_2d::fast::depthwise_window::<crate::isa::Dot>(p, input, filter, bias, packed, output)
}

/// `acc + x * w` for sixteen channels: `acc[h]` holds channels `4h..4h + 4`.
#[inline(always)]
fn mac16(acc: [int32x4_t; 4], x: int8x16_t, w: int8x16_t) -> [int32x4_t; 4] {
    // SAFETY: register-only NEON intrinsics (NEON is enabled for this build).
    unsafe {
        let lo = vmull_s8(vget_low_s8(x), vget_low_s8(w));
        let hi = vmull_high_s8(x, w);
        [vaddw_s16(acc[0], vget_low_s16(lo)), vaddw_high_s16(acc[1], lo), vaddw_s16(acc[2], vget_low_s16(hi)), vaddw_high_s16(acc[3], hi)]
    }
}

/// `acc + x * w` for eight channels: `acc[h]` holds channels `4h..4h + 4`.
#[inline(always)]
fn mac8(acc: [int32x4_t; 2], x: int8x8_t, w: int8x8_t) -> [int32x4_t; 2] {
    // SAFETY: register-only NEON intrinsics.
    unsafe {
        let prod = vmull_s8(x, w);
        [vaddw_s16(acc[0], vget_low_s16(prod)), vaddw_high_s16(acc[1], prod)]
    }
}

/// Sixteen int8 at `at`, or the first `n < 16` of them (the other lanes 0).
///
/// # Safety
/// `n` int8 at `at` are readable.
#[inline(always)]
unsafe fn load16(at: *const i8, n: usize) -> int8x16_t {
    // SAFETY: NEON; the caller's bounds.
    unsafe {
        if n >= 16 {
            return vld1q_s8(at);
        }
        let mut v = [0i8; 16];
        v[..n].copy_from_slice(core::slice::from_raw_parts(at, n));
        vld1q_s8(v.as_ptr())
    }
}

/// Depth multiplier 1 with `filter` in `[tap][channel]` layout and `folded` the folded
/// bias, one tap at a time, the weights read from the model's filter at every pixel.
struct Taps<'a> {
    rq: Requant8<'a>,
    zp: i8,
    filter: &'a [i8],
    folded: &'a [i32],
    depth: usize,
}

impl DepthwiseMicro for Taps<'_> {
    type Act = i8;
    type X = int8x16_t;
    type Acc = [int32x4_t; 4];
    const BLOCK: usize = 16;
    const HALF: usize = 8;

    #[inline(always)]
    unsafe fn load(&self, at: *const i8, n: usize) -> int8x16_t {
        // SAFETY: NEON; the caller's bounds (8 int8 when `n == 8`, whose lanes 8.. are unused).
        unsafe {
            if n == 8 {
                let v = vld1_s8(at);
                vcombine_s8(v, v)
            } else {
                load16(at, n)
            }
        }
    }

    #[inline(always)]
    unsafe fn zero(&self) -> int8x16_t {
        // SAFETY: register-only NEON.
        unsafe { vdupq_n_s8(self.zp) }
    }

    #[inline(always)]
    unsafe fn window<S: Activations<int8x16_t>, const P: usize>(&self, _: usize, c: usize, n: usize, x: &S) -> [[int32x4_t; 4]; P] {
        // Channels `c..c + n` of the folded bias, four per vector.
        let mut v = [0i32; 16];
        v[..n].copy_from_slice(&self.folded[c..][..n]);
        // SAFETY: NEON; the loads read the 16 i32 of `v`, and `min(n, 16)` int8 of a tap's
        // slice of the filter (`t * depth + c + n <= taps * depth`); the caller's bounds for
        // `x.tap`.
        unsafe {
            let bias = [vld1q_s32(v.as_ptr()), vld1q_s32(v.as_ptr().add(4)), vld1q_s32(v.as_ptr().add(8)), vld1q_s32(v.as_ptr().add(12))];
            let mut out = [bias; P];
            for (q, acc) in out.iter_mut().enumerate() {
                for t in 0..x.taps() {
                    let ws = &self.filter[t * self.depth + c..][..n];
                    let xv = x.tap(q, t, n);
                    if n > 8 {
                        *acc = mac16(*acc, xv, load16(ws.as_ptr(), n));
                    } else {
                        let w = if n == 8 { vld1_s8(ws.as_ptr()) } else { vget_low_s8(load16(ws.as_ptr(), n)) };
                        let [a0, a1] = mac8([acc[0], acc[1]], vget_low_s8(xv), w);
                        (acc[0], acc[1]) = (a0, a1);
                    }
                }
            }
            out
        }
    }

    #[inline(always)]
    unsafe fn store(&self, acc: [int32x4_t; 4], c: usize, n: usize, out: &mut [i8]) {
        self.rq.store(c, [acc[0], acc[1]], &mut out[c..][..n.min(8)]);
        if n > 8 {
            self.rq.store(c + 8, [acc[2], acc[3]], &mut out[c + 8..][..n - 8]);
        }
    }
}
