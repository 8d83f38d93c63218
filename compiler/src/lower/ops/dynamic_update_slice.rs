//! DYNAMIC_UPDATE_SLICE: TFLite Micro `dynamic_update_slice.cc` (int8, int16, int32,
//! float32). The update has the operand's rank (at most 6) and element type, each dim at
//! most the operand's; the start indices are a rank-1 int32 or int64 tensor of rank
//! entries, read at run time and clamped into range. The output has the operand's shape,
//! element type and quantization (the update must carry it too: the bytes are copied).
//! Runtime `tflc_runtime::kernels::dynamic_update_slice`.

use super::movement::{expect_distinct_outputs, expect_one_of, expect_same_type_and_quant, expect_shape, get, kernel_fn, put, with_elem, Elem};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::dynamic_update_slice::{dynamic_update_slice, DynamicUpdateSliceParams};

crate::runtime_struct_lit!(kernels::dynamic_update_slice::DynamicUpdateSliceParams<'a> { shape, update_shape });

/// TFLite Micro's limit (`RuntimeShape::kMaxSmallSize`).
const MAX_RANK: usize = 6;

#[derive(Debug, Clone, PartialEq)]
pub struct DynamicUpdateSlice {
    pub operand: TensorId,
    pub update: TensorId,
    pub indices: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub shape: Vec<usize>,
    pub update_shape: Vec<usize>,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<DynamicUpdateSlice, LowerError> {
    cx.expect_arity(3..=3, 1)?;
    let (operand, update, indices, output) = (cx.input(0)?, cx.input(1)?, cx.input(2)?, cx.output(0)?);
    expect_one_of(cx, operand, &[DType::I8, DType::I16, DType::I32, DType::F32], "DYNAMIC_UPDATE_SLICE")?;
    expect_same_type_and_quant(cx, operand, update)?;
    expect_same_type_and_quant(cx, operand, output)?;
    expect_distinct_outputs(cx)?;
    let rank = operand.shape.len();
    if rank > MAX_RANK {
        return Err(cx.unsupported_tensor(operand, format!("rank {rank} (TFLite Micro takes up to {MAX_RANK})")));
    }
    if !matches!(indices.dtype, DType::I32 | DType::I64) {
        return Err(cx.unsupported_tensor(indices, format!("element type {} (start indices are int32 or int64)", indices.dtype)));
    }
    if indices.shape != [rank] {
        return Err(cx.invalid_tensor(indices, format!("shape {:?}, expected [{rank}]", indices.shape)));
    }
    if update.shape.len() != rank || update.shape.iter().zip(&operand.shape).any(|(u, o)| u > o) {
        return Err(cx.invalid_tensor(update, format!("shape {:?} does not fit in the operand's {:?}", update.shape, operand.shape)));
    }
    expect_shape(cx, output, &operand.shape)?;
    Ok(DynamicUpdateSlice {
        operand: operand.id,
        update: update.id,
        indices: indices.id,
        output: output.id,
        dtype: operand.dtype,
        shape: operand.shape.clone(),
        update_shape: update.shape.clone(),
    })
}

impl DynamicUpdateSlice {
    fn p(&self) -> DynamicUpdateSliceParams<'_> {
        DynamicUpdateSliceParams { shape: &self.shape, update_shape: &self.update_shape }
    }

    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let (x, u) = (get::<T>(s, self.operand)?, get::<T>(s, self.update)?);
        if x.len() != self.shape.iter().product::<usize>() || u.len() != self.update_shape.iter().product::<usize>() {
            return Err(ExecError(format!("DYNAMIC_UPDATE_SLICE: operand {} or update {} has the wrong length", self.operand, self.update)));
        }
        let mut y = vec![T::default(); x.len()];
        match s.get(self.indices) {
            Some(TensorData::I32(i)) if i.len() == self.shape.len() => dynamic_update_slice(&self.p(), x, u, i, &mut y),
            Some(TensorData::I64(i)) if i.len() == self.shape.len() => dynamic_update_slice(&self.p(), x, u, i, &mut y),
            _ => return Err(ExecError(format!("DYNAMIC_UPDATE_SLICE: start indices {} missing or malformed", self.indices))),
        }
        put(s, self.output, y);
        Ok(())
    }
}

impl Kernel for DynamicUpdateSlice {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = cx.params_lit(quote! { kernels::dynamic_update_slice::DynamicUpdateSliceParams<'static> }, &self.p());
        let f = kernel_fn(cx, "dynamic_update_slice", "dynamic_update_slice", self.dtype);
        let x = cx.input(self.operand);
        let u = cx.input(self.update);
        let i = cx.input(self.indices);
        let y = cx.output(self.output);
        quote! { #f(&#p, #x, #u, #i, #y); }
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

    fn model(dtype: DType, shape: &[usize], u_shape: &[usize], idx: DType) -> (Vec<u8>, [TensorId; 4]) {
        let q = (dtype == DType::I8).then_some((0.05, -5));
        let mut b = ModelBuilder::new();
        let x = b.activation("operand", dtype, shape, q);
        let u = b.activation("update", dtype, u_shape, q);
        let i = b.activation("start", idx, &[shape.len()], None);
        let y = b.activation("y", dtype, shape, q);
        b.op(OpKind::DynamicUpdateSlice, &[Some(x), Some(u), Some(i)], &[y]);
        b.inputs(&[x, u, i]).outputs(&[y]);
        (b.finish(), [x, u, i, y])
    }

    /// TFLite Micro's outputs (tools/op_test_vectors.py): an inner box, and start indices
    /// clamped from both sides.
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, [x, u, i, y]) = model(DType::I8, &[3, 4, 5], &[2, 2, 3], DType::I32);
        let ins = [(x, TensorData::I8(i8s(79, 60))), (u, TensorData::I8(i8s(80, 12))), (i, TensorData::I32(vec![1, 1, 2]))];
        check_vector("dynamic_update_slice_s8", &bytes, &ins, y, WANT_BOX);
        let ins = [(x, TensorData::I8(i8s(81, 60))), (u, TensorData::I8(i8s(82, 12))), (i, TensorData::I32(vec![-7, 9, 1]))];
        check_vector("dynamic_update_slice_s8_clamped", &bytes, &ins, y, WANT_CLAMPED);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: dynamic_update_slice :: dynamic_update_slice_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn float32_with_int64_indices() {
        let (bytes, [x, u, i, y]) = model(DType::F32, &[2, 3], &[1, 2], DType::I64);
        let ins = [(x, TensorData::F32(vec![0.0; 6])), (u, TensorData::F32(vec![1.0, 2.0])), (i, TensorData::I64(vec![1, 5]))];
        let s = run_op0("dynamic_update_slice_f32", &bytes, &ins);
        assert_eq!(s.f32(y).unwrap(), &[0.0, 0.0, 0.0, 0.0, 1.0, 2.0]);
    }

    #[test]
    fn malformed_and_unsupported() {
        assert!(matches!(lower_err(&model(DType::I8, &[2, 3], &[3, 1], DType::I32).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[2, 3], &[2], DType::I32).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[2, 3], &[1, 1], DType::I16).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::U8, &[2, 3], &[1, 1], DType::I32).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[1; 7], &[1; 7], DType::I32).0), LowerError::Unsupported { .. }));
    }

    const WANT_BOX: &[i8] = &[
        -10, 115, 58, -35, 0, -88, 27, 49, -1, 11, -100, 47, -63, 28, -76, 64, -59, 45, -79, 25, 17,
        -86, 20, -1, -77, -116, 15, 50, -79, -107, 91, 49, -7, 35, -117, 123, -15, -24, 5, -75, -121,
        -113, -19, -95, 88, 122, 30, -3, -65, -128, 123, -122, -57, 106, 47, 53, -103, 91, -33, 33,
    ];
    const WANT_CLAMPED: &[i8] = &[
        123, -119, -101, 1, -51, -40, 77, 111, 100, 88, -41, -18, -92, -52, -62, -47, -55, 44, 33, 65,
        47, -81, 125, 55, -127, 2, 99, -12, 87, 82, 107, -81, 42, -9, -28, 29, -9, 124, -42, 97, -118,
        -22, -31, 99, 95, -40, 18, -112, 97, -109, -126, 115, 22, 44, 97, -107, -72, -21, -95, -109,
    ];
}
