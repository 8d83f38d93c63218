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

/// SplitMix64, the generator of test data on both sides of the workspace: the same sequence
/// as the runtime's `kernels::test_util::Rng` (both pin the first output for seed 0), so a
/// compiler test and a kernel test seeded alike see the same data. `Rng(seed)`.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next pseudo-random 64 bits (splitmix64).
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// `len` int8 values over the full range, with the extremes over-represented.
    pub fn i8s(&mut self, len: usize) -> Vec<i8> {
        (0..len)
            .map(|_| match self.next_u64() % 8 {
                0 => i8::MIN,
                1 => i8::MAX,
                _ => self.next_u64() as i8,
            })
            .collect()
    }

    /// `len` values uniform in `lo..=hi`.
    pub fn i32s(&mut self, len: usize, lo: i32, hi: i32) -> Vec<i32> {
        (0..len).map(|_| self.range(lo as i64, hi as i64) as i32).collect()
    }
}

/// Bytes of state to allow on top of TFLite Micro's arena head when comparing an arena with
/// it (`../shared/baselines/tflm_memory.json`): TFLite Micro keeps state in its persistent
/// tail. The baseline counts the model's variable tensors (`variable_bytes`); an op's private
/// state that tflc makes a variable tensor (the spectral subtraction's noise estimate) is not
/// among them, so the larger of that and the plan's variable buffers.
pub fn state_allowance(baseline_variable_bytes: u64, problem: &crate::plan::Problem) -> u64 {
    let ours: u64 = problem.buffers.iter().filter(|b| b.kind == crate::plan::BufferKind::Variable).map(|b| b.bytes).sum();
    baseline_variable_bytes.max(ours)
}

pub mod models;
pub mod sparse;

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64's published first output for seed 0 (and the runtime's test_util pins the
    /// same value).
    #[test]
    fn rng_is_splitmix64() {
        assert_eq!(Rng(0).next_u64(), 0xe220_a839_7b1d_cdaf);
        let v = Rng(7).i8s(1000);
        assert!(v.contains(&i8::MIN) && v.contains(&i8::MAX));
        assert!(Rng(1).i32s(100, -3, 3).iter().all(|x| (-3..=3).contains(x)));
    }
}
