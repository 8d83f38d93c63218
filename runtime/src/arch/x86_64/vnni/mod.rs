//! x86-64 AVX-512 VNNI kernels (AVX512F + BW + VL + VNNI): CONV_2D `Wide` (int8 and legacy
//! uint8), `Pointwise` and `Window`, and FULLY_CONNECTED `Dot4`, reading exactly the packed
//! tables the AVX2 kernels read (the compiler's packing does not depend on the build host,
//! and a host build cannot know at compile time which of the two the CPU has).
//!
//! - **`Wide`** ([`wide`]): the int16 tap pairs of `crate::kernels::conv_2d::wide`, multiplied
//!   and accumulated by `vpdpwssd` (`vpmaddwd` and `vpaddd` in one instruction; int16 x int16
//!   pairs, exact as in the AVX2 form) on sixteen int32 lanes: two packed blocks of eight
//!   output channels per register, or, for a last single block, one block for two pixels.
//!   The window rows are gathered and widened as the AVX2 form does, eight pixels at a time.
//! - **Rows** ([`rows`]: `Pointwise`, `Window`, `Dot4`): the model's int8 OHWI / `[units,
//!   depth]` rows times gathered int8 rows with `vpdpbusd` (four u8 x i8 products per lane,
//!   summed into int32 without saturation, so it is exact). The unsigned operand is the
//!   weight, `w + 128` (`w ^ 0x80`, once per loaded register, shared by the pixels), the
//!   signed one the activation as is: `sum (w + 128) x = sum w x + 128 sum x`, and
//!   `128 sum x` (one per pixel row, shared by every channel) is subtracted before the
//!   folded bias is added. The correction thus depends on the input only, so the tables
//!   need no second folded bias and stay the ones every other host variant reads; the
//!   accumulation wraps in int32 like the reference's (a ring), so the result is the
//!   reference's bit for bit.
//! - **Depthwise** ([`depthwise`]): multiplier 1 (int8 with at least sixteen channels,
//!   and uint8), 32 channels per pass, the weights widened once per call into int16 tap
//!   pairs for `vpdpwssd`, channel tails and border taps masked; other shapes take the AVX2
//!   form.
//! - **Requantization** ([`Requant16`]): `MultiplyByQuantizedMultiplier` on sixteen lanes,
//!   the same arithmetic as `super::Requant8` (`vpmuldq` high multiply with the `2^30` nudge,
//!   `vpsravd` rounding shift), the round-up test as a mask register, the narrowing by
//!   `vpmovsdb` / `vpmovusdb` (exact after the clamp) and a masked byte store for channel
//!   tails. An `i32::MIN` multiplier takes the scalar `Requant`.
//!
//! Entry points take an [`Avx512Vnni`] token, which only [`Avx512Vnni::detect`] makes.

pub(crate) mod depthwise;
pub(crate) mod elementwise;
pub(crate) mod fc_quad;
pub(crate) mod pool;
pub(crate) mod quad;
pub(crate) mod requant;
pub(crate) mod rows;
pub(crate) mod wide;

pub(crate) use depthwise::{depthwise_conv_2d_u8_window, depthwise_window};
pub(crate) use elementwise::{add_s8, add_s8_in_place, mul_s8, mul_s8_in_place, sub_s8, sub_s8_in_place};
pub(crate) use pool::average_pool_2d_s8;
pub(crate) use requant::Requant16;
pub(crate) use rows::{conv_2d_pointwise, conv_2d_window, fully_connected_dot4};
pub(crate) use quad::conv_2d_s8_quad;
pub(crate) use fc_quad::fully_connected_s8_quad;
pub(crate) use wide::{conv_2d_s8_wide, conv_2d_u8_wide};

use super::Avx2;

/// Proof that this CPU (and its OS, which must save the ZMM and opmask state) executes
/// AVX2, AVX512F, AVX512BW, AVX512VL and AVX512-VNNI.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Vnni {
    _private: (),
}

impl Avx512Vnni {
    /// The token without detection.
    ///
    /// # Safety
    /// [`Avx512Vnni::detect`] returned `Some` earlier in this process.
    #[inline(always)]
    pub(crate) unsafe fn after_detection() -> Avx512Vnni {
        Avx512Vnni { _private: () }
    }

    /// The AVX2 token this one implies ([`Avx512Vnni::detect`] checks AVX2 first).
    #[inline(always)]
    pub(crate) fn avx2(self) -> Avx2 {
        // SAFETY: an `Avx512Vnni` exists only after `Avx2::detect` returned `Some`.
        unsafe { Avx2::after_detection() }
    }

    /// `Some` when AVX2 ([`Avx2::detect`]) and AVX512F/BW/VL/VNNI are usable: at compile time
    /// when the build enables them all, else from `cpuid` (leaf 7: AVX512F ebx bit 16,
    /// AVX512BW bit 30, AVX512VL bit 31, AVX512_VNNI ecx bit 11) and XCR0 (bits 1, 2: XMM and
    /// YMM; 5, 6, 7: opmask, ZMM_Hi256, Hi16_ZMM). [`crate::isa`] calls it once and caches
    /// the answer.
    pub(crate) fn detect() -> Option<Avx512Vnni> {
        Avx2::detect()?;
        if cfg!(all(target_feature = "avx512f", target_feature = "avx512bw", target_feature = "avx512vl", target_feature = "avx512vnni")) {
            return Some(Avx512Vnni { _private: () });
        }
        use core::arch::x86_64::{__cpuid_count, _xgetbv};
        // SAFETY: `Avx2::detect` returned `Some`, so leaf 7 exists and OSXSAVE is set (XCR0
        // is readable).
        #[allow(unused_unsafe)]
        let (l7, xcr0) = unsafe { (__cpuid_count(7, 0), _xgetbv(0)) };
        let ebx_bits = (1 << 16) | (1 << 30) | (1 << 31);
        let has = l7.ebx & ebx_bits == ebx_bits && l7.ecx & (1 << 11) != 0 && xcr0 & 0b1110_0110 == 0b1110_0110;
        has.then_some(Avx512Vnni { _private: () })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! The AVX-512 VNNI variants as the kernel suites run them: select (for
    //! `TargetClass::X86`) and pack as the compiler does, then call the VNNI function
    //! directly (whatever `crate::isa` selected).
    use super::Avx512Vnni;
    use crate::kernels::conv_2d::{Conv2dParams, Conv2dVariant};
    use crate::kernels::depthwise_conv_2d::{DepthwiseConv2dParams, DepthwiseConv2dVariant};
    use crate::kernels::fully_connected::{FullyConnectedParams, FullyConnectedVariant};
    use crate::kernels::numerics::S8;
    use std::vec;

    /// Whether the suites can run the VNNI variants here (std's detection, independent of
    /// [`Avx512Vnni::detect`], which must agree).
    pub(crate) fn detected() -> bool {
        let std_says = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512vnni");
        assert_eq!(std_says, Avx512Vnni::detect().is_some(), "cpuid detection disagrees with std");
        std_says
    }

    pub(crate) fn token() -> Avx512Vnni {
        Avx512Vnni::detect().expect("the suite checked detection first")
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

    /// The rows kernels (`Pointwise`, `Window`) whatever `select` picks for the host (it
    /// picks `Wide` for every window that fits it), so that the suite's cases reach them.
    pub(crate) fn conv_2d_rows(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        let v = Conv2dVariant::select(p, filter, bias, crate::isa::TargetClass::X86);
        if v == Conv2dVariant::Reference {
            return crate::kernels::conv_2d::conv_2d_s8(p, input, filter, bias, output);
        }
        let mut packed = vec![0i32; Conv2dVariant::Window.packed_len(&p.geometry)];
        Conv2dVariant::Window.pack(p, filter, bias, &mut packed);
        let g = &p.geometry;
        let [_, f_h, f_w, _] = g.filter_shape;
        let [_, in_h, in_w, _] = g.input_shape;
        let [_, out_h, out_w, _] = g.output_shape;
        let inside = |out: usize, stride: usize, size: usize| out == 0 || (out - 1) * stride < size;
        let pointwise = f_h == 1
            && f_w == 1
            && g.pad_top == 0
            && g.pad_left == 0
            && inside(out_h, g.stride_height, in_h)
            && inside(out_w, g.stride_width, in_w);
        if pointwise {
            super::conv_2d_pointwise(token(), p, input, filter, &packed, output)
        } else {
            super::conv_2d_window(token(), p, input, filter, bias, &packed, output)
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
