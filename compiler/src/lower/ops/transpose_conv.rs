//! TRANSPOSE_CONV(output_shape, filter, input, bias?): TFLite Micro `transpose_conv.cc`.
//!
//! - int8: int8 activations, int8 weights per-tensor or per output channel (quantized
//!   dimension 0), int32 bias; `reference_integer_ops::TransposeConv`.
//! - 16x8: int16 activations (zero point 0), int8 weights, int64 bias, or an int16 bias,
//!   which TFLite Micro widens to int64 on every call and tflc widens once at compile time.
//! - float32: float32 weights and bias; `reference_ops::TransposeConv`.
//!
//! Prepare as TFLite Micro's: padding from `ComputePaddingHeightWidth` with the *output's*
//! height and width as the size (dilation 1), per-channel multipliers from
//! `PopulateConvolutionQuantizationParams` (the same as CONV_2D's), the fused activation as
//! a clamp. The `output_shape` operand is not read, as TFLite Micro does not read it (its
//! tensors are static): the output tensor's shape is the output. uint8 and hybrid (int8
//! weights on float activations) are refused, as TFLite Micro refuses them.
//!
//! The kernel is `tflc_runtime::kernels::transpose_conv` (one loop nest for the three
//! numerics; see its module doc for why gathering gives the scatter's bits).

use super::conv_common::{bias_f32, clamp_f32, clamp_s16, clamp_s8, params_type, positive, quant_s16, quant_s8, rt_padding, weights_f32, EmittedNumerics, HeldNumerics, SchemeKind};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::{EmitCx, Lit};
use crate::error::LowerError;
use crate::ir::{DType, Tensor, TensorId, TransposeConvOptions};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::numerics::{Clamp, F32, S16, S8};
use tflc_runtime::kernels::transpose_conv::{transpose_conv_f32, transpose_conv_s16, transpose_conv_s8, TransposeConvParams};
use tflc_runtime::kernels::window::ConvGeometry;
use tflc_runtime::prepare::{compute_padding, conv_channel_multiplier};

/// The lowered op's parameters, owned (the runtime struct borrows the per-channel tables).
#[derive(Debug, Clone, PartialEq)]
pub struct TransposeConvHeld<N: HeldNumerics> {
    pub geometry: ConvGeometry,
    pub quant: N::HeldQuant,
    pub clamp: Clamp<N::Act>,
}

impl<N: HeldNumerics> TransposeConvHeld<N> {
    pub fn params(&self) -> TransposeConvParams<'_, N> {
        let TransposeConvHeld { geometry, quant, clamp } = self;
        TransposeConvParams { geometry: *geometry, quant: N::quant(quant), clamp: *clamp }
    }
}

impl<'a, N: EmittedNumerics> Lit for TransposeConvParams<'a, N>
where
    N::Quant<'a>: Lit,
    Clamp<N::Act>: Lit,
{
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let TransposeConvParams { geometry, quant, clamp } = self;
        let (geometry, quant, clamp) = (geometry.lit(rt), quant.lit(rt), clamp.lit(rt));
        quote! { #rt::kernels::transpose_conv::TransposeConvParams { geometry: #geometry, quant: #quant, clamp: #clamp } }
    }
}

/// The runtime parameters per quantization scheme.
#[derive(Debug, Clone, PartialEq)]
pub enum TransposeConvScheme {
    S8(TransposeConvHeld<S8>),
    /// 16x8, with the bias widened to int64 when the model's is int16 (`None`: the model's
    /// int64 bias, or none, is passed as it is).
    S16(TransposeConvHeld<S16>, Option<Vec<i64>>),
    F32(TransposeConvHeld<F32>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct TransposeConv {
    pub input: TensorId,
    pub filter: TensorId,
    pub bias: Option<TensorId>,
    pub output: TensorId,
    pub scheme: TransposeConvScheme,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &TransposeConvOptions) -> Result<TransposeConv, LowerError> {
    cx.expect_arity(3..=4, 1)?;
    let filter = cx.input(1)?;
    let input = cx.input(2)?;
    let bias = cx.optional_input(3);
    let output = cx.output(0)?;
    cx.expect_activation(input)?;
    if !matches!(input.dtype, DType::I8 | DType::I16 | DType::F32) {
        return Err(cx.unsupported_tensor(input, format!("{} input (TFLite Micro's TRANSPOSE_CONV runs float32, int8 and int16)", input.dtype)));
    }
    if input.dtype != output.dtype {
        return Err(cx.invalid_tensor(output, format!("{} output for a {} input", output.dtype, input.dtype)));
    }
    let (kind, in_q, out_q) = SchemeKind::of(cx, input, output)?;

    let input_shape = cx.shape4(input)?;
    let filter_shape = cx.shape4(filter)?;
    let output_shape = cx.shape4(output)?;
    let [batches, _, _, in_d] = input_shape;
    let [out_d, f_h, f_w, f_d] = filter_shape;
    let [out_b, out_h, out_w, out_c] = output_shape;
    if f_d != in_d {
        return Err(cx.invalid_tensor(filter, format!("filter depth {f_d}, input depth {in_d}")));
    }
    if out_c != out_d || out_b != batches {
        return Err(cx.invalid_tensor(output, format!("output shape {output_shape:?} for {batches} batches and {out_d} filters")));
    }
    let stride = [positive(cx, "stride_h", o.stride_h)?, positive(cx, "stride_w", o.stride_w)?];
    let padding = rt_padding(cx, o.padding)?;
    // TFLite Micro: ComputePaddingHeightWidth(stride, dilation 1, output height/width, filter).
    let (_, pad_top) = compute_padding(padding, out_h, f_h, stride[0], 1).ok_or_else(|| cx.invalid_tensor(filter, "the filter height does not fit the output"))?;
    let (_, pad_left) = compute_padding(padding, out_w, f_w, stride[1], 1).ok_or_else(|| cx.invalid_tensor(filter, "the filter width does not fit the output"))?;
    let geometry = ConvGeometry {
        input_shape,
        filter_shape,
        output_shape,
        stride_height: stride[0],
        stride_width: stride[1],
        dilation_height: 1,
        dilation_width: 1,
        pad_top,
        pad_left,
    };
    let n_weights: usize = filter_shape.iter().product();

    let scheme = match kind {
        SchemeKind::F32 => {
            weights_f32(cx, filter, n_weights)?;
            bias_f32(cx, bias, out_d)?;
            TransposeConvScheme::F32(TransposeConvHeld { geometry, quant: (), clamp: clamp_f32(cx, o.activation)? })
        }
        SchemeKind::S8 | SchemeKind::S16 => {
            let (output_multiplier, output_shift) = multipliers(cx, filter, n_weights, in_q.scale, out_q.scale, out_d)?;
            if kind == SchemeKind::S8 {
                if let Some(b) = bias {
                    cx.expect_dtype(b, DType::I32)?;
                }
                cx.bias_i32(bias, out_d, "output channels")?;
                let quant = quant_s8(in_q, out_q, output_multiplier, output_shift);
                TransposeConvScheme::S8(TransposeConvHeld { geometry, quant, clamp: clamp_s8(cx, o.activation, out_q)? })
            } else {
                let widened = bias_16x8(cx, bias, out_d)?;
                let quant = quant_s16(cx, output, output_multiplier, output_shift)?;
                TransposeConvScheme::S16(TransposeConvHeld { geometry, quant, clamp: clamp_s16(cx, o.activation, out_q)? }, widened)
            }
        }
        SchemeKind::U8 => unreachable!("uint8 refused above"),
    };
    Ok(TransposeConv { input: input.id, filter: filter.id, bias: bias.map(|b| b.id), output: output.id, scheme })
}

/// The int8 filter's per-channel multipliers (TFLite's `PopulateConvolutionQuantizationParams`,
/// as CONV_2D's): per-tensor or per output channel on dimension 0, zero points 0.
fn multipliers(cx: &OpCx<'_, '_>, filter: &Tensor<'_>, n: usize, in_scale: f32, out_scale: f32, out_d: usize) -> Result<(Vec<i32>, Vec<i32>), LowerError> {
    cx.expect_dtype(filter, DType::I8)?;
    let data = cx.expect_constant(filter)?;
    if data.len() != n {
        return Err(cx.invalid_tensor(filter, format!("weights hold {} bytes for {n} int8 values", data.len())));
    }
    let fq = filter.quant.as_ref().ok_or_else(|| cx.unsupported_tensor(filter, "filter is not quantized"))?;
    if fq.scale.len() != 1 && (fq.scale.len() != out_d || fq.axis != Some(0)) {
        return Err(cx.unsupported_tensor(filter, "filter quantization is neither per-tensor nor per output channel (dimension 0)"));
    }
    if fq.zero_point.iter().any(|&z| z != 0) {
        return Err(cx.unsupported_tensor(filter, "filter zero points must be 0 (TFLite Micro's int8 kernel ignores them)"));
    }
    (0..out_d)
        .map(|c| {
            let fs = if fq.scale.len() == 1 { fq.scale[0] } else { fq.scale[c] };
            conv_channel_multiplier(in_scale, fs, out_scale).ok_or_else(|| cx.invalid_tensor(filter, format!("channel {c}: the effective scale cannot be quantized")))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|v| v.into_iter().unzip())
}

/// The 16x8 bias: int64 as it is (`None`), or int16 widened (`Some`), `n` constants.
fn bias_16x8(cx: &OpCx<'_, '_>, bias: Option<&Tensor<'_>>, n: usize) -> Result<Option<Vec<i64>>, LowerError> {
    let Some(b) = bias else { return Ok(None) };
    let v: Vec<i64> = match b.dtype {
        DType::I64 => cx.const_i64(b)?,
        DType::I16 => {
            let data = b.data.ok_or_else(|| cx.unsupported_tensor(b, "the bias is not a constant"))?;
            data.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]) as i64).collect()
        }
        t => return Err(cx.unsupported_tensor(b, format!("{t} bias on int16 activations (TFLite Micro's 16x8 TRANSPOSE_CONV takes int64 or int16)"))),
    };
    if v.len() != n {
        return Err(cx.invalid_tensor(b, format!("bias has {} entries for {n} output channels", v.len())));
    }
    Ok((b.dtype == DType::I16).then_some(v))
}

impl Kernel for TransposeConv {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let check = |g: &ConvGeometry, ni: usize, nf: usize| {
            let (wi, wf) = (g.input_shape.iter().product::<usize>(), g.filter_shape.iter().product::<usize>());
            if ni != wi || nf != wf {
                return Err(ExecError(format!("TRANSPOSE_CONV: input has {ni} and weights {nf} elements, expected {wi} and {wf}")));
            }
            Ok(g.output_shape.iter().product::<usize>())
        };
        match &self.scheme {
            TransposeConvScheme::S8(held) => {
                let p = held.params();
                let (input, filter) = (s.i8(self.input)?, s.i8(self.filter)?);
                let n = check(&p.geometry, input.len(), filter.len())?;
                let bias = self.bias.map(|b| s.i32(b)).transpose()?;
                let mut out = vec![0; n];
                transpose_conv_s8(&p, input, filter, bias, &mut out);
                s.insert(self.output, TensorData::I8(out));
            }
            TransposeConvScheme::S16(held, widened) => {
                let p = held.params();
                let (input, filter) = (s.i16(self.input)?, s.i8(self.filter)?);
                let n = check(&p.geometry, input.len(), filter.len())?;
                let bias = match widened {
                    Some(w) => Some(w.as_slice()),
                    None => self.bias.map(|b| s.i64(b)).transpose()?,
                };
                let mut out = vec![0; n];
                transpose_conv_s16(&p, input, filter, bias, &mut out);
                s.insert(self.output, TensorData::I16(out));
            }
            TransposeConvScheme::F32(held) => {
                let p = held.params();
                let (input, filter) = (s.f32(self.input)?, s.f32(self.filter)?);
                let n = check(&p.geometry, input.len(), filter.len())?;
                let bias = self.bias.map(|b| s.f32(b)).transpose()?;
                let mut out = vec![0.0; n];
                transpose_conv_f32(&p, input, filter, bias, &mut out);
                s.insert(self.output, TensorData::F32(out));
            }
        }
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let path = quote! { kernels::transpose_conv::TransposeConvParams };
        let (p, f, bias) = match &self.scheme {
            TransposeConvScheme::S8(held) => (cx.params_lit(params_type::<S8>(&rt, path, true), &held.params()), quote! { transpose_conv_s8 }, cx.optional_input(self.bias)),
            TransposeConvScheme::S16(held, widened) => {
                let p = cx.params_lit(params_type::<S16>(&rt, path, true), &held.params());
                let bias = match widened {
                    Some(w) => {
                        let t = cx.table_i64("bias", w);
                        quote! { Some(#t) }
                    }
                    None => cx.optional_input(self.bias),
                };
                (p, quote! { transpose_conv_s16 }, bias)
            }
            TransposeConvScheme::F32(held) => (cx.params_lit(params_type::<F32>(&rt, path, true), &held.params()), quote! { transpose_conv_f32 }, cx.optional_input(self.bias)),
        };
        let input = cx.input(self.input);
        let filter = cx.input(self.filter);
        let output = cx.output(self.output);
        quote! { #rt::kernels::transpose_conv::#f(&#p, #input, #filter, #bias, #output); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::{check_vector, emit_op0, expect_invalid, expect_unsupported, i8s, run_op0};
    use super::super::TensorData;
    use crate::ir::{Activation, DType, OpKind, Padding, Quantization, TensorId, TransposeConvOptions};
    use crate::tflite::builder::ModelBuilder;

    struct Spec {
        dtype: DType,
        input: [usize; 4],
        /// `[out_d, f_h, f_w]`.
        filter: [usize; 3],
        output: [usize; 4],
        stride: [i32; 2],
        padding: Padding,
        activation: Activation,
        /// The bias element type, or none.
        bias: Option<DType>,
    }

    /// A single TRANSPOSE_CONV: int8 (scales 0.05 / 0.1, zero points 3 / -7, per-channel
    /// weights), 16x8 (zero points 0), or float32; weights and bias from fixed seeds.
    fn model(s: &Spec) -> (Vec<u8>, TensorId, TensorId) {
        let [od, fh, fw] = s.filter;
        let n_w = od * fh * fw * s.input[3];
        let w = i8s(5, n_w);
        let mut b = ModelBuilder::new();
        let shape = b.constant_i32("output_shape", &[4], &s.output.map(|d| d as i32), None);
        let (x, filter, bias, y);
        match s.dtype {
            DType::F32 => {
                x = b.activation("x", DType::F32, &s.input, None);
                let wf: Vec<f32> = w.iter().map(|&v| v as f32 / 64.0).collect();
                filter = b.constant_f32("w", &[od, fh, fw, s.input[3]], &wf);
                bias = s.bias.map(|_| b.constant_f32("b", &[od], &(0..od).map(|c| c as f32 * 0.25 - 0.5).collect::<Vec<_>>()));
                y = b.activation("y", DType::F32, &s.output, None);
            }
            dtype => {
                let (qx, qy) = if dtype == DType::I8 { ((0.05, 3), (0.1, -7)) } else { ((0.0005, 0), (0.002, 0)) };
                x = b.activation("x", dtype, &s.input, Some(qx));
                let scales: Vec<f32> = (0..od).map(|c| 0.01 + 0.003 * c as f32).collect();
                filter = b.constant_i8_per_axis("w", &[od, fh, fw, s.input[3]], &w, &scales, 0);
                let bias_scales: Vec<f32> = scales.iter().map(|s| s * qx.0).collect();
                let q = Quantization { scale: bias_scales, zero_point: vec![0; od], axis: Some(0) };
                let vals: Vec<i64> = (0..od as i64).map(|c| (c - 1) * 3001).collect();
                bias = s.bias.map(|bt| match bt {
                    DType::I64 => b.constant("b", DType::I64, &[od], vals.iter().flat_map(|v| v.to_le_bytes()).collect(), Some(q.clone())),
                    DType::I16 => b.constant("b", DType::I16, &[od], vals.iter().flat_map(|&v| (v as i16).to_le_bytes()).collect(), Some(q.clone())),
                    _ => b.constant("b", bt, &[od], vals.iter().flat_map(|&v| (v as i32).to_le_bytes()).collect(), Some(q.clone())),
                });
                y = b.activation("y", dtype, &s.output, Some(qy));
            }
        }
        let o = TransposeConvOptions { padding: s.padding, stride_w: s.stride[1], stride_h: s.stride[0], activation: s.activation };
        let mut inputs = vec![Some(shape), Some(filter), Some(x)];
        if let Some(bias) = bias {
            inputs.push(Some(bias));
        }
        b.op(OpKind::TransposeConv(o), &inputs, &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// The U-Net up-sampling layer: 2x2 stride 2 (and a 3x3 stride 2 SAME with odd sizes).
    fn unet(dtype: DType, bias: Option<DType>, activation: Activation) -> Spec {
        Spec { dtype, input: [1, 3, 4, 5], filter: [4, 3, 3], output: [1, 6, 7, 4], stride: [2, 2], padding: Padding::Same, activation, bias }
    }

    fn i16s(seed: u64, n: usize) -> Vec<i16> {
        let a = i8s(seed, 2 * n);
        a.chunks(2).map(|c| i16::from_le_bytes([c[0] as u8, c[1] as u8])).collect()
    }

    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, x, y) = model(&unet(DType::I8, Some(DType::I32), Activation::None));
        check_vector("transpose_conv_s8", &bytes, &[(x, TensorData::I8(i8s(11, 60)))], y, WANT_S8);
        let text = emit_op0(&bytes);
        assert!(text.contains("kernels::transpose_conv::transpose_conv_s8(\n        &P0,"), "{text}");
        // VALID, 2x2 stride 2, no bias, ReLU, two batches.
        let s = Spec { dtype: DType::I8, input: [2, 2, 3, 3], filter: [2, 2, 2], output: [2, 4, 6, 2], stride: [2, 2], padding: Padding::Valid, activation: Activation::Relu, bias: None };
        let (bytes, x, y) = model(&s);
        check_vector("transpose_conv_s8_valid_relu", &bytes, &[(x, TensorData::I8(i8s(12, 36)))], y, WANT_S8_VALID_RELU);
    }

    fn check_i16(name: &str, s: &Spec, want: &[i16]) {
        let (bytes, x, y) = model(s);
        let n: usize = s.input.iter().product();
        let store = run_op0(name, &bytes, &[(x, TensorData::I16(i16s(13, n)))]);
        if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
            return;
        }
        assert_eq!(store.i16(y).unwrap(), want, "{name}");
    }

    #[test]
    fn int16_matches_tflite_micro() {
        check_i16("transpose_conv_s16", &unet(DType::I16, Some(DType::I64), Activation::None), WANT_S16);
        // An int16 bias: TFLite Micro widens it to int64 (tflc at compile time).
        check_i16("transpose_conv_s16_bias16", &unet(DType::I16, Some(DType::I16), Activation::Relu), WANT_S16_BIAS16);
        let text = emit_op0(&model(&unet(DType::I16, Some(DType::I16), Activation::None)).0);
        assert!(text.contains("transpose_conv_s16(\n        &P0,") && text.contains("as_i64(&WEIGHTS.0[OP0_BIAS])"), "{text}");
    }

    #[test]
    fn float32_matches_tflite_micro() {
        let s = unet(DType::F32, Some(DType::F32), Activation::Relu6);
        let (bytes, x, y) = model(&s);
        let v: Vec<f32> = i8s(14, 60).iter().map(|&v| v as f32 / 16.0).collect();
        let store = run_op0("transpose_conv_f32", &bytes, &[(x, TensorData::F32(v))]);
        if std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() && WANT_F32.is_empty() {
            return;
        }
        let got: Vec<u32> = store.f32(y).unwrap().iter().map(|v| v.to_bits()).collect();
        let want: Vec<u32> = WANT_F32.iter().map(|v| v.to_bits()).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn refusals() {
        // uint8, which TFLite Micro's TRANSPOSE_CONV does not run.
        let mut s = unet(DType::I8, None, Activation::None);
        s.dtype = DType::U8;
        expect_unsupported(&model(&s).0);
        // An int32 bias on int16 activations (TFLite Micro would read it as int64).
        expect_unsupported(&model(&unet(DType::I16, Some(DType::I32), Activation::None)).0);
        // A zero stride, an output depth that is not the filter count, a depth mismatch.
        let mut s = unet(DType::I8, None, Activation::None);
        s.stride = [0, 2];
        expect_invalid(&model(&s).0);
        let mut s = unet(DType::I8, None, Activation::None);
        s.output = [1, 6, 7, 3];
        expect_invalid(&model(&s).0);
        let mut s = unet(DType::F32, None, Activation::None);
        s.input = [2, 3, 4, 5];
        expect_invalid(&model(&s).0);
    }

    const WANT_S8: &[i8] = &[
        -44, 26, 95, -44, -128, -128, -20, -7, -44, 24, -106, 35, 6, -119, 32, -77, -4, -4, -36, 80, 118,
        127, -20, 127, -14, -124, 127, 127, -128, 49, 103, 40, 54, -128, -128, -59, 36, -48, -128, 127, 66,
        -72, 96, -119, 59, -30, -3, 54, -54, 127, 127, 59, -12, -16, 43, -39, 70, 0, 88, 59, 113, 127, 29,
        -128, -109, 99, 127, 79, 17, 83, -128, 102, -51, -128, 127, 127, 35, 127, -128, 127, -38, -128,
        127, 127, 8, 0, 37, 31, -85, 51, -16, 127, -128, 105, 127, -4, -115, -24, 76, 32, 24, -84, 45,
        -119, -128, 127, 98, 127, -55, 31, 103, -61, -46, -76, 100, 127, -50, -33, -128, -77, 52, 60, 121,
        -128, -128, 127, -128, -65, -23, -128, 127, 127, -125, -8, -128, 127, 64, -128, 127, 127, -30, -48,
        3, -6, -103, 64, -118, 112, -74, 79, 127, 58, -100, 127, 63, 117, -90, 23, 127, -107, -115, 127,
        83, -100, 91, -95, 56, -100,
    ];
    const WANT_S8_VALID_RELU: &[i8] = &[
        37, -7, -7, -7, -2, -7, -7, 50, 17, -7, 21, 27, 21, -7, 11, -7, -7, -7, -7, -7, 24, 7, 18, -7, 16,
        3, 9, 10, 19, -7, -7, -7, 9, 110, 20, -7, 24, 6, 14, -7, -7, -7, -7, -7, 63, 41, 21, 68, 64, 28,
        -7, -7, 20, 8, -7, -7, -7, 28, -7, -7, 54, -5, 10, 23, -6, -7, -7, 50, -7, -7, -7, 79, -7, 9, 17,
        3, 56, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, 38, 19, -7, 8, -7, -7, -7, -7, 1,
    ];
    const WANT_S16: &[i16] = &[
        -3879, -22112, 26023, 19470, 6365, 16269, 1847, -17900, 1794, -988, 3910, 471, -3382, -7041,
        -30177, 22530, -9911, -12097, 26752, 1115, -8382, 9185, -29283, -25251, 7822, -26271, 11890, 32767,
        4488, 3609, 4809, -9185, -15562, -5547, -2267, 27214, -12970, -940, 7711, -6706, -2228, 7430,
        -11427, 7564, -4240, 12763, 7506, 1075, -17986, -13934, 26042, -16943, 7810, -8921, 19160, -24465,
        -7182, 568, 20445, -29237, -8231, -32768, -11201, 26754, 14171, 15744, -8462, -4243, -7941, -28069,
        -16818, -32308, 1560, -5614, 5331, -4193, 910, -8101, -17612, -32768, -10382, -32735, 32429, 24369,
        -13658, 5711, 61, 11410, 8029, -6733, -9766, 11929, 875, -6812, -12635, -1859, 708, -24116, -14307,
        -9634, 8066, -6385, -7592, 7236, 4674, 12886, 3016, 15025, -6729, 4634, 18352, -14179, 6406, 29145,
        -24768, -13423, 11011, 8560, 19156, 21128, 9710, 8478, -498, -8641, 14841, -1054, 28857, 1734,
        -21044, 24878, -15801, -4903, 6913, -19559, 23605, -32768, 6157, 2197, -10763, -9511, 4718, 1246,
        -14613, 12240, -1899, 2245, 24519, -11229, 5434, -1261, 4443, -4296, 4345, 13929, 16778, -31954,
        2640, 16388, -1260, 18859, 15038, -32768, 5468, -29222, 4309, -11158, -17489, 9927,
    ];
    const WANT_S16_BIAS16: &[i16] = &[
        0, 0, 26023, 19470, 6365, 16269, 1847, 0, 1794, 0, 3910, 471, 0, 0, 0, 22530, 0, 0, 26752, 1115, 0,
        9185, 0, 0, 7822, 0, 11890, 32767, 4488, 3609, 4809, 0, 0, 0, 0, 27214, 0, 0, 7711, 0, 0, 7430, 0,
        7564, 0, 12763, 7506, 1075, 0, 0, 26042, 0, 7810, 0, 19160, 0, 0, 568, 20445, 0, 0, 0, 0, 26754,
        14171, 15744, 0, 0, 0, 0, 0, 0, 1560, 0, 5331, 0, 910, 0, 0, 0, 0, 0, 32429, 24369, 0, 5711, 61,
        11410, 8029, 0, 0, 11929, 875, 0, 0, 0, 708, 0, 0, 0, 8066, 0, 0, 7236, 4674, 12886, 3016, 15025,
        0, 4634, 18352, 0, 6406, 29145, 0, 0, 11011, 8560, 19156, 21128, 9710, 8478, 0, 0, 14841, 0, 28857,
        1734, 0, 24878, 0, 0, 6913, 0, 23605, 0, 6157, 2197, 0, 0, 4718, 1246, 0, 12240, 0, 2245, 24519, 0,
        5434, 0, 4443, 0, 4345, 13929, 16778, 0, 2640, 16388, 0, 18859, 15038, 0, 5468, 0, 4309, 0, 0,
        9927,
    ];
    const WANT_F32: &[f32] = &[
        0.0, 4.491211, 4.178711, 0.0, 0.0, 6.0, 0.0, 6.0, 0.0, 6.0, 6.0, 0.0, 0.0, 6.0, 6.0, 6.0, 6.0, 6.0,
        0.0, 0.0, 0.0, 0.0, 6.0, 6.0, 4.265625, 6.0, 0.0, 0.0, 0.0, 5.338867, 5.3652344, 0.56152344, 0.0,
        6.0, 0.0, 6.0, 0.0, 6.0, 6.0, 0.0, 0.0, 6.0, 0.0, 6.0, 0.0, 0.0, 0.0, 0.68359375, 1.6240234,
        0.6201172, 0.0, 6.0, 0.0, 0.0, 0.0, 6.0, 0.0, 6.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 6.0, 0.0, 0.0,
        6.0, 0.0, 6.0, 0.0, 4.0322266, 6.0, 0.0, 0.0, 6.0, 0.0, 6.0, 5.2529297, 6.0, 6.0, 0.0, 0.0, 6.0,
        0.0, 6.0, 4.573242, 6.0, 0.0, 0.0, 6.0, 0.0, 2.6748047, 0.0, 6.0, 0.0, 0.0, 6.0, 0.0, 0.37597656,
        5.8496094, 0.0, 6.0, 0.0, 1.6308594, 6.0, 6.0, 0.0, 6.0, 0.0, 1.0478516, 0.0, 0.0, 0.0, 6.0,
        0.3154297, 0.0, 6.0, 6.0, 0.0, 0.0, 0.0, 5.794922, 6.0, 0.0, 6.0, 0.50878906, 3.03125, 0.0, 6.0,
        0.0, 2.9570312, 0.0, 0.0, 0.0, 3.899414, 0.0, 0.0, 6.0, 0.0, 0.0, 6.0, 6.0, 0.0, 0.0, 6.0, 6.0,
        0.0, 6.0, 1.2548828, 6.0, 0.0, 0.0, 6.0, 3.7138672, 1.5068359, 0.0, 6.0, 6.0, 0.0, 6.0, 0.0, 0.0,
        0.0, 6.0, 0.0, 0.0, 6.0,
    ];
}
