//! TFLite Micro's custom operators: the registry's one entry for them ([`lower`] dispatches
//! by name to `detection_postprocess.rs`, `decode.rs` and the signal library's `signal.rs`), and those
//! tflc does not lower yet, refused with the reason. Each reason says what the operator
//! needs that tflc lacks, read from TFLite Micro's kernel:
//! - `CIRCULAR_BUFFER` (`circular_buffer.cc`): int8, input `[1, 1, 1, depth]`, output
//!   `[1, num_slots, 1, depth]` kept across invokes (the op shifts it by one slot); its
//!   `cycles_max` comes from the flexbuffer's element 0, or, when absent, from a heuristic on
//!   the output shape (1 for 5, 13 or 25 slots, else 2, with a static prepare counter).
//!   While the countdown has not reached zero its Eval returns `kTfLiteAbort` and the
//!   interpreter stops the graph there ("no output yet"): tflc's generated `run()` has no
//!   such early return and no state for it.

use super::{decode, detection_postprocess, signal, ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::OpCode;
use proc_macro2::TokenStream;

/// A lowered custom operator.
#[derive(Debug, Clone)]
pub enum Custom {
    DetectionPostProcess(detection_postprocess::DetectionPostProcess),
    Decode(decode::Decode),
    Signal(signal::Signal),
}

/// Lowers a custom operator by its name (any other operator the reader left unsupported
/// keeps its reason).
pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Custom, LowerError> {
    match &cx.op.opcode {
        OpCode::Custom(c) if c == "TFLite_Detection_PostProcess" => Ok(Custom::DetectionPostProcess(detection_postprocess::lower(cx)?)),
        OpCode::Custom(c) if c == "TFLM_DECODE" => Ok(Custom::Decode(decode::lower(cx)?)),
        _ => Ok(Custom::Signal(signal::lower(cx)?)),
    }
}

impl Custom {
    fn kernel(&self) -> &dyn Kernel {
        match self {
            Custom::DetectionPostProcess(k) => k,
            Custom::Decode(k) => k,
            Custom::Signal(k) => k,
        }
    }
}

/// Every method the custom kernels implement, forwarded.
impl Kernel for Custom {
    fn execute(&self, store: &mut TensorStore) -> Result<(), ExecError> {
        self.kernel().execute(store)
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        self.kernel().emit(cx)
    }

    fn scratch_bytes(&self) -> usize {
        self.kernel().scratch_bytes()
    }
}

/// The refusal for a custom operator listed above, `None` for any other operator.
pub(crate) fn refusal(cx: &OpCx<'_, '_>) -> Option<LowerError> {
    let OpCode::Custom(name) = &cx.op.opcode else {
        return None;
    };
    let reason = match name.as_str() {
        "CIRCULAR_BUFFER" => {
            "TFLite Micro's CIRCULAR_BUFFER keeps its output across invokes and stops the graph (kTfLiteAbort, \"no output yet\") until cycles_max invokes have passed; tflc's generated run() has neither the state nor the early return yet"
        }
        _ => return None,
    };
    Some(cx.unsupported(reason))
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use crate::error::LowerError;
    use crate::ir::DType;
    use crate::tflite::builder::{ModelBuilder, OpSpecCode};

    /// Each is refused with its reason, the op named; a custom operator of another name
    /// keeps the generic refusal.
    #[test]
    fn refusals_name_the_reason() {
        for (name, needle) in [
            ("CIRCULAR_BUFFER", "kTfLiteAbort"),
            ("MyOwnOp", "custom operator"),
        ] {
            let mut m = ModelBuilder::new();
            let x = m.activation("x", DType::I8, &[1, 1, 1, 4], Some((0.1, 0)));
            let y = m.activation("y", DType::I8, &[1, 5, 1, 4], Some((0.1, 0)));
            m.op_spec(OpSpecCode::Custom(name.into()), &[Some(x)], &[y]);
            m.inputs(&[x]).outputs(&[y]);
            let e = lower_op0(&m.finish()).expect_err(name);
            assert!(matches!(e, LowerError::Unsupported { .. }) && e.to_string().contains(needle), "{name}: {e}");
        }
    }
}
