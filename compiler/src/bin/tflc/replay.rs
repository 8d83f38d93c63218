//! `tflc replay CASE`: re-runs a planner fuzz case (the bytes libFuzzer saved) through the same
//! plan → verify check as `fuzz/fuzz_targets/planner.rs`, and prints the problem and the plan.

use crate::print_stdout;
use arbitrary::{Arbitrary, Unstructured};
use std::process::ExitCode;
use tflc::internal::fuzzing::{fuzz_options, try_check, FuzzGraph};

#[derive(clap::Args)]
pub struct Args {
    /// The fuzz case (raw bytes).
    case: std::path::PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(&args.case).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", args.case.display()))?;
    let graph = FuzzGraph::arbitrary_take_rest(Unstructured::new(&bytes))
        .map_err(|e| anyhow::anyhow!("{} does not decode to a planning problem: {e}", args.case.display()))?;
    print_stdout(&format!("problem: {:#?}\n", graph.0))?;
    match try_check(&graph.0, &fuzz_options()) {
        Ok(plan) => {
            print_stdout(&format!("plan: {plan:#?}\nok: the plan verifies\n"))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            print_stdout(&format!("FAILED: {e}\n"))?;
            Ok(ExitCode::from(1))
        }
    }
}
