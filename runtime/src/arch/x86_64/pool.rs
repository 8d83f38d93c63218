//! AVX2 AVERAGE_POOL_2D int8: a micro-kernel of the one host loop nest
//! (`crate::kernels::average_pool_2d::lanes::drive`), eight channels per pass. Each cell
//! is widened into int32 lanes (`vpmovsxbd`, `vpaddd`); the store divides with TFLite's
//! rounding `(sum ± count / 2) / count` (C's truncating division; `+` for a positive sum) in
//! double precision: `vcvtdq2pd`, `vdivpd`, `vcvttpd2dq`. That is exact: the numerator and
//! `count` are integers below `2^31` (exact in f64), an integer quotient is exact, and a
//! quotient `q` that is not one is at least `1 / count` from every integer, farther than
//! the division's rounding error `|q| 2^-53` (`|q| <= 129`), so truncation lands where the
//! integer division does. The clamp and narrowing follow.

use super::Avx2;
use crate::kernels::elementwise::lanes::Src;
use crate::kernels::average_pool_2d::lanes::{drive, PoolMicro};
use crate::kernels::average_pool_2d::AveragePool2dParams;
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// `kernels::average_pool_2d::average_pool_2d_s8` on AVX2.
pub(crate) fn average_pool_2d_s8(t: Avx2, p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) {
    #[target_feature(enable = "avx2")]
    fn entry(m: &Avx2Pool, p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) -> bool {
        drive(m, p, input, output)
    }
    // SAFETY: the token proves that the CPU executes AVX2.
    if !unsafe { entry(&Avx2Pool(t), p, input, output) } {
        crate::kernels::average_pool_2d::scalar::average_pool_2d(p, input, output)
    }
}

/// The AVX2 micro-kernel (the token).
struct Avx2Pool(Avx2);

impl PoolMicro for Avx2Pool {
    const LANES: usize = 8;
    type Acc = __m256i;

    #[inline(always)]
    fn zero(&self) -> __m256i {
        // SAFETY: the token proves AVX2.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    fn add(&self, acc: __m256i, cells: &[i8]) -> __m256i {
        let cells: [i8; 8] = Src::Row(cells).chunk(0);
        // SAFETY: the token proves AVX2; the load reads the 8 bytes of `cells`.
        unsafe { _mm256_add_epi32(acc, _mm256_cvtepi8_epi32(_mm_loadl_epi64(cells.as_ptr().cast()))) }
    }

    #[inline(always)]
    fn store(&self, sum: __m256i, count: i32, min: i32, max: i32, out: &mut [i8]) {
        // SAFETY: register-only AVX2 intrinsics; the token proves AVX2.
        let r = unsafe {
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
        };
        let n = out.len();
        out.copy_from_slice(&r[..n]);
    }
}
