//! RELU (and, through [`lower_relu_x`], RELU6 and RELU_N1_TO_1), int8, requantizing;
//! float32 RELU and RELU6 (TFLite Micro's `ReluFloat` / `Relu6Float`).
//!
//! Mirrors TFLite Micro `activations_common.cc` (`CalculateReluOpData`) and TFLite's
//! `QuantizedReluX`: `QuantizeMultiplier(double(s_in / s_out))` and the clamp bounds
//! `zp_out + round(bound / s_out)`, computed by the runtime's `prepare_relu*`. RELU6 follows
//! TFLite, which requantizes, not TFLite Micro, which clamps in the input's quantization
//! (see `../shared/ops/README.md`); both agree when input and output quantization are equal.
//! The elementwise checks and emission are the unary family's (`unary.rs`).

use super::unary::{lower_unary, lower_unary_s8, Unary};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::DType;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::relu::{prepare_relu, prepare_relu6, prepare_relu_n1_to_1, prepare_relu_x_s16, relu6_f32, relu_f32, relu_n1_to_1_f32, relu_s16, relu_s8, ReluParams};

crate::runtime_struct_lit!(kernels::relu::ReluParams {
    input_zero_point,
    output_zero_point,
    output_multiplier,
    output_shift,
    activation_min,
    activation_max,
});

/// Which clamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReluKind {
    Relu,
    Relu6,
    ReluN1To1,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Relu {
    pub kind: ReluKind,
    pub un: Unary,
    /// The int8 (or int16) parameters; `None` for float32 (RELU and RELU6 only).
    pub params: Option<ReluParams>,
    /// The params are the int16 form (`relu_s16`).
    pub int16: bool,
}

/// int16 RELU and RELU6 (TFLite Micro's `ReluQuantized<int16_t>` / `Relu6Quantized<int16_t>`):
/// zero points 0; RELU6 only with the output quantized as the input (TFLite Micro clamps in
/// the input's quantization, which is then exact); RELU_N1_TO_1, which TFLite Micro does not
/// have, is refused.
fn lower_relu_s16(cx: &OpCx<'_, '_>, kind: ReluKind) -> Result<Relu, LowerError> {
    let (un, [input, output]) = lower_unary(cx, true)?;
    let (qi, qo) = (cx.q_s16(input)?, cx.q_s16(output)?);
    let act_max = match kind {
        ReluKind::Relu => None,
        ReluKind::Relu6 if input.quant == output.quant => Some(6.0),
        ReluKind::Relu6 => return Err(cx.unsupported_tensor(output, "int16 RELU6 with an output quantization other than the input's (TFLite Micro clamps in the input's)")),
        ReluKind::ReluN1To1 => return Err(cx.unsupported_tensor(input, "int16 RELU_N1_TO_1 (TFLite Micro has no RELU_N1_TO_1)")),
    };
    let params = prepare_relu_x_s16(qi, qo, 0.0, act_max).ok_or_else(|| cx.invalid("the input/output scale ratio cannot be quantized"))?;
    Ok(Relu { kind, un, params: Some(params), int16: true })
}

/// RELU, RELU6 or RELU_N1_TO_1 (`kind`).
pub(crate) fn lower_relu_x(cx: &OpCx<'_, '_>, kind: ReluKind) -> Result<Relu, LowerError> {
    if let Ok(input) = cx.input(0) {
        if input.dtype == DType::F32 {
            // TFLite Micro's `ReluFloat` / `Relu6Float`, TFLite's `Relu1`: no parameters.
            let (un, _) = lower_unary(cx, true)?;
            return Ok(Relu { kind, un, params: None, int16: false });
        }
        if input.dtype == DType::I16 {
            return lower_relu_s16(cx, kind);
        }
    }
    let (un, _, [qi, qo]) = lower_unary_s8(cx)?;
    let prepare = match kind {
        ReluKind::Relu => prepare_relu,
        ReluKind::Relu6 => prepare_relu6,
        ReluKind::ReluN1To1 => prepare_relu_n1_to_1,
    };
    let params = prepare(qi, qo).ok_or_else(|| cx.invalid("the input/output scale ratio cannot be quantized"))?;
    Ok(Relu { kind, un, params: Some(params), int16: false })
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Relu, LowerError> {
    lower_relu_x(cx, ReluKind::Relu)
}

impl Kernel for Relu {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match (&self.params, self.kind) {
            (Some(p), _) if self.int16 => self.un.run::<i16, i16>(s, |x, out| relu_s16(p, x, out)),
            (Some(p), _) => self.un.execute_s8(s, |x, out| relu_s8(p, x, out)),
            (None, ReluKind::Relu6) => self.un.execute_f32(s, relu6_f32),
            (None, ReluKind::ReluN1To1) => self.un.execute_f32(s, relu_n1_to_1_f32),
            (None, ReluKind::Relu) => self.un.execute_f32(s, relu_f32),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        match &self.params {
            Some(p) if self.int16 => self.un.emit_with(cx, quote! { kernels::relu::ReluParams }, ("relu", "relu_s16"), p),
            Some(p) => self.un.emit_with(cx, quote! { kernels::relu::ReluParams }, ("relu", "relu_s8"), p),
            None if self.kind == ReluKind::Relu6 => self.un.emit_plain(cx, "relu", "relu6_f32", TokenStream::new()),
            None if self.kind == ReluKind::ReluN1To1 => self.un.emit_plain(cx, "relu", "relu_n1_to_1_f32", TokenStream::new()),
            None => self.un.emit_plain(cx, "relu", "relu_f32", TokenStream::new()),
        }
    }

    /// Every element type: int8 and int16 (`relu_s8_in_place`, `relu_s16_in_place`) and
    /// float32 (`relu_f32_in_place`, `relu6_f32_in_place`, `relu_n1_to_1_f32_in_place`).
    fn in_place(&self) -> Vec<(usize, usize)> {
        vec![(0, 0)]
    }
}

/// Tests for RELU, RELU6 and RELU_N1_TO_1.
#[cfg(test)]
pub(crate) mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::ir::OpKind;

    pub(crate) fn op_kind(k: ReluKind) -> OpKind {
        match k {
            ReluKind::Relu => OpKind::Relu,
            ReluKind::Relu6 => OpKind::Relu6,
            ReluKind::ReluN1To1 => OpKind::ReluN1To1,
        }
    }

    /// The real-valued clamp bounds.
    fn bounds(k: ReluKind) -> (f64, f64) {
        match k {
            ReluKind::Relu => (0.0, f64::INFINITY),
            ReluKind::Relu6 => (0.0, 6.0),
            ReluKind::ReluN1To1 => (-1.0, 1.0),
        }
    }

    fn run(k: ReluKind, qi: (f32, i64), qo: (f32, i64)) -> Vec<i8> {
        let (bytes, [x, z]) = unary_model(op_kind(k), (DType::I8, &[2, 128], Some(qi)), (DType::I8, &[2, 128], Some(qo)));
        let all: Vec<i8> = (-128..=127).collect();
        out_i8(&run_op0("relu", &bytes, &[(x, TensorData::I8(all))]), z)
    }

    /// Scales whose ratio is a power of two make the rescaling exact, and bounds that are
    /// whole multiples of the output scale make the clamp exact: `clamp(r * (x - zi) + zo)`.
    pub(crate) fn check_exact(k: ReluKind) {
        for (qi, qo, r) in [((0.125, 5), (0.125, 5), 1), ((0.25, -3), (0.125, 10), 2), ((0.0625, -128), (0.0625, -128), 1)] {
            let (lo, hi) = bounds(k);
            let so = qo.0 as f64;
            let lo = (qo.1 as i32 + (lo / so) as i32).max(-128);
            let hi = if hi.is_finite() { (qo.1 as i32 + (hi / so) as i32).min(127) } else { 127 };
            let want: Vec<i8> = (-128..=127).map(|x: i32| (r * (x - qi.1 as i32) + qo.1 as i32).clamp(lo, hi) as i8).collect();
            assert_eq!(run(k, qi, qo), want, "{k:?} {qi:?} {qo:?}");
        }
    }

    /// Arbitrary scales (the RELU6 case of `ops/README.md`): within one step of the real
    /// clamp, and never outside the quantized bounds.
    pub(crate) fn check_real(k: ReluKind) {
        let (qi, qo) = ((0.0731f32, -7i64), (0.0235f32, -128i64));
        let got = run(k, qi, qo);
        let (lo, hi) = bounds(k);
        for (x, &g) in (-128..=127).zip(&got) {
            let real = (qi.0 as f64 * (x as f64 - qi.1 as f64)).clamp(lo, hi);
            let want = ((real / qo.0 as f64).round() + qo.1 as f64).clamp(-128.0, 127.0);
            assert!((g as f64 - want).abs() <= 1.0, "{k:?} {x}: {g} vs {want}");
        }
    }

    pub(crate) fn check_malformed(k: ReluKind) {
        let q = Some((0.5, 0));
        expect_invalid(&unary_model(op_kind(k), (DType::I8, &[2, 3], q), (DType::I8, &[3, 2], q)).0);
        // int16 needs zero points 0 (TFLite Micro's Prepare).
        expect_unsupported(&unary_model(op_kind(k), (DType::I16, &[3], Some((0.5, 1))), (DType::I16, &[3], Some((0.5, 1)))).0);
        expect_unsupported(&unary_model(op_kind(k), (DType::F32, &[3], None), (DType::I8, &[3], q)).0);
        expect_unsupported(&unary_model(op_kind(k), (DType::I8, &[3], None), (DType::I8, &[3], q)).0);
        expect_invalid(&unary_model(op_kind(k), (DType::I8, &[3], q), (DType::I8, &[3], Some((0.5, 128)))).0);
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        let z = m.activation("z", DType::I8, &[3], q);
        m.op(op_kind(k), &[Some(x), Some(x)], &[z]);
        expect_invalid(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        m.op(op_kind(k), &[Some(x)], &[]);
        expect_invalid(&m.finish());
    }

    #[test]
    fn exact_cases() {
        for k in [ReluKind::Relu, ReluKind::Relu6, ReluKind::ReluN1To1] {
            check_exact(k);
        }
    }

    /// float32: `x < 0 ? 0 : x`, `x > 6 ? 6 : x < 0 ? 0 : x` (TFLite Micro) and `x > 1 ? 1
    /// : x < -1 ? -1 : x` (RELU_N1_TO_1: TFLite's reference kernels, `Relu1`; TFLite Micro
    /// has none). The RELU_N1_TO_1 vector is the output of TFLite's reference kernels
    /// (`tools/op_test_vectors.py`, `_litert`), bit for bit.
    #[test]
    fn float32() {
        let v = vec![-7.5f32, -0.0, 0.0, 1e-30, 3.25, 6.0, 6.5, f32::MAX, -f32::MAX];
        for (k, name, want) in [
            (ReluKind::Relu, "relu_f32", vec![0.0, -0.0, 0.0, 1e-30, 3.25, 6.0, 6.5, f32::MAX, 0.0]),
            (ReluKind::Relu6, "relu6_f32", vec![0.0, -0.0, 0.0, 1e-30, 3.25, 6.0, 6.0, 6.0, 0.0]),
            (ReluKind::ReluN1To1, "relu_n1_to_1_f32_litert", RELU_N1_TO_1_F32_LITERT.to_vec()),
        ] {
            let (bytes, [x, z]) = unary_model(op_kind(k), (DType::F32, &[3, 3], None), (DType::F32, &[3, 3], None));
            let store = run_op0(name, &bytes, &[(x, TensorData::F32(v.clone()))]);
            let got: Vec<u32> = store.f32(z).unwrap().iter().map(|f| f.to_bits()).collect();
            assert_eq!(got, want.iter().map(|f| f.to_bits()).collect::<Vec<_>>(), "{k:?}");
            #[cfg(feature = "format")]
            insta::assert_snapshot!(format!("{k:?}_f32"), emit_op0(&bytes));
        }
    }

    const RELU_N1_TO_1_F32_LITERT: &[f32] = &[-1.0, -0.0, 0.0, 1e-30, 1.0, 1.0, 1.0, 1.0, -1.0];

    #[test]
    fn requantizes() {
        for k in [ReluKind::Relu, ReluKind::Relu6, ReluKind::ReluN1To1] {
            check_real(k);
        }
    }

    #[test]
    fn malformed_models_are_errors() {
        for k in [ReluKind::Relu, ReluKind::Relu6, ReluKind::ReluN1To1] {
            check_malformed(k);
        }
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, _) = unary_model(OpKind::Relu, (DType::I8, &[1, 4, 4, 5], Some((0.05, -3))), (DType::I8, &[1, 4, 4, 5], Some((0.025, -128))));
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    /// Every input value with unequal input and output quantization: RELU from TFLite
    /// Micro; RELU6 and RELU_N1_TO_1 from TFLite's reference kernels (TFLite Micro has no
    /// RELU_N1_TO_1 and clamps RELU6 in the input's quantization; see the module doc).
    #[test]
    fn reference_vectors() {
        let all: Vec<i8> = (-128..=127).collect();
        for (k, name, want) in [
            (ReluKind::Relu, "relu_requant", RELU_REQUANT),
            (ReluKind::Relu6, "relu6_requant_litert", RELU6_REQUANT_LITERT),
            (ReluKind::ReluN1To1, "relu_n1_to_1_requant_litert", RELU_N1_TO_1_REQUANT_LITERT),
        ] {
            let (bytes, [x, z]) = unary_model(op_kind(k), (DType::I8, &[256], Some((0.0731, -7))), (DType::I8, &[256], Some((0.0235, -100))));
            check_vector(name, &bytes, &[(x, TensorData::I8(all.clone()))], z, want);
        }
    }


    const RELU_REQUANT: &[i8] = &[
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -97, -94, -91, -88, -84, -81, -78, -75, -72, -69, -66, -63, -60, -56, -53, -50, -47, -44,
        -41, -38, -35, -32, -28, -25, -22, -19, -16, -13, -10, -7, -4, 0, 3, 6, 9, 12, 15, 18,
        21, 24, 28, 31, 34, 37, 40, 43, 46, 49, 52, 56, 59, 62, 65, 68, 71, 74, 77, 80,
        84, 87, 90, 93, 96, 99, 102, 105, 108, 112, 115, 118, 121, 124, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
    ];
    const RELU6_REQUANT_LITERT: &[i8] = &[
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100, -100,
        -100, -100, -97, -94, -91, -88, -84, -81, -78, -75, -72, -69, -66, -63, -60, -56, -53, -50, -47, -44,
        -41, -38, -35, -32, -28, -25, -22, -19, -16, -13, -10, -7, -4, 0, 3, 6, 9, 12, 15, 18,
        21, 24, 28, 31, 34, 37, 40, 43, 46, 49, 52, 56, 59, 62, 65, 68, 71, 74, 77, 80,
        84, 87, 90, 93, 96, 99, 102, 105, 108, 112, 115, 118, 121, 124, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
    ];
    const RELU_N1_TO_1_REQUANT_LITERT: &[i8] = &[
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -125, -122, -119, -116, -112, -109, -106,
        -103, -100, -97, -94, -91, -88, -84, -81, -78, -75, -72, -69, -66, -63, -60, -57, -57, -57, -57, -57,
        -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57,
        -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57,
        -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57,
        -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57,
        -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57,
        -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57, -57,
    ];
}
