//! ZEROS_LIKE: TFLite Micro `zeros_like.cc` (int8, int32, int64, float32): an output of the
//! input's element type and element count, every element raw zero (`static_cast<T>(0)`,
//! whatever the quantization). The input is not read. Runtime
//! `tflc_runtime::kernels::zeros_like`.

use super::movement::{expect_distinct_outputs, expect_one_of, kernel_fn};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;

#[derive(Debug, Clone, PartialEq)]
pub struct ZerosLike {
    pub output: TensorId,
    pub dtype: DType,
    pub len: usize,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<ZerosLike, LowerError> {
    cx.expect_arity(1..=1, 1)?;
    let (input, output) = (cx.input(0)?, cx.output(0)?);
    expect_one_of(cx, input, &[DType::I8, DType::I32, DType::I64, DType::F32], "ZEROS_LIKE")?;
    cx.expect_dtype(output, input.dtype)?;
    cx.expect_activation(output)?;
    expect_distinct_outputs(cx)?;
    if input.num_elements() != output.num_elements() {
        return Err(cx.invalid_tensor(output, format!("{} elements, the input has {}", output.num_elements(), input.num_elements())));
    }
    Ok(ZerosLike { output: output.id, dtype: input.dtype, len: output.num_elements() })
}

impl Kernel for ZerosLike {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let n = self.len;
        let y = match self.dtype {
            DType::I8 => TensorData::I8(vec![0; n]),
            DType::I32 => TensorData::I32(vec![0; n]),
            DType::I64 => TensorData::I64(vec![0; n]),
            DType::F32 => TensorData::F32(vec![0.0; n]),
            other => return Err(ExecError(format!("ZEROS_LIKE on {other}"))),
        };
        s.insert(self.output, y);
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let f = kernel_fn(cx, "zeros_like", "zeros_like", self.dtype);
        let y = cx.output(self.output);
        quote! { #f(#y); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::{emit_op0, lower_err};
    use super::super::test_helpers::{check_vector, i8s, run_op0};
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(dtype: DType, in_shape: &[usize], out_shape: &[usize]) -> (Vec<u8>, TensorId, TensorId) {
        let q = (dtype == DType::I8).then_some((0.05, -5));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", dtype, in_shape, q);
        let y = b.activation("y", dtype, out_shape, q);
        b.op(OpKind::ZerosLike, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// TFLite Micro's output (tools/op_test_vectors.py): raw zeros, not the zero point.
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, x, y) = model(DType::I8, &[2, 5], &[2, 5]);
        check_vector("zeros_like_s8", &bytes, &[(x, TensorData::I8(i8s(73, 10)))], y, WANT_S8);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: zeros_like :: zeros_like_s8 ("), "{text}");
    }

    #[test]
    fn int64_int32_float32() {
        let (bytes, x, y) = model(DType::I64, &[3], &[3]);
        let s = run_op0("zeros_like_i64", &bytes, &[(x, TensorData::I64(vec![1, i64::MIN, 3]))]);
        assert_eq!(s.i64(y).unwrap(), &[0; 3]);
        let (bytes, x, y) = model(DType::I32, &[2], &[2]);
        let s = run_op0("zeros_like_i32", &bytes, &[(x, TensorData::I32(vec![5, 6]))]);
        assert_eq!(s.i32(y).unwrap(), &[0; 2]);
        let (bytes, x, y) = model(DType::F32, &[1], &[1]);
        let s = run_op0("zeros_like_f32", &bytes, &[(x, TensorData::F32(vec![f32::NAN]))]);
        assert_eq!(s.f32(y).unwrap()[0].to_bits(), 0);
    }

    #[test]
    fn malformed_and_unsupported() {
        assert!(matches!(lower_err(&model(DType::I8, &[2, 5], &[3, 5]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I16, &[2], &[2]).0), LowerError::Unsupported { .. }));
    }

    const WANT_S8: &[i8] = &[
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
}
