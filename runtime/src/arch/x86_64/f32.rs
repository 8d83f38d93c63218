//! x86-64 AVX2+FMA forms of the packed float32 variants (`kernels::f32x8`): eight lanes in a
//! `__m256`, `vfmadd231ps` per tap (one rounding, where the reference has two), `vmaxps` /
//! `vminps` for the clamp. The loop nests are the generic ones of `kernels::f32x8`,
//! instantiated inside one `#[target_feature(enable = "avx2,fma")]` entry per kernel (the
//! `#[inline(always)]` loop nest and vector methods inline into it).

use super::Avx2;
use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::f32x8::{self, F32x8};
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::F32;
use core::arch::x86_64::*;
use core::sync::atomic::{AtomicU8, Ordering};

/// Proof that this CPU executes AVX2 and FMA (and the OS saves the YMM state).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Fma {
    _private: (),
}

/// 0: not detected yet, 1: no FMA, 2: FMA.
static FMA: AtomicU8 = AtomicU8::new(0);

impl Avx2Fma {
    /// `Some` when [`crate::isa`] selected AVX2 and the CPU has FMA (`cpuid` leaf 1, ECX bit
    /// 12; checked once and cached).
    #[inline]
    pub(crate) fn selected() -> Option<Avx2Fma> {
        let avx2 = crate::isa::avx2()?;
        Self::with(avx2)
    }

    /// `Some` when the CPU also has FMA.
    pub(crate) fn with(_avx2: Avx2) -> Option<Avx2Fma> {
        let fma = match FMA.load(Ordering::Relaxed) {
            1 => false,
            2 => true,
            _ => {
                let has = cfg!(target_feature = "fma") || {
                    // SAFETY: `cpuid` exists on every x86-64 CPU, and leaf 1 on every one with
                    // AVX2 (which the token proves).
                    #[allow(unused_unsafe)]
                    let l1 = unsafe { __cpuid(1) };
                    l1.ecx & (1 << 12) != 0
                };
                FMA.store(if has { 2 } else { 1 }, Ordering::Relaxed);
                has
            }
        };
        fma.then_some(Avx2Fma { _private: () })
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
