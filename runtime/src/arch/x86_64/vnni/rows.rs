//! AVX-512 VNNI matrix-product core of CONV_2D `Pointwise` and `Window` and FULLY_CONNECTED
//! `Dot4`: `P` rows of `k` int8 (pixels, gathered windows, or input rows) times every
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
use crate::arch::x86_64::conv::{gather, GATHER_MAX};
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

/// `Conv2dVariant::Pointwise` (1x1, no padding, every window inside the input).
pub(crate) fn conv_2d_pointwise(_: Avx512Vnni, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
    unsafe { pointwise(p, input, filter, packed, output) }
}

/// `Conv2dVariant::Window`: any ungrouped window.
pub(crate) fn conv_2d_window(t: Avx512Vnni, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    let [_, f_h, f_w, f_d] = p.geometry.filter_shape;
    if f_h * f_w * f_d > GATHER_MAX {
        return crate::arch::x86_64::conv_2d_window(t.avx2(), p, input, filter, bias, packed, output);
    }
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
    unsafe { gathered(p, input, filter, packed, output) }
}

/// `FullyConnectedVariant::Dot4`.
pub(crate) fn fully_connected_dot4(_: Avx512Vnni, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    if p.geometry.input_depth == 0 {
        return crate::kernels::fully_connected::fast::fully_connected_dot4::<crate::isa::Dot>(p, input, filter, packed, output);
    }
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
    unsafe { dot4(p, input, filter, packed, output) }
}

#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
unsafe fn pointwise(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let out_d = g.filter_shape[0];
    let [_, out_h, out_w, _] = g.output_shape;
    let n_px = batches * out_h * out_w;
    if out_d == 0 || n_px == 0 {
        return;
    }
    let folded = &packed[..out_d];
    let filter = &filter[..out_d * in_d];
    let rq = Requant16::new(&p.quant, &p.clamp);
    let at = |i: usize| {
        let (ox, oy, b) = (i % out_w, (i / out_w) % out_h, i / (out_w * out_h));
        &input[((b * in_h + oy * g.stride_height) * in_w + ox * g.stride_width) * in_d..][..in_d]
    };
    let output = &mut output[..n_px * out_d];
    let mut pairs = output.chunks_exact_mut(2 * out_d);
    let mut i = 0;
    for pair in &mut pairs {
        let (o0, o1) = pair.split_at_mut(out_d);
        // SAFETY: this function's target features.
        unsafe { rows::<2>([at(i), at(i + 1)], in_d, filter, folded, &rq, [o0, o1]) };
        i += 2;
    }
    let last = pairs.into_remainder();
    if !last.is_empty() {
        // SAFETY: as above.
        unsafe { rows::<1>([at(i)], in_d, filter, folded, &rq, [last]) };
    }
}

/// Every window gathered (taps outside the input set to the zero point, as the AVX2 form
/// does), two output pixels per pass, then [`rows`].
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
unsafe fn gathered(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, _, _, _] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let k = f_h * f_w * f_d;
    let n_px = batches * out_h * out_w;
    if out_d == 0 || n_px == 0 || k == 0 || k > GATHER_MAX {
        return;
    }
    let folded = &packed[..out_d];
    let filter = &filter[..out_d * k];
    let rq = Requant16::new(&p.quant, &p.clamp);
    let pixel = |i: usize| [i / (out_w * out_h), (i / out_w) % out_h, i % out_w];
    let (mut buf0, mut buf1) = ([0i8; GATHER_MAX], [0i8; GATHER_MAX]);
    let (col0, col1) = (&mut buf0[..k], &mut buf1[..k]);
    let output = &mut output[..n_px * out_d];
    let mut pairs = output.chunks_exact_mut(2 * out_d);
    let mut i = 0;
    for pair in &mut pairs {
        let (o0, o1) = pair.split_at_mut(out_d);
        gather(p, input, pixel(i), col0);
        gather(p, input, pixel(i + 1), col1);
        // SAFETY: this function's target features.
        unsafe { rows::<2>([&*col0, &*col1], k, filter, folded, &rq, [o0, o1]) };
        i += 2;
    }
    let last = pairs.into_remainder();
    if !last.is_empty() {
        gather(p, input, pixel(i), col0);
        // SAFETY: as above.
        unsafe { rows::<1>([&*col0], k, filter, folded, &rq, [last]) };
    }
}

#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
unsafe fn dot4(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let (depth, units, batches) = (p.geometry.input_depth, p.geometry.output_depth, p.geometry.batches);
    if units == 0 || batches == 0 {
        return;
    }
    let folded = &packed[..units];
    let filter = &filter[..units * depth];
    let rq = Requant16::new(&p.quant, &p.clamp);
    let output = &mut output[..batches * units];
    let input = &input[..batches * depth];
    let mut pairs = output.chunks_exact_mut(2 * units);
    let mut xs = input.chunks_exact(depth);
    for pair in &mut pairs {
        let (o0, o1) = pair.split_at_mut(units);
        let (Some(x0), Some(x1)) = (xs.next(), xs.next()) else { return };
        // SAFETY: this function's target features.
        unsafe { rows::<2>([x0, x1], depth, filter, folded, &rq, [o0, o1]) };
    }
    let last = pairs.into_remainder();
    if let (false, Some(x)) = (last.is_empty(), xs.next()) {
        // SAFETY: as above.
        unsafe { rows::<1>([x], depth, filter, folded, &rq, [last]) };
    }
}
