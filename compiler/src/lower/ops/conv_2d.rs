//! CONV_2D, int8 activations, int8 weights (per-channel or per-tensor), int32 bias; and
//! 16x8: int16 activations (zero point 0), int8 weights, int64 bias (TFLite Micro's
//! 64-bit-accumulator path; an int32 bias on int16 activations is refused); and float32
//! (float32 weights and bias, `reference_ops::Conv`).
//!
//! Mirrors TFLite Micro `conv.cc` / `conv_common.cc` prepare: padding from
//! `ComputePaddingHeightWidth`, one multiplier per output channel from
//! `input_scale * filter_scale[c] / output_scale` in double, the fused activation as a clamp.
//! For int8 the runtime's [`Conv2dVariant::select`] picks the kernel variant from the
//! geometry at compile time, [`Conv2dVariant::pack`] packs its weights, and the generated
//! code calls that variant directly.

use super::conv_common::ConvHeld;
use super::conv_common::{check_int4_filter, clamp_u8, quant_u8, bias_f32, bias_i64, clamp_f32, clamp_s16, clamp_s8, conv_geometry, pack_inputs_s8, params_type, quant_s16, quant_s8, weights_f32, SchemeKind};
use super::target::{variant_call, Arm, PerTarget};
use super::decode::{emit_lut, kept_lut, LutFilter, LutLayout};
use super::int4::{emit_int4, kept_int4, Int4Filter};
use tflc_runtime::kernels::int4::Conv2dInt4;
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use tflc_runtime::kernels::conv_2d::{conv_2d_s16, Conv2dF32Variant, Conv2dU8Variant, Conv2dVariant, ConvGeometry};
use tflc_runtime::variants::Operands;
use tflc_runtime::isa::TargetClass;
use tflc_runtime::kernels::blocked_f32;
use tflc_runtime::kernels::numerics::{F32, S16, S8, U8};
use tflc_runtime::prepare::conv_channel_multiplier;

#[derive(Debug, Clone, PartialEq)]
pub struct Conv2d {
    pub input: TensorId,
    pub filter: TensorId,
    pub bias: Option<TensorId>,
    pub output: TensorId,
    pub scheme: Conv2dScheme,
}

/// The runtime parameters per quantization scheme.
#[derive(Debug, Clone, PartialEq)]
pub enum Conv2dScheme {
    /// int8: the variant selected for the geometry per target class and its packed table
    /// ([`Conv2dVariant::pack`]; empty for the reference variant).
    /// `lut`: the filter kept LUT-compressed in flash ([`super::decode::kept_lut`]), which
    /// every target's call then reads (`conv_2d_s8_lut`) instead of the variant. `int4`: the
    /// int4 filter kept packed ([`super::int4::kept_int4`]), which the microcontroller
    /// builds' call reads (`conv_2d_s8_int4`) instead of the variant; hosts keep theirs.
    /// `int4_form`: how those calls read it (`Conv2dInt4::select`: the `Gemm` drivers on
    /// nibble words where `Gemm` applies, with `int4_packed` from `Conv2dInt4::pack`; else
    /// the nibbles as rows, `Rows`).
    S8 { held: ConvHeld<S8>, arms: PerTarget<Conv2dVariant>, lut: Option<LutFilter>, int4: Option<Int4Filter>, int4_form: Conv2dInt4, int4_packed: Vec<i32> },
    /// 16x8: the reference kernel.
    S16 { held: ConvHeld<S16> },
    /// float32: the variant per target class (the reference on Arm, the packed one on a
    /// host) and its packed table ([`Conv2dF32Variant::pack`]). `half`: the filter's float16
    /// source kept in flash (`keep_f16_weights`), which the reference calls read instead
    /// of the float32 filter (`conv_2d_f32_f16w`, the same bits).
    F32 { held: ConvHeld<F32>, arms: PerTarget<Conv2dF32Variant, f32>, half: Option<Vec<u16>> },
    /// Legacy uint8: per target class the reference kernel or (hosts) `Wide` with its
    /// packed table ([`Conv2dU8Variant::select`], [`Conv2dU8Variant::pack`]).
    U8 { held: ConvHeld<U8>, arms: PerTarget<Conv2dU8Variant> },
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &crate::ir::Conv2dOptions) -> Result<Conv2d, LowerError> {
    cx.expect_arity(2..=3, 1)?;
    let input = cx.input(0)?;
    let filter = cx.input(1)?;
    let bias = cx.optional_input(2);
    let output = cx.output(0)?;
    cx.expect_activation(input)?;
    let (kind, in_q, out_q) = SchemeKind::of(cx, input, output)?;
    check_int4_filter(cx, input, filter)?;

    let input_shape = cx.shape4(input)?;
    let filter_shape = cx.shape4(filter)?;
    let output_shape = cx.shape4(output)?;
    let in_d = input_shape[3];
    let [out_d, _, _, f_d] = filter_shape;
    let groups = in_d.checked_div(f_d).unwrap_or(0);
    if groups == 0 || in_d % f_d != 0 || !out_d.is_multiple_of(groups) {
        return Err(cx.invalid_tensor(filter, format!("filter depth {f_d} does not divide input depth {in_d} into groups")));
    }
    let shapes = [input_shape, filter_shape, output_shape];
    let geometry = conv_geometry(cx, o.padding, [o.stride_h, o.stride_w], [o.dilation_h, o.dilation_w], shapes, out_d, output)?;
    if kind == SchemeKind::F32 {
        let weights = weights_f32(cx, filter, filter_shape.iter().product())?;
        let bias_data = bias_f32(cx, bias, out_d)?;
        let held = ConvHeld { geometry, quant: (), clamp: clamp_f32(cx, o.activation)? };
        let params = held.conv_2d_params();
        let arms = PerTarget::select(
            |target| Conv2dF32Variant::select(&params, target),
            |variant| {
                let mut packed = vec![0.0; variant.packed_len(&geometry)];
                variant.pack(&params, &weights, bias_data.as_deref(), &mut packed);
                packed
            },
        );
        let half = cx.half_weights(filter);
        return Ok(Conv2d { input: input.id, filter: filter.id, bias: bias.map(|b| b.id), output: output.id, scheme: Conv2dScheme::F32 { held, arms, half } });
    }
    if kind == SchemeKind::U8 {
        let quant = quant_u8(cx, [in_q, out_q], filter, filter_shape.iter().product(), bias, out_d)?;
        let held = ConvHeld { geometry, quant, clamp: clamp_u8(cx, o.activation, out_q)? };
        let weights = cx.expect_constant(filter)?;
        let bias_data = match bias {
            Some(_) => Some(cx.bias_i32(bias, out_d, "output channels")?),
            None => None,
        };
        let params = held.conv_2d_params();
        let arms = PerTarget::select(
            |target| Conv2dU8Variant::select(&params, target),
            |variant| {
                let mut packed = vec![0; variant.packed_len(&geometry)];
                variant.pack(&params, weights, bias_data.as_deref(), &mut packed);
                packed
            },
        );
        return Ok(Conv2d { input: input.id, filter: filter.id, bias: bias.map(|b| b.id), output: output.id, scheme: Conv2dScheme::U8 { held, arms } });
    }
    cx.expect_dtype(filter, DType::I8)?;
    let filter_bytes = cx.expect_constant(filter)?;

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

    if filter_bytes.len() != filter_shape.iter().product::<usize>() {
        return Err(cx.invalid_tensor(filter, format!("weights hold {} bytes for shape {filter_shape:?}", filter_bytes.len())));
    }
    let scheme = match kind {
        SchemeKind::S8 => {
            let (weights, bias_data) = pack_inputs_s8(cx, filter_bytes, bias, out_d, "output channels")?;
            let quant = quant_s8(in_q, out_q, output_multiplier, output_shift);
            let held = ConvHeld { geometry, quant, clamp: clamp_s8(cx, o.activation, out_q)? };
            let params = held.conv_2d_params();
            let arms = PerTarget::select(
                |target| Conv2dVariant::select(&params, &weights, bias_data.as_deref(), target),
                |variant| {
                    let mut packed = vec![0; variant.packed_len(&geometry)];
                    variant.pack(&params, &weights, bias_data.as_deref(), &mut packed);
                    packed
                },
            );
            let lut = kept_lut(cx, filter, out_d, LutLayout::Rows);
            let int4 = kept_int4(cx, filter, out_d, LutLayout::Rows);
            let int4_form = if int4.is_some() { Conv2dInt4::select(&params, &weights, bias_data.as_deref()) } else { Conv2dInt4::Rows };
            let mut int4_packed = vec![0; int4_form.packed_len(&geometry)];
            int4_form.pack(&params, &weights, bias_data.as_deref(), &mut int4_packed);
            Conv2dScheme::S8 { held, arms, lut, int4, int4_form, int4_packed }
        }
        SchemeKind::S16 => {
            bias_i64(cx, bias, out_d)?;
            let quant = quant_s16(cx, output, output_multiplier, output_shift)?;
            Conv2dScheme::S16 { held: ConvHeld { geometry, quant, clamp: clamp_s16(cx, o.activation, out_q)? } }
        }
        SchemeKind::F32 | SchemeKind::U8 => unreachable!("float32 and uint8 returned above"),
    };
    Ok(Conv2d { input: input.id, filter: filter.id, bias: bias.map(|b| b.id), output: output.id, scheme })
}

impl Kernel for Conv2d {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match &self.scheme {
            Conv2dScheme::S8 { held, arms, lut, int4, int4_form, int4_packed } => {
                let Arm { variant, packed, .. } = arms.of(TargetClass::BUILD);
                let p = &held.conv_2d_params();
                let g = &p.geometry;
                let mut out = s.take_i8(self.output, g.output_shape.iter().product());
                let (input, filter) = (s.i8(self.input)?, s.i8(self.filter)?);
                let bias = self.bias.map(|b| s.i32(b)).transpose()?;
                check_lengths(g, input.len(), filter.len())?;
                variant.run(p, Operands { input, filter, bias, packed }, &mut out);
                if let Some(lut) = lut {
                    let mut kept = vec![0; out.len()];
                    tflc_runtime::kernels::lut::conv_2d_s8_lut(p, input, &lut.view(), bias, &mut kept);
                    LutFilter::check("CONV_2D", &out, &kept)?;
                }
                if let Some(int4) = int4 {
                    let mut kept = vec![0; out.len()];
                    int4_form.run(p, input, &int4.view(), bias, int4_packed, &mut kept);
                    Int4Filter::check("CONV_2D", &out, &kept)?;
                }
                s.insert(self.output, TensorData::I8(out));
            }
            Conv2dScheme::S16 { held } => {
                let p = &held.conv_2d_params();
                let g = &p.geometry;
                let mut out = s.take_i16(self.output, g.output_shape.iter().product());
                let (input, filter) = (s.i16(self.input)?, s.i8(self.filter)?);
                let bias = self.bias.map(|b| s.i64(b)).transpose()?;
                check_lengths(g, input.len(), filter.len())?;
                conv_2d_s16(p, input, filter, bias, &mut out);
                s.insert(self.output, TensorData::I16(out));
            }
            Conv2dScheme::U8 { held, arms } => {
                let Arm { variant, packed, .. } = arms.of(TargetClass::BUILD);
                let p = &held.conv_2d_params();
                let g = &p.geometry;
                let mut out = s.take_u8(self.output, g.output_shape.iter().product());
                let (input, filter) = (s.u8(self.input)?, s.u8(self.filter)?);
                let bias = self.bias.map(|b| s.i32(b)).transpose()?;
                check_lengths(g, input.len(), filter.len())?;
                variant.run(p, Operands { input, filter, bias, packed }, &mut out);
                s.insert(self.output, TensorData::U8(out));
            }
            Conv2dScheme::F32 { held, arms, .. } => {
                let Arm { variant, packed, .. } = arms.of(TargetClass::BUILD);
                let p = &held.conv_2d_params();
                let g = &p.geometry;
                let mut out = s.take_f32(self.output, g.output_shape.iter().product());
                let (input, filter) = (s.f32(self.input)?, s.f32(self.filter)?);
                let bias = self.bias.map(|b| s.f32(b)).transpose()?;
                check_lengths(g, input.len(), filter.len())?;
                variant.run(p, Operands { input, filter, bias, packed }, &mut out);
                s.insert(self.output, TensorData::F32(out));
            }
        }
        Ok(())
    }

    fn kept_compressed(&self) -> Option<(TensorId, usize)> {
        match &self.scheme {
            Conv2dScheme::S8 { lut: Some(lut), .. } => Some((self.filter, lut.table.len() + lut.indices.len())),
            _ => None,
        }
    }

    fn kept_int4(&self) -> Option<(TensorId, usize)> {
        match &self.scheme {
            Conv2dScheme::S8 { int4: Some(int4), .. } => Some((self.filter, int4.nibbles.len())),
            _ => None,
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let path = quote! { kernels::conv_2d::Conv2dParams };
        let call = quote! { #rt::kernels::conv_2d };
        let (x, y) = (self.input, self.output);
        match &self.scheme {
            Conv2dScheme::S8 { held, lut: Some(lut), .. } => {
                // LUT-compressed filter, decoded an output channel at a time by the kernel.
                let p = cx.params_lit(params_type::<S8>(&rt, path.clone(), true), &held.conv_2d_params());
                cx.window_call("conv_rows", &p, path, x, y, |cx, p, input, output| {
                    let w = emit_lut(cx, lut);
                    let bias = cx.optional_input(self.bias);
                    quote! { #rt::kernels::lut::conv_2d_s8_lut(#p, #input, #w, #bias, #output); }
                })
            }
            Conv2dScheme::S8 { held, arms, lut: None, int4, int4_form, int4_packed } => {
                // An int4 filter kept packed: the microcontroller builds' own arm.
                let split = arms.split_kept(|class| int4.is_some() && super::int4::kept_on(class));
                cx.per_target(&split.cfgs(), |cx, i| {
                let k = match (split.arms[i].variant, int4) {
                    (Some(k), _) => k,
                    (None, Some(_)) if *int4_form != Conv2dInt4::Rows => {
                        // The Gemm drivers on nibble words: the packed table replaces the
                        // filter, the bias and the multiplier tables.
                        let mut params = held.conv_2d_params();
                        params.quant.output_multiplier = &[];
                        params.quant.output_shift = &[];
                        let p = cx.params_lit(params_type::<S8>(&rt, path.clone(), true), &params);
                        let f = format_ident!("{}", int4_form.function());
                        return cx.window_call("conv_rows", &p, path.clone(), x, y, |cx, p, input, output| {
                            let packed = cx.table_i32("packed", int4_packed);
                            quote! { #rt::kernels::int4::#f(#p, #input, #packed, #output); }
                        });
                    }
                    (None, Some(int4)) => {
                        let p = cx.params_lit(params_type::<S8>(&rt, path.clone(), true), &held.conv_2d_params());
                        return cx.window_call("conv_rows", &p, path.clone(), x, y, |cx, p, input, output| {
                            let w = emit_int4(cx, int4);
                            let bias = cx.optional_input(self.bias);
                            let f = format_ident!("{}", int4_form.function());
                            quote! { #rt::kernels::int4::#f(#p, #input, #w, #bias, #output); }
                        });
                    }
                    (None, None) => unreachable!("split_kept splits off no class without a kept int4 filter"),
                };
                let Arm { variant, packed, .. } = &arms.arms[k];
                // The variant's row says what its call takes; a variant whose packed table holds
                // the requantization constants does not read the params' multiplier tables,
                // which are then not emitted.
                let row = variant.row();
                let mut params = held.conv_2d_params();
                if row.packed_requant {
                    params.quant.output_multiplier = &[];
                    params.quant.output_shift = &[];
                }
                let p = cx.params_lit(params_type::<S8>(&rt, path.clone(), true), &params);
                cx.window_call("conv_rows", &p, path.clone(), x, y, |cx, p, input, output| {
                    variant_call(cx, row, &call, p, input, (self.filter, self.bias), packed, output)
                })
                })
            }
            Conv2dScheme::S16 { held } => {
                let p = cx.params_lit(params_type::<S16>(&rt, path.clone(), true), &held.conv_2d_params());
                cx.window_call("conv_rows", &p, path, x, y, |cx, p, input, output| {
                    let filter = cx.input(self.filter);
                    let bias = cx.optional_input(self.bias);
                    quote! { #call::conv_2d_s16(#p, #input, #filter, #bias, #output); }
                })
            }
            Conv2dScheme::U8 { held, arms } => {
                let p = cx.params_lit(params_type::<U8>(&rt, path.clone(), true), &held.conv_2d_params());
                cx.per_target(&arms.cfgs(), |cx, i| {
                    let Arm { variant, packed, .. } = &arms.arms[i];
                    cx.window_call("conv_rows", &p, path.clone(), x, y, |cx, p, input, output| {
                        // The variant's row says what its call takes (`Wide`: the packed table
                        // holds the filter with its offset and the folded bias).
                        let row = variant.row();
                        variant_call(cx, row, &call, p, input, (self.filter, self.bias), packed, output)
                    })
                })
            }
            Conv2dScheme::F32 { held, arms, half } => {
                let p = cx.params_lit(params_type::<F32>(&rt, path.clone(), true), &held.conv_2d_params());
                cx.per_target(&arms.cfgs(), |cx, i| {
                    let Arm { variant, packed, .. } = &arms.arms[i];
                    cx.window_call("conv_rows", &p, path.clone(), x, y, |cx, p, input, output| {
                        if let (Some(half), false) = (half, *variant == Conv2dF32Variant::Packed) {
                            // Float16 kept in flash, widened as the kernel reads it: the
                            // blocked loop nest from the halves packed in its layout, or the
                            // reference on the model's layout.
                            let bias = cx.optional_input(self.bias);
                            if *variant == Conv2dF32Variant::Blocked {
                                let [out_d, f_h, f_w, f_d] = held.geometry.filter_shape;
                                let taps = f_h * f_w * f_d;
                                let mut packed = vec![0u16; blocked_f32::packed_len(out_d, taps)];
                                blocked_f32::pack(out_d, taps, half, &mut packed);
                                let packed = cx.table_u16("packed_f16", &packed);
                                return quote! { #call::conv_2d_f32_f16w_blocked(#p, #input, #packed, #bias, #output); };
                            }
                            let filter = cx.table_u16("filter_f16", half);
                            return quote! { #call::conv_2d_f32_f16w(#p, #input, #filter, #bias, #output); };
                        }
                        // The variant's row says what its call takes (`Blocked`: the filter
                        // in blocks of four channels; `Packed`: the filter and the bias).
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
        // The Gemm form of an int4 filter decodes in registers as it goes: it overlaps as the
        // int8 `Gemm` variants do.
        if matches!(&self.scheme, Conv2dScheme::S8 { lut: Some(_), .. } | Conv2dScheme::S8 { int4: Some(_), int4_form: Conv2dInt4::Rows, .. }) {
            return Vec::new();
        }
        let (g, elem) = match &self.scheme {
            Conv2dScheme::S8 { held, .. } => (held.geometry, 1),
            Conv2dScheme::S16 { held } => (held.geometry, 2),
            Conv2dScheme::U8 { held, .. } => (held.geometry, 1),
            Conv2dScheme::F32 { held, .. } => (held.geometry, 4),
        };
        super::window_overlap(tflc_runtime::kernels::overlap::Rows::conv_2d(&g), elem)
    }
}

/// The input and weights in the store have the lowered shapes' element counts.
fn check_lengths(g: &ConvGeometry, input: usize, filter: usize) -> Result<(), ExecError> {
    let (ni, nf) = (g.input_shape.iter().product::<usize>(), g.filter_shape.iter().product::<usize>());
    if input != ni || filter != nf {
        return Err(ExecError(format!("CONV_2D: input has {input} and weights {filter} elements, expected {ni} and {nf}")));
    }
    Ok(())
}
