//! DEPTHWISE_CONV_2D, int8 activations, int8 weights (per-channel or per-tensor), int32
//! bias, with depth multiplier.
//!
//! Mirrors TFLite Micro `depthwise_conv_common.cc` (`DepthwiseConvPrepare`,
//! `CalculateOpDataDepthwiseConv`): padding from `ComputePaddingHeightWidth`, one multiplier
//! per output channel from `PopulateConvolutionQuantizationParams` (a single weights scale is
//! broadcast to every channel), the fused activation as a clamp. The kernel is
//! `DepthwiseConvPerChannel`, which ignores the weights' zero point (so do we).

use super::conv_2d::{positive, rt_padding};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::codegen::emit::{array, int, EmitCx};
use crate::error::LowerError;
use crate::ir::{DType, OpKind, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::depthwise_conv_2d::{depthwise_conv_2d_s8, DepthwiseConv2dParams};
use tflc_runtime::prepare::{compute_padding, conv_channel_multiplier};

#[derive(Debug, Clone, PartialEq)]
pub struct DepthwiseConv2d {
    pub input: TensorId,
    pub filter: TensorId,
    pub bias: Option<TensorId>,
    pub output: TensorId,
    pub input_shape: [usize; 4],
    pub filter_shape: [usize; 4],
    pub output_shape: [usize; 4],
    pub depth_multiplier: usize,
    pub stride: [usize; 2],
    pub dilation: [usize; 2],
    /// Top and left padding.
    pub pad: [usize; 2],
    pub input_offset: i32,
    pub output_offset: i32,
    pub output_multiplier: Vec<i32>,
    pub output_shift: Vec<i32>,
    pub activation_min: i32,
    pub activation_max: i32,
    /// The bias, decoded (empty when there is none).
    pub bias_data: Vec<i32>,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<DepthwiseConv2d, LowerError> {
    let OpKind::DepthwiseConv2d(o) = &cx.op.kind else { return Err(cx.invalid("not a DEPTHWISE_CONV_2D")) };
    cx.expect_arity(2..=3, 1)?;
    let input = cx.input(0)?;
    let filter = cx.input(1)?;
    let bias = cx.optional_input(2);
    let output = cx.output(0)?;
    cx.expect_activation(input)?;
    let in_q = cx.q_s8(input)?;
    let out_q = cx.q_s8(output)?;
    cx.expect_dtype(filter, DType::I8)?;
    cx.expect_constant(filter)?;

    let input_shape = cx.shape4(input)?;
    let filter_shape = cx.shape4(filter)?;
    let output_shape = cx.shape4(output)?;
    let [batches, in_h, in_w, in_d] = input_shape;
    let [f_one, f_h, f_w, out_d] = filter_shape;
    if f_one != 1 {
        return Err(cx.invalid_tensor(filter, format!("weights of shape {filter_shape:?} (expected [1, h, w, channels])")));
    }
    if in_d == 0 || out_d % in_d != 0 {
        return Err(cx.invalid_tensor(
            filter,
            format!("{out_d} output channels are not a multiple of the {in_d} input channels"),
        ));
    }
    let depth_multiplier = out_d / in_d;
    // TFLite Micro's kernel loops over the option's multiplier; it must agree with the shapes.
    if usize::try_from(o.depth_multiplier).ok() != Some(depth_multiplier) {
        return Err(cx.invalid(format!(
            "depth_multiplier option is {}, but the shapes give {depth_multiplier}",
            o.depth_multiplier
        )));
    }
    let stride = [positive(cx, "stride_h", o.stride_h)?, positive(cx, "stride_w", o.stride_w)?];
    let dilation = [positive(cx, "dilation_h", o.dilation_h)?, positive(cx, "dilation_w", o.dilation_w)?];
    let padding = rt_padding(cx, o.padding)?;
    let (oh, pad_top) = compute_padding(padding, in_h, f_h, stride[0], dilation[0])
        .ok_or_else(|| cx.invalid("the filter does not fit the input height"))?;
    let (ow, pad_left) = compute_padding(padding, in_w, f_w, stride[1], dilation[1])
        .ok_or_else(|| cx.invalid("the filter does not fit the input width"))?;
    if output_shape != [batches, oh, ow, out_d] {
        return Err(cx.invalid_tensor(
            output,
            format!("output shape {output_shape:?}, but the options give {:?}", [batches, oh, ow, out_d]),
        ));
    }

    // Per-channel scales along the channel dimension (3), or one broadcast scale.
    let fq = filter.quant.as_ref().ok_or_else(|| cx.unsupported_tensor(filter, "weights are not quantized"))?;
    if fq.scale.len() != 1 && (fq.scale.len() != out_d || fq.axis.and_then(|a| filter_shape.get(a)) != Some(&out_d)) {
        return Err(cx.unsupported_tensor(filter, "weights quantization is neither per-tensor nor per output channel"));
    }
    // `DepthwiseConvPerChannel` ignores the weights' zero points (symmetric by the int8
    // quantization spec); so do we, to stay bit-exact with TFLite Micro.
    let mut output_multiplier = Vec::with_capacity(out_d);
    let mut output_shift = Vec::with_capacity(out_d);
    for c in 0..out_d {
        let fs = fq.scale.get(c).or(fq.scale.first()).copied().unwrap_or(0.0);
        if !(fs.is_finite() && fs > 0.0) {
            return Err(cx.invalid_tensor(filter, format!("channel {c}: weights scale {fs} is not positive")));
        }
        let (m, s) = conv_channel_multiplier(in_q.scale, fs, out_q.scale)
            .ok_or_else(|| cx.invalid_tensor(filter, format!("channel {c}: the effective scale cannot be quantized")))?;
        output_multiplier.push(m);
        output_shift.push(s);
    }

    let bias_data = match bias {
        Some(b) => {
            let v = cx.const_i32(b)?;
            if v.len() != out_d {
                return Err(cx.invalid_tensor(b, format!("bias has {} entries for {out_d} output channels", v.len())));
            }
            v
        }
        None => Vec::new(),
    };
    let (activation_min, activation_max) = cx.activation_range_s8(o.activation, out_q)?;
    Ok(DepthwiseConv2d {
        input: input.id,
        filter: filter.id,
        bias: bias.map(|b| b.id),
        output: output.id,
        input_shape,
        filter_shape,
        output_shape,
        depth_multiplier,
        stride,
        dilation,
        pad: [pad_top, pad_left],
        input_offset: -in_q.zero_point,
        output_offset: out_q.zero_point,
        output_multiplier,
        output_shift,
        activation_min,
        activation_max,
        bias_data,
    })
}

impl DepthwiseConv2d {
    /// The runtime's parameter struct, borrowing this op's tables.
    pub fn params(&self) -> DepthwiseConv2dParams<'_> {
        DepthwiseConv2dParams {
            input_shape: self.input_shape,
            filter_shape: self.filter_shape,
            output_shape: self.output_shape,
            depth_multiplier: self.depth_multiplier,
            stride_height: self.stride[0],
            stride_width: self.stride[1],
            dilation_height: self.dilation[0],
            dilation_width: self.dilation[1],
            pad_top: self.pad[0],
            pad_left: self.pad[1],
            input_offset: self.input_offset,
            output_offset: self.output_offset,
            output_multiplier: &self.output_multiplier,
            output_shift: &self.output_shift,
            output_activation_min: self.activation_min,
            output_activation_max: self.activation_max,
        }
    }
}

impl Kernel for DepthwiseConv2d {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let mut out = s.take_i8(self.output, self.output_shape.iter().product());
        let bias = self.bias.map(|_| self.bias_data.as_slice());
        let input = s.i8(self.input)?;
        let filter = s.i8(self.filter)?;
        let (ni, nf) = (self.input_shape.iter().product::<usize>(), self.filter_shape.iter().product::<usize>());
        if input.len() != ni || filter.len() != nf {
            return Err(ExecError(format!(
                "DEPTHWISE_CONV_2D: input has {} and weights {} elements, expected {ni} and {nf}",
                input.len(),
                filter.len()
            )));
        }
        depthwise_conv_2d_s8(&self.params(), input, filter, bias, &mut out);
        s.insert(self.output, TensorData::I8(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let (is, fs, os) = (array(&self.input_shape), array(&self.filter_shape), array(&self.output_shape));
        let dm = int(self.depth_multiplier as i64);
        let [sh, sw] = self.stride.map(|v| int(v as i64));
        let [dh, dw] = self.dilation.map(|v| int(v as i64));
        let [pt, pl] = self.pad.map(|v| int(v as i64));
        let (io, oo) = (int(self.input_offset as i64), int(self.output_offset as i64));
        let (mult, shift) = (array(&self.output_multiplier), array(&self.output_shift));
        let (amin, amax) = (int(self.activation_min as i64), int(self.activation_max as i64));
        let p = cx.params(
            quote! { #rt::kernels::depthwise_conv_2d::DepthwiseConv2dParams<'static> },
            quote! {
                #rt::kernels::depthwise_conv_2d::DepthwiseConv2dParams {
                    input_shape: #is,
                    filter_shape: #fs,
                    output_shape: #os,
                    depth_multiplier: #dm,
                    stride_height: #sh,
                    stride_width: #sw,
                    dilation_height: #dh,
                    dilation_width: #dw,
                    pad_top: #pt,
                    pad_left: #pl,
                    input_offset: #io,
                    output_offset: #oo,
                    output_multiplier: &#mult,
                    output_shift: &#shift,
                    output_activation_min: #amin,
                    output_activation_max: #amax,
                }
            },
        );
        let input = cx.input(self.input);
        let filter = cx.input(self.filter);
        let bias = match self.bias {
            Some(b) => {
                let b = cx.input(b);
                quote! { Some(#b) }
            }
            None => quote! { None },
        };
        let output = cx.output(self.output);
        quote! { #rt::kernels::depthwise_conv_2d::depthwise_conv_2d_s8(&#p, #input, #filter, #bias, #output); }
    }
}
