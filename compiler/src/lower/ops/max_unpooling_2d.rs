//! MaxUnpooling2D, MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/max_unpooling.cc`): puts each value back where
//! MaxPoolingWithArgmax2D's indices say, float32. The runtime kernel is
//! `tflc_runtime::kernels::max_unpooling_2d`.
//!
//! Prepare's checks, made here: 2 inputs (values, indices) of rank 4 and 1 output, all
//! float32. The options are a raw `TfLitePoolParams` (the first six `int`s, as
//! MaxPoolingWithArgmax2D's). The output is the input's height and width times the filter's
//! (not the stride's); the padding `ComputePadding(stride, 1, out, filter, in)`. tflc also
//! refuses indices whose shape is not the values' (MediaPipe reads them at the values'
//! offsets), strides and filters below 1, and an output whose shape in the model is not the
//! one Prepare computes. An index pointing outside the output drops its value (MediaPipe
//! writes out of bounds; see the runtime kernel).

use super::mediapipe::{compute_padding, expect_shape, f32_shape4, pool_params};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::TensorId;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::max_unpooling_2d::{max_unpooling_2d_f32, MaxUnpooling2dParams};

/// The custom code.
pub const NAME: &str = "MaxUnpooling2D";

crate::runtime_struct_lit!(kernels::max_unpooling_2d::MaxUnpooling2dParams { input_shape, output_shape, filter_width, stride, padding });

/// A lowered MaxUnpooling2D.
#[derive(Debug, Clone)]
pub struct MaxUnpooling2d {
    params: MaxUnpooling2dParams,
    /// Values, indices.
    inputs: [TensorId; 2],
    output: TensorId,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<MaxUnpooling2d, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let o = pool_params(cx)?;
    let (input, indices, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    let input_shape = f32_shape4(cx, input)?;
    if f32_shape4(cx, indices)? != input_shape {
        return Err(cx.invalid_tensor(indices, format!("shape {:?}, but the values are {input_shape:?}", indices.shape)));
    }
    let mut out_hw = [0; 2];
    let mut padding = [0; 2];
    for d in 0..2 {
        out_hw[d] = input_shape[1 + d].checked_mul(o.filter[d]).ok_or_else(|| cx.invalid_tensor(input, "the output size overflows"))?;
        padding[d] = compute_padding(o.stride[d], out_hw[d], o.filter[d], input_shape[1 + d]);
    }
    let output_shape = [input_shape[0], out_hw[0], out_hw[1], input_shape[3]];
    f32_shape4(cx, output)?;
    expect_shape(cx, output, &output_shape)?;
    cx.expect_activation(output)?;
    let params = MaxUnpooling2dParams { input_shape, output_shape, filter_width: o.filter[1], stride: o.stride, padding };
    Ok(MaxUnpooling2d { params, inputs: [input.id, indices.id], output: output.id })
}

impl Kernel for MaxUnpooling2d {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = &self.params;
        let (x, idx) = (s.f32(self.inputs[0])?.to_vec(), s.f32(self.inputs[1])?.to_vec());
        let n = p.input_shape.iter().product::<usize>();
        if x.len() != n || idx.len() != n {
            return Err(ExecError(format!("{NAME}: an input's data does not match its shape")));
        }
        let mut y = s.take_f32(self.output, p.output_shape.iter().product());
        max_unpooling_2d_f32(p, &x, &idx, &mut y);
        s.insert(self.output, TensorData::F32(y));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::max_unpooling_2d::MaxUnpooling2dParams }, &self.params);
        let [x, idx] = self.inputs.map(|t| cx.input(t));
        let y = cx.output(self.output);
        quote! { #rt::kernels::max_unpooling_2d::max_unpooling_2d_f32(&#p, #x, #idx, #y); }
    }
}
