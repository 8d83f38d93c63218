//! TFLite Micro's custom operators: the registry's one entry for them ([`lower`] dispatches
//! by name to `detection_postprocess.rs`, `decode.rs`, `circular_buffer.rs` and the signal
//! library's `signal.rs`) and MediaPipe's operators (`mediapipe.rs`, unless the caller
//! supplies the kernel: `Subgraph::custom_kernels`); any other custom code is the caller's kernel (`user_custom.rs`,
//! `docs/CUSTOM_OPS.md`).

use super::{circular_buffer, decode, detection_postprocess, mediapipe, signal, user_custom, ExecError, Kernel, OpCx, TensorStore};
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
    CircularBuffer(circular_buffer::CircularBuffer),
    /// MediaPipe's operators.
    MediaPipe(mediapipe::MediaPipe),
    /// Any other custom code: the caller's kernel (`docs/CUSTOM_OPS.md`).
    User(user_custom::UserCustom),
}

/// Whether `code` is one of TFLite Micro's custom operators tflc implements (their kernels
/// are not the caller's to replace: `--custom-kernel` refuses them).
pub fn is_tflm_builtin(code: &str) -> bool {
    code == "TFLite_Detection_PostProcess" || code == "TFLM_DECODE" || code == circular_buffer::NAME || signal::is_signal_op(code)
}

/// Lowers a custom operator by its name (any other operator the reader left unsupported
/// keeps its reason).
pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Custom, LowerError> {
    match &cx.op.opcode {
        OpCode::Custom(c) if c == "TFLite_Detection_PostProcess" => Ok(Custom::DetectionPostProcess(detection_postprocess::lower(cx)?)),
        OpCode::Custom(c) if c == "TFLM_DECODE" => Ok(Custom::Decode(decode::lower(cx)?)),
        OpCode::Custom(c) if c == circular_buffer::NAME => Ok(Custom::CircularBuffer(circular_buffer::lower(cx)?)),
        OpCode::Custom(c) if signal::is_signal_op(c) => Ok(Custom::Signal(signal::lower(cx)?)),
        OpCode::Custom(c) if mediapipe::is_builtin(c) && !cx.sg.custom_kernels.contains(c) => Ok(Custom::MediaPipe(mediapipe::lower(cx, c)?)),
        OpCode::Custom(_) => Ok(Custom::User(user_custom::lower(cx)?)),
        // A builtin the reader does not know keeps its reason.
        _ => Ok(Custom::Signal(signal::lower(cx)?)),
    }
}

impl Custom {
    fn kernel(&self) -> &dyn Kernel {
        match self {
            Custom::DetectionPostProcess(k) => k,
            Custom::Decode(k) => k,
            Custom::Signal(k) => k,
            Custom::CircularBuffer(k) => k,
            Custom::MediaPipe(k) => k,
            Custom::User(k) => k,
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

    fn stops(&self) -> bool {
        self.kernel().stops()
    }

    fn user_custom(&self) -> Option<&user_custom::UserCustom> {
        self.kernel().user_custom()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use crate::ir::DType;
    use crate::tflite::builder::{ModelBuilder, OpSpecCode};

    /// A custom operator TFLite Micro does not register is the caller's kernel; a name of the
    /// signal library's family that tflc does not know is still that family's refusal.
    #[test]
    fn unknown_custom_operators_are_the_callers() {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[1, 1, 1, 4], Some((0.1, 0)));
        let y = m.activation("y", DType::I8, &[1, 5, 1, 4], Some((0.1, 0)));
        m.op_spec(OpSpecCode::Custom("MyOwnOp".into()), &[Some(x)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let k = lower_op0(&m.finish()).unwrap();
        assert_eq!(k.user_custom().map(|u| u.code.as_str()), Some("MyOwnOp"));
        assert_eq!(k.scratch_bytes(), 0);
    }
}
