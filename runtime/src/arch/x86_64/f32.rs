//! x86-64 AVX2+FMA forms of the packed float32 variants (`kernels::f32x8`): eight lanes in a
//! `__m256`, `vfmadd231ps` per tap (one rounding, where the reference has two), `vmaxps` /
//! `vminps` for the clamp. The loop nests are the generic ones of `kernels::f32x8`,
//! instantiated inside one `#[target_feature(enable = "avx2,fma")]` entry per kernel (the
//! `#[inline(always)]` loop nest and vector methods inline into it).
//!
//! AVX-512 ([`Avx512F32`]): CONV_2D's blocks of 16 output channels are one `__m512` each,
//! eight output pixels per block (eight accumulators, one weight load and eight broadcast
//! FMAs per tap, where AVX2 needs two loads and eight FMAs for four pixels), through the same
//! loop nest (`f32x8::conv_2d_blocks`). Every output is computed by the same sequence of
//! fused multiply-adds as in the AVX2+FMA form (its bias, then its taps in `(ky, kx, ic)`
//! order), so the two give the same bits (the operators' `float32::packed_avx512_bits` suites check it). Depthwise and
//! FULLY_CONNECTED read two packed 8-lane blocks per `__m512` (`F32Blocks`: the second half
//! inserted with `vinsertf64x4`, a missing last block as zeros): depthwise 8 pixels times 16
//! channels per pass (`f32x8::depthwise_blocks`), FULLY_CONNECTED 64 units per pass
//! (`f32x8::fully_connected_blocks`), each output with the AVX2+FMA form's chain of fused
//! multiply-adds (the same bits).

use super::Avx2;
use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::f32x8::{self, F32Blocks, F32x16, F32x8, LANES};
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::F32;
use core::arch::x86_64::*;

/// Proof that this CPU executes AVX2 and FMA (and the OS saves the YMM state).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Fma {
    _private: (),
}

impl Avx2Fma {
    /// `Some` when [`crate::isa`] selected an implementation with x86-64-v3 (AVX2 and FMA).
    #[inline]
    pub(crate) fn selected() -> Option<Avx2Fma> {
        crate::isa::avx2().map(Self::with)
    }

    /// The float token the AVX2 (x86-64-v3) token implies.
    pub(crate) fn with(_avx2: Avx2) -> Avx2Fma {
        Avx2Fma { _private: () }
    }
}

impl F32x8 for Avx2Fma {
    type V = __m256;
    #[inline(always)]
    fn splat(self, x: f32) -> __m256 {
        // SAFETY: the token proves AVX.
        unsafe { _mm256_set1_ps(x) }
    }
    #[inline(always)]
    fn load(self, s: &[f32; 8]) -> __m256 {
        // SAFETY: the token proves AVX; `s` is eight readable floats (unaligned load).
        unsafe { _mm256_loadu_ps(s.as_ptr()) }
    }
    #[inline(always)]
    fn store(self, v: __m256, s: &mut [f32; 8]) {
        // SAFETY: the token proves AVX; `s` is eight writable floats (unaligned store).
        unsafe { _mm256_storeu_ps(s.as_mut_ptr(), v) }
    }
    #[inline(always)]
    fn mul_add(self, acc: __m256, a: __m256, b: __m256) -> __m256 {
        // SAFETY: the token proves FMA.
        unsafe { _mm256_fmadd_ps(a, b, acc) }
    }
    #[inline(always)]
    fn add(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: the token proves AVX.
        unsafe { _mm256_add_ps(a, b) }
    }
    #[inline(always)]
    fn clamp(self, v: __m256, lo: __m256, hi: __m256) -> __m256 {
        // SAFETY: the token proves AVX.
        unsafe { _mm256_min_ps(_mm256_max_ps(v, lo), hi) }
    }
}

#[target_feature(enable = "avx2,fma")]
fn conv_entry(t: Avx2Fma, p: &Conv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    f32x8::conv_2d(t, p, input, packed, output)
}

#[target_feature(enable = "avx2,fma")]
fn depthwise_entry(t: Avx2Fma, p: &DepthwiseConv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    f32x8::depthwise_conv_2d(t, p, input, packed, output)
}

#[target_feature(enable = "avx2,fma")]
fn fc_entry(t: Avx2Fma, p: &FullyConnectedParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    f32x8::fully_connected(t, p, input, packed, output)
}

/// `conv_2d_f32_packed` with AVX2+FMA.
pub(crate) fn conv_2d_f32_packed(t: Avx2Fma, p: &Conv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    // SAFETY: the token proves AVX2 and FMA.
    unsafe { conv_entry(t, p, input, packed, output) }
}

/// `depthwise_conv_2d_f32_packed` with AVX2+FMA.
pub(crate) fn depthwise_conv_2d_f32_packed(t: Avx2Fma, p: &DepthwiseConv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    // SAFETY: the token proves AVX2 and FMA.
    unsafe { depthwise_entry(t, p, input, packed, output) }
}

/// `fully_connected_f32_packed` with AVX2+FMA.
pub(crate) fn fully_connected_f32_packed(t: Avx2Fma, p: &FullyConnectedParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    // SAFETY: the token proves AVX2 and FMA.
    unsafe { fc_entry(t, p, input, packed, output) }
}

/// Proof that this CPU executes x86-64-v4 (AVX-512 F/BW/DQ/VL, with the OS saving the ZMM
/// and opmask state) and x86-64-v3 (AVX2, FMA): [`crate::isa::avx512`] makes it when the
/// selected implementation includes both (with or without VNNI).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512F32 {
    _private: (),
}

impl Avx512F32 {
    /// `Some` when the selected host implementation includes x86-64-v4.
    #[inline]
    pub(crate) fn selected() -> Option<Avx512F32> {
        crate::isa::avx512()
    }

    /// The token without detection.
    ///
    /// # Safety
    /// The CPU executes x86-64-v3 and x86-64-v4 ([`crate::isa::x86_features`] said so).
    #[inline(always)]
    pub(crate) unsafe fn after_detection() -> Avx512F32 {
        Avx512F32 { _private: () }
    }

    /// `Some` when this CPU executes x86-64-v3 and v4, whatever [`crate::isa`] selected (the
    /// suites).
    #[cfg(test)]
    pub(crate) fn detect() -> Option<Avx512F32> {
        use crate::isa::x86::{V3, V4};
        (crate::isa::x86_features() & (V3 | V4) == V3 | V4).then_some(Avx512F32 { _private: () })
    }
}

impl F32x16 for Avx512F32 {
    type V = __m512;
    type S = __m512;
    #[inline(always)]
    fn splat16(self, x: f32) -> __m512 {
        // SAFETY: the token proves AVX-512F.
        unsafe { _mm512_set1_ps(x) }
    }
    #[inline(always)]
    fn load16(self, s: &[f32; 16]) -> __m512 {
        // SAFETY: the token proves AVX-512F; `s` is sixteen readable floats (unaligned load).
        unsafe { _mm512_loadu_ps(s.as_ptr()) }
    }
    #[inline(always)]
    fn mul_add16(self, acc: __m512, x: __m512, w: __m512) -> __m512 {
        // SAFETY: the token proves AVX-512F (`vfmadd231ps` on zmm).
        unsafe { _mm512_fmadd_ps(x, w, acc) }
    }
    #[inline(always)]
    fn clamp_store16(self, v: __m512, lo: __m512, hi: __m512, out: &mut [f32], at: usize, n: usize) {
        let n = n.min(16).min(out.len().saturating_sub(at));
        let Some(dst) = out.get_mut(at..at + n) else {
            debug_assert!(false, "packed float store out of range");
            return;
        };
        let mask: __mmask16 = if dst.len() >= 16 { !0 } else { (1u16 << dst.len()) - 1 };
        // SAFETY: the token proves AVX-512F; the masked store writes only the lanes of `mask`,
        // which are `dst`'s `dst.len()` writable floats (masked-off lanes are not accessed).
        unsafe { _mm512_mask_storeu_ps(dst.as_mut_ptr(), mask, _mm512_min_ps(_mm512_max_ps(v, lo), hi)) }
    }
}

impl F32Blocks for Avx512F32 {
    type V = __m512;
    const BLOCKS: usize = 2;
    #[inline(always)]
    fn splat_b(self, x: f32) -> __m512 {
        self.splat16(x)
    }
    #[inline(always)]
    fn load_blocks(self, packed: &[f32], block: usize, first: usize, at: usize) -> __m512 {
        let half = |k: usize| packed.get((first + k) * block + at..).and_then(|s| s.first_chunk::<LANES>());
        let (Some(lo), hi) = (half(0), half(1)) else {
            debug_assert!(false, "packed float read out of range");
            return self.splat16(0.0);
        };
        // SAFETY: the token proves AVX-512F (and AVX); `lo` and `hi` are eight readable
        // floats each (unaligned loads). `vinsertf64x4` is AVX-512F (the cast is free).
        unsafe {
            let lo = _mm512_castps256_ps512(_mm256_loadu_ps(lo.as_ptr()));
            let hi = match hi {
                Some(h) => _mm256_loadu_ps(h.as_ptr()),
                None => _mm256_setzero_ps(),
            };
            _mm512_castpd_ps(_mm512_insertf64x4::<1>(_mm512_castps_pd(lo), _mm256_castps_pd(hi)))
        }
    }
    #[inline(always)]
    fn load_full(self, s: &[f32], at: usize) -> __m512 {
        self.load16(f32x8::at16(s, at))
    }
    #[inline(always)]
    fn load_n(self, s: &[f32], at: usize, n: usize) -> __m512 {
        if let Some(v) = s.get(at..).and_then(|s| s.first_chunk::<16>()) {
            return self.load16(v);
        }
        // The last channels of the last pixel: fewer than 16 values left.
        let n = n.min(16).min(s.len().saturating_sub(at));
        let Some(src) = s.get(at..at + n) else {
            debug_assert!(false, "packed float read out of range");
            return self.splat16(0.0);
        };
        let mask: __mmask16 = if src.len() >= 16 { !0 } else { (1u16 << src.len()) - 1 };
        // SAFETY: the token proves AVX-512F; the masked load reads only the lanes of `mask`,
        // which are `src`'s `src.len()` readable floats (masked-off lanes are not accessed and
        // read as zero).
        unsafe { _mm512_maskz_loadu_ps(mask, src.as_ptr()) }
    }
    #[inline(always)]
    fn mul_add_b(self, acc: __m512, a: __m512, b: __m512) -> __m512 {
        self.mul_add16(acc, a, b)
    }
    #[inline(always)]
    fn add_b(self, a: __m512, b: __m512) -> __m512 {
        // SAFETY: the token proves AVX-512F.
        unsafe { _mm512_add_ps(a, b) }
    }
    #[inline(always)]
    fn clamp_store_b(self, v: __m512, lo: __m512, hi: __m512, out: &mut [f32], at: usize, n: usize) {
        self.clamp_store16(v, lo, hi, out, at, n)
    }
}

/// Output pixels per CONV_2D block with AVX-512: eight `__m512` accumulators.
const AVX512_CONV_PIXELS: usize = 8;

#[target_feature(enable = "avx512f,avx2,fma")]
fn conv_entry_avx512(t: Avx512F32, p: &Conv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    f32x8::conv_2d_blocks::<Avx512F32, AVX512_CONV_PIXELS>(t, p, input, packed, output)
}

/// Output pixels per depthwise pass with AVX-512: eight `__m512` accumulators.
const AVX512_DEPTHWISE_PIXELS: usize = 8;

#[target_feature(enable = "avx512f,avx2,fma")]
fn depthwise_entry_avx512(t: Avx512F32, p: &DepthwiseConv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    f32x8::depthwise_blocks::<Avx512F32, AVX512_DEPTHWISE_PIXELS>(t, p, input, packed, output)
}

#[target_feature(enable = "avx512f,avx2,fma")]
fn fc_entry_avx512(t: Avx512F32, p: &FullyConnectedParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    f32x8::fully_connected_blocks(t, p, input, packed, output)
}

/// The AVX-512 forms.
pub(crate) mod avx512 {
    use super::*;

    /// `depthwise_conv_2d_f32_packed` with AVX-512F (and FMA).
    pub(crate) fn depthwise_conv_2d_f32_packed(t: Avx512F32, p: &DepthwiseConv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
        // SAFETY: the token proves AVX-512F, AVX2 and FMA.
        unsafe { depthwise_entry_avx512(t, p, input, packed, output) }
    }

    /// `fully_connected_f32_packed` with AVX-512F (and FMA).
    pub(crate) fn fully_connected_f32_packed(t: Avx512F32, p: &FullyConnectedParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
        // SAFETY: the token proves AVX-512F, AVX2 and FMA.
        unsafe { fc_entry_avx512(t, p, input, packed, output) }
    }

    /// `conv_2d_f32_packed` with AVX-512F (and FMA).
    pub(crate) fn conv_2d_f32_packed(t: Avx512F32, p: &Conv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
        // SAFETY: the token proves AVX-512F, AVX2 and FMA.
        unsafe { conv_entry_avx512(t, p, input, packed, output) }
    }
}
