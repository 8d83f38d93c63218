//! MaxPoolingWithArgmax2D, MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/max_pool_argmax.cc`): float32 max pooling with a
//! second output, the position of each maximum in its window (as a float). The runtime
//! kernel is `tflc_runtime::kernels::max_pooling_with_argmax_2d`.
//!
//! Prepare's checks, made here: 1 input of rank 4 and 2 outputs, all float32. The options
//! are a raw `TfLitePoolParams` (`padding`, `stride_width`, `stride_height`, `filter_width`,
//! `filter_height`, `activation`: the first six `int`s). The output size is TensorFlow's
//! `GetWindowedOutputSize`: SAME `(in + stride - 1) / stride`, VALID
//! `(in - filter + stride) / stride`; the padding `ComputePadding(stride, 1, in, filter,
//! out)`; the activation range `CalculateActivationRange`. tflc also refuses what MediaPipe
//! would compute an empty or negative output for (an unknown padding, a filter larger than a
//! VALID input), strides and filters below 1, and outputs whose shape in the model is not
//! the one Prepare computes.

use super::mediapipe::{activation_range, compute_padding, expect_shape, f32_shape4, pool_params, PADDING_SAME, PADDING_VALID};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::TensorId;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::max_pooling_with_argmax_2d::{max_pooling_with_argmax_2d_f32, MaxPoolingWithArgmax2dParams};

/// The custom code.
pub const NAME: &str = "MaxPoolingWithArgmax2D";

crate::runtime_struct_lit!(kernels::max_pooling_with_argmax_2d::MaxPoolingWithArgmax2dParams {
    input_shape,
    output_shape,
    filter,
    stride,
    padding,
    activation_min,
    activation_max,
});

/// A lowered MaxPoolingWithArgmax2D.
#[derive(Debug, Clone)]
pub struct MaxPoolingWithArgmax2d {
    params: MaxPoolingWithArgmax2dParams,
    input: TensorId,
    /// Output, indices.
    outputs: [TensorId; 2],
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<MaxPoolingWithArgmax2d, LowerError> {
    cx.expect_arity(1..=1, 2)?;
    let o = pool_params(cx)?;
    let (input, output, indices) = (cx.input(0)?, cx.output(0)?, cx.output(1)?);
    let input_shape = f32_shape4(cx, input)?;
    let mut out_hw = [0; 2];
    let mut padding = [0; 2];
    for d in 0..2 {
        let (in_size, f, s) = (input_shape[1 + d] as i64, o.filter[d] as i64, o.stride[d] as i64);
        let out = match o.padding {
            PADDING_SAME => (in_size + s - 1) / s,
            PADDING_VALID => (in_size - f + s) / s,
            p => return Err(cx.invalid(format!("custom options: TfLitePoolParams.padding = {p}, neither SAME (1) nor VALID (2): MediaPipe computes an empty output"))),
        };
        if out < 1 {
            return Err(cx.invalid_tensor(input, format!("shape {input_shape:?}: a {}x{} window leaves no output", o.filter[0], o.filter[1])));
        }
        out_hw[d] = out as usize;
        padding[d] = compute_padding(o.stride[d], input_shape[1 + d], o.filter[d], out_hw[d]);
    }
    let output_shape = [input_shape[0], out_hw[0], out_hw[1], input_shape[3]];
    for t in [output, indices] {
        f32_shape4(cx, t)?;
        expect_shape(cx, t, &output_shape)?;
        cx.expect_activation(t)?;
    }
    if output.id == indices.id {
        return Err(cx.invalid_tensor(indices, "the indices output is the values output"));
    }
    let (activation_min, activation_max) = activation_range(o.activation);
    let params = MaxPoolingWithArgmax2dParams { input_shape, output_shape, filter: o.filter, stride: o.stride, padding, activation_min, activation_max };
    Ok(MaxPoolingWithArgmax2d { params, input: input.id, outputs: [output.id, indices.id] })
}

impl Kernel for MaxPoolingWithArgmax2d {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = &self.params;
        let x = s.f32(self.input)?.to_vec();
        if x.len() != p.input_shape.iter().product::<usize>() {
            return Err(ExecError(format!("{NAME}: the input's data does not match its shape")));
        }
        let n = p.output_shape.iter().product();
        let (mut y, mut idx) = (s.take_f32(self.outputs[0], n), s.take_f32(self.outputs[1], n));
        max_pooling_with_argmax_2d_f32(p, &x, &mut y, &mut idx);
        s.insert(self.outputs[0], TensorData::F32(y));
        s.insert(self.outputs[1], TensorData::F32(idx));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::max_pooling_with_argmax_2d::MaxPoolingWithArgmax2dParams }, &self.params);
        let x = cx.input(self.input);
        let [y, idx] = self.outputs.map(|t| cx.output(t));
        quote! { #rt::kernels::max_pooling_with_argmax_2d::max_pooling_with_argmax_2d_f32(&#p, #x, #y, #idx); }
    }
}
