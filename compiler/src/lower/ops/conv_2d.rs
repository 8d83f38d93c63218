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
use super::conv_family::{channel_multipliers, packed_table, per_target_int4, run_scheme, run_variant, Kept, Window, WithoutMultipliers};
use super::decode::{emit_lut, kept_lut, LutFilter, LutLayout};
use super::int4::{emit_int4, kept_int4, Int4Filter};
use tflc_runtime::kernels::int4::Conv2dInt4;
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use tflc_runtime::kernels::conv_2d::{conv_2d_s16, Conv2dF32Variant, Conv2dU8Variant, Conv2dVariant, ConvGeometry};
use tflc_runtime::kernels::blocked_f32;
use tflc_runtime::kernels::numerics::{F32, S16, S8, U8};

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
    let op = |scheme| Conv2d { input: input.id, filter: filter.id, bias: bias.map(|b| b.id), output: output.id, scheme };
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
            |variant| packed_table(variant.packed_len(&geometry), |t| variant.pack(&params, &weights, bias_data.as_deref(), t)),
        );
        let half = cx.half_weights(filter);
        return Ok(op(Conv2dScheme::F32 { held, arms, half }));
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
            |variant| packed_table(variant.packed_len(&geometry), |t| variant.pack(&params, weights, bias_data.as_deref(), t)),
        );
        return Ok(op(Conv2dScheme::U8 { held, arms }));
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
    let (output_multiplier, output_shift) = channel_multipliers(cx, filter, &fq.scale, out_d, [in_q, out_q], "channel")?;

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
                |variant| packed_table(variant.packed_len(&geometry), |t| variant.pack(&params, &weights, bias_data.as_deref(), t)),
            );
            let lut = kept_lut(cx, filter, out_d, LutLayout::Rows);
            let int4 = kept_int4(cx, filter, out_d, LutLayout::Rows);
            let int4_form = if int4.is_some() { Conv2dInt4::select(&params, &weights, bias_data.as_deref()) } else { Conv2dInt4::Rows };
            let int4_packed = packed_table(int4_form.packed_len(&geometry), |t| int4_form.pack(&params, &weights, bias_data.as_deref(), t));
            Conv2dScheme::S8 { held, arms, lut, int4, int4_form, int4_packed }
        }
        SchemeKind::S16 => {
            bias_i64(cx, bias, out_d)?;
            let quant = quant_s16(cx, output, output_multiplier, output_shift)?;
            Conv2dScheme::S16 { held: ConvHeld { geometry, quant, clamp: clamp_s16(cx, o.activation, out_q)? } }
        }
        SchemeKind::F32 | SchemeKind::U8 => unreachable!("float32 and uint8 returned above"),
    };
    Ok(op(scheme))
}

impl Conv2dScheme {
    /// The filters this scheme keeps compact in flash.
    fn kept(&self) -> Kept<'_> {
        match self {
            Conv2dScheme::S8 { lut, int4, .. } => Kept { lut: lut.as_ref(), int4: int4.as_ref() },
            _ => Kept::default(),
        }
    }
}

impl Kernel for Conv2d {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        const OP: &str = "CONV_2D";
        let tensors = (self.input, self.filter, self.bias, self.output);
        // The output's element count; the input's and the weights' in the lowered shapes.
        let counts = |g: &ConvGeometry| (g.output_shape.iter().product(), [g.input_shape.iter().product(), g.filter_shape.iter().product()]);
        match &self.scheme {
            Conv2dScheme::S8 { held, arms, int4_form, int4_packed, .. } => {
                let p = &held.conv_2d_params();
                run_variant::<i8, i8, i32, _, _>(s, OP, tensors, counts(&p.geometry), arms, |variant, o, out| {
                    variant.run(p, o, out);
                    self.scheme.kept().check(
                        OP,
                        out,
                        |lut, kept| tflc_runtime::kernels::lut::conv_2d_s8_lut(p, o.input, lut, o.bias, kept),
                        |int4, kept| int4_form.run(p, o.input, int4, o.bias, int4_packed, kept),
                    )
                })
            }
            Conv2dScheme::S16 { held } => {
                let p = &held.conv_2d_params();
                run_scheme::<i16, i8, i64>(s, OP, tensors, counts(&p.geometry), |input, filter, bias, out| {
                    conv_2d_s16(p, input, filter, bias, out);
                    Ok(())
                })
            }
            Conv2dScheme::U8 { held, arms } => {
                let p = &held.conv_2d_params();
                run_variant::<u8, u8, i32, _, _>(s, OP, tensors, counts(&p.geometry), arms, |variant, o, out| { variant.run(p, o, out); Ok(()) })
            }
            Conv2dScheme::F32 { held, arms, .. } => {
                let p = &held.conv_2d_params();
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
        let path = quote! { kernels::conv_2d::Conv2dParams };
        let call = quote! { #rt::kernels::conv_2d };
        let (x, y) = (self.input, self.output);
        let window = Window { driver: "conv_rows", path: path.clone(), input: x, bias: self.bias, output: y };
        match &self.scheme {
            Conv2dScheme::S8 { held, lut: Some(lut), .. } => {
                // LUT-compressed filter, decoded an output channel at a time by the kernel.
                window.kept_call(cx, &held.conv_2d_params(), quote! { lut::conv_2d_s8_lut }, |cx| emit_lut(cx, lut))
            }
            Conv2dScheme::S8 { held, arms, lut: None, int4, int4_form, int4_packed } => {
                // An int4 filter kept packed: the microcontroller builds' own arm.
                per_target_int4(cx, arms, int4.as_ref(), |cx, int4| {
                    let f = int4_form.function();
                    if *int4_form != Conv2dInt4::Rows {
                        // The Gemm drivers on nibble words: the packed table replaces the
                        // filter, the bias and the multiplier tables.
                        return window.packed_int4_call(cx, &held.conv_2d_params().without_multipliers(), f, int4_packed);
                    }
                    let f = format_ident!("{}", f);
                    window.kept_call(cx, &held.conv_2d_params(), quote! { int4::#f }, |cx| emit_int4(cx, int4))
                }, |cx, Arm { variant, packed, .. }| {
                    // The variant's row says what its call takes; a variant whose packed table
                    // holds the requantization constants does not read the params' multiplier
                    // tables, which are then not emitted.
                    let row = variant.row();
                    let params = if row.packed_requant { held.conv_2d_params().without_multipliers() } else { held.conv_2d_params() };
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
