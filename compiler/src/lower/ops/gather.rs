//! GATHER: TFLite Micro `gather.cc` (int8 and float32 input, int32 coordinates, which may
//! be computed at run time). `axis` and `batch_dims` may be negative (`axis` counts from
//! the input's rank, `batch_dims` from the coordinates'); Prepare's rules: `0 <= axis <
//! rank`, `0 <= batch_dims <= axis`, `batch_dims < rank`, `batch_dims <=` the
//! coordinates' rank, and the first `batch_dims` dims equal. The output is
//! `input[..axis] ++ coords[batch_dims..] ++ input[axis + 1..]`, with the input's element
//! type and quantization. Runtime `tflc_runtime::kernels::gather` (an out-of-range
//! coordinate there gives a zero slice: see the runtime module).

use super::movement::{expect_distinct_outputs, expect_one_of, expect_same_type_and_quant, expect_shape, get, kernel_fn, put, with_elem, Elem};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::gather::{gather, GatherParams};

crate::runtime_struct_lit!(kernels::gather::GatherParams { batch, outer, axis_size, coords, inner });

#[derive(Debug, Clone, PartialEq)]
pub struct Gather {
    pub input: TensorId,
    pub coords: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub params: GatherParams,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, axis: i32, batch_dims: i32) -> Result<Gather, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let (input, coords, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    expect_one_of(cx, input, &[DType::I8, DType::F32], "GATHER")?;
    if coords.dtype != DType::I32 {
        return Err(cx.unsupported_tensor(coords, format!("coordinates of element type {} (TFLite Micro's GATHER takes int32)", coords.dtype)));
    }
    expect_same_type_and_quant(cx, input, output)?;
    expect_distinct_outputs(cx)?;
    let (rank, crank) = (input.shape.len() as i64, coords.shape.len() as i64);
    let a = if axis < 0 { i64::from(axis) + rank } else { i64::from(axis) };
    let b = if batch_dims < 0 { i64::from(batch_dims) + crank } else { i64::from(batch_dims) };
    if !(0..rank).contains(&a) {
        return Err(cx.invalid(format!("axis {axis} is out of range for rank {rank}")));
    }
    if !(0..rank).contains(&b) || b > a || b > crank {
        return Err(cx.invalid(format!("batch_dims {batch_dims} must be in 0..=axis ({a}), below rank {rank} and at most the coordinates' rank {crank}")));
    }
    let (a, b) = (a as usize, b as usize);
    if input.shape[..b] != coords.shape[..b] {
        return Err(cx.invalid_tensor(coords, format!("the first {b} dims {:?} differ from the input's {:?}", &coords.shape[..b], &input.shape[..b])));
    }
    let want: Vec<usize> = input.shape[..a].iter().chain(&coords.shape[b..]).chain(&input.shape[a + 1..]).copied().collect();
    expect_shape(cx, output, &want)?;
    let prod = |s: &[usize]| s.iter().product::<usize>();
    let params = GatherParams {
        batch: prod(&input.shape[..b]),
        outer: prod(&input.shape[b..a]),
        axis_size: input.shape[a],
        coords: prod(&coords.shape[b..]),
        inner: prod(&input.shape[a + 1..]),
    };
    Ok(Gather { input: input.id, coords: coords.id, output: output.id, dtype: input.dtype, params })
}

impl Gather {
    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let x = get::<T>(s, self.input)?;
        let c = s.i32(self.coords)?;
        let p = &self.params;
        if x.len() != p.input_len() || c.len() != p.batch * p.coords {
            return Err(ExecError(format!("GATHER: input {} or coordinates {} have the wrong length", self.input, self.coords)));
        }
        let mut y = vec![T::default(); p.output_len()];
        gather(p, x, c, &mut y);
        put(s, self.output, y);
        Ok(())
    }
}

impl Kernel for Gather {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = cx.params_lit(quote! { kernels::gather::GatherParams }, &self.params);
        let f = kernel_fn(cx, "gather", "gather", self.dtype);
        let x = cx.input(self.input);
        let c = cx.input(self.coords);
        let y = cx.output(self.output);
        quote! { #f(&#p, #x, #c, #y); }
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

    fn model(dtype: DType, in_shape: &[usize], c_shape: &[usize], axis: i32, batch_dims: i32, out_shape: &[usize]) -> (Vec<u8>, [TensorId; 3]) {
        let q = (dtype == DType::I8).then_some((0.05, -5));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", dtype, in_shape, q);
        let c = b.activation("coords", DType::I32, c_shape, None);
        let y = b.activation("y", dtype, out_shape, q);
        b.op(OpKind::Gather { axis, batch_dims }, &[Some(x), Some(c)], &[y]);
        b.inputs(&[x, c]).outputs(&[y]);
        (b.finish(), [x, c, y])
    }

    /// TFLite Micro's outputs (tools/op_test_vectors.py): a negative middle axis with 2-D
    /// coordinates, and batch_dims 1.
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, [x, c, y]) = model(DType::I8, &[2, 5, 3], &[2, 2], -2, 0, &[2, 2, 2, 3]);
        let ins = [(x, TensorData::I8(i8s(74, 30))), (c, TensorData::I32(vec![4, 0, 2, 4]))];
        check_vector("gather_s8_axis", &bytes, &ins, y, WANT_AXIS);
        let (bytes, [x, c, y]) = model(DType::I8, &[2, 4, 3], &[2, 3], 1, 1, &[2, 3, 3]);
        let ins = [(x, TensorData::I8(i8s(75, 24))), (c, TensorData::I32(vec![3, 3, 0, 1, 2, 0]))];
        check_vector("gather_s8_batch", &bytes, &ins, y, WANT_BATCH);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: gather :: gather_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn float32_rows() {
        let (bytes, [x, c, y]) = model(DType::F32, &[3, 2], &[2], 0, 0, &[2, 2]);
        let s = run_op0("gather_f32", &bytes, &[(x, TensorData::F32(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])), (c, TensorData::I32(vec![2, 0]))]);
        assert_eq!(s.f32(y).unwrap(), &[5.0, 6.0, 1.0, 2.0]);
    }

    #[test]
    fn malformed_and_unsupported() {
        let inv = |b: &[u8]| matches!(lower_err(b), LowerError::Invalid { .. });
        assert!(inv(&model(DType::I8, &[3, 2], &[2], 2, 0, &[3, 2]).0));
        assert!(inv(&model(DType::I8, &[3, 2], &[2], 0, 1, &[2, 2]).0));
        assert!(inv(&model(DType::I8, &[3, 2], &[2], 0, 0, &[3, 2]).0));
        assert!(inv(&model(DType::I8, &[2, 4, 3], &[3, 3], 1, 1, &[2, 3, 3]).0));
        assert!(matches!(lower_err(&model(DType::I16, &[3, 2], &[2], 0, 0, &[2, 2]).0), LowerError::Unsupported { .. }));
    }

    const WANT_AXIS: &[i8] = &[
        11, -109, -54, 17, 90, 40, 12, -25, -32, 11, -109, -54, 68, 122, 77, -99, 43, 106, -84, 108,
        -112, 68, 122, 77,
    ];
    const WANT_BATCH: &[i8] = &[
        -26, -19, -90, -26, -19, -90, -78, -35, 55, -31, -57, -16, -76, -7, 106, 109, 117, -40,
    ];
}
