//! DEQUANTIZE, int8, int16 and uint8 -> float32 (TFLite Micro's `DequantizeEval` types). A DEQUANTIZE of a constant (float16 or int8 weights) is
//! folded by `passes::fold` into float32 constant data and never reaches this lowering.
//!
//! Mirrors TFLite Micro `dequantize.cc` (`DequantizePrepare`): the input's per-tensor scale
//! and zero point, `reference_ops::Dequantize` at run time. The output has the input's
//! shape.

use super::unary::{lower_unary, Unary};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::DType;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::dequantize::{dequantize_s16_f32, dequantize_s8_f32, dequantize_u8_f32, DequantizeParams};

crate::runtime_struct_lit!(kernels::dequantize::DequantizeParams { scale, zero_point });

#[derive(Debug, Clone, PartialEq)]
pub enum Dequantize {
    /// int8 activations to float32.
    S8 { un: Unary, params: DequantizeParams },
    /// int16 activations to float32 (any zero point in range, as TFLite Micro).
    S16 { un: Unary, params: DequantizeParams },
    /// Legacy uint8 activations to float32.
    U8 { un: Unary, params: DequantizeParams },
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Dequantize, LowerError> {
    cx.expect_arity(1..=1, 1)?;
    let (un, [input, output]) = lower_unary(cx, false)?;
    cx.expect_dtype(output, DType::F32)?;
    if input.is_constant() {
        return Err(cx.unsupported_tensor(input, format!("{} constant that compile-time folding does not handle (float16 and per-tensor int8 fold)", input.dtype)));
    }
    match input.dtype {
        DType::I8 => {
            let q = cx.q_s8(input)?;
            Ok(Dequantize::S8 { un, params: DequantizeParams { scale: q.scale, zero_point: q.zero_point } })
        }
        DType::I16 | DType::U8 => {
            let q = super::quantize::q_int(cx, input)?;
            let params = DequantizeParams { scale: q.scale, zero_point: q.zero_point };
            Ok(if input.dtype == DType::U8 { Dequantize::U8 { un, params } } else { Dequantize::S16 { un, params } })
        }
        other => Err(cx.unsupported_tensor(input, format!("DEQUANTIZE from {other} (TFLite Micro has int8, int16 and uint8)"))),
    }
}

impl Kernel for Dequantize {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self {
            Dequantize::S8 { un, params } => un.run(s, |x, y| dequantize_s8_f32(params, x, y)),
            Dequantize::S16 { un, params } => un.run(s, |x, y| dequantize_s16_f32(params, x, y)),
            Dequantize::U8 { un, params } => un.run(s, |x, y| dequantize_u8_f32(params, x, y)),
        }
    }

    /// No in-place variant (the element size changes).
    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let (un, params, f) = match self {
            Dequantize::S8 { un, params } => (un, params, "dequantize_s8_f32"),
            Dequantize::S16 { un, params } => (un, params, "dequantize_s16_f32"),
            Dequantize::U8 { un, params } => (un, params, "dequantize_u8_f32"),
        };
        un.emit_with(cx, quote! { kernels::dequantize::DequantizeParams }, ("dequantize", f), params)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::*;
    use super::super::TensorData;
    use crate::ir::{OpKind, TensorId};

    fn model(a: (DType, &[usize], Q), out: (DType, &[usize], Q)) -> (Vec<u8>, [TensorId; 2]) {
        unary_model(OpKind::Dequantize, a, out)
    }

    #[test]
    fn every_int8_value_is_exact() {
        // TFLite: (float)(double(scale) * (x - zp)); the double product of a 9-bit integer
        // and a 24-bit scale is exact, so rounding it once to f32 is the reference.
        for (scale, zp) in [(0.5f32, 0i64), (0.0372f32, -17), (3.1e-5, 127), (117.25, -128)] {
            let (bytes, [x, z]) = model((DType::I8, &[2, 128], Some((scale, zp))), (DType::F32, &[2, 128], None));
            let all: Vec<i8> = (-128..=127).collect();
            let store = run_op0("dequantize", &bytes, &[(x, TensorData::I8(all.clone()))]);
            let want: Vec<f32> = all.iter().map(|&v| (scale as f64 * (v as f64 - zp as f64)) as f32).collect();
            assert_eq!(store.f32(z).unwrap(), &want[..], "scale {scale} zp {zp}");
        }
    }

    /// int16 and uint8, against TFLite Micro's output (float32 bit patterns).
    #[test]
    fn reference_vectors_int16_uint8() {
        let i16s: Vec<i16> = (0..300).map(|i| (i * 219 - 32768) as i16).chain([i16::MIN, -1, 0, 1, i16::MAX]).collect();
        let all_u8: Vec<u8> = (0..=255).collect();
        let cases = [
            ("dequantize_s16", DType::I16, (0.00123f32, -17i64), TensorData::I16(i16s)),
            ("dequantize_u8", DType::U8, (0.0235, 131), TensorData::U8(all_u8)),
        ];
        for ((name, dtype, q, input), want) in cases.into_iter().zip(INT16_UINT8) {
            let len = input.to_le_bytes().len() / dtype.info().size.unwrap_or(1);
            let (bytes, [x, z]) = model((dtype, &[len], Some(q)), (DType::F32, &[len], None));
            let store = run_op0(name, &bytes, &[(x, input)]);
            let got: Vec<u32> = store.f32(z).unwrap().iter().map(|v| v.to_bits()).collect();
            if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
                continue;
            }
            assert_eq!(got, want, "{name}: differs from TFLite Micro's output");
        }
    }

    const INT16_UINT8: [&[u32]; 2] = [
        // dequantize_s16
        &[
            3256951435, 3256880821, 3256810207, 3256739593, 3256668980, 3256598366, 3256527752, 3256457138, 3256386525, 3256315911, 3256245297, 3256174684, 3256104070, 3256033456, 3255962842, 3255892229, 3255821615, 3255751001, 3255680387, 3255609774,
            3255539160, 3255468546, 3255397932, 3255327319, 3255256705, 3255186091, 3255115478, 3255044864, 3254974250, 3254903636, 3254833023, 3254744914, 3254603686, 3254462459, 3254321231, 3254180004, 3254038776, 3253897549, 3253756321, 3253615094,
            3253473867, 3253332639, 3253191412, 3253050184, 3252908957, 3252767729, 3252626502, 3252485274, 3252344047, 3252202819, 3252061592, 3251920364, 3251779137, 3251637910, 3251496682, 3251355455, 3251214227, 3251073000, 3250931772, 3250790545,
            3250649317, 3250508090, 3250366862, 3250225635, 3250084407, 3249943180, 3249801952, 3249660725, 3249519498, 3249378270, 3249237043, 3249095815, 3248954588, 3248813360, 3248672133, 3248530905, 3248389678, 3248248450, 3248107223, 3247965995,
            3247824768, 3247683541, 3247542313, 3247401086, 3247259858, 3247118631, 3246977403, 3246836176, 3246694948, 3246553721, 3246412493, 3246151236, 3245868781, 3245586326, 3245303871, 3245021416, 3244738961, 3244456506, 3244174051, 3243891596,
            3243609141, 3243326686, 3243044231, 3242761777, 3242479322, 3242196867, 3241914412, 3241631957, 3241349502, 3241067047, 3240784592, 3240502137, 3240219682, 3239937227, 3239654772, 3239372317, 3239089862, 3238807408, 3238524953, 3238242498,
            3237917398, 3237352488, 3236787578, 3236222668, 3235657758, 3235092848, 3234527938, 3233963029, 3233398119, 3232833209, 3232268299, 3231703389, 3231138479, 3230573569, 3230008660, 3229273419, 3228143600, 3227013780, 3225883960, 3224754140,
            3223624321, 3222494501, 3221364681, 3219244251, 3216984612, 3214724972, 3212093802, 3207574523, 3201662232, 3189187701, 1039753869, 1053311873, 1059657519, 1064176798, 1067024647, 1069284286, 1071543925, 1073772694, 1074902514, 1076032334,
            1077162154, 1078291973, 1079421793, 1080551613, 1081681432, 1082470842, 1083035752, 1083600662, 1084165572, 1084730482, 1085295391, 1085860301, 1086425211, 1086990121, 1087555031, 1088119941, 1088684851, 1089249760, 1089814670, 1090379580,
            1090731765, 1091014220, 1091296675, 1091579130, 1091861585, 1092144040, 1092426495, 1092708949, 1092991404, 1093273859, 1093556314, 1093838769, 1094121224, 1094403679, 1094686134, 1094968589, 1095251044, 1095533499, 1095815954, 1096098409,
            1096380864, 1096663318, 1096945773, 1097228228, 1097510683, 1097793138, 1098075593, 1098358048, 1098640503, 1098915303, 1099056530, 1099197758, 1099338985, 1099480213, 1099621440, 1099762668, 1099903895, 1100045123, 1100186350, 1100327578,
            1100468805, 1100610033, 1100751260, 1100892487, 1101033715, 1101174942, 1101316170, 1101457397, 1101598625, 1101739852, 1101881080, 1102022307, 1102163535, 1102304762, 1102445990, 1102587217, 1102728445, 1102869672, 1103010899, 1103152127,
            1103293354, 1103434582, 1103575809, 1103717037, 1103858264, 1103999492, 1104140719, 1104281947, 1104423174, 1104564402, 1104705629, 1104846856, 1104988084, 1105129311, 1105270539, 1105411766, 1105552994, 1105694221, 1105835449, 1105976676,
            1106117904, 1106259131, 1106400359, 1106541586, 1106682814, 1106824041, 1106965268, 1107106496, 1107247723, 1107342603, 1107413217, 1107483831, 1107554445, 1107625058, 1107695672, 1107766286, 1107836900, 1107907513, 1107978127, 1108048741,
            1108119354, 1108189968, 1108260582, 1108331196, 1108401809, 1108472423, 1108543037, 1108613651, 1108684264, 1108754878, 1108825492, 1108896106, 1108966719, 1109037333, 1109107947, 1109178560, 1109249174, 1109319788, 1109390402, 1109461015,
            3256951435, 1017198580, 1017858931, 1018519282, 1109478427,
        ],
        // dequantize_u8
        &[
            3225749028, 3225650462, 3225551896, 3225453330, 3225354764, 3225256198, 3225157632, 3225059065, 3224960499, 3224861933, 3224763367, 3224664801, 3224566235, 3224467669, 3224369102, 3224270536, 3224171970, 3224073404, 3223974838, 3223876272,
            3223777706, 3223679139, 3223580573, 3223482007, 3223383441, 3223284875, 3223186309, 3223087743, 3222989176, 3222890610, 3222792044, 3222693478, 3222594912, 3222496346, 3222397780, 3222299214, 3222200647, 3222102081, 3222003515, 3221904949,
            3221806383, 3221707817, 3221609251, 3221510684, 3221412118, 3221313552, 3221204500, 3221007368, 3220810235, 3220613103, 3220415971, 3220218838, 3220021706, 3219824574, 3219627442, 3219430309, 3219233177, 3219036045, 3218838913, 3218641780,
            3218444648, 3218247516, 3218050383, 3217853251, 3217656119, 3217458987, 3217261854, 3217064722, 3216867590, 3216670457, 3216473325, 3216276193, 3216079061, 3215881928, 3215684796, 3215487664, 3215290531, 3215093399, 3214896267, 3214699135,
            3214502002, 3214304870, 3214107738, 3213910606, 3213713473, 3213516341, 3213319209, 3213122076, 3212924944, 3212618760, 3212224495, 3211830230, 3211435966, 3211041701, 3210647437, 3210253172, 3209858908, 3209464643, 3209070379, 3208676114,
            3208281849, 3207887585, 3207493320, 3207099056, 3206704791, 3206310527, 3205916262, 3205521998, 3205127733, 3204733468, 3204230152, 3203441622, 3202653093, 3201864564, 3201076035, 3200287506, 3199498977, 3198710448, 3197921919, 3197133390,
            3196344860, 3195053014, 3193475956, 3191898898, 3190321840, 3188744782, 3186664406, 3183510290, 3180356174, 3175121682, 3166733074, 0, 1019249426, 1027638034, 1032872526, 1036026642, 1039180758, 1041261134, 1042838192, 1044415250,
            1045992308, 1047569366, 1048861212, 1049649742, 1050438271, 1051226800, 1052015329, 1052803858, 1053592387, 1054380916, 1055169445, 1055957974, 1056746504, 1057249820, 1057644085, 1058038350, 1058432614, 1058826879, 1059221143, 1059615408,
            1060009672, 1060403937, 1060798201, 1061192466, 1061586731, 1061980995, 1062375260, 1062769524, 1063163789, 1063558053, 1063952318, 1064346582, 1064740847, 1065135112, 1065441296, 1065638428, 1065835561, 1066032693, 1066229825, 1066426958,
            1066624090, 1066821222, 1067018354, 1067215487, 1067412619, 1067609751, 1067806883, 1068004016, 1068201148, 1068398280, 1068595413, 1068792545, 1068989677, 1069186809, 1069383942, 1069581074, 1069778206, 1069975339, 1070172471, 1070369603,
            1070566735, 1070763868, 1070961000, 1071158132, 1071355265, 1071552397, 1071749529, 1071946661, 1072143794, 1072340926, 1072538058, 1072735190, 1072932323, 1073129455, 1073326587, 1073523720, 1073720852, 1073829904, 1073928470, 1074027036,
            1074125603, 1074224169, 1074322735, 1074421301, 1074519867, 1074618433, 1074716999, 1074815566, 1074914132, 1075012698, 1075111264, 1075209830, 1075308396, 1075406962, 1075505528, 1075604095, 1075702661, 1075801227, 1075899793, 1075998359,
            1076096925, 1076195491, 1076294058, 1076392624, 1076491190, 1076589756, 1076688322, 1076786888, 1076885454, 1076984021, 1077082587, 1077181153, 1077279719, 1077378285, 1077476851, 1077575417,
        ],
    ];

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, _) = model((DType::I8, &[1, 16], Some((0.0235, -4))), (DType::F32, &[1, 16], None));
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        let q = Some((0.5, 0));
        expect_invalid(&model((DType::I8, &[2, 3], q), (DType::F32, &[6], None)).0);
        expect_unsupported(&model((DType::I8, &[3], None), (DType::F32, &[3], None)).0);
        expect_invalid(&model((DType::I8, &[3], Some((-1.0, 0))), (DType::F32, &[3], None)).0);
        expect_unsupported(&model((DType::I32, &[3], q), (DType::F32, &[3], None)).0);
        expect_invalid(&model((DType::U8, &[3], Some((0.5, -1))), (DType::F32, &[3], None)).0);
        expect_unsupported(&model((DType::I8, &[3], q), (DType::I32, &[3], None)).0);
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        m.op(OpKind::Dequantize, &[Some(x)], &[]);
        expect_invalid(&m.finish());
    }
}
