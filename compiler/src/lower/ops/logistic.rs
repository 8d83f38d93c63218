//! LOGISTIC (sigmoid), int8 in and out.
//!
//! Mirrors TFLite Micro `logistic_common.cc` (`CalculateArithmeticOpDataLogistic`): the
//! output zero point must be -128 (TFLite Micro's check) and, as TFLite requires, the
//! output scale 1/256 (the kernel writes that quantization whatever the tensor says); the
//! input rescaling comes from [`tflc_runtime::kernels::logistic::prepare_logistic_s8`]. Checks, execution and
//! emission are the unary family's ([`UnaryS8`]).

use super::unary::{lower_transcendental, output_q_error, S8Kernel, UnaryS8};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::logistic::{logistic_s8, LogisticParams};

crate::runtime_struct_lit!(kernels::logistic::LogisticParams { input_zero_point, input_range_radius, input_multiplier, input_left_shift });

impl S8Kernel for LogisticParams {
    const MODULE: (&'static str, &'static str) = ("logistic", "LogisticParams");
    const RUN: fn(&Self, &[i8], &mut [i8]) = logistic_s8;
}

pub type Logistic = UnaryS8<LogisticParams>;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Logistic, LowerError> {
    let (un, output, [in_q, out_q]) = lower_transcendental(cx)?;
    if out_q.zero_point != -128 || out_q.scale != 1.0 / 256.0 {
        return Err(output_q_error(cx, output, out_q, "int8 LOGISTIC", "TFLite requires scale 1/256, zero point -128"));
    }
    let params = tflc_runtime::kernels::logistic::prepare_logistic_s8(in_q.scale, in_q.zero_point, out_q.zero_point)
        .ok_or_else(|| cx.invalid_tensor(output, "output zero point must be -128"))?;
    Ok(UnaryS8 { un, params })
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::unary::tests::{all_i8, unary_s8_model};
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::OpKind;

    fn run(name: &str, in_q: (f32, i64)) -> Vec<i8> {
        let (bytes, x, y) = unary_s8_model(OpKind::Logistic, &[256], in_q, &[256], (1.0 / 256.0, -128));
        out_i8(&run_op0(name, &bytes, &[(x, TensorData::I8(all_i8()))]), y)
    }

    // Expected outputs: the TFLite Micro interpreter (pip `tflite-micro`, reference
    // kernels) run once on the models and inputs these tests build (every int8 value),
    // dumped with `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc logistic`.

    /// A fine input scale: no input reaches the saturation radius.
    #[test]
    fn every_input_fine_scale() {
        let want: &[i8] = &[
            -125, -125, -125, -125, -125, -125, -124, -124, -124, -124, -124, -124, -124, -124, -123, -123, -123, -123,
            -123, -123, -123, -122, -122, -122, -122, -122, -122, -121, -121, -121, -121, -121, -120, -120, -120, -120,
            -119, -119, -119, -119, -118, -118, -118, -117, -117, -117, -117, -116, -116, -116, -115, -115, -114, -114,
            -114, -113, -113, -112, -112, -111, -111, -110, -110, -109, -109, -108, -108, -107, -107, -106, -106, -105,
            -104, -104, -103, -102, -102, -101, -100, -99, -99, -98, -97, -96, -95, -94, -94, -93, -92, -91, -90, -89,
            -88, -87, -86, -85, -84, -82, -81, -80, -79, -78, -77, -75, -74, -73, -71, -70, -69, -67, -66, -65, -63,
            -62, -60, -59, -57, -56, -54, -52, -51, -49, -48, -46, -44, -42, -41, -39, -37, -36, -34, -32, -30, -28,
            -26, -25, -23, -21, -19, -17, -15, -13, -11, -10, -8, -6, -4, -2, 0, 2, 4, 6, 8, 10, 11, 13, 15, 17, 19,
            21, 23, 25, 26, 28, 30, 32, 34, 36, 37, 39, 41, 42, 44, 46, 48, 49, 51, 52, 54, 56, 57, 59, 60, 62, 63, 65,
            66, 67, 69, 70, 71, 73, 74, 75, 77, 78, 79, 80, 81, 82, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 94, 95,
            96, 97, 98, 99, 99, 100, 101, 102, 102, 103, 104, 104, 105, 106, 106, 107, 107, 108, 108, 109, 109, 110,
            110, 111, 111, 112, 112, 113, 113, 114, 114, 114, 115, 115, 116, 116, 116, 117, 117, 117, 117, 118, 118,
        ];
        assert_eq!(run("logistic_fine", (0.03, 20)), want);
    }

    /// A coarse input scale: both ends saturate (0 and 255/256) through the radius check.
    #[test]
    fn every_input_coarse_scale_saturates() {
        let want: &[i8] = &[
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -127, -127, -126, -126,
            -125, -124, -123, -121, -119, -116, -112, -107, -100, -92, -81, -69, -54, -37, -19, 0, 19, 37, 54, 69, 81,
            92, 100, 107, 112, 116, 119, 121, 123, 124, 125, 126, 126, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127,
        ];
        assert_eq!(run("logistic_coarse", (0.3, -5)), want);
    }

    /// By hand: sigmoid(0) = 1/2 = 128/256, stored as 0; monotonic; sigmoid(x) +
    /// sigmoid(-x) = 1 within one step.
    #[test]
    fn midpoint_monotonic_and_symmetric() {
        let got = run("logistic_sym", (0.05, 0));
        assert_eq!(got[128], 0);
        assert!(got.windows(2).all(|w| w[0] <= w[1]));
        for k in 1..=127usize {
            let sum = (got[128 + k] as i32 + 128) + (got[128 - k] as i32 + 128);
            assert!((255..=257).contains(&sum), "{k}: {sum}");
        }
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, ..) = unary_s8_model(OpKind::Logistic, &[1, 64], (0.05, -3), &[1, 64], (1.0 / 256.0, -128));
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        for out_q in [(1.0 / 256.0, 0), (1.0 / 128.0, -128)] {
            let (bytes, ..) = unary_s8_model(OpKind::Logistic, &[1, 64], (0.05, -3), &[1, 64], out_q);
            let e = lower_op0(&bytes).expect_err("output quantization");
            assert!(
                matches!(e, LowerError::Unsupported { .. }) && e.to_string().contains("LOGISTIC"),
                "{e}"
            );
        }
        let (bytes, ..) = unary_s8_model(OpKind::Logistic, &[1, 64], (0.05, -3), &[1, 63], (1.0 / 256.0, -128));
        assert!(
            matches!(lower_op0(&bytes), Err(LowerError::Invalid { .. })),
            "output shape"
        );
    }
}
