//! Support for tests, benchmarks and examples: where the shared corpus is.
//!
//! Real models and golden data live in `../shared` beside the repository (never inside it).
//! Suites that need them call [`shared_dir`] and, when it is `None`, print a clear SKIP line
//! and pass.

use std::path::{Path, PathBuf};

/// The shared data folder: `$TFLC_SHARED`, or `../shared` from the workspace root.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("TFLC_SHARED") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    dir.join("models").is_dir().then(|| dir.canonicalize().unwrap_or(dir))
}

/// `shared_dir()`, or prints why the suite `what` is skipped.
pub fn shared_dir_or_skip(what: &str) -> Option<PathBuf> {
    let d = shared_dir();
    if d.is_none() {
        eprintln!("SKIP {what}: ../shared (models and golden data) is missing; set TFLC_SHARED to its path to run it");
    }
    d
}

/// Every `.tflite` file in `dir`, sorted by name.
pub fn tflite_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tflite"))
        .collect();
    v.sort();
    v
}

/// The corpus models (`shared/models/*.tflite`).
pub fn corpus_models(shared: &Path) -> Vec<PathBuf> {
    tflite_files(&shared.join("models"))
}

/// A model's file stem (`mlperf_kws_dscnn_int8`).
pub fn model_name(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

pub mod models;
