//! Chooses the model and its input, writing to OUT_DIR:
//! - `model.rs`: `tflc_macros::include_model!("<path relative to this crate>")`;
//! - `input.bin`: the bytes copied into input 0 before each inference.
//!
//! The model is `TFLC_BOARD_MODEL` (a path relative to this crate, or absolute), or by default
//! the MLPerf Tiny keyword-spotting model `mlperf_kws_dscnn_int8` from the shared corpus
//! (`TFLC_SHARED`, or `../shared` beside the repository) with its golden input, or, when the
//! corpus is not there, the repository's own `examples/models/tiny_cnn_int8.tflite` on zeros.
//! `TFLC_BOARD_INPUT` overrides the input file (raw bytes of input 0).

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=TFLC_BOARD_MODEL");
    println!("cargo:rerun-if-env-changed=TFLC_BOARD_INPUT");
    println!("cargo:rerun-if-env-changed=TFLC_SHARED");
    println!("cargo:rerun-if-changed=memory.x");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let shared = std::env::var_os("TFLC_SHARED").map(PathBuf::from).unwrap_or_else(|| manifest.join("../../../shared"));
    let kws = shared.join("models/mlperf_kws_dscnn_int8.tflite");
    let (model, input) = match std::env::var_os("TFLC_BOARD_MODEL") {
        Some(m) => (manifest.join(m), None),
        None if kws.exists() => (kws, Some(shared.join("golden/mlperf_kws_dscnn_int8/run0_in0.bin"))),
        None => (manifest.join("../models/tiny_cnn_int8.tflite"), None),
    };
    let input = std::env::var_os("TFLC_BOARD_INPUT").map(|i| manifest.join(i)).or(input);
    let rel = relative(&model, &manifest);
    println!("cargo:rerun-if-changed={}", model.display());
    write(&out.join("model.rs"), format!("::tflc_macros::include_model!({:?});\n", rel.display().to_string()).as_bytes());
    let bytes = match &input {
        Some(i) => {
            println!("cargo:rerun-if-changed={}", i.display());
            std::fs::read(i).unwrap_or_else(|e| fail(&format!("cannot read the input {}: {e}", i.display())))
        }
        None => Vec::new(),
    };
    write(&out.join("input.bin"), &bytes);
    // memory.x where cortex-m-rt's link.x finds it.
    write(&out.join("memory.x"), &std::fs::read(manifest.join("memory.x")).unwrap_or_else(|e| fail(&format!("memory.x: {e}"))));
    println!("cargo:rustc-link-search={}", out.display());
}

include!("../board_build.rs");
