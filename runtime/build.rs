//! Sets `cfg(tflc_arm_dsp)` for targets with the Arm DSP instructions (SXTB16, SXTAB16,
//! SMLAD, SMLABB/SMLATT): Armv7E-M (`thumbv7em-*`: Cortex-M4 and M7, where the DSP
//! extension is mandatory) and ARMv7-A (`armv7-*`/`thumbv7neon-*`, which has them in the
//! base ISA). The `dsp` target feature is unstable, so stable Rust does not expose
//! `cfg(target_feature = "dsp")`; the target name is the stable signal. `crate::isa` maps
//! the cfg to an implementation. `TFLC_RUNTIME_SCALAR=1` keeps the portable micro-kernels
//! (to measure or bisect). `cfg(tflc_thumb)` marks Thumb-2 targets (`thumb*`), whose LDRD
//! takes any pair of registers.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(tflc_arm_dsp)");
    println!("cargo:rustc-check-cfg=cfg(tflc_runtime_scalar)");
    println!("cargo:rustc-check-cfg=cfg(tflc_thumb)");
    println!("cargo:rerun-if-env-changed=TFLC_RUNTIME_SCALAR");
    let target = std::env::var("TARGET").unwrap_or_default();
    let forced_scalar = std::env::var("TFLC_RUNTIME_SCALAR").is_ok_and(|v| v == "1");
    let dsp = ["thumbv7em", "armv7-", "armv7a-", "thumbv7neon-"].iter().any(|p| target.starts_with(p));
    if forced_scalar {
        // Also keeps the host SIMD kernels unselected (`crate::isa`).
        println!("cargo:rustc-cfg=tflc_runtime_scalar");
    }
    if dsp && !forced_scalar {
        println!("cargo:rustc-cfg=tflc_arm_dsp");
    }
    // Thumb-2 code (the Cortex-M targets, thumbv7neon): LDRD takes any two registers there,
    // an even register and its successor in A32 code (`armv7-*`); `dot::dsp` says which.
    if target.starts_with("thumb") {
        println!("cargo:rustc-cfg=tflc_thumb");
    }
}
