//! `tflc MODEL -o OUT.rs`: compile a model into a Rust module; `tflc A B… -o OUT.rs`:
//! several models into one module whose models share one arena.

use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The .tflite model to compile. Several models make one module whose models share one
    /// arena (they never run at the same time; each keeps its inputs, outputs and state
    /// between its runs), with `Models::run_<name>()` per model (`<name>` from the file stem).
    #[arg(required = true, num_args = 1..)]
    model: Vec<PathBuf>,
    /// Where to write the Rust module (`-` for stdout).
    #[arg(short = 'o', long = "output", required = true)]
    output: Option<PathBuf>,
    /// Path of the runtime crate in the generated code.
    #[arg(long = "runtime-crate", default_value = "::tflc_runtime")]
    runtime_crate: String,
    /// Alignment in bytes of the arena and every buffer in it, and of the weight blob and
    /// every weight in it (a power of two from 16 to 4096).
    #[arg(long, default_value_t = 16)]
    align: usize,
    /// Weights as a byte-string literal in the module (`inline`), or in `OUT.weights.bin`
    /// beside it, read with `include_bytes!` (`file`).
    #[arg(long = "emit-weights", value_enum, default_value_t = EmitWeights::Inline)]
    emit_weights: EmitWeights,
    /// Fail (exit status 1) when the arena needs more than SIZE bytes (`49152`, `48K`, `1M`;
    /// K = 1024), naming the peak step and the tensors live there.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_arena: Option<u64>,
    /// Pointer width in bits of the target the module is for (16, 32 or 64): a model whose
    /// arena, weights or any buffer the generated code cannot address there is refused
    /// (64 and 32: below 2 GiB less 16 MiB; 16: below 32 KiB).
    #[arg(long = "target-pointer-width", default_value_t = 64)]
    target_pointer_width: u32,
    /// Keep float16 weights in flash as float16 where the kernel widens them as it reads
    /// (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED filters fed by a constant float16
    /// DEQUANTIZE; Arm builds): half the flash for those weights, the same outputs.
    #[arg(long = "keep-f16-weights")]
    keep_f16_weights: bool,
    /// Decode TFLite Micro's compressed weights (TFLM_DECODE) at compile time into plain
    /// int8 in flash: faster kernels, larger firmware. Without it, LUT-compressed filters
    /// of int8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED stay compressed in flash and
    /// their kernels decode one output channel at a time (the same outputs); Huffman and
    /// prune compression are always decoded at compile time. Also unpacks int4 filters,
    /// which Arm and RV32 builds otherwise keep packed (two weights a byte).
    #[arg(long = "decode-weights")]
    decode_weights: bool,
    #[command(flatten)]
    pools: PoolArgs,
    /// Scratch bytes for the kernel of custom operator NAME, repeatable
    /// (`--custom-scratch MyOp=256`, K = 1024): each operator of that custom code gets a
    /// region of the arena live during its call only, as its method's `scratch: &mut [u8]`
    /// (see docs/CUSTOM_OPS.md).
    #[arg(long = "custom-scratch", value_name = "NAME=BYTES", value_parser = parse_custom_scratch)]
    custom_scratch: Vec<(String, usize)>,
    /// Supply your own kernel for a custom operator tflc has a built-in kernel for
    /// (MediaPipe's, e.g. Convolution2DTransposeBias): its operators go to the generated
    /// `CustomOps` trait instead (repeatable; see docs/CUSTOM_OPS.md).
    #[arg(long = "custom-kernel", value_name = "NAME")]
    custom_kernels: Vec<String>,
}

fn parse_custom_scratch(s: &str) -> Result<(String, usize), String> {
    tflc::CompileOptions::parse_custom_scratch(s)
}

/// `--pool` and `--pool-section` (compile and plan).
#[derive(clap::Args)]
pub struct PoolArgs {
    /// A memory pool, repeatable, fastest first: `--pool dtcm=16K --pool sram` (K = 1024;
    /// only the last may have no size: unbounded). Every tensor goes to exactly one pool and
    /// each pool is planned exactly. Policy: the tensors with the most accesses per byte
    /// (multiply-accumulates of the convolutions and fully-connected layers that read them,
    /// elements for other operators) go first to the fastest pool whose exact plan still fits
    /// them; the last pool takes the rest, and fails (exit status 1, naming its peak step and
    /// tensors) when it is bounded and too small. The generated `Model` holds one arena per
    /// pool. Not for several models in one module or models that call subgraphs.
    #[arg(long = "pool", value_name = "NAME[=SIZE]", value_parser = parse_pool)]
    pool: Vec<tflc::internal::plan::pools::PoolSpec>,
    /// Put pool NAME's arena in linker section SECTION (`--pool-section dtcm=.dtcm`): the
    /// generated `Model` then borrows that arena (`Model::new(&mut <NAME>)`), which the
    /// caller declares as a `static` with `#[link_section]` (see the generated docs).
    #[arg(long = "pool-section", value_name = "NAME=SECTION")]
    pool_section: Vec<String>,
}

impl PoolArgs {
    /// The pools with their sections, checked.
    pub fn specs(&self) -> anyhow::Result<Vec<tflc::internal::plan::pools::PoolSpec>> {
        let mut specs = self.pool.clone();
        for s in &self.pool_section {
            let Some((name, section)) = s.split_once('=') else {
                anyhow::bail!("--pool-section {s}: expected NAME=SECTION, e.g. dtcm=.dtcm");
            };
            let Some(p) = specs.iter_mut().find(|p| p.name == name.trim()) else {
                anyhow::bail!("--pool-section {s}: no pool `{}` (give it with --pool)", name.trim());
            };
            if section.trim().is_empty() || section.contains(['"', '\\']) {
                anyhow::bail!("--pool-section {s}: `{section}` is not a section name");
            }
            p.section = Some(section.trim().to_string());
        }
        if !specs.is_empty() {
            tflc::internal::plan::pools::check_specs(&specs).map_err(anyhow::Error::msg)?;
        }
        Ok(specs)
    }
}

fn parse_pool(s: &str) -> Result<tflc::internal::plan::pools::PoolSpec, String> {
    tflc::internal::plan::pools::PoolSpec::parse(s)
}

/// `--max-arena` values: bytes with an optional K/M/G suffix.
pub fn parse_size(s: &str) -> Result<u64, String> {
    tflc::internal::plan::budget::parse_size(s)
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum EmitWeights {
    Inline,
    File,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Some(output) = args.output else {
        anyhow::bail!("usage: tflc MODEL... -o OUT.rs (see tflc --help)");
    };
    let weights_file = output.with_extension("weights.bin");
    let weights = match args.emit_weights {
        EmitWeights::Inline => tflc::internal::codegen::WeightsSource::Inline,
        EmitWeights::File => {
            if output.as_os_str() == "-" {
                anyhow::bail!("--emit-weights file needs an output file, not stdout");
            }
            let name = weights_file.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            tflc::internal::codegen::WeightsSource::File(name)
        }
    };
    let file_name = |m: &PathBuf| m.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    // One set of options for either layout: the library refuses what does not fit it.
    let opts = tflc::CompileOptions {
        runtime_path: args.runtime_crate,
        align: args.align,
        model_name: args.model.first().map(file_name).unwrap_or_default(),
        weights,
        max_arena: args.max_arena,
        target_pointer_width: args.target_pointer_width,
        keep_f16_weights: args.keep_f16_weights,
        decode_weights: args.decode_weights,
        pools: args.pools.specs()?,
        custom_scratch: args.custom_scratch.into_iter().collect(),
        custom_kernels: args.custom_kernels.into_iter().collect(),
    };
    let mut inputs = Vec::new();
    for m in &args.model {
        let bytes = std::fs::read(m).with_context(|| format!("cannot read {}", m.display()))?;
        inputs.push((file_name(m), bytes));
    }
    if inputs.len() > 1 {
        let compiled = tflc::compile_models(&inputs, &opts).context("cannot compile the models into one module")?;
        if output.as_os_str() == "-" {
            crate::print_stdout(&compiled.code)?;
        } else {
            tflc::write_if_changed(&output, compiled.code.as_bytes())?;
            eprintln!("wrote {}", output.display());
        }
        eprint!("{}", compiled.report());
        return Ok(ExitCode::SUCCESS);
    }
    let (Some(model), Some((_, bytes))) = (args.model.first(), inputs.first()) else {
        anyhow::bail!("usage: tflc MODEL... -o OUT.rs (see tflc --help)");
    };
    let compiled = tflc::compile(bytes, &opts).with_context(|| format!("cannot compile {}", model.display()))?;
    if output.as_os_str() == "-" {
        crate::print_stdout(&compiled.code)?;
    } else {
        tflc::write_if_changed(&output, compiled.code.as_bytes())?;
        if args.emit_weights == EmitWeights::File {
            tflc::write_if_changed(&weights_file, &compiled.weights)?;
            for (suffix, blob) in &compiled.scoped_weights {
                let name = weights_file.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                tflc::write_if_changed(&weights_file.with_file_name(tflc::internal::emit::scoped_file_name(&name, suffix)), blob)?;
            }
        }
        eprintln!(
            "wrote {} ({} operators, arena {} bytes{})",
            output.display(),
            compiled.plan.plan.schedule.len(),
            compiled.arena_bytes(),
            compiled.plan.pools.iter().map(|p| format!("; pool {} {} bytes", p.name, p.bytes)).collect::<String>()
        );
        let c = &compiled.compressed;
        if c.tensors > 0 {
            eprintln!(
                "compressed weights: {} tensor(s), {} kept compressed: {} bytes in flash (the file stores {} bytes compressed, {} bytes decoded)",
                c.tensors, c.kept, c.flash_bytes, c.stored_bytes, c.decoded_bytes
            );
        }
        let k = &compiled.int4_kept;
        if k.filters > 0 {
            eprintln!("int4 weights: {} filter(s) kept packed for Arm and RV32: {} bytes in flash there ({} bytes unpacked on hosts)", k.filters, k.packed_bytes, k.unpacked_bytes);
        }
    }
    Ok(ExitCode::SUCCESS)
}
