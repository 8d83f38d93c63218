//! FULLY_CONNECTED, int8 activations, int8 weights (per-tensor or per-channel), optional
//! int32 bias; and 16x8: int16 activations (zero point 0), int8 weights, int64 bias
//! (TFLite Micro's 64-bit-accumulator path; an int32 bias on int16 is refused); and
//! float32 (float32 weights and bias, `reference_ops::FullyConnected`; int8 weights on
//! float activations, a hybrid model, get an error that says how to convert it).
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

use super::conv_common::{check_int4_filter, bias_f32, bias_i64, clamp_f32, clamp_s16, clamp_s8, pack_inputs_s8, params_type, quant_s16, quant_s8, weights_f32, HeldNumerics, SchemeKind};
use super::target::{variant_call, Arm, PerTarget};
use super::conv_family::{channel_multipliers, packed_table, per_target_int4, run_scheme, run_variant, Kept};
use super::decode::{emit_lut, kept_lut, LutFilter, LutLayout};
use super::int4::{emit_int4, kept_int4, Int4Filter};
use tflc_runtime::kernels::int4::FullyConnectedInt4;
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use tflc_runtime::kernels::fully_connected::{FullyConnectedF32Variant, fully_connected_s16,
    FullyConnectedGeometry, FullyConnectedParams, FullyConnectedVariant,
};
use tflc_runtime::kernels::blocked_f32;
use tflc_runtime::kernels::numerics::{Clamp, F32, S16, S8};
use tflc_runtime::prepare::fully_connected_tensor_multiplier;

#[derive(Debug, Clone, PartialEq)]
pub struct FullyConnected {
    pub input: TensorId,
    pub filter: TensorId,
    pub bias: Option<TensorId>,
    pub output: TensorId,
    pub scheme: FullyConnectedScheme,
}

/// The runtime parameters per quantization scheme.
#[derive(Debug, Clone, PartialEq)]
pub enum FullyConnectedScheme {
    /// int8: the variant selected for the weights per target class and its packed table
    /// ([`FullyConnectedVariant::pack`]; empty for the reference variant). `lut`: the
    /// weights kept LUT-compressed in flash ([`super::decode::kept_lut`]), which every
    /// target's call then reads (`fully_connected_s8_lut`) instead of the variant. `int4`:
    /// the int4 weights kept packed ([`super::int4::kept_int4`]), which the microcontroller
    /// builds' call reads (`fully_connected_s8_int4`) instead of the variant; hosts keep theirs.
    /// `int4_form`: how those calls read it (`FullyConnectedInt4::select`: `Interleaved`'s
    /// blocks on nibble words where the microcontroller builds take `Interleaved`, with
    /// `int4_packed` from `FullyConnectedInt4::pack`; else the nibbles as rows).
    S8 { held: FullyConnectedHeld<S8>, arms: PerTarget<FullyConnectedVariant>, lut: Option<LutFilter>, int4: Option<Int4Filter>, int4_form: FullyConnectedInt4, int4_packed: Vec<i32> },
    /// 16x8: the reference kernel.
    S16 { held: FullyConnectedHeld<S16> },
    /// float32: the variant per target class (the reference on Arm, the packed one on a
    /// host) and its packed table. `half`: the weights' float16 source kept in flash
    /// (`keep_f16_weights`), read by the reference calls (`fully_connected_f32_f16w`).
    F32 { held: FullyConnectedHeld<F32>, arms: PerTarget<FullyConnectedF32Variant, f32>, half: Option<Vec<u16>> },
}

/// What [`FullyConnectedParams`] is built from, owned: its fields, with the quantization's
/// tables.
#[derive(Debug, Clone, PartialEq)]
pub struct FullyConnectedHeld<N: HeldNumerics> {
    pub geometry: FullyConnectedGeometry,
    pub weights_offset: i32,
    pub quant: N::HeldQuant,
    pub clamp: Clamp<N::Act>,
}

impl<N: HeldNumerics> FullyConnectedHeld<N> {
    /// The runtime params, borrowing this op's tables: what `execute` runs, `emit` spells
    /// and the variant is selected and packs with.
    pub fn params(&self) -> FullyConnectedParams<'_, N> {
        let FullyConnectedHeld { geometry, weights_offset, quant, clamp } = self;
        FullyConnectedParams { geometry: *geometry, weights_offset: *weights_offset, quant: N::quant(quant), clamp: *clamp }
    }
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &crate::ir::FullyConnectedOptions) -> Result<FullyConnected, LowerError> {
    cx.expect_arity(2..=3, 1)?;
    let input = cx.input(0)?;
    let filter = cx.input(1)?;
    let bias = cx.optional_input(2);
    let output = cx.output(0)?;
    let op = |scheme| FullyConnected { input: input.id, filter: filter.id, bias: bias.map(|b| b.id), output: output.id, scheme };
    if o.shuffled_weights {
        return Err(cx.unsupported("shuffled weights format"));
    }
    cx.expect_activation(input)?;
    let (kind, in_q, out_q) = SchemeKind::of(cx, input, output)?;
    check_int4_filter(cx, input, filter)?;

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
            format!(
                "input of shape {:?} is not a whole number of rows of depth {input_depth}",
                input.shape
            ),
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
            format!(
                "output shape {:?}, but the input and weights give {expected_out:?}",
                output.shape
            ),
        ));
    }

    let geometry = FullyConnectedGeometry { batches, input_depth, output_depth };
    if kind == SchemeKind::F32 {
        let weights = weights_f32(cx, filter, output_depth * input_depth)?;
        let bias_data = bias_f32(cx, bias, output_depth)?;
        let held = FullyConnectedHeld { geometry, weights_offset: 0, quant: (), clamp: clamp_f32(cx, o.activation)? };
        let params = held.params();
        let arms = PerTarget::select(
            |target| FullyConnectedF32Variant::select(&params, target),
            |variant| packed_table(variant.packed_len(&geometry), |t| variant.pack(&params, &weights, bias_data.as_deref(), t)),
        );
        return Ok(op(FullyConnectedScheme::F32 { held, arms, half: cx.half_weights(filter) }));
    }
    if kind == SchemeKind::U8 {
        return Err(cx.unsupported_tensor(input, "legacy uint8 FULLY_CONNECTED (tflc implements int8, 16x8 and float32)"));
    }
    cx.expect_dtype(filter, DType::I8)?;
    let filter_bytes = cx.expect_constant(filter)?;
    let fq = filter
        .quant
        .as_ref()
        .ok_or_else(|| cx.unsupported_tensor(filter, "weights are not quantized"))?;
    let per_channel = fq.scale.len() > 1;
    let (output_multiplier, output_shift, filter_offset) = if per_channel {
        // TFLite Micro: the scale count must equal the quantized dimension's size; the
        // kernel indexes the multipliers by unit, so that dimension is the units (axis 0).
        if fq.scale.len() != output_depth || fq.axis.unwrap_or(0) != 0 {
            return Err(cx.unsupported_tensor(
                filter,
                "weights quantization is neither per-tensor nor per unit (axis 0)",
            ));
        }
        let (mult, shift) = channel_multipliers(cx, filter, &fq.scale, output_depth, [in_q, out_q], "unit")?;
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
                return Err(cx.invalid_tensor(
                    b,
                    format!("bias scale {bias_scale} does not match input*weights scale {product}"),
                ));
            }
        }
        let (m, s) = fully_connected_tensor_multiplier(in_q.scale, fq1.scale, out_q.scale)
            .ok_or_else(|| cx.invalid_tensor(filter, "the effective scale cannot be quantized"))?;
        (vec![m], vec![s], -fq1.zero_point)
    };

    if filter_bytes.len() != output_depth * input_depth {
        return Err(cx.invalid_tensor(filter, format!("weights hold {} bytes for shape {:?}", filter_bytes.len(), filter.shape)));
    }
    let scheme = match kind {
        SchemeKind::S8 => {
            let (weights, bias_data) = pack_inputs_s8(cx, filter_bytes, bias, output_depth, "units")?;
            let quant = quant_s8(in_q, out_q, output_multiplier, output_shift);
            let held = FullyConnectedHeld { geometry, weights_offset: filter_offset, quant, clamp: clamp_s8(cx, o.activation, out_q)? };
            let params = held.params();
            let arms = PerTarget::select(
                |target| FullyConnectedVariant::select(&params, &weights, bias_data.as_deref(), target),
                |variant| packed_table(variant.packed_len(&geometry), |t| variant.pack(&params, &weights, bias_data.as_deref(), t)),
            );
            // The `_lut` kernel takes symmetric weights only (per-tensor weights with a zero
            // point are read decoded).
            let lut = if filter_offset == 0 { kept_lut(cx, filter, output_depth, LutLayout::Rows) } else { None };
            // The same for int4 weights kept packed (the same drivers).
            let int4 = if filter_offset == 0 { kept_int4(cx, filter, output_depth, LutLayout::Rows) } else { None };
            let int4_form = if int4.is_some() { FullyConnectedInt4::select(&params, &weights, bias_data.as_deref()) } else { FullyConnectedInt4::Rows };
            let int4_packed = packed_table(int4_form.packed_len(&geometry), |t| int4_form.pack(&params, &weights, bias_data.as_deref(), t));
            FullyConnectedScheme::S8 { held, arms, lut, int4, int4_form, int4_packed }
        }
        SchemeKind::S16 => {
            bias_i64(cx, bias, output_depth)?;
            let quant = quant_s16(cx, output, output_multiplier, output_shift)?;
            let clamp = clamp_s16(cx, o.activation, out_q)?;
            FullyConnectedScheme::S16 { held: FullyConnectedHeld { geometry, weights_offset: filter_offset, quant, clamp } }
        }
        SchemeKind::F32 | SchemeKind::U8 => unreachable!("float32 and uint8 returned above"),
    };
    Ok(op(scheme))
}

impl FullyConnectedScheme {
    /// The weights this scheme keeps compact in flash.
    fn kept(&self) -> Kept<'_> {
        match self {
            FullyConnectedScheme::S8 { lut, int4, .. } => Kept { lut: lut.as_ref(), int4: int4.as_ref() },
            _ => Kept::default(),
        }
    }
}

impl Kernel for FullyConnected {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        const OP: &str = "FULLY_CONNECTED";
        let tensors = (self.input, self.filter, self.bias, self.output);
        // The output's element count; the input's and the weights' in the lowered shapes.
        let counts = |g: &FullyConnectedGeometry| (g.batches * g.output_depth, [g.batches * g.input_depth, g.output_depth * g.input_depth]);
        match &self.scheme {
            FullyConnectedScheme::S8 { held, arms, int4_form, int4_packed, .. } => {
                let p = &held.params();
                run_variant::<i8, i8, i32, _, _>(s, OP, tensors, counts(&p.geometry), arms, |variant, o, out| {
                    variant.run(p, o, out);
                    self.scheme.kept().check(
                        OP,
                        out,
                        |lut, kept| tflc_runtime::kernels::lut::fully_connected_s8_lut(p, o.input, lut, o.bias, kept),
                        |int4, kept| int4_form.run(p, o.input, int4, o.bias, int4_packed, kept),
                    )
                })
            }
            FullyConnectedScheme::S16 { held } => {
                let p = &held.params();
                run_scheme::<i16, i8, i64>(s, OP, tensors, counts(&p.geometry), |input, filter, bias, out| {
                    fully_connected_s16(p, input, filter, bias, out);
                    Ok(())
                })
            }
            FullyConnectedScheme::F32 { held, arms, .. } => {
                let p = &held.params();
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
        let path = quote! { kernels::fully_connected::FullyConnectedParams };
        let call = quote! { #rt::kernels::fully_connected };
        match &self.scheme {
            FullyConnectedScheme::S8 { held, lut: Some(lut), .. } => {
                // LUT-compressed weights, decoded a unit at a time by the kernel.
                let p = cx.params_lit(params_type::<S8>(&rt, path, true), &held.params());
                let input = cx.input(self.input);
                let w = emit_lut(cx, lut);
                let bias = cx.optional_input(self.bias);
                let output = cx.output(self.output);
                quote! { #rt::kernels::lut::fully_connected_s8_lut(&#p, #input, #w, #bias, #output); }
            }
            FullyConnectedScheme::S8 { held, arms, lut: None, int4, int4_form, int4_packed } => {
                let p = cx.params_lit(params_type::<S8>(&rt, path, true), &held.params());
                // An int4 filter kept packed: the microcontroller builds' own arm.
                per_target_int4(cx, arms, int4.as_ref(), |cx, int4| {
                    let input = cx.input(self.input);
                    let f = format_ident!("{}", int4_form.function());
                    if *int4_form == FullyConnectedInt4::Interleaved {
                        // Blocks of four units on nibble words: the packed table replaces
                        // the weights and the bias.
                        let packed = cx.table_i32("packed", int4_packed);
                        let output = cx.output(self.output);
                        return quote! { #rt::kernels::int4::#f(&#p, #input, #packed, #output); };
                    }
                    let w = emit_int4(cx, int4);
                    let bias = cx.optional_input(self.bias);
                    let output = cx.output(self.output);
                    quote! { #rt::kernels::int4::#f(&#p, #input, #w, #bias, #output); }
                }, |cx, Arm { variant, packed, .. }| {
                    // The variant's row says what its call takes (Interleaved and Quad hold the
                    // weights in the packed table: the model's are not emitted for them).
                    let row = variant.row();
                    let input = cx.input(self.input);
                    let output = cx.output(self.output);
                    variant_call(cx, row, &call, quote! { &#p }, input, (self.filter, self.bias), packed, output)
                })
            }
            FullyConnectedScheme::S16 { held } => {
                let p = cx.params_lit(params_type::<S16>(&rt, path, true), &held.params());
                let input = cx.input(self.input);
                let filter = cx.input(self.filter);
                let bias = cx.optional_input(self.bias);
                let output = cx.output(self.output);
                quote! { #call::fully_connected_s16(&#p, #input, #filter, #bias, #output); }
            }
            FullyConnectedScheme::F32 { held, arms, half } => {
                let p = cx.params_lit(params_type::<F32>(&rt, path, true), &held.params());
                cx.per_target(&arms.cfgs(), |cx, i| {
                    let Arm { variant, packed, .. } = &arms.arms[i];
                    let input = cx.input(self.input);
                    if let (Some(half), false) = (half, *variant == FullyConnectedF32Variant::Packed) {
                        // Float16 kept in flash, widened as the kernel reads it: blocked from
                        // the halves packed in its layout, or the reference.
                        let bias = cx.optional_input(self.bias);
                        if *variant == FullyConnectedF32Variant::Blocked {
                            let g = &held.geometry;
                            let mut packed = vec![0u16; blocked_f32::packed_len(g.output_depth, g.input_depth)];
                            blocked_f32::pack(g.output_depth, g.input_depth, half, &mut packed);
                            let packed = cx.table_u16("packed_f16", &packed);
                            let output = cx.output(self.output);
                            return quote! { #call::fully_connected_f32_f16w_blocked(&#p, #input, #packed, #bias, #output); };
                        }
                        let filter = cx.table_u16("filter_f16", half);
                        let output = cx.output(self.output);
                        return quote! { #call::fully_connected_f32_f16w(&#p, #input, #filter, #bias, #output); };
                    }
                    // The variant's row says what its call takes (`Blocked`: the weights in
                    // blocks of four units; `Packed`: the weights and the bias).
                    let row = variant.row();
                    let output = cx.output(self.output);
                    variant_call(cx, row, &call, quote! { &#p }, input, (self.filter, self.bias), packed, output)
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::error::LowerError;
    use crate::ir::OpKind;
    use crate::ir::{Activation, FullyConnectedOptions};
    use crate::tflite::builder::ModelBuilder;

    /// The weights of a test model: per-tensor `(scale, zero_point)` or per-unit scales.
    enum W<'a> {
        PerTensor(f32, i64),
        PerUnit(&'a [f32]),
    }

    struct Fc<'a> {
        input: (&'a [usize], f32, i64),
        weights: (&'a [usize], W<'a>),
        bias: bool,
        output: (&'a [usize], f32, i64),
        options: FullyConnectedOptions,
    }

    /// Builds the single-op model; returns its bytes, the input, the output, and the input
    /// data (pseudo-random, full range).
    fn build(fc: &Fc<'_>, seed: u64) -> (Vec<u8>, TensorId, TensorId, Vec<i8>) {
        let mut b = ModelBuilder::new();
        let (ishape, is, iz) = fc.input;
        let x = b.activation("x", DType::I8, ishape, Some((is, iz)));
        let (wshape, wq) = &fc.weights;
        let wv: Vec<i8> = i8s(seed + 1, wshape.iter().product())
            .into_iter()
            .map(|v| v.max(-127))
            .collect();
        let units = wshape.first().copied().unwrap_or(0);
        let (w, bias_scales) = match wq {
            W::PerTensor(s, z) => (b.constant_i8("w", wshape, &wv, Some((*s, *z))), vec![is * s]),
            W::PerUnit(ss) => (
                b.constant_i8_per_axis("w", wshape, &wv, ss, 0),
                ss.iter().map(|s| is * s).collect(),
            ),
        };
        let bias = fc.bias.then(|| {
            let bv: Vec<i32> = (0..units as i32).map(|u| (u * 7919 % 4001) - 2000).collect();
            if bias_scales.len() == 1 {
                b.constant_i32("b", &[units], &bv, Some((bias_scales[0], 0)))
            } else {
                b.constant_i32_per_axis("b", &[units], &bv, &bias_scales)
            }
        });
        let (oshape, os, oz) = fc.output;
        let y = b.activation("y", DType::I8, oshape, Some((os, oz)));
        b.op(
            OpKind::FullyConnected(fc.options.clone()),
            &[Some(x), Some(w), bias],
            &[y],
        );
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y, i8s(seed, ishape.iter().product()))
    }

    fn run(name: &str, fc: &Fc<'_>, seed: u64) -> Vec<i8> {
        let (bytes, x, y, xv) = build(fc, seed);
        out_i8(&run_op0(name, &bytes, &[(x, TensorData::I8(xv))]), y)
    }

    fn lower_err(fc: &Fc<'_>) -> LowerError {
        let (bytes, ..) = build(fc, 1);
        lower_op0(&bytes).expect_err("lowering must fail")
    }

    const RANK3_KEEP_DIMS: Fc<'static> = Fc {
        input: (&[2, 3, 5], 0.05, -3),
        weights: (&[4, 5], W::PerTensor(0.02, 0)),
        bias: false,
        output: (&[2, 3, 4], 0.03, 2),
        options: FullyConnectedOptions {
            activation: Activation::None,
            shuffled_weights: false,
            keep_num_dims: true,
            asymmetric_quantize_inputs: false,
        },
    };

    const PER_UNIT_RELU6: Fc<'static> = Fc {
        input: (&[1, 7], 0.1, 5),
        weights: (&[3, 7], W::PerUnit(&[0.01, 0.03, 0.002])),
        bias: true,
        output: (&[1, 3], 0.05, -128),
        options: FullyConnectedOptions {
            activation: Activation::Relu6,
            shuffled_weights: false,
            keep_num_dims: false,
            asymmetric_quantize_inputs: false,
        },
    };

    const FLATTENED: Fc<'static> = Fc {
        input: (&[2, 2, 6], 0.07, 11),
        weights: (&[5, 6], W::PerTensor(0.011, 0)),
        bias: true,
        output: (&[4, 5], 0.09, -7),
        options: FullyConnectedOptions {
            activation: Activation::Relu,
            shuffled_weights: false,
            keep_num_dims: false,
            asymmetric_quantize_inputs: false,
        },
    };

    // Expected outputs: the TFLite Micro interpreter (pip `tflite-micro`, reference
    // kernels) run once on the models and inputs these tests build, dumped with
    // `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc fully_connected`.

    #[test]
    fn keep_num_dims_rank3_per_tensor_no_bias() {
        let want: &[i8] = &[
            127, 22, 127, -128, -128, -128, -13, 127, -128, 16, -128, 21, -17, 127, 78, 44, -128, 127, -18, -128, 127,
            127, 127, -128,
        ];
        assert_eq!(run("fc_rank3_keep_dims", &RANK3_KEEP_DIMS, 11), want);
    }

    #[test]
    fn per_unit_weights_odd_units_bias_relu6() {
        let want: &[i8] = &[-128, -8, -80];
        assert_eq!(run("fc_per_unit_relu6", &PER_UNIT_RELU6, 12), want);
    }

    #[test]
    fn leading_dims_flatten_into_batches() {
        let want: &[i8] = &[
            -7, -6, 52, -7, -7, -7, -2, 38, -7, -7, 15, 127, -7, 63, -7, -7, 95, -7, 89, -7,
        ];
        assert_eq!(run("fc_flattened", &FLATTENED, 13), want);
    }

    /// Saturation on both sides, hand-checked: every weight and input at the extreme makes
    /// the accumulator far beyond the int8 range.
    #[test]
    fn saturates_at_both_ends() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[2, 3], Some((0.5, 0)));
        let w = b.constant_i8("w", &[2, 3], &[127, 127, 127, -127, -127, -127], Some((0.5, 0)));
        let y = b.activation("y", DType::I8, &[2, 2], Some((0.25, 0)));
        b.op(
            OpKind::FullyConnected(FullyConnectedOptions::default()),
            &[Some(x), Some(w), None],
            &[y],
        );
        b.inputs(&[x]).outputs(&[y]);
        let bytes = b.finish();
        let store = run_op0(
            "fc_saturate",
            &bytes,
            &[(x, TensorData::I8(vec![127, 127, 127, 1, 0, -1]))],
        );
        // Row 0: +/- 127*127*3 * (0.5*0.5/0.25) saturates; row 1: 127 - 127 = 0.
        assert_eq!(out_i8(&store, y), vec![127, -128, 0, 0]);
    }

    /// Per-tensor weights with a non-zero zero point: TFLite Micro's per-tensor kernel
    /// applies `weights_offset`; checked by hand with exact (power-of-two) scales.
    #[test]
    fn per_tensor_weights_zero_point_is_applied() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[1, 2], Some((1.0, -1)));
        let w = b.constant_i8("w", &[1, 2], &[3, 5], Some((1.0, 2)));
        let bias = b.constant_i32("b", &[1], &[-4], Some((1.0, 0)));
        let y = b.activation("y", DType::I8, &[1, 1], Some((1.0, 6)));
        b.op(
            OpKind::FullyConnected(FullyConnectedOptions::default()),
            &[Some(x), Some(w), Some(bias)],
            &[y],
        );
        b.inputs(&[x]).outputs(&[y]);
        let bytes = b.finish();
        let store = run_op0("fc_weights_zp", &bytes, &[(x, TensorData::I8(vec![2, 4]))]);
        // (3-2)*(2+1) + (5-2)*(4+1) - 4 + 6 = 3 + 15 - 4 + 6 = 20.
        assert_eq!(out_i8(&store, y), vec![20]);
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, ..) = build(&PER_UNIT_RELU6, 12);
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    /// A hybrid (dynamic-range quantized) model: float32 activations, int8 weights. One
    /// error, naming the op and the weights, saying how to convert the model.
    #[test]
    fn hybrid_int8_weights_on_float_activations_say_how_to_convert() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::F32, &[1, 4], None);
        let w = b.constant_i8("w", &[3, 4], &[1; 12], Some((0.5, 0)));
        let y = b.activation("y", DType::F32, &[1, 3], None);
        b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(w), None], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        let e = lower_op0(&b.finish()).unwrap_err();
        let text = e.to_string();
        assert!(matches!(e, LowerError::Unsupported { .. }), "{text}");
        assert!(text.contains("op 0") && text.contains("FULLY_CONNECTED") && text.contains("\"w\""), "{text}");
        assert!(text.contains("hybrid") && text.contains("full-integer quantization") && text.contains("TFLITE_BUILTINS_INT8"), "{text}");
    }

    #[test]
    fn malformed_models_are_errors() {
        let is_invalid = |e: &LowerError| matches!(e, LowerError::Invalid { .. });
        let is_unsupported = |e: &LowerError| matches!(e, LowerError::Unsupported { .. });

        // Output shape not what keep_num_dims gives, nor what flattening gives.
        let e = lower_err(&Fc {
            output: (&[6, 4], 0.03, 2),
            ..RANK3_KEEP_DIMS
        });
        assert!(is_invalid(&e), "{e}");
        let e = lower_err(&Fc {
            output: (&[1, 4, 5], 0.09, -7),
            ..FLATTENED
        });
        assert!(is_invalid(&e), "{e}");
        // Input not a whole number of rows.
        let e = lower_err(&Fc {
            input: (&[1, 8], 0.1, 5),
            ..PER_UNIT_RELU6
        });
        assert!(is_invalid(&e), "{e}");
        // Scales along the depth (axis 1) instead of the units.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[1, 3], Some((0.1, 0)));
        let w = b.constant_i8_per_axis("w", &[2, 3], &[1; 6], &[0.1, 0.2, 0.3], 1);
        let y = b.activation("y", DType::I8, &[1, 2], Some((0.1, 0)));
        b.op(
            OpKind::FullyConnected(FullyConnectedOptions::default()),
            &[Some(x), Some(w)],
            &[y],
        );
        let e = lower_op0(&b.finish()).expect_err("scales along axis 1");
        assert!(is_unsupported(&e), "{e}");
        // Shuffled weights.
        let opts = FullyConnectedOptions {
            shuffled_weights: true,
            ..FullyConnectedOptions::default()
        };
        let e = lower_err(&Fc {
            options: opts,
            ..FLATTENED
        });
        assert!(is_unsupported(&e), "{e}");

        // Hand-built variants: wrong dtype, missing weights, non-constant weights, bias of
        // the wrong length, weights of rank 3.
        type Make = Box<dyn Fn(&mut ModelBuilder) -> (Vec<Option<TensorId>>, TensorId)>;
        let variants: Vec<(&str, Make, bool)> = vec![
            (
                "int16 input with an int32 bias",
                Box::new(|b| {
                    let x = b.activation("x", DType::I16, &[1, 4], Some((0.1, 0)));
                    let w = b.constant_i8("w", &[2, 4], &[1; 8], Some((0.1, 0)));
                    let bias = b.constant_i32("b", &[2], &[1, 2], Some((0.01, 0)));
                    let y = b.activation("y", DType::I16, &[1, 2], Some((0.1, 0)));
                    (vec![Some(x), Some(w), Some(bias)], y)
                }),
                false,
            ),
            (
                "missing weights",
                Box::new(|b| {
                    let x = b.activation("x", DType::I8, &[1, 4], Some((0.1, 0)));
                    let y = b.activation("y", DType::I8, &[1, 2], Some((0.1, 0)));
                    (vec![Some(x), None], y)
                }),
                true,
            ),
            (
                "non-constant weights",
                Box::new(|b| {
                    let x = b.activation("x", DType::I8, &[1, 4], Some((0.1, 0)));
                    let w = b.activation("w", DType::I8, &[2, 4], Some((0.1, 0)));
                    let y = b.activation("y", DType::I8, &[1, 2], Some((0.1, 0)));
                    (vec![Some(x), Some(w)], y)
                }),
                false,
            ),
            (
                "bias of the wrong length",
                Box::new(|b| {
                    let x = b.activation("x", DType::I8, &[1, 4], Some((0.1, 0)));
                    let w = b.constant_i8("w", &[2, 4], &[1; 8], Some((0.1, 0)));
                    let bias = b.constant_i32("b", &[3], &[1, 2, 3], Some((0.01, 0)));
                    let y = b.activation("y", DType::I8, &[1, 2], Some((0.1, 0)));
                    (vec![Some(x), Some(w), Some(bias)], y)
                }),
                true,
            ),
            (
                "bias scale far from input*weights",
                Box::new(|b| {
                    let x = b.activation("x", DType::I8, &[1, 4], Some((0.1, 0)));
                    let w = b.constant_i8("w", &[2, 4], &[1; 8], Some((0.1, 0)));
                    let bias = b.constant_i32("b", &[2], &[1, 2], Some((0.5, 0)));
                    let y = b.activation("y", DType::I8, &[1, 2], Some((0.1, 0)));
                    (vec![Some(x), Some(w), Some(bias)], y)
                }),
                true,
            ),
            (
                "weights of rank 3",
                Box::new(|b| {
                    let x = b.activation("x", DType::I8, &[1, 4], Some((0.1, 0)));
                    let w = b.constant_i8("w", &[2, 2, 2], &[1; 8], Some((0.1, 0)));
                    let y = b.activation("y", DType::I8, &[1, 2], Some((0.1, 0)));
                    (vec![Some(x), Some(w)], y)
                }),
                false,
            ),
        ];
        for (what, make, invalid) in variants {
            let mut b = ModelBuilder::new();
            let (inputs, y) = make(&mut b);
            b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &inputs, &[y]);
            let bytes = b.finish();
            let e = lower_op0(&bytes).expect_err(what);
            assert_eq!(is_invalid(&e), invalid, "{what}: {e}");
            assert!(e.to_string().contains("FULLY_CONNECTED"), "{what}: {e}");
        }
    }
}
