//! Support for tests, benchmarks and examples: where the shared corpus is.
//!
//! Real models and golden data live in `../shared` beside the repository (never inside it).
//! Suites that need them call [`shared_dir_or_skip`]: when the folder is missing they print a
//! clear SKIP line and pass, unless `TFLC_REQUIRE_SHARED=1` ([`shared_required`]; `.ci/run`
//! sets it), under which a missing `../shared` fails the suite. The build scripts of
//! `tests/e2e` and `tests/generated-compile` follow the same rule through
//! [`missing_shared`].

use std::path::{Path, PathBuf};

/// Where the shared data folder is expected: `$TFLC_SHARED`, or `../shared` from the
/// workspace root (whether or not it exists).
pub fn shared_dir_path() -> PathBuf {
    match std::env::var_os("TFLC_SHARED") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    }
}

/// The shared data folder ([`shared_dir_path`]) when it holds the corpus (`models/`).
pub fn shared_dir() -> Option<PathBuf> {
    let dir = shared_dir_path();
    dir.join("models").is_dir().then(|| dir.canonicalize().unwrap_or(dir))
}

/// Whether a missing `../shared` is a failure rather than a SKIP: `TFLC_REQUIRE_SHARED=1`.
pub fn shared_required() -> bool {
    std::env::var_os("TFLC_REQUIRE_SHARED").is_some_and(|v| v == "1")
}

/// Reports that `what` cannot run because `../shared` is missing: a SKIP line on stderr, or,
/// under `TFLC_REQUIRE_SHARED=1`, a panic naming the path tried.
pub fn missing_shared(what: &str) {
    let tried = shared_dir_path();
    if shared_required() {
        panic!(
            "{what}: ../shared (models and golden data) is missing: no {} directory; \
             TFLC_REQUIRE_SHARED=1 makes that a failure (set TFLC_SHARED to its path)",
            tried.join("models").display()
        );
    }
    eprintln!(
        "SKIP {what}: ../shared (models and golden data) is missing at {}; set TFLC_SHARED to its path to run it",
        tried.display()
    );
}

/// `shared_dir()`, or [`missing_shared`]`(what)`: `None` (skip) or, under
/// `TFLC_REQUIRE_SHARED=1`, a panic.
pub fn shared_dir_or_skip(what: &str) -> Option<PathBuf> {
    let d = shared_dir();
    if d.is_none() {
        missing_shared(what);
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
