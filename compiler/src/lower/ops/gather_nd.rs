//! GATHER_ND: TFLite Micro `gather_nd.cc` (int8 and float32 params, int32 indices, which
//! may be computed at run time). Params and indices are at least rank 1; the indices'
//! last dimension `nd` is at most the params' rank and at most 5. The output is
//! `indices[..-1] ++ params[nd..]`, with the params' element type and quantization.
//! Runtime `tflc_runtime::kernels::gather_nd` (TFLite Micro's flat bounds check; an
//! out-of-bounds slice there is zeros where TFLite Micro fails the invocation).

use super::movement::{expect_distinct_outputs, expect_one_of, expect_same_type_and_quant, expect_shape, get, kernel_fn, put, with_elem, Elem};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::gather_nd::{gather_nd, GatherNdParams};

crate::runtime_struct_lit!(kernels::gather_nd::GatherNdParams<'a> { slices, slice_size, strides, params_len });

/// TFLite Micro's `MAX_INDICES_ND`.
const MAX_ND: usize = 5;

#[derive(Debug, Clone, PartialEq)]
pub struct GatherNd {
    pub params: TensorId,
    pub indices: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub slices: usize,
    pub slice_size: usize,
    pub strides: Vec<usize>,
    pub params_len: usize,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<GatherNd, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let (params, indices, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    expect_one_of(cx, params, &[DType::I8, DType::F32], "GATHER_ND")?;
    if indices.dtype != DType::I32 {
        return Err(cx.unsupported_tensor(indices, format!("indices of element type {} (TFLite Micro's GATHER_ND takes int32)", indices.dtype)));
    }
    expect_same_type_and_quant(cx, params, output)?;
    expect_distinct_outputs(cx)?;
    let (Some(&nd), true) = (indices.shape.last(), !params.shape.is_empty()) else {
        return Err(cx.invalid("params and indices must be at least vectors"));
    };
    if nd > params.shape.len() {
        return Err(cx.invalid_tensor(indices, format!("index tuples of {nd} for params of rank {}", params.shape.len())));
    }
    if nd > MAX_ND {
        return Err(cx.unsupported_tensor(indices, format!("index tuples of {nd} (TFLite Micro takes at most {MAX_ND})")));
    }
    let r = indices.shape.len();
    let want: Vec<usize> = indices.shape[..r - 1].iter().chain(&params.shape[nd..]).copied().collect();
    expect_shape(cx, output, &want)?;
    // TFLite Micro's `dims_to_count`: the flat size divided down dimension by dimension.
    let mut strides = Vec::with_capacity(nd);
    let mut remain = params.num_elements();
    for &d in &params.shape[..nd] {
        remain = remain.checked_div(d).unwrap_or(0);
        strides.push(remain);
    }
    Ok(GatherNd {
        params: params.id,
        indices: indices.id,
        output: output.id,
        dtype: params.dtype,
        slices: indices.shape[..r - 1].iter().product(),
        slice_size: params.shape[nd..].iter().product(),
        strides,
        params_len: params.num_elements(),
    })
}

impl GatherNd {
    fn p(&self) -> GatherNdParams<'_> {
        GatherNdParams { slices: self.slices, slice_size: self.slice_size, strides: &self.strides, params_len: self.params_len }
    }

    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let x = get::<T>(s, self.params)?;
        let i = s.i32(self.indices)?;
        if x.len() != self.params_len || i.len() != self.slices * self.strides.len() {
            return Err(ExecError(format!("GATHER_ND: params {} or indices {} have the wrong length", self.params, self.indices)));
        }
        let mut y = vec![T::default(); self.slices * self.slice_size];
        gather_nd(&self.p(), x, i, &mut y);
        put(s, self.output, y);
        Ok(())
    }
}

impl Kernel for GatherNd {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = cx.params_lit(quote! { kernels::gather_nd::GatherNdParams<'static> }, &self.p());
        let f = kernel_fn(cx, "gather_nd", "gather_nd", self.dtype);
        let x = cx.input(self.params);
        let i = cx.input(self.indices);
        let y = cx.output(self.output);
        quote! { #f(&#p, #x, #i, #y); }
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

    fn model(dtype: DType, p_shape: &[usize], i_shape: &[usize], out_shape: &[usize]) -> (Vec<u8>, [TensorId; 3]) {
        let q = (dtype == DType::I8).then_some((0.05, -5));
        let mut b = ModelBuilder::new();
        let x = b.activation("params", dtype, p_shape, q);
        let i = b.activation("indices", DType::I32, i_shape, None);
        let y = b.activation("y", dtype, out_shape, q);
        b.op(OpKind::GatherNd, &[Some(x), Some(i)], &[y]);
        b.inputs(&[x, i]).outputs(&[y]);
        (b.finish(), [x, i, y])
    }

    /// TFLite Micro's outputs (tools/op_test_vectors.py): row tuples and full tuples, one
    /// index past its dimension but inside the tensor (TFLite Micro checks the flat start
    /// only).
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, [x, i, y]) = model(DType::I8, &[3, 4, 2], &[2, 2, 2], &[2, 2, 2]);
        let ins = [(x, TensorData::I8(i8s(76, 24))), (i, TensorData::I32(vec![2, 3, 0, 0, 1, 1, 0, 5]))];
        check_vector("gather_nd_s8_rows", &bytes, &ins, y, WANT_ROWS);
        let (bytes, [x, i, y]) = model(DType::I8, &[3, 4, 2], &[3, 3], &[3]);
        let ins = [(x, TensorData::I8(i8s(77, 24))), (i, TensorData::I32(vec![2, 3, 1, 0, 0, 0, 1, 2, 1]))];
        check_vector("gather_nd_s8_elements", &bytes, &ins, y, WANT_ELEMENTS);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: gather_nd :: gather_nd_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn float32_rows() {
        let (bytes, [x, i, y]) = model(DType::F32, &[3, 2], &[2, 1], &[2, 2]);
        let s = run_op0("gather_nd_f32", &bytes, &[(x, TensorData::F32(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])), (i, TensorData::I32(vec![2, 1]))]);
        assert_eq!(s.f32(y).unwrap(), &[5.0, 6.0, 3.0, 4.0]);
    }

    #[test]
    fn malformed_and_unsupported() {
        let inv = |b: &[u8]| matches!(lower_err(b), LowerError::Invalid { .. });
        assert!(inv(&model(DType::I8, &[3, 2], &[2, 3], &[2]).0));
        assert!(inv(&model(DType::I8, &[3, 2], &[2, 1], &[2, 3]).0));
        assert!(inv(&model(DType::I8, &[3, 2], &[], &[3, 2]).0));
        assert!(matches!(lower_err(&model(DType::I8, &[1; 6], &[1, 6], &[1]).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I32, &[3, 2], &[2, 1], &[2, 2]).0), LowerError::Unsupported { .. }));
    }

    const WANT_ROWS: &[i8] = &[
        -119, 77, -11, 21, -47, 94, -47, 94,
    ];
    const WANT_ELEMENTS: &[i8] = &[
        16, -21, -89,
    ];
}
