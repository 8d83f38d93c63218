//! x86-64 AVX-VNNI kernels: the VEX-encoded 256-bit `vpdpbusd` that Intel's client CPUs
//! (Alder Lake and later, 2021) have without AVX-512, with x86-64-v3 (AVX2, FMA). The int8
//! CONV_2D and FULLY_CONNECTED `Quad` variants read the same packed tables as the AVX2 and
//! AVX-512 VNNI forms (`crate::kernels::conv_2d::quad`'s layout): four u8 x i8 products
//! summed into each int32 lane, never saturating, so the sums are the reference's.
//!
//! - CONV_2D ([`quad`]): a micro-kernel of the one `Quad` driver; eight pixels per pass,
//!   tiles of four pixels times one block of sixteen channels (two registers of eight
//!   lanes, eight accumulators), no widening and no horizontal sums (the AVX2 form widens
//!   to int16 and adds lane pairs).
//! - FULLY_CONNECTED ([`fc`]): a micro-kernel of the one `Quad` row walk
//!   (`crate::kernels::fully_connected::quad_rows`), up to four blocks of sixteen units per
//!   broadcast quad.
//! - Requantization: AVX2's eight-lane `super::Requant8`.
//!
//! Entry points take an [`AvxVnni`] token, which only [`AvxVnni::detect`] (or
//! `crate::isa`, after detection) makes.

pub(crate) mod fc;
pub(crate) mod quad;

pub(crate) use fc::fully_connected_s8_quad;
pub(crate) use quad::conv_2d_s8_quad;

/// Proof that this CPU executes x86-64-v3 (AVX2, FMA, F16C) and AVX-VNNI.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AvxVnni {
    _private: (),
}

impl AvxVnni {
    /// The token without detection.
    ///
    /// # Safety
    /// The CPU executes x86-64-v3 and AVX-VNNI ([`crate::isa::x86_features`] said so).
    #[inline(always)]
    pub(crate) unsafe fn after_detection() -> AvxVnni {
        AvxVnni { _private: () }
    }

    /// `Some` when this CPU executes x86-64-v3 and AVX-VNNI (`super::features`, detected once
    /// by [`crate::isa::x86_features`]).
    #[cfg(test)]
    pub(crate) fn detect() -> Option<AvxVnni> {
        use crate::isa::x86::{AVXVNNI, V3};
        (crate::isa::x86_features() & (V3 | AVXVNNI) == V3 | AVXVNNI).then_some(AvxVnni { _private: () })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::AvxVnni;

    /// Whether the suites can run the AVX-VNNI variants here (std's detection, independent
    /// of [`AvxVnni::detect`], which must agree).
    pub(crate) fn detected() -> bool {
        let std_says = super::super::tests::detected() && std::is_x86_feature_detected!("avxvnni");
        assert_eq!(std_says, AvxVnni::detect().is_some(), "cpuid detection disagrees with std");
        std_says
    }
}
