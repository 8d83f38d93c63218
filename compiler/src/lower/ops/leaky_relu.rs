//! LEAKY_RELU, int8 and int16 (16x8; zero points as given, TFLite Micro's Prepare takes any)
//! (and float32: `reference_ops::LeakyRelu`, `x > 0 ? x : x * alpha`).
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
use tflc_runtime::kernels::leaky_relu::{leaky_relu_f32, leaky_relu_s16, leaky_relu_s8, prepare_leaky_relu, LeakyReluParams};

#[derive(Debug, Clone, PartialEq)]
pub struct LeakyRelu {
    pub un: Unary,
    pub alpha: f32,
    /// The int8 / int16 parameters; `None` for float32 (`x > 0 ? x : x * alpha`).
    pub params: Option<LeakyReluParams>,
    /// int16 in and out.
    pub int16: bool,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, alpha: f32) -> Result<LeakyRelu, LowerError> {
    if !alpha.is_finite() {
        return Err(cx.invalid(format!("alpha {alpha} is not finite")));
    }
    if cx.input(0).is_ok_and(|t| t.dtype == DType::F32) {
        let (un, _) = lower_unary(cx, true)?;
        return Ok(LeakyRelu { un, alpha, params: None, int16: false });
    }
    let int16 = cx.input(0).is_ok_and(|t| t.dtype == DType::I16);
    let (un, [qi, qo]) = if int16 {
        let (un, [input, output]) = lower_unary(cx, false)?;
        cx.expect_dtype(output, DType::I16)?;
        let (qi, qo) = (cx.per_tensor_q(input)?, cx.per_tensor_q(output)?);
        for (t, q) in [(input, qi), (output, qo)] {
            if !(-32768..=32767).contains(&q.zero_point) {
                return Err(cx.invalid_tensor(t, format!("int16 zero point {} is out of range", q.zero_point)));
            }
        }
        (un, [qi, qo])
    } else {
        let (un, _, q) = lower_unary_s8(cx)?;
        (un, q)
    };
    let params = prepare_leaky_relu(qi, qo, alpha).ok_or_else(|| cx.invalid("the scales and alpha give a multiplier that cannot be quantized"))?;
    Ok(LeakyRelu { un, alpha, params: Some(params), int16 })
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
            Some(p) if self.int16 => self.un.run::<i16, i16>(s, |x, out| leaky_relu_s16(p, x, out)),
            Some(p) => self.un.execute_s8(s, |x, out| leaky_relu_s8(p, x, out)),
            None => self.un.execute_f32(s, |x, out| leaky_relu_f32(self.alpha, x, out)),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        match &self.params {
            Some(p) => {
                let func = if self.int16 { "leaky_relu_s16" } else { "leaky_relu_s8" };
                self.un.emit_with(cx, quote! { kernels::leaky_relu::LeakyReluParams }, ("leaky_relu", func), p)
            }
            None => {
                let alpha = self.alpha.lit(cx.rt());
                self.un.emit_plain(cx, "leaky_relu", "leaky_relu_f32", quote! { #alpha, })
            }
        }
    }

    /// int8, int16 and float32 (`leaky_relu_s8_in_place`, `leaky_relu_s16_in_place`,
    /// `leaky_relu_f32_in_place`).
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

    /// int16 (16x8) against TFLite Micro's PyPI release: a positive and a negative alpha, with
    /// rescaling, over a spread of the int16 range.
    #[test]
    fn int16_against_tflite_micro() {
        let x: Vec<i16> = (-128..128).map(|k| (k * 256 + 77) as i16).chain([i16::MIN, i16::MAX, 0, -1]).collect();
        let n = x.len();
        for (name, alpha, qi, qo) in [("leaky_relu_s16", 0.2f32, (0.001, 0), (0.0008, 0)), ("leaky_relu_s16_neg", -0.7, (0.0005, 0), (0.001, 0))] {
            let (bytes, [a, z]) = unary_model(OpKind::LeakyRelu { alpha }, (DType::I16, &[n], Some(qi)), (DType::I16, &[n], Some(qo)));
            let s = run_op0(name, &bytes, &[(a, TensorData::I16(x.clone()))]);
            let got = s.i16(z).unwrap().to_vec();
            match LEAKY_RELU_S16_TFLM.iter().find(|v| v.0 == name) {
                Some(w) => assert_eq!(got, w.1, "{name}"),
                None => assert!(std::env::var_os("TFLC_DUMP_OP_MODELS").is_some(), "{name}: no vector"),
            }
        }
    }

    /// TFLite Micro's outputs (`tools/op_test_vectors.py`, pip tflite-micro 0.dev20261023182759).
    #[rustfmt::skip]
    const LEAKY_RELU_S16_TFLM: &[(&str, &[i16])] = &[
        ("leaky_relu_s16", &[-8173, -8109, -8045, -7981, -7917, -7853, -7789, -7725, -7661, -7597, -7533, -7469, -7405, -7341, -7277, -7213, -7149, -7085, -7021, -6957, -6893, -6829, -6765, -6701, -6637, -6573, -6509, -6445, -6381, -6317, -6253, -6189, -6125, -6061, -5997, -5933, -5869, -5805, -5741, -5677, -5613, -5549, -5485, -5421, -5357, -5293, -5229, -5165, -5101, -5037, -4973, -4909, -4845, -4781, -4717, -4653, -4589, -4525, -4461, -4397, -4333, -4269, -4205, -4141, -4077, -4013, -3949, -3885, -3821, -3757, -3693, -3629, -3565, -3501, -3437, -3373, -3309, -3245, -3181, -3117, -3053, -2989, -2925, -2861, -2797, -2733, -2669, -2605, -2541, -2477, -2413, -2349, -2285, -2221, -2157, -2093, -2029, -1965, -1901, -1837, -1773, -1709, -1645, -1581, -1517, -1453, -1389, -1325, -1261, -1197, -1133, -1069, -1005, -941, -877, -813, -749, -685, -621, -557, -493, -429, -365, -301, -237, -173, -109, -45, 96, 416, 736, 1056, 1376, 1696, 2016, 2336, 2656, 2976, 3296, 3616, 3936, 4256, 4576, 4896, 5216, 5536, 5856, 6176, 6496, 6816, 7136, 7456, 7776, 8096, 8416, 8736, 9056, 9376, 9696, 10016, 10336, 10656, 10976, 11296, 11616, 11936, 12256, 12576, 12896, 13216, 13536, 13856, 14176, 14496, 14816, 15136, 15456, 15776, 16096, 16416, 16736, 17056, 17376, 17696, 18016, 18336, 18656, 18976, 19296, 19616, 19936, 20256, 20576, 20896, 21216, 21536, 21856, 22176, 22496, 22816, 23136, 23456, 23776, 24096, 24416, 24736, 25056, 25376, 25696, 26016, 26336, 26656, 26976, 27296, 27616, 27936, 28256, 28576, 28896, 29216, 29536, 29856, 30176, 30496, 30816, 31136, 31456, 31776, 32096, 32416, 32736, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, -8192, 32767, 0, -1]),
        ("leaky_relu_s16_neg", &[11442, 11352, 11263, 11173, 11084, 10994, 10904, 10815, 10725, 10636, 10546, 10456, 10367, 10277, 10188, 10098, 10008, 9919, 9829, 9740, 9650, 9560, 9471, 9381, 9292, 9202, 9112, 9023, 8933, 8844, 8754, 8664, 8575, 8485, 8396, 8306, 8216, 8127, 8037, 7948, 7858, 7768, 7679, 7589, 7500, 7410, 7320, 7231, 7141, 7052, 6962, 6872, 6783, 6693, 6604, 6514, 6424, 6335, 6245, 6156, 6066, 5976, 5887, 5797, 5708, 5618, 5528, 5439, 5349, 5260, 5170, 5080, 4991, 4901, 4812, 4722, 4632, 4543, 4453, 4364, 4274, 4184, 4095, 4005, 3916, 3826, 3736, 3647, 3557, 3468, 3378, 3288, 3199, 3109, 3020, 2930, 2840, 2751, 2661, 2572, 2482, 2392, 2303, 2213, 2124, 2034, 1944, 1855, 1765, 1676, 1586, 1496, 1407, 1317, 1228, 1138, 1048, 959, 869, 780, 690, 600, 511, 421, 332, 242, 152, 63, 39, 167, 295, 423, 551, 679, 807, 935, 1063, 1191, 1319, 1447, 1575, 1703, 1831, 1959, 2087, 2215, 2343, 2471, 2599, 2727, 2855, 2983, 3111, 3239, 3367, 3495, 3623, 3751, 3879, 4007, 4135, 4263, 4391, 4519, 4647, 4775, 4903, 5031, 5159, 5287, 5415, 5543, 5671, 5799, 5927, 6055, 6183, 6311, 6439, 6567, 6695, 6823, 6951, 7079, 7207, 7335, 7463, 7591, 7719, 7847, 7975, 8103, 8231, 8359, 8487, 8615, 8743, 8871, 8999, 9127, 9255, 9383, 9511, 9639, 9767, 9895, 10023, 10151, 10279, 10407, 10535, 10663, 10791, 10919, 11047, 11175, 11303, 11431, 11559, 11687, 11815, 11943, 12071, 12199, 12327, 12455, 12583, 12711, 12839, 12967, 13095, 13223, 13351, 13479, 13607, 13735, 13863, 13991, 14119, 14247, 14375, 14503, 14631, 14759, 14887, 15015, 15143, 15271, 15399, 15527, 15655, 15783, 15911, 16039, 16167, 16295, 11469, 16384, 0, 1]),
    ];

    #[test]
    fn malformed_models_are_errors() {
        let q = Some((0.5, 0));
        let k = || OpKind::LeakyRelu { alpha: 0.1 };
        expect_invalid(&unary_model(k(), (DType::I8, &[2, 3], q), (DType::I8, &[6], q)).0);
        expect_unsupported(&unary_model(k(), (DType::I16, &[3], None), (DType::I16, &[3], None)).0);
        expect_unsupported(&unary_model(k(), (DType::I16, &[3], q), (DType::I8, &[3], q)).0);
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
