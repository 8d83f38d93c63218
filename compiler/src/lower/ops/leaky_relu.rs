//! LEAKY_RELU, int8 (and float32: `reference_ops::LeakyRelu`, `x > 0 ? x : x * alpha`).
//!
//! Mirrors TFLite Micro `leaky_relu_common.cc` (`CalculateOpDataLeakyRelu`): an identity
//! multiplier `QuantizeMultiplier(double(s_in / s_out))` for `x >= zp_in` and an alpha one
//! `QuantizeMultiplier(double(s_in * alpha / s_out))` below, computed by the runtime's
//! [`prepare_leaky_relu`]. The output has the input's shape.

use super::unary::{lower_unary, lower_unary_s8, Unary};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::{EmitCx, Lit};
use crate::error::LowerError;
use crate::ir::DType;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::leaky_relu::{leaky_relu_f32, leaky_relu_s8, prepare_leaky_relu, LeakyReluParams};

#[derive(Debug, Clone, PartialEq)]
pub struct LeakyRelu {
    pub un: Unary,
    pub alpha: f32,
    /// The int8 parameters; `None` for float32 (`x > 0 ? x : x * alpha`).
    pub params: Option<LeakyReluParams>,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, alpha: f32) -> Result<LeakyRelu, LowerError> {
    if !alpha.is_finite() {
        return Err(cx.invalid(format!("alpha {alpha} is not finite")));
    }
    if cx.input(0).is_ok_and(|t| t.dtype == DType::F32) {
        let (un, _) = lower_unary(cx, true)?;
        return Ok(LeakyRelu { un, alpha, params: None });
    }
    let (un, _, [qi, qo]) = lower_unary_s8(cx)?;
    let params = prepare_leaky_relu(qi, qo, alpha).ok_or_else(|| cx.invalid("the scales and alpha give a multiplier that cannot be quantized"))?;
    Ok(LeakyRelu { un, alpha, params: Some(params) })
}

crate::runtime_struct_lit!(kernels::leaky_relu::LeakyReluParams {
    input_zero_point,
    output_zero_point,
    output_multiplier_alpha,
    output_shift_alpha,
    output_multiplier_identity,
    output_shift_identity,
});

impl Kernel for LeakyRelu {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match &self.params {
            Some(p) => self.un.execute_s8(s, |x, out| leaky_relu_s8(p, x, out)),
            None => self.un.execute_f32(s, |x, out| leaky_relu_f32(self.alpha, x, out)),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        match &self.params {
            Some(p) => self.un.emit_with(cx, quote! { kernels::leaky_relu::LeakyReluParams }, ("leaky_relu", "leaky_relu_s8"), p),
            None => {
                let alpha = self.alpha.lit(cx.rt());
                self.un.emit_plain(cx, "leaky_relu", "leaky_relu_f32", quote! { #alpha, })
            }
        }
    }

    /// int8 and float32 (`leaky_relu_s8_in_place`, `leaky_relu_f32_in_place`).
    fn in_place(&self) -> Vec<(usize, usize)> {
        vec![(0, 0)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::ir::OpKind;

    fn run(alpha: f32, qi: (f32, i64), qo: (f32, i64)) -> Vec<i8> {
        let (bytes, [x, z]) = unary_model(OpKind::LeakyRelu { alpha }, (DType::I8, &[256], Some(qi)), (DType::I8, &[256], Some(qo)));
        let all: Vec<i8> = (-128..=127).collect();
        out_i8(&run_op0("leaky_relu", &bytes, &[(x, TensorData::I8(all))]), z)
    }

    #[test]
    fn exact_alphas() {
        // Power-of-two scale ratios and alphas: `x - zi >= 0 ? r * (x - zi) : r * alpha * (x - zi)`,
        // plus zo, saturating; a negative alpha flips the sign.
        for (alpha, qi, qo, r) in [(2.0f32, (0.5, 3), (0.5, -4), 1), (-1.0, (0.25, -10), (0.125, 7), 2), (0.0, (0.1, 0), (0.1, 0), 1)] {
            let want: Vec<i8> = (-128..=127)
                .map(|x: i32| {
                    let v = x - qi.1 as i32;
                    let y = if v >= 0 { r * v } else { r * alpha as i32 * v };
                    (y + qo.1 as i32).clamp(-128, 127) as i8
                })
                .collect();
            assert_eq!(run(alpha, qi, qo), want, "alpha {alpha}");
        }
    }

    #[test]
    fn float32() {
        let v = vec![-8.0f32, -0.5, -0.0, 0.0, 2.5, f32::MAX];
        for (alpha, want) in [(0.25f32, [-2.0f32, -0.125, -0.0, 0.0, 2.5, f32::MAX]), (-1.5, [12.0, 0.75, 0.0, -0.0, 2.5, f32::MAX])] {
            let (bytes, [x, z]) = unary_model(OpKind::LeakyRelu { alpha }, (DType::F32, &[6], None), (DType::F32, &[6], None));
            let store = run_op0("leaky_relu_f32", &bytes, &[(x, TensorData::F32(v.clone()))]);
            let got: Vec<u32> = store.f32(z).unwrap().iter().map(|f| f.to_bits()).collect();
            assert_eq!(got, want.iter().map(|f| f.to_bits()).collect::<Vec<_>>(), "alpha {alpha}");
            #[cfg(feature = "format")]
            insta::assert_snapshot!(format!("f32_alpha_{}", if alpha < 0.0 { "negative" } else { "positive" }), emit_op0(&bytes));
        }
    }

    #[test]
    fn arbitrary_alpha_follows_the_real_value() {
        let (alpha, qi, qo) = (0.2f32, (0.0731f32, -7i64), (0.05f32, 20i64));
        for (x, &g) in (-128..=127).zip(&run(alpha, qi, qo)) {
            let v = qi.0 as f64 * (x as f64 - qi.1 as f64);
            let real = if v >= 0.0 { v } else { alpha as f64 * v };
            let want = ((real / qo.0 as f64).round() + qo.1 as f64).clamp(-128.0, 127.0);
            assert!((g as f64 - want).abs() <= 1.0, "{x}: {g} vs {want}");
        }
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, _) = unary_model(OpKind::LeakyRelu { alpha: 0.2 }, (DType::I8, &[1, 6, 6, 3], Some((0.05, -3))), (DType::I8, &[1, 6, 6, 3], Some((0.04, 10))));
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        let q = Some((0.5, 0));
        let k = || OpKind::LeakyRelu { alpha: 0.1 };
        expect_invalid(&unary_model(k(), (DType::I8, &[2, 3], q), (DType::I8, &[6], q)).0);
        expect_unsupported(&unary_model(k(), (DType::I16, &[3], q), (DType::I16, &[3], q)).0);
        expect_unsupported(&unary_model(k(), (DType::F32, &[3], None), (DType::I8, &[3], q)).0);
        expect_unsupported(&unary_model(k(), (DType::I8, &[3], q), (DType::I8, &[3], None)).0);
        expect_invalid(&unary_model(OpKind::LeakyRelu { alpha: f32::NAN }, (DType::I8, &[3], q), (DType::I8, &[3], q)).0);
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        m.op(k(), &[Some(x)], &[]);
        expect_invalid(&m.finish());
    }

    /// Every input value, unequal quantization, a fractional and a negative alpha; TFLite
    /// Micro's output.
    #[test]
    fn reference_vectors() {
        let all: Vec<i8> = (-128..=127).collect();
        for (alpha, name, want) in [(0.2f32, "leaky_relu_0_2", LEAKY_RELU_0_2), (-0.3, "leaky_relu_neg", LEAKY_RELU_NEG)] {
            let (bytes, [x, z]) =
                unary_model(OpKind::LeakyRelu { alpha }, (DType::I8, &[256], Some((0.0731, -7))), (DType::I8, &[256], Some((0.05, 20))));
            check_vector(name, &bytes, &[(x, TensorData::I8(all.clone()))], z, want);
        }
    }


    const LEAKY_RELU_0_2: &[i8] = &[
        -16, -15, -15, -15, -14, -14, -14, -14, -13, -13, -13, -12, -12, -12, -12, -11, -11, -11, -10, -10,
        -10, -9, -9, -9, -9, -8, -8, -8, -7, -7, -7, -7, -6, -6, -6, -5, -5, -5, -5, -4,
        -4, -4, -3, -3, -3, -2, -2, -2, -2, -1, -1, -1, 0, 0, 0, 0, 1, 1, 1, 2,
        2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 7, 7, 7, 7,
        8, 8, 8, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13,
        14, 14, 14, 14, 15, 15, 15, 16, 16, 16, 17, 17, 17, 17, 18, 18, 18, 19, 19, 19,
        19, 20, 21, 23, 24, 26, 27, 29, 30, 32, 33, 35, 36, 38, 39, 40, 42, 43, 45, 46,
        48, 49, 51, 52, 54, 55, 57, 58, 59, 61, 62, 64, 65, 67, 68, 70, 71, 73, 74, 76,
        77, 78, 80, 81, 83, 84, 86, 87, 89, 90, 92, 93, 95, 96, 97, 99, 100, 102, 103, 105,
        106, 108, 109, 111, 112, 114, 115, 116, 118, 119, 121, 122, 124, 125, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
    ];
    const LEAKY_RELU_NEG: &[i8] = &[
        73, 73, 72, 72, 72, 71, 71, 70, 70, 69, 69, 68, 68, 68, 67, 67, 66, 66, 65, 65,
        65, 64, 64, 63, 63, 62, 62, 61, 61, 61, 60, 60, 59, 59, 58, 58, 58, 57, 57, 56,
        56, 55, 55, 54, 54, 54, 53, 53, 52, 52, 51, 51, 51, 50, 50, 49, 49, 48, 48, 47,
        47, 47, 46, 46, 45, 45, 44, 44, 43, 43, 43, 42, 42, 41, 41, 40, 40, 40, 39, 39,
        38, 38, 37, 37, 36, 36, 36, 35, 35, 34, 34, 33, 33, 33, 32, 32, 31, 31, 30, 30,
        29, 29, 29, 28, 28, 27, 27, 26, 26, 26, 25, 25, 24, 24, 23, 23, 22, 22, 22, 21,
        21, 20, 21, 23, 24, 26, 27, 29, 30, 32, 33, 35, 36, 38, 39, 40, 42, 43, 45, 46,
        48, 49, 51, 52, 54, 55, 57, 58, 59, 61, 62, 64, 65, 67, 68, 70, 71, 73, 74, 76,
        77, 78, 80, 81, 83, 84, 86, 87, 89, 90, 92, 93, 95, 96, 97, 99, 100, 102, 103, 105,
        106, 108, 109, 111, 112, 114, 115, 116, 118, 119, 121, 122, 124, 125, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
    ];
}
