//! HARD_SWISH, int8 in and out.
//!
//! Mirrors TFLite Micro `hard_swish_common.cc` (`HardSwishPrepare`): the "hires" input
//! scale `input_scale / 128`, a relu-ish multiplier to 3/32768 and an output multiplier,
//! both downscaled to int16 ([`tflc_runtime::prepare::hard_swish_s8`]); it fails (and so do
//! we) when the output multiplier's exponent would be positive.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::codegen::emit::{int, EmitCx};
use crate::error::LowerError;
use crate::ir::{OpKind, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::hard_swish::{hard_swish_s8, HardSwishParams};

#[derive(Debug, Clone)]
pub struct HardSwish {
    pub input: TensorId,
    pub output: TensorId,
    pub len: usize,
    pub params: HardSwishParams,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<HardSwish, LowerError> {
    let OpKind::HardSwish = &cx.op.kind else { return Err(cx.invalid("not a HARD_SWISH")) };
    let (input, output, in_q, out_q) = super::tanh::unary_s8(cx)?;
    let params = tflc_runtime::prepare::hard_swish_s8(in_q.scale, in_q.zero_point, out_q.scale, out_q.zero_point)
        .ok_or_else(|| {
            cx.unsupported_tensor(
                output,
                format!(
                    "output scale {} is too small for input scale {} (TFLite Micro needs input_scale / 128 <= output_scale)",
                    out_q.scale, in_q.scale
                ),
            )
        })?;
    Ok(HardSwish { input: input.id, output: output.id, len: input.num_elements(), params })
}

impl Kernel for HardSwish {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let mut out = s.take_i8(self.output, self.len);
        let input = s.i8(self.input)?;
        if input.len() != self.len {
            return Err(ExecError(format!("HARD_SWISH: input has {} elements, expected {}", input.len(), self.len)));
        }
        hard_swish_s8(&self.params, input, &mut out);
        s.insert(self.output, TensorData::I8(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = &self.params;
        let (izp, ozp) = (int(p.input_zero_point as i64), int(p.output_zero_point as i64));
        let (rm, re) = (int(p.reluish_multiplier_fixedpoint_int16 as i64), int(p.reluish_multiplier_exponent as i64));
        let (om, oe) = (int(p.output_multiplier_fixedpoint_int16 as i64), int(p.output_multiplier_exponent as i64));
        let p = cx.params(
            quote! { #rt::kernels::hard_swish::HardSwishParams },
            quote! {
                #rt::kernels::hard_swish::HardSwishParams {
                    input_zero_point: #izp,
                    output_zero_point: #ozp,
                    reluish_multiplier_fixedpoint_int16: #rm,
                    reluish_multiplier_exponent: #re,
                    output_multiplier_fixedpoint_int16: #om,
                    output_multiplier_exponent: #oe,
                }
            },
        );
        let input = cx.input(self.input);
        let output = cx.output(self.output);
        quote! { #rt::kernels::hard_swish::hard_swish_s8(&#p, #input, #output); }
    }
}
