//! AVX-512 AVERAGE_POOL_2D int8: a micro-kernel of the one host loop nest
//! (`crate::kernels::average_pool_2d::lanes::drive`), sixteen channels per pass with masked
//! loads and stores for the channel tail; the AVX2 micro-kernel's division (`super::super::pool`,
//! whose module doc says why the double-precision division is exact) on sixteen lanes.

use super::Avx512Vnni;
use crate::kernels::average_pool_2d::lanes::{drive, PoolMicro};
use crate::kernels::average_pool_2d::AveragePool2dParams;
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// `kernels::average_pool_2d::average_pool_2d_s8` on AVX-512.
pub(crate) fn average_pool_2d_s8(t: Avx512Vnni, p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) {
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
    fn entry(m: &Avx512Pool, p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) -> bool {
        drive(m, p, input, output)
    }
    // SAFETY: the token proves that the CPU executes AVX-512 VNNI (F, BW, VL).
    if !unsafe { entry(&Avx512Pool(t), p, input, output) } {
        crate::kernels::average_pool_2d::scalar::average_pool_2d(p, input, output)
    }
}

/// The AVX-512 micro-kernel (the token).
struct Avx512Pool(Avx512Vnni);

/// The mask of the first `n <= 16` lanes.
#[inline(always)]
fn first(n: usize) -> u16 {
    ((1u32 << n) - 1) as u16
}

impl PoolMicro for Avx512Pool {
    const LANES: usize = 16;
    type Acc = __m512i;

    #[inline(always)]
    fn zero(&self) -> __m512i {
        // SAFETY: the token proves AVX512F.
        unsafe { _mm512_setzero_si512() }
    }

    #[inline(always)]
    fn add(&self, acc: __m512i, cells: &[i8]) -> __m512i {
        // SAFETY: the token proves AVX512F/BW/VL; the masked load reads the first
        // `cells.len() <= 16` bytes of `cells` (masked-off bytes are not read).
        unsafe { _mm512_add_epi32(acc, _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(first(cells.len()), cells.as_ptr()))) }
    }

    #[inline(always)]
    fn store(&self, sum: __m512i, count: i32, min: i32, max: i32, out: &mut [i8]) {
        // SAFETY: the token proves AVX512F/BW/VL; register-only intrinsics, then the masked
        // store writes the first `out.len() <= 16` bytes of `out`.
        unsafe {
            let half = _mm512_set1_epi32(count / 2);
            let positive = _mm512_cmpgt_epi32_mask(sum, _mm512_setzero_si512());
            let num = _mm512_mask_add_epi32(_mm512_sub_epi32(sum, half), positive, sum, half);
            let d = _mm512_set1_pd(count as f64);
            let lo = _mm512_cvttpd_epi32(_mm512_div_pd(_mm512_cvtepi32_pd(_mm512_castsi512_si256(num)), d));
            let hi = _mm512_cvttpd_epi32(_mm512_div_pd(_mm512_cvtepi32_pd(_mm512_extracti64x4_epi64::<1>(num)), d));
            let q = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi);
            let v = _mm512_min_epi32(_mm512_max_epi32(q, _mm512_set1_epi32(min)), _mm512_set1_epi32(max));
            _mm_mask_storeu_epi8(out.as_mut_ptr(), first(out.len()), _mm512_cvtsepi32_epi8(v));
        }
    }
}
