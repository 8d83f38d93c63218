//! A custom operator tflc has no kernel for: the caller's kernel runs it. The generated module
//! asks for it through its `CustomOps` trait (`codegen::custom`), one method per distinct
//! custom code, and `run` takes the implementation; see `docs/CUSTOM_OPS.md`.
//!
//! The lowering checks what the call needs to be typed and safe: every input present, every
//! element type one generated code has views for, static output shapes, outputs that are
//! neither constants nor inputs nor each other. The planner sees a plain operator that reads
//! its inputs and writes fresh outputs (no in-place pair, no view), plus the scratch bytes its
//! code was given (`Subgraph::custom_scratch`). The reference interpreter cannot run the
//! caller's Rust code: `execute` says so, naming the operator.

use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, OpCode, TensorId};
use proc_macro2::TokenStream;
use quote::quote;

/// A custom operator whose kernel the caller provides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserCustom {
    /// Its custom code.
    pub code: String,
    /// Its index in the subgraph.
    pub op_index: usize,
    /// Its inputs, all present, in order.
    pub inputs: Vec<TensorId>,
    /// Its outputs, in order.
    pub outputs: Vec<TensorId>,
    /// Arena scratch bytes the caller asked for this code (0: none).
    pub scratch: usize,
}

/// The Rust element type of a custom operator's view of a `dtype` tensor: the arena view's,
/// or bytes for bool (one per element, 0 or 1, as TFLite stores it). `None`: no view.
pub fn view_elem(dtype: DType) -> Option<&'static str> {
    dtype.arena_elem().or((dtype == DType::Bool).then_some("u8"))
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<UserCustom, LowerError> {
    let OpCode::Custom(code) = &cx.op.opcode else {
        return Err(cx.unsupported(cx.op.unsupported_reason().unwrap_or("tflc has no kernel for this operator yet")));
    };
    if cx.sg.id.index() != 0 {
        return Err(cx.unsupported(
            "a custom operator inside a called subgraph (an IF, WHILE or CALL_ONCE body): the caller's kernels reach the entry subgraph only",
        ));
    }
    let mut inputs = Vec::new();
    for (i, t) in cx.op.inputs.iter().enumerate() {
        let Some(t) = *t else {
            return Err(cx.unsupported(format!("input {i} is omitted (an optional input): a custom operator's kernel takes every input it declares")));
        };
        let tensor = cx.sg.tensor(t);
        if view_elem(tensor.dtype).is_none() {
            return Err(cx.unsupported_tensor(tensor, format!("input {i} has element type {}, which generated code has no view for", tensor.dtype)));
        }
        inputs.push(t);
    }
    if cx.op.outputs.is_empty() {
        return Err(cx.invalid("a custom operator without outputs"));
    }
    for (i, &t) in cx.op.outputs.iter().enumerate() {
        let tensor = cx.sg.tensor(t);
        if view_elem(tensor.dtype).is_none() {
            return Err(cx.unsupported_tensor(tensor, format!("output {i} has element type {}, which generated code has no view for", tensor.dtype)));
        }
        if tensor.has_dynamic_signature() {
            return Err(cx.unsupported_tensor(
                tensor,
                format!(
                    "output {i}'s shape is unknown at compile time (shape_signature {:?}): a custom operator's outputs need a static shape; give the converter one (a fixed input shape, or set the output's shape when building the model)",
                    tensor.shape_signature.as_deref().unwrap_or_default()
                ),
            ));
        }
        if tensor.is_constant() {
            return Err(cx.invalid_tensor(tensor, format!("output {i} is a constant")));
        }
        if inputs.contains(&t) {
            return Err(cx.invalid_tensor(tensor, format!("output {i} is also an input")));
        }
        if cx.op.outputs[..i].contains(&t) {
            return Err(cx.invalid_tensor(tensor, format!("output {i} repeats an earlier output")));
        }
    }
    let scratch = cx.sg.custom_scratch.get(code).copied().unwrap_or(0);
    Ok(UserCustom { code: code.clone(), op_index: cx.op.id.index(), inputs, outputs: cx.op.outputs.clone(), scratch })
}

/// Why the reference interpreter (`tflc run`, `interp`) cannot run operator `op_index` of
/// custom code `code`, and how to run it.
pub fn no_kernel_here(op_index: usize, code: &str) -> String {
    format!(
        "op {op_index} (CUSTOM:{code}): the interpreter has no kernel for custom operator {code:?}: its kernel is yours; compile the model (tflc MODEL -o OUT.rs, include_model!) and pass your implementation of the generated `CustomOps` trait to `Model::run` (see docs/CUSTOM_OPS.md)"
    )
}

impl Kernel for UserCustom {
    fn execute(&self, _: &mut TensorStore) -> Result<(), ExecError> {
        Err(ExecError(no_kernel_here(self.op_index, &self.code)))
    }

    /// Codegen emits the call itself ([`Kernel::user_custom`]): it names the trait method.
    fn emit(&self, _: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        quote! { compile_error!("tflc: a custom operator's call is emitted by codegen") }
    }

    fn scratch_bytes(&self) -> usize {
        self.scratch
    }

    fn user_custom(&self) -> Option<&UserCustom> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use crate::error::LowerError;
    use crate::ir::DType;
    use crate::tflite::builder::{ModelBuilder, OpSpecCode, TensorSpec};

    fn one(name: &str, build: impl FnOnce(&mut ModelBuilder) -> (Vec<Option<crate::ir::TensorId>>, Vec<crate::ir::TensorId>)) -> Result<String, LowerError> {
        let mut m = ModelBuilder::new();
        let (ins, outs) = build(&mut m);
        m.op_spec(OpSpecCode::Custom(name.into()), &ins, &outs);
        let graph_ins: Vec<_> = ins.iter().flatten().copied().collect();
        m.inputs(&graph_ins).outputs(&outs);
        lower_op0(&m.finish()).map(|k| format!("{k:?}"))
    }

    /// Any custom code tflc has no kernel for lowers to the caller's kernel; what the call
    /// cannot express is refused naming op, code and tensor.
    #[test]
    fn custom_operators_lower_to_the_callers_kernel_or_say_why_not() {
        let ok = one("MyOwnOp", |m| {
            let x = m.activation("x", DType::I8, &[1, 4], Some((0.1, 0)));
            let y = m.activation("y", DType::F32, &[4], None);
            (vec![Some(x)], vec![y])
        })
        .unwrap();
        assert!(ok.contains("UserCustom") && ok.contains("MyOwnOp"), "{ok}");

        let e = one("MyOwnOp", |m| {
            let x = m.activation("x", DType::I8, &[1, 4], Some((0.1, 0)));
            let y = m.activation("y", DType::F16, &[4], None);
            (vec![Some(x)], vec![y])
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("op 0 (CUSTOM:MyOwnOp)") && e.contains("\"y\"") && e.contains("float16"), "{e}");

        let e = one("MyOwnOp", |m| {
            let x = m.activation("x", DType::I8, &[1, 4], Some((0.1, 0)));
            let y = m.activation("y", DType::I8, &[1, 4], Some((0.1, 0)));
            (vec![Some(x), None], vec![y])
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("op 0 (CUSTOM:MyOwnOp)") && e.contains("input 1 is omitted"), "{e}");
    }

    /// An output whose shape the converter could not infer (a dynamic `shape_signature`) is
    /// refused naming op and tensor.
    #[test]
    fn unknown_output_shapes_are_refused_naming_op_and_tensor() {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::F32, &[1, 4], None);
        let y = m.tensor(TensorSpec {
            name: "dyn_out".into(),
            dtype: DType::F32,
            shape: vec![1, 4],
            shape_signature: Some(vec![-1, 4]),
            quant: None,
            data: None,
            variable: false,
        });
        m.op_spec(OpSpecCode::Custom("Mine".into()), &[Some(x)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let e = lower_op0(&m.finish()).unwrap_err();
        let s = e.to_string();
        assert!(matches!(e, LowerError::Unsupported { .. }), "{s}");
        assert!(s.contains("op 0 (CUSTOM:Mine)") && s.contains("dyn_out") && s.contains("unknown at compile time"), "{s}");
    }
}
