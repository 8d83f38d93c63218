//! The AVX-512 VNNI micro-kernel of the row-product drivers (`crate::kernels::rows`: CONV_2D
//! `Pointwise` and `Window`, FULLY_CONNECTED `Dot4`): `P` rows of `k` int8 (pixels, gathered windows, or input rows) times every
//! `k`-long row of the model's OHWI / `[units, depth]` filter, from the folded bias,
//! requantized. The tables are those of the AVX2 and portable forms.
//!
//! Per 64 elements, each of four filter rows is loaded once and made unsigned (`w ^ 0x80`
//! is `w + 128` as u8), and `vpdpbusd` accumulates `(w + 128) * x` of every row's chunk
//! (four products per lane, exact in int32). The last `k % 64` elements are masked loads
//! (zeros, which add nothing). After the horizontal sums, each row's `128 * sum x` (computed
//! once per row with `vpdpbusd` against ones) is subtracted and the folded bias added, so
//! the sum is `folded + sum w * x` modulo 2^32, the reference's. Sixteen channels are
//! requantized together ([`Requant16`]).

use super::{Avx512Vnni, Requant16};
use crate::kernels::rows::{fits_dot4, fits_window, rows_entries, RowsMicro};
use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// The mask of the first `n <= 64` bytes.
#[inline(always)]
fn first(n: usize) -> __mmask64 {
    debug_assert!(n <= 64);
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// `sum_i x[i]` over `i < k` (wrapping; exact for `k < 2^24`).
///
/// # Safety
/// AVX512F/BW/VNNI; `k` readable int8 at `x`.
#[inline(always)]
unsafe fn sum(x: *const i8, k: usize) -> i32 {
    // SAFETY: AVX512F/BW/VNNI by the caller's guarantee; the loads read `x + i..` with
    // `i + 64 <= k`, the masked one the first `k - i` bytes at `x + i`.
    unsafe {
        let ones = _mm512_set1_epi8(1);
        let mut acc = _mm512_setzero_si512();
        let mut i = 0;
        while i + 64 <= k {
            acc = _mm512_dpbusd_epi32(acc, ones, _mm512_loadu_si512(x.add(i).cast()));
            i += 64;
        }
        if i < k {
            acc = _mm512_dpbusd_epi32(acc, ones, _mm512_maskz_loadu_epi8(first(k - i), x.add(i)));
        }
        _mm512_reduce_add_epi32(acc)
    }
}

/// The sums of the sixteen lanes of each of `a`: `[sum a[0], sum a[1], sum a[2], sum a[3]]`.
///
/// # Safety
/// AVX512F and AVX2.
#[inline(always)]
unsafe fn hsum4(a: [__m512i; 4]) -> __m128i {
    // SAFETY: register-only intrinsics.
    unsafe {
        // (No closures over intrinsics here: a closure does not inherit the caller's target
        // features, so its intrinsics would not inline.)
        let mut h = [_mm256_setzero_si256(); 4];
        for (h, &v) in h.iter_mut().zip(&a) {
            *h = _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
        }
        let s = _mm256_hadd_epi32(_mm256_hadd_epi32(h[0], h[1]), _mm256_hadd_epi32(h[2], h[3]));
        _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s))
    }
}

/// `sum_i (w[j][i] + 128) * x[p][i]` over `i < k` for the `P` rows `x` and the four filter
/// rows `w` (wrapping), as one int32x4 per row.
///
/// # Safety
/// AVX2, AVX512F/BW/VNNI; `k` readable int8 at every `x[p]` and every `w[j]`.
#[inline(always)]
unsafe fn dot_4xp<const P: usize>(x: [*const i8; P], w: [*const i8; 4], k: usize) -> [__m128i; P] {
    // SAFETY: by the caller's guarantee; every load reads `x[p] + i..` or `w[j] + i..` with
    // `i + 64 <= k`, the masked ones the first `k - i` bytes there.
    unsafe {
        let flip = _mm512_set1_epi8(-128);
        let mut acc = [[_mm512_setzero_si512(); 4]; P];
        let mut i = 0;
        while i + 64 <= k {
            let mut wv = [flip; 4];
            for j in 0..4 {
                wv[j] = _mm512_xor_si512(_mm512_loadu_si512(w[j].add(i).cast()), flip);
            }
            for p in 0..P {
                let xv = _mm512_loadu_si512(x[p].add(i).cast());
                for j in 0..4 {
                    acc[p][j] = _mm512_dpbusd_epi32(acc[p][j], wv[j], xv);
                }
            }
            i += 64;
        }
        if i < k {
            let m = first(k - i);
            let mut wv = [flip; 4];
            for j in 0..4 {
                wv[j] = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, w[j].add(i)), flip);
            }
            for p in 0..P {
                let xv = _mm512_maskz_loadu_epi8(m, x[p].add(i));
                for j in 0..4 {
                    acc[p][j] = _mm512_dpbusd_epi32(acc[p][j], wv[j], xv);
                }
            }
        }
        let mut sums = [_mm_setzero_si128(); P];
        for (s, &a) in sums.iter_mut().zip(&acc) {
            *s = hsum4(a);
        }
        sums
    }
}

/// `outs[p][c] = requant(folded[c] + sum_i xs[p][i] * filter[c * k + i])` for every output
/// channel `c < outs[p].len()`: rows of `k` int8, filter rows of `k` int8.
///
/// # Safety
/// AVX2, AVX512F/BW/VL/VNNI. (Lengths are checked.)
#[inline(always)]
unsafe fn rows<const P: usize>(xs: [&[i8]; P], k: usize, filter: &[i8], folded: &[i32], rq: &Requant16, outs: [&mut [i8]; P]) {
    let out_d = folded.len();
    assert!(out_d > 0 && xs.iter().all(|x| x.len() >= k) && outs.iter().all(|o| o.len() == out_d) && filter.len() >= out_d * k);
    let x = xs.map(|x| x.as_ptr());
    let f = filter.as_ptr();
    // SAFETY: by the caller's guarantee; every `x[p]` has `k` int8 (asserted).
    let corr: [__m512i; P] = unsafe {
        let mut corr = [_mm512_setzero_si512(); P];
        for (c, &x) in corr.iter_mut().zip(&x) {
            *c = _mm512_set1_epi32(sum(x, k).wrapping_mul(128));
        }
        corr
    };
    let mut c0 = 0;
    while c0 < out_d {
        let n = (out_d - c0).min(16);
        // Groups of four channels; a channel past `out_d` repeats the last one.
        let row = |c: usize| f.wrapping_add(c.min(out_d - 1) * k);
        // SAFETY: register-only SSE2.
        let mut sums = [[unsafe { _mm_setzero_si128() }; 4]; P];
        for (g, c) in (c0..c0 + n).step_by(4).enumerate() {
            // SAFETY: by the caller's guarantee; every row pointer is a filter row
            // (`c.min(out_d - 1) < out_d`, `filter.len() >= out_d * k`).
            let s = unsafe { dot_4xp::<P>(x, [row(c), row(c + 1), row(c + 2), row(c + 3)], k) };
            for p in 0..P {
                sums[p][g] = s[p];
            }
        }
        let bias = &folded[c0..][..n];
        // SAFETY: by the caller's guarantee; the masked load reads the `n` i32 of `bias`.
        unsafe {
            let b = _mm512_maskz_loadu_epi32(((1u32 << n) - 1) as __mmask16, bias.as_ptr());
            for p in 0..P {
                let [s0, s1, s2, s3] = sums[p];
                let s = _mm512_inserti32x4::<3>(_mm512_inserti32x4::<2>(_mm512_inserti32x4::<1>(_mm512_castsi128_si512(s0), s1), s2), s3);
                let acc = _mm512_add_epi32(_mm512_sub_epi32(s, corr[p]), b);
                rq.store(c0, acc, &mut outs[p][c0..][..n]);
            }
        }
        c0 += n;
    }
}

/// The AVX-512 VNNI micro-kernel of the row-product drivers: the requantization (the token
/// was checked by the entry's caller).
pub(crate) struct VnniRows<'a> {
    rq: Requant16<'a>,
}

impl RowsMicro for VnniRows<'_> {
    const ROWS: usize = 2;
    const PAD: usize = 1;

    #[inline(always)]
    unsafe fn pass(&self, xs: &[&[i8]], k: usize, filter: &[i8], folded: &[i32], outs: &mut [&mut [i8]]) {
        // SAFETY: AVX-512 VNNI by the caller's guarantee.
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
    /// The row-product drivers under AVX-512 VNNI.
    mod entries(VnniRows<'_>) features "avx2,avx512f,avx512bw,avx512vl,avx512vnni"
}

/// `Conv2dVariant::Pointwise` (1x1, no padding, every window inside the input).
pub(crate) fn conv_2d_pointwise(_: Avx512Vnni, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let k = VnniRows { rq: Requant16::new(&p.quant, &p.clamp) };
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
    unsafe { entries::pointwise(&k, p, input, filter, packed, output) }
}

/// `Conv2dVariant::Window`: any ungrouped window (longer than `rows::GATHER_MAX`: the
/// portable form).
pub(crate) fn conv_2d_window(_: Avx512Vnni, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    if !fits_window(p) {
        return crate::kernels::conv_2d::fast::conv_window::<crate::isa::Dot>(p, input, filter, bias, packed, output);
    }
    let k = VnniRows { rq: Requant16::new(&p.quant, &p.clamp) };
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
    unsafe { entries::gathered(&k, p, input, filter, packed, output) }
}

/// `FullyConnectedVariant::Dot4`.
pub(crate) fn fully_connected_dot4(_: Avx512Vnni, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    if !fits_dot4(p) {
        return crate::kernels::fully_connected::fast::fully_connected_dot4::<crate::isa::Dot>(p, input, filter, packed, output);
    }
    let k = VnniRows { rq: Requant16::new(&p.quant, &p.clamp) };
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
    unsafe { entries::dot4(&k, p, input, filter, packed, output) }
}
