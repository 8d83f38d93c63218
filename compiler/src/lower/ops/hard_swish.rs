//! HARD_SWISH, int8 in and out; float32 is `reference_ops::HardSwish<float>`
//! (`hard_swish_f32`, the unary family's [`UnaryF32`](super::unary::UnaryF32)).
//!
//! Mirrors TFLite Micro `hard_swish_common.cc` (`HardSwishPrepare`): the "hires" input
//! scale `input_scale / 128`, a relu-ish multiplier to 3/32768 and an output multiplier,
//! both downscaled to int16 ([`tflc_runtime::kernels::hard_swish::prepare_hard_swish_s8`]); it fails (and so do
//! we) when the output multiplier's exponent would be positive. Checks, execution and
//! emission are the unary family's ([`UnaryS8`]).

use super::unary::{lower_transcendental, lower_transcendental_op, Transcendental, S8Kernel, UnaryS8};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::hard_swish::{hard_swish_f32, hard_swish_s8, HardSwishParams};

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

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Transcendental<HardSwishParams>, LowerError> {
    lower_transcendental_op(cx, "hard_swish", hard_swish_f32, lower_s8)
}

fn lower_s8(cx: &OpCx<'_, '_>) -> Result<HardSwish, LowerError> {
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
    Ok(UnaryS8::new(un, params))
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

    /// float32 (TFLite Micro's `reference_ops::HardSwish<float>`): bit for bit with TFLite
    /// Micro's outputs on [`f32_inputs`](super::super::unary::tests::f32_inputs) and close to
    /// `x * min(6, max(0, x + 3)) / 6` in f64.
    #[test]
    fn float32_against_tflite_micro() {
        let differ = super::super::unary::tests::check_f32(OpKind::HardSwish, "hard_swish_f32", HARD_SWISH_F32_TFLM, 0, |x| x * (x + 3.0).clamp(0.0, 6.0) / 6.0, 3e-7, [f32::INFINITY, f32::NAN]);
        assert_eq!(differ, 0);
    }

    /// TFLite Micro's outputs for `hard_swish_f32` (`tools/op_test_vectors.py`).
    const HARD_SWISH_F32_TFLM: &[f32] = &[
        -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0,
        -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0,
        -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0,
        -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0,
        -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0,
        -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0,
        -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0,
        -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0,
        -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0,
        -0.048333287, -0.093333356, -0.13499998, -0.17333329, -0.20833333, -0.23999996, -0.26833335, -0.29333332,
        -0.31499997, -0.33333334, -0.34833333, -0.35999998, -0.36833334, -0.37333333, -0.375, -0.37333333, -0.36833334,
        -0.36, -0.34833333, -0.33333334, -0.315, -0.29333335, -0.26833332, -0.24000001, -0.20833333, -0.17333333, -0.135,
        -0.093333334, -0.048333336, 0.0, 0.051666666, 0.10666668, 0.165, 0.22666667, 0.29166666, 0.36, 0.43166664,
        0.50666666, 0.58500004, 0.6666667, 0.7516667, 0.84, 0.9316668, 1.0266666, 1.125, 1.2266667, 1.3316666, 1.44,
        1.5516667, 1.6666666, 1.7850003, 1.9066666, 2.0316668, 2.16, 2.2916667, 2.426667, 2.5649998, 2.7066667, 2.8516667,
        3.0, 3.1000001, 3.2, 3.3, 3.4000003, 3.5, 3.6000001, 3.7, 3.8, 3.9000003, 4.0, 4.1, 4.2000003, 4.3, 4.4, 4.5, 4.6,
        4.7000003, 4.8, 4.9, 5.0, 5.1, 5.2000003, 5.3, 5.4, 5.5, 5.6, 5.7000003, 5.8000007, 5.9, 6.0, 6.1, 6.2000003,
        6.3000007, 6.4, 6.5, 6.6, 6.7000003, 6.8000007, 6.9, 7.0, 7.1, 7.2000003, 7.3000007, 7.4, 7.5, 7.6, 7.7000003,
        7.8000007, 7.9, 8.0, 8.1, 8.2, 8.3, 8.400001, 8.5, 8.6, 8.7, 8.8, 8.900001, 9.0, 9.1, 9.2, 9.3, 9.400001, 9.5,
        9.6, 9.7, 9.8, 9.900001, 10.0, 10.1, 10.2, 10.3, 10.400001, 10.5, 10.6, 10.7, 10.8, 10.900001, 11.0, 11.100001,
        11.2, 11.3, 11.400001, 11.5, 11.600001, 11.7, 11.8, 11.900001, 12.0, 12.100001, 12.2, 12.3, 12.400001, 12.5,
        12.600001, 12.7, 12.8, 12.900001, 13.0, 13.100001, 13.2, 13.3, 13.400001, 13.5, 13.600001, 13.7, 13.8, 13.900001,
        14.0, 14.100001, 14.2, 14.3, 14.400001, 14.5, 14.600001, 14.7, 14.8, 14.900001, 15.0, 15.100001, 15.2, 15.3,
        15.400001, 15.5, 15.600001, 15.7, 15.8, 15.900001, 16.0, 16.1, 16.2, 16.300001, 16.4, 16.5, 16.6, 16.7, 16.800001,
        16.9, 17.0, 17.1, 17.2, 17.300001, 17.4, 17.5, 17.6, 17.7, 17.800001, 17.9, 18.0, 18.1, 18.2, 18.300001, 18.4,
        18.5, 18.6, 18.7, 18.800001, 18.9, 19.0, 19.1, 19.2, 19.300001, 19.4, 19.5, 19.6, 19.7, 19.800001, 19.9,
        -0.015829334, -0.015339834, -0.014850001, -0.014359833, -0.013869333, -0.013378501, -0.0128873335, -0.012395833,
        -0.011904, -0.0114118345, -0.010919333, -0.010426502, -0.009933334, -0.009439834, -0.008946001, -0.008451833,
        -0.007957334, -0.0074625, -0.0069673336, -0.006471833, -0.0059760003, -0.0054798336, -0.0049833334, -0.0044865003,
        -0.0039893338, -0.0034918336, -0.002994, -0.0024958334, -0.0019973335, -0.0014985, -0.0009993333, -0.0004998334,
        0.0, 0.0005001667, 0.0010006668, 0.0015015, 0.0020026667, 0.002504167, 0.003006, 0.0035081666, 0.0040106666,
        0.0045135003, 0.0050166673, 0.005520167, 0.006024, 0.006528167, 0.007032667, 0.0075375005, 0.008042667,
        0.0085481675, 0.0090540005, 0.009560167, 0.010066668, 0.0105735, 0.011080667, 0.011588167, 0.012096, 0.012604167,
        0.013112667, 0.013621501, 0.014130668, 0.014640167, 0.01515, 0.015660167, 0.0, -0.0, 5e-31, -5e-31, 5e-08, -5e-08,
        16.619047, 16.61905, -0.0, -0.0, -0.0, 3.0, -1.1920928e-07, 3.0000002, 60.0, -0.0, 100.0, -0.0, 1e+10, -0.0,
        5.877472e-39, 5e-41
    ];
}
