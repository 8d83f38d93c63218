//! The compiler's phases in order, top to bottom: read and verify the model, plan memory,
//! lower every operator and emit the module.

use crate::codegen::{self, CodegenOptions, Layout, WeightsSource};
use crate::error::Error;
use crate::ir::{OpId, Subgraph, TensorId};
use crate::plan::{plan_subgraph, PlanOptions};
use crate::tflite;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

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
    /// Call `__private::op_marker(N)` before each operator's kernel (for per-operator
    /// instruction counts, `examples/firmware/run.sh --per-op`). Off: output unchanged.
    pub op_markers: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        Self { runtime_path: "::tflc_runtime".into(), align: 16, model_name: "model.tflite".into(), weights: WeightsSource::Inline, op_markers: false }
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
        op_markers: opts.op_markers,
    };
    let generated = codegen::generate(&model, &layout, &copts)?;
    Ok(Compiled { code: generated.code, weights: generated.weights, layout })
}

/// The (op, input, output) tensor pairs whose kernels may write the output over the input
/// ([`Kernel::in_place`](crate::lower::ops::Kernel::in_place)), for [`PlanOptions::in_place`].
/// Ops that do not lower declare nothing (codegen reports them).
pub fn declared_in_place(sg: &Subgraph<'_>) -> Vec<(OpId, TensorId, TensorId)> {
    let mut declared = Vec::new();
    for op in sg.ops.iter() {
        let Ok(kernel) = crate::lower::ops::lower(sg, op) else { continue };
        for (i, o) in kernel.in_place() {
            let (Some(x), Some(&y)) = (op.input(i), op.outputs.get(o)) else { continue };
            // Only arena tensors can share bytes.
            if !sg.tensor(x).is_constant() && !sg.tensor(y).is_constant() {
                declared.push((op.id, x, y));
            }
        }
    }
    declared
}

/// The memory layout of subgraph 0: the planner's operator order and offsets. Every kernel's
/// in-place pairs ([`Kernel::in_place`](crate::lower::ops::Kernel::in_place)) go to the planner;
/// those it placed at one offset become [`Layout::in_place`].
pub fn plan_layout(model: &crate::ir::Model<'_>, opts: &CompileOptions) -> Result<Layout, Error> {
    let sg = model.main();
    let declared = declared_in_place(sg);
    let popts = PlanOptions { align: opts.align as u64, in_place: declared.clone(), ..PlanOptions::default() };
    let p = plan_subgraph(sg, &popts)?;
    let offsets: BTreeMap<TensorId, usize> = p.tensor_offsets().into_iter().map(|(t, o)| (t, o as usize)).collect();
    // The planner places an in-place pair at one offset or apart (never partly overlapping).
    let in_place = declared
        .into_iter()
        .filter(|&(_, x, y)| matches!((offsets.get(&x), offsets.get(&y)), (Some(a), Some(b)) if a == b))
        .collect();
    Ok(Layout {
        arena_bytes: (p.plan.arena_bytes as usize).max(opts.align),
        offsets,
        schedule: p.plan.schedule.clone(),
        aliased: p.aliased_ops(),
        in_place,
    })
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
        let declared = declared_in_place(model.main());
        let ops: Vec<usize> = declared.iter().map(|p| p.0.index()).collect();
        assert_eq!(ops, [0, 1, 2, 2, 4], "{declared:?}");

        let compiled = compile(&bytes, &CompileOptions::default()).unwrap();
        let realized: Vec<usize> = compiled.layout.in_place.iter().map(|p| p.0.index()).collect();
        assert_eq!(realized, [1, 2, 4]);
        // x, and one slot for a/b/c, then c and d (MUL), d/y in one slot.
        assert_eq!(compiled.layout.arena_bytes, 128);
        let code = &compiled.code;
        for call in ["leaky_relu_s8(", "relu_s8_in_place(", "add_s8_in_place(", "mul_s8(", "tanh_s8_in_place("] {
            assert!(code.contains(call), "{call} missing:\n{code}");
        }
        assert!(!code.contains("leaky_relu_s8_in_place") && !code.contains("mul_s8_in_place"));
        // ADD writes c over b (its operand 2): x is the only input view, c the only output.
        let add = code.find("add_s8_in_place(").unwrap();
        let io_call = &code[code[..add].rfind("io(").unwrap()..add];
        assert!(io_call.contains(&format!("[T{}], [T{}]", x.index(), c.index())), "{io_call}");
        assert_eq!(compiled.layout.offsets[&b], compiled.layout.offsets[&c]);
    }

    /// `op_markers`: one `op_marker(N)` before each kernel call, none without the option.
    #[test]
    fn op_markers_precede_each_kernel_call_only_when_asked() {
        let bytes = crate::testing::models::in_place();
        let plain = compile(&bytes, &CompileOptions::default()).unwrap().code;
        let marked = compile(&bytes, &CompileOptions { op_markers: true, ..CompileOptions::default() }).unwrap().code;
        assert!(!plain.contains("op_marker"));
        assert_eq!(marked.matches("rt::__private::op_marker(").count(), marked.matches("rt::__private::io(").count());
        assert!(marked.contains("rt::__private::op_marker(0);"), "{marked}");
    }

    /// The builder model `in_place`: every op after the first writes over its input.
    #[test]
    fn every_in_place_variant_is_emitted() {
        let compiled = compile(&crate::testing::models::in_place(), &CompileOptions::default()).unwrap();
        assert_eq!(compiled.layout.in_place.len(), 11, "{:?}", compiled.layout.in_place);
        for f in [
            "quantize_s8_s8_in_place(", "add_s8_in_place(", "mul_s8_in_place(", "hard_swish_s8_in_place(",
            "maximum_in_place(", "minimum_in_place(", "prelu_s8_in_place(", "sub_s8_in_place(", "relu_s8_in_place(",
            "tanh_s8_in_place(", "logistic_s8_in_place(",
        ] {
            assert!(compiled.code.contains(f), "{f} missing:\n{}", compiled.code);
        }
        // x (input) and one slot for the chain.
        assert_eq!(compiled.layout.arena_bytes, 2 * 80);
    }
}
