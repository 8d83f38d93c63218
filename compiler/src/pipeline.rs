//! The compiler's phases in order, top to bottom: read and verify the model, plan memory,
//! lower every operator and emit the module.

use crate::codegen::{self, CodegenOptions, Layout, WeightsSource};
use crate::error::Error;
use crate::plan::{plan_subgraph, PlanOptions};
use crate::tflite;
use sha2::{Digest, Sha256};

/// How to compile.
#[derive(Debug, Clone)]
pub struct CompileOptions {
    /// Path of the runtime crate in the generated code.
    pub runtime_path: String,
    /// Alignment of every arena buffer, in bytes (a power of two, at least 16).
    pub align: usize,
    /// The model's file name, for the header.
    pub model_name: String,
    /// Weights inline (a byte-string literal) or in a file beside the module.
    pub weights: WeightsSource,
}

impl Default for CompileOptions {
    fn default() -> Self {
        Self { runtime_path: "::tflc_runtime".into(), align: 16, model_name: "model.tflite".into(), weights: WeightsSource::Inline }
    }
}

/// A compiled model.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The generated Rust module.
    pub code: String,
    /// The weight blob (to write beside the module when the weights are in a file).
    pub weights: Vec<u8>,
    pub layout: Layout,
}

/// Compiles model bytes to a Rust module.
pub fn compile(bytes: &[u8], opts: &CompileOptions) -> Result<Compiled, Error> {
    if !opts.align.is_power_of_two() || opts.align < 16 {
        return Err(Error::Codegen(format!("alignment {} is not a power of two of at least 16", opts.align)));
    }
    let model = tflite::read_model(bytes)?;
    let layout = plan_layout(&model, opts)?;
    let sha = Sha256::digest(bytes);
    let model_sha256: String = sha.iter().map(|b| format!("{b:02x}")).collect();
    let copts = CodegenOptions {
        runtime_path: opts.runtime_path.clone(),
        model_name: opts.model_name.clone(),
        model_sha256,
        weights: opts.weights.clone(),
    };
    let generated = codegen::generate(&model, &layout, &copts)?;
    Ok(Compiled { code: generated.code, weights: generated.weights, layout })
}

/// The memory layout of subgraph 0: the planner's operator order and offsets.
pub fn plan_layout(model: &crate::ir::Model<'_>, opts: &CompileOptions) -> Result<Layout, Error> {
    let sg = model.main();
    let popts = PlanOptions { align: opts.align as u64, ..PlanOptions::default() };
    let p = plan_subgraph(sg, &popts)?;
    Ok(Layout {
        arena_bytes: (p.plan.arena_bytes as usize).max(opts.align),
        offsets: p.tensor_offsets().into_iter().map(|(t, o)| (t, o as usize)).collect(),
        schedule: p.plan.schedule.clone(),
        aliased: p.aliased_ops(),
    })
}
