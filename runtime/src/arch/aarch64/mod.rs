//! aarch64 NEON kernels (issue 15): the int8 CONV_2D, DEPTHWISE_CONV_2D and
//! FULLY_CONNECTED variants, with and without the dot-product extension, and the packed
//! float32 variants ([`f32`]).
//!
//! The int8 kernels read the same packed tables as the portable variants and the x86-64
//! kernels (`TargetClass::Host`): `Wide`'s int16 pairs ([`wide`]), the model's int8 filters
//! with the folded bias (`Pointwise` [`conv`], `Dot4` [`fc`], depthwise `Window`
//! [`depthwise`]). Products are exact (`smull` into int16, `sadalp` / `saddw` / `smlal` into
//! int32, or `sdot`), accumulation wraps in int32 like the reference, and requantization is
//! [`Requant8`] (`sqrdmulh`, gemmlowp's rounding fixup, `srshl`), so outputs are
//! byte-identical with the scalar reference.
//!
//! NEON is part of the base aarch64 ISA: this module is compiled only when the build has
//! `target_feature = "neon"`, which is the proof behind the [`Neon`] token. The dot-product
//! extension (`sdot`, FEAT_DotProd: Cortex-A55/A75 and later, Apple M1, Neoverse) is
//! optional: [`Dotprod::detect`] takes it from the build (`-C target-feature=+dotprod`) or,
//! with the runtime's `std` feature (and in its tests), from
//! `std::arch::is_aarch64_feature_detected!`; [`crate::isa`] asks once and caches the
//! answer. `Wide` and depthwise have no `sdot` form: `Wide`'s int16 layout does not fit it,
//! and depthwise has one product per lane.

pub(crate) mod conv;
pub(crate) mod depthwise;
pub(crate) mod f32;
pub(crate) mod fc;
pub(crate) mod gemm;
pub(crate) mod requant;
pub(crate) mod wide;

pub(crate) use conv::conv_2d_pointwise;
pub(crate) use depthwise::depthwise_window;
pub(crate) use fc::fully_connected_dot4;
pub(crate) use requant::Requant8;
pub(crate) use wide::{conv_2d_s8_wide, conv_2d_u8_wide};

/// Proof that the build targets NEON (this module is compiled only then).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neon {
    _private: (),
}

impl Neon {
    /// The token: NEON is enabled for this build.
    #[inline(always)]
    pub(crate) fn new() -> Neon {
        Neon { _private: () }
    }
}

/// Proof that this CPU executes the dot-product extension (`sdot`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dotprod {
    _private: (),
}

impl Dotprod {
    /// The token without detection.
    ///
    /// # Safety
    /// [`Dotprod::detect`] returned `Some` earlier in this process.
    #[inline(always)]
    pub(crate) unsafe fn after_detection() -> Dotprod {
        Dotprod { _private: () }
    }

    /// `Some` when the dot-product extension is usable: at compile time when the build
    /// enables it (`-C target-feature=+dotprod`, `target-cpu=native` on such a CPU), else by
    /// the operating system's report (`std::arch::is_aarch64_feature_detected!`) when the
    /// runtime is built with its `std` feature or for its tests. A `no_std` build without
    /// the target feature reports `None` (reading `ID_AA64ISAR0_EL1` needs the OS's
    /// emulation of `mrs`, which not every OS provides) and runs the plain NEON forms.
    pub(crate) fn detect() -> Option<Dotprod> {
        if cfg!(target_feature = "dotprod") {
            return Some(Dotprod { _private: () });
        }
        #[cfg(any(test, feature = "std"))]
        if std::arch::is_aarch64_feature_detected!("dotprod") {
            return Some(Dotprod { _private: () });
        }
        None
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! The NEON variants as the kernel suites run them: select (for `TargetClass::Host`) and
    //! pack as the compiler does, then call the NEON function directly (whatever
    //! `crate::isa` selected), in the plain NEON form (`SDOT = false`) or the `sdot` form.
    use super::{Dotprod, Neon};
    use crate::kernels::conv_2d::{Conv2dParams, Conv2dVariant};
    use crate::kernels::depthwise_conv_2d::{DepthwiseConv2dParams, DepthwiseConv2dVariant};
    use crate::kernels::fully_connected::{FullyConnectedParams, FullyConnectedVariant};
    use crate::kernels::numerics::S8;
    use std::vec;

    /// Whether the suites can run the `sdot` forms here (std's detection, which
    /// [`Dotprod::detect`] must agree with).
    pub(crate) fn dotprod_detected() -> bool {
        let std_says = std::arch::is_aarch64_feature_detected!("dotprod");
        assert_eq!(std_says || cfg!(target_feature = "dotprod"), Dotprod::detect().is_some());
        Dotprod::detect().is_some()
    }

    fn dotprod() -> Dotprod {
        Dotprod::detect().expect("the suite checked detection first")
    }

    pub(crate) fn conv_2d<const SDOT: bool>(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        let v = Conv2dVariant::select(p, filter, bias, crate::isa::TargetClass::Host);
        let mut packed = vec![0i32; v.packed_len(&p.geometry)];
        v.pack(p, filter, bias, &mut packed);
        match v {
            Conv2dVariant::Reference => crate::kernels::conv_2d::conv_2d_s8(p, input, filter, bias, output),
            Conv2dVariant::Pointwise if SDOT => super::conv::conv_2d_pointwise_sdot(dotprod(), p, input, filter, &packed, output),
            Conv2dVariant::Pointwise => super::conv::conv_2d_pointwise_smull(Neon::new(), p, input, filter, &packed, output),
            // No NEON form: the portable variant with the NEON dot micro-kernels.
            Conv2dVariant::Window => crate::kernels::conv_2d::fast::conv_window::<crate::isa::Dot>(p, input, filter, bias, &packed, output),
            Conv2dVariant::Wide => super::conv_2d_s8_wide(Neon::new(), p, input, &packed, output),
            // x86-64 only; the portable variant if it were.
            Conv2dVariant::Quad => crate::kernels::conv_2d::quad::conv_quad(p, input, &packed, output),
            // Not selected for `TargetClass::Host`; the portable variant if it were.
            Conv2dVariant::Gemm => crate::kernels::conv_2d::conv_2d_s8_gemm(p, input, &packed, output),
            Conv2dVariant::GemmChunked => crate::kernels::conv_2d::conv_2d_s8_gemm_chunked(p, input, &packed, output),
            Conv2dVariant::GemmPw => crate::kernels::conv_2d::conv_2d_s8_gemm_pw(p, input, &packed, output),
            Conv2dVariant::GemmChunkedPw => crate::kernels::conv_2d::conv_2d_s8_gemm_chunked_pw(p, input, &packed, output),
        }
    }

    /// The 1x1 product of [`super::conv`] on every geometry the suite makes that it can
    /// take (1x1, no padding, ungrouped; others run the reference), whatever
    /// `Conv2dVariant::select` picks (`Wide` for almost all of them).
    pub(crate) fn conv_2d_pointwise<const SDOT: bool>(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        let g = &p.geometry;
        let [_, in_h, in_w, in_d] = g.input_shape;
        let [out_d, f_h, f_w, f_d] = g.filter_shape;
        let [_, out_h, out_w, _] = g.output_shape;
        let inside = |out: usize, stride: usize, size: usize| out == 0 || (out - 1) * stride < size;
        let pointwise = f_h == 1 && f_w == 1 && f_d == in_d && out_d > 0 && g.pad_top == 0 && g.pad_left == 0 && inside(out_h, g.stride_height, in_h) && inside(out_w, g.stride_width, in_w);
        if !pointwise {
            return crate::kernels::conv_2d::conv_2d_s8(p, input, filter, bias, output);
        }
        let v = Conv2dVariant::Pointwise;
        let mut packed = vec![0i32; v.packed_len(g)];
        v.pack(p, filter, bias, &mut packed);
        if SDOT {
            super::conv::conv_2d_pointwise_sdot(dotprod(), p, input, filter, &packed, output)
        } else {
            super::conv::conv_2d_pointwise_smull(Neon::new(), p, input, filter, &packed, output)
        }
    }

    pub(crate) fn depthwise_conv_2d(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        let v = DepthwiseConv2dVariant::select(p, filter, bias, crate::isa::TargetClass::Host);
        let mut packed = vec![0i32; v.packed_len(&p.geometry)];
        v.pack(p, filter, bias, &mut packed);
        match v {
            DepthwiseConv2dVariant::Reference => crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8(p, input, filter, bias, output),
            DepthwiseConv2dVariant::Window => super::depthwise_window(Neon::new(), p, input, filter, bias, &packed, output),
            // Not selected for `TargetClass::Host`; the portable variants if they were.
            DepthwiseConv2dVariant::Mult1 => crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8_mult1(p, input, &packed, output),
            DepthwiseConv2dVariant::OneChannel => crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8_one_channel(p, input, &packed, output),
        }
    }

    pub(crate) fn fully_connected<const SDOT: bool>(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
        let v = FullyConnectedVariant::select(p, filter, bias, crate::isa::TargetClass::Host);
        let mut packed = vec![0i32; v.packed_len(&p.geometry)];
        v.pack(p, filter, bias, &mut packed);
        match v {
            FullyConnectedVariant::Reference => crate::kernels::fully_connected::fully_connected_s8(p, input, filter, bias, output),
            FullyConnectedVariant::Dot4 if SDOT => super::fc::fully_connected_dot4_sdot(dotprod(), p, input, filter, &packed, output),
            FullyConnectedVariant::Dot4 => super::fc::fully_connected_dot4_smull(Neon::new(), p, input, filter, &packed, output),
            FullyConnectedVariant::Interleaved => crate::kernels::fully_connected::fully_connected_s8_interleaved(p, input, &packed, output),
            FullyConnectedVariant::Rows => crate::kernels::fully_connected::fully_connected_s8_rows(p, input, filter, &packed, output),
            // Not selected for aarch64 (`TargetClass::Host`); the portable form if it were.
            FullyConnectedVariant::Quad => crate::kernels::fully_connected::fully_connected_s8_quad(p, input, &packed, output),
        }
    }
}
