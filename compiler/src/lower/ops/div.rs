//! DIV, int32 and float32 (TFLite Micro `div.cc`, `EvalDiv<T>`): broadcasting, the fused
//! activation's clamp (`CalculateActivationRange`), int32 truncating division with Cortex-M
//! `SDIV` results where C is undefined (see `tflc_runtime::kernels::div`). int32 operands
//! must be unquantized, as TFLite Micro's Prepare requires. int8 (quantized) DIV is not
//! implemented: refused with the op named.

use super::binary::{lower_binary, Binary};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{Activation, DType};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::div::{div_f32, div_i32};
use tflc_runtime::kernels::nd::{activation_range_f32, activation_range_i32, PlainBinaryParams};

#[derive(Debug, Clone, PartialEq)]
pub enum DivScheme {
    I32 { min: i32, max: i32 },
    F32 { min: f32, max: f32 },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Div {
    pub bin: Binary,
    pub scheme: DivScheme,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, activation: Activation) -> Result<Div, LowerError> {
    let (bin, [i1, i2, o]) = lower_binary(cx)?;
    let act = cx.fused_activation(activation)?;
    let scheme = match o.dtype {
        DType::I32 => {
            for t in [i1, i2, o] {
                cx.expect_dtype(t, DType::I32)?;
                if t.quant.as_ref().is_some_and(|q| !q.scale.is_empty()) {
                    return Err(cx.unsupported_tensor(t, "a quantized int32 DIV (TFLite Micro supports only unquantized int32)"));
                }
            }
            let (min, max) = activation_range_i32(act);
            DivScheme::I32 { min, max }
        }
        DType::F32 => {
            cx.expect_dtype(i1, DType::F32)?;
            cx.expect_dtype(i2, DType::F32)?;
            let (min, max) = activation_range_f32(act);
            DivScheme::F32 { min, max }
        }
        other => return Err(cx.unsupported_tensor(o, format!("element type {other} (tflc's DIV is int32 or float32)"))),
    };
    Ok(Div { bin, scheme })
}

impl Kernel for Div {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let n = self.bin.plan.as_broadcast().out_len();
        let broadcast = self.bin.broadcast(false);
        let out = match self.scheme {
            DivScheme::I32 { min, max } => {
                let mut out = s.take_i32(self.bin.output, n);
                let (a, b) = self.bin.operands(s, TensorStore::i32)?;
                div_i32(&PlainBinaryParams { activation_min: min, activation_max: max, broadcast }, a, b, &mut out);
                TensorData::I32(out)
            }
            DivScheme::F32 { min, max } => {
                let mut out = s.take_f32(self.bin.output, n);
                let (a, b) = self.bin.operands(s, TensorStore::f32)?;
                div_f32(&PlainBinaryParams { activation_min: min, activation_max: max, broadcast }, a, b, &mut out);
                TensorData::F32(out)
            }
        };
        s.insert(self.bin.output, out);
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let bin = &self.bin;
        let broadcast = bin.broadcast(false);
        match self.scheme {
            DivScheme::I32 { min, max } => bin.emit_in_place_capable(cx, quote! { kernels::nd::PlainBinaryParams<'static, i32> }, ("div", "div_i32"), |_| {
                PlainBinaryParams { activation_min: min, activation_max: max, broadcast }
            }),
            DivScheme::F32 { min, max } => bin.emit_in_place_capable(cx, quote! { kernels::nd::PlainBinaryParams<'static, f32> }, ("div", "div_f32"), |_| {
                PlainBinaryParams { activation_min: min, activation_max: max, broadcast }
            }),
        }
    }

    /// Both element types (`div_i32_in_place`, `div_f32_in_place`), over the dividend only.
    fn in_place(&self) -> Vec<(usize, usize)> {
        self.bin.in_place_pairs(false)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{Activation, DType, OpKind};

    #[test]
    fn int32_truncates_broadcasts_and_clamps() {
        let (bytes, [x, y, z]) = binary_model(OpKind::Div { activation: Activation::None }, DType::I32, (&[2, 3], None), (&[1], None), (&[2, 3], None));
        let s = run_op0("div_i32", &bytes, &[(x, TensorData::I32(vec![7, -7, 0, 100, -100, i32::MIN])), (y, TensorData::I32(vec![-2]))]);
        assert_eq!(s.i32(z).unwrap(), &[-3, 3, 0, -50, 50, 1 << 30]);
        let (bytes, [x, y, z]) = binary_model(OpKind::Div { activation: Activation::Relu6 }, DType::I32, (&[4], None), (&[4], None), (&[4], None));
        let s = run_op0("div_i32_relu6", &bytes, &[(x, TensorData::I32(vec![7, -7, 50, 9])), (y, TensorData::I32(vec![1, 1, 2, 0]))]);
        assert_eq!(s.i32(z).unwrap(), &[6, 0, 6, 0]);
    }

    #[test]
    fn float32_divides() {
        let (bytes, [x, y, z]) = binary_model(OpKind::Div { activation: Activation::None }, DType::F32, (&[3], None), (&[3], None), (&[3], None));
        let s = run_op0("div_f32", &bytes, &[(x, TensorData::F32(vec![1.0, -3.0, 2.5])), (y, TensorData::F32(vec![4.0, 2.0, -0.5]))]);
        assert_eq!(s.f32(z).unwrap(), &[0.25, -1.5, -5.0]);
    }

    #[test]
    fn int8_and_mixed_types_are_refused() {
        let q = Some((0.5, 0));
        expect_unsupported(&binary_model(OpKind::Div { activation: Activation::None }, DType::I8, (&[3], q), (&[3], q), (&[3], q)).0);
        expect_invalid(&binary_model(OpKind::Div { activation: Activation::None }, DType::I32, (&[3], None), (&[2], None), (&[3], None)).0);
    }
}
