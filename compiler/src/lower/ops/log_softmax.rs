//! LOG_SOFTMAX, float32 (TFLite Micro `log_softmax.cc`, `reference_ops::LogSoftmax`):
//! rows of the last dimension, `kernels::elementwise::log_softmax_f32`. TFLite Micro also
//! has int8 (output scale 16/256, zero point 127, `PreprocessLogSoftmaxScalingExp`); tflc
//! does not implement it yet and refuses it with the op named.

use super::unary::{lower_unary, Unary};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::DType;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::elementwise::{log_softmax_f32, LogSoftmaxParams};

crate::runtime_struct_lit!(kernels::elementwise::LogSoftmaxParams { depth });

#[derive(Debug, Clone)]
pub struct LogSoftmax {
    pub un: Unary,
    pub params: LogSoftmaxParams,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<LogSoftmax, LowerError> {
    let (un, [input, _]) = lower_unary(cx, true)?;
    match input.dtype {
        DType::F32 => {}
        DType::I8 => return Err(cx.unsupported_tensor(input, "int8 LOG_SOFTMAX (TFLite Micro has it; tflc implements only float32 so far)")),
        other => return Err(cx.unsupported_tensor(input, format!("element type {other} (TFLite Micro's LOG_SOFTMAX supports float32 and int8)"))),
    }
    Ok(LogSoftmax { un, params: LogSoftmaxParams { depth: input.shape.last().copied().unwrap_or(1) } })
}

impl Kernel for LogSoftmax {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        self.un.run::<f32, f32>(s, |x, y| log_softmax_f32(&self.params, x, y))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::elementwise::LogSoftmaxParams }, &self.params);
        let (x, y) = (cx.input(self.un.input), cx.output(self.un.output));
        quote! { #rt::kernels::elementwise::log_softmax_f32(&#p, #x, #y); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{DType, OpKind};

    /// TFLite Micro's outputs (vectors with the math family's), rows with large spreads: bit
    /// for bit (its `exp` and `log` are glibc's, ours `tflc_runtime::math`'s; they could
    /// differ by one ulp near a rounding boundary, and do not here).
    #[test]
    fn against_tflite_micro() {
        let x: Vec<f32> = i8s(41, 4 * 16).iter().map(|&v| v as f32 * 0.09).collect();
        let (bytes, [a, z]) = unary_model(OpKind::LogSoftmax, (DType::F32, &[4, 16], None), (DType::F32, &[4, 16], None));
        super::super::math::tests::check("math_log_softmax_f32", &bytes, &[(a, TensorData::F32(x))], z, 0);
    }

    #[test]
    fn refusals() {
        let q = Some((0.1, 0));
        expect_unsupported(&unary_model(OpKind::LogSoftmax, (DType::I8, &[4], q), (DType::I8, &[4], Some((16.0 / 256.0, 127)))).0);
        expect_invalid(&unary_model(OpKind::LogSoftmax, (DType::F32, &[4], None), (DType::F32, &[2, 2], None)).0);
    }
}
