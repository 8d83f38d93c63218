//! The `tflc` command line: one file per subcommand.

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// The CLI allocates and frees many small token and syntax-tree nodes while it formats a
/// module: mimalloc's per-thread free lists handle that churn faster than the system
/// allocator (a 20,000-operator chain: see docs/FUZZING.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod compile;
mod inspect;
mod npy;
mod plan;
mod replay;
mod run;

const AFTER_HELP: &str = "\
Exit status:
  0  success
  1  a check failed (`plan --verify` found a violation, or the arena exceeds --max-arena)
  2  the model could not be read or compiled (the message says what and where)";

#[derive(Parser)]
#[command(
    name = "tflc",
    version,
    about = "Ahead-of-time compiler from TensorFlow Lite models to Rust",
    after_help = AFTER_HELP,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// `tflc MODEL -o OUT.rs`: compile a model into a Rust module.
    #[command(flatten)]
    compile: compile::Args,
}

#[derive(Subcommand)]
enum Command {
    /// Summarise a model: inputs, outputs, operators, weights, MACs, unsupported ops.
    Inspect(inspect::Args),
    /// Plan the memory: operator order, arena offsets, lower bound, optional SVG picture.
    Plan(plan::Args),
    /// Run the model on the host with the reference interpreter: `.npy` or raw tensors in,
    /// the same out (compare with TFLite before flashing).
    Run(run::Args),
    /// Re-run a planner fuzz case (`fuzz/artifacts/planner/crash-…`): plan, then verify.
    Replay(replay::Args),
}

/// Arguments shared by every subcommand that reads a model.
#[derive(clap::Args, Debug, Clone)]
pub struct InputArgs {
    /// The .tflite model.
    pub model: std::path::PathBuf,
}

impl InputArgs {
    /// Reads the model file's bytes, naming the path on failure.
    pub fn read_bytes(&self) -> anyhow::Result<Vec<u8>> {
        std::fs::read(&self.model).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", self.model.display()))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Inspect(args)) => inspect::run(args),
        Some(Command::Plan(args)) => plan::run(args),
        Some(Command::Run(args)) => run::run(args),
        Some(Command::Replay(args)) => replay::run(args),
        None => compile::run(cli.compile),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            print_error(&err);
            if is_over_budget(&err) {
                ExitCode::from(1)
            } else {
                ExitCode::from(2)
            }
        }
    }
}

/// `--max-arena` refused the plan: a check failed (status 1), the model itself is fine.
fn is_over_budget(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.downcast_ref::<tflc::Error>().is_some_and(tflc::Error::is_over_budget))
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|e| e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
}

/// `error: …` and a numbered `Caused by:` chain, as wasm-tools prints it.
fn print_error(err: &anyhow::Error) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "error: {err}");
    let causes: Vec<_> = err.chain().skip(1).collect();
    if !causes.is_empty() {
        let _ = writeln!(stderr, "\nCaused by:");
        for (i, c) in causes.iter().enumerate() {
            let _ = writeln!(stderr, "    {i}: {c}");
        }
    }
}

/// Writes `s` to stdout; a closed pipe is not an error worth a message.
pub fn print_stdout(s: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(s.as_bytes())?;
    out.flush()?;
    Ok(())
}
