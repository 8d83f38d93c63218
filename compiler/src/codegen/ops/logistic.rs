//! LOGISTIC (sigmoid), int8 in and out.
//!
//! Mirrors TFLite Micro `logistic_common.cc` (`CalculateArithmeticOpDataLogistic`): the
//! output zero point must be -128 (TFLite Micro's check) and, as TFLite requires, the
//! output scale 1/256 (the kernel writes that quantization whatever the tensor says); the
//! input rescaling comes from [`tflc_runtime::prepare::logistic_s8`].

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::codegen::emit::{int, EmitCx};
use crate::error::LowerError;
use crate::ir::{OpKind, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::logistic::{logistic_s8, LogisticParams};

#[derive(Debug, Clone, PartialEq)]
pub struct Logistic {
    pub input: TensorId,
    pub output: TensorId,
    pub len: usize,
    pub input_zero_point: i32,
    pub input_range_radius: i32,
    pub input_multiplier: i32,
    pub input_left_shift: i32,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Logistic, LowerError> {
    let OpKind::Logistic = &cx.op.kind else { return Err(cx.invalid("not a LOGISTIC")) };
    let (input, output, in_q, out_q) = super::tanh::unary_s8(cx)?;
    if out_q.zero_point != -128 || out_q.scale != 1.0 / 256.0 {
        return Err(cx.unsupported_tensor(
            output,
            format!(
                "int8 LOGISTIC output quantization scale={} zp={} (TFLite requires scale 1/256, zero point -128)",
                out_q.scale, out_q.zero_point
            ),
        ));
    }
    let p = tflc_runtime::prepare::logistic_s8(in_q.scale, in_q.zero_point, out_q.zero_point)
        .ok_or_else(|| cx.invalid_tensor(output, "output zero point must be -128"))?;
    Ok(Logistic {
        input: input.id,
        output: output.id,
        len: input.num_elements(),
        input_zero_point: p.input_zero_point,
        input_range_radius: p.input_range_radius,
        input_multiplier: p.input_multiplier,
        input_left_shift: p.input_left_shift,
    })
}

impl Logistic {
    /// The runtime's parameter struct.
    pub fn params(&self) -> LogisticParams {
        LogisticParams {
            input_zero_point: self.input_zero_point,
            input_range_radius: self.input_range_radius,
            input_multiplier: self.input_multiplier,
            input_left_shift: self.input_left_shift,
        }
    }
}

impl Kernel for Logistic {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let mut out = s.take_i8(self.output, self.len);
        let input = s.i8(self.input)?;
        if input.len() != self.len {
            return Err(ExecError(format!("LOGISTIC: input has {} elements, expected {}", input.len(), self.len)));
        }
        logistic_s8(&self.params(), input, &mut out);
        s.insert(self.output, TensorData::I8(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let (zp, r) = (int(self.input_zero_point as i64), int(self.input_range_radius as i64));
        let (m, sh) = (int(self.input_multiplier as i64), int(self.input_left_shift as i64));
        let p = cx.params(
            quote! { #rt::kernels::logistic::LogisticParams },
            quote! {
                #rt::kernels::logistic::LogisticParams {
                    input_zero_point: #zp,
                    input_range_radius: #r,
                    input_multiplier: #m,
                    input_left_shift: #sh,
                }
            },
        );
        let input = cx.input(self.input);
        let output = cx.output(self.output);
        quote! { #rt::kernels::logistic::logistic_s8(&#p, #input, #output); }
    }
}
