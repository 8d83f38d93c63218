//! QUANTIZE: float32 -> int8 (`AffineQuantize`) and integer requantization (int8 -> int8,
//! plus the int16 -> int8, int16 -> int32 and int8 -> int16 forms the runtime has).
//!
//! Mirrors TFLite Micro `quantize_common.cc` (`PrepareQuantizeReference`): the output must
//! be per-tensor quantized; requantization uses `QuantizeMultiplier(double(s_in) /
//! double(s_out))` (the runtime's [`prepare_requantize`]) and `reference_ops::Requantize`;
//! float input uses the output's scale and zero point directly. The output has the
//! input's shape.

use super::unary::{lower_unary, Unary};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, Tensor};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::quantize::{
    prepare_requantize, quantize_f32_s8, quantize_s16_s32, quantize_s16_s8, quantize_s8_s16, quantize_s8_s8, QuantizeParams,
    RequantizeParams,
};
use tflc_runtime::quant::QuantParams;

crate::runtime_struct_lit!(kernels::quantize::QuantizeParams { scale, zero_point });
crate::runtime_struct_lit!(kernels::quantize::RequantizeParams { input_zero_point, output_zero_point, multiplier, shift });

/// Which conversion, with its compile-time parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum QuantizeKind {
    F32ToS8(QuantizeParams),
    S8ToS8(RequantizeParams),
    S16ToS8(RequantizeParams),
    S16ToS32(RequantizeParams),
    S8ToS16(RequantizeParams),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Quantize {
    pub un: Unary,
    pub kind: QuantizeKind,
}

/// The per-tensor quantization of an integer tensor, its zero point within the type's range.
fn q_int(cx: &OpCx<'_, '_>, t: &Tensor<'_>) -> Result<QuantParams, LowerError> {
    let range = match t.dtype {
        DType::I8 => i8::MIN as i32..=i8::MAX as i32,
        DType::I16 => i16::MIN as i32..=i16::MAX as i32,
        DType::I32 => i32::MIN..=i32::MAX,
        other => return Err(cx.unsupported_tensor(t, format!("element type {other}"))),
    };
    let q = cx.per_tensor_q(t)?;
    if !range.contains(&q.zero_point) {
        return Err(cx.invalid_tensor(t, format!("zero point {} is out of range for {}", q.zero_point, t.dtype)));
    }
    Ok(q)
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Quantize, LowerError> {
    let (un, [input, output]) = lower_unary(cx, false)?;
    let requant = |f: fn(RequantizeParams) -> QuantizeKind| -> Result<QuantizeKind, LowerError> {
        let (qi, qo) = (q_int(cx, input)?, q_int(cx, output)?);
        let p = prepare_requantize(qi, qo).ok_or_else(|| cx.invalid("the input/output scale ratio cannot be quantized"))?;
        Ok(f(p))
    };
    let kind = match (input.dtype, output.dtype) {
        (DType::F32, DType::I8) => {
            let q = cx.q_s8(output)?;
            QuantizeKind::F32ToS8(QuantizeParams { scale: q.scale, zero_point: q.zero_point })
        }
        (DType::I8, DType::I8) => requant(QuantizeKind::S8ToS8)?,
        (DType::I16, DType::I8) => requant(QuantizeKind::S16ToS8)?,
        (DType::I16, DType::I32) => requant(QuantizeKind::S16ToS32)?,
        (DType::I8, DType::I16) => requant(QuantizeKind::S8ToS16)?,
        (i, o) => return Err(cx.unsupported_tensor(output, format!("QUANTIZE from {i} to {o}"))),
    };
    Ok(Quantize { un, kind })
}

impl Kernel for Quantize {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match &self.kind {
            QuantizeKind::F32ToS8(p) => self.un.run(s, |x, y| quantize_f32_s8(p, x, y)),
            QuantizeKind::S8ToS8(p) => self.un.run(s, |x, y| quantize_s8_s8(p, x, y)),
            QuantizeKind::S16ToS8(p) => self.un.run(s, |x, y| quantize_s16_s8(p, x, y)),
            QuantizeKind::S16ToS32(p) => self.un.run(s, |x, y| quantize_s16_s32(p, x, y)),
            QuantizeKind::S8ToS16(p) => self.un.run(s, |x, y| quantize_s8_s16(p, x, y)),
        }
    }

    /// Only int8 -> int8 is ever placed in place ([`Kernel::in_place`]), as
    /// `quantize_s8_s8_in_place`.
    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let (f, p) = match &self.kind {
            QuantizeKind::F32ToS8(p) => {
                return self.un.emit_with(cx, quote! { kernels::quantize::QuantizeParams }, ("quantize", "quantize_f32_s8"), p)
            }
            QuantizeKind::S8ToS8(p) => ("quantize_s8_s8", p),
            QuantizeKind::S16ToS8(p) => ("quantize_s16_s8", p),
            QuantizeKind::S16ToS32(p) => ("quantize_s16_s32", p),
            QuantizeKind::S8ToS16(p) => ("quantize_s8_s16", p),
        };
        self.un.emit_with(cx, quote! { kernels::quantize::RequantizeParams }, ("quantize", f), p)
    }

    /// int8 -> int8 only (the other conversions change the element size).
    fn in_place(&self) -> Vec<(usize, usize)> {
        if matches!(self.kind, QuantizeKind::S8ToS8(_)) { vec![(0, 0)] } else { Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::*;
    use super::super::TensorData;
    use crate::ir::{OpKind, TensorId};

    fn model(a: (DType, &[usize], Q), out: (DType, &[usize], Q)) -> (Vec<u8>, [TensorId; 2]) {
        unary_model(OpKind::Quantize, a, out)
    }

    #[test]
    fn float_to_int8_rounds_half_away_and_saturates() {
        let (bytes, [x, z]) = model((DType::F32, &[9], None), (DType::I8, &[9], Some((0.5, -3))));
        let v = vec![0.0, 0.25, -0.25, 0.75, -0.75, 1.0, 100.0, -100.0, 61.9];
        let store = run_op0("quantize_f32", &bytes, &[(x, TensorData::F32(v))]);
        // x / 0.5 rounded half away from zero, plus -3, clamped.
        assert_eq!(out_i8(&store, z), vec![-3, -2, -4, -1, -5, -1, 127, -128, 121]);
    }

    #[test]
    fn requantize_int8_matches_the_real_rescaling() {
        // Identical quantization is the identity.
        let (bytes, [x, z]) = model((DType::I8, &[2, 128], Some((0.1, 5))), (DType::I8, &[2, 128], Some((0.1, 5))));
        let all: Vec<i8> = (-128..=127).collect();
        let store = run_op0("requantize_same", &bytes, &[(x, TensorData::I8(all.clone()))]);
        assert_eq!(out_i8(&store, z), all);
        // Scale ratio 2 (exact): 2 * (x - 5) - 7, saturating.
        let (bytes, [x, z]) = model((DType::I8, &[256], Some((0.5, 5))), (DType::I8, &[256], Some((0.25, -7))));
        let store = run_op0("requantize_double", &bytes, &[(x, TensorData::I8(all.clone()))]);
        let want: Vec<i8> = all.iter().map(|&v| (2 * (v as i32 - 5) - 7).clamp(-128, 127) as i8).collect();
        assert_eq!(out_i8(&store, z), want);
        // An arbitrary ratio: within one step of the real value.
        let (si, so) = (0.0371f32, 0.0517f32);
        let (bytes, [x, z]) = model((DType::I8, &[256], Some((si, -20))), (DType::I8, &[256], Some((so, 9))));
        let store = run_op0("requantize_ratio", &bytes, &[(x, TensorData::I8(all.clone()))]);
        for (&v, &g) in all.iter().zip(&out_i8(&store, z)) {
            let want = ((si as f64 * (v as f64 + 20.0) / so as f64).round() + 9.0).clamp(-128.0, 127.0);
            assert!((g as f64 - want).abs() <= 1.0, "{v}: {g} vs {want}");
        }
    }

    #[test]
    fn int16_forms() {
        let (bytes, [x, z]) = model((DType::I16, &[4], Some((0.5, 0))), (DType::I8, &[4], Some((1.0, 1))));
        let store = run_op0("requantize_s16_s8", &bytes, &[(x, TensorData::I16(vec![-1000, -4, 6, 1000]))]);
        assert_eq!(out_i8(&store, z), vec![-128, -1, 4, 127]);
        let (bytes, [x, z]) = model((DType::I16, &[3], Some((0.5, 0))), (DType::I32, &[3], Some((0.25, 0))));
        let store = run_op0("requantize_s16_s32", &bytes, &[(x, TensorData::I16(vec![-32768, 3, 32767]))]);
        assert_eq!(store.i32(z).unwrap(), &[-65536, 6, 65534]);
        let (bytes, [x, z]) = model((DType::I8, &[3], Some((1.0, 2))), (DType::I16, &[3], Some((0.5, 0))));
        let store = run_op0("requantize_s8_s16", &bytes, &[(x, TensorData::I8(vec![-128, 2, 127]))]);
        assert_eq!(store.i16(z).unwrap(), &[-260, 0, 250]);
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, _) = model((DType::F32, &[1, 16], None), (DType::I8, &[1, 16], Some((0.0235, -4))));
        insta::assert_snapshot!("float", emit_op0(&bytes));
        let (bytes, _) = model((DType::I8, &[1, 16], Some((0.5, 3))), (DType::I8, &[1, 16], Some((0.0235, -4))));
        insta::assert_snapshot!("int8", emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        let q = Some((0.5, 0));
        // Output shape differs from the input's.
        expect_invalid(&model((DType::I8, &[2, 3], q), (DType::I8, &[3, 2], q)).0);
        // Output not quantized; per-axis output; zero scale; zero point out of range.
        expect_unsupported(&model((DType::F32, &[3], None), (DType::I8, &[3], None)).0);
        expect_invalid(&model((DType::F32, &[3], None), (DType::I8, &[3], Some((0.0, 0)))).0);
        expect_invalid(&model((DType::I8, &[3], Some((0.5, -129))), (DType::I8, &[3], q)).0);
        expect_invalid(&model((DType::I16, &[3], q), (DType::I32, &[3], Some((0.5, i64::from(i32::MAX) + 1)))).0);
        // Unsupported conversions.
        expect_unsupported(&model((DType::F32, &[3], None), (DType::I16, &[3], q)).0);
        expect_unsupported(&model((DType::U8, &[3], q), (DType::I8, &[3], q)).0);
        expect_unsupported(&model((DType::I8, &[3], None), (DType::I8, &[3], q)).0);
        // Two inputs; no output.
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        let z = m.activation("z", DType::I8, &[3], q);
        m.op(OpKind::Quantize, &[Some(x), Some(x)], &[z]);
        expect_invalid(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        m.op(OpKind::Quantize, &[Some(x)], &[]);
        expect_invalid(&m.finish());
        // A per-axis output quantization.
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::F32, &[2], None);
        let z = m.tensor(crate::tflite::builder::TensorSpec {
            name: "z".into(),
            dtype: DType::I8,
            shape: vec![2],
            shape_signature: None,
            quant: Some(crate::ir::Quantization { scale: vec![0.5, 0.25], zero_point: vec![0, 0], axis: Some(0) }),
            data: None,
            variable: false,
        });
        m.op(OpKind::Quantize, &[Some(x)], &[z]);
        expect_unsupported(&m.finish());
    }

    /// int8 -> int8 requantization over every input value (not in `../shared/ops`), and
    /// float32 -> int8 on values at and between rounding ties; TFLite Micro's output.
    #[test]
    fn reference_vectors() {
        let all: Vec<i8> = (-128..=127).collect();
        let (bytes, [x, z]) = model((DType::I8, &[256], Some((0.0371, -20))), (DType::I8, &[256], Some((0.0517, 9))));
        check_vector("quantize_s8_s8_down", &bytes, &[(x, TensorData::I8(all.clone()))], z, QUANTIZE_S8_S8_DOWN);
        let (bytes, [x, z]) = model((DType::I8, &[256], Some((0.0517, 9))), (DType::I8, &[256], Some((0.0113, -3))));
        check_vector("quantize_s8_s8_up", &bytes, &[(x, TensorData::I8(all))], z, QUANTIZE_S8_S8_UP);
        let v: Vec<f32> = (-100..100).map(|i| i as f32 * 0.0625 + if i % 3 == 0 { 0.0 } else { 0.013 }).collect();
        let (bytes, [x, z]) = model((DType::F32, &[200], None), (DType::I8, &[200], Some((0.03125, -5))));
        check_vector("quantize_f32_ties", &bytes, &[(x, TensorData::F32(v))], z, QUANTIZE_F32_TIES);
    }


    const QUANTIZE_S8_S8_DOWN: &[i8] = &[
        -69, -68, -67, -66, -66, -65, -64, -63, -63, -62, -61, -61, -60, -59, -58, -58, -57, -56, -56, -55,
        -54, -53, -53, -52, -51, -51, -50, -49, -48, -48, -47, -46, -46, -45, -44, -43, -43, -42, -41, -41,
        -40, -39, -38, -38, -37, -36, -35, -35, -34, -33, -33, -32, -31, -30, -30, -29, -28, -28, -27, -26,
        -25, -25, -24, -23, -23, -22, -21, -20, -20, -19, -18, -18, -17, -16, -15, -15, -14, -13, -13, -12,
        -11, -10, -10, -9, -8, -8, -7, -6, -5, -5, -4, -3, -2, -2, -1, 0, 0, 1, 2, 3,
        3, 4, 5, 5, 6, 7, 8, 8, 9, 10, 10, 11, 12, 13, 13, 14, 15, 15, 16, 17,
        18, 18, 19, 20, 20, 21, 22, 23, 23, 24, 25, 26, 26, 27, 28, 28, 29, 30, 31, 31,
        32, 33, 33, 34, 35, 36, 36, 37, 38, 38, 39, 40, 41, 41, 42, 43, 43, 44, 45, 46,
        46, 47, 48, 48, 49, 50, 51, 51, 52, 53, 53, 54, 55, 56, 56, 57, 58, 59, 59, 60,
        61, 61, 62, 63, 64, 64, 65, 66, 66, 67, 68, 69, 69, 70, 71, 71, 72, 73, 74, 74,
        75, 76, 76, 77, 78, 79, 79, 80, 81, 81, 82, 83, 84, 84, 85, 86, 87, 87, 88, 89,
        89, 90, 91, 92, 92, 93, 94, 94, 95, 96, 97, 97, 98, 99, 99, 100, 101, 102, 102, 103,
        104, 104, 105, 106, 107, 107, 108, 109, 109, 110, 111, 112, 112, 113, 114, 114,
    ];
    const QUANTIZE_S8_S8_UP: &[i8] = &[
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -122, -117, -113, -108, -104, -99, -95, -90, -85,
        -81, -76, -72, -67, -62, -58, -53, -49, -44, -40, -35, -30, -26, -21, -17, -12, -8, -3, 2, 6,
        11, 15, 20, 24, 29, 34, 38, 43, 47, 52, 56, 61, 66, 70, 75, 79, 84, 89, 93, 98,
        102, 107, 111, 116, 121, 125, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
    ];
    const QUANTIZE_F32_TIES: &[i8] = &[
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127,
        -125, -123, -121, -119, -117, -115, -113, -111, -109, -107, -105, -103, -101, -99, -97, -95, -93, -91, -89, -87,
        -85, -83, -81, -79, -77, -75, -73, -71, -69, -67, -65, -63, -61, -59, -57, -55, -53, -51, -49, -47,
        -45, -43, -41, -39, -37, -35, -33, -31, -29, -27, -25, -23, -21, -19, -17, -15, -13, -11, -9, -7,
        -5, -3, -1, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33,
        35, 37, 39, 41, 43, 45, 47, 49, 51, 53, 55, 57, 59, 61, 63, 65, 67, 69, 71, 73,
        75, 77, 79, 81, 83, 85, 87, 89, 91, 93, 95, 97, 99, 101, 103, 105, 107, 109, 111, 113,
        115, 117, 119, 121, 123, 125, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
    ];
}
