//! Chooses the model and its input, writing to OUT_DIR:
//! - `model.rs`: `tflc_macros::include_model!("<path relative to this crate>")`;
//! - `input.bin`: the bytes copied into input 0 before each inference.
//!
//! The model is `TFLC_BOARD_MODEL` (a path relative to this crate, or absolute), or by default
//! the MLPerf Tiny keyword-spotting model `mlperf_kws_dscnn_int8` from the shared corpus
//! (`TFLC_SHARED`, or `../shared` beside the repository) with its golden input 0. The models
//! are never copied into the repository: without the corpus (and without `TFLC_BOARD_MODEL`)
//! the build stops and says where it looked. `TFLC_BOARD_INPUT` overrides the input file (raw
//! bytes of input 0).

use std::path::{Path, PathBuf};

fn main() {
    write_model_and_input(None);
}

include!("../board_build.rs");
