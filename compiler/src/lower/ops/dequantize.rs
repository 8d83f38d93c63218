//! DEQUANTIZE, int8 -> float32.
//!
//! Mirrors TFLite Micro `dequantize.cc` (`DequantizePrepare`): the input's per-tensor scale
//! and zero point, `reference_ops::Dequantize` at run time. The output has the input's
//! shape.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::{float, int, EmitCx};
use crate::error::LowerError;
use crate::ir::{DType, OpKind, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::dequantize::{dequantize_s8_f32, DequantizeParams};

#[derive(Debug, Clone, PartialEq)]
pub struct Dequantize {
    pub input: TensorId,
    pub output: TensorId,
    pub len: usize,
    pub params: DequantizeParams,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Dequantize, LowerError> {
    if !matches!(cx.op.kind, OpKind::Dequantize) {
        return Err(cx.invalid("not a DEQUANTIZE"));
    }
    cx.expect_arity(1..=1, 1)?;
    let input = cx.input(0)?;
    let output = cx.output(0)?;
    cx.expect_activation(output)?;
    cx.expect_dtype(output, DType::F32)?;
    let q = cx.q_s8(input)?;
    if output.shape != input.shape {
        return Err(cx.invalid_tensor(output, format!("output shape {:?}, but the input's is {:?}", output.shape, input.shape)));
    }
    Ok(Dequantize {
        input: input.id,
        output: output.id,
        len: input.num_elements(),
        params: DequantizeParams { scale: q.scale, zero_point: q.zero_point },
    })
}

impl Kernel for Dequantize {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let mut out = s.take_f32(self.output, self.len);
        let input = s.i8(self.input)?;
        if input.len() != self.len {
            return Err(ExecError(format!("input has {} elements, expected {}", input.len(), self.len)));
        }
        dequantize_s8_f32(&self.params, input, &mut out);
        s.insert(self.output, TensorData::F32(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let m = quote! { #rt::kernels::dequantize };
        let (scale, zp) = (float(self.params.scale), int(self.params.zero_point as i64));
        let p = cx.params(quote! { #m::DequantizeParams }, quote! { #m::DequantizeParams { scale: #scale, zero_point: #zp } });
        let input = cx.input(self.input);
        let output = cx.output(self.output);
        quote! { #m::dequantize_s8_f32(&#p, #input, #output); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::*;

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
        let err = |b: &[u8]| lower_op0(b).expect_err("must not lower");
        let invalid = |e: LowerError| assert!(matches!(e, LowerError::Invalid { .. }), "{e}");
        let unsupported = |e: LowerError| assert!(matches!(e, LowerError::Unsupported { .. }), "{e}");
        invalid(err(&model((DType::I8, &[2, 3], q), (DType::F32, &[6], None)).0));
        unsupported(err(&model((DType::I8, &[3], None), (DType::F32, &[3], None)).0));
        invalid(err(&model((DType::I8, &[3], Some((-1.0, 0))), (DType::F32, &[3], None)).0));
        unsupported(err(&model((DType::I16, &[3], q), (DType::F32, &[3], None)).0));
        unsupported(err(&model((DType::I8, &[3], q), (DType::I32, &[3], None)).0));
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        m.op(OpKind::Dequantize, &[Some(x)], &[]);
        invalid(err(&m.finish()));
    }
}
