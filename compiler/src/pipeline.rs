//! The compiler's phases in order, top to bottom: read and verify the model, fold its
//! constant subgraphs (`passes::fold`), lower every operator (once), plan memory from what lowering allows, emit the module from the lowered
//! operators and the plan.

use crate::codegen::{self, CodegenOptions, WeightsSource};
use crate::emit::MAX_ALIGN;
use crate::error::{Error, OptionsError};
use crate::lower::{lower_model, LoweredModel, LoweredSubgraph};
use crate::passes::fold::FoldedModel;
use crate::plan::joint::JointPlan;
use crate::plan::model::{CallGraph, CallGraphNode};
use crate::plan::{plan_subgraph, ModelPlan, PlanOptions, SubgraphPlan};
use sha2::{Digest, Sha256};

/// How to compile.
#[derive(Debug, Clone)]
pub struct CompileOptions {
    /// Path of the runtime crate in the generated code.
    pub runtime_path: String,
    /// Alignment in bytes of the arena, of every buffer in it, of the weight blob and of every
    /// weight and table in it (a power of two from 16 to 4096).
    pub align: usize,
    /// The model's file name, for the header.
    pub model_name: String,
    /// Weights inline (a byte-string literal) or in a file beside the module.
    pub weights: WeightsSource,
    /// Refuse the model when its arena needs more bytes than this ([`Error::OverBudget`]
    /// names the peak step and the tensors live there). `None`: no bound.
    pub max_arena: Option<u64>,
    /// Pointer width of the target in bits (16, 32 or 64): decides the largest arena, weight
    /// blob and buffer the generated module can address ([`SizeLimits::for_target`]).
    pub target_pointer_width: u32,
    /// Keep float16 weights in flash as float16 (half the bytes of their float32 widening)
    /// where the kernel can widen them as it reads (the CONV_2D, DEPTHWISE_CONV_2D and
    /// FULLY_CONNECTED filters a constant float16 DEQUANTIZE feeds; [`Subgraph::half_weights`](crate::ir::Subgraph::half_weights)).
    /// The widening is exact, so the outputs are the same bits. Arm builds take it (their
    /// float kernels read the filter as it is); hosts keep their packed float32 tables.
    pub keep_f16_weights: bool,
    /// Decode TFLite Micro's compressed weights (TFLM_DECODE) at compile time into plain int8
    /// in flash (`--decode-weights`, `Config::decode_weights`, `include_model!(…,
    /// decode_weights = true)`): faster kernels, larger firmware. Off (the default), the
    /// LUT-compressed filters of int8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED stay
    /// compressed in flash and their kernels decode one output channel at a time into a
    /// stack buffer (`tflc_runtime::kernels::lut`); the outputs are the same bits either
    /// way. Huffman and prune compression are always decoded at compile time. The same
    /// option unpacks int4 filters for every target: off, an int4 filter of an int8 CONV_2D,
    /// DEPTHWISE_CONV_2D or FULLY_CONNECTED stays packed (two weights a byte) in the Arm and
    /// 32-bit RISC-V builds, whose kernels unpack it as they read it
    /// (`tflc_runtime::kernels::int4`); hosts always run the int8 variants on the filter
    /// unpacked at compile time.
    pub decode_weights: bool,
    /// Several memory pools, fastest first (`--pool dtcm=16K --pool sram`): the planner puts
    /// every tensor in one of them, the hottest bytes in the fastest pool they fit
    /// ([`crate::plan::pools`]), and the generated `Model` holds one arena per pool. Empty:
    /// one arena. Models that call subgraphs and several models in one module refuse pools.
    pub pools: Vec<crate::plan::pools::PoolSpec>,
    /// Arena scratch bytes for the caller's custom-operator kernels, by custom code
    /// (`--custom-scratch NAME=BYTES`, `Config::custom_scratch`, `custom_scratch = "NAME=BYTES"`):
    /// each operator of that code gets a region of that many bytes, live during its call only,
    /// as its method's `scratch: &mut [u8]` (`docs/CUSTOM_OPS.md`). A name no custom operator
    /// of the model has is refused.
    pub custom_scratch: std::collections::BTreeMap<String, usize>,
    /// Custom codes tflc has a built-in kernel for (MediaPipe's operators,
    /// `lower::ops::mediapipe::CODES`) whose kernel the caller supplies instead
    /// (`--custom-kernel NAME`, `Config::custom_kernel`, `custom_kernels = "NAME, ..."`): their
    /// operators go to the generated `CustomOps` trait like any custom operator tflc does not
    /// know (`docs/CUSTOM_OPS.md`). A name no custom operator of the model has, or one whose
    /// kernel tflc cannot hand over (TFLite Micro's own custom operators), is refused.
    pub custom_kernels: std::collections::BTreeSet<String>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        Self {
            runtime_path: "::tflc_runtime".into(),
            align: 16,
            model_name: "model.tflite".into(),
            weights: WeightsSource::Inline,
            max_arena: None,
            target_pointer_width: 64,
            keep_f16_weights: false,
            decode_weights: false,
            pools: Vec::new(),
            custom_scratch: std::collections::BTreeMap::new(),
            custom_kernels: std::collections::BTreeSet::new(),
        }
    }
}

impl CompileOptions {
    /// Parses one `--custom-scratch` item, `NAME=BYTES` (`MyOp=256`, `MyOp=2K`; K = 1024):
    /// the custom code and its scratch bytes ([`CompileOptions::custom_scratch`]).
    pub fn parse_custom_scratch(item: &str) -> Result<(String, usize), String> {
        let Some((name, size)) = item.split_once('=') else {
            return Err(format!("custom scratch `{item}`: expected NAME=BYTES, e.g. MyOp=256"));
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("custom scratch `{item}`: the custom operator's name is empty"));
        }
        let bytes = crate::plan::budget::parse_size(size.trim()).map_err(|e| format!("custom scratch `{item}`: {e}"))?;
        let bytes = usize::try_from(bytes).map_err(|_| format!("custom scratch `{item}`: {bytes} bytes do not fit this host"))?;
        Ok((name.to_owned(), bytes))
    }
}

/// A compiled model.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The generated Rust module.
    pub code: String,
    /// The weight blob (to write beside the module when the weights are in a file).
    pub weights: Vec<u8>,
    /// The blobs only some targets read, by file-name suffix (with the weights in a file,
    /// each goes beside the main one as [`crate::emit::scoped_file_name`] names it).
    pub scoped_weights: Vec<(&'static str, Vec<u8>)>,
    /// The memory plan the module follows (schedule, offsets, realised in-place pairs,
    /// aliased views).
    pub plan: SubgraphPlan,
    /// The plans of every subgraph the module runs, and where each runs in the arena
    /// (`plan` is its entry subgraph's).
    pub model_plan: ModelPlan,
    /// TFLite Micro's compressed tensors: bytes stored, decoded, and in the weight blob
    /// (`CompileOptions::decode_weights`).
    pub compressed: crate::inspect::CompressedWeights,
    /// The int4 filters kept packed for Arm and RV32: filters, bytes packed and unpacked
    /// (`CompileOptions::decode_weights` unpacks them).
    pub int4_kept: crate::inspect::KeptInt4,
}

impl Compiled {
    /// The generated module's `ARENA_BYTES`.
    pub fn arena_bytes(&self) -> usize {
        codegen::arena_bytes(&self.plan)
    }
}

/// Compiles model bytes to a Rust module.
pub fn compile(bytes: &[u8], opts: &CompileOptions) -> Result<Compiled, Error> {
    match build(&[(opts.model_name.clone(), bytes)], Layout::Single, opts)? {
        Built::Single(c) => Ok(*c),
        Built::Shared(_) => Err(Error::Internal("one model was laid out as several".into())),
    }
}

/// What the caller asked for: the module's layout, which [`build`] checks against the options
/// before anything is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// One model with its own arena ([`compile`]), or its own memory pools.
    Single,
    /// Several models in one module sharing one arena ([`compile_models`]).
    Shared,
}

/// What [`build`] made.
enum Built {
    Single(Box<Compiled>),
    Shared(CompiledModels),
}

/// Refuses every combination of options and layout that cannot compile, before any model is
/// read: each a typed [`OptionsError`] in the user's terms.
fn check_options(files: &[&str], layout: Layout, opts: &CompileOptions) -> Result<(), Error> {
    check_align(opts.align)?;
    SizeLimits::for_target(opts.target_pointer_width)?;
    if syn::parse_str::<syn::Path>(&opts.runtime_path).is_err() {
        return Err(OptionsError::RuntimePath { path: opts.runtime_path.clone() }.into());
    }
    if files.is_empty() {
        return Err(OptionsError::NoModel.into());
    }
    match layout {
        Layout::Single => {
            if !opts.pools.is_empty() {
                crate::plan::pools::check_specs(&opts.pools).map_err(OptionsError::Pools)?;
            }
        }
        Layout::Shared => {
            if opts.weights != WeightsSource::Inline {
                return Err(OptionsError::SharedWeightsInFile.into());
            }
            if !opts.pools.is_empty() {
                return Err(OptionsError::SharedWithPools.into());
            }
            let names: Vec<String> = files.iter().map(|f| module_name(f)).collect();
            for (i, n) in names.iter().enumerate() {
                if let Some(j) = names[..i].iter().position(|m| m == n) {
                    return Err(OptionsError::ModuleNameClash { first: files[j].to_owned(), second: files[i].to_owned(), name: n.clone() }.into());
                }
            }
        }
    }
    Ok(())
}

/// The one compile path: checks the options for `layout`, reads, folds and lowers every model
/// once, plans each, lays them out as `layout` says (one arena, pools, or one arena shared by
/// several models), checks the result against the target's limits and `max_arena`, and emits
/// the module through codegen's one entry point ([`codegen::generate`]).
fn build(models: &[(String, &[u8])], layout: Layout, opts: &CompileOptions) -> Result<Built, Error> {
    let files: Vec<&str> = models.iter().map(|(f, _)| f.as_str()).collect();
    check_options(&files, layout, opts)?;
    let limits = SizeLimits::for_target(opts.target_pointer_width)?;
    let blame = |i: usize, e: Error| if layout == Layout::Shared { in_model(files[i], e) } else { e };
    // Each phase's output lives in its own vector, so the next phase can borrow it.
    let mut reads = Vec::new();
    for (i, (_, bytes)) in models.iter().enumerate() {
        reads.push(crate::passes::read_model(bytes).map_err(|e| blame(i, e.into()))?);
    }
    let mut resolved = Vec::new();
    for (i, read) in reads.iter().enumerate() {
        resolved.push(crate::passes::resources::resolve(read).map_err(|e| blame(i, e))?);
    }
    let sources: Vec<&crate::ir::Model<'_>> = reads.iter().zip(&resolved).map(|(r, res)| res.as_ref().map_or(r, |x| &x.0)).collect();
    let folded: Vec<FoldedModel> = sources.iter().map(|m| FoldedModel::of(m)).collect();
    let mut irs: Vec<crate::ir::Model<'_>> = folded.iter().zip(&sources).map(|(f, m)| f.apply_with(m, crate::passes::fold::KeptWeights { f16: opts.keep_f16_weights, lut: !opts.decode_weights, int4: !opts.decode_weights })).collect();
    for (i, ir) in irs.iter_mut().enumerate() {
        apply_custom_kernels(ir, &opts.custom_kernels).map_err(|e| blame(i, e))?;
        apply_custom_scratch(ir, &opts.custom_scratch).map_err(|e| blame(i, e))?;
    }
    let lms: Vec<LoweredModel<'_, '_>> = irs.iter().map(lower_model).collect();
    let mut constants = 0u64;
    for (i, (model, lm)) in irs.iter().zip(&lms).enumerate() {
        lm.check().map_err(|e| blame(i, e))?;
        for &id in &lm.order {
            limits.check_tensors(&model.subgraphs[id], opts.target_pointer_width).map_err(|e| blame(i, e))?;
        }
        constants += lm.order.iter().map(|&id| constant_bytes(&model.subgraphs[id])).sum::<u64>();
    }
    let base = PlanOptions { align: opts.align as u64, ..PlanOptions::default() };
    let copts: Vec<CodegenOptions> = models.iter().map(|(file, bytes)| codegen_options(bytes, opts, file)).collect();
    match layout {
        Layout::Single => {
            let lm = &lms[0];
            let Some(lowered) = lm.main() else { return Err(Error::Internal("the model has no subgraph".into())) };
            let mut model_plan = plan_model(lm, &base)?;
            let Some(mut plan) = model_plan.main().cloned() else { return Err(Error::Internal("the entry subgraph has no plan".into())) };
            if !opts.pools.is_empty() {
                if lm.has_calls() {
                    return Err(OptionsError::PoolsWithCalls.into());
                }
                plan = crate::plan::pools::apply(&plan, lowered.sg, &opts.pools, &plan_options(lowered, base))?;
                if let Some(Some(main)) = model_plan.subgraphs.iter_mut().next() {
                    *main = plan.clone();
                }
            }
            limits.check(plan.plan.arena_bytes, constants, opts.target_pointer_width)?;
            if let Some(max) = opts.max_arena {
                crate::plan::budget::check_max_arena(&plan, lowered.sg, max)?;
            }
            let generated = codegen::generate(codegen::ModuleLayout::Single { model: lm, plan: &model_plan, opts: &copts[0] })?;
            // Codegen may add tables and packed copies: check the blob it emits too.
            // A build keeps the main blob and at most one scope's.
            let scoped = generated.scoped_weights.iter().map(|(_, b)| b.len()).max().unwrap_or(0);
            limits.check(plan.plan.arena_bytes, (generated.weights.len() + scoped) as u64, opts.target_pointer_width)?;
            let mut kept = std::collections::BTreeMap::new();
            for sg in lm.subgraphs.iter().flatten() {
                for (t, b) in sg.ops.iter().filter_map(|l| l.kernel.as_ref().ok()?.kept_compressed()) {
                    *kept.entry((sg.sg.id.index(), t)).or_insert(0) += b;
                }
            }
            let compressed = crate::inspect::compressed_weights(&irs[0], &kept);
            let int4: Vec<(usize, crate::ir::TensorId, usize)> = lm
                .subgraphs
                .iter()
                .flatten()
                .flat_map(|sg| sg.ops.iter().filter_map(|l| l.kernel.as_ref().ok()?.kept_int4()).map(move |(t, b)| (sg.sg.id.index(), t, b)))
                .collect();
            let int4_kept = crate::inspect::kept_int4(&irs[0], &int4);
            Ok(Built::Single(Box::new(Compiled { code: generated.code, weights: generated.weights, scoped_weights: generated.scoped_weights, plan, model_plan, compressed, int4_kept })))
        }
        Layout::Shared => {
            let names: Vec<String> = files.iter().map(|f| module_name(f)).collect();
            let mut candidates = Vec::new();
            let mut separate = Vec::new();
            for (i, lm) in lms.iter().enumerate() {
                let alone = plan_model(lm, &base).map_err(|e| blame(i, e.into()))?;
                let persistent = plan_model(lm, &PlanOptions { persistent_io: true, ..base.clone() }).map_err(|e| blame(i, e.into()))?;
                separate.push(alone.arena_bytes());
                candidates.push(crate::plan::joint::Candidate { persistent, alone });
            }
            let (plans, joint) = crate::plan::joint::join(candidates);
            let violations = crate::plan::joint::check(&plans, &joint);
            if !violations.is_empty() {
                return Err(Error::Internal(format!("the joint plan failed verification: {}", violations.join("; "))));
            }
            limits.check(joint.arena_bytes, constants, opts.target_pointer_width)?;
            let mut out = CompiledModels { code: String::new(), names, joint, plans, separate_arena_bytes: separate };
            if let Some(max) = opts.max_arena {
                if out.arena_bytes() > max {
                    return Err(Error::OverBudget(crate::plan::budget::OverBudget {
                        arena_bytes: out.arena_bytes(),
                        max_arena: max,
                        message: format!(
                            "the joint arena needs {} bytes, over the max-arena budget of {max} bytes by {}\n{}",
                            out.arena_bytes(),
                            out.arena_bytes() - max,
                            out.report().trim_end()
                        ),
                    }));
                }
            }
            let shas: Vec<String> = files.iter().zip(&copts).map(|(file, c)| format!("{file} (sha256:{})", c.model_sha256)).collect();
            let parts: Vec<codegen::SharedModel<'_, '_, '_>> = lms
                .iter()
                .enumerate()
                .map(|(i, lm)| codegen::SharedModel {
                    model: lm,
                    plan: &out.plans[i],
                    name: out.names[i].clone(),
                    doc: format!(" Model `{}` from {}: {}", out.names[i], files[i], out.placement(i)),
                    opts: &copts[i],
                })
                .collect();
            let sum: u64 = out.separate_arena_bytes.iter().sum();
            let generated = codegen::generate(codegen::ModuleLayout::Shared {
                models: parts,
                arena_bytes: out.joint.arena_bytes,
                align: opts.align,
                runtime_path: &opts.runtime_path,
                header: format!("// @generated by tflc {} from {}. Do not edit.", env!("CARGO_PKG_VERSION"), shas.join(", ")),
                arena_doc: format!(
                    " Bytes of RAM the {} models need together besides the stack: the arena inside [`Models`] (each alone: {} bytes together).",
                    out.names.len(),
                    sum
                ),
            })?;
            out.code = generated.code;
            Ok(Built::Shared(out))
        }
    }
}

/// Hands `--custom-scratch` to lowering (`Subgraph::custom_scratch`); a name that no custom
/// operator of the model has is refused (a typo would otherwise leave a kernel without its
/// scratch).
fn apply_custom_scratch(model: &mut crate::ir::Model<'_>, scratch: &std::collections::BTreeMap<String, usize>) -> Result<(), Error> {
    if scratch.is_empty() {
        return Ok(());
    }
    for name in scratch.keys() {
        if !has_custom(model, name) {
            return Err(OptionsError::CustomScratchUnused { name: name.clone() }.into());
        }
        // A built-in kernel takes no caller scratch: the scratch would be lost.
        if crate::lower::ops::mediapipe::is_builtin(name) && !model.subgraphs.iter().any(|sg| sg.custom_kernels.contains(name)) {
            return Err(OptionsError::CustomScratchBuiltin { name: name.clone() }.into());
        }
    }
    for sg in model.subgraphs.iter_mut() {
        sg.custom_scratch = scratch.clone();
    }
    Ok(())
}

/// Whether some operator of `model` is `CUSTOM:name`.
fn has_custom(model: &crate::ir::Model<'_>, name: &str) -> bool {
    model.subgraphs.iter().any(|sg| sg.ops.iter().any(|op| matches!(&op.opcode, crate::ir::OpCode::Custom(c) if c == name)))
}

/// Hands `--custom-kernel` to lowering (`Subgraph::custom_kernels`): those built-in custom
/// operators become the caller's. A name that no custom operator of the model has is refused
/// (a typo would otherwise leave the built-in kernel running), and so is a custom operator of
/// TFLite Micro's that tflc implements (folded or stateful: not a plain call to hand over).
fn apply_custom_kernels(model: &mut crate::ir::Model<'_>, kernels: &std::collections::BTreeSet<String>) -> Result<(), Error> {
    if kernels.is_empty() {
        return Ok(());
    }
    for name in kernels {
        if !has_custom(model, name) {
            return Err(OptionsError::CustomKernelUnused { name: name.clone() }.into());
        }
        if crate::lower::ops::custom::is_tflm_builtin(name) {
            return Err(OptionsError::CustomKernelNotReplaceable { name: name.clone() }.into());
        }
    }
    for sg in model.subgraphs.iter_mut() {
        sg.custom_kernels = kernels.clone();
    }
    Ok(())
}

fn codegen_options(bytes: &[u8], opts: &CompileOptions, model_name: &str) -> CodegenOptions {
    let sha = Sha256::digest(bytes);
    CodegenOptions {
        runtime_path: opts.runtime_path.clone(),
        model_name: model_name.to_owned(),
        model_sha256: sha.iter().map(|b| format!("{b:02x}")).collect(),
        weights: opts.weights.clone(),
    }
}

/// Several models compiled into one module that share one arena ([`compile_models`]).
#[derive(Debug, Clone)]
pub struct CompiledModels {
    /// The generated Rust module: one `pub mod <name>` per model and `Models`.
    pub code: String,
    /// Each model's module name, in the order given.
    pub names: Vec<String>,
    /// The joint layout: each model's persistent block, the shared region, the bound.
    pub joint: JointPlan,
    /// Each model's plan, moved into the joint arena.
    pub plans: Vec<ModelPlan>,
    /// The arena each model needs when compiled on its own ([`compile`]).
    pub separate_arena_bytes: Vec<u64>,
}

impl CompiledModels {
    /// The generated module's `ARENA_BYTES`.
    pub fn arena_bytes(&self) -> u64 {
        self.joint.arena_bytes.max(self.joint.align)
    }
    /// A few lines on the joint arena against the separate ones, per model.
    pub fn report(&self) -> String {
        let sum: u64 = self.separate_arena_bytes.iter().sum();
        let mut s = format!(
            "joint arena {} bytes for {} models (separate arenas: {} bytes together, {:.3}x); no layout keeping every model's inputs, outputs and state needs less than {} bytes{}\n",
            self.arena_bytes(),
            self.names.len(),
            sum,
            self.arena_bytes() as f64 / sum.max(1) as f64,
            self.joint.lower_bound_bytes,
            if self.arena_bytes() <= self.joint.lower_bound_bytes.max(self.joint.align) { " (optimal)" } else { "" }
        );
        for (i, name) in self.names.iter().enumerate() {
            s.push_str(&format!("  {name}: {}\n", self.placement(i)));
        }
        s
    }

    /// Where model `i` lives, in a sentence.
    pub fn placement(&self, i: usize) -> String {
        let (Some(jm), Some(alone)) = (self.joint.models.get(i), self.separate_arena_bytes.get(i)) else { return String::new() };
        let r = &jm.private;
        if jm.shares {
            format!(
                "inputs, outputs and state at arena bytes {}..{} ({} bytes), its other tensors in the shared region from byte {} ({} bytes); alone it needs {alone} bytes",
                r.start,
                r.end,
                r.end - r.start,
                self.joint.shared_start,
                jm.shared_bytes
            )
        } else {
            format!("its own plan at arena bytes {}..{} (sharing would not make the arena smaller)", r.start, r.end)
        }
    }
}

/// The module name of a model file: its stem in lower case, every other character than
/// `[a-z0-9_]` as `_`, a leading digit or a Rust keyword prefixed with `m_`.
pub fn module_name(file_name: &str) -> String {
    let stem = std::path::Path::new(file_name).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let mut n: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    const RESERVED: &[&str] = &[
        "as", "async", "await", "break", "const", "continue", "crate", "default", "dyn", "else", "enum", "extern", "false", "fn", "for", "if",
        "impl", "in", "let", "loop", "match", "mod", "move", "mut", "new", "pub", "ref", "return", "self", "static", "struct", "super",
        "trait", "true", "type", "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "gen", "macro",
        "override", "priv", "try", "typeof", "unsized", "virtual", "yield", "rt",
    ];
    if n.is_empty() || n.starts_with(|c: char| c.is_ascii_digit()) || RESERVED.contains(&n.as_str()) || n.chars().all(|c| c == '_') {
        n = format!("m_{n}");
    }
    n
}

/// Compiles several models, `(file name, bytes)` each, into one module whose models share
/// one arena: they never run at the same time, so each model's intermediate tensors share
/// bytes with the others', while each one's inputs, outputs and state keep their own bytes
/// between its runs (`plan::joint`). The weights must be inline. Each model is read and
/// lowered once.
pub fn compile_models(models: &[(String, Vec<u8>)], opts: &CompileOptions) -> Result<CompiledModels, Error> {
    let inputs: Vec<(String, &[u8])> = models.iter().map(|(f, b)| (f.clone(), b.as_slice())).collect();
    match build(&inputs, Layout::Shared, opts)? {
        Built::Shared(c) => Ok(c),
        Built::Single(_) => Err(Error::Internal("several models were laid out as one".into())),
    }
}

/// `e` with the model file named in front, for errors of one of several models.
fn in_model(file: &str, e: Error) -> Error {
    match e {
        Error::Internal(m) => Error::Internal(format!("{file}: {m}")),
        Error::Unsupported { count, details } => Error::Unsupported { count, details: format!("{file}:\n{details}") },
        // The options are the same for every model.
        e @ (Error::Options(_) | Error::Io { .. }) => e,
        e => Error::InModel { file: file.to_owned(), error: Box::new(e) },
    }
}

/// The largest memory a generated module can have on its target.
///
/// - 64-bit hosts: the arena and the weights are `static`s that the code reaches PC-relative
///   (the default small code model: ±2 GiB, `R_X86_64_PC32` / AArch64 `ADRP`), so the arena,
///   the weight blob and the two together stay below 2 GiB less 16 MiB left for code.
/// - 32-bit targets (the Cortex-M firmware): no Rust object may exceed `isize::MAX`
///   (2 GiB − 1 byte), so the same bound applies. Real microcontrollers have far less RAM
///   and flash; their linker script is the real bound, and `--max-arena` the user's own.
/// - 16-bit targets: objects below 32 KiB, everything within 64 KiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeLimits {
    /// Largest arena, weight blob or single buffer.
    pub max_object: u64,
    /// Largest arena plus weights.
    pub max_total: u64,
}

impl SizeLimits {
    /// The limits of a target with this pointer width (16, 32 or 64); an error for any other.
    pub fn for_target(pointer_width: u32) -> Result<SizeLimits, Error> {
        match pointer_width {
            64 | 32 => Ok(SizeLimits { max_object: (1 << 31) - (16 << 20), max_total: (1 << 31) - (16 << 20) }),
            16 => Ok(SizeLimits { max_object: (1 << 15) - 1, max_total: (1 << 16) - (4 << 10) }),
            bits => Err(OptionsError::PointerWidth { bits }.into()),
        }
    }

    /// Refuses any single tensor (activation or constant) larger than an object may be.
    fn check_tensors(&self, sg: &crate::ir::Subgraph<'_>, pointer_width: u32) -> Result<(), Error> {
        for t in sg.tensors.iter() {
            let bytes = t.byte_size().map_or(0, |b| b as u64);
            if bytes > self.max_object {
                return Err(Error::TooLarge {
                    pointer_width,
                    violations: vec![format!(
                        "tensor {} \"{}\" {}{:?} is {bytes} bytes, above the {}-byte limit of one buffer",
                        t.id.index(),
                        t.name,
                        t.dtype,
                        t.shape,
                        self.max_object
                    )],
                });
            }
        }
        Ok(())
    }

    /// Refuses an arena, weight blob or both beyond the limits, naming every size.
    fn check(&self, arena: u64, weights: u64, pointer_width: u32) -> Result<(), Error> {
        let mut violations = Vec::new();
        if arena > self.max_object {
            violations.push(format!("the arena is {arena} bytes, above the {}-byte limit", self.max_object));
        }
        if weights > self.max_object {
            violations.push(format!("the weights are {weights} bytes, above the {}-byte limit", self.max_object));
        }
        if violations.is_empty() && arena.saturating_add(weights) > self.max_total {
            violations.push(format!(
                "the arena ({arena} bytes) and the weights ({weights} bytes) together exceed the {}-byte limit",
                self.max_total
            ));
        }
        if violations.is_empty() {
            Ok(())
        } else {
            Err(Error::TooLarge { pointer_width, violations })
        }
    }
}

/// Bytes of constant data in `sg` (each buffer once).
fn constant_bytes(sg: &crate::ir::Subgraph<'_>) -> u64 {
    let mut seen = std::collections::BTreeSet::new();
    sg.tensors
        .iter()
        .filter_map(|t| t.data)
        .filter(|d| seen.insert((d.as_ptr() as usize, d.len())))
        .map(|d| d.len() as u64)
        .sum()
}

/// Refuses an alignment the generated code cannot express: not a power of two, below 16 (the
/// runtime's views need it), or above [`MAX_ALIGN`] (the largest `__private::Align*` wrapper).
pub fn check_align(align: usize) -> Result<(), Error> {
    if !align.is_power_of_two() || !(16..=MAX_ALIGN).contains(&align) {
        return Err(OptionsError::Align { align, max: MAX_ALIGN }.into());
    }
    Ok(())
}

/// `base` with what lowering allows the planner: every kernel's in-place pairs, the view
/// operators and the scratch each kernel needs ([`Capabilities`](crate::lower::Capabilities)).
/// Operators that did not lower contribute nothing (`tflc plan` plans such models too).
pub fn plan_options(lowered: &LoweredSubgraph<'_, '_>, base: PlanOptions) -> PlanOptions {
    base.with_caps(lowered.memory_caps())
}

/// What the planner needs of the whole lowered model, as plain data: each reached subgraph
/// with its operators' memory capabilities and its calls ([`CallGraph`]).
pub fn call_graph<'m, 'a>(lowered: &LoweredModel<'m, 'a>) -> CallGraph<'m, 'a> {
    let subgraphs = lowered
        .subgraphs
        .iter()
        .map(|l| {
            l.as_ref().map(|l| CallGraphNode {
                sg: l.sg,
                caps: l.memory_caps(),
                calls: l.ops.iter().filter_map(|op| op.kernel.as_ref().ok().and_then(|k| k.control_flow()).map(|cf| (op.id, cf.call))).collect(),
            })
        })
        .collect();
    CallGraph { subgraphs, order: lowered.order.clone() }
}

/// Plans every subgraph `lowered` reaches ([`crate::plan::plan_model`] on its [`call_graph`]).
pub fn plan_model(lowered: &LoweredModel<'_, '_>, base: &PlanOptions) -> Result<ModelPlan, crate::plan::PlanError> {
    crate::plan::plan_model(&call_graph(lowered), base)
}

/// Plans `lowered`'s subgraph with [`plan_options`].
pub fn plan(lowered: &LoweredSubgraph<'_, '_>, base: &PlanOptions) -> Result<SubgraphPlan, Error> {
    Ok(plan_subgraph(lowered.sg, &plan_options(lowered, base.clone()))?)
}
