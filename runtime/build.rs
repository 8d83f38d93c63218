//! Sets `cfg(tflc_arm_dsp)` when building for an Armv7E-M target (`thumbv7em-*`: Cortex-M4
//! and M7, whose DSP extension is mandatory). The `dsp` target feature is unstable, so stable
//! Rust does not expose `cfg(target_feature = "dsp")`; the target name is the stable signal.
//! `TFLC_RUNTIME_SCALAR=1` keeps the portable micro-kernels (to measure or bisect).

fn main() {
    println!("cargo:rustc-check-cfg=cfg(tflc_arm_dsp)");
    println!("cargo:rerun-if-env-changed=TFLC_RUNTIME_SCALAR");
    let target = std::env::var("TARGET").unwrap_or_default();
    let forced_scalar = std::env::var("TFLC_RUNTIME_SCALAR").is_ok_and(|v| v == "1");
    if target.starts_with("thumbv7em") && !forced_scalar {
        println!("cargo:rustc-cfg=tflc_arm_dsp");
    }
}
