//! LEAKY_RELU, int8.
//!
//! Mirrors TFLite Micro `leaky_relu_common.cc` (`CalculateOpDataLeakyRelu`): an identity
//! multiplier `QuantizeMultiplier(double(s_in / s_out))` for `x >= zp_in` and an alpha one
//! `QuantizeMultiplier(double(s_in * alpha / s_out))` below, computed by the runtime's
//! [`prepare_leaky_relu`]. The output has the input's shape.

use super::relu::{lower_unary_s8, Unary};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::codegen::emit::{int, EmitCx};
use crate::error::LowerError;
use crate::ir::OpKind;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::leaky_relu::{leaky_relu_s8, prepare_leaky_relu, LeakyReluParams};

#[derive(Debug, Clone, PartialEq)]
pub struct LeakyRelu {
    pub un: Unary,
    pub params: LeakyReluParams,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<LeakyRelu, LowerError> {
    let OpKind::LeakyRelu { alpha } = cx.op.kind else { return Err(cx.invalid("not a LEAKY_RELU")) };
    let (un, [qi, qo]) = lower_unary_s8(cx)?;
    if !alpha.is_finite() {
        return Err(cx.invalid(format!("alpha {alpha} is not finite")));
    }
    let params = prepare_leaky_relu(qi, qo, alpha).ok_or_else(|| cx.invalid("the scales and alpha give a multiplier that cannot be quantized"))?;
    Ok(LeakyRelu { un, params })
}

impl Kernel for LeakyRelu {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        self.un.execute_s8(s, |x, out| leaky_relu_s8(&self.params, x, out))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = &self.params;
        let i = |v: i32| int(v as i64);
        let (zi, zo) = (i(p.input_zero_point), i(p.output_zero_point));
        let (ma, sa, mi, si) = (i(p.output_multiplier_alpha), i(p.output_shift_alpha), i(p.output_multiplier_identity), i(p.output_shift_identity));
        let p = cx.params(
            quote! { #rt::kernels::leaky_relu::LeakyReluParams },
            quote! {
                #rt::kernels::leaky_relu::LeakyReluParams {
                    input_zero_point: #zi,
                    output_zero_point: #zo,
                    output_multiplier_alpha: #ma,
                    output_shift_alpha: #sa,
                    output_multiplier_identity: #mi,
                    output_shift_identity: #si,
                }
            },
        );
        let x = cx.input(self.un.input);
        let y = cx.output(self.un.output);
        quote! { #rt::kernels::leaky_relu::leaky_relu_s8(&#p, #x, #y); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::ir::DType;

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
        let err = |b: &[u8]| lower_op0(b).expect_err("must not lower");
        let invalid = |e: LowerError| assert!(matches!(e, LowerError::Invalid { .. }), "{e}");
        let unsupported = |e: LowerError| assert!(matches!(e, LowerError::Unsupported { .. }), "{e}");
        invalid(err(&unary_model(k(), (DType::I8, &[2, 3], q), (DType::I8, &[6], q)).0));
        unsupported(err(&unary_model(k(), (DType::I16, &[3], q), (DType::I16, &[3], q)).0));
        unsupported(err(&unary_model(k(), (DType::I8, &[3], q), (DType::I8, &[3], None)).0));
        invalid(err(&unary_model(OpKind::LeakyRelu { alpha: f32::NAN }, (DType::I8, &[3], q), (DType::I8, &[3], q)).0));
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        m.op(k(), &[Some(x)], &[]);
        invalid(err(&m.finish()));
    }
}
