//! FULLY_CONNECTED, int8 activations, int8 weights (per-tensor or per-channel), optional
//! int32 bias.
//!
//! Mirrors TFLite Micro `fully_connected.cc` / `fully_connected_common.cc`
//! (`CalculateOpDataFullyConnected`): weights with more than one scale take the per-channel
//! path (`FullyConnectedPerChannel`: one multiplier per unit from
//! `double(input_scale) * double(filter_scale[c]) / double(output_scale)`, filter zero point
//! ignored); a single scale takes the per-tensor path (`GetQuantizedConvolutionMultipler`,
//! whose input*filter product is a `float`, with the bias-scale sanity check, and
//! `weights_offset = -filter_zero_point`). The kernel takes its batch count from the
//! output's leading dimensions; the output shape must be the one TFLite's Prepare gives:
//! the input's shape with the last dimension replaced by the units (`keep_num_dims`), or
//! `[input_size / input_depth, units]`.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::codegen::emit::{array, int, EmitCx};
use crate::error::LowerError;
use crate::ir::{DType, OpKind, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::fully_connected::{fully_connected_s8, FullyConnectedParams};
use tflc_runtime::prepare::{conv_channel_multiplier, fully_connected_tensor_multiplier};

#[derive(Debug, Clone, PartialEq)]
pub struct FullyConnected {
    pub input: TensorId,
    pub filter: TensorId,
    pub bias: Option<TensorId>,
    pub output: TensorId,
    pub batches: usize,
    pub input_depth: usize,
    pub output_depth: usize,
    pub input_offset: i32,
    pub filter_offset: i32,
    pub output_offset: i32,
    /// One entry (per-tensor weights) or one per unit (per-channel weights).
    pub output_multiplier: Vec<i32>,
    pub output_shift: Vec<i32>,
    pub activation_min: i32,
    pub activation_max: i32,
    /// The bias, decoded (empty when there is none).
    pub bias_data: Vec<i32>,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<FullyConnected, LowerError> {
    let OpKind::FullyConnected(o) = &cx.op.kind else { return Err(cx.invalid("not a FULLY_CONNECTED")) };
    cx.expect_arity(2..=3, 1)?;
    let input = cx.input(0)?;
    let filter = cx.input(1)?;
    let bias = cx.optional_input(2);
    let output = cx.output(0)?;
    if o.shuffled_weights {
        return Err(cx.unsupported("shuffled weights format"));
    }
    cx.expect_activation(input)?;
    let in_q = cx.q_s8(input)?;
    let out_q = cx.q_s8(output)?;
    cx.expect_dtype(filter, DType::I8)?;
    cx.expect_constant(filter)?;

    // Weights are [units, input_depth].
    let (output_depth, input_depth) = match filter.shape.as_slice() {
        &[u, d] => (u, d),
        s => return Err(cx.unsupported_tensor(filter, format!("weights of shape {s:?} (expected rank 2)"))),
    };
    if input_depth == 0 || output_depth == 0 {
        return Err(cx.invalid_tensor(filter, format!("weights of shape {:?} are empty", filter.shape)));
    }
    let input_size = input.num_elements();
    if input.shape.is_empty() || input_size % input_depth != 0 {
        return Err(cx.invalid_tensor(
            input,
            format!("input of shape {:?} is not a whole number of rows of depth {input_depth}", input.shape),
        ));
    }
    let batches = input_size / input_depth;
    let expected_out: Vec<usize> = if o.keep_num_dims {
        if input.shape.last() != Some(&input_depth) {
            return Err(cx.invalid_tensor(
                input,
                format!("keep_num_dims needs the input's last dimension to be the weights' depth {input_depth}"),
            ));
        }
        let mut s = input.shape.clone();
        if let Some(last) = s.last_mut() {
            *last = output_depth;
        }
        s
    } else {
        vec![batches, output_depth]
    };
    if output.shape != expected_out {
        return Err(cx.invalid_tensor(
            output,
            format!("output shape {:?}, but the input and weights give {expected_out:?}", output.shape),
        ));
    }

    let fq = filter.quant.as_ref().ok_or_else(|| cx.unsupported_tensor(filter, "weights are not quantized"))?;
    let per_channel = fq.scale.len() > 1;
    let (output_multiplier, output_shift, filter_offset) = if per_channel {
        // TFLite Micro: the scale count must equal the quantized dimension's size; the
        // kernel indexes the multipliers by unit, so that dimension is the units (axis 0).
        if fq.scale.len() != output_depth || fq.axis.unwrap_or(0) != 0 {
            return Err(cx.unsupported_tensor(filter, "weights quantization is neither per-tensor nor per unit (axis 0)"));
        }
        let mut mult = Vec::with_capacity(output_depth);
        let mut shift = Vec::with_capacity(output_depth);
        for (c, &fs) in fq.scale.iter().enumerate() {
            if !(fs.is_finite() && fs > 0.0) {
                return Err(cx.invalid_tensor(filter, format!("unit {c}: weights scale {fs} is not positive")));
            }
            let (m, s) = conv_channel_multiplier(in_q.scale, fs, out_q.scale)
                .ok_or_else(|| cx.invalid_tensor(filter, format!("unit {c}: the effective scale cannot be quantized")))?;
            mult.push(m);
            shift.push(s);
        }
        // FullyConnectedPerChannel ignores the weights' zero point.
        (mult, shift, 0)
    } else {
        let fq1 = cx.per_tensor_q(filter)?;
        if !(-128..=127).contains(&fq1.zero_point) {
            return Err(cx.invalid_tensor(filter, format!("int8 zero point {} is out of range", fq1.zero_point)));
        }
        if let Some(b) = bias {
            // TFLite `GetQuantizedConvolutionMultipler`: the bias scale must be close to
            // input_scale * filter_scale (an unquantized bias counts as scale 0).
            let product = in_q.scale as f64 * fq1.scale as f64;
            let bias_scale = b.quant.as_ref().and_then(|q| q.scale.first().copied()).unwrap_or(0.0) as f64;
            if (product - bias_scale).abs() / out_q.scale as f64 > 0.02 {
                return Err(cx.invalid_tensor(b, format!("bias scale {bias_scale} does not match input*weights scale {product}")));
            }
        }
        let (m, s) = fully_connected_tensor_multiplier(in_q.scale, fq1.scale, out_q.scale)
            .ok_or_else(|| cx.invalid_tensor(filter, "the effective scale cannot be quantized"))?;
        (vec![m], vec![s], -fq1.zero_point)
    };

    let bias_data = match bias {
        Some(b) => {
            let v = cx.const_i32(b)?;
            if v.len() != output_depth {
                return Err(cx.invalid_tensor(b, format!("bias has {} entries for {output_depth} units", v.len())));
            }
            v
        }
        None => Vec::new(),
    };
    let (activation_min, activation_max) = cx.activation_range_s8(o.activation, out_q)?;
    Ok(FullyConnected {
        input: input.id,
        filter: filter.id,
        bias: bias.map(|b| b.id),
        output: output.id,
        batches,
        input_depth,
        output_depth,
        input_offset: -in_q.zero_point,
        filter_offset,
        output_offset: out_q.zero_point,
        output_multiplier,
        output_shift,
        activation_min,
        activation_max,
        bias_data,
    })
}

impl FullyConnected {
    /// The runtime's parameter struct, borrowing this op's tables.
    pub fn params(&self) -> FullyConnectedParams<'_> {
        FullyConnectedParams {
            batches: self.batches,
            input_depth: self.input_depth,
            output_depth: self.output_depth,
            input_offset: self.input_offset,
            filter_offset: self.filter_offset,
            output_offset: self.output_offset,
            output_multiplier: &self.output_multiplier,
            output_shift: &self.output_shift,
            output_activation_min: self.activation_min,
            output_activation_max: self.activation_max,
        }
    }
}

impl Kernel for FullyConnected {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let mut out = s.take_i8(self.output, self.batches * self.output_depth);
        let bias = self.bias.map(|_| self.bias_data.as_slice());
        let input = s.i8(self.input)?;
        let filter = s.i8(self.filter)?;
        if input.len() != self.batches * self.input_depth || filter.len() != self.output_depth * self.input_depth {
            return Err(ExecError(format!(
                "FULLY_CONNECTED: input has {} and weights {} elements, expected {} and {}",
                input.len(),
                filter.len(),
                self.batches * self.input_depth,
                self.output_depth * self.input_depth
            )));
        }
        fully_connected_s8(&self.params(), input, filter, bias, &mut out);
        s.insert(self.output, TensorData::I8(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let (b, id, od) = (int(self.batches as i64), int(self.input_depth as i64), int(self.output_depth as i64));
        let (io, fo, oo) = (int(self.input_offset as i64), int(self.filter_offset as i64), int(self.output_offset as i64));
        let (mult, shift) = (array(&self.output_multiplier), array(&self.output_shift));
        let (amin, amax) = (int(self.activation_min as i64), int(self.activation_max as i64));
        let p = cx.params(
            quote! { #rt::kernels::fully_connected::FullyConnectedParams<'static> },
            quote! {
                #rt::kernels::fully_connected::FullyConnectedParams {
                    batches: #b,
                    input_depth: #id,
                    output_depth: #od,
                    input_offset: #io,
                    filter_offset: #fo,
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
        quote! { #rt::kernels::fully_connected::fully_connected_s8(&#p, #input, #filter, #bias, #output); }
    }
}
