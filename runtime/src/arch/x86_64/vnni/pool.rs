//! AVX-512 AVERAGE_POOL_2D int8: the AVX2 form (`super::super::pool`, whose module doc says
//! why the double-precision division is exact) on sixteen channels per pass, with masked
//! loads and stores for the channel tail.

use super::Avx512Vnni;
use crate::kernels::average_pool_2d::AveragePool2dParams;
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// `kernels::average_pool_2d::average_pool_2d_s8` on AVX-512.
pub(crate) fn average_pool_2d_s8(_: Avx512Vnni, p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) {
    // SAFETY: the token proves that the CPU executes AVX-512 VNNI (F, BW, VL).
    if !unsafe { average_pool(p, input, output) } {
        crate::kernels::average_pool_2d::scalar::average_pool_2d(p, input, output)
    }
}

/// The sixteen lanes of `sum` averaged over `count` cells (TFLite's rounding), clamped to
/// `min..=max` inside int8, narrowed to int8.
///
/// # Safety
/// AVX512F.
#[inline(always)]
unsafe fn average16(sum: __m512i, count: i32, min: i32, max: i32) -> __m128i {
    // SAFETY: register-only AVX512F intrinsics, executable by the caller's guarantee.
    unsafe {
        let half = _mm512_set1_epi32(count / 2);
        let positive = _mm512_cmpgt_epi32_mask(sum, _mm512_setzero_si512());
        let num = _mm512_mask_add_epi32(_mm512_sub_epi32(sum, half), positive, sum, half);
        let d = _mm512_set1_pd(count as f64);
        let lo = _mm512_cvttpd_epi32(_mm512_div_pd(_mm512_cvtepi32_pd(_mm512_castsi512_si256(num)), d));
        let hi = _mm512_cvttpd_epi32(_mm512_div_pd(_mm512_cvtepi32_pd(_mm512_extracti64x4_epi64::<1>(num)), d));
        let q = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi);
        let v = _mm512_min_epi32(_mm512_max_epi32(q, _mm512_set1_epi32(min)), _mm512_set1_epi32(max));
        _mm512_cvtsepi32_epi8(v)
    }
}

/// `false` (output incomplete) when a window has no cell inside the input.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
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
            let n = (depth - c0).min(16);
            let k = ((1u32 << n) - 1) as u16;
            let mut acc = _mm512_setzero_si512();
            for iy in ys.clone() {
                for ix in xs.clone() {
                    let cells = &input[((b * in_h + iy) * in_w + ix) * depth + c0..][..n];
                    // SAFETY: AVX512BW/VL; the masked load reads the first `n` bytes
                    // of `cells`, which has `n` (masked-off bytes are not read).
                    acc = _mm512_add_epi32(acc, _mm512_cvtepi8_epi32(unsafe { _mm_maskz_loadu_epi8(k, cells.as_ptr()) }));
                }
            }
            let out = &mut output[out_pixel + c0..][..n];
            // SAFETY: AVX512F/BW/VL; the masked store writes the first `n` bytes of
            // `out`, which has `n`.
            unsafe { _mm_mask_storeu_epi8(out.as_mut_ptr(), k, average16(acc, count as i32, min, max)) };
            c0 += 16;
        }
    }
    true
}
