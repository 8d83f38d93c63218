//! `tflc run MODEL --input FILE… [--output FILE…]`: runs the model on the host through the
//! compiler's reference interpreter (the same kernels and compile-time parameters the
//! generated code calls), so that a user can compare with TFLite before flashing.
//!
//! Files ending in `.npy` are NumPy arrays (dtype and shape checked against the tensor);
//! any other file is the tensor's raw little-endian bytes (size checked).

use crate::{npy, print_stdout, InputArgs};
use anyhow::{bail, Context};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tflc::ir::{Subgraph, Tensor, TensorId};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// One file per model input, in order: `.npy`, or raw little-endian bytes.
    #[arg(long = "input", short = 'i', value_name = "FILE", num_args = 1.., required = true)]
    inputs: Vec<PathBuf>,
    /// One file per model output, in order (`.npy`, or raw bytes). Without it, the outputs
    /// are printed.
    #[arg(long = "output", short = 'o', value_name = "FILE", num_args = 1..)]
    outputs: Vec<PathBuf>,
}

fn is_npy(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("npy"))
}

/// The raw bytes of input `i` from `file`, checked against its tensor.
fn load_input(sg: &Subgraph<'_>, i: usize, t: TensorId, file: &Path) -> anyhow::Result<Vec<u8>> {
    let tensor = sg.tensor(t);
    let what = format!("input {i} ({})", tflc::internal::text::tensor(tensor));
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {} for {what}", file.display()))?;
    let need = tensor.byte_size().with_context(|| format!("{what}: tflc cannot run {} tensors", tensor.dtype))?;
    let data = if is_npy(file) {
        let a = npy::read(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let want = npy::descr(tensor.dtype).with_context(|| format!("{what}: {} has no .npy form", tensor.dtype))?;
        if a.descr != want {
            bail!("{}: dtype '{}', but {what} needs '{want}' (np.{})", file.display(), a.descr, tensor.dtype);
        }
        if a.shape != tensor.shape {
            bail!("{}: shape {:?}, but {what} has shape {:?}", file.display(), a.shape, tensor.shape);
        }
        a.data.to_vec()
    } else {
        bytes
    };
    if data.len() != need {
        bail!("{}: {} bytes of data, but {what} needs {need}", file.display(), data.len());
    }
    Ok(data)
}

/// Up to 16 values of an output, for the terminal.
fn preview(tensor: &Tensor<'_>, bytes: &[u8]) -> String {
    let size = tensor.dtype.info().size.unwrap_or(1).max(1);
    let name = tensor.dtype.info().name;
    let value = |c: &[u8]| -> String {
        match (name, c.len()) {
            ("int8", 1) => (c[0] as i8).to_string(),
            ("uint8", 1) | ("bool", 1) => c[0].to_string(),
            ("int16", 2) => i16::from_le_bytes([c[0], c[1]]).to_string(),
            ("int32", 4) => i32::from_le_bytes([c[0], c[1], c[2], c[3]]).to_string(),
            ("float32", 4) => f32::from_le_bytes([c[0], c[1], c[2], c[3]]).to_string(),
            _ => c.iter().map(|b| format!("{b:02x}")).collect(),
        }
    };
    let n = bytes.len() / size;
    let shown: Vec<String> = bytes.chunks_exact(size).take(16).map(value).collect();
    let more = if n > 16 { format!(", … ({n} values)") } else { String::new() };
    format!("[{}{more}]", shown.join(", "))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = args.input.read_bytes()?;
    let path = args.input.model.display();
    let model = tflc::read_model(&bytes).with_context(|| format!("cannot read {path}"))?;
    let sg = model.main();
    let list = |ts: &[TensorId], kind: &str| -> String {
        ts.iter().enumerate().map(|(i, &t)| format!("\n  {kind} {i}: {}", tflc::internal::text::tensor(sg.tensor(t)))).collect()
    };
    if args.inputs.len() != sg.inputs.len() {
        bail!("{} --input file(s) given; {path} has {} input(s):{}", args.inputs.len(), sg.inputs.len(), list(&sg.inputs, "input"));
    }
    if !args.outputs.is_empty() && args.outputs.len() != sg.outputs.len() {
        bail!("{} --output file(s) given; {path} has {} output(s):{}", args.outputs.len(), sg.outputs.len(), list(&sg.outputs, "output"));
    }
    let inputs = sg
        .inputs
        .iter()
        .zip(&args.inputs)
        .enumerate()
        .map(|(i, (&t, file))| load_input(sg, i, t, file))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let outputs = tflc::internal::interp::run(&model, &refs).with_context(|| format!("cannot run {path}"))?;
    let mut report = String::new();
    for (i, (&t, data)) in sg.outputs.iter().zip(&outputs).enumerate() {
        let tensor = sg.tensor(t);
        match args.outputs.get(i) {
            Some(file) => {
                let out = if is_npy(file) {
                    let descr = npy::descr(tensor.dtype).with_context(|| format!("output {i}: {} has no .npy form", tensor.dtype))?;
                    npy::write(&descr, &tensor.shape, data)
                } else {
                    data.clone()
                };
                std::fs::write(file, out).with_context(|| format!("cannot write {}", file.display()))?;
                let _ = writeln!(report, "output {i}: {} -> {}", tflc::internal::text::tensor(tensor), file.display());
            }
            None => {
                let _ = writeln!(report, "output {i}: {} = {}", tflc::internal::text::tensor(tensor), preview(tensor, data));
            }
        }
    }
    print_stdout(&report)?;
    Ok(ExitCode::SUCCESS)
}
