//! The x86-64 instruction-set features the kernels are written for, detected once (issue 27,
//! point 3: tokens for features, not a ladder of levels).
//!
//! Four groups, each a bit of [`Features`] (`crate::isa::x86`):
//!
//! - [`V3`]: x86-64-v3's vector part, AVX2 + FMA + F16C (and the OS saving the YMM state).
//!   The AVX2 int8 kernels and the AVX2+FMA float kernels.
//! - [`V4`]: x86-64-v4's AVX-512 F/BW/DQ/VL (and the OS saving the opmask and ZMM state).
//!   The AVX-512 float kernels; a CPU with AVX-512 but not VNNI runs them too.
//! - [`VNNI512`]: AVX512-VNNI (`vpdpbusd` on 512 bits; with [`V4`]): the int8 AVX-512 kernels.
//! - [`AVXVNNI`]: AVX-VNNI, the VEX-encoded 256-bit `vpdpbusd` that Intel's client CPUs have
//!   since Alder Lake (2021) without AVX-512 (with [`V3`]): the `avxvnni` int8 kernels.
//!
//! A build that enables a group's features at compile time (`-C target-cpu=native`,
//! `-C target-feature=+avx2,+fma,+f16c`) gets it without `cpuid`; otherwise [`detect`] asks
//! the CPU (`cpuid` leaves 1 and 7) and the OS (`xgetbv`). `crate::isa` caches the answer.

use crate::isa::x86::{Features, AVXVNNI, V3, V4, VNNI512};

/// The groups the build enables at compile time (each only with its prerequisites).
const fn compiled() -> Features {
    let v3 = cfg!(all(target_feature = "avx2", target_feature = "fma", target_feature = "f16c"));
    let v4 = v3 && cfg!(all(target_feature = "avx512f", target_feature = "avx512bw", target_feature = "avx512dq", target_feature = "avx512vl"));
    let mut f = 0;
    if v3 {
        f |= V3;
        if cfg!(target_feature = "avxvnni") {
            f |= AVXVNNI;
        }
    }
    if v4 {
        f |= V4;
        if cfg!(target_feature = "avx512vnni") {
            f |= VNNI512;
        }
    }
    f
}

/// Every group this CPU and OS execute: the compile-time ones, and what `cpuid` and `xgetbv`
/// report. A group needs its prerequisites: [`V4`] and [`AVXVNNI`] need [`V3`], [`VNNI512`]
/// needs [`V4`].
pub(crate) fn detect() -> Features {
    use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
    let mut f = compiled();
    // SAFETY: `cpuid` exists on every x86-64 CPU; leaf 0 reports the highest leaf.
    #[allow(unused_unsafe)]
    let max_leaf = unsafe { __cpuid(0) }.eax;
    if max_leaf < 7 {
        return f;
    }
    // SAFETY: as above; leaf 1 exists.
    #[allow(unused_unsafe)]
    let l1 = unsafe { __cpuid(1) };
    let bit = |r: u32, b: u32| r & (1 << b) != 0;
    // OSXSAVE (27), AVX (28), FMA (12), F16C (29).
    if !(bit(l1.ecx, 27) && bit(l1.ecx, 28)) {
        return f;
    }
    // SAFETY: OSXSAVE is set, so `xgetbv` is enabled and XCR0 is readable.
    let xcr0 = unsafe { _xgetbv(0) };
    // SAFETY: leaf 7 exists (max_leaf >= 7), sub-leaves 0 and 1.
    #[allow(unused_unsafe)]
    let (l7, l7_1) = unsafe { (__cpuid_count(7, 0), __cpuid_count(7, 1)) };
    let ymm = xcr0 & 0b110 == 0b110;
    let v3 = ymm && bit(l1.ecx, 12) && bit(l1.ecx, 29) && bit(l7.ebx, 5);
    if !v3 {
        return f;
    }
    f |= V3;
    // AVX-VNNI: leaf 7 sub-leaf 1, EAX bit 4.
    if bit(l7_1.eax, 4) {
        f |= AVXVNNI;
    }
    // AVX512F (16), DQ (17), BW (30), VL (31); XCR0 opmask (5), ZMM_Hi256 (6), Hi16_ZMM (7).
    let zmm = xcr0 & 0b1110_0000 == 0b1110_0000;
    let v4 = zmm && bit(l7.ebx, 16) && bit(l7.ebx, 17) && bit(l7.ebx, 30) && bit(l7.ebx, 31);
    if v4 {
        f |= V4;
        // AVX512_VNNI: ECX bit 11.
        if bit(l7.ecx, 11) {
            f |= VNNI512;
        }
    }
    f
}

#[cfg(test)]
mod tests {
    /// `detect` agrees with std's detection, group by group.
    #[test]
    fn agrees_with_std() {
        use std::is_x86_feature_detected as has;
        let f = super::detect();
        let v3 = has!("avx2") && has!("fma") && has!("f16c");
        assert_eq!(f & super::V3 != 0, v3);
        let v4 = v3 && has!("avx512f") && has!("avx512bw") && has!("avx512dq") && has!("avx512vl");
        assert_eq!(f & super::V4 != 0, v4);
        assert_eq!(f & super::VNNI512 != 0, v4 && has!("avx512vnni"));
        assert_eq!(f & super::AVXVNNI != 0, v3 && has!("avxvnni"));
    }
}
