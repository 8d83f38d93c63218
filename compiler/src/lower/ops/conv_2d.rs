//! CONV_2D, int8 activations, int8 weights (per-channel or per-tensor), int32 bias; and
//! 16x8: int16 activations (zero point 0), int8 weights, int64 bias (TFLite Micro's
//! 64-bit-accumulator path; an int32 bias on int16 activations is refused).
//!
//! Mirrors TFLite Micro `conv.cc` / `conv_common.cc` prepare: padding from
//! `ComputePaddingHeightWidth`, one multiplier per output channel from
//! `input_scale * filter_scale[c] / output_scale` in double, the fused activation as a clamp.

use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::{array, int, EmitCx};
use proc_macro2::TokenStream;
use quote::quote;
use crate::error::LowerError;
use crate::ir::{DType, Padding, TensorId};
use tflc_runtime::kernels::conv_2d::{conv_2d_s16, conv_2d_s8, Conv2dParams};
use tflc_runtime::prepare::{compute_padding, conv_channel_multiplier, fold_input_offset, Padding as RtPadding};

#[derive(Debug, Clone, PartialEq)]
pub struct Conv2d {
    pub input: TensorId,
    pub filter: TensorId,
    pub bias: Option<TensorId>,
    pub output: TensorId,
    pub input_shape: [usize; 4],
    pub filter_shape: [usize; 4],
    pub output_shape: [usize; 4],
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
    /// The fast path's folded bias (`bias + input_offset * sum(filter)` per output channel,
    /// [`tflc_runtime::prepare::fold_input_offset`]), empty where the kernel has no fast path.
    pub folded_bias: Vec<i32>,
    /// 16x8: int16 activations and the int64 bias in `bias_i64`.
    pub int16: bool,
    pub bias_i64: Vec<i64>,
}

/// The bias of a 16x8 kernel: int64 with `n` entries (`None` when absent). TFLite Micro
/// also runs an int32 bias with a 32-bit accumulator; tflc does not implement that path.
pub(crate) fn bias_i64(cx: &OpCx<'_, '_>, bias: Option<&crate::ir::Tensor<'_>>, n: usize) -> Result<Vec<i64>, LowerError> {
    let Some(b) = bias else { return Ok(Vec::new()) };
    if b.dtype != DType::I64 {
        return Err(cx.unsupported_tensor(b, format!("{} bias on int16 activations (tflc implements the int64 bias)", b.dtype)));
    }
    let v = cx.const_i64(b)?;
    if v.len() != n {
        return Err(cx.invalid_tensor(b, format!("bias has {} entries for {n} output channels", v.len())));
    }
    Ok(v)
}

/// The 64-bit `MultiplyByQuantizedMultiplier` of the 16x8 kernels requires shifts below 8
/// (an effective scale under 128); TFLite asserts it, tflc refuses the model.
pub(crate) fn check_shifts_16x8(cx: &OpCx<'_, '_>, t: &crate::ir::Tensor<'_>, shifts: &[i32]) -> Result<(), LowerError> {
    match shifts.iter().find(|&&s| s >= 8) {
        Some(s) => Err(cx.unsupported_tensor(t, format!("effective scale of 2^{} or more (16x8 requantization needs less than 128)", s - 1))),
        None => Ok(()),
    }
}

pub(crate) fn rt_padding(cx: &OpCx<'_, '_>, p: Padding) -> Result<RtPadding, LowerError> {
    match p {
        Padding::Same => Ok(RtPadding::Same),
        Padding::Valid => Ok(RtPadding::Valid),
        Padding::Unknown(c) => Err(cx.invalid(format!("unknown padding code {c}"))),
    }
}

/// A positive stride or dilation from the options.
pub(crate) fn positive(cx: &OpCx<'_, '_>, what: &str, v: i32) -> Result<usize, LowerError> {
    if v <= 0 {
        return Err(cx.invalid(format!("{what} is {v}; it must be positive")));
    }
    Ok(v as usize)
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &crate::ir::Conv2dOptions) -> Result<Conv2d, LowerError> {
    cx.expect_arity(2..=3, 1)?;
    let input = cx.input(0)?;
    let filter = cx.input(1)?;
    let bias = cx.optional_input(2);
    let output = cx.output(0)?;
    cx.expect_activation(input)?;
    let int16 = input.dtype == DType::I16;
    let (in_q, out_q) = if int16 { (cx.q_s16(input)?, cx.q_s16(output)?) } else { (cx.q_s8(input)?, cx.q_s8(output)?) };
    cx.expect_dtype(filter, DType::I8)?;
    let filter_bytes = cx.expect_constant(filter)?;

    let input_shape = cx.shape4(input)?;
    let filter_shape = cx.shape4(filter)?;
    let output_shape = cx.shape4(output)?;
    let [batches, in_h, in_w, in_d] = input_shape;
    let [out_d, f_h, f_w, f_d] = filter_shape;
    let groups = in_d.checked_div(f_d).unwrap_or(0);
    if groups == 0 || in_d % f_d != 0 || !out_d.is_multiple_of(groups) {
        return Err(cx.invalid_tensor(filter, format!("filter depth {f_d} does not divide input depth {in_d} into groups")));
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

    // Per-channel (or one broadcast) filter scales.
    let fq = filter.quant.as_ref().ok_or_else(|| cx.unsupported_tensor(filter, "filter is not quantized"))?;
    if fq.scale.len() != 1 && (fq.scale.len() != out_d || fq.axis != Some(0)) {
        return Err(cx.unsupported_tensor(filter, "filter quantization is neither per-tensor nor per output channel"));
    }
    if fq.zero_point.iter().any(|&z| z != 0) {
        return Err(cx.unsupported_tensor(filter, "filter zero points must be 0"));
    }
    let mut output_multiplier = Vec::with_capacity(out_d);
    let mut output_shift = Vec::with_capacity(out_d);
    for c in 0..out_d {
        let fs = if fq.scale.len() == 1 { fq.scale[0] } else { fq.scale[c] };
        let (m, s) = conv_channel_multiplier(in_q.scale, fs, out_q.scale)
            .ok_or_else(|| cx.invalid_tensor(filter, format!("channel {c}: the effective scale cannot be quantized")))?;
        output_multiplier.push(m);
        output_shift.push(s);
    }

    let bias_i64 = if int16 {
        check_shifts_16x8(cx, output, &output_shift)?;
        bias_i64(cx, bias, out_d)?
    } else {
        Vec::new()
    };
    let bias_data = if int16 { Vec::new() } else { cx.bias_i32(bias, out_d, "output channels")? };
    let (activation_min, activation_max) = cx.activation_range(o.activation, out_q, int16)?;
    // The runtime's fast path covers ungrouped int8 convolutions.
    let row = f_h * f_w * f_d;
    let folded_bias = if !int16 && groups == 1 && filter_bytes.len() == out_d * row {
        (0..out_d)
            .map(|c| {
                let taps = filter_bytes[c * row..][..row].iter().map(|&b| b as i8);
                fold_input_offset(taps, bias_data.get(c).copied().unwrap_or(0), -in_q.zero_point)
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Conv2d {
        input: input.id,
        filter: filter.id,
        bias: bias.map(|b| b.id),
        output: output.id,
        input_shape,
        filter_shape,
        output_shape,
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
        int16,
        bias_i64,
        folded_bias,
    })
}

impl Conv2d {
    /// The runtime's parameter struct, borrowing this op's tables.
    pub fn params(&self) -> Conv2dParams<'_> {
        Conv2dParams {
            input_shape: self.input_shape,
            filter_shape: self.filter_shape,
            output_shape: self.output_shape,
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
            folded_bias: &self.folded_bias,
        }
    }
}

impl Kernel for Conv2d {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        if self.int16 {
            let mut out = s.take_i16(self.output, self.output_shape.iter().product());
            let bias = self.bias.map(|_| self.bias_i64.as_slice());
            conv_2d_s16(&self.params(), s.i16(self.input)?, s.i8(self.filter)?, bias, &mut out);
            s.insert(self.output, super::TensorData::I16(out));
            return Ok(());
        }
        let mut out = s.take_i8(self.output, self.output_shape.iter().product());
        let bias = self.bias.map(|_| self.bias_data.as_slice());
        conv_2d_s8(&self.params(), s.i8(self.input)?, s.i8(self.filter)?, bias, &mut out);
        s.insert(self.output, super::TensorData::I8(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let (is, fs, os) = (array(&self.input_shape), array(&self.filter_shape), array(&self.output_shape));
        let [sh, sw] = self.stride.map(|v| int(v as i64));
        let [dh, dw] = self.dilation.map(|v| int(v as i64));
        let [pt, pl] = self.pad.map(|v| int(v as i64));
        let (io, oo) = (int(self.input_offset as i64), int(self.output_offset as i64));
        let (mult, shift) = (array(&self.output_multiplier), array(&self.output_shift));
        let (amin, amax) = (int(self.activation_min as i64), int(self.activation_max as i64));
        let folded = array(&self.folded_bias);
        let p = cx.params(
            quote! { #rt::kernels::conv_2d::Conv2dParams<'static> },
            quote! {
                #rt::kernels::conv_2d::Conv2dParams {
                    input_shape: #is,
                    filter_shape: #fs,
                    output_shape: #os,
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
                    folded_bias: &#folded,
                }
            },
        );
        let input = cx.input(self.input);
        let filter = cx.input(self.filter);
        let bias = cx.optional_input(self.bias);
        let output = cx.output(self.output);
        let f = if self.int16 { quote! { conv_2d_s16 } } else { quote! { conv_2d_s8 } };
        quote! { #rt::kernels::conv_2d::#f(&#p, #input, #filter, #bias, #output); }
    }
}
