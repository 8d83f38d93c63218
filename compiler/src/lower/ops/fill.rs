//! FILL: TFLite Micro `fill.cc` (int8, int32, float32). Input 0, `dims`, is a constant
//! rank-1 int8/int16/int32/int64 tensor equal to the output's shape; input 1, `value`, a
//! scalar (rank 0) of the output's element type (and, by tflc's data-movement policy, its
//! quantization), which may be computed at run time. Every output element is the value
//! (`tflc_runtime::kernels::fill`). With a constant value the op is folded.

use super::movement::{expect_distinct_outputs, expect_one_of, expect_same_type_and_quant, expect_shape, get, kernel_fn, put, with_elem, Elem};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;

#[derive(Debug, Clone, PartialEq)]
pub struct Fill {
    pub value: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub len: usize,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Fill, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let (dims, value, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    expect_one_of(cx, value, &[DType::I8, DType::I32, DType::F32], "FILL")?;
    expect_same_type_and_quant(cx, value, output)?;
    expect_distinct_outputs(cx)?;
    if !value.shape.is_empty() {
        return Err(cx.invalid_tensor(value, format!("shape {:?}, the value must be a scalar", value.shape)));
    }
    if dims.shape.len() != 1 {
        return Err(cx.invalid_tensor(dims, format!("shape {:?}, expected rank 1", dims.shape)));
    }
    let bytes = cx.expect_constant(dims)?;
    let want: Option<Vec<i64>> = match TensorData::from_le_bytes(dims.dtype, bytes) {
        Some(TensorData::I8(v)) => Some(v.into_iter().map(i64::from).collect()),
        Some(TensorData::I16(v)) => Some(v.into_iter().map(i64::from).collect()),
        Some(TensorData::I32(v)) => Some(v.into_iter().map(i64::from).collect()),
        Some(TensorData::I64(v)) => Some(v),
        _ => None,
    };
    let Some(want) = want.filter(|w| w.len() == dims.num_elements()) else {
        return Err(cx.unsupported_tensor(dims, format!("element type {} (FILL takes int8, int16, int32 or int64 dims)", dims.dtype)));
    };
    let want: Vec<usize> = want.iter().map(|&d| usize::try_from(d)).collect::<Result<_, _>>().map_err(|_| cx.invalid_tensor(dims, format!("dims {want:?} has a negative entry")))?;
    expect_shape(cx, output, &want)?;
    Ok(Fill { value: value.id, output: output.id, dtype: value.dtype, len: output.num_elements() })
}

impl Fill {
    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let v = get::<T>(s, self.value)?;
        if v.len() != 1 {
            return Err(ExecError(format!("FILL: value {} has {} elements", self.value, v.len())));
        }
        let mut y = vec![T::default(); self.len];
        tflc_runtime::kernels::fill::fill(v, &mut y);
        put(s, self.output, y);
        Ok(())
    }
}

impl Kernel for Fill {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let f = kernel_fn(cx, "fill", "fill", self.dtype);
        let x = cx.input(self.value);
        let y = cx.output(self.output);
        quote! { #f(#x, #y); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::{emit_op0, lower_err};
    use super::super::test_helpers::{check_vector, run_op0};
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(dtype: DType, dims: &[i32], value_shape: &[usize], out_shape: &[usize]) -> (Vec<u8>, TensorId, TensorId) {
        let q = (dtype == DType::I8).then_some((0.05, -5));
        let mut b = ModelBuilder::new();
        let d = b.constant_i32("dims", &[dims.len()], dims, None);
        let v = b.activation("value", dtype, value_shape, q);
        let y = b.activation("y", dtype, out_shape, q);
        b.op(OpKind::Fill, &[Some(d), Some(v)], &[y]);
        b.inputs(&[v]).outputs(&[y]);
        (b.finish(), v, y)
    }

    /// TFLite Micro's output (tools/op_test_vectors.py) for a run-time int8 value.
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, v, y) = model(DType::I8, &[2, 3, 2], &[], &[2, 3, 2]);
        check_vector("fill_s8", &bytes, &[(v, TensorData::I8(vec![-128]))], y, WANT_S8);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: fill :: fill_s8 (x0 ,") || text.contains("kernels :: fill :: fill_s8 (:: tflc_runtime"), "{text}");
    }

    #[test]
    fn int32_and_float32() {
        let (bytes, v, y) = model(DType::I32, &[3], &[], &[3]);
        let s = run_op0("fill_i32", &bytes, &[(v, TensorData::I32(vec![i32::MIN]))]);
        assert_eq!(s.i32(y).unwrap(), &[i32::MIN; 3]);
        let (bytes, v, y) = model(DType::F32, &[1, 2], &[], &[1, 2]);
        let s = run_op0("fill_f32", &bytes, &[(v, TensorData::F32(vec![-0.0]))]);
        assert_eq!(s.f32(y).unwrap().iter().map(|x| x.to_bits()).collect::<Vec<_>>(), vec![(-0.0f32).to_bits(); 2]);
    }

    #[test]
    fn malformed_and_unsupported() {
        assert!(matches!(lower_err(&model(DType::I8, &[2, 3], &[], &[3, 2]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[3], &[1], &[3]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[-3], &[], &[3]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I16, &[3], &[], &[3]).0), LowerError::Unsupported { .. }));
        // Computed dims.
        let mut b = ModelBuilder::new();
        let d = b.activation("dims", DType::I32, &[1], None);
        let v = b.activation("value", DType::I32, &[], None);
        let y = b.activation("y", DType::I32, &[3], None);
        b.op(OpKind::Fill, &[Some(d), Some(v)], &[y]);
        b.inputs(&[d, v]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
    }

    const WANT_S8: &[i8] = &[
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
    ];
}
