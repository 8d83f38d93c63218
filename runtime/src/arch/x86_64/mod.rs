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

pub(crate) mod conv;
pub(crate) mod depthwise;
pub(crate) mod elementwise;
pub(crate) mod f32;
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

/// Proof that this CPU (and its OS, which must save the YMM registers) executes AVX2.
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

    /// `Some` when AVX2 is usable: at compile time when the build enables it
    /// (`-C target-feature=+avx2`, `target-cpu=native`), else from `cpuid` (leaf 1: OSXSAVE and
    /// AVX; XCR0: XMM and YMM state; leaf 7: AVX2). [`crate::isa`] calls it once and caches
    /// the answer.
    pub(crate) fn detect() -> Option<Avx2> {
        if cfg!(target_feature = "avx2") {
            return Some(Avx2 { _private: () });
        }
        use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
        // SAFETY: `cpuid` exists on every x86-64 CPU; leaf 0 reports the highest leaf.
        #[allow(unused_unsafe)]
        let max_leaf = unsafe { __cpuid(0) }.eax;
        if max_leaf < 7 {
            return None;
        }
        // SAFETY: as above; leaf 1 exists.
        #[allow(unused_unsafe)]
        let l1 = unsafe { __cpuid(1) };
        let (osxsave, avx) = (l1.ecx & (1 << 27) != 0, l1.ecx & (1 << 28) != 0);
        if !(osxsave && avx) {
            return None;
        }
        // SAFETY: OSXSAVE is set, so `xgetbv` is enabled and XCR0 is readable.
        let xcr0 = unsafe { _xgetbv(0) };
        if xcr0 & 0b110 != 0b110 {
            return None;
        }
        // SAFETY: leaf 7 exists (max_leaf >= 7).
        #[allow(unused_unsafe)]
        let l7 = unsafe { __cpuid_count(7, 0) };
        (l7.ebx & (1 << 5) != 0).then_some(Avx2 { _private: () })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! The AVX2 variants as the kernel suites run them: select (for `TargetClass::X86`) and
    //! pack as the compiler does, then call the AVX2 function directly (whatever `crate::isa`
    //! selected).
    use super::Avx2;
    use crate::kernels::conv_2d::{Conv2dParams, Conv2dVariant};
    use crate::kernels::depthwise_conv_2d::{DepthwiseConv2dParams, DepthwiseConv2dVariant};
    use crate::kernels::fully_connected::{FullyConnectedParams, FullyConnectedVariant};
    use crate::kernels::numerics::S8;
    use std::vec;

    /// Whether the suites can run the AVX2 variants here (std's detection, independent of
    /// [`Avx2::detect`], which must agree).
    pub(crate) fn detected() -> bool {
        let std_says = std::is_x86_feature_detected!("avx2");
        assert_eq!(std_says, Avx2::detect().is_some(), "cpuid detection disagrees with std");
        std_says
    }

    fn token() -> Avx2 {
        Avx2::detect().expect("the suite checked detection first")
    }

    pub(crate) fn conv_2d(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        conv_2d_for(crate::isa::TargetClass::X86, p, input, filter, bias, output)
    }

    /// What another host selects (`Wide` where x86-64 takes `Quad`), in this form.
    pub(crate) fn conv_2d_wide(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        conv_2d_for(crate::isa::TargetClass::Host, p, input, filter, bias, output)
    }

    fn conv_2d_for(class: crate::isa::TargetClass, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        let v = Conv2dVariant::select(p, filter, bias, class);
        let mut packed = vec![0i32; v.packed_len(&p.geometry)];
        v.pack(p, filter, bias, &mut packed);
        match v {
            Conv2dVariant::Reference => crate::kernels::conv_2d::conv_2d_s8(p, input, filter, bias, output),
            Conv2dVariant::Pointwise => super::conv_2d_pointwise(token(), p, input, filter, &packed, output),
            Conv2dVariant::Window => super::conv_2d_window(token(), p, input, filter, bias, &packed, output),
            Conv2dVariant::Wide => super::conv_2d_s8_wide(token(), p, input, &packed, output),
            Conv2dVariant::Quad => super::conv_2d_s8_quad(token(), p, input, &packed, output),
            // Not selected for hosts; the portable variant if it were.
            Conv2dVariant::Gemm => crate::kernels::conv_2d::conv_2d_s8_gemm(p, input, &packed, output),
            Conv2dVariant::GemmChunked => crate::kernels::conv_2d::conv_2d_s8_gemm_chunked(p, input, &packed, output),
        }
    }

    pub(crate) fn depthwise_conv_2d(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        let v = DepthwiseConv2dVariant::select(p, filter, bias, crate::isa::TargetClass::X86);
        let mut packed = vec![0i32; v.packed_len(&p.geometry)];
        v.pack(p, filter, bias, &mut packed);
        match v {
            DepthwiseConv2dVariant::Reference => crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8(p, input, filter, bias, output),
            DepthwiseConv2dVariant::Window => super::depthwise_window(token(), p, input, filter, bias, &packed, output),
            // Not selected for `TargetClass::X86`; the portable variants if they were.
            DepthwiseConv2dVariant::Mult1 => crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8_mult1(p, input, &packed, output),
            DepthwiseConv2dVariant::OneChannel => crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8_one_channel(p, input, &packed, output),
        }
    }

    pub(crate) fn fully_connected(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        fully_connected_for(crate::isa::TargetClass::X86, p, input, filter, bias, output)
    }

    /// What another host selects (`Dot4` where x86-64 takes `Quad`), in this form.
    pub(crate) fn fully_connected_other_host(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        fully_connected_for(crate::isa::TargetClass::Host, p, input, filter, bias, output)
    }

    fn fully_connected_for(class: crate::isa::TargetClass, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        let v = FullyConnectedVariant::select(p, filter, bias, class);
        let mut packed = vec![0i32; v.packed_len(&p.geometry)];
        v.pack(p, filter, bias, &mut packed);
        match v {
            FullyConnectedVariant::Reference => crate::kernels::fully_connected::fully_connected_s8(p, input, filter, bias, output),
            FullyConnectedVariant::Dot4 => super::fully_connected_dot4(token(), p, input, filter, &packed, output),
            FullyConnectedVariant::Interleaved => crate::kernels::fully_connected::fully_connected_s8_interleaved(p, input, &packed, output),
            FullyConnectedVariant::Quad => super::fully_connected_s8_quad(token(), p, input, &packed, output),
        }
    }
}
