//! The NEON matrix-product core of FULLY_CONNECTED and the 1x1 CONV_2D: `P` rows of `k`
//! int8 (input rows, or pixels) times every `k`-long row of a `[units, depth]` / OHWI filter,
//! from the folded bias, requantized ([`super::Requant8`]).
//!
//! The micro-kernel keeps `P x 4` accumulators of four int32 lanes over `k`. Per sixteen
//! elements of a row and a filter row, the plain NEON form ([`Smull`]) multiplies into int16
//! (`smull`, `smull2`: |x * w| <= 2^14 is exact) and adds each product vector pairwise into
//! the int32 accumulator on its own (`sadalp`: two products of -128 * -128 summed in int16
//! would overflow, so no `smlal` into int16); the dot-product form ([`Sdot`]) does the same
//! in one `sdot` (four products per lane, summed exactly in int32). An 8-element chunk takes
//! `smull` + `sadalp` in both forms, the last `k % 8` elements are scalar. The accumulation
//! wraps in int32 like the reference (a ring: any order gives the same sums). The four
//! lanes of each accumulator are reduced with `addp`.

use super::Requant8;
use crate::kernels::rows::{rows_entries, RowsMicro};
use core::arch::aarch64::*;

/// One sixteen-element step of a dot product: `acc + ` the sums of `x * w` (any grouping
/// into the four lanes).
pub(crate) trait Step {
    /// # Safety
    /// The CPU executes the instructions of the implementation (NEON: every aarch64 build;
    /// [`Sdot`]: the dot-product extension, and the caller is compiled with
    /// `target_feature = "dotprod"`).
    unsafe fn step(acc: int32x4_t, x: int8x16_t, w: int8x16_t) -> int32x4_t;
}

/// `smull` / `smull2` into int16, `sadalp` into int32.
pub(crate) struct Smull;

impl Step for Smull {
    #[inline(always)]
    unsafe fn step(acc: int32x4_t, x: int8x16_t, w: int8x16_t) -> int32x4_t {
        // SAFETY: register-only NEON intrinsics (NEON is enabled for this build).
        unsafe { vpadalq_s16(vpadalq_s16(acc, vmull_s8(vget_low_s8(x), vget_low_s8(w))), vmull_high_s8(x, w)) }
    }
}

/// `sdot` (the dot-product extension, FEAT_DotProd).
pub(crate) struct Sdot;

impl Step for Sdot {
    #[inline(always)]
    unsafe fn step(mut acc: int32x4_t, x: int8x16_t, w: int8x16_t) -> int32x4_t {
        // SAFETY: the caller's guarantee: the CPU has the dot-product extension and the
        // calling function enables it (so the assembler accepts `sdot`). Registers only.
        // (`vdotq_s32` is still unstable in Rust.)
        unsafe {
            core::arch::asm!(
                "sdot {acc:v}.4s, {x:v}.16b, {w:v}.16b",
                acc = inout(vreg) acc,
                x = in(vreg) x,
                w = in(vreg) w,
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        acc
    }
}

/// `sum_i x[p][i] * w[j][i]` over `i < k` for the `P` rows `x` and the four filter rows `w`
/// (wrapping), as one int32x4 per row (lane `j` for filter row `j`).
///
/// # Safety
/// As [`Step::step`] for `S`; `k` readable int8 at every `x[p]` and every `w[j]`.
#[inline(always)]
unsafe fn dot_4xp<const P: usize, S: Step>(x: [*const i8; P], w: [*const i8; 4], k: usize) -> [int32x4_t; P] {
    // SAFETY: by the caller's guarantee; every load reads `x[p] + i..` or `w[j] + i..` with
    // `i + 16 <= k` (or `i + 8 <= k`), inside the caller's rows.
    unsafe {
        let mut acc = [[vdupq_n_s32(0); 4]; P];
        let mut i = 0;
        while i + 16 <= k {
            let wv = [vld1q_s8(w[0].add(i)), vld1q_s8(w[1].add(i)), vld1q_s8(w[2].add(i)), vld1q_s8(w[3].add(i))];
            for p in 0..P {
                let xv = vld1q_s8(x[p].add(i));
                for j in 0..4 {
                    acc[p][j] = S::step(acc[p][j], xv, wv[j]);
                }
            }
            i += 16;
        }
        if i + 8 <= k {
            let wv = [vld1_s8(w[0].add(i)), vld1_s8(w[1].add(i)), vld1_s8(w[2].add(i)), vld1_s8(w[3].add(i))];
            for p in 0..P {
                let xv = vld1_s8(x[p].add(i));
                for j in 0..4 {
                    acc[p][j] = vpadalq_s16(acc[p][j], vmull_s8(xv, wv[j]));
                }
            }
            i += 8;
        }
        let mut out = [vdupq_n_s32(0); P];
        for p in 0..P {
            let mut tail = [0i32; 4];
            for (j, t) in tail.iter_mut().enumerate() {
                for ii in i..k {
                    *t = t.wrapping_add(*x[p].add(ii) as i32 * *w[j].add(ii) as i32);
                }
            }
            let a = &acc[p];
            let sums = vpaddq_s32(vpaddq_s32(a[0], a[1]), vpaddq_s32(a[2], a[3]));
            out[p] = vaddq_s32(sums, vld1q_s32(tail.as_ptr()));
        }
        out
    }
}

/// `outs[p][c] = requant(folded[c] + sum_i xs[p][i] * filter[c * k + i])` for every output
/// channel `c < outs[p].len()`: rows of `k` int8, filter rows of `k` int8.
///
/// # Safety
/// As [`Step::step`] for `S`. (Lengths are checked.)
#[inline(always)]
pub(crate) unsafe fn rows<const P: usize, S: Step>(xs: [&[i8]; P], k: usize, filter: &[i8], folded: &[i32], rq: &Requant8, outs: [&mut [i8]; P]) {
    let out_d = folded.len();
    assert!(xs.iter().all(|x| x.len() >= k) && outs.iter().all(|o| o.len() == out_d) && filter.len() >= out_d * k);
    let x = xs.map(|x| x.as_ptr());
    let f = filter.as_ptr();
    let mut c0 = 0;
    while c0 < out_d {
        let n = (out_d - c0).min(8);
        // Two blocks of four channels; a channel past `out_d` repeats the last one.
        let row = |c: usize| f.wrapping_add(c.min(out_d - 1) * k);
        // SAFETY: by the caller's guarantee for `S`; every row pointer is a filter row
        // (`c.min(out_d - 1) < out_d`, `filter.len() >= out_d * k`) and every `x[p]` has `k`
        // int8 (asserted).
        let (lo, hi) = unsafe {
            let lo = dot_4xp::<P, S>(x, [row(c0), row(c0 + 1), row(c0 + 2), row(c0 + 3)], k);
            let hi = if n > 4 { dot_4xp::<P, S>(x, [row(c0 + 4), row(c0 + 5), row(c0 + 6), row(c0 + 7)], k) } else { [vdupq_n_s32(0); P] };
            (lo, hi)
        };
        let mut bias = [0i32; 8];
        bias[..n].copy_from_slice(&folded[c0..][..n]);
        // SAFETY: NEON; the loads read the 8-lane array `bias`.
        let (b_lo, b_hi) = unsafe { (vld1q_s32(bias.as_ptr()), vld1q_s32(bias.as_ptr().add(4))) };
        for p in 0..P {
            // SAFETY: register-only NEON intrinsics.
            let acc = unsafe { [vaddq_s32(lo[p], b_lo), vaddq_s32(hi[p], b_hi)] };
            rq.store(c0, acc, &mut outs[p][c0..][..n]);
        }
        c0 += n;
    }
}

/// The NEON micro-kernel of the row-product drivers (`crate::kernels::rows`), with the
/// dot step `S` ([`Smull`] or [`Sdot`]): the requantization. Four rows per pass, a tail one
/// at a time.
pub(crate) struct NeonRows<'a, S: Step> {
    pub(crate) rq: Requant8<'a>,
    pub(crate) step: core::marker::PhantomData<S>,
}

impl<S: Step> RowsMicro for NeonRows<'_, S> {
    const ROWS: usize = 4;
    const PAD: usize = 1;

    #[inline(always)]
    unsafe fn pass(&self, xs: &[&[i8]], k: usize, filter: &[i8], folded: &[i32], outs: &mut [&mut [i8]]) {
        // SAFETY: as `Step::step` for `S`, by the caller's guarantee.
        unsafe {
            if let ([x0, x1, x2, x3], [o0, o1, o2, o3]) = (xs, &mut *outs) {
                return rows::<4, S>([x0, x1, x2, x3], k, filter, folded, &self.rq, [o0, o1, o2, o3]);
            }
            for (x, o) in xs.iter().zip(outs.iter_mut()) {
                rows::<1, S>([x], k, filter, folded, &self.rq, [o]);
            }
        }
    }
}

rows_entries! {
    /// The row-product drivers with plain NEON.
    mod smull(NeonRows<'_, Smull>)
}

rows_entries! {
    /// The row-product drivers with `sdot`.
    mod sdot(NeonRows<'_, Sdot>) features "dotprod"
}
