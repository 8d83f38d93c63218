//! The control-flow family: IF, WHILE and CALL_ONCE call other subgraphs.
//!
//! Mirrors TFLite Micro `if.cc`, `while.cc` and `call_once.cc`:
//! - IF: input 0 is a bool scalar; the other inputs are copied into the chosen branch's
//!   inputs, the branch runs, its outputs are copied into the op's outputs;
//! - WHILE: the inputs are copied into the condition's inputs and into the op's outputs
//!   (which carry the loop's values); while the condition's bool output 0 is true the op's
//!   outputs are copied into the body's inputs, the body runs, its outputs are copied into
//!   the op's outputs, and the condition runs again on them;
//! - CALL_ONCE: no inputs or outputs; runs its init subgraph on the first invocation only.
//!
//! Lowering checks what one operator shows (arity, the IF condition); what needs the callee
//! subgraphs (counts, element types and static shapes of their inputs and outputs, no
//! recursion) is checked by `lower::lower_model`, which sees the whole model. The calls
//! themselves are not kernels: `codegen` emits them as calls of the callees' functions and
//! `interp` runs them, both from [`ControlFlow`].

use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, SubgraphId, TensorId};
use proc_macro2::TokenStream;
use quote::quote;

pub use crate::ir::Call;

/// A lowered control-flow operator: what it calls and the tensors it passes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControlFlow {
    /// Which subgraphs it calls, and how.
    pub call: Call,
    /// IF's condition (its input 0).
    pub cond: Option<TensorId>,
    /// The values passed to the callee: IF's inputs 1.., WHILE's inputs.
    pub inputs: Vec<TensorId>,
    /// The op's outputs (WHILE: the loop-carried values).
    pub outputs: Vec<TensorId>,
}

/// `(callee, the caller tensors its inputs come from, those its outputs go to)`.
pub type Binding<'c> = (SubgraphId, &'c [TensorId], Option<&'c [TensorId]>);

impl ControlFlow {
    /// `(callee, its inputs fed from, its outputs copied to)` for the checks of
    /// `lower_model`: the caller's tensors each callee's inputs and outputs correspond to
    /// (`None`: the callee's outputs are not copied to the op's, as the WHILE condition's).
    pub fn bindings(&self) -> Vec<Binding<'_>> {
        match self.call {
            Call::If { then_subgraph, else_subgraph } => vec![
                (then_subgraph, &self.inputs, Some(&self.outputs)),
                (else_subgraph, &self.inputs, Some(&self.outputs)),
            ],
            Call::While { cond_subgraph, body_subgraph } => {
                vec![(cond_subgraph, &self.inputs, None), (body_subgraph, &self.outputs, Some(&self.outputs))]
            }
            // The init subgraph's inputs and outputs are the shared state it uses
            // (`passes::resources`), copied from and back into their variable tensors.
            Call::CallOnce { init_subgraph } => vec![(init_subgraph, &self.inputs, Some(&self.outputs))],
        }
    }
}

/// Every input present (control-flow ops have no optional inputs).
fn present(cx: &OpCx<'_, '_>) -> Result<Vec<TensorId>, LowerError> {
    cx.op.inputs.iter().enumerate().map(|(i, t)| t.ok_or_else(|| cx.invalid(format!("input {i} is missing")))).collect()
}

pub(crate) fn lower_if(cx: &OpCx<'_, '_>, then_subgraph: SubgraphId, else_subgraph: SubgraphId) -> Result<ControlFlow, LowerError> {
    let inputs = present(cx)?;
    let Some((&cond, rest)) = inputs.split_first() else {
        return Err(cx.invalid("IF needs its condition as input 0"));
    };
    let c = cx.sg.tensor(cond);
    if c.dtype != DType::Bool || c.num_elements() != 1 {
        return Err(cx.invalid_tensor(c, format!("the condition must be one bool, found {}{:?}", c.dtype, c.shape)));
    }
    Ok(ControlFlow { call: Call::If { then_subgraph, else_subgraph }, cond: Some(cond), inputs: rest.to_vec(), outputs: cx.op.outputs.clone() })
}

pub(crate) fn lower_while(cx: &OpCx<'_, '_>, cond_subgraph: SubgraphId, body_subgraph: SubgraphId) -> Result<ControlFlow, LowerError> {
    let inputs = present(cx)?;
    if inputs.len() != cx.op.outputs.len() {
        return Err(cx.invalid(format!("WHILE has {} inputs and {} outputs (they must match)", inputs.len(), cx.op.outputs.len())));
    }
    for (&x, &y) in inputs.iter().zip(&cx.op.outputs) {
        let (a, b) = (cx.sg.tensor(x), cx.sg.tensor(y));
        if a.dtype != b.dtype || a.shape != b.shape {
            return Err(cx.invalid_tensor(b, format!("loop value is {}{:?} but the input is {}{:?}", b.dtype, b.shape, a.dtype, a.shape)));
        }
    }
    Ok(ControlFlow { call: Call::While { cond_subgraph, body_subgraph }, cond: None, inputs, outputs: cx.op.outputs.clone() })
}

/// CALL_ONCE has no inputs and no outputs in a file; `passes::resources` gives it the entry
/// subgraph's variable tensors of the shared state its init subgraph uses (resource
/// variables), as inputs and as outputs, one by one.
pub(crate) fn lower_call_once(cx: &OpCx<'_, '_>, init_subgraph: SubgraphId) -> Result<ControlFlow, LowerError> {
    let inputs = present(cx)?;
    if inputs != cx.op.outputs {
        return Err(cx.invalid("CALL_ONCE has no inputs or outputs (its inputs and outputs must be the variables its init subgraph uses, in one order)"));
    }
    for &t in &cx.op.outputs {
        let v = cx.sg.tensor(t);
        if !v.is_variable {
            return Err(cx.invalid_tensor(v, "CALL_ONCE has no outputs (an output must be a variable its init subgraph uses)"));
        }
    }
    Ok(ControlFlow { call: Call::CallOnce { init_subgraph }, cond: None, inputs, outputs: cx.op.outputs.clone() })
}

impl Kernel for ControlFlow {
    /// A call needs the callees: `interp` runs it from [`Kernel::control_flow`].
    fn execute(&self, _: &mut TensorStore) -> Result<(), ExecError> {
        Err(ExecError("a control-flow operator runs through its callee subgraphs (interp::run_steps), not on one store".into()))
    }

    /// Codegen emits the call from [`Kernel::control_flow`] (it needs the callees' plans);
    /// this is never reached.
    fn emit(&self, _: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        quote! { compile_error!("tflc: a control-flow operator is emitted by codegen::control_flow"); }
    }

    fn control_flow(&self) -> Option<&ControlFlow> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::models::{control_call_once_var, control_if, control_while_if};

    /// Runs `bytes` on `inputs` in the interpreter and in the generated plan's checks; writes
    /// the model and its inputs for `tools/op_test_vectors.py` under `TFLC_DUMP_OP_MODELS`.
    fn run(name: &str, bytes: &[u8], inputs: &[Vec<u8>]) -> Vec<Vec<u8>> {
        if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(format!("{name}.tflite")), bytes).unwrap();
            for (i, x) in inputs.iter().enumerate() {
                std::fs::write(dir.join(format!("{name}.in{i}.bin")), x).unwrap();
            }
        }
        let model = crate::passes::read_model(bytes).unwrap();
        let refs: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
        crate::interp::run(&model, &refs).unwrap()
    }

    fn i8s(v: &[i8]) -> Vec<u8> {
        v.iter().map(|&x| x as u8).collect()
    }

    /// Expected outputs from TFLite Micro (`tools/op_test_vectors.py`, all outputs).
    #[test]
    fn if_matches_tflite_micro() {
        let x = i8s(&[-100, 0, 50, 120]);
        let cases: [(i32, &[i8]); 3] = [
            // k < 0: ADD of [10, -20, 30, 127] (both at scale 0.1, zero point -2).
            (-3, &[-88, -18, 82, 127]),
            // k >= 0: RELU (clamps at the zero point, -2).
            (0, &[-2, 0, 50, 120]),
            (5, &[-2, 0, 50, 120]),
        ];
        let outs: Vec<_> = cases.iter().map(|&(k, _)| run(&format!("control_if_k{}", k.rem_euclid(100)), &control_if(), &[k.to_le_bytes().to_vec(), x.clone()])).collect();
        for ((k, want), out) in cases.into_iter().zip(outs) {
            assert_eq!(out[0], i8s(want), "k = {k}");
        }
    }

    #[test]
    fn while_with_nested_if_matches_tflite_micro() {
        let x = i8s(&[-50, -10, 20, 100]);
        let cases: [(i32, &[i8]); 3] = [
            // i = 0..9: six ADDs of [7, -3, 15, 1] (i < 6), then four RELUs.
            (-4, &[4, -2, 122, 118]),
            // i = 7, 8, 9: RELU three times.
            (7, &[-2, -2, 20, 100]),
            // n clamps to 8: i = 8, 9.
            (100, &[-2, -2, 20, 100]),
        ];
        let outs: Vec<_> = cases.iter().map(|&(n, _)| run(&format!("control_while_if_n{}", n.rem_euclid(1000)), &control_while_if(), &[n.to_le_bytes().to_vec(), x.clone()])).collect();
        for ((n, want), out) in cases.into_iter().zip(outs) {
            assert_eq!(out[0], i8s(want), "n = {n}");
            assert_eq!(out[1], 10i32.max(n.clamp(0, 8)).to_le_bytes().to_vec(), "n = {n}");
        }
    }

    /// Constants crossing subgraph boundaries (`testing::models::control_constants`): entry
    /// constants as WHILE loop values and IF inputs, a body constant as a loop value's next
    /// value, a branch constant as the IF's result. TFLite Micro's outputs
    /// (`tools/op_test_vectors.py`); the generated code is compared with the interpreter by
    /// `tests/generated-compile`.
    #[test]
    fn constants_across_subgraphs_match_tflite_micro() {
        let bytes = crate::testing::models::control_constants();
        let x = i8s(&[-100, 0, 50, 120]);
        // Three iterations: `acc = x + w0 + w1 + w1` (int8 ADD, saturating), `w` ends as the
        // body's constant `w1`; k < 0 adds the entry constant `c`, else the branch constant.
        let loop_outs = [i8s(&[-95, 17, 80, 127]), i8s(&[-3, 9, 2, 30])];
        let cases: [(i32, &[i8]); 2] = [(-1, &[-123, 59, 85, 29]), (2, &[11, -22, 33, -44])];
        for (k, want) in cases {
            let out = run(&format!("control_constants_k{}", k.rem_euclid(100)), &bytes, &[x.clone(), k.to_le_bytes().to_vec()]);
            assert_eq!(out[0], i8s(want), "k = {k}");
            assert_eq!(out[1], 3i32.to_le_bytes().to_vec(), "k = {k}");
            assert_eq!(out[2..], loop_outs, "k = {k}");
        }
        // The constants are copied from the weights into the callees' inputs and the loop
        // values, and from the callees' weights into the caller's tensors.
        let compiled = crate::pipeline::compile(&bytes, &crate::pipeline::CompileOptions::default()).unwrap();
        let copies = compiled.code.matches(".copy_from_slice(&WEIGHTS.0[").count();
        assert!(copies >= 6, "{copies} copies from the weights:\n{}", compiled.code);
    }

    /// Models TensorFlow's converter made (`tools/control_flow_converter_models.py`,
    /// tensorflow-cpu 2.21.0, float32): a Keras GRU and an `RNN(LSTMCell)` with
    /// `unroll=False` (their time loop a WHILE whose inputs include the entry subgraph's
    /// constants: the step counter's start, the bound, the initial state), a `tf.while_loop`
    /// and a `tf.cond` (an IF).
    const CONVERTER_MODELS: &[(&str, &[u8])] = &[
        ("cf_cond", include_bytes!("../../../tests/data/control_flow/cf_cond.tflite")),
        ("cf_gru", include_bytes!("../../../tests/data/control_flow/cf_gru.tflite")),
        ("cf_lstm_cell", include_bytes!("../../../tests/data/control_flow/cf_lstm_cell.tflite")),
        ("cf_while_loop", include_bytes!("../../../tests/data/control_flow/cf_while_loop.tflite")),
    ];

    /// TFLite Micro's output 0 (float32 bits) on the input `x[i] = ((i * 37) % 17 - 8) / 8`
    /// (pip tflite-micro 0.dev20261023182759; `python3 tools/control_flow_vectors.py
    /// compiler/tests/data/control_flow`, which also runs ai-edge-litert 2.3.0: same bits).
    #[rustfmt::skip]
    const TFLM_CONVERTER_OUT: &[(&str, &[u32])] = &[
        ("cf_cond", &[3221225472, 3218079744, 3214934016, 3210739712]),
        ("cf_gru", &[1046341479, 1038464694, 1049831504, 1034404632]),
        ("cf_lstm_cell", &[3156311009, 1028301990, 3194291687, 3186173098]),
        ("cf_while_loop", &[1072955392, 1073053696, 1073152000, 1073250304]),
    ];

    /// The converter's control flow (constants passed into WHILE and IF subgraphs) compiles
    /// and computes TFLite Micro's outputs (float32: within `1e-5` of the largest magnitude;
    /// the kernels' float order is TFLite's, so in practice bit for bit).
    #[test]
    fn converter_control_flow_matches_tflite_micro() {
        for &(name, bytes) in CONVERTER_MODELS {
            let model = crate::passes::read_model(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            let sg = model.main();
            let ins: Vec<Vec<u8>> = sg
                .inputs
                .iter()
                .map(|&t| {
                    let n = sg.tensor(t).num_elements();
                    (0..n).flat_map(|i| (((i * 37) % 17) as f32 / 8.0 - 1.0).to_le_bytes()).collect()
                })
                .collect();
            let out = run(name, bytes, &ins);
            let got: Vec<f32> = out[0].chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            let want: Vec<f32> = TFLM_CONVERTER_OUT.iter().find(|c| c.0 == name).unwrap().1.iter().map(|&b| f32::from_bits(b)).collect();
            let scale = want.iter().fold(0f32, |m, v| m.max(v.abs()));
            assert_eq!(got.len(), want.len(), "{name}");
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() <= 1e-5 * scale, "{name}: {got:?} vs TFLite Micro {want:?}");
            }
            let compiled = crate::pipeline::compile(bytes, &crate::pipeline::CompileOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(compiled.code.contains("fn subgraph_"), "{name}: calls a subgraph");
        }
    }

    /// CALL_ONCE initialising a resource variable that the main subgraph accumulates into
    /// (VAR_HANDLE, READ_VARIABLE, ADD, ASSIGN_VARIABLE): TFLite Micro's outputs for
    /// `x = [5, -7, 1, 20]` over three runs on one interpreter (the variable starts at the
    /// init subgraph's `[10, -20, 30, 100]`, int8 at scale 0.1, zero point -2; the ADD
    /// saturates at 127), from `tools/op_test_vectors.py`.
    #[test]
    fn call_once_initialises_a_resource_variable_as_tflite_micro() {
        let bytes = control_call_once_var();
        if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("control_call_once_var.tflite"), &bytes).unwrap();
            std::fs::write(dir.join("control_call_once_var.in0.bin"), i8s(&[5, -7, 1, 20])).unwrap();
        }
        let model = crate::passes::read_model(&bytes).unwrap();
        let x = i8s(&[5, -7, 1, 20]);
        let runs = crate::interp::run_steps(&model, &[&[&x], &[&x], &[&x]]).unwrap();
        let want = [[17, -25, 33, 122], [24, -30, 36, 127], [31, -35, 39, 127]];
        for (run, (got, want)) in runs.iter().zip(want).enumerate() {
            assert_eq!(got[0], i8s(&want), "run {run}");
        }
        // The plan keeps the variable in the entry subgraph's arena, apart from the frame.
        let compiled = crate::pipeline::compile(&bytes, &crate::pipeline::CompileOptions::default()).unwrap();
        assert!(compiled.code.contains("resource acc"), "{}", compiled.code);
    }


    /// Runs `bytes` over consecutive `steps` (the inputs of each run) on one interpreter and
    /// returns every run's outputs; writes the model and each step's inputs
    /// (`<name>.s<k>.in<i>.bin`, run by `tools/op_test_vectors.py` as consecutive invokes of
    /// one TFLite Micro interpreter) under `TFLC_DUMP_OP_MODELS`.
    fn run_steps(name: &str, bytes: &[u8], steps: &[Vec<Vec<u8>>]) -> Vec<Vec<Vec<u8>>> {
        if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(format!("{name}.tflite")), bytes).unwrap();
            for (k, ins) in steps.iter().enumerate() {
                for (i, x) in ins.iter().enumerate() {
                    std::fs::write(dir.join(format!("{name}.s{k}.in{i}.bin")), x).unwrap();
                }
            }
        }
        let model = crate::passes::read_model(bytes).unwrap();
        let refs: Vec<Vec<&[u8]>> = steps.iter().map(|s| s.iter().map(|v| v.as_slice()).collect()).collect();
        let refs: Vec<&[&[u8]]> = refs.iter().map(|s| s.as_slice()).collect();
        crate::interp::run_steps(&model, &refs).unwrap()
    }

    /// State shared across subgraphs (`passes::resources`), against TFLite Micro over
    /// consecutive runs of one interpreter (`testing::models::stateful_control_flow_cases`):
    /// a WHILE body accumulating into a resource variable (each iteration sees the value the
    /// previous one assigned; the entry subgraph reads it after the loop), an IF whose
    /// then-branch assigns a variable a CALL_ONCE init set and whose else-branch reads it,
    /// and an SVDF's variable state inside a WHILE body (carried across iterations and runs).
    #[test]
    fn state_shared_across_subgraphs_matches_tflite_micro_over_runs() {
        let cases = crate::testing::models::stateful_control_flow_cases();
        assert_eq!(cases.len(), 4);
        for case in cases {
            let steps: Vec<Vec<Vec<u8>>> = case.runs.iter().map(|r| r.0.clone()).collect();
            let got = run_steps(case.name.trim_start_matches("builder_"), &case.model, &steps);
            assert_eq!(got.len(), case.runs.len());
            for (k, (out, (_, want))) in got.iter().zip(&case.runs).enumerate() {
                assert_eq!(out, want, "{} run {k}", case.name);
            }
        }
    }

    /// Handles passed between subgraphs, variables never assigned, assignments inside a WHILE
    /// condition and a callee variable that is also a callee input are refused, naming the
    /// operator.
    #[test]
    fn unsupported_resource_patterns_are_refused_naming_the_op() {
        use crate::ir::{Activation, DType, OpKind, SubgraphId};
        use crate::tflite::builder::ModelBuilder;
        let q = Some((0.1, -2));
        let handle = || OpKind::VarHandle { container: String::new(), shared_name: "acc".into() };
        // Read, never assigned.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[1, 4], q);
        let h = b.activation("h", DType::Resource, &[], None);
        let v = b.activation("v", DType::I8, &[1, 4], q);
        let y = b.activation("y", DType::I8, &[1, 4], q);
        b.op(handle(), &[], &[h]);
        b.op(OpKind::ReadVariable, &[Some(h)], &[v]);
        b.op(OpKind::Add { activation: Activation::None }, &[Some(v), Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        let e = crate::pipeline::compile(&b.finish(), &crate::pipeline::CompileOptions::default()).unwrap_err().to_string();
        assert!(e.contains("op 1 (READ_VARIABLE)") && e.contains("never assigned"), "{e}");

        // An ASSIGN_VARIABLE inside a WHILE condition.
        let mut b = ModelBuilder::new();
        let n = b.activation("n", DType::I32, &[], None);
        let x = b.activation("x", DType::I8, &[1, 4], q);
        let h = b.activation("h", DType::Resource, &[], None);
        let (n1, x1) = (b.activation("n1", DType::I32, &[], None), b.activation("x1", DType::I8, &[1, 4], q));
        b.op(handle(), &[], &[h]);
        b.op(OpKind::AssignVariable, &[Some(h), Some(x)], &[]);
        b.op(OpKind::While { cond_subgraph: SubgraphId::new(1), body_subgraph: SubgraphId::new(2) }, &[Some(n), Some(x)], &[n1, x1]);
        b.inputs(&[n, x]).outputs(&[x1]);
        b.new_subgraph("cond");
        let (cn, cx) = (b.activation("n", DType::I32, &[], None), b.activation("x", DType::I8, &[1, 4], q));
        let h = b.activation("h", DType::Resource, &[], None);
        let more = b.activation("more", DType::Bool, &[], None);
        let zero = b.constant_i32("zero", &[], &[0], None);
        b.op(handle(), &[], &[h]);
        b.op(OpKind::AssignVariable, &[Some(h), Some(cx)], &[]);
        b.op(OpKind::Less, &[Some(cn), Some(zero)], &[more]);
        b.inputs(&[cn, cx]).outputs(&[more]);
        b.new_subgraph("body");
        let (bn, bx) = (b.activation("n", DType::I32, &[], None), b.activation("x", DType::I8, &[1, 4], q));
        b.inputs(&[bn, bx]).outputs(&[bn, bx]);
        let e = crate::pipeline::compile(&b.finish(), &crate::pipeline::CompileOptions::default()).unwrap_err().to_string();
        assert!(e.contains("subgraph 1") && e.contains("op 1 (ASSIGN_VARIABLE)") && e.contains("WHILE condition"), "{e}");

        // A callee's variable tensor that is also its input: the call would overwrite it.
        let mut b = ModelBuilder::new();
        let c = b.activation("c", DType::Bool, &[], None);
        let x = b.activation("x", DType::I8, &[1, 4], q);
        let y = b.activation("y", DType::I8, &[1, 4], q);
        b.op(OpKind::If { then_subgraph: SubgraphId::new(1), else_subgraph: SubgraphId::new(1) }, &[Some(c), Some(x)], &[y]);
        b.inputs(&[c, x]).outputs(&[y]);
        b.new_subgraph("branch");
        let a = b.tensor(crate::tflite::builder::TensorSpec {
            name: "a".into(),
            dtype: DType::I8,
            shape: vec![1, 4],
            shape_signature: None,
            quant: Some(crate::ir::Quantization { scale: vec![0.1], zero_point: vec![-2], axis: None }),
            data: None,
            variable: true,
        });
        let r = b.activation("r", DType::I8, &[1, 4], q);
        b.op(OpKind::Relu, &[Some(a)], &[r]);
        b.inputs(&[a]).outputs(&[r]);
        let e = crate::pipeline::compile(&b.finish(), &crate::pipeline::CompileOptions::default()).unwrap_err().to_string();
        assert!(e.contains("subgraph 1") && e.contains("op 0 (RELU)") && e.contains("also an input or output"), "{e}");

        // A handle that is a subgraph input (passed in by the caller).
        let mut b = ModelBuilder::new();
        let h = b.activation("h", DType::Resource, &[], None);
        let x = b.activation("x", DType::I8, &[1, 4], q);
        b.op(OpKind::AssignVariable, &[Some(h), Some(x)], &[]);
        let y = b.activation("y", DType::I8, &[1, 4], q);
        b.op(OpKind::Relu, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        let e = crate::pipeline::compile(&b.finish(), &crate::pipeline::CompileOptions::default()).unwrap_err().to_string();
        assert!(e.contains("op 0 (ASSIGN_VARIABLE)") && e.contains("VAR_HANDLE of the same subgraph"), "{e}");
    }
}
