//! SOFTMAX, int8 in and int8 or int16 out, over the last dimension.
//!
//! Mirrors TFLite Micro `softmax_common.cc` (`CalculateSoftmaxParams`): an int8 output must
//! be quantized with scale exactly 1/256 and zero point -128, an int16 output with zero
//! point -32768 and a scale within 0.001/65536 of 1/65536 (`TF_LITE_ENSURE_NEAR`); `input_multiplier`,
//! `input_left_shift` from `PreprocessSoftmaxScaling(beta, input_scale, 5)` and `diff_min`
//! from `CalculateInputRadius` ([`tflc_runtime::prepare::softmax_s8`]). The input's zero
//! point cancels out (the kernel works on differences from the row maximum).
//!
//! int16 in and out (TFLite Micro's `SoftmaxInt16`): zero points 0, an output scale within
//! 0.001/32768 of 1/32768, `QuantizeMultiplier(input_scale * beta / (10 / 65535))`, and the
//! two 513-entry tables of `InitializeLutForInt16` (`exp` on [-10, 0] and `1/(1+x)` on
//! [0, 1]), computed here with TFLite's `LUTPopulateInt16<float>` arithmetic ([`lut_i16`])
//! and emitted as constant arrays in the params.
//!
//! float32 in and out: `reference_ops::Softmax` with the option's `beta`.

use super::unary::{lower_unary, output_q_error, Unary};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, Tensor};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::softmax::{softmax_u8, softmax_f32, softmax_s16, softmax_s8, softmax_s8_s16, SoftmaxF32Params, SoftmaxParams, SoftmaxS16Params};

crate::runtime_struct_lit!(kernels::softmax::SoftmaxParams { depth, input_multiplier, input_left_shift, diff_min });
crate::runtime_struct_lit!(kernels::softmax::SoftmaxF32Params { depth, beta });
crate::runtime_struct_lit!(kernels::softmax::SoftmaxS16Params<'a> { depth, input_multiplier, input_left_shift, exp_lut, one_over_one_plus_x_lut });

#[derive(Debug, Clone)]
pub struct Softmax {
    pub un: Unary,
    pub kind: SoftmaxKind,
}

/// The element types, with the compile-time parameters.
#[derive(Debug, Clone)]
pub enum SoftmaxKind {
    /// int8 in and out (`Softmax<int8_t, int8_t>`).
    S8(SoftmaxParams),
    /// int8 in, int16 out (`Softmax<int8_t, int16_t>`).
    S8S16(SoftmaxParams),
    /// int16 in and out (`SoftmaxInt16`).
    S16(Int16Softmax),
    /// float32 in and out.
    F32(SoftmaxF32Params),
    /// Legacy uint8 in and out (`Softmax<uint8_t, uint8_t>`: the int8 parameters).
    U8(SoftmaxParams),
}

/// The int16 form's parameters, owning the tables its `SoftmaxS16Params` borrows
/// ([`Self::params`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Int16Softmax {
    pub depth: usize,
    pub input_multiplier: i32,
    pub input_left_shift: i32,
    pub exp_lut: Vec<i16>,
    pub one_over_one_plus_x_lut: Vec<i16>,
}

impl Int16Softmax {
    pub fn params(&self) -> SoftmaxS16Params<'_> {
        SoftmaxS16Params {
            depth: self.depth,
            input_multiplier: self.input_multiplier,
            input_left_shift: self.input_left_shift,
            exp_lut: &self.exp_lut,
            one_over_one_plus_x_lut: &self.one_over_one_plus_x_lut,
        }
    }
}

/// TFLite `LUTPopulateInt16<float>` (`common.h`): 512 samples of `f` over the input range
/// of an int16 quantization, each biased by half the midpoint interpolation error, plus the
/// last value. All arithmetic in `f32`, rounding half away from zero, as in C++.
pub fn lut_i16(input_scale: f32, input_zero_point: i32, output_scale: f32, output_zero_point: i32, f: fn(f32) -> f32) -> Vec<i16> {
    let input_min = input_scale * (-32768 - input_zero_point) as f32;
    let input_max = input_scale * (32767 - input_zero_point) as f32;
    let output_min = output_scale * (-32768 - output_zero_point) as f32;
    let output_max = output_scale * (32767 - output_zero_point) as f32;
    let nb_steps = 512;
    let step = (input_max - input_min) / nb_steps as f32;
    let half_step = step / 2.0;
    let inv = 65536.0f32 / (output_max - output_min);
    let clamp = |v: f32| v.clamp(-32768.0, 32767.0) as i16;
    let mut lut = Vec::with_capacity(nb_steps + 1);
    for i in 0..nb_steps {
        let val = f(input_min + i as f32 * step);
        let val_midpoint = f(input_min + i as f32 * step + half_step);
        let val_next = f(input_min + (i + 1) as f32 * step);
        let sample_val = (val * inv).round();
        let midpoint_interp_val = ((val_next * inv + (val * inv).round()) / 2.0).round();
        let midpoint_val = (val_midpoint * inv).round();
        let midpoint_err = midpoint_interp_val - midpoint_val;
        let bias = (midpoint_err / 2.0).round();
        lut.push(clamp(sample_val - bias));
    }
    lut.push(clamp((f(input_max) * inv).round()));
    lut
}

/// The last dimension (the one normalized), which must not be 0.
fn depth(cx: &OpCx<'_, '_>, input: &Tensor<'_>) -> Result<usize, LowerError> {
    match input.shape.last() {
        Some(&d) if d > 0 => Ok(d),
        _ => Err(cx.invalid_tensor(input, format!("input of shape {:?} has no last dimension to normalize", input.shape))),
    }
}

/// Whether `scale` is within `0.001 * want` of `want` (TFLite Micro's `TF_LITE_ENSURE_NEAR`).
fn near(scale: f32, want: f32) -> bool {
    let delta = if scale > want { scale - want } else { want - scale };
    delta <= 0.001f32 * want
}

fn lower_s16(cx: &OpCx<'_, '_>, input: &Tensor<'_>, output: &Tensor<'_>, beta: f32) -> Result<SoftmaxKind, LowerError> {
    let in_q = cx.q_s16(input)?;
    let out_q = cx.q_s16(output)?;
    if !near(out_q.scale, 1.0 / 32768.0) {
        return Err(cx.unsupported_tensor(output, format!("int16 SOFTMAX output scale {} (TFLite Micro requires 1/32768)", out_q.scale)));
    }
    let depth = depth(cx, input)?;
    let rescale = in_q.scale as f64 * beta as f64 / (10.0 / 65535.0);
    let (input_multiplier, input_left_shift) = tflc_runtime::prepare::quantize_multiplier(rescale)
        .ok_or_else(|| cx.invalid_tensor(input, format!("beta {beta} * input scale {} cannot be quantized", in_q.scale)))?;
    // InitializeLutForInt16: `range` is the int 65535, the scales are float divisions.
    let range = 65535.0f32;
    let exp_lut = lut_i16(10.0 / range, 32767, 2.0 / range, 0, |x| x.exp());
    let one_over_one_plus_x_lut = lut_i16(1.0 / range, -32768, 2.0 / range, 0, |x| 1.0 / (1.0 + x));
    Ok(SoftmaxKind::S16(Int16Softmax { depth, input_multiplier, input_left_shift, exp_lut, one_over_one_plus_x_lut }))
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, beta: f32) -> Result<Softmax, LowerError> {
    let (un, [input, output]) = lower_unary(cx, false)?;
    cx.expect_activation(input)?;
    if !beta.is_finite() || beta <= 0.0 {
        return Err(cx.invalid(format!("beta {beta} is not positive")));
    }
    if input.dtype == DType::I16 {
        return Ok(Softmax { un, kind: lower_s16(cx, input, output, beta)? });
    }
    if input.dtype == DType::F32 {
        cx.expect_dtype(output, DType::F32)?;
        return Ok(Softmax { un, kind: SoftmaxKind::F32(SoftmaxF32Params { depth: depth(cx, input)?, beta }) });
    }
    if input.dtype == DType::U8 {
        let in_q = super::conv_common::q_u8(cx, input)?;
        let out_q = super::conv_common::q_u8(cx, output)?;
        if out_q.zero_point != 0 || out_q.scale != 1.0 / 256.0 {
            return Err(output_q_error(cx, output, out_q, "uint8 SOFTMAX", "TFLite requires scale 1/256, zero point 0"));
        }
        let q = tflc_runtime::prepare::softmax_s8(in_q.scale, beta)
            .ok_or_else(|| cx.invalid_tensor(input, format!("beta {beta} * input scale {} cannot be quantized", in_q.scale)))?;
        let depth = depth(cx, input)?;
        let p = SoftmaxParams { depth, input_multiplier: q.input_multiplier, input_left_shift: q.input_left_shift, diff_min: q.diff_min };
        return Ok(Softmax { un, kind: SoftmaxKind::U8(p) });
    }
    let in_q = cx.q_s8(input)?;
    let output_i16 = output.dtype == DType::I16;
    if output_i16 {
        let out_q = cx.per_tensor_q(output)?;
        if out_q.zero_point != -32768 || !near(out_q.scale, 1.0 / 65536.0) {
            return Err(output_q_error(cx, output, out_q, "int16 SOFTMAX", "TFLite Micro requires scale 1/65536, zero point -32768"));
        }
    } else {
        let out_q = cx.q_s8(output)?;
        if out_q.zero_point != -128 || out_q.scale != 1.0 / 256.0 {
            return Err(output_q_error(cx, output, out_q, "int8 SOFTMAX", "TFLite Micro requires scale 1/256, zero point -128"));
        }
    }
    let depth = depth(cx, input)?;
    let q = tflc_runtime::prepare::softmax_s8(in_q.scale, beta)
        .ok_or_else(|| cx.invalid_tensor(input, format!("beta {beta} * input scale {} cannot be quantized", in_q.scale)))?;
    let p = SoftmaxParams { depth, input_multiplier: q.input_multiplier, input_left_shift: q.input_left_shift, diff_min: q.diff_min };
    Ok(Softmax { un, kind: if output_i16 { SoftmaxKind::S8S16(p) } else { SoftmaxKind::S8(p) } })
}

impl Kernel for Softmax {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match &self.kind {
            SoftmaxKind::S8(p) => self.un.run(s, |x, y| softmax_s8(p, x, y)),
            SoftmaxKind::S8S16(p) => self.un.run(s, |x, y| softmax_s8_s16(p, x, y)),
            SoftmaxKind::S16(t) => self.un.run(s, |x, y| softmax_s16(&t.params(), x, y)),
            SoftmaxKind::F32(p) => self.un.run(s, |x, y| softmax_f32(p, x, y)),
            SoftmaxKind::U8(p) => self.un.run(s, |x, y| softmax_u8(p, x, y)),
        }
    }

    /// No in-place variants (the kernel reads a row after writing into it).
    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let ty = quote! { kernels::softmax::SoftmaxParams };
        match &self.kind {
            SoftmaxKind::S8(p) => self.un.emit_with(cx, ty, ("softmax", "softmax_s8"), p),
            SoftmaxKind::S8S16(p) => self.un.emit_with(cx, ty, ("softmax", "softmax_s8_s16"), p),
            SoftmaxKind::U8(p) => self.un.emit_with(cx, ty, ("softmax", "softmax_u8"), p),
            SoftmaxKind::F32(p) => self.un.emit_with(cx, quote! { kernels::softmax::SoftmaxF32Params }, ("softmax", "softmax_f32"), p),
            SoftmaxKind::S16(t) => {
                self.un.emit_with(cx, quote! { kernels::softmax::SoftmaxS16Params<'static> }, ("softmax", "softmax_s16"), &t.params())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::ir::{OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    /// A single SOFTMAX on `shape`; output quantization `out_q` (TFLite's is 1/256, -128).
    fn build(shape: &[usize], in_q: (f32, i64), out_q: (f32, i64), beta: f32) -> (Vec<u8>, TensorId, TensorId) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, shape, Some(in_q));
        let y = b.activation("y", DType::I8, shape, Some(out_q));
        b.op(OpKind::Softmax { beta }, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    fn run(name: &str, shape: &[usize], in_q: (f32, i64), beta: f32, xv: Vec<i8>) -> Vec<i8> {
        let (bytes, x, y) = build(shape, in_q, (1.0 / 256.0, -128), beta);
        out_i8(&run_op0(name, &bytes, &[(x, TensorData::I8(xv))]), y)
    }

    // Expected outputs: the TFLite Micro interpreter (pip `tflite-micro`, reference
    // kernels) run once on the models and inputs these tests build, dumped with
    // `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc softmax`.

    #[test]
    fn rows_of_7_beta_1() {
        let want: &[i8] = &[
            41, -90, -127, -128, -123, -90, -122, -128, -128, -128, 108, -126, -110, -128, -128, 23, -60, -128, -94,
            -128, -124,
        ];
        assert_eq!(run("softmax_rows7", &[3, 7], (0.1, 3), 1.0, i8s(31, 21)), want);
    }

    #[test]
    fn rank3_beta_half() {
        let want: &[i8] = &[
            -128, 90, -90, -128, -128, -53, -128, -126, 51, -128, -125, 125, -128, -128, -128, -68, 56, -116, -128,
            -128,
        ];
        assert_eq!(
            run("softmax_rank3_beta_half", &[2, 2, 5], (0.25, 7), 0.5, i8s(32, 20)),
            want
        );
    }

    /// A coarse input scale: most differences fall below `diff_min` and give exactly 0.
    #[test]
    fn coarse_scale_hits_diff_min() {
        let want: &[i8] = &[
            -128, -128, 127, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, 121, -128, -128, -121, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        ];
        assert_eq!(run("softmax_coarse", &[2, 16], (0.9, -5), 1.0, i8s(33, 32)), want);
    }

    /// By hand: equal logits give 1/n each (n = 4: 64/256, stored as 64 - 128), a single
    /// element gives 1.0, which saturates at 127, and a logit far above the others takes
    /// everything.
    #[test]
    fn uniform_single_and_dominant_rows() {
        assert_eq!(
            run(
                "softmax_uniform",
                &[2, 4],
                (0.1, 0),
                1.0,
                vec![5, 5, 5, 5, -128, -128, -128, -128]
            ),
            vec![-64; 8]
        );
        assert_eq!(
            run("softmax_single", &[3, 1], (0.1, 0), 1.0, vec![-128, 0, 127]),
            vec![127; 3]
        );
        assert_eq!(
            run("softmax_dominant", &[1, 3], (0.5, 0), 1.0, vec![127, -128, -128]),
            vec![127, -128, -128]
        );
    }

    fn build_s16(shape: &[usize], in_q: (f32, i64), out_q: (f32, i64)) -> (Vec<u8>, TensorId, TensorId) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, shape, Some(in_q));
        let y = b.activation("y", DType::I16, shape, Some(out_q));
        b.op(OpKind::Softmax { beta: 1.0 }, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// int8 -> int16 (output scale 1/65536, zero point -32768); expected output from the
    /// TFLite Micro interpreter as above.
    #[test]
    fn int16_output_rows_of_7() {
        let (bytes, x, y) = build_s16(&[3, 7], (0.1, 3), (1.0 / 65536.0, -32768));
        let store = run_op0("softmax_s16_rows7", &bytes, &[(x, TensorData::I8(i8s(31, 21)))]);
        let want: &[i16] = &[
            10505, -23112, -32446, -32765, -31586, -23112, -31324, -32768, -32759, -32768, 27662, -32161, -28280, -32767,
            -32768, 5788, -15444, -32768, -24165, -32768, -31715,
        ];
        assert_eq!(store.i16(y).expect("int16 output"), want);
    }

    #[test]
    fn int16_output_quantization_is_checked() {
        for out_q in [(1.0 / 65536.0, 0), (1.0 / 32768.0, -32768)] {
            let (bytes, ..) = build_s16(&[1, 4], (0.1, 0), out_q);
            let e = lower_op0(&bytes).expect_err("output quantization");
            assert!(matches!(e, LowerError::Unsupported { .. }), "{e}");
        }
        // Within TF_LITE_ENSURE_NEAR's 0.001/65536 of 1/65536: accepted.
        let (bytes, ..) = build_s16(&[1, 4], (0.1, 0), (1.0 / 65536.0 * 1.0005, -32768));
        assert!(lower_op0(&bytes).is_ok());
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, ..) = build(&[1, 10], (0.0625, 0), (1.0 / 256.0, -128), 1.0);
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        let bad_out = [(1.0 / 128.0, -128), (1.0 / 256.0, 0)];
        for out_q in bad_out {
            let (bytes, ..) = build(&[1, 10], (0.1, 0), out_q, 1.0);
            let e = lower_op0(&bytes).expect_err("output quantization");
            assert!(matches!(e, LowerError::Unsupported { .. }), "{e}");
        }
        let (bytes, ..) = build(&[1, 10], (0.1, 0), (1.0 / 256.0, -128), 0.0);
        assert!(matches!(lower_op0(&bytes), Err(LowerError::Invalid { .. })), "beta 0");

        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[2, 5], Some((0.1, 0)));
        let y = b.activation("y", DType::I8, &[5, 2], Some((1.0 / 256.0, -128)));
        b.op(OpKind::Softmax { beta: 1.0 }, &[Some(x)], &[y]);
        let e = lower_op0(&b.finish()).expect_err("output shape");
        assert!(matches!(e, LowerError::Invalid { .. }), "{e}");

        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I16, &[2, 5], Some((0.1, 0)));
        // int16 output scale must be 1/32768.
        let y = b.activation("y", DType::I16, &[2, 5], Some((1.0 / 65536.0, 0)));
        b.op(OpKind::Softmax { beta: 1.0 }, &[Some(x)], &[y]);
        let e = lower_op0(&b.finish()).expect_err("int16 output scale");
        assert!(matches!(e, LowerError::Unsupported { .. }), "{e}");

        let mut b = ModelBuilder::new();
        let y = b.activation("y", DType::I8, &[2, 5], Some((1.0 / 256.0, -128)));
        b.op(OpKind::Softmax { beta: 1.0 }, &[None], &[y]);
        let e = lower_op0(&b.finish()).expect_err("missing input");
        assert!(e.to_string().contains("SOFTMAX"), "{e}");
    }
}
