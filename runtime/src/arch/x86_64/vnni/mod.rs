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
/// x86-64-v3, AVX512F/BW/DQ/VL and AVX512-VNNI.
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

    /// `Some` when this CPU executes x86-64-v3, x86-64-v4 (AVX-512 F/BW/DQ/VL) and
    /// AVX512-VNNI (`super::features`, detected once by [`crate::isa::x86_features`]).
    #[cfg(test)]
    pub(crate) fn detect() -> Option<Avx512Vnni> {
        use crate::isa::x86::{V3, V4, VNNI512};
        (crate::isa::x86_features() & (V3 | V4 | VNNI512) == V3 | V4 | VNNI512).then_some(Avx512Vnni { _private: () })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! The kernel suites run the AVX-512 VNNI forms through the variant tables with
    //! [`crate::isa::under`]; here the detection check, the token, and the rows kernels
    //! called directly (which `select` does not give the suite's cases).
    use super::Avx512Vnni;
    use crate::kernels::conv_2d::{Conv2dParams, Conv2dVariant};
    use crate::kernels::numerics::S8;
    use std::vec;

    /// Whether the suites can run the VNNI variants here (std's detection, independent of
    /// [`Avx512Vnni::detect`], which must agree).
    pub(crate) fn detected() -> bool {
        let std_says = super::super::tests::detected()
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512vnni");
        assert_eq!(std_says, Avx512Vnni::detect().is_some(), "cpuid detection disagrees with std");
        std_says
    }

    pub(crate) fn token() -> Avx512Vnni {
        Avx512Vnni::detect().expect("the suite checked detection first")
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
}
