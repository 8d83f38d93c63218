//! [`Neon`]: the dot micro-kernels with aarch64 Advanced SIMD (NEON, part of the base
//! aarch64 ISA, so the build's `target_feature = "neon"` is the detection).
//!
//! Exact like [`super::scalar::Scalar`]: int8 products are formed in int16 (`smull`, |x*w| <=
//! 2^14) and each product vector is added pairwise into the int32 accumulators on its own
//! (`sadalp`: two products of -128 * -128 would overflow int16 if summed first, so no
//! `smlal` into int16); the offset forms widen `x + offset` (9 bits) to int16 and multiply
//! into int32 (`smlal`). Accumulation wraps in int32 like the reference. The four-lane `mac4`
//! forms stay scalar (one multiply per lane gains nothing from a vector). These serve the
//! variants without a whole NEON kernel (`crate::arch::aarch64` has those, `sdot` included)
//! and every variant under `HostSimd::Portable`.

use super::scalar;
use core::arch::aarch64::*;

/// `acc + sum_i x[i] * w[i]` over `x.len()` (`w` at least as long), one row.
#[inline(always)]
fn dot_row(x: &[i8], w: &[i8], acc: i32) -> i32 {
    let n = x.len();
    let w = &w[..n];
    let mut i = 0;
    // SAFETY: NEON is enabled for this build (cfg on the module); every load reads
    // `x[i..i + 16]` / `w[i..i + 16]` (or 8) with `i + 16 <= n` (or 8), inside the slices.
    let sum = unsafe {
        let mut a = vdupq_n_s32(0);
        while i + 16 <= n {
            let (xv, wv) = (vld1q_s8(x.as_ptr().add(i)), vld1q_s8(w.as_ptr().add(i)));
            a = vpadalq_s16(a, vmull_s8(vget_low_s8(xv), vget_low_s8(wv)));
            a = vpadalq_s16(a, vmull_high_s8(xv, wv));
            i += 16;
        }
        if i + 8 <= n {
            a = vpadalq_s16(a, vmull_s8(vld1_s8(x.as_ptr().add(i)), vld1_s8(w.as_ptr().add(i))));
            i += 8;
        }
        vaddvq_s32(a)
    };
    scalar::dot1(&x[i..], &w[i..], acc.wrapping_add(sum))
}

/// `acc + sum_i (x[i] + offset) * w[i]`, one row.
#[inline(always)]
fn dot_row_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
    let n = x.len();
    let w = &w[..n];
    let mut i = 0;
    // SAFETY: as in `dot_row`: NEON is enabled, loads of 8 with `i + 8 <= n`.
    let sum = unsafe {
        // `offset` is an input offset, -128..=128: `x + offset` fits int16.
        let off = vdupq_n_s16(offset as i16);
        let mut a = vdupq_n_s32(0);
        while i + 8 <= n {
            let xv = vaddq_s16(vmovl_s8(vld1_s8(x.as_ptr().add(i))), off);
            let wv = vmovl_s8(vld1_s8(w.as_ptr().add(i)));
            a = vmlal_s16(a, vget_low_s16(xv), vget_low_s16(wv));
            a = vmlal_high_s16(a, xv, wv);
            i += 8;
        }
        vaddvq_s32(a)
    };
    scalar::dot1_offset(&x[i..], &w[i..], offset, acc.wrapping_add(sum))
}

/// The NEON implementation.
pub(crate) struct Neon;

impl super::Dot for Neon {
    const NAME: &'static str = "neon-micro";
    #[inline(always)]
    fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4] {
        core::array::from_fn(|j| dot_row(x, w[j], acc[j]))
    }
    #[inline(always)]
    fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32 {
        dot_row(x, w, acc)
    }
    #[inline(always)]
    fn mac4(x: [i8; 4], w: [i8; 4], acc: [i32; 4]) -> [i32; 4] {
        scalar::mac4(x, w, acc)
    }
    #[inline(always)]
    fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        core::array::from_fn(|j| dot_row_offset(x, w[j], offset, acc[j]))
    }
    #[inline(always)]
    fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
        dot_row_offset(x, w, offset, acc)
    }
    #[inline(always)]
    fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        scalar::mac4_offset(x, w, offset, acc)
    }
}
