//! DEPTHWISE_CONV_2D, int8 activations, int8 weights (per-channel or per-tensor), int32
//! bias, with depth multiplier; and 16x8 (int16 activations with zero point 0, int64
//! bias: TFLite Micro's 64-bit-accumulator `DepthwiseConvPerChannel`); and float32
//! (float32 weights and bias, `reference_ops::DepthwiseConv`).
//!
//! Mirrors TFLite Micro `depthwise_conv_common.cc` (`DepthwiseConvPrepare`,
//! `CalculateOpDataDepthwiseConv`): padding from `ComputePaddingHeightWidth`, one multiplier
//! per output channel from `PopulateConvolutionQuantizationParams` (a single weights scale is
//! broadcast to every channel), the fused activation as a clamp. The kernel is
//! `DepthwiseConvPerChannel`, which ignores the weights' zero point (so do we).

use super::conv_common::ConvHeld;
use super::conv_common::{check_int4_filter, clamp_u8, quant_u8, bias_f32, bias_i64, clamp_f32, clamp_s16, clamp_s8, conv_geometry, pack_inputs_s8, params_type, quant_s16, quant_s8, weights_f32, SchemeKind};
use super::target::{variant_args, variant_call, Arm, PerTarget};
use super::conv_family::{channel_multipliers, packed_table, per_target_int4, run_scheme, run_variant, Kept, Window, WithoutMultipliers};
use super::decode::{emit_lut, kept_lut, LutFilter, LutLayout};
use super::int4::{emit_int4, kept_int4, Int4Filter};
use tflc_runtime::kernels::int4::DepthwiseInt4;
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use tflc_runtime::kernels::depthwise_conv_2d::{DepthwiseConv2dF32Variant, depthwise_conv_2d_s16,
    ConvGeometry, DepthwiseConv2dU8Variant, DepthwiseConv2dVariant,
};
use tflc_runtime::kernels::numerics::{F32, S16, S8, U8};

#[derive(Debug, Clone, PartialEq)]
pub struct DepthwiseConv2d {
    pub input: TensorId,
    pub filter: TensorId,
    pub bias: Option<TensorId>,
    pub output: TensorId,
    pub scheme: DepthwiseConv2dScheme,
}

/// The runtime parameters per quantization scheme.
#[derive(Debug, Clone, PartialEq)]
pub enum DepthwiseConv2dScheme {
    /// int8: the variant selected for the geometry per target class and its packed table
    /// ([`DepthwiseConv2dVariant::pack`]; empty for the reference variant).
    /// `lut`: the filter kept LUT-compressed in flash ([`super::decode::kept_lut`], windows
    /// of at most `DEPTHWISE_MAX_TAPS` taps), which every target's call then reads
    /// (`depthwise_conv_2d_s8_lut`) instead of the variant.
    /// `int4`: the int4 filter kept packed ([`super::int4::kept_int4`], channel-major rows of
    /// taps), which the microcontroller builds' call reads (`depthwise_conv_2d_s8_int4`)
    /// instead of the variant; hosts keep theirs.
    /// `int4_form`: how those calls read it (`DepthwiseInt4::select`: `Mult1`'s groups on
    /// nibble words for a 3x3 filter `Mult1` takes, with `int4_packed` from
    /// `DepthwiseInt4::pack`; else the rows).
    S8 { held: ConvHeld<S8>, arms: PerTarget<DepthwiseConv2dVariant>, lut: Option<LutFilter>, int4: Option<Int4Filter>, int4_form: DepthwiseInt4, int4_packed: Vec<i32> },
    /// 16x8: the reference kernel.
    S16 { held: ConvHeld<S16> },
    /// float32: the variant per target class (the reference on Arm, the packed one on a
    /// host for depth multiplier 1) and its packed table.
    F32 { held: ConvHeld<F32>, arms: PerTarget<DepthwiseConv2dF32Variant, f32>, half: Option<Vec<u16>> },
    /// Legacy uint8: the reference kernel.
    U8 { held: ConvHeld<U8>, arms: PerTarget<DepthwiseConv2dU8Variant> },
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &crate::ir::DepthwiseConv2dOptions) -> Result<DepthwiseConv2d, LowerError> {
    cx.expect_arity(2..=3, 1)?;
    let input = cx.input(0)?;
    let filter = cx.input(1)?;
    let bias = cx.optional_input(2);
    let output = cx.output(0)?;
    let op = |scheme| DepthwiseConv2d { input: input.id, filter: filter.id, bias: bias.map(|b| b.id), output: output.id, scheme };
    cx.expect_activation(input)?;
    let (kind, in_q, out_q) = SchemeKind::of(cx, input, output)?;
    check_int4_filter(cx, input, filter)?;

    let input_shape = cx.shape4(input)?;
    let filter_shape = cx.shape4(filter)?;
    let output_shape = cx.shape4(output)?;
    let in_d = input_shape[3];
    let [f_one, _, _, out_d] = filter_shape;
    if f_one != 1 {
        return Err(cx.invalid_tensor(
            filter,
            format!("weights of shape {filter_shape:?} (expected [1, h, w, channels])"),
        ));
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
    let shapes = [input_shape, filter_shape, output_shape];
    let geometry = conv_geometry(cx, o.padding, [o.stride_h, o.stride_w], [o.dilation_h, o.dilation_w], shapes, out_d, output)?;
    if kind == SchemeKind::F32 {
        let weights = weights_f32(cx, filter, filter_shape.iter().product())?;
        let bias_data = bias_f32(cx, bias, out_d)?;
        let held = ConvHeld { geometry, quant: (), clamp: clamp_f32(cx, o.activation)? };
        let params = held.depthwise_params();
        let arms = PerTarget::select(
            |target| DepthwiseConv2dF32Variant::select(&params, target),
            |variant| packed_table(variant.packed_len(&geometry), |t| variant.pack(&params, &weights, bias_data.as_deref(), t)),
        );
        let scheme = DepthwiseConv2dScheme::F32 { held, arms, half: cx.half_weights(filter) };
        return Ok(op(scheme));
    }
    if kind == SchemeKind::U8 {
        let quant = quant_u8(cx, [in_q, out_q], filter, filter_shape.iter().product(), bias, out_d)?;
        let held = ConvHeld { geometry, quant, clamp: clamp_u8(cx, o.activation, out_q)? };
        // Hosts run `depthwise_conv_2d_u8_window` (no packed table), Arm the reference.
        let arms = PerTarget::select(DepthwiseConv2dU8Variant::select, |_| Vec::new());
        let scheme = DepthwiseConv2dScheme::U8 { held, arms };
        return Ok(op(scheme));
    }
    cx.expect_dtype(filter, DType::I8)?;
    let filter_bytes = cx.expect_constant(filter)?;

    // Per-channel scales along the channel dimension (3), or one broadcast scale.
    let fq = filter
        .quant
        .as_ref()
        .ok_or_else(|| cx.unsupported_tensor(filter, "weights are not quantized"))?;
    if fq.scale.len() != 1 && (fq.scale.len() != out_d || fq.axis.and_then(|a| filter_shape.get(a)) != Some(&out_d)) {
        return Err(cx.unsupported_tensor(
            filter,
            "weights quantization is neither per-tensor nor per output channel",
        ));
    }
    // `DepthwiseConvPerChannel` ignores the weights' zero points (symmetric by the int8
    // quantization spec); so do we, to stay bit-exact with TFLite Micro.
    let (output_multiplier, output_shift) = channel_multipliers(cx, filter, &fq.scale, out_d, [in_q, out_q], "channel")?;

    if filter_bytes.len() != filter_shape.iter().product::<usize>() {
        return Err(cx.invalid_tensor(filter, format!("weights hold {} bytes for shape {filter_shape:?}", filter_bytes.len())));
    }
    let scheme = match kind {
        SchemeKind::S8 => {
            let (weights, bias_data) = pack_inputs_s8(cx, filter_bytes, bias, out_d, "output channels")?;
            let quant = quant_s8(in_q, out_q, output_multiplier, output_shift);
            let held = ConvHeld { geometry, quant, clamp: clamp_s8(cx, o.activation, out_q)? };
            let arms = PerTarget::select(
                |target| DepthwiseConv2dVariant::select(&held.depthwise_params(), &weights, bias_data.as_deref(), target),
                |variant| packed_table(variant.packed_len(&geometry), |t| variant.pack(&held.depthwise_params(), &weights, bias_data.as_deref(), t)),
            );
            let taps = geometry.filter_shape[1] * geometry.filter_shape[2];
            let lut = if taps <= tflc_runtime::kernels::lut::DEPTHWISE_MAX_TAPS { kept_lut(cx, filter, out_d, LutLayout::Depthwise) } else { None };
            let int4 = if taps <= tflc_runtime::kernels::int4::DEPTHWISE_MAX_TAPS { kept_int4(cx, filter, out_d, LutLayout::Depthwise) } else { None };
            let int4_form = if int4.is_some() { DepthwiseInt4::select(&held.depthwise_params(), &weights, bias_data.as_deref()) } else { DepthwiseInt4::Rows };
            let int4_packed = packed_table(int4_form.packed_len(&geometry), |t| int4_form.pack(&held.depthwise_params(), &weights, bias_data.as_deref(), t));
            DepthwiseConv2dScheme::S8 { held, arms, lut, int4, int4_form, int4_packed }
        }
        SchemeKind::S16 => {
            bias_i64(cx, bias, out_d)?;
            let quant = quant_s16(cx, output, output_multiplier, output_shift)?;
            DepthwiseConv2dScheme::S16 { held: ConvHeld { geometry, quant, clamp: clamp_s16(cx, o.activation, out_q)? } }
        }
        SchemeKind::F32 | SchemeKind::U8 => unreachable!("float32 and uint8 returned above"),
    };
    Ok(op(scheme))
}

impl DepthwiseConv2dScheme {
    /// The filters this scheme keeps compact in flash.
    fn kept(&self) -> Kept<'_> {
        match self {
            DepthwiseConv2dScheme::S8 { lut, int4, .. } => Kept { lut: lut.as_ref(), int4: int4.as_ref() },
            _ => Kept::default(),
        }
    }
}

impl Kernel for DepthwiseConv2d {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        const OP: &str = "DEPTHWISE_CONV_2D";
        let tensors = (self.input, self.filter, self.bias, self.output);
        // The output's element count; the input's and the weights' in the lowered shapes.
        let counts = |g: &ConvGeometry| (g.output_shape.iter().product(), [g.input_shape.iter().product(), g.filter_shape.iter().product()]);
        match &self.scheme {
            DepthwiseConv2dScheme::S8 { held, arms, int4_form, int4_packed, .. } => {
                let p = &held.depthwise_params();
                run_variant::<i8, i8, i32, _, _>(s, OP, tensors, counts(&p.geometry), arms, |variant, o, out| {
                    variant.run(p, o, out);
                    self.scheme.kept().check(
                        OP,
                        out,
                        |lut, kept| tflc_runtime::kernels::lut::depthwise_conv_2d_s8_lut(p, o.input, lut, o.bias, kept),
                        |int4, kept| int4_form.run(p, o.input, int4, o.bias, int4_packed, kept),
                    )
                })
            }
            DepthwiseConv2dScheme::S16 { held } => {
                let p = &held.depthwise_params();
                run_scheme::<i16, i8, i64>(s, OP, tensors, counts(&p.geometry), |input, filter, bias, out| {
                    depthwise_conv_2d_s16(p, input, filter, bias, out);
                    Ok(())
                })
            }
            DepthwiseConv2dScheme::U8 { held, arms } => {
                let p = &held.depthwise_params();
                run_variant::<u8, u8, i32, _, _>(s, OP, tensors, counts(&p.geometry), arms, |variant, o, out| { variant.run(p, o, out); Ok(()) })
            }
            DepthwiseConv2dScheme::F32 { held, arms, .. } => {
                let p = &held.depthwise_params();
                run_variant::<f32, f32, f32, _, _>(s, OP, tensors, counts(&p.geometry), arms, |variant, o, out| { variant.run(p, o, out); Ok(()) })
            }
        }
    }

    fn kept_compressed(&self) -> Option<(TensorId, usize)> {
        self.scheme.kept().compressed(self.filter)
    }

    fn kept_int4(&self) -> Option<(TensorId, usize)> {
        self.scheme.kept().int4(self.filter)
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let path = quote! { kernels::depthwise_conv_2d::DepthwiseConv2dParams };
        let call = quote! { #rt::kernels::depthwise_conv_2d };
        let (x, y) = (self.input, self.output);
        let window = Window { driver: "depthwise_rows", path: path.clone(), input: x, bias: self.bias, output: y };
        match &self.scheme {
            DepthwiseConv2dScheme::S8 { held, lut: Some(lut), .. } => {
                // LUT-compressed filter, decoded four output channels at a time by the kernel.
                window.kept_call(cx, &held.depthwise_params(), quote! { lut::depthwise_conv_2d_s8_lut }, |cx| emit_lut(cx, lut))
            }
            DepthwiseConv2dScheme::S8 { held, arms, lut: None, int4, int4_form, int4_packed } => {
                // An int4 filter kept packed: the microcontroller builds' own arm.
                per_target_int4(cx, arms, int4.as_ref(), |cx, int4| {
                    let f = int4_form.function();
                    if *int4_form == DepthwiseInt4::Mult1 {
                        // Mult1's groups on nibble words: the packed table replaces the
                        // filter, the bias and the multiplier tables.
                        return window.packed_int4_call(cx, &held.depthwise_params().without_multipliers(), f, int4_packed);
                    }
                    let f = format_ident!("{}", f);
                    window.kept_call(cx, &held.depthwise_params(), quote! { int4::#f }, |cx| emit_int4(cx, int4))
                }, |cx, Arm { variant, packed, .. }| {
                    // The variant's row says what its call takes; a variant whose packed table holds
                    // the filter, the folded bias and the requantization (Mult1, OneChannel) does not
                    // read the model's filter and bias nor the params' multiplier tables, which are
                    // then not emitted, and runs a range of rows when overlapped.
                    let row = variant.row();
                    let params = if row.packed_requant { held.depthwise_params().without_multipliers() } else { held.depthwise_params() };
                    let p = cx.params_lit(params_type::<S8>(&rt, path.clone(), true), &params);
                    let ranged = row.rows_function.map(|_| "depthwise_row_ranges");
                    cx.window_call_ranged("depthwise_rows", ranged, &p, path.clone(), x, y, |cx, p, input, output, rows| {
                        let args = variant_args(cx, row, input, self.filter, self.bias, packed);
                        match (row.rows_function, rows) {
                            (Some(f), Some(rows)) => {
                                let f = format_ident!("{}", f);
                                quote! { #call::#f(#p, #rows, #(#args,)* #output); }
                            }
                            _ => {
                                let f = format_ident!("{}", row.function);
                                quote! { #call::#f(#p, #(#args,)* #output); }
                            }
                        }
                    })
                })
            }
            DepthwiseConv2dScheme::S16 { held } => {
                let p = cx.params_lit(params_type::<S16>(&rt, path.clone(), true), &held.depthwise_params());
                cx.window_call("depthwise_rows", &p, path, x, y, |cx, p, input, output| {
                    let filter = cx.input(self.filter);
                    let bias = cx.optional_input(self.bias);
                    quote! { #call::depthwise_conv_2d_s16(#p, #input, #filter, #bias, #output); }
                })
            }
            DepthwiseConv2dScheme::U8 { held, arms } => {
                let p = cx.params_lit(params_type::<U8>(&rt, path.clone(), true), &held.depthwise_params());
                cx.per_target(&arms.cfgs(), |cx, i| {
                    let Arm { variant, packed, .. } = &arms.arms[i];
                    cx.window_call("depthwise_rows", &p, path.clone(), x, y, |cx, p, input, output| {
                        let row = variant.row();
                        variant_call(cx, row, &call, p, input, (self.filter, self.bias), packed, output)
                    })
                })
            }
            DepthwiseConv2dScheme::F32 { held, arms, half } => {
                let p = cx.params_lit(params_type::<F32>(&rt, path.clone(), true), &held.depthwise_params());
                cx.per_target(&arms.cfgs(), |cx, i| {
                    let Arm { variant, packed, .. } = &arms.arms[i];
                    cx.window_call("depthwise_rows", &p, path.clone(), x, y, |cx, p, input, output| {
                        if let (Some(half), DepthwiseConv2dF32Variant::Reference) = (half, variant) {
                            // Float16 kept in flash (Arm), the model's layout: widened once
                            // per block of four channels where the blocked form applies.
                            let bias = cx.optional_input(self.bias);
                            let filter = cx.table_u16("filter_f16", half);
                            if DepthwiseConv2dF32Variant::f16_blocked(&held.depthwise_params()) {
                                return quote! { #call::depthwise_conv_2d_f32_f16w_blocked(#p, #input, #filter, #bias, #output); };
                            }
                            return quote! { #call::depthwise_conv_2d_f32_f16w(#p, #input, #filter, #bias, #output); };
                        }
                        // The variant's row says what its call takes (`Packed`: the filter and
                        // the bias in one table).
                        let row = variant.row();
                        variant_call(cx, row, &call, p, input, (self.filter, self.bias), packed, output)
                    })
                })
            }
        }
    }

    fn overlap(&self) -> Vec<(usize, usize, crate::ir::DeltaBound)> {
        // The `_lut` kernel decodes its filter at every call, and an overlapped call runs
        // once per band of rows: no overlap (it would decode the filter once per band).
        // The same for an int4 filter kept packed (the same drivers, unpacking per call), as
        // the LUT form chose speed over arena; the `_int4` kernels do run overlapped exactly
        // (`overlap::tests::int4_overlapped_rows_equal_apart`) should that choice change.
        // The int4 `Mult1` form runs overlapped exactly too
        // (`overlap::tests::int4_mult1_overlapped_rows_equal_apart`), but band by band through
        // the geometry driver it cost kws int4 5.4 KB of flash and 7% more instructions for
        // 4.4 KB less arena on the Cortex-M4: an int4 build is one made for flash, so it
        // stays apart.
        if matches!(&self.scheme, DepthwiseConv2dScheme::S8 { lut: Some(_), .. } | DepthwiseConv2dScheme::S8 { int4: Some(_), .. }) {
            return Vec::new();
        }
        let (g, elem) = match &self.scheme {
            DepthwiseConv2dScheme::S8 { held, .. } => (held.geometry, 1),
            DepthwiseConv2dScheme::S16 { held } => (held.geometry, 2),
            DepthwiseConv2dScheme::U8 { held, .. } => (held.geometry, 1),
            DepthwiseConv2dScheme::F32 { held, .. } => (held.geometry, 4),
        };
        super::window_overlap(tflc_runtime::kernels::overlap::Rows::conv(&g), elem)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::error::LowerError;
    use crate::ir::OpKind;
    use crate::ir::{Activation, DepthwiseConv2dOptions, Padding};
    use crate::tflite::builder::ModelBuilder;

    struct Dw<'a> {
        input: (&'a [usize], f32, i64),
        /// Weights shape and scales (one scale = per-tensor).
        weights: (&'a [usize], &'a [f32]),
        bias: bool,
        output: (&'a [usize], f32, i64),
        options: DepthwiseConv2dOptions,
    }

    fn opts(
        padding: Padding,
        stride: [i32; 2],
        dilation: [i32; 2],
        dm: i32,
        activation: Activation,
    ) -> DepthwiseConv2dOptions {
        DepthwiseConv2dOptions {
            padding,
            stride_h: stride[0],
            stride_w: stride[1],
            depth_multiplier: dm,
            dilation_h: dilation[0],
            dilation_w: dilation[1],
            activation,
        }
    }

    /// Builds the single-op model; returns its bytes, the input, the output, and the input
    /// data (pseudo-random, full range).
    fn build(dw: &Dw<'_>, seed: u64) -> (Vec<u8>, TensorId, TensorId, Vec<i8>) {
        let mut b = ModelBuilder::new();
        let (ishape, is, iz) = dw.input;
        let x = b.activation("x", DType::I8, ishape, Some((is, iz)));
        let (wshape, ws) = dw.weights;
        let wv: Vec<i8> = i8s(seed + 1, wshape.iter().product())
            .into_iter()
            .map(|v| v.max(-127))
            .collect();
        let channels = wshape.last().copied().unwrap_or(0);
        let w = if ws.len() == 1 {
            b.constant_i8("w", wshape, &wv, Some((ws[0], 0)))
        } else {
            b.constant_i8_per_axis("w", wshape, &wv, ws, 3)
        };
        let bias = dw.bias.then(|| {
            let bv: Vec<i32> = (0..channels as i32).map(|c| (c * 7919 % 3001) - 1500).collect();
            let bs: Vec<f32> = ws.iter().map(|s| s * is).collect();
            if bs.len() == 1 {
                b.constant_i32("b", &[channels], &bv, Some((bs[0], 0)))
            } else {
                b.constant_i32_per_axis("b", &[channels], &bv, &bs)
            }
        });
        let (oshape, os, oz) = dw.output;
        let y = b.activation("y", DType::I8, oshape, Some((os, oz)));
        // Without a bias, two inputs: TFLite Micro crashes on an omitted (-1) third input.
        let inputs: Vec<Option<TensorId>> = [Some(x), Some(w)].into_iter().chain(bias.map(Some)).collect();
        b.op(OpKind::DepthwiseConv2d(dw.options.clone()), &inputs, &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y, i8s(seed, ishape.iter().product()))
    }

    fn run(name: &str, dw: &Dw<'_>, seed: u64) -> Vec<i8> {
        let (bytes, x, y, xv) = build(dw, seed);
        out_i8(&run_op0(name, &bytes, &[(x, TensorData::I8(xv))]), y)
    }

    fn same_mult2() -> Dw<'static> {
        Dw {
            input: (&[1, 5, 4, 3], 0.05, -2),
            weights: (&[1, 3, 3, 6], &[0.01, 0.02, 0.005, 0.03, 0.015, 0.008]),
            bias: true,
            output: (&[1, 5, 4, 6], 0.04, 3),
            options: opts(Padding::Same, [1, 1], [1, 1], 2, Activation::None),
        }
    }

    fn strided_dilated() -> Dw<'static> {
        Dw {
            input: (&[2, 7, 6, 2], 0.03, 10),
            weights: (&[1, 3, 3, 2], &[0.02]),
            bias: false,
            output: (&[2, 4, 3, 2], 0.05, -20),
            options: opts(Padding::Same, [2, 2], [2, 2], 1, Activation::Relu),
        }
    }

    fn valid_odd_channels() -> Dw<'static> {
        Dw {
            input: (&[1, 6, 7, 5], 0.1, 0),
            weights: (&[1, 2, 3, 5], &[0.004, 0.006, 0.002, 0.01, 0.003]),
            bias: true,
            output: (&[1, 3, 5, 5], 1.0 / 64.0, -1),
            options: opts(Padding::Valid, [2, 1], [1, 1], 1, Activation::ReluN1To1),
        }
    }

    // Expected outputs: the TFLite Micro interpreter (pip `tflite-micro`, reference
    // kernels) run once on the models and inputs these tests build, dumped with
    // `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc depthwise`.

    /// SAME padding on every edge (3x3, stride 1), depth multiplier 2, per-channel weights.
    #[test]
    fn same_padding_every_edge_depth_multiplier_2() {
        let want: &[i8] = &[
            -42, -13, 127, 127, -128, -79, 127, 32, -128, 127, 127, -53, -128, -90, -36, 127, -128, 80, 84, 41, -7,
            -128, 127, -128, -29, -108, -55, 24, -128, -21, 25, -128, -73, -128, -128, 127, -31, -15, -128, 127, -128,
            -128, -128, -128, 3, -128, 98, 106, -128, -22, -128, -67, 127, 11, -101, -128, -42, 127, -78, -46, -17,
            127, -14, -128, 127, 8, -73, 53, 127, 127, -128, 68, 127, -23, -2, -128, -128, -68, -128, -128, -71, -128,
            -110, -71, 112, 47, 127, 127, 127, 9, -128, 6, -20, -128, 80, -128, -82, -111, 123, 127, -98, 14, 55, 127,
            77, -87, 100, 50, -67, -70, 63, -119, -128, 107, -29, 93, 36, 37, 127, 11,
        ];
        assert_eq!(run("dw_same_mult2", &same_mult2(), 21), want);
    }

    /// Two batches, stride 2 and dilation 2 with SAME padding (2 cells each side),
    /// per-tensor weights broadcast to every channel, no bias, RELU.
    #[test]
    fn batches_stride_dilation_per_tensor_relu() {
        let want: &[i8] = &[
            -2, 108, -20, 127, -20, -20, -20, 127, 103, -20, 127, -20, 127, -20, 39, -20, -20, 127, -20, -20, -11, 127,
            75, -20, 11, -20, 127, -20, -12, -20, 127, -20, 127, -20, 127, 91, -20, 7, 48, 7, 127, -20, -20, -15, -20,
            70, -20, -20,
        ];
        assert_eq!(run("dw_strided_dilated", &strided_dilated(), 22), want);
    }

    /// VALID padding, unequal strides, 5 channels, RELU_N1_TO_1.
    #[test]
    fn valid_unequal_strides_odd_channels_relu_n1_to_1() {
        let want: &[i8] = &[
            41, 63, -65, -65, -65, 63, 63, -65, -65, -65, 63, 63, 63, 63, -62, -65, 63, -65, 63, -22, 63, -65, 63, 63,
            63, -65, 63, -65, -2, -65, 63, -65, 63, 63, 54, 63, -20, 63, -65, -65, 63, -65, 29, 63, -65, 63, 63, -65,
            -65, 63, -40, 63, -65, -65, -65, -65, -65, -65, -65, -24, -65, -65, 63, -65, -65, -65, 24, 63, 63, -5, -65,
            -65, 63, -65, -65,
        ];
        assert_eq!(run("dw_valid_odd", &valid_odd_channels(), 23), want);
    }

    /// Saturation at both ends and the depth-multiplier channel order, by hand: a 1x1
    /// filter with exact power-of-two scales multiplies input channel `c` into output
    /// channels `2c` and `2c + 1`.
    #[test]
    fn saturates_and_orders_multiplier_channels() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[1, 1, 2, 2], Some((0.5, 0)));
        let w = b.constant_i8("w", &[1, 1, 1, 4], &[127, -127, 1, 2], Some((0.5, 0)));
        let y = b.activation("y", DType::I8, &[1, 1, 2, 4], Some((0.25, 0)));
        b.op(
            OpKind::DepthwiseConv2d(opts(Padding::Valid, [1, 1], [1, 1], 2, Activation::None)),
            &[Some(x), Some(w)],
            &[y],
        );
        b.inputs(&[x]).outputs(&[y]);
        let bytes = b.finish();
        let store = run_op0("dw_saturate", &bytes, &[(x, TensorData::I8(vec![100, 7, -3, 5]))]);
        // Real multiplier 0.5*0.5/0.25 = 1: out = w * x, clamped.
        assert_eq!(out_i8(&store, y), vec![127, -128, 7, 14, -128, 127, 5, 10]);
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, ..) = build(&valid_odd_channels(), 23);
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        let is_invalid = |e: &LowerError| matches!(e, LowerError::Invalid { .. });
        let err = |dw: &Dw<'_>| {
            let (bytes, ..) = build(dw, 1);
            lower_op0(&bytes).expect_err("lowering must fail")
        };
        // Output shape not what the options give.
        let e = err(&Dw {
            output: (&[1, 5, 5, 6], 0.04, 3),
            ..same_mult2()
        });
        assert!(is_invalid(&e), "{e}");
        // depth_multiplier option disagreeing with the shapes.
        let e = err(&Dw {
            options: opts(Padding::Same, [1, 1], [1, 1], 1, Activation::None),
            ..same_mult2()
        });
        assert!(is_invalid(&e), "{e}");
        // Zero stride.
        let e = err(&Dw {
            options: opts(Padding::Same, [0, 1], [1, 1], 2, Activation::None),
            ..same_mult2()
        });
        assert!(is_invalid(&e), "{e}");
        // Output channels not a multiple of the input channels.
        let e = err(&Dw {
            weights: (&[1, 3, 3, 4], &[0.01]),
            output: (&[1, 5, 4, 4], 0.04, 3),
            options: opts(Padding::Same, [1, 1], [1, 1], 1, Activation::None),
            ..same_mult2()
        });
        assert!(is_invalid(&e), "{e}");
        // Weights whose first dimension is not 1.
        let e = err(&Dw {
            weights: (&[2, 3, 3, 6], &[0.01]),
            bias: false,
            ..same_mult2()
        });
        assert!(is_invalid(&e), "{e}");
        // A fused TANH is not a clamp.
        let e = err(&Dw {
            options: opts(Padding::Same, [1, 1], [1, 1], 2, Activation::Tanh),
            ..same_mult2()
        });
        assert!(!is_invalid(&e), "{e}");

        type Make = Box<dyn Fn(&mut ModelBuilder) -> (Vec<Option<TensorId>>, TensorId)>;
        let variants: Vec<(&str, Make, bool)> = vec![
            (
                "int16 input with an int32 bias",
                Box::new(|b| {
                    let x = b.activation("x", DType::I16, &[1, 3, 3, 2], Some((0.1, 0)));
                    let w = b.constant_i8("w", &[1, 1, 1, 2], &[1, 1], Some((0.1, 0)));
                    let bias = b.constant_i32("b", &[2], &[1, 2], Some((0.01, 0)));
                    let y = b.activation("y", DType::I16, &[1, 3, 3, 2], Some((0.1, 0)));
                    (vec![Some(x), Some(w), Some(bias)], y)
                }),
                false,
            ),
            (
                "int16 input with a non-zero zero point",
                Box::new(|b| {
                    let x = b.activation("x", DType::I16, &[1, 3, 3, 2], Some((0.1, 4)));
                    let w = b.constant_i8("w", &[1, 1, 1, 2], &[1, 1], Some((0.1, 0)));
                    let y = b.activation("y", DType::I16, &[1, 3, 3, 2], Some((0.1, 0)));
                    (vec![Some(x), Some(w)], y)
                }),
                false,
            ),
            (
                "missing weights",
                Box::new(|b| {
                    let x = b.activation("x", DType::I8, &[1, 3, 3, 2], Some((0.1, 0)));
                    let y = b.activation("y", DType::I8, &[1, 3, 3, 2], Some((0.1, 0)));
                    (vec![Some(x), None], y)
                }),
                true,
            ),
            (
                "non-constant weights",
                Box::new(|b| {
                    let x = b.activation("x", DType::I8, &[1, 3, 3, 2], Some((0.1, 0)));
                    let w = b.activation("w", DType::I8, &[1, 1, 1, 2], Some((0.1, 0)));
                    let y = b.activation("y", DType::I8, &[1, 3, 3, 2], Some((0.1, 0)));
                    (vec![Some(x), Some(w)], y)
                }),
                false,
            ),
            (
                "bias of the wrong length",
                Box::new(|b| {
                    let x = b.activation("x", DType::I8, &[1, 3, 3, 2], Some((0.1, 0)));
                    let w = b.constant_i8("w", &[1, 1, 1, 2], &[1, 1], Some((0.1, 0)));
                    let bias = b.constant_i32("b", &[3], &[1, 2, 3], Some((0.01, 0)));
                    let y = b.activation("y", DType::I8, &[1, 3, 3, 2], Some((0.1, 0)));
                    (vec![Some(x), Some(w), Some(bias)], y)
                }),
                true,
            ),
            (
                "input of rank 3",
                Box::new(|b| {
                    let x = b.activation("x", DType::I8, &[3, 3, 2], Some((0.1, 0)));
                    let w = b.constant_i8("w", &[1, 1, 1, 2], &[1, 1], Some((0.1, 0)));
                    let y = b.activation("y", DType::I8, &[3, 3, 2], Some((0.1, 0)));
                    (vec![Some(x), Some(w)], y)
                }),
                false,
            ),
        ];
        for (what, make, invalid) in variants {
            let mut b = ModelBuilder::new();
            let (inputs, y) = make(&mut b);
            b.op(
                OpKind::DepthwiseConv2d(opts(Padding::Valid, [1, 1], [1, 1], 1, Activation::None)),
                &inputs,
                &[y],
            );
            let bytes = b.finish();
            let e = lower_op0(&bytes).expect_err(what);
            assert_eq!(is_invalid(&e), invalid, "{what}: {e}");
            assert!(e.to_string().contains("DEPTHWISE_CONV_2D"), "{what}: {e}");
        }
    }
}
