//! `cargo +nightly fuzz run planner`: plans random problems and checks every plan with the
//! independent verifier. The same check runs for about a second in `cargo test` (`plan::tests::smoke`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tflc::fuzzing::{check, fuzz_options, RandomGraph};

// Reproduce a crash with `tflc replay fuzz/artifacts/planner/crash-…`.
fuzz_target!(|g: RandomGraph| {
    check(&g.0, &fuzz_options());
});
