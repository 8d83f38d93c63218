//! aarch64 NEON forms of the packed float32 variants (`kernels::f32x8`): eight lanes as two
//! `float32x4_t`, `FMLA` per tap (one rounding), `FMAX` / `FMIN` for the clamp. NEON is part
//! of the base aarch64 ISA (`target_feature = "neon"`), so there is no run-time detection.

use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::f32x8::{self, F32x8};
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::F32;
use core::arch::aarch64::*;

/// Proof that the build targets NEON (every aarch64 target in practice).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neon {
    _private: (),
}

impl Neon {
    /// Always `Some` in a build with `target_feature = "neon"` (this module is compiled only
    /// there).
    #[inline]
    pub(crate) fn selected() -> Option<Neon> {
        Some(Neon { _private: () })
    }
}

impl F32x8 for Neon {
    type V = (float32x4_t, float32x4_t);
    #[inline(always)]
    fn splat(self, x: f32) -> Self::V {
        // SAFETY: NEON is enabled at compile time (this module is built only then).
        let v = unsafe { vdupq_n_f32(x) };
        (v, v)
    }
    #[inline(always)]
    fn load(self, s: &[f32; 8]) -> Self::V {
        // SAFETY: NEON is enabled at compile time; `s` is eight readable floats.
        unsafe { (vld1q_f32(s.as_ptr()), vld1q_f32(s.as_ptr().add(4))) }
    }
    #[inline(always)]
    fn store(self, v: Self::V, s: &mut [f32; 8]) {
        // SAFETY: NEON is enabled at compile time; `s` is eight writable floats.
        unsafe {
            vst1q_f32(s.as_mut_ptr(), v.0);
            vst1q_f32(s.as_mut_ptr().add(4), v.1);
        }
    }
    #[inline(always)]
    fn mul_add(self, acc: Self::V, a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: NEON is enabled at compile time; register operands only.
        unsafe { (vfmaq_f32(acc.0, a.0, b.0), vfmaq_f32(acc.1, a.1, b.1)) }
    }
    #[inline(always)]
    fn add(self, a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: NEON is enabled at compile time; register operands only.
        unsafe { (vaddq_f32(a.0, b.0), vaddq_f32(a.1, b.1)) }
    }
    #[inline(always)]
    fn clamp(self, v: Self::V, lo: Self::V, hi: Self::V) -> Self::V {
        // SAFETY: NEON is enabled at compile time; register operands only.
        unsafe { (vminq_f32(vmaxq_f32(v.0, lo.0), hi.0), vminq_f32(vmaxq_f32(v.1, lo.1), hi.1)) }
    }
}

/// `conv_2d_f32_packed` with NEON.
pub(crate) fn conv_2d_f32_packed(t: Neon, p: &Conv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    f32x8::conv_2d(t, p, input, packed, output)
}

/// `depthwise_conv_2d_f32_packed` with NEON.
pub(crate) fn depthwise_conv_2d_f32_packed(t: Neon, p: &DepthwiseConv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    f32x8::depthwise_conv_2d(t, p, input, packed, output)
}

/// `fully_connected_f32_packed` with NEON.
pub(crate) fn fully_connected_f32_packed(t: Neon, p: &FullyConnectedParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    f32x8::fully_connected(t, p, input, packed, output)
}
