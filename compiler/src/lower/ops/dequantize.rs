//! DEQUANTIZE, int8 -> float32. A DEQUANTIZE of a constant (float16 or int8 weights) is
//! folded by `passes::fold` into float32 constant data and never reaches this lowering.
//!
//! Mirrors TFLite Micro `dequantize.cc` (`DequantizePrepare`): the input's per-tensor scale
//! and zero point, `reference_ops::Dequantize` at run time. The output has the input's
//! shape.

use super::unary::{lower_unary, Unary};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::DType;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::dequantize::{dequantize_s8_f32, DequantizeParams};

crate::runtime_struct_lit!(kernels::dequantize::DequantizeParams { scale, zero_point });

#[derive(Debug, Clone, PartialEq)]
pub enum Dequantize {
    /// int8 activations to float32.
    S8 { un: Unary, params: DequantizeParams },
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Dequantize, LowerError> {
    cx.expect_arity(1..=1, 1)?;
    let (un, [input, output]) = lower_unary(cx, false)?;
    cx.expect_dtype(output, DType::F32)?;
    if input.is_constant() {
        return Err(cx.unsupported_tensor(input, format!("{} constant that compile-time folding does not handle (float16 and per-tensor int8 fold)", input.dtype)));
    }
    let q = cx.q_s8(input)?;
    Ok(Dequantize::S8 { un, params: DequantizeParams { scale: q.scale, zero_point: q.zero_point } })
}

impl Kernel for Dequantize {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self {
            Dequantize::S8 { un, params } => un.run(s, |x, y| dequantize_s8_f32(params, x, y)),
        }
    }

    /// No in-place variant (the element size changes), so always `dequantize_s8_f32`.
    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        match self {
            Dequantize::S8 { un, params } => {
                un.emit_with(cx, quote! { kernels::dequantize::DequantizeParams }, ("dequantize", "dequantize_s8_f32"), params)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::*;
    use super::super::TensorData;
    use crate::ir::{OpKind, TensorId};

    fn model(a: (DType, &[usize], Q), out: (DType, &[usize], Q)) -> (Vec<u8>, [TensorId; 2]) {
        unary_model(OpKind::Dequantize, a, out)
    }

    #[test]
    fn every_int8_value_is_exact() {
        // TFLite: (float)(double(scale) * (x - zp)); the double product of a 9-bit integer
        // and a 24-bit scale is exact, so rounding it once to f32 is the reference.
        for (scale, zp) in [(0.5f32, 0i64), (0.0372f32, -17), (3.1e-5, 127), (117.25, -128)] {
            let (bytes, [x, z]) = model((DType::I8, &[2, 128], Some((scale, zp))), (DType::F32, &[2, 128], None));
            let all: Vec<i8> = (-128..=127).collect();
            let store = run_op0("dequantize", &bytes, &[(x, TensorData::I8(all.clone()))]);
            let want: Vec<f32> = all.iter().map(|&v| (scale as f64 * (v as f64 - zp as f64)) as f32).collect();
            assert_eq!(store.f32(z).unwrap(), &want[..], "scale {scale} zp {zp}");
        }
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, _) = model((DType::I8, &[1, 16], Some((0.0235, -4))), (DType::F32, &[1, 16], None));
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        let q = Some((0.5, 0));
        expect_invalid(&model((DType::I8, &[2, 3], q), (DType::F32, &[6], None)).0);
        expect_unsupported(&model((DType::I8, &[3], None), (DType::F32, &[3], None)).0);
        expect_invalid(&model((DType::I8, &[3], Some((-1.0, 0))), (DType::F32, &[3], None)).0);
        expect_unsupported(&model((DType::I16, &[3], q), (DType::F32, &[3], None)).0);
        expect_unsupported(&model((DType::I8, &[3], q), (DType::I32, &[3], None)).0);
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        m.op(OpKind::Dequantize, &[Some(x)], &[]);
        expect_invalid(&m.finish());
    }
}
