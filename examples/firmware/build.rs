//! Selects the model, finds its golden data and writes to OUT_DIR:
//!
//! - `model.rs`: `tflc_macros::include_model!("<path relative to this crate>")`, so the model
//!   is compiled by the proc-macro (the path to `../shared` may be anywhere, hence generated);
//!   with the `op-markers` feature, instead the module itself, compiled here by the `tflc`
//!   library with the same options (the same code; run.sh's per-operator mode reads its
//!   `OPS` table for the order in which `run_with`'s observer sees the operators);
//! - `golden.rs`: `NAME`, `INPUTS` and `OUTPUTS`, golden run 0 as `include_bytes!` statics
//!   named `TFLC_FW_GOLDEN_*` (they go to flash, like the weights; run.sh subtracts their
//!   sizes, read from the ELF's symbols, from the flash figure);
//! - `inspect.json`: `tflc inspect --json` of the model (weight bytes, per-operator MACs),
//!   and `golden_bytes.txt`: the golden files' total size, both for run.sh;
//! - `memory.x`: the memory map for cortex-m-rt's `link.x`, by target: mps2-an386
//!   (Cortex-M4F, `thumbv7em-none-eabihf`), the BBC micro:bit's nRF51822 (Cortex-M0,
//!   `thumbv6m-none-eabi`), mps2-an505 (Cortex-M33) or mps3-an547 (Cortex-M55), both
//!   `thumbv8m.main-none-eabihf` told apart by `-C target-cpu`; for `riscv32*` instead
//!   `tflc-fw-riscv.x`, a whole linker script for QEMU `virt` (`src/riscv.rs` starts up).
//!
//! The model is the one enabled cargo feature (named after the model's file stem), or, with
//! no model feature, the `TFLC_FW_MODEL` environment variable (any model of
//! `shared/models` or `shared/ops/models` with golden data). `shared` is `TFLC_SHARED` or
//! `../../../shared` (this crate lives at `<repo>/examples/firmware`, `shared` beside `<repo>`).

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

/// Cargo features that do not name a model.
const NON_MODEL_FEATURES: &[&str] = &["op_markers", "dot_self_test"];

/// mps2-an386 (Cortex-M4F): 4 MiB of flash at 0, 4 MiB of RAM at 0x2000_0000. The stack
/// starts at the top of RAM and grows down towards the end of `.bss`/`.uninit`.
const MEMORY_X_MPS2_AN386: &str = "\
MEMORY
{
  FLASH : ORIGIN = 0x00000000, LENGTH = 4M
  RAM   : ORIGIN = 0x20000000, LENGTH = 4M
}
";

/// nRF51822 (BBC micro:bit, QEMU `-machine microbit`, Cortex-M0): 256 KiB of flash at 0,
/// 16 KiB of RAM at 0x2000_0000.
const MEMORY_X_NRF51: &str = "\
MEMORY
{
  FLASH : ORIGIN = 0x00000000, LENGTH = 256K
  RAM   : ORIGIN = 0x20000000, LENGTH = 16K
}
";

/// mps2-an505 (Cortex-M33, `thumbv8m.main-none-eabihf` with `-C target-cpu=cortex-m33`):
/// the core boots Secure (initial Secure VTOR 0x1000_0000) with the SAU off, so the Secure
/// aliases: 4 MiB of SSRAM1 at 0x1000_0000 (code, "flash"), SSRAM2+3 (2 + 2 MiB, contiguous)
/// at 0x3800_0000 (the shared QEMU plugin's README recipe).
const MEMORY_X_MPS2_AN505: &str = "\
MEMORY
{
  FLASH : ORIGIN = 0x10000000, LENGTH = 4M
  RAM   : ORIGIN = 0x38000000, LENGTH = 4M
}
";

/// mps3-an547 (Cortex-M55, `-C target-cpu=cortex-m55`), as TFLite Micro's M55 baseline
/// (`tflm_m55_results.md`): the load image in the 512 KiB ITCM at 0 (initial VTOR 0), RAM in
/// the 4 MiB SRAM at 0x2100_0000; the core boots Secure with the SAU off.
const MEMORY_X_MPS3_AN547: &str = "\
MEMORY
{
  FLASH : ORIGIN = 0x00000000, LENGTH = 512K
  RAM   : ORIGIN = 0x21000000, LENGTH = 4M
}
";

/// The whole linker script for RISC-V on QEMU `virt` (`src/riscv.rs` is the start-up), laid
/// out as TFLite Micro's RV32 baseline (`tflm_rv32_results.md`): a 4 MiB load region at
/// 0x8000_0000 standing in for flash (`.text`, `.rodata`, `.data`'s initial values), RAM at
/// 0x8040_0000 (`.data`, `.bss`, `.uninit`; the stack starts at the top of RAM and grows
/// down towards `_stack_end`, the end of the statics, as with cortex-m-rt: it is not a
/// section, so static RAM excludes it). `_start` is first in `.text`: `-bios none` jumps to
/// 0x8000_0000. The symbols are the ones `src/riscv.rs` and `src/stack.rs` use.
const LINK_X_RISCV_VIRT: &str = "\
MEMORY
{
  FLASH : ORIGIN = 0x80000000, LENGTH = 4M
  RAM   : ORIGIN = 0x80400000, LENGTH = 4M
}
ENTRY(_start)
SECTIONS
{
  .text ORIGIN(FLASH) :
  {
    KEEP(*(.text.start));
    *(.text .text.*);
  } > FLASH
  .rodata : ALIGN(16)
  {
    *(.srodata .srodata.*);
    *(.rodata .rodata.*);
    . = ALIGN(4);
  } > FLASH
  .data : ALIGN(16)
  {
    _sdata = .;
    *(.sdata .sdata.* .sdata2 .sdata2.*);
    *(.data .data.*);
    . = ALIGN(4);
    _edata = .;
  } > RAM AT > FLASH
  _sidata = LOADADDR(.data);
  .bss (NOLOAD) : ALIGN(16)
  {
    _sbss = .;
    *(.sbss .sbss.* .bss .bss.*);
    . = ALIGN(4);
    _ebss = .;
  } > RAM
  .uninit (NOLOAD) : ALIGN(4)
  {
    *(.uninit .uninit.*);
    . = ALIGN(4);
  } > RAM
  _stack_end = .;
  _stack_start = ORIGIN(RAM) + LENGTH(RAM);
  __global_pointer$ = _sdata + 0x800;
  /DISCARD/ : { *(.eh_frame .eh_frame_hdr) }
}
ASSERT(_stack_end + 32K <= _stack_start, \"tflc-firmware: less than 32 KiB of RAM left for the stack\");
";

/// `-C target-cpu=...` from the target's rustflags (cargo passes them to build scripts).
fn target_cpu() -> Option<String> {
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let mut cpu = None;
    for (i, f) in flags.iter().enumerate() {
        let v = if let Some(v) = f.strip_prefix("-Ctarget-cpu=") {
            Some(v)
        } else if *f == "-C" {
            flags.get(i + 1).and_then(|n| n.strip_prefix("target-cpu="))
        } else {
            None
        };
        if let Some(v) = v {
            cpu = Some(v.to_string());
        }
    }
    cpu
}

/// The linker script for the target being built: (file name, content); the Arm ones are
/// `memory.x` for cortex-m-rt's `link.x`.
fn linker_script() -> (&'static str, &'static str) {
    let target = std::env::var("TARGET").unwrap_or_default();
    match target.as_str() {
        "thumbv7em-none-eabihf" | "thumbv7em-none-eabi" => ("memory.x", MEMORY_X_MPS2_AN386),
        "thumbv6m-none-eabi" => ("memory.x", MEMORY_X_NRF51),
        "thumbv8m.main-none-eabihf" | "thumbv8m.main-none-eabi" => match target_cpu().as_deref() {
            // The Cortex-M85 build runs on the same board model (QEMU has no M85).
            Some("cortex-m55" | "cortex-m85") => ("memory.x", MEMORY_X_MPS3_AN547),
            Some("cortex-m33") => ("memory.x", MEMORY_X_MPS2_AN505),
            cpu => fail(&format!(
                "{target} with target-cpu {cpu:?}: build with RUSTFLAGS `-C target-cpu=cortex-m33` (mps2-an505) or `-C target-cpu=cortex-m55` / `cortex-m85` (mps3-an547)"
            )),
        },
        t if t.starts_with("riscv32") => ("tflc-fw-riscv.x", LINK_X_RISCV_VIRT),
        t => fail(&format!(
            "no memory map for target {t:?}: build for thumbv7em-none-eabihf (mps2-an386), thumbv6m-none-eabi (micro:bit), thumbv8m.main-none-eabihf (mps2-an505 / mps3-an547) or riscv32imc/riscv32imac-unknown-none-elf (virt)"
        )),
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("error: tflc-firmware: {msg}");
    std::process::exit(1);
}

fn selected_model() -> String {
    let mut features: Vec<String> = std::env::vars()
        .filter_map(|(k, _)| k.strip_prefix("CARGO_FEATURE_").map(|f| f.to_ascii_lowercase()))
        .filter(|f| !NON_MODEL_FEATURES.contains(&f.as_str()))
        .collect();
    features.sort();
    println!("cargo:rerun-if-env-changed=TFLC_FW_MODEL");
    let env = std::env::var("TFLC_FW_MODEL").ok().filter(|s| !s.is_empty());
    match (features.as_slice(), env) {
        ([one], None) => one.clone(),
        ([], Some(m)) => m,
        ([one], Some(m)) if *one == m => m,
        ([], None) => fail("no model selected: enable one model feature (e.g. --features tflm_hello_world_int8) or set TFLC_FW_MODEL=<model>"),
        (fs, env) => fail(&format!(
            "select exactly one model; features enabled: [{}], TFLC_FW_MODEL={}",
            fs.join(", "),
            env.unwrap_or_default()
        )),
    }
}

fn shared_dir(manifest: &Path) -> PathBuf {
    println!("cargo:rerun-if-env-changed=TFLC_SHARED");
    match std::env::var_os("TFLC_SHARED") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => manifest.join("../../../shared"),
    }
}

/// Lexical normalisation (no symlink resolution): drops `.` and folds `x/..`.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

/// `target` relative to `base`; both absolute.
fn relative(target: &Path, base: &Path) -> PathBuf {
    let (t, b) = (normalize(target), normalize(base));
    let tc: Vec<_> = t.components().collect();
    let bc: Vec<_> = b.components().collect();
    let common = tc.iter().zip(&bc).take_while(|(a, b)| a == b).count();
    let mut rel = PathBuf::new();
    for _ in common..bc.len() {
        rel.push("..");
    }
    for c in &tc[common..] {
        rel.push(c.as_os_str());
    }
    rel
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_else(|| fail("CARGO_MANIFEST_DIR unset")));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_else(|| fail("OUT_DIR unset")));
    let model = selected_model();
    if model.is_empty() || !model.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        fail(&format!("model name {model:?} must be a file stem made of [A-Za-z0-9_]"));
    }
    let shared = shared_dir(&manifest);
    let shared = if shared.is_absolute() { shared } else { manifest.join(shared) };
    let Some((model_path, golden)) = [("models", "golden"), ("ops/models", "ops/golden")]
        .iter()
        .map(|(m, g)| (shared.join(m).join(format!("{model}.tflite")), shared.join(g).join(&model)))
        .find(|(m, g)| m.is_file() && g.join("index.json").is_file())
    else {
        fail(&format!(
            "no model {model}.tflite with golden data under {} (models/ + golden/, or ops/models/ + ops/golden/); set TFLC_SHARED to the shared data directory",
            shared.display()
        ))
    };

    // Golden run 0: run0_in<i>.bin and run0_out<i>.bin, as listed in index.json.
    let files = |prefix: &str| -> Vec<PathBuf> {
        (0..).map(|i| golden.join(format!("run0_{prefix}{i}.bin"))).take_while(|p| p.is_file()).collect()
    };
    let (ins, outs) = (files("in"), files("out"));
    if ins.is_empty() || outs.is_empty() {
        fail(&format!("{} has no run0_in0.bin / run0_out0.bin", golden.display()));
    }
    // One named static per file (`TFLC_FW_GOLDEN_IN0`, ...), so that run.sh can read the
    // golden data's flash bytes from the ELF's symbol sizes.
    let mut golden_rs = format!("/// The model's file stem.\npub const NAME: &str = {model:?};\n");
    let mut golden_bytes = 0u64;
    let mut list = |kind: &str, v: &[PathBuf]| -> String {
        v.iter().enumerate().fold(String::new(), |mut refs, (i, p)| {
            println!("cargo:rerun-if-changed={}", p.display());
            let len = std::fs::metadata(p).map(|m| m.len()).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", p.display())));
            golden_bytes += len;
            let sym = format!("TFLC_FW_GOLDEN_{kind}{i}");
            let _ = write!(
                golden_rs,
                "#[no_mangle]\npub static {sym}: [u8; {len}] = *include_bytes!({:?});\n",
                p.display().to_string()
            );
            let _ = write!(refs, "&{sym}, ");
            refs
        })
    };
    let (in_refs, out_refs) = (list("IN", &ins), list("OUT", &outs));
    let _ = write!(
        golden_rs,
        "/// Golden run 0 inputs, in input order.\npub static INPUTS: &[&[u8]] = &[{in_refs}];\n\
         /// Golden run 0 outputs, in output order.\npub static OUTPUTS: &[&[u8]] = &[{out_refs}];\n"
    );
    write(&out.join("golden.rs"), &golden_rs);
    write(&out.join("golden_bytes.txt"), &format!("{golden_bytes}\n"));

    // What `tflc inspect --json` reports (weight bytes, MACs per operator), for run.sh.
    let bytes = std::fs::read(&model_path).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", model_path.display())));
    match tflc::read_model(&bytes) {
        Ok(m) => write(&out.join("inspect.json"), &(tflc::inspect::summarize(&m).to_json() + "\n")),
        // include_model! reports the model's problem with the compiler's message.
        Err(_) => write(&out.join("inspect.json"), "{}\n"),
    }

    println!("cargo:rerun-if-changed={}", model_path.display());
    // TFLC_FW_KEEP_F16=1: float16 weights stay float16 in flash (`keep_f16_weights`).
    println!("cargo:rerun-if-env-changed=TFLC_FW_KEEP_F16");
    let keep_f16 = std::env::var("TFLC_FW_KEEP_F16").is_ok_and(|v| v == "1");
    // TFLC_FW_DECODE_WEIGHTS=1: TFLite Micro's compressed weights decoded at compile time
    // (`decode_weights`) instead of kept compressed for the `_lut` kernels.
    println!("cargo:rerun-if-env-changed=TFLC_FW_DECODE_WEIGHTS");
    let decode_weights = std::env::var("TFLC_FW_DECODE_WEIGHTS").is_ok_and(|v| v == "1");
    if std::env::var_os("CARGO_FEATURE_OP_MARKERS").is_some() {
        // The same compilation as include_model!'s, written out for run.sh to read.
        let opts = tflc::CompileOptions { model_name: format!("{model}.tflite"), keep_f16_weights: keep_f16, decode_weights, ..tflc::CompileOptions::default() };
        match tflc::compile(&bytes, &opts) {
            Ok(c) => write(&out.join("model.rs"), &c.code),
            Err(e) => fail(&format!("include_model!: {}: {e}", model_path.display())),
        }
    } else {
        let rel = relative(&model_path, &manifest);
        let option = format!("{}{}", if keep_f16 { ", keep_f16_weights = true" } else { "" }, if decode_weights { ", decode_weights = true" } else { "" });
        write(&out.join("model.rs"), &format!("::tflc_macros::include_model!({:?}{option});\n", rel.display().to_string()));
    }

    // Linker script: on Arm memory.x here, link.x from cortex-m-rt (no memory.x in the
    // package root: the linker would find that one first); on RISC-V the whole script.
    let (script, content) = linker_script();
    write(&out.join(script), content);
    println!("cargo:rustc-link-search={}", out.display());
    if script == "memory.x" {
        println!("cargo:rustc-link-arg-bins=-Tlink.x");
    } else {
        println!("cargo:rustc-link-arg-bins=-T{script}");
    }
    println!("cargo:rustc-env=TFLC_FW_MODEL_NAME={model}");
    println!("cargo:rerun-if-changed=build.rs");
}

/// Writes only when the content changed, so cargo does not rebuild for nothing.
fn write(path: &Path, content: &str) {
    if std::fs::read(path).ok().as_deref() == Some(content.as_bytes()) {
        return;
    }
    if let Err(e) = std::fs::write(path, content) {
        fail(&format!("cannot write {}: {e}", path.display()));
    }
}
