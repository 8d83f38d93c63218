//! `tflc inspect MODEL [--json]`.

use crate::{print_stdout, InputArgs};
use anyhow::Context;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Print JSON instead of the readable summary.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = args.input.read_bytes()?;
    let model = tflc::read_model(&bytes).with_context(|| format!("cannot read {}", args.input.model.display()))?;
    let summary = tflc::inspect::summarize(&model);
    if args.json {
        print_stdout(&summary.to_json())?;
        print_stdout("\n")?;
    } else {
        let title = format!("{} ({} bytes)", args.input.model.display(), bytes.len());
        print_stdout(&summary.render_text(&title))?;
    }
    Ok(ExitCode::SUCCESS)
}
