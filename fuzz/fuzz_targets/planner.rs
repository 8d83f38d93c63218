//! `cargo +nightly fuzz run planner`: plans random problems and checks every plan with the
//! independent verifier. The same check runs for about a second in `cargo test` (`plan::tests::smoke`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tflc::fuzzing::{check, RandomGraph};
use tflc::plan::PlanOptions;

fuzz_target!(|g: RandomGraph| {
    let options = PlanOptions { schedule_state_budget: 20_000, offset_work_budget: 200_000, verify: true, ..PlanOptions::default() };
    check(&g.0, &options);
});
