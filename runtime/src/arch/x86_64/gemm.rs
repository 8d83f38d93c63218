//! The AVX2 micro-kernel of the row-product drivers (`crate::kernels::rows`: CONV_2D
//! `Pointwise` and `Window`, FULLY_CONNECTED `Dot4`): `P` rows of `k` int8 (pixels, or input rows) times every `k`-long row of
//! an OHWI / `[units, depth]` filter, from the folded bias, requantized.
//!
//! The micro-kernel keeps `P x 4` accumulators of eight int32 lanes over `k`: per 16
//! elements, each of the four filter rows is sign-extended once (`vpmovsxbw`) and multiplied
//! with every row's sign-extended chunk (`vpmaddwd`, exact). An 8-element chunk uses the
//! same instructions on a zero-extended half load; the last `k % 8` elements are scalar.
//! The four channel sums of a row are reduced with `vphaddd` and eight channels are
//! requantized together ([`super::Requant8`]).

use super::{Avx2, Requant8};
use crate::kernels::rows::{rows_entries, RowsMicro};
use core::arch::x86_64::*;

/// The AVX2 micro-kernel: the token and the requantization.
pub(crate) struct Avx2Rows<'a> {
    pub(crate) _t: Avx2,
    pub(crate) rq: Requant8<'a>,
}

impl RowsMicro for Avx2Rows<'_> {
    const ROWS: usize = 2;
    const PAD: usize = 8;

    #[inline(always)]
    unsafe fn pass(&self, xs: &[&[i8]], k: usize, filter: &[i8], folded: &[i32], outs: &mut [&mut [i8]]) {
        // SAFETY: AVX2 by the caller's guarantee.
        unsafe {
            match (xs, outs) {
                ([x0, x1], [o0, o1]) => rows::<2>([x0, x1], k, filter, folded, &self.rq, [o0, o1]),
                ([x0], [o0]) => rows::<1>([x0], k, filter, folded, &self.rq, [o0]),
                _ => {}
            }
        }
    }
}

rows_entries! {
    /// The row-product drivers under AVX2.
    mod entries(Avx2Rows<'_>) features "avx2"
}

/// Sign-extends 16 int8 at `p` to 16 int16.
///
/// # Safety
/// AVX2; 16 readable bytes at `p`.
#[inline(always)]
unsafe fn widen16(p: *const i8) -> __m256i {
    // SAFETY: by the caller's guarantee (unaligned load).
    unsafe { _mm256_cvtepi8_epi16(_mm_loadu_si128(p.cast())) }
}

/// Sign-extends 8 int8 at `p` to the low 8 of 16 int16 (the high 8 are 0).
///
/// # Safety
/// AVX2; 8 readable bytes at `p`.
#[inline(always)]
unsafe fn widen8(p: *const i8) -> __m256i {
    // SAFETY: by the caller's guarantee (`movq` reads 8 bytes, zeroing the rest).
    unsafe { _mm256_cvtepi8_epi16(_mm_loadl_epi64(p.cast())) }
}

/// The sums of the eight lanes of each of `a`: `[sum a[0], sum a[1], sum a[2], sum a[3]]`.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn hsum4(a: [__m256i; 4]) -> __m128i {
    // SAFETY: register-only AVX2 intrinsics.
    unsafe {
        let s = _mm256_hadd_epi32(_mm256_hadd_epi32(a[0], a[1]), _mm256_hadd_epi32(a[2], a[3]));
        _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s))
    }
}

/// `sum_i x[p][i] * w[j][i]` over `i < k` for the `P` rows `x` and the four filter rows `w`
/// (wrapping), as one int32x4 per row.
///
/// # Safety
/// AVX2; `k` readable int8 at every `x[p]` and every `w[j]`.
#[inline(always)]
pub(crate) unsafe fn dot_4xp<const P: usize>(x: [*const i8; P], w: [*const i8; 4], k: usize) -> [__m128i; P] {
    // SAFETY: AVX2 by the caller's guarantee; every load reads `x[p] + i..` or `w[j] + i..`
    // with `i + 16 <= k` (or `i + 8 <= k`), inside the caller's rows.
    unsafe {
        let mut acc = [[_mm256_setzero_si256(); 4]; P];
        let mut i = 0;
        while i + 16 <= k {
            let wv = [widen16(w[0].add(i)), widen16(w[1].add(i)), widen16(w[2].add(i)), widen16(w[3].add(i))];
            for p in 0..P {
                let xv = widen16(x[p].add(i));
                for j in 0..4 {
                    acc[p][j] = _mm256_add_epi32(acc[p][j], _mm256_madd_epi16(xv, wv[j]));
                }
            }
            i += 16;
        }
        if i + 8 <= k {
            let wv = [widen8(w[0].add(i)), widen8(w[1].add(i)), widen8(w[2].add(i)), widen8(w[3].add(i))];
            for p in 0..P {
                let xv = widen8(x[p].add(i));
                for j in 0..4 {
                    acc[p][j] = _mm256_add_epi32(acc[p][j], _mm256_madd_epi16(xv, wv[j]));
                }
            }
            i += 8;
        }
        let mut out = [_mm_setzero_si128(); P];
        for p in 0..P {
            let mut tail = [0i32; 4];
            for (j, t) in tail.iter_mut().enumerate() {
                for ii in i..k {
                    *t = t.wrapping_add(*x[p].add(ii) as i32 * *w[j].add(ii) as i32);
                }
            }
            out[p] = _mm_add_epi32(hsum4(acc[p]), _mm_loadu_si128(tail.as_ptr().cast()));
        }
        out
    }
}

/// `outs[p][c] = requant(folded[c] + sum_i xs[p][i] * filter[c * k + i])` for every output
/// channel `c < outs[p].len()`: rows of `k` int8, filter rows of `k` int8.
///
/// # Safety
/// AVX2. (Lengths are checked.)
#[inline(always)]
pub(crate) unsafe fn rows<const P: usize>(xs: [&[i8]; P], k: usize, filter: &[i8], folded: &[i32], rq: &Requant8, outs: [&mut [i8]; P]) {
    let out_d = folded.len();
    assert!(xs.iter().all(|x| x.len() >= k) && outs.iter().all(|o| o.len() == out_d) && filter.len() >= out_d * k);
    let x = xs.map(|x| x.as_ptr());
    let f = filter.as_ptr();
    let mut c0 = 0;
    while c0 < out_d {
        let n = (out_d - c0).min(8);
        // Two blocks of four channels; a channel past `out_d` repeats the last one.
        let row = |c: usize| f.wrapping_add(c.min(out_d - 1) * k);
        // SAFETY: AVX2 by the caller's guarantee; every row pointer is a filter row
        // (`c.min(out_d - 1) < out_d`, `filter.len() >= out_d * k`) and every `x[p]` has `k`
        // int8 (asserted).
        let (lo, hi) = unsafe {
            let lo = dot_4xp::<P>(x, [row(c0), row(c0 + 1), row(c0 + 2), row(c0 + 3)], k);
            let hi = if n > 4 { dot_4xp::<P>(x, [row(c0 + 4), row(c0 + 5), row(c0 + 6), row(c0 + 7)], k) } else { [_mm_setzero_si128(); P] };
            (lo, hi)
        };
        let mut staged = [0i32; 8];
        let bias = if n == 8 {
            &folded[c0..][..8]
        } else {
            for (b, &f) in staged.iter_mut().zip(&folded[c0..][..n]) {
                *b = f;
            }
            &staged[..]
        };
        for p in 0..P {
            // SAFETY: AVX2 by the caller's guarantee; `bias` has 8 i32.
            unsafe {
                let acc = _mm256_add_epi32(_mm256_set_m128i(hi[p], lo[p]), _mm256_loadu_si256(bias.as_ptr().cast()));
                rq.store(c0, acc, &mut outs[p][c0..][..n]);
            }
        }
        c0 += n;
    }
}
