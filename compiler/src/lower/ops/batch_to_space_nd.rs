//! BATCH_TO_SPACE_ND: TFLite Micro `batch_to_space_nd.cc` (int8 and float32, rank 3 or 4,
//! constant `block_shape` and `crops`; the operands' checks are
//! [`lower_batch_space`]). The output is `[batch / (bh * bw), h * bh - top - bottom,
//! w * bw - left - right, depth]`: TFLite Micro takes the output shape from the model
//! and writes what falls inside it; tflc requires that shape, so every output element is
//! written. Runtime: `tflc_runtime::kernels::batch_to_space_nd`.

use super::movement::{expect_shape, get, kernel_fn, lower_batch_space, put, unextend, with_elem, Elem};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::batch_to_space_nd::{batch_to_space_nd, BatchToSpaceNdParams};

crate::runtime_struct_lit!(kernels::batch_to_space_nd::BatchToSpaceNdParams { input, output, block, crop });

#[derive(Debug, Clone, PartialEq)]
pub struct BatchToSpaceNd {
    pub input: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub params: BatchToSpaceNdParams,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<BatchToSpaceNd, LowerError> {
    let op = lower_batch_space(cx, "BATCH_TO_SPACE_ND")?;
    let [ib, ih, iw, d] = op.input4;
    let [bh, bw] = op.block;
    let [[top, bottom], [left, right]] = op.pairs;
    let blocks = bh.checked_mul(bw).filter(|&n| ib % n == 0).ok_or_else(|| {
        cx.invalid_tensor(op.input, format!("batch {ib} is not a multiple of the block size {bh}x{bw}"))
    })?;
    let full = |n: usize, b: usize, lo: usize, hi: usize| n.checked_mul(b).and_then(|x| x.checked_sub(lo)).and_then(|x| x.checked_sub(hi));
    let (Some(oh), Some(ow)) = (full(ih, bh, top, bottom), full(iw, bw, left, right)) else {
        return Err(cx.invalid_tensor(cx.input(2)?, format!("crops {:?} exceed the space {}x{}", op.pairs, ih * bh, iw * bw)));
    };
    expect_shape(cx, op.output, &unextend(op.input.shape.len(), [ib / blocks, oh, ow, d]))?;
    let params = BatchToSpaceNdParams { input: op.input4, output: [ib / blocks, oh, ow], block: op.block, crop: [top, left] };
    Ok(BatchToSpaceNd { input: op.input.id, output: op.output.id, dtype: op.dtype, params })
}

impl BatchToSpaceNd {
    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let x = get::<T>(s, self.input)?;
        if x.len() != self.params.input.iter().product::<usize>() {
            return Err(ExecError(format!("BATCH_TO_SPACE_ND: input {} has {} elements", self.input, x.len())));
        }
        let [b, h, w] = self.params.output;
        let mut y = vec![T::default(); b * h * w * self.params.input[3]];
        batch_to_space_nd(&self.params, x, &mut y);
        put(s, self.output, y);
        Ok(())
    }
}

impl Kernel for BatchToSpaceNd {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = cx.params_lit(quote! { kernels::batch_to_space_nd::BatchToSpaceNdParams }, &self.params);
        let f = kernel_fn(cx, "batch_to_space_nd", "batch_to_space_nd", self.dtype);
        let x = cx.input(self.input);
        let y = cx.output(self.output);
        quote! { #f(&#p, #x, #y); }
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

    fn model(dtype: DType, in_shape: &[usize], block: &[i32], crops: &[i32], out_shape: &[usize]) -> (Vec<u8>, TensorId, TensorId) {
        let q = (dtype == DType::I8).then_some((0.05, -5));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", dtype, in_shape, q);
        let bs = b.constant_i32("block_shape", &[block.len()], block, None);
        let c = b.constant_i32("crops", &[block.len(), 2], crops, None);
        let y = b.activation("y", dtype, out_shape, q);
        b.op(OpKind::BatchToSpaceNd, &[Some(x), Some(bs), Some(c)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// TFLite Micro's outputs (tools/op_test_vectors.py): crops on every edge, rank 3.
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, x, y) = model(DType::I8, &[12, 2, 3, 2], &[2, 3], &[1, 2, 0, 4], &[2, 1, 5, 2]);
        check_vector("batch_to_space_nd_s8", &bytes, &[(x, TensorData::I8(i8s(67, 144)))], y, WANT_S8);
        let (bytes, x, y) = model(DType::I8, &[6, 2, 3], &[3], &[1, 1], &[2, 4, 3]);
        check_vector("batch_to_space_nd_s8_rank3", &bytes, &[(x, TensorData::I8(i8s(68, 36)))], y, WANT_RANK3);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: batch_to_space_nd :: batch_to_space_nd_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn float32_without_crops() {
        let (bytes, x, y) = model(DType::F32, &[4, 1, 1, 1], &[2, 2], &[0, 0, 0, 0], &[1, 2, 2, 1]);
        let s = run_op0("batch_to_space_nd_f32", &bytes, &[(x, TensorData::F32(vec![1.0, 2.0, 3.0, 4.0]))]);
        assert_eq!(s.f32(y).unwrap(), &[1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn malformed_and_unsupported() {
        let inv = |b: &[u8]| matches!(lower_err(b), LowerError::Invalid { .. });
        assert!(inv(&model(DType::I8, &[3, 1, 1, 1], &[2, 2], &[0; 4], &[1, 2, 2, 1]).0));
        assert!(inv(&model(DType::I8, &[4, 1, 1, 1], &[2, 0], &[0; 4], &[1, 2, 2, 1]).0));
        assert!(inv(&model(DType::I8, &[4, 1, 1, 1], &[2, 2], &[0, -1, 0, 0], &[1, 2, 2, 1]).0));
        assert!(inv(&model(DType::I8, &[4, 1, 1, 1], &[2, 2], &[2, 1, 0, 0], &[1, 0, 2, 1]).0));
        assert!(inv(&model(DType::I8, &[4, 1, 1, 1], &[2, 2], &[0; 4], &[1, 2, 1, 1]).0));
        assert!(matches!(lower_err(&model(DType::I16, &[4, 1, 1, 1], &[2, 2], &[0; 4], &[1, 2, 2, 1]).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[4, 1], &[], &[], &[4, 1]).0), LowerError::Unsupported { .. }));
    }

    const WANT_S8: &[i8] = &[
        72, 110, 12, 115, -93, -60, 78, 124, 55, 24, 47, -3, 111, -117, -28, -83, 71, 97, -106, 97,
    ];
    const WANT_RANK3: &[i8] = &[
        -46, 80, 24, 31, -31, 73, 72, 87, 34, 104, 48, -13, 50, 1, 46, 8, 59, -114, -8, 3, 11, 127,
        -81, 19,
    ];
}
