//! EMBEDDING_LOOKUP: TFLite Micro `embedding_lookup.cc`. Input 0, `lookup`, is a rank-1
//! int32 tensor (computed at run time or constant); input 1, `value`, a table of rank at
//! least 2, float32 or int8. A float32 table gives float32 rows; an int8 table gives int8
//! rows (raw bytes: by tflc's data-movement policy the output carries the table's
//! quantization) or, hybrid, float32 rows dequantized with the table's scale (its zero
//! point must be 0). The output is `[lookup_len, value[1..]]`. Runtime
//! `tflc_runtime::kernels::embedding_lookup` (a lookup out of range there gives a zero row
//! where TFLite Micro fails the invocation).

use super::movement::{expect_distinct_outputs, expect_same_type_and_quant, expect_shape, get, kernel_fn, put, with_elem, Elem};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::{EmitCx, Lit};
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::embedding_lookup::{embedding_lookup, embedding_lookup_hybrid, EmbeddingLookupParams};

crate::runtime_struct_lit!(kernels::embedding_lookup::EmbeddingLookupParams { rows, columns });

#[derive(Debug, Clone, PartialEq)]
pub struct EmbeddingLookup {
    pub lookup: TensorId,
    pub value: TensorId,
    pub output: TensorId,
    /// The table's element type.
    pub dtype: DType,
    /// `Some(scale)`: int8 table, float32 output.
    pub hybrid: Option<f32>,
    pub params: EmbeddingLookupParams,
    pub lookups: usize,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<EmbeddingLookup, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let (lookup, value, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    cx.expect_dtype(lookup, DType::I32)?;
    if lookup.shape.len() != 1 {
        return Err(cx.invalid_tensor(lookup, format!("shape {:?}, expected rank 1", lookup.shape)));
    }
    if value.shape.len() < 2 {
        return Err(cx.invalid_tensor(value, format!("shape {:?}, expected rank 2 or more", value.shape)));
    }
    expect_distinct_outputs(cx)?;
    let hybrid = match (value.dtype, output.dtype) {
        (DType::F32, DType::F32) | (DType::I8, DType::I8) => {
            expect_same_type_and_quant(cx, value, output)?;
            None
        }
        (DType::I8, DType::F32) => {
            let q = cx.per_tensor_q(value)?;
            if q.zero_point != 0 {
                return Err(cx.unsupported_tensor(value, format!("zero point {} (TFLite Micro's hybrid EMBEDDING_LOOKUP needs 0)", q.zero_point)));
            }
            Some(q.scale)
        }
        (v, o) => return Err(cx.unsupported_tensor(output, format!("a {v} table to {o} (TFLite Micro: float32 to float32, int8 to int8 or float32)"))),
    };
    let want: Vec<usize> = std::iter::once(lookup.shape[0]).chain(value.shape[1..].iter().copied()).collect();
    expect_shape(cx, output, &want)?;
    let params = EmbeddingLookupParams { rows: value.shape[0], columns: value.shape[1..].iter().product() };
    Ok(EmbeddingLookup { lookup: lookup.id, value: value.id, output: output.id, dtype: value.dtype, hybrid, params, lookups: lookup.shape[0] })
}

impl EmbeddingLookup {
    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let (l, v) = (s.i32(self.lookup)?, get::<T>(s, self.value)?);
        self.check(l.len(), v.len())?;
        let mut y = vec![T::default(); self.lookups * self.params.columns];
        embedding_lookup(&self.params, l, v, &mut y);
        put(s, self.output, y);
        Ok(())
    }

    fn check(&self, l: usize, v: usize) -> Result<(), ExecError> {
        if l != self.lookups || v != self.params.rows * self.params.columns {
            return Err(ExecError(format!("EMBEDDING_LOOKUP: lookup {} or table {} has the wrong length", self.lookup, self.value)));
        }
        Ok(())
    }
}

impl Kernel for EmbeddingLookup {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        if let Some(scale) = self.hybrid {
            let (l, v) = (s.i32(self.lookup)?, s.i8(self.value)?);
            self.check(l.len(), v.len())?;
            let mut y = vec![0.0; self.lookups * self.params.columns];
            embedding_lookup_hybrid(&self.params, scale, l, v, &mut y);
            s.insert(self.output, TensorData::F32(y));
            return Ok(());
        }
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = cx.params_lit(quote! { kernels::embedding_lookup::EmbeddingLookupParams }, &self.params);
        let l = cx.input(self.lookup);
        let v = cx.input(self.value);
        let y = cx.output(self.output);
        match self.hybrid {
            Some(scale) => {
                let rt = cx.rt().clone();
                let scale = scale.lit(&rt);
                quote! { #rt::kernels::embedding_lookup::embedding_lookup_hybrid(&#p, #scale, #l, #v, #y); }
            }
            None => {
                let f = kernel_fn(cx, "embedding_lookup", "embedding_lookup", self.dtype);
                quote! { #f(&#p, #l, #v, #y); }
            }
        }
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

    fn model(dtype: DType, out: DType, v_shape: &[usize], n: usize, zp: i64) -> (Vec<u8>, [TensorId; 3]) {
        let q = |d: DType| (d == DType::I8).then_some((0.25, zp));
        let mut b = ModelBuilder::new();
        let l = b.activation("lookup", DType::I32, &[n], None);
        let v = b.activation("value", dtype, v_shape, q(dtype));
        let out_shape: Vec<usize> = std::iter::once(n).chain(v_shape[1..].iter().copied()).collect();
        let y = b.activation("y", out, &out_shape, q(out));
        b.op(OpKind::EmbeddingLookup, &[Some(l), Some(v)], &[y]);
        b.inputs(&[l, v]).outputs(&[y]);
        (b.finish(), [l, v, y])
    }

    /// TFLite Micro's output (tools/op_test_vectors.py), int8 rows of a rank-3 table.
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, [l, v, y]) = model(DType::I8, DType::I8, &[4, 2, 3], 5, -3);
        let ins = [(l, TensorData::I32(vec![3, 0, 0, 2, 1])), (v, TensorData::I8(i8s(78, 24)))];
        check_vector("embedding_lookup_s8", &bytes, &ins, y, WANT_S8);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: embedding_lookup :: embedding_lookup_s8 (& P0 ,"), "{text}");
    }

    /// Hybrid: `value * scale`, exact in float32 for scale 0.25.
    #[test]
    fn hybrid_dequantizes() {
        let (bytes, [l, v, y]) = model(DType::I8, DType::F32, &[2, 2], 2, 0);
        let s = run_op0("embedding_lookup_hybrid", &bytes, &[(l, TensorData::I32(vec![1, 0])), (v, TensorData::I8(vec![1, -128, 127, -1]))]);
        assert_eq!(s.f32(y).unwrap(), &[31.75, -0.25, 0.25, -32.0]);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("embedding_lookup_hybrid (& P0 , 0.25"), "{text}");
    }

    #[test]
    fn malformed_and_unsupported() {
        assert!(matches!(lower_err(&model(DType::I8, DType::F32, &[2, 2], 2, 1).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::F32, DType::I8, &[2, 2], 2, 0).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I8, DType::I8, &[4], 2, 0).0), LowerError::Invalid { .. }));
    }

    const WANT_S8: &[i8] = &[
        44, 100, 41, -97, -62, 8, 59, -122, -79, 114, -27, -105, 59, -122, -79, 114, -27, -105, -29,
        -112, 58, -71, -13, -21, 111, 42, -28, 125, 118, -66,
    ];
}
