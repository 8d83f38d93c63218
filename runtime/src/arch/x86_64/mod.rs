//! x86-64 AVX2 kernels for the int8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED variants.
//!
//! The products are exact without any bias correction: int8 operands are sign-extended to
//! int16 (`vpmovsxbw`) and multiplied pairwise into int32 (`vpmaddwd`, |pair sum| <= 2^15,
//! never saturating), as XNNPACK's AVX2 QS8 kernels do, or (depthwise, one product per
//! lane) multiplied in int16 (`vpmullw`: |x * w| <= 2^14 is exact). The accumulation wraps in
//! int32 like the reference's (a ring: any order gives the same sums), so the fast variants'
//! folded bias (`bias + input_offset * sum(w)`, compile time, ISA-independent) is used as is.
//! The `vpmaddubsw` u8 x i8 form would need the input offset by 128 and a second folded bias,
//! and saturates in int16 for two products of 255 * 127; it is not used.
//!
//! Requantization ([`Requant8`]) is TFLite's `MultiplyByQuantizedMultiplier` on eight lanes:
//! the left shift, `SaturatingRoundingDoublingHighMul` from the two 32x32->64 products of
//! `vpmuldq` (`(x * m + 2^30) >> 31`, which equals TFLite's nudged, truncating division),
//! `RoundingDivideByPOT` with the per-lane shift (`vpsravd`), the output offset and the clamp.
//! A table holding the one multiplier for which the high multiply saturates (`i32::MIN`)
//! takes the scalar `Requant` instead, exactly as the portable variants do.
//!
//! Entry points take an [`Avx2`] token: only [`Avx2::detect`] makes one, after checking that
//! the CPU and the OS execute AVX2, so the safe wrappers can call the
//! `#[target_feature(enable = "avx2")]` kernels (the attribute is at the kernel entry; the
//! helpers are `#[inline(always)]` into it).

pub(crate) mod avxvnni;
pub(crate) mod conv;
pub(crate) mod depthwise;
pub(crate) mod elementwise;
pub(crate) mod f32;
pub(crate) mod features;
pub(crate) mod fc;
pub(crate) mod gemm;
pub(crate) mod pool;
pub(crate) mod quad;
pub(crate) mod requant;
pub(crate) mod vnni;
pub(crate) mod wide;

pub(crate) use conv::{conv_2d_pointwise, conv_2d_window};
pub(crate) use depthwise::{depthwise_conv_2d_u8_window, depthwise_window};
pub(crate) use elementwise::{add_s8, add_s8_in_place, mul_s8, mul_s8_in_place, sub_s8, sub_s8_in_place};
pub(crate) use fc::{fully_connected_dot4, fully_connected_s8_quad};
pub(crate) use pool::average_pool_2d_s8;
pub(crate) use quad::conv_2d_s8_quad;
pub(crate) use requant::Requant8;
pub(crate) use wide::{conv_2d_s8_wide, conv_2d_u8_wide};

/// Proof that this CPU (and its OS, which must save the YMM registers) executes AVX2, FMA
/// and F16C (x86-64-v3's vector part).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2 {
    _private: (),
}

impl Avx2 {
    /// The token without detection (which runs `cpuid`: slow, and a VM exit in a guest).
    ///
    /// # Safety
    /// [`Avx2::detect`] returned `Some` earlier in this process.
    #[inline(always)]
    pub(crate) unsafe fn after_detection() -> Avx2 {
        Avx2 { _private: () }
    }

    /// `Some` when this CPU executes x86-64-v3 (AVX2, FMA, F16C; [`features`], detected
    /// once by [`crate::isa::x86_features`]).
    #[cfg(test)]
    pub(crate) fn detect() -> Option<Avx2> {
        let v3 = crate::isa::x86::V3;
        (crate::isa::x86_features() & v3 == v3).then_some(Avx2 { _private: () })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! The kernel suites run the AVX2 forms through the variant tables with
    //! [`crate::isa::under`]; here only the detection check.
    use super::Avx2;

    /// Whether the suites can run the AVX2 (x86-64-v3) forms here (std's detection,
    /// independent of [`Avx2::detect`], which must agree).
    pub(crate) fn detected() -> bool {
        let std_says = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") && std::is_x86_feature_detected!("f16c");
        assert_eq!(std_says, Avx2::detect().is_some(), "cpuid detection disagrees with std");
        std_says
    }
}
