//! Sets `cfg(tflc_arm_dsp)` for targets with the Arm DSP instructions (SXTB16, SXTAB16,
//! SMLAD, SMLABB/SMLATT): Armv7E-M (`thumbv7em-*`: Cortex-M4 and M7, where the DSP
//! extension is mandatory) and ARMv7-A (`armv7-*`/`thumbv7neon-*`, which has them in the
//! base ISA), and Armv8-M Mainline (`thumbv8m.main-*`, where the DSP extension is optional)
//! when the build names a core that has it (`-C target-cpu=cortex-m33`, `cortex-m35p`,
//! `cortex-m55`, `cortex-m85`) or enables it (`-C target-feature=+dsp`), read from
//! `CARGO_ENCODED_RUSTFLAGS`. The `dsp` target feature is unstable, so stable Rust does not
//! expose `cfg(target_feature = "dsp")` (`rustc --print cfg` lists no Arm feature even with
//! `-C target-cpu=cortex-m55`); the target name and the flags are the stable signal. `crate::isa` maps
//! the cfg to an implementation. `TFLC_RUNTIME_SCALAR=1` keeps the portable micro-kernels
//! (to measure or bisect). `cfg(tflc_thumb)` marks Thumb-2 targets (`thumb*`), whose LDRD
//! takes any pair of registers. `cfg(tflc_neon)`: aarch64 with NEON and without
//! `TFLC_RUNTIME_SCALAR=1`, the host NEON kernels. `cfg(tflc_mve)`: an Armv8-M Mainline build
//! (`thumbv8m.main-*`) whose flags name a core with Helium (`-C target-cpu=cortex-m55` or
//! `cortex-m85`) or enable it (`-C target-feature=+mve` / `+mve.fp` together with `+lob`, the
//! low-overhead loops the kernels use; a later `-mve` wins),
//! and not `TFLC_RUNTIME_SCALAR=1`: the Helium micro-kernels (`kernels::dot::mve`), which
//! also use the DSP instructions (every Helium core has them), so `tflc_mve` comes with
//! `tflc_arm_dsp`.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(tflc_arm_dsp)");
    println!("cargo:rustc-check-cfg=cfg(tflc_runtime_scalar)");
    println!("cargo:rustc-check-cfg=cfg(tflc_thumb)");
    println!("cargo:rustc-check-cfg=cfg(tflc_neon)");
    println!("cargo:rustc-check-cfg=cfg(tflc_mve)");
    println!("cargo:rerun-if-env-changed=TFLC_RUNTIME_SCALAR");
    let target = std::env::var("TARGET").unwrap_or_default();
    let forced_scalar = std::env::var("TFLC_RUNTIME_SCALAR").is_ok_and(|v| v == "1");
    // Helium implies the DSP extension (Armv8.1-M requires it with MVE; LLVM's `+mve` turns
    // `dsp` on), so a `+mve` build without a CPU gets both.
    let mve = target.starts_with("thumbv8m.main") && v8m_has_mve();
    let dsp = ["thumbv7em", "armv7-", "armv7a-", "thumbv7neon-"].iter().any(|p| target.starts_with(p))
        || (target.starts_with("thumbv8m.main") && v8m_has_dsp())
        || mve;
    if forced_scalar {
        // Also keeps the host SIMD kernels unselected (`crate::isa`).
        println!("cargo:rustc-cfg=tflc_runtime_scalar");
    }
    if dsp && !forced_scalar {
        println!("cargo:rustc-cfg=tflc_arm_dsp");
    }
    if mve && !forced_scalar {
        println!("cargo:rustc-cfg=tflc_mve");
    }
    // Thumb-2 code (the Cortex-M targets, thumbv7neon): LDRD takes any two registers there,
    // an even register and its successor in A32 code (`armv7-*`); `dot::dsp` says which.
    if target.starts_with("thumb") {
        println!("cargo:rustc-cfg=tflc_thumb");
    }
    // aarch64 with NEON (every aarch64 target rustc has): the NEON kernels (`crate::arch::
    // aarch64`), unless the portable ones are forced.
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    if arch == "aarch64" && features.split(',').any(|f| f == "neon") && !forced_scalar {
        println!("cargo:rustc-cfg=tflc_neon");
    }
}

/// Whether the target's rustflags give an Armv8-M Mainline build the DSP extension: the last
/// `target-cpu` is a core with it, or the last `+dsp`/`-dsp` in `target-feature` is `+dsp`
/// (a later `-dsp` wins, as in rustc).
fn v8m_has_dsp() -> bool {
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let mut cpu_dsp = false;
    let mut feature_dsp = None;
    for (i, f) in flags.iter().enumerate() {
        let value = |key: &str| {
            f.strip_prefix("-C").and_then(|v| v.strip_prefix(key)).or_else(|| (*f == "-C").then(|| flags.get(i + 1).and_then(|n| n.strip_prefix(key))).flatten())
        };
        if let Some(cpu) = value("target-cpu=") {
            cpu_dsp = ["cortex-m33", "cortex-m35p", "cortex-m55", "cortex-m85"].contains(&cpu);
        }
        if let Some(features) = value("target-feature=") {
            for feat in features.split(',') {
                match feat {
                    "+dsp" => feature_dsp = Some(true),
                    "-dsp" => feature_dsp = Some(false),
                    _ => {}
                }
            }
        }
    }
    feature_dsp.unwrap_or(cpu_dsp)
}

/// Whether the target's rustflags give an Armv8-M Mainline build Helium (MVE) and the
/// Armv8.1-M low-overhead loops the kernels use (`WLS`/`LE`, `WLSTP`/`LETP`): the last
/// `target-cpu` is a core with both (`cortex-m55`, `cortex-m85`), or the last `+mve`/`-mve`
/// (also `+mve.fp`/`-mve.fp`) in `target-feature` is a `+` (a later `-mve` wins, as in rustc)
/// and the features also give the loops (`+lob`, or the CPU has them): LLVM's `+mve` alone,
/// or with `+v8.1m.main`, does not (`error: instruction requires: lob`).
fn v8m_has_mve() -> bool {
    let mut cpu_mve = false;
    let mut feature_mve = None;
    let mut feature_lob = false;
    for (key, value) in encoded_flags() {
        match key {
            "target-cpu=" => cpu_mve = ["cortex-m55", "cortex-m85"].contains(&value.as_str()),
            _ => {
                for feat in value.split(',') {
                    match feat {
                        "+mve" | "+mve.fp" => feature_mve = Some(true),
                        "-mve" | "-mve.fp" => feature_mve = Some(false),
                        "+lob" => feature_lob = true,
                        _ => {}
                    }
                }
            }
        }
    }
    match feature_mve {
        Some(on) => on && (cpu_mve || feature_lob),
        None => cpu_mve,
    }
}

/// The `-C target-cpu=` and `-C target-feature=` values of `CARGO_ENCODED_RUSTFLAGS`, in
/// order, with their key (`-Ckey=v` and `-C key=v` both).
fn encoded_flags() -> Vec<(&'static str, String)> {
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let mut out = Vec::new();
    for (i, f) in flags.iter().enumerate() {
        for key in ["target-cpu=", "target-feature="] {
            let v = f.strip_prefix("-C").and_then(|v| v.strip_prefix(key)).or_else(|| (*f == "-C").then(|| flags.get(i + 1).and_then(|n| n.strip_prefix(key))).flatten());
            if let Some(v) = v {
                out.push((key, v.to_string()));
            }
        }
    }
    out
}
