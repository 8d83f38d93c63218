//! The one place that selects an instruction-set implementation for the kernels.
//!
//! Each ISA-specific kernel piece is a trait with one type per implementation (today the
//! dot micro-kernels, [`crate::kernels::dot::Dot`]: `Scalar` and `ArmDsp`); the public
//! kernels are instantiated with the type chosen here, at compile time, from `cfg`s that
//! `runtime/build.rs` sets from the target (`tflc_arm_dsp` for Armv7E-M and ARMv7-A, whose
//! DSP instructions stable Rust does not expose as a `target_feature`). No run-time
//! detection: the runtime is `no_std`, and the compiler already chose the kernel variant.
//! x86-64 and aarch64 implementations (issue 15) add a type and a line here.

/// The dot micro-kernels the public fast kernels use.
#[cfg(tflc_arm_dsp)]
pub(crate) type Dot = crate::kernels::dot::dsp::ArmDsp;
/// The dot micro-kernels the public fast kernels use.
#[cfg(not(tflc_arm_dsp))]
pub(crate) type Dot = crate::kernels::dot::scalar::Scalar;

/// The name of the selected dot implementation (`"scalar"`, `"arm-dsp"`).
pub const DOT: &str = <Dot as crate::kernels::dot::Dot>::NAME;

/// Every dot implementation, and whether this build compiled (and its tests exercise) it.
pub const DOT_IMPLEMENTATIONS: &[(&str, bool)] = &[("scalar", true), ("arm-dsp", cfg!(tflc_arm_dsp))];

#[cfg(test)]
mod tests {
    /// Prints which implementations this test run covers and which it does not (it cannot
    /// execute them), so that an untested implementation is reported as such, never as
    /// passed (`cargo test -- --nocapture isa` shows it). With `TFLC_TEST_FEATURE=arm-dsp`
    /// (`tools/test-runtime-armv7.sh`, CI) a build without the DSP implementation fails.
    #[test]
    fn report() {
        for &(name, tested) in super::DOT_IMPLEMENTATIONS {
            if crate::kernels::test_util::available(name, tested) {
                std::eprintln!("dot implementation {name}: tested");
            }
        }
        assert!(super::DOT_IMPLEMENTATIONS.iter().any(|&(n, t)| n == super::DOT && t));
    }
}
