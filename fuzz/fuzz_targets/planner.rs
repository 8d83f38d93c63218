//! `cargo +nightly fuzz run planner`: plans random problems (small random graphs, and one in
//! four a structured graph of 100 to 800 operators: wide, deep or random) under the fuzz
//! budgets and checks every plan with the independent verifier. The same check runs for about
//! a second in `cargo test` (`plan::tests::smoke`, `plan::tests::smoke_large`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tflc::internal::fuzzing::{check, fuzz_options, FuzzGraph};

// Reproduce a crash with `tflc replay fuzz/artifacts/planner/crash-…`.
fuzz_target!(|g: FuzzGraph| {
    check(&g.0, &fuzz_options());
});
