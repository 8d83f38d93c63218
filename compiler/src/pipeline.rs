//! The compiler's phases in order, top to bottom: read and verify the model, fold its
//! constant subgraphs (`passes::fold`), lower every operator (once), plan memory from what lowering allows, emit the module from the lowered
//! operators and the plan.

use crate::codegen::{self, CodegenOptions, WeightsSource};
use crate::emit::MAX_ALIGN;
use crate::error::Error;
use crate::lower::{lower_model, LoweredModel, LoweredSubgraph};
#[cfg(test)]
use crate::lower::lower_subgraph;
use crate::passes::fold::FoldedModel;
use crate::plan::joint::JointPlan;
use crate::plan::{plan_model, plan_subgraph, ModelPlan, PlanOptions, SubgraphPlan};
use crate::tflite;
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
    /// Several memory pools, fastest first (`--pool dtcm=16K --pool sram`): the planner puts
    /// every tensor in one of them, the hottest bytes in the fastest pool they fit
    /// ([`crate::plan::pools`]), and the generated `Model` holds one arena per pool. Empty:
    /// one arena. Models that call subgraphs and several models in one module refuse pools.
    pub pools: Vec<crate::plan::pools::PoolSpec>,
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
            pools: Vec::new(),
        }
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
}

impl Compiled {
    /// The generated module's `ARENA_BYTES`.
    pub fn arena_bytes(&self) -> usize {
        codegen::arena_bytes(&self.plan)
    }
}

/// Compiles model bytes to a Rust module.
pub fn compile(bytes: &[u8], opts: &CompileOptions) -> Result<Compiled, Error> {
    check_align(opts.align)?;
    with_lowered(bytes, opts, |model, lm| {
        let Some(lowered) = lm.main() else { return Err(Error::Codegen("the model has no subgraph".into())) };
        let limits = SizeLimits::for_target(opts.target_pointer_width)?;
        for &id in &lm.order {
            limits.check_tensors(&model.subgraphs[id], opts.target_pointer_width)?;
        }
        let base = PlanOptions { align: opts.align as u64, ..PlanOptions::default() };
        let mut model_plan = plan_model(lm, &base)?;
        let Some(mut plan) = model_plan.main().cloned() else { return Err(Error::Codegen("the entry subgraph has no plan".into())) };
        if !opts.pools.is_empty() {
            if lm.has_calls() {
                return Err(Error::Codegen("--pool: models that call subgraphs (IF, WHILE, CALL_ONCE) keep one arena; compile this model without --pool".into()));
            }
            crate::plan::pools::check_specs(&opts.pools).map_err(Error::Codegen)?;
            plan = crate::plan::pools::apply(&plan, lowered.sg, &opts.pools, &crate::pipeline::plan_options(lowered, base))?;
            if let Some(Some(main)) = model_plan.subgraphs.iter_mut().next() {
                *main = plan.clone();
            }
        }
        let constants: u64 = lm.order.iter().map(|&id| constant_bytes(&model.subgraphs[id])).sum();
        limits.check(plan.plan.arena_bytes, constants, opts.target_pointer_width)?;
        if let Some(max) = opts.max_arena {
            crate::plan::budget::check_max_arena(&plan, lowered.sg, max)?;
        }
        let copts = codegen_options(bytes, opts, &opts.model_name);
        let generated = if lm.has_calls() { codegen::generate_model(lm, &model_plan, &copts)? } else { codegen::generate(lowered, &plan, &copts)? };
        // Codegen may add tables and packed copies: check the blob it emits too.
        // A build keeps the main blob and at most one scope's.
        let scoped = generated.scoped_weights.iter().map(|(_, b)| b.len()).max().unwrap_or(0);
        limits.check(plan.plan.arena_bytes, (generated.weights.len() + scoped) as u64, opts.target_pointer_width)?;
        Ok(Compiled { code: generated.code, weights: generated.weights, scoped_weights: generated.scoped_weights, plan, model_plan })
    })
}

/// Reads `bytes`, resolves resource variables, folds constant subgraphs (float16 weights
/// kept as `opts` says) and lowers subgraph
/// 0 and every subgraph it calls (each once), checks every lowering error at once, and hands
/// the folded model and its lowering to `f`.
fn with_lowered<R>(bytes: &[u8], opts: &CompileOptions, f: impl FnOnce(&crate::ir::Model<'_>, &LoweredModel<'_, '_>) -> Result<R, Error>) -> Result<R, Error> {
    let read = tflite::read_model(bytes)?;
    let resolved = crate::passes::resources::resolve(&read)?;
    let read = resolved.as_ref().map_or(&read, |r| &r.0);
    let folded = FoldedModel::of(read);
    let model = folded.apply_with(read, opts.keep_f16_weights);
    let lm = lower_model(&model);
    lm.check()?;
    f(&model, &lm)
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
/// between its runs (`plan::joint`). The weights must be inline.
pub fn compile_models(models: &[(String, Vec<u8>)], opts: &CompileOptions) -> Result<CompiledModels, Error> {
    check_align(opts.align)?;
    if models.is_empty() {
        return Err(Error::Codegen("no model to compile".into()));
    }
    if opts.weights != WeightsSource::Inline {
        return Err(Error::Codegen("several models in one module keep their weights inline; weights in a file are for one model at a time".into()));
    }
    if !opts.pools.is_empty() {
        return Err(Error::Codegen("--pool: several models in one module share one arena; memory pools are for one model at a time (compile each model with its own --pool)".into()));
    }
    let names: Vec<String> = models.iter().map(|(f, _)| module_name(f)).collect();
    for (i, n) in names.iter().enumerate() {
        if let Some(j) = names[..i].iter().position(|m| m == n) {
            return Err(Error::Codegen(format!("{} and {} both become module `{n}`; rename one file", models[j].0, models[i].0)));
        }
    }
    let limits = SizeLimits::for_target(opts.target_pointer_width)?;
    let base = PlanOptions { align: opts.align as u64, ..PlanOptions::default() };
    let mut candidates = Vec::new();
    let mut separate = Vec::new();
    let mut constants = 0u64;
    for (file, bytes) in models {
        let (c, c_bytes) = with_lowered(bytes, opts, |model, lm| {
            for &id in &lm.order {
                limits.check_tensors(&model.subgraphs[id], opts.target_pointer_width)?;
            }
            let alone = plan_model(lm, &base)?;
            let persistent = plan_model(lm, &PlanOptions { persistent_io: true, ..base.clone() })?;
            let c: u64 = lm.order.iter().map(|&id| constant_bytes(&model.subgraphs[id])).sum();
            Ok((crate::plan::joint::Candidate { persistent, alone }, c))
        })
        .map_err(|e| in_model(file, e))?;
        separate.push(c.alone.arena_bytes());
        candidates.push(c);
        constants += c_bytes;
    }
    let (plans, joint) = crate::plan::joint::join(candidates);
    let violations = crate::plan::joint::check(&plans, &joint);
    if !violations.is_empty() {
        return Err(Error::Codegen(format!("the joint plan failed verification: {}", violations.join("; "))));
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
    let mut parts = Vec::new();
    let mut shas = Vec::new();
    for (i, (file, bytes)) in models.iter().enumerate() {
        let copts = codegen_options(bytes, opts, file);
        shas.push(format!("{file} (sha256:{})", copts.model_sha256));
        let doc = format!(" Model `{}` from {file}: {}", out.names[i], out.placement(i));
        let part = with_lowered(bytes, opts, |_, lm| codegen::shared_part(lm, &out.plans[i], &out.names[i], doc, &copts)).map_err(|e| in_model(file, e))?;
        parts.push(part);
    }
    let header = format!("// @generated by tflc {} from {}. Do not edit.", env!("CARGO_PKG_VERSION"), shas.join(", "));
    let sum: u64 = out.separate_arena_bytes.iter().sum();
    let arena_doc = format!(
        " Bytes of RAM the {} models need together besides the stack: the arena inside [`Models`] (each alone: {} bytes together).",
        out.names.len(),
        sum
    );
    out.code = codegen::generate_shared(parts, out.joint.arena_bytes, opts.align, &opts.runtime_path, &header, &arena_doc)?.code;
    Ok(out)
}

/// `e` with the model file named in front, for errors of one of several models.
fn in_model(file: &str, e: Error) -> Error {
    match e {
        Error::Codegen(m) => Error::Codegen(format!("{file}: {m}")),
        Error::Unsupported { count, details } => Error::Unsupported { count, details: format!("{file}:\n{details}") },
        e => Error::Codegen(format!("{file}: {e}")),
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
            w => Err(Error::Codegen(format!("target pointer width {w} is not 16, 32 or 64"))),
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
        return Err(Error::Codegen(format!("alignment {align} is not a power of two from 16 to {MAX_ALIGN}")));
    }
    Ok(())
}

/// `base` with what lowering allows the planner: every kernel's in-place pairs, the view
/// operators and the scratch each kernel needs ([`Capabilities`](crate::lower::Capabilities)).
/// Operators that did not lower contribute nothing (`tflc plan` plans such models too).
pub fn plan_options(lowered: &LoweredSubgraph<'_, '_>, base: PlanOptions) -> PlanOptions {
    PlanOptions {
        in_place: lowered.in_place(),
        overlap: lowered.overlap(),
        views: lowered.views(),
        barriers: lowered.barriers(),
        folded: lowered.folded(),
        scratch: lowered.scratch().into_iter().map(|(op, bytes)| (op, bytes as u64)).collect(),
        ..base
    }
}

/// Plans `lowered`'s subgraph with [`plan_options`].
pub fn plan(lowered: &LoweredSubgraph<'_, '_>, base: &PlanOptions) -> Result<SubgraphPlan, Error> {
    Ok(plan_subgraph(lowered.sg, &plan_options(lowered, base.clone()))?)
}

#[cfg(all(test, feature = "format"))]
mod tests {
    use super::*;
    use crate::ir::{Activation, DType, OpKind};
    use crate::tflite::builder::ModelBuilder;

    /// x -> LEAKY_RELU -> a -> RELU -> b -> ADD(x, b) -> c -> MUL(c, c) -> d -> TANH -> y:
    /// RELU, ADD (over its operand 2, swapped) and TANH run in place; LEAKY_RELU cannot (x is
    /// a model input), MUL cannot (it reads c twice).
    #[test]
    fn in_place_pairs_reach_the_plan_and_the_generated_calls() {
        let q = Some((0.05, -3));
        let mut m = ModelBuilder::new();
        let s = [1, 64];
        let x = m.activation("x", DType::I8, &s, q);
        let a = m.activation("a", DType::I8, &s, q);
        let b = m.activation("b", DType::I8, &s, q);
        let c = m.activation("c", DType::I8, &s, Some((0.1, 2)));
        let d = m.activation("d", DType::I8, &s, Some((0.2, 0)));
        let y = m.activation("y", DType::I8, &s, Some((1.0 / 128.0, 0)));
        m.op(OpKind::LeakyRelu { alpha: 0.25 }, &[Some(x)], &[a]);
        m.op(OpKind::Relu, &[Some(a)], &[b]);
        m.op(OpKind::Add { activation: Activation::None }, &[Some(x), Some(b)], &[c]);
        m.op(OpKind::Mul { activation: Activation::None }, &[Some(c), Some(c)], &[d]);
        m.op(OpKind::Tanh, &[Some(d)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let bytes = m.finish();

        let model = tflite::read_model(&bytes).unwrap();
        let declared = lower_subgraph(model.main()).in_place();
        let ops: Vec<usize> = declared.iter().map(|p| p.0.index()).collect();
        assert_eq!(ops, [0, 1, 2, 2, 4], "{declared:?}");

        let compiled = compile(&bytes, &CompileOptions::default()).unwrap();
        let realized: Vec<usize> = compiled.plan.in_place_pairs().iter().map(|p| p.0.index()).collect();
        assert_eq!(realized, [1, 2, 4]);
        // x, and one slot for a/b/c, then c and d (MUL), d/y in one slot.
        assert_eq!(compiled.plan.plan.arena_bytes, 128);
        let code = &compiled.code;
        for call in ["leaky_relu_s8(", "relu_s8_in_place(", "add_s8_in_place(", "mul_s8(", "tanh_s8_in_place("] {
            assert!(code.contains(call), "{call} missing:\n{code}");
        }
        assert!(!code.contains("leaky_relu_s8_in_place") && !code.contains("mul_s8_in_place"));
        // ADD writes c over b (its operand 2): x is the only input view, c the only output.
        let add = code.find("add_s8_in_place(").unwrap();
        let io_call = &code[code[..add].rfind("io(").unwrap()..add];
        assert!(io_call.contains(&format!("[T{}], [T{}]", x.index(), c.index())), "{io_call}");
        assert_eq!(compiled.plan.tensor_region(b), compiled.plan.tensor_region(c));
    }

    /// The `(start, end)` of every `const NAME: ::core::ops::Range<usize> = a..b;` in `code`
    /// whose name starts with `prefix`.
    fn ranges(code: &str, prefix: &str) -> Vec<(usize, usize)> {
        code.lines()
            .filter_map(|l| l.strip_prefix("const ")?.strip_prefix(prefix))
            .filter_map(|l| l.split_once(": ::core::ops::Range<usize> = "))
            .filter_map(|(_, r)| r.trim_end_matches(';').split_once(".."))
            .map(|(a, b)| (a.parse().unwrap(), b.parse().unwrap()))
            .collect()
    }

    /// `--align 64`: arena and blob wrappers, every arena range and every weight and table
    /// offset are multiples of 64, and the planner planned with 64.
    #[test]
    fn align_reaches_arena_blob_and_every_offset() {
        for (name, bytes) in crate::testing::models::all() {
            let opts = CompileOptions { align: 64, ..CompileOptions::default() };
            let c = compile(&bytes, &opts).unwrap();
            let code = &c.code;
            assert_eq!(c.plan.plan.align, 64);
            assert!(!code.contains("Align16"), "{name}:\n{code}");
            assert!(code.contains("arena: rt::__private::Align64<[u8; ARENA_BYTES]>"), "{name}");
            let (t, w) = (ranges(code, "T"), ranges(code, "W"));
            assert!(!t.is_empty(), "{name}");
            for (a, _) in t.iter().chain(&w) {
                assert_eq!(a % 64, 0, "{name}: range at {a}\n{code}");
            }
            assert_eq!(c.arena_bytes() % 64, 0, "{name}");
            if !c.weights.is_empty() {
                assert!(code.contains("static WEIGHTS: rt::__private::Align64<"), "{name}");
                assert!(code.contains("/// Every weight and compile-time table, 64-byte aligned, in flash."), "{name}");
            }
            // The default keeps 16.
            let d = compile(&bytes, &CompileOptions::default()).unwrap();
            assert!(d.code.contains("Align16") && !d.code.contains("Align64"), "{name}");
        }
    }

    /// Every lowering error at once, before anything is planned or emitted.
    #[test]
    fn every_lowering_error_is_reported() {
        let q = Some((0.1, 0));
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[1, 8], q);
        let a = m.activation("a", DType::I8, &[1, 8], q);
        let y = m.activation("y", DType::I8, &[1, 8], q);
        m.op_spec(crate::tflite::builder::OpSpecCode::Custom("Mine".into()), &[Some(x)], &[a]);
        m.op(OpKind::Div { activation: Activation::None }, &[Some(a), Some(a)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        match compile(&m.finish(), &CompileOptions::default()) {
            Err(Error::Unsupported { count: 2, details }) => {
                assert!(details.starts_with("op 0 (CUSTOM:Mine): unsupported: custom operator\nop 1 (DIV)"), "{details}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn alignments_outside_16_to_4096_are_refused() {
        let bytes = crate::testing::models::tiny_cnn();
        for align in [0, 8, 24, 8192] {
            let e = compile(&bytes, &CompileOptions { align, ..CompileOptions::default() }).unwrap_err().to_string();
            assert!(e.contains(&format!("alignment {align} is not a power of two from 16 to 4096")), "{e}");
        }
        for align in [16, 32, 128, 4096] {
            let c = compile(&bytes, &CompileOptions { align, ..CompileOptions::default() }).unwrap();
            assert!(c.code.contains(&format!("Align{align}<")), "{align}");
        }
    }

    /// The observer hooks: every kernel call sits between `observer.before(&OPS[k])` and
    /// `observer.after(&OPS[k])`, k counting the operators that run code, and `OPS` names
    /// each (index in the model, opcode); `run()` is `run_with(&mut NoObserver)`.
    #[test]
    fn every_kernel_call_is_observed() {
        let bytes = crate::testing::models::tiny_cnn();
        let code = compile(&bytes, &CompileOptions::default()).unwrap().code;
        let calls = code.matches("rt::__private::io(").count();
        assert_eq!(calls, 6, "{code}");
        for k in 0..calls {
            let before = code.find(&format!("observer.before(&OPS[{k}]);")).unwrap();
            let after = code.find(&format!("observer.after(&OPS[{k}]);")).unwrap();
            assert_eq!(code[before..after].matches("rt::__private::io(").count(), 1, "{code}");
        }
        assert!(code.contains(&format!("pub const OPS: [rt::OpInfo; {calls}]")), "{code}");
        assert!(code.contains("self.run_with(&mut rt::NoObserver)"), "{code}");
        // Op 4 (RESHAPE) is a view: no code, no entry.
        assert!(code.contains("index: 3,") && !code.contains("index: 4,") && code.contains("index: 5,"), "{code}");
        assert!(code.contains("opcode: \"DEPTHWISE_CONV_2D\""), "{code}");
    }

    /// The builder model `in_place`: every op after the first writes over its input.
    #[test]
    fn every_in_place_variant_is_emitted() {
        let compiled = compile(&crate::testing::models::in_place(), &CompileOptions::default()).unwrap();
        assert_eq!(compiled.plan.in_place_pairs().len(), 12, "{:?}", compiled.plan.in_place_pairs());
        for f in [
            "quantize_s8_s8_in_place(", "add_s8_in_place(", "mul_s8_in_place(", "hard_swish_s8_in_place(",
            "maximum_in_place(", "minimum_in_place(", "prelu_s8_in_place(", "sub_s8_in_place(", "relu_s8_in_place(",
            "tanh_s8_in_place(", "logistic_s8_in_place(", "squared_difference_s8_in_place(",
        ] {
            assert!(compiled.code.contains(f), "{f} missing:\n{}", compiled.code);
        }
        // x (input) and one slot for the chain.
        assert_eq!(compiled.plan.plan.arena_bytes, 2 * 80);
    }

    /// The arena of `bytes` planned without the kernels' in-place pairs (what it was before
    /// the kernels declared them).
    fn arena_without_in_place(bytes: &[u8]) -> u64 {
        let model = crate::tflite::read_model(bytes).unwrap();
        let lowered = crate::lower::lower_subgraph(model.main());
        let options = plan_options(&lowered, crate::plan::PlanOptions { verify: true, ..crate::plan::PlanOptions::default() });
        let apart = crate::plan::PlanOptions { in_place: Vec::new(), ..options };
        crate::plan::plan_subgraph(model.main(), &apart).unwrap().plan.arena_bytes
    }

    /// The builder models `in_place_f32` and `in_place_s16`: every float32, int32 and int16
    /// `_in_place` kernel is emitted (operand 2 too for ADD and MUL), and each chain runs in
    /// one slot.
    #[test]
    fn every_float_int32_and_int16_in_place_variant_is_emitted() {
        let bytes = crate::testing::models::in_place_f32();
        let compiled = compile(&bytes, &CompileOptions::default()).unwrap();
        assert_eq!(compiled.plan.in_place_pairs().len(), 17 + 5, "{:?}", compiled.plan.in_place_pairs());
        for f in [
            "relu_f32_in_place(", "add_f32_in_place(", "relu6_f32_in_place(", "mul_f32_in_place(", "sub_f32_in_place(",
            "div_f32_in_place(", "relu_n1_to_1_f32_in_place(", "prelu_f32_in_place(", "hard_swish_f32_in_place(",
            "tanh_f32_in_place(", "logistic_f32_in_place(", "maximum_in_place(", "minimum_in_place(",
            "squared_difference_f32_in_place(", "floor_div_f32_in_place(", "floor_mod_f32_in_place(", "neg_f32_in_place(",
            "mul_i32_in_place(", "sub_i32_in_place(", "div_i32_in_place(", "squared_difference_i32_in_place(",
        ] {
            assert!(compiled.code.contains(f), "{f} missing:\n{}", compiled.code);
        }
        // x and one slot for the float32 chain, plus the int32 input n (a model input, live
        // from the start); the int32 chain's one slot runs after the float32 chain, in x's.
        let (f32_bytes, i32_bytes): (u64, u64) = (72 * 4, 24 * 4);
        assert_eq!(compiled.plan.plan.arena_bytes, 2 * f32_bytes + i32_bytes);
        assert!(arena_without_in_place(&bytes) >= 3 * f32_bytes + i32_bytes);

        let bytes = crate::testing::models::in_place_s16();
        let compiled = compile(&bytes, &CompileOptions::default()).unwrap();
        assert_eq!(compiled.plan.in_place_pairs().len(), 9, "{:?}", compiled.plan.in_place_pairs());
        for f in [
            "add_s16_in_place(", "mul_s16_in_place(", "sub_s16_in_place(", "relu_s16_in_place(",
            "squared_difference_s16_in_place(", "quantize_s16_s16_in_place(", "maximum_in_place(", "minimum_in_place(",
        ] {
            assert!(compiled.code.contains(f), "{f} missing:\n{}", compiled.code);
        }
        let s16_bytes: u64 = 72 * 2;
        assert_eq!(compiled.plan.plan.arena_bytes, 2 * s16_bytes);
        assert!(arena_without_in_place(&bytes) >= 3 * s16_bytes);
    }
}
