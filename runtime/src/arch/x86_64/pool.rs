//! AVX2 AVERAGE_POOL_2D int8: each window's cells summed eight channels at a time in int32
//! lanes (`vpmovsxbd`, `vpaddd`; the order of an integer sum does not matter), then TFLite's
//! rounded division `(sum ± count / 2) / count` (C's truncating division; `+` for a positive
//! sum) in double precision: `vcvtdq2pd`, `vdivpd`, `vcvttpd2dq`. That is exact: the
//! numerator and `count` are integers below `2^31` (exact in f64), an integer quotient is
//! exact, and a quotient `q` that is not one is at least `1 / count` from every integer,
//! farther than the division's rounding error `|q| 2^-53` (`|q| <= 129`), so truncation
//! lands where the integer division does. The clamp and narrowing follow. Bit for bit
//! `kernels::average_pool_2d::scalar::average_pool_2d::<S8>`, which a window with no cell
//! inside (a precondition violation) is left to.

use super::elementwise::Src;
use super::Avx2;
use crate::kernels::average_pool_2d::AveragePool2dParams;
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// `kernels::average_pool_2d::average_pool_2d_s8` on AVX2.
pub(crate) fn average_pool_2d_s8(_: Avx2, p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) {
    // SAFETY: the token proves that the CPU executes AVX2.
    if !unsafe { average_pool(p, input, output) } {
        crate::kernels::average_pool_2d::scalar::average_pool_2d(p, input, output)
    }
}

/// The eight lanes of `sum` averaged over `count` cells (TFLite's rounding), clamped to
/// `min..=max` inside int8, as int8.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn average8(sum: __m256i, count: i32, min: i32, max: i32) -> [i8; 8] {
    // SAFETY: register-only AVX2 intrinsics, executable by the caller's guarantee.
    unsafe {
        let half = _mm256_set1_epi32(count / 2);
        let positive = _mm256_cmpgt_epi32(sum, _mm256_setzero_si256());
        let num = _mm256_blendv_epi8(_mm256_sub_epi32(sum, half), _mm256_add_epi32(sum, half), positive);
        let d = _mm256_set1_pd(count as f64);
        let lo = _mm256_cvttpd_epi32(_mm256_div_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(num)), d));
        let hi = _mm256_cvttpd_epi32(_mm256_div_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256::<1>(num)), d));
        let q = _mm256_set_m128i(hi, lo);
        let v = _mm256_min_epi32(_mm256_max_epi32(q, _mm256_set1_epi32(min)), _mm256_set1_epi32(max));
        let w = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        (_mm_cvtsi128_si64(_mm_packs_epi16(w, w)) as u64).to_le_bytes().map(|b| b as i8)
    }
}

/// `false` (output incomplete) when a window has no cell inside the input.
#[target_feature(enable = "avx2")]
fn average_pool(p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) -> bool {
    let g = &p.geometry;
    let [_, in_h, in_w, depth] = g.input_shape;
    let (min, max) = (p.clamp.min as i32, p.clamp.max as i32);
    for (out_pixel, b, ys, xs) in g.windows() {
        let count = ys.len() * xs.len();
        if count == 0 || count > 1 << 23 {
            return false;
        }
        let mut c0 = 0;
        while c0 < depth {
            let n = (depth - c0).min(8);
            let mut acc = _mm256_setzero_si256();
            for iy in ys.clone() {
                for ix in xs.clone() {
                    let cells: [i8; 8] = Src::Row(&input[((b * in_h + iy) * in_w + ix) * depth + c0..][..n]).chunk(0);
                    // SAFETY: AVX2; the load reads the 8 bytes of `cells`.
                    acc = unsafe { _mm256_add_epi32(acc, _mm256_cvtepi8_epi32(_mm_loadl_epi64(cells.as_ptr().cast()))) };
                }
            }
            // SAFETY: AVX2.
            let r = unsafe { average8(acc, count as i32, min, max) };
            output[out_pixel + c0..][..n].copy_from_slice(&r[..n]);
            c0 += 8;
        }
    }
    true
}
