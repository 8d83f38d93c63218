//! TANH, int8 in and out.
//!
//! Mirrors TFLite Micro `tanh.cc` (`CalculateArithmeticOpData`): the input rescaling to
//! Q4.27 and its saturation radius from [`tflc_runtime::kernels::tanh::prepare_tanh_s8`]. The kernel
//! writes scale 1/128, zero point 0, which TFLite requires of the output tensor; we check it.
//! Checks, execution and emission are the unary family's ([`UnaryS8`]).

use super::unary::{lower_transcendental, output_q_error, S8Kernel, UnaryS8};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::tanh::{tanh_s8, TanhParams};

crate::runtime_struct_lit!(kernels::tanh::TanhParams { input_zero_point, input_range_radius, input_multiplier, input_left_shift });

impl S8Kernel for TanhParams {
    const MODULE: (&'static str, &'static str) = ("tanh", "TanhParams");
    const RUN: fn(&Self, &[i8], &mut [i8]) = tanh_s8;
}

pub type Tanh = UnaryS8<TanhParams>;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Tanh, LowerError> {
    let (un, output, [in_q, out_q]) = lower_transcendental(cx)?;
    if out_q.zero_point != 0 || out_q.scale != 1.0 / 128.0 {
        return Err(output_q_error(cx, output, out_q, "int8 TANH", "TFLite requires scale 1/128, zero point 0"));
    }
    Ok(UnaryS8 { un, params: tflc_runtime::kernels::tanh::prepare_tanh_s8(in_q.scale, in_q.zero_point) })
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::unary::tests::{all_i8, unary_s8_model};
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind};

    fn run(name: &str, in_q: (f32, i64)) -> Vec<i8> {
        let (bytes, x, y) = unary_s8_model(OpKind::Tanh, &[2, 128], in_q, &[2, 128], (1.0 / 128.0, 0));
        out_i8(&run_op0(name, &bytes, &[(x, TensorData::I8(all_i8()))]), y)
    }

    // Expected outputs: the TFLite Micro interpreter (pip `tflite-micro`, reference
    // kernels) run once on the models and inputs these tests build (every int8 value),
    // dumped with `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc tanh`.

    /// A fine input scale: no input reaches the saturation radius.
    #[test]
    fn every_input_fine_scale() {
        let want: &[i8] = &[
            -126, -126, -126, -125, -125, -125, -125, -125, -125, -125, -125, -125, -124, -124, -124, -124, -124, -124,
            -123, -123, -123, -123, -123, -122, -122, -122, -122, -121, -121, -121, -121, -120, -120, -120, -119, -119,
            -119, -118, -118, -118, -117, -117, -116, -116, -115, -115, -114, -114, -113, -113, -112, -112, -111, -110,
            -110, -109, -108, -107, -107, -106, -105, -104, -103, -102, -102, -101, -100, -99, -97, -96, -95, -94, -93,
            -92, -90, -89, -88, -86, -85, -84, -82, -81, -79, -77, -76, -74, -72, -71, -69, -67, -65, -63, -61, -59,
            -57, -55, -53, -51, -49, -46, -44, -42, -40, -37, -35, -33, -30, -28, -25, -23, -20, -18, -15, -13, -10,
            -8, -5, -3, 0, 3, 5, 8, 10, 13, 15, 18, 20, 23, 25, 28, 30, 33, 35, 37, 40, 42, 44, 46, 49, 51, 53, 55, 57,
            59, 61, 63, 65, 67, 69, 71, 72, 74, 76, 77, 79, 81, 82, 84, 85, 86, 88, 89, 90, 92, 93, 94, 95, 96, 97, 99,
            100, 101, 102, 102, 103, 104, 105, 106, 107, 107, 108, 109, 110, 110, 111, 112, 112, 113, 113, 114, 114,
            115, 115, 116, 116, 117, 117, 118, 118, 118, 119, 119, 119, 120, 120, 120, 121, 121, 121, 121, 122, 122,
            122, 122, 123, 123, 123, 123, 123, 124, 124, 124, 124, 124, 124, 125, 125, 125, 125, 125, 125, 125, 125,
            125, 126, 126, 126, 126, 126, 126, 126, 126, 126, 126, 126, 126, 126, 127, 127, 127, 127, 127, 127, 127,
            127, 127,
        ];
        assert_eq!(run("tanh_fine", (0.02, -10)), want);
    }

    /// A coarse input scale: both ends saturate at -128 / 127 through the radius check.
    #[test]
    fn every_input_coarse_scale_saturates() {
        let want: &[i8] = &[
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -127, -126,
            -125, -123, -120, -116, -109, -97, -81, -59, -31, 0, 31, 59, 81, 97, 109, 116, 120, 123, 125, 126, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127,
        ];
        assert_eq!(run("tanh_coarse", (0.25, 7)), want);
    }

    /// By hand: tanh(0) = 0 (at the input zero point) and the curve is odd around it.
    #[test]
    fn zero_and_symmetry() {
        let got = run("tanh_sym", (0.05, 0));
        assert_eq!(got[128], 0);
        for k in 1..=127usize {
            // Exactly odd, except that the negative side saturates one step further.
            let (a, b) = (got[128 + k] as i32, got[128 - k] as i32);
            assert!(a == -b || (a == 127 && b == -128), "{k}: {a} {b}");
        }
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, ..) = unary_s8_model(OpKind::Tanh, &[1, 64], (0.05, -3), &[1, 64], (1.0 / 128.0, 0));
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        let (bytes, ..) = unary_s8_model(OpKind::Tanh, &[1, 64], (0.05, -3), &[1, 64], (1.0 / 256.0, -128));
        assert!(
            matches!(lower_op0(&bytes), Err(LowerError::Unsupported { .. })),
            "output quantization"
        );
        let (bytes, ..) = unary_s8_model(OpKind::Tanh, &[1, 64], (0.05, -3), &[64, 1], (1.0 / 128.0, 0));
        assert!(
            matches!(lower_op0(&bytes), Err(LowerError::Invalid { .. })),
            "output shape"
        );
        let mut b = crate::tflite::builder::ModelBuilder::new();
        let x = b.activation("x", DType::I16, &[4], Some((1.0 / 4096.0, 0)));
        let y = b.activation("y", DType::I16, &[4], Some((1.0 / 32768.0, 0)));
        b.op(OpKind::Tanh, &[Some(x)], &[y]);
        let e = lower_op0(&b.finish()).expect_err("int16");
        assert!(
            matches!(e, LowerError::Unsupported { .. }) && e.to_string().contains("TANH"),
            "{e}"
        );
    }
}
