//! Convolution2DTransposeBias, MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/transpose_conv_bias.cc`): TRANSPOSE_CONV with a bias,
//! float32. The runtime kernel is `tflc_runtime::kernels::convolution_2d_transpose_bias`.
//!
//! Prepare's checks, made here: 3 inputs (input NHWC, filter OHWI, bias) and 1 output, ranks
//! 4, 4 and 1, float32 everywhere, filter and bias output channels equal, input and filter
//! depths equal. The options are a raw `TfLiteTransposeConvParams` (`padding`,
//! `stride_width`, `stride_height`: the first three `int`s; later TFLite versions append
//! fields MediaPipe does not read). SAME padding (`padding == kTfLitePaddingSame`; any other
//! value is VALID, as MediaPipe tests only for SAME) totals
//! `max(0, filter - (in - 1) % stride - 1)` per dimension; the output is
//! `stride * (in - 1) + filter - total` and the kernel pads top and left by `total / 2`.
//! tflc also refuses strides below 1 (MediaPipe divides by them) and an output tensor whose
//! shape in the model is not the one Prepare computes.

use super::mediapipe::{expect_shape, f32_shape4, RawStruct, PADDING_SAME};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::convolution_2d_transpose_bias::{convolution_2d_transpose_bias_f32, Convolution2dTransposeBiasParams};

/// The custom code.
pub const NAME: &str = "Convolution2DTransposeBias";

crate::runtime_struct_lit!(kernels::convolution_2d_transpose_bias::Convolution2dTransposeBiasParams {
    input_shape,
    filter_shape,
    output_shape,
    stride,
    padding,
});

/// A lowered Convolution2DTransposeBias.
#[derive(Debug, Clone)]
pub struct Convolution2dTransposeBias {
    params: Convolution2dTransposeBiasParams,
    /// Input, filter, bias.
    inputs: [TensorId; 3],
    output: TensorId,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Convolution2dTransposeBias, LowerError> {
    cx.expect_arity(3..=3, 1)?;
    let opts = RawStruct::read(cx, "TfLiteTransposeConvParams", &["padding", "stride_width", "stride_height"])?;
    let (input, filter, bias, output) = (cx.input(0)?, cx.input(1)?, cx.input(2)?, cx.output(0)?);
    let input_shape = f32_shape4(cx, input)?;
    let filter_shape = f32_shape4(cx, filter)?;
    cx.expect_dtype(bias, DType::F32)?;
    cx.expect_dtype(output, DType::F32)?;
    let &[bias_len] = bias.shape.as_slice() else {
        return Err(cx.invalid_tensor(bias, format!("shape {:?} (MediaPipe requires rank 1)", bias.shape)));
    };
    if bias_len != filter_shape[0] {
        return Err(cx.invalid_tensor(bias, format!("{bias_len} biases for {} output channels of the filter", filter_shape[0])));
    }
    if input_shape[3] != filter_shape[3] {
        return Err(cx.invalid_tensor(filter, format!("filter depth {} for input depth {} (MediaPipe requires them equal)", filter_shape[3], input_shape[3])));
    }
    let stride = |i: usize, name: &str| {
        usize::try_from(opts.int(i))
            .ok()
            .filter(|&s| s > 0)
            .ok_or_else(|| cx.invalid(format!("custom options: TfLiteTransposeConvParams.{name} = {} (must be at least 1)", opts.int(i))))
    };
    let stride = [stride(2, "stride_height")?, stride(1, "stride_width")?];
    let same = opts.int(0) == PADDING_SAME;
    let mut out_hw = [0; 2];
    let mut padding = [0; 2];
    for d in 0..2 {
        let (in_size, f) = (input_shape[1 + d], filter_shape[1 + d]);
        if in_size == 0 || f == 0 {
            return Err(cx.invalid_tensor(input, format!("input {input_shape:?} and filter {filter_shape:?}: a zero spatial size")));
        }
        let total = if same { (f as i64 - ((in_size - 1) % stride[d]) as i64 - 1).max(0) as usize } else { 0 };
        out_hw[d] = (in_size - 1)
            .checked_mul(stride[d])
            .and_then(|x| x.checked_add(f))
            .map(|x| x - total)
            .ok_or_else(|| cx.invalid_tensor(input, "the output size overflows"))?;
        padding[d] = total / 2;
    }
    let output_shape = [input_shape[0], out_hw[0], out_hw[1], filter_shape[0]];
    expect_shape(cx, output, &output_shape)?;
    cx.expect_activation(output)?;
    let params = Convolution2dTransposeBiasParams { input_shape, filter_shape, output_shape, stride, padding };
    Ok(Convolution2dTransposeBias { params, inputs: [input.id, filter.id, bias.id], output: output.id })
}

impl Kernel for Convolution2dTransposeBias {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let [x, w, b] = self.inputs.map(|t| s.f32(t).map(<[f32]>::to_vec));
        let (x, w, b) = (x?, w?, b?);
        let p = &self.params;
        if x.len() != p.input_shape.iter().product::<usize>() || w.len() != p.filter_shape.iter().product::<usize>() || b.len() != p.filter_shape[0] {
            return Err(ExecError(format!("{NAME}: an input's data does not match its shape")));
        }
        let mut y = s.take_f32(self.output, p.output_shape.iter().product());
        convolution_2d_transpose_bias_f32(p, &x, &w, &b, &mut y);
        s.insert(self.output, TensorData::F32(y));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::convolution_2d_transpose_bias::Convolution2dTransposeBiasParams }, &self.params);
        let [x, w, b] = self.inputs.map(|t| cx.input(t));
        let y = cx.output(self.output);
        quote! { #rt::kernels::convolution_2d_transpose_bias::convolution_2d_transpose_bias_f32(&#p, #x, #w, #b, #y); }
    }
}
