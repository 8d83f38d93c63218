//! HARD_SWISH, int8 in and out.
//!
//! Mirrors TFLite Micro `hard_swish_common.cc` (`HardSwishPrepare`): the "hires" input
//! scale `input_scale / 128`, a relu-ish multiplier to 3/32768 and an output multiplier,
//! both downscaled to int16 ([`tflc_runtime::kernels::hard_swish::prepare_hard_swish_s8`]); it fails (and so do
//! we) when the output multiplier's exponent would be positive. Checks, execution and
//! emission are the unary family's ([`UnaryS8`]).

use super::unary::{lower_transcendental, S8Kernel, UnaryS8};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::hard_swish::{hard_swish_s8, HardSwishParams};

crate::runtime_struct_lit!(kernels::hard_swish::HardSwishParams {
    input_zero_point,
    output_zero_point,
    reluish_multiplier_fixedpoint_int16,
    reluish_multiplier_exponent,
    output_multiplier_fixedpoint_int16,
    output_multiplier_exponent,
});

impl S8Kernel for HardSwishParams {
    const MODULE: (&'static str, &'static str) = ("hard_swish", "HardSwishParams");
    const RUN: fn(&Self, &[i8], &mut [i8]) = hard_swish_s8;
}

pub type HardSwish = UnaryS8<HardSwishParams>;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<HardSwish, LowerError> {
    let (un, output, [in_q, out_q]) = lower_transcendental(cx)?;
    let params = tflc_runtime::kernels::hard_swish::prepare_hard_swish_s8(in_q.scale, in_q.zero_point, out_q.scale, out_q.zero_point).ok_or_else(|| {
        cx.unsupported_tensor(
            output,
            format!(
                "output scale {} is too small for input scale {} (TFLite Micro needs input_scale / 128 <= output_scale)",
                out_q.scale, in_q.scale
            ),
        )
    })?;
    Ok(UnaryS8 { un, params })
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::unary::tests::{all_i8, unary_s8_model};
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::OpKind;

    fn run(name: &str, in_q: (f32, i64), out_q: (f32, i64)) -> Vec<i8> {
        let (bytes, x, y) = unary_s8_model(OpKind::HardSwish, &[4, 8, 8], in_q, &[4, 8, 8], out_q);
        out_i8(&run_op0(name, &bytes, &[(x, TensorData::I8(all_i8()))]), y)
    }

    // Expected outputs: the TFLite Micro interpreter (pip `tflite-micro`, reference
    // kernels) run once on the models and inputs these tests build (every int8 value),
    // dumped with `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc hard_swish`.

    /// The usual MobileNetV3 shape of quantization: output range about [-0.4, max].
    #[test]
    fn every_input_typical_quantization() {
        let want: &[i8] = &[
            -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118,
            -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118,
            -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118,
            -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118, -118,
            -118, -118, -118, -118, -118, -118, -118, -119, -119, -120, -120, -121, -121, -122, -122, -123, -123, -124,
            -124, -124, -125, -125, -125, -126, -126, -126, -126, -127, -127, -127, -127, -127, -127, -127, -127, -127,
            -127, -127, -127, -127, -127, -127, -127, -127, -127, -127, -126, -126, -126, -126, -125, -125, -125, -124,
            -124, -124, -123, -123, -122, -122, -121, -121, -120, -120, -119, -119, -118, -117, -117, -116, -115, -115,
            -114, -113, -112, -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101, -100, -99, -98,
            -97, -96, -95, -94, -92, -91, -90, -89, -87, -86, -85, -83, -82, -81, -79, -78, -76, -75, -73, -72, -70,
            -69, -67, -66, -64, -62, -61, -59, -57, -56, -54, -52, -50, -49, -47, -45, -43, -42, -41, -39, -38, -37,
            -36, -34, -33, -32, -31, -29, -28, -27, -26, -24, -23, -22, -21, -19, -18, -17, -16, -14, -13, -12, -11,
            -9, -8, -7, -6, -4, -3, -2, -1, 1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 16, 17, 18, 19, 21, 22, 23, 24, 26,
            27, 28,
        ];
        assert_eq!(run("hard_swish_typical", (0.05, 10), (0.04, -118)), want);
    }

    /// A coarse input (the relu-ish multiplier gets a positive exponent) and an output
    /// that saturates at 127.
    #[test]
    fn every_input_coarse_input_saturating_output() {
        let want: &[i8] = &[
            -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20,
            -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20,
            -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20,
            -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20,
            -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20, -20,
            -20, -20, -20, -20, -20, -20, -23, -26, -28, -30, -31, -32, -32, -32, -32, -31, -30, -28, -26, -23, -20,
            -16, -12, -8, -3, 2, 8, 14, 21, 28, 36, 44, 52, 61, 70, 80, 87, 93, 100, 107, 113, 120, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        ];
        assert_eq!(run("hard_swish_coarse", (0.2, -3), (0.03, -20)), want);
    }

    /// By hand: hard_swish(0) = 0 lands on the output zero point, and hard_swish(x) = x for
    /// x >= 3 with equal scales (up to one step of rounding).
    #[test]
    fn zero_and_identity_above_three() {
        let got = run("hard_swish_identity", (0.05, 0), (0.05, 0));
        assert_eq!(got[128], 0);
        for q in 60..=127i32 {
            let y = got[(q + 128) as usize] as i32;
            assert!((y - q).abs() <= 1, "{q}: {y}");
        }
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, ..) = unary_s8_model(OpKind::HardSwish, &[1, 8], (0.05, 10), &[1, 8], (0.04, -118));
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        // Output scale below input_scale / 128: TFLite Micro's prepare fails.
        let (bytes, ..) = unary_s8_model(OpKind::HardSwish, &[1, 8], (0.5, 0), &[1, 8], (0.001, 0));
        let e = lower_op0(&bytes).expect_err("output scale");
        assert!(
            matches!(e, LowerError::Unsupported { .. }) && e.to_string().contains("HARD_SWISH"),
            "{e}"
        );
        let (bytes, ..) = unary_s8_model(OpKind::HardSwish, &[1, 8], (0.05, 10), &[8], (0.04, -118));
        assert!(
            matches!(lower_op0(&bytes), Err(LowerError::Invalid { .. })),
            "output shape"
        );
    }
}
