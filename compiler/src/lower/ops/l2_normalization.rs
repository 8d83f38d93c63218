//! L2_NORMALIZATION, float32 and int8 (TFLite Micro `l2norm.cc`): rows of the last
//! dimension divided by their L2 norm (`kernels::elementwise::l2_normalization_*`). As
//! TFLite Micro's Prepare: rank <= 4, input and output of one type, fused activation NONE
//! only. The int8 output is in units of 1/128 (TFLite Micro does not check the output
//! tensor's quantization; neither does tflc, so the bytes are TFLite Micro's).

use super::unary::{lower_unary, Unary};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{Activation, DType};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::elementwise::{l2_normalization_f32, l2_normalization_s8, L2NormalizationParams};

crate::runtime_struct_lit!(kernels::elementwise::L2NormalizationParams { depth, input_zero_point });

#[derive(Debug, Clone)]
pub struct L2Normalization {
    pub un: Unary,
    pub params: L2NormalizationParams,
    pub int8: bool,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, activation: Activation) -> Result<L2Normalization, LowerError> {
    let (un, [input, _output]) = lower_unary(cx, true)?;
    if input.shape.len() > 4 {
        return Err(cx.unsupported_tensor(input, format!("rank {} (TFLite Micro's L2_NORMALIZATION takes at most 4)", input.shape.len())));
    }
    if activation != Activation::None {
        return Err(cx.unsupported(format!("fused activation {activation} (TFLite Micro's L2_NORMALIZATION requires NONE)")));
    }
    let depth = input.shape.last().copied().unwrap_or(1);
    let (int8, input_zero_point) = match input.dtype {
        DType::F32 => (false, 0),
        DType::I8 => (true, cx.q_s8(input)?.zero_point),
        other => return Err(cx.unsupported_tensor(input, format!("element type {other} (TFLite Micro's L2_NORMALIZATION supports float32 and int8)"))),
    };
    Ok(L2Normalization { un, params: L2NormalizationParams { depth, input_zero_point }, int8 })
}

impl Kernel for L2Normalization {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        if self.int8 {
            self.un.run::<i8, i8>(s, |x, y| l2_normalization_s8(&self.params, x, y))
        } else {
            self.un.run::<f32, f32>(s, |x, y| l2_normalization_f32(&self.params, x, y))
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::elementwise::L2NormalizationParams }, &self.params);
        let (x, y) = (cx.input(self.un.input), cx.output(self.un.output));
        let f = if self.int8 { quote! { l2_normalization_s8 } } else { quote! { l2_normalization_f32 } };
        quote! { #rt::kernels::elementwise::#f(&#p, #x, #y); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{Activation, DType, OpKind};

    const NONE: OpKind = OpKind::L2Normalization { activation: Activation::None };

    /// TFLite Micro's outputs (`super::super::math::tests`' vectors, same generator).
    #[test]
    fn against_tflite_micro() {
        let x = i8s(31, 3 * 2 * 10);
        let (bytes, [a, z]) = unary_model(NONE, (DType::I8, &[3, 2, 10], Some((0.05, 4))), (DType::I8, &[3, 2, 10], Some((1.0 / 128.0, 0))));
        super::super::math::tests::check("math_l2_normalization_s8", &bytes, &[(a, TensorData::I8(x.clone()))], z, 0);
        let mut xf: Vec<f32> = x.iter().map(|&v| v as f32 * 0.021).collect();
        xf[10..20].fill(0.0); // a zero row: the epsilon
        let (bytes, [a, z]) = unary_model(NONE, (DType::F32, &[3, 2, 10], None), (DType::F32, &[3, 2, 10], None));
        super::super::math::tests::check("math_l2_normalization_f32", &bytes, &[(a, TensorData::F32(xf))], z, 0);
    }

    #[test]
    fn refusals() {
        let q = Some((0.05, 0));
        expect_unsupported(&unary_model(OpKind::L2Normalization { activation: Activation::Relu }, (DType::I8, &[4], q), (DType::I8, &[4], q)).0);
        expect_unsupported(&unary_model(NONE, (DType::I8, &[1, 1, 1, 1, 4], q), (DType::I8, &[1, 1, 1, 1, 4], q)).0);
        expect_unsupported(&unary_model(NONE, (DType::I16, &[4], q), (DType::I16, &[4], q)).0);
        expect_invalid(&unary_model(NONE, (DType::F32, &[4], None), (DType::F32, &[2, 2], None)).0);
    }
}
