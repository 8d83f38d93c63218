//! TANH, int8 in and out (and the element-wise int8 checks LOGISTIC and HARD_SWISH share).
//!
//! Mirrors TFLite Micro `tanh.cc` (`CalculateArithmeticOpData`): the input rescaling to
//! Q4.27 and its saturation radius from [`tflc_runtime::prepare::tanh_s8`]. The kernel
//! writes scale 1/128, zero point 0, which TFLite requires of the output tensor; we check it.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::codegen::emit::{int, EmitCx};
use crate::error::LowerError;
use crate::ir::{OpKind, Tensor, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::tanh::{tanh_s8, TanhParams};
use tflc_runtime::quant::QuantParams;

/// The checks of an element-wise int8 op with one input and one output of the same shape:
/// returns input, output and their quantization.
#[allow(clippy::type_complexity)]
pub(crate) fn unary_s8<'m, 'a>(
    cx: &OpCx<'m, 'a>,
) -> Result<(&'m Tensor<'a>, &'m Tensor<'a>, QuantParams, QuantParams), LowerError> {
    cx.expect_arity(1..=1, 1)?;
    let input = cx.input(0)?;
    let output = cx.output(0)?;
    cx.expect_activation(input)?;
    let in_q = cx.q_s8(input)?;
    let out_q = cx.q_s8(output)?;
    if output.shape != input.shape {
        return Err(cx.invalid_tensor(output, format!("output shape {:?} differs from the input's {:?}", output.shape, input.shape)));
    }
    Ok((input, output, in_q, out_q))
}

#[derive(Debug, Clone, PartialEq)]
pub struct Tanh {
    pub input: TensorId,
    pub output: TensorId,
    pub len: usize,
    pub input_zero_point: i32,
    pub input_range_radius: i32,
    pub input_multiplier: i32,
    pub input_left_shift: i32,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Tanh, LowerError> {
    let OpKind::Tanh = &cx.op.kind else { return Err(cx.invalid("not a TANH")) };
    let (input, output, in_q, out_q) = unary_s8(cx)?;
    if out_q.zero_point != 0 || out_q.scale != 1.0 / 128.0 {
        return Err(cx.unsupported_tensor(
            output,
            format!(
                "int8 TANH output quantization scale={} zp={} (TFLite requires scale 1/128, zero point 0)",
                out_q.scale, out_q.zero_point
            ),
        ));
    }
    let p = tflc_runtime::prepare::tanh_s8(in_q.scale, in_q.zero_point);
    Ok(Tanh {
        input: input.id,
        output: output.id,
        len: input.num_elements(),
        input_zero_point: p.input_zero_point,
        input_range_radius: p.input_range_radius,
        input_multiplier: p.input_multiplier,
        input_left_shift: p.input_left_shift,
    })
}

impl Tanh {
    /// The runtime's parameter struct.
    pub fn params(&self) -> TanhParams {
        TanhParams {
            input_zero_point: self.input_zero_point,
            input_range_radius: self.input_range_radius,
            input_multiplier: self.input_multiplier,
            input_left_shift: self.input_left_shift,
        }
    }
}

impl Kernel for Tanh {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let mut out = s.take_i8(self.output, self.len);
        let input = s.i8(self.input)?;
        if input.len() != self.len {
            return Err(ExecError(format!("TANH: input has {} elements, expected {}", input.len(), self.len)));
        }
        tanh_s8(&self.params(), input, &mut out);
        s.insert(self.output, TensorData::I8(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let (zp, r) = (int(self.input_zero_point as i64), int(self.input_range_radius as i64));
        let (m, sh) = (int(self.input_multiplier as i64), int(self.input_left_shift as i64));
        let p = cx.params(
            quote! { #rt::kernels::tanh::TanhParams },
            quote! {
                #rt::kernels::tanh::TanhParams {
                    input_zero_point: #zp,
                    input_range_radius: #r,
                    input_multiplier: #m,
                    input_left_shift: #sh,
                }
            },
        );
        let input = cx.input(self.input);
        let output = cx.output(self.output);
        quote! { #rt::kernels::tanh::tanh_s8(&#p, #input, #output); }
    }
}
