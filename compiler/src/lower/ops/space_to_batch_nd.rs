//! SPACE_TO_BATCH_ND: TFLite Micro `space_to_batch_nd.cc` (int8 and float32, rank 3 or 4,
//! constant `block_shape` and `paddings`; the operands' checks are
//! [`lower_batch_space`]). The output is `[batch * bh * bw, (h + top + bottom) / bh,
//! (w + left + right) / bw, depth]`, the padded extents multiples of the block (TFLite's
//! rule; TFLite Micro takes the output shape from the model). Padding holds the output
//! zero point for int8 and 0.0 for float32, as TFLite's reference kernel pads: TFLite
//! Micro pads with uninitialised memory (it never sets the `output_offset` that
//! `reference_ops::SpaceToBatchND` pads with; see the runtime module), so its padded
//! elements are undefined and TFLite's reference kernels are the oracle for them (the
//! others match TFLite Micro). Runtime: `tflc_runtime::kernels::space_to_batch_nd`.

use super::movement::{expect_shape, get, kernel_fn, lower_batch_space, put, unextend, Elem};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::{EmitCx, Lit};
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::space_to_batch_nd::{space_to_batch_nd, SpaceToBatchNdParams};

/// `runtime_struct_lit!`'s expansion by hand (the macro wants a lifetime parameter; this
/// struct has none): one exhaustive destructuring, so a new field does not compile.
impl<T: Lit> Lit for SpaceToBatchNdParams<T> {
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let SpaceToBatchNdParams { input, output, block, pad_before, pad } = self;
        let (input, output, block, pad_before, pad) = (input.lit(rt), output.lit(rt), block.lit(rt), pad_before.lit(rt), pad.lit(rt));
        quote! { #rt::kernels::space_to_batch_nd::SpaceToBatchNdParams { input: #input, output: #output, block: #block, pad_before: #pad_before, pad: #pad } }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SpaceToBatchNd {
    pub input: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    /// The params with a unit pad; the pad is filled in per element type.
    pub params: SpaceToBatchNdParams<()>,
    /// The int8 pad (the output zero point; float32 pads with 0.0).
    pub pad_s8: i8,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<SpaceToBatchNd, LowerError> {
    let op = lower_batch_space(cx, "SPACE_TO_BATCH_ND")?;
    let [ib, ih, iw, d] = op.input4;
    let [bh, bw] = op.block;
    let [[top, bottom], [left, right]] = op.pairs;
    let padded = |n: usize, lo: usize, hi: usize, b: usize| n.checked_add(lo).and_then(|x| x.checked_add(hi)).filter(|x| x % b == 0).map(|x| x / b);
    let (Some(oh), Some(ow), Some(ob)) = (padded(ih, top, bottom, bh), padded(iw, left, right, bw), ib.checked_mul(bh).and_then(|x| x.checked_mul(bw))) else {
        return Err(cx.invalid_tensor(cx.input(2)?, format!("paddings {:?} do not make the space a multiple of the block {bh}x{bw}", op.pairs)));
    };
    expect_shape(cx, op.output, &unextend(op.input.shape.len(), [ob, oh, ow, d]))?;
    let params = SpaceToBatchNdParams { input: op.input4, output: [ob, oh, ow], block: op.block, pad_before: [top, left], pad: () };
    let pad_s8 = if op.dtype == DType::I8 { i8::try_from(cx.q_s8(op.output)?.zero_point).unwrap_or(0) } else { 0 };
    Ok(SpaceToBatchNd { input: op.input.id, output: op.output.id, dtype: op.dtype, params, pad_s8 })
}

impl SpaceToBatchNd {
    fn params<T>(&self, pad: T) -> SpaceToBatchNdParams<T> {
        let p = &self.params;
        SpaceToBatchNdParams { input: p.input, output: p.output, block: p.block, pad_before: p.pad_before, pad }
    }

    fn run<T: Elem>(&self, s: &mut TensorStore, pad: T) -> Result<(), ExecError> {
        let x = get::<T>(s, self.input)?;
        if x.len() != self.params.input.iter().product::<usize>() {
            return Err(ExecError(format!("SPACE_TO_BATCH_ND: input {} has {} elements", self.input, x.len())));
        }
        let [b, h, w] = self.params.output;
        let mut y = vec![T::default(); b * h * w * self.params.input[3]];
        space_to_batch_nd(&self.params(pad), x, &mut y);
        put(s, self.output, y);
        Ok(())
    }

    fn params_const<T: Lit>(&self, cx: &mut EmitCx<'_, '_, '_>, elem: TokenStream, pad: T) -> proc_macro2::Ident {
        cx.params_lit(quote! { kernels::space_to_batch_nd::SpaceToBatchNdParams<#elem> }, &self.params(pad))
    }
}

impl Kernel for SpaceToBatchNd {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self.dtype {
            DType::I8 => self.run::<i8>(s, self.pad_s8),
            DType::F32 => self.run::<f32>(s, 0.0),
            other => Err(ExecError(format!("SPACE_TO_BATCH_ND on {other}"))),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = match self.dtype {
            DType::I8 => self.params_const(cx, quote! { i8 }, self.pad_s8),
            _ => self.params_const(cx, quote! { f32 }, 0.0f32),
        };
        let f = kernel_fn(cx, "space_to_batch_nd", "space_to_batch_nd", self.dtype);
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

    fn model(dtype: DType, in_shape: &[usize], block: &[i32], pads: &[i32], out_shape: &[usize]) -> (Vec<u8>, TensorId, TensorId) {
        let q = (dtype == DType::I8).then_some((0.05, -5));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", dtype, in_shape, q);
        let bs = b.constant_i32("block_shape", &[block.len()], block, None);
        let c = b.constant_i32("paddings", &[block.len(), 2], pads, None);
        let y = b.activation("y", dtype, out_shape, q);
        b.op(OpKind::SpaceToBatchNd, &[Some(x), Some(bs), Some(c)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// TFLite's reference kernels' outputs (tools/op_test_vectors.py, `_litert`: TFLite
    /// Micro pads with uninitialised memory): padding on every edge with an int8 zero point
    /// of -5, rank 3. The unpadded elements were also checked against TFLite Micro.
    #[test]
    fn int8_matches_tflite() {
        let (bytes, x, y) = model(DType::I8, &[2, 3, 4, 2], &[2, 3], &[1, 2, 0, 2], &[12, 3, 2, 2]);
        check_vector("space_to_batch_nd_s8_litert", &bytes, &[(x, TensorData::I8(i8s(69, 48)))], y, WANT_S8);
        let (bytes, x, y) = model(DType::I8, &[2, 4, 3], &[3], &[1, 1], &[6, 2, 3]);
        check_vector("space_to_batch_nd_s8_rank3_litert", &bytes, &[(x, TensorData::I8(i8s(70, 24)))], y, WANT_RANK3);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: space_to_batch_nd :: space_to_batch_nd_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn float32_pads_with_zero() {
        let (bytes, x, y) = model(DType::F32, &[1, 1, 2, 1], &[2, 2], &[1, 0, 0, 0], &[4, 1, 1, 1]);
        let s = run_op0("space_to_batch_nd_f32", &bytes, &[(x, TensorData::F32(vec![1.5, -2.5]))]);
        assert_eq!(s.f32(y).unwrap(), &[0.0, 0.0, 1.5, -2.5]);
    }

    #[test]
    fn malformed_and_unsupported() {
        let inv = |b: &[u8]| matches!(lower_err(b), LowerError::Invalid { .. });
        assert!(inv(&model(DType::I8, &[1, 3, 2, 1], &[2, 2], &[0; 4], &[4, 1, 1, 1]).0));
        assert!(inv(&model(DType::I8, &[1, 2, 2, 1], &[2, -2], &[0; 4], &[4, 1, 1, 1]).0));
        assert!(inv(&model(DType::I8, &[1, 2, 2, 1], &[2, 2], &[0, 0, -2, 2], &[4, 1, 1, 1]).0));
        assert!(inv(&model(DType::I8, &[1, 2, 2, 1], &[2, 2], &[0; 4], &[4, 1, 2, 1]).0));
        assert!(matches!(lower_err(&model(DType::I32, &[1, 2, 2, 1], &[2, 2], &[0; 4], &[4, 1, 1, 1]).0), LowerError::Unsupported { .. }));
    }

    const WANT_S8: &[i8] = &[
        -5, -5, -5, -5, -81, 21, -64, -104, -5, -5, -5, -5, -5, -5, -5, -5, 70, 89, 111, -100, -5, -5,
        -5, -5, -5, -5, -5, -5, 88, 6, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, 22, -101, -5, -5, -5,
        -5, -5, -5, -5, -5, -5, -5, -57, -111, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -111, 124, -5,
        -5, -5, -5, -5, -5, 37, 29, -58, -17, 92, -84, -20, -31, -5, -5, -5, -5, -2, -56, 110, -46, 77,
        37, 93, 125, -5, -5, -5, -5, 89, 6, -5, -5, -21, -112, -5, -5, -5, -5, -5, -5, -114, 113, -5,
        -5, 35, 121, -5, -5, -5, -5, -5, -5, 6, -103, -5, -5, -69, 19, -5, -5, -5, -5, -5, -5, -110,
        43, -5, -5, 124, -64, -5, -5, -5, -5, -5, -5,
    ];
    const WANT_RANK3: &[i8] = &[
        -5, -5, -5, 19, 96, 77, -5, -5, -5, -121, 92, -118, -85, -99, -45, 67, -67, -80, -43, -113, 65,
        -114, -38, 25, -77, 45, 85, -5, -5, -5, 3, 24, -51, -5, -5, -5,
    ];
}
