//! `cargo +nightly fuzz run pipeline CORPUS ../shared/models ../shared/ops`: every input is a
//! model file (libFuzzer mutates the real models it is seeded with; see docs/FUZZING.md),
//! run through read + inspect, plan + verify and compile (`fuzzing::models::check_pipeline`).
//! A panic, a plan that fails verification or an emitted module its target cannot link is a
//! crash. The same check runs on mutants of the builder models in `cargo test`
//! (`tests/robustness.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = tflc::internal::fuzzing::models::check_pipeline(data, &tflc::CompileOptions::default()) {
        panic!("{e}");
    }
});
