//! QUANTIZE: float32 -> int8 and int16 (`AffineQuantize`) and integer requantization, every
//! pair TFLite Micro's `EvalQuantizeReference` has: int8 -> int8, int16, int32, uint8;
//! int16 -> int8, int16, int32; uint8 -> int8; int32 -> int8, int16.
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
    prepare_requantize, quantize_f32_s16, quantize_f32_s8, quantize_s16_s16, quantize_s16_s32, quantize_s16_s8, quantize_s32_s16,
    quantize_s32_s8, quantize_s8_s16, quantize_s8_s32, quantize_s8_s8, quantize_s8_u8, quantize_u8_s8, QuantizeParams, RequantizeParams,
};
use tflc_runtime::quant::QuantParams;

crate::runtime_struct_lit!(kernels::quantize::QuantizeParams { scale, zero_point });
crate::runtime_struct_lit!(kernels::quantize::RequantizeParams { input_zero_point, output_zero_point, multiplier, shift });

/// Which conversion, with its compile-time parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum QuantizeKind {
    F32ToS8(QuantizeParams),
    F32ToS16(QuantizeParams),
    S8ToS8(RequantizeParams),
    S16ToS8(RequantizeParams),
    S16ToS32(RequantizeParams),
    S8ToS16(RequantizeParams),
    S16ToS16(RequantizeParams),
    S8ToS32(RequantizeParams),
    S8ToU8(RequantizeParams),
    U8ToS8(RequantizeParams),
    S32ToS8(RequantizeParams),
    S32ToS16(RequantizeParams),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Quantize {
    pub un: Unary,
    pub kind: QuantizeKind,
}

/// The per-tensor quantization of an integer tensor, its zero point within the type's range.
pub(crate) fn q_int(cx: &OpCx<'_, '_>, t: &Tensor<'_>) -> Result<QuantParams, LowerError> {
    let range = match t.dtype {
        DType::I8 => i8::MIN as i32..=i8::MAX as i32,
        DType::U8 => 0..=u8::MAX as i32,
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
        (DType::F32, DType::I16) => {
            let q = q_int(cx, output)?;
            QuantizeKind::F32ToS16(QuantizeParams { scale: q.scale, zero_point: q.zero_point })
        }
        (DType::I8, DType::I8) => requant(QuantizeKind::S8ToS8)?,
        (DType::I16, DType::I8) => requant(QuantizeKind::S16ToS8)?,
        (DType::I16, DType::I32) => requant(QuantizeKind::S16ToS32)?,
        (DType::I8, DType::I16) => requant(QuantizeKind::S8ToS16)?,
        (DType::I16, DType::I16) => requant(QuantizeKind::S16ToS16)?,
        (DType::I8, DType::I32) => requant(QuantizeKind::S8ToS32)?,
        (DType::I8, DType::U8) => requant(QuantizeKind::S8ToU8)?,
        (DType::U8, DType::I8) => requant(QuantizeKind::U8ToS8)?,
        (DType::I32, DType::I8) => requant(QuantizeKind::S32ToS8)?,
        (DType::I32, DType::I16) => requant(QuantizeKind::S32ToS16)?,
        (i, o) => return Err(cx.unsupported_tensor(output, format!("QUANTIZE from {i} to {o}"))),
    };
    Ok(Quantize { un, kind })
}

impl Kernel for Quantize {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match &self.kind {
            QuantizeKind::F32ToS8(p) => self.un.run(s, |x, y| quantize_f32_s8(p, x, y)),
            QuantizeKind::F32ToS16(p) => self.un.run(s, |x, y| quantize_f32_s16(p, x, y)),
            QuantizeKind::S8ToS8(p) => self.un.run(s, |x, y| quantize_s8_s8(p, x, y)),
            QuantizeKind::S16ToS8(p) => self.un.run(s, |x, y| quantize_s16_s8(p, x, y)),
            QuantizeKind::S16ToS32(p) => self.un.run(s, |x, y| quantize_s16_s32(p, x, y)),
            QuantizeKind::S8ToS16(p) => self.un.run(s, |x, y| quantize_s8_s16(p, x, y)),
            QuantizeKind::S16ToS16(p) => self.un.run(s, |x, y| quantize_s16_s16(p, x, y)),
            QuantizeKind::S8ToS32(p) => self.un.run(s, |x, y| quantize_s8_s32(p, x, y)),
            QuantizeKind::S8ToU8(p) => self.un.run(s, |x, y| quantize_s8_u8(p, x, y)),
            QuantizeKind::U8ToS8(p) => self.un.run(s, |x, y| quantize_u8_s8(p, x, y)),
            QuantizeKind::S32ToS8(p) => self.un.run(s, |x, y| quantize_s32_s8(p, x, y)),
            QuantizeKind::S32ToS16(p) => self.un.run(s, |x, y| quantize_s32_s16(p, x, y)),
        }
    }

    /// Only int8 -> int8 and int16 -> int16 are ever placed in place ([`Kernel::in_place`]),
    /// as `quantize_s8_s8_in_place` / `quantize_s16_s16_in_place`.
    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let (f, p) = match &self.kind {
            QuantizeKind::F32ToS8(p) => {
                return self.un.emit_with(cx, quote! { kernels::quantize::QuantizeParams }, ("quantize", "quantize_f32_s8"), p)
            }
            QuantizeKind::F32ToS16(p) => {
                return self.un.emit_with(cx, quote! { kernels::quantize::QuantizeParams }, ("quantize", "quantize_f32_s16"), p)
            }
            QuantizeKind::S8ToS8(p) => ("quantize_s8_s8", p),
            QuantizeKind::S16ToS8(p) => ("quantize_s16_s8", p),
            QuantizeKind::S16ToS32(p) => ("quantize_s16_s32", p),
            QuantizeKind::S8ToS16(p) => ("quantize_s8_s16", p),
            QuantizeKind::S16ToS16(p) => ("quantize_s16_s16", p),
            QuantizeKind::S8ToS32(p) => ("quantize_s8_s32", p),
            QuantizeKind::S8ToU8(p) => ("quantize_s8_u8", p),
            QuantizeKind::U8ToS8(p) => ("quantize_u8_s8", p),
            QuantizeKind::S32ToS8(p) => ("quantize_s32_s8", p),
            QuantizeKind::S32ToS16(p) => ("quantize_s32_s16", p),
        };
        self.un.emit_with(cx, quote! { kernels::quantize::RequantizeParams }, ("quantize", f), p)
    }

    /// int8 -> int8 and int16 -> int16 (the other conversions change the element type).
    fn in_place(&self) -> Vec<(usize, usize)> {
        if matches!(self.kind, QuantizeKind::S8ToS8(_) | QuantizeKind::S16ToS16(_)) { vec![(0, 0)] } else { Vec::new() }
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
        expect_unsupported(&model((DType::F32, &[3], None), (DType::U8, &[3], q)).0);
        expect_unsupported(&model((DType::U8, &[3], q), (DType::I16, &[3], q)).0);
        expect_invalid(&model((DType::U8, &[3], Some((0.5, 256))), (DType::I8, &[3], q)).0);
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

    /// The pairs TFLite Micro added beyond int8 (float32 -> int16 and the integer
    /// requantizations), against TFLite Micro's output: each `(name, model, input, output)`.
    #[test]
    fn reference_vectors_other_types() {
        let all8: Vec<i8> = (-128..=127).collect();
        let all_u8: Vec<u8> = (0..=255).collect();
        let i16s: Vec<i16> = (0..300).map(|i| (i * 219 - 32768) as i16).chain([i16::MIN, -1, 0, 1, i16::MAX]).collect();
        let i32s: Vec<i32> = (0..200).map(|i| (i - 100) * 1_000_003 + i * 7).chain([i32::MIN, i32::MIN + 1, -1, 0, 1, i32::MAX]).collect();
        let floats: Vec<f32> = (-150..150).map(|i| i as f32 * 0.125 + if i % 3 == 0 { 0.0 } else { 0.01 }).chain([1e5, -1e5, 8191.9, -8192.1]).collect();
        let n = |v: usize| [v];
        type Case<'a> = (&'a str, (DType, Q), (DType, Q), TensorData);
        let cases: Vec<Case> = vec![
            ("quantize_f32_s16", (DType::F32, None), (DType::I16, Some((0.25, 7))), TensorData::F32(floats.clone())),
            ("quantize_s16_s16", (DType::I16, Some((0.0371, 5))), (DType::I16, Some((0.0517, -9))), TensorData::I16(i16s.clone())),
            ("quantize_s8_s32", (DType::I8, Some((0.0371, -20))), (DType::I32, Some((0.0013, 11))), TensorData::I8(all8.clone())),
            ("quantize_s8_u8", (DType::I8, Some((0.0371, -20))), (DType::U8, Some((0.0517, 131))), TensorData::I8(all8.clone())),
            ("quantize_s8_u8_flip", (DType::I8, Some((0.05, -3))), (DType::U8, Some((0.05, 125))), TensorData::I8(all8)),
            ("quantize_u8_s8", (DType::U8, Some((0.0517, 131))), (DType::I8, Some((0.0371, -20))), TensorData::U8(all_u8)),
            ("quantize_s32_s8", (DType::I32, Some((1e-6, 3))), (DType::I8, Some((0.5, -4))), TensorData::I32(i32s.clone())),
            ("quantize_s32_s16", (DType::I32, Some((1e-6, 3))), (DType::I16, Some((0.01, 17))), TensorData::I32(i32s)),
        ];
        for ((name, (ti, qi), (to, qo), input), want) in cases.into_iter().zip(OTHER_TYPES) {
            let len = input.to_le_bytes().len() / ti.info().size.unwrap_or(1);
            let (bytes, [x, z]) = model((ti, &n(len), qi), (to, &n(len), qo));
            let store = run_op0(name, &bytes, &[(x, input)]);
            let got: Vec<i64> = match store.get(z).unwrap() {
                TensorData::I8(v) => v.iter().map(|&x| x as i64).collect(),
                TensorData::U8(v) => v.iter().map(|&x| x as i64).collect(),
                TensorData::I16(v) => v.iter().map(|&x| x as i64).collect(),
                TensorData::I32(v) => v.iter().map(|&x| x as i64).collect(),
                other => panic!("{name}: output {other:?}"),
            };
            if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
                continue;
            }
            assert_eq!(got, want, "{name}: differs from TFLite Micro's output");
        }
    }

    const OTHER_TYPES: [&[i64]; 8] = [
        // quantize_f32_s16
        &[
            -68, -67, -67, -67, -66, -65, -65, -64, -64, -64, -63, -62, -62, -61, -61, -61, -60, -59, -59, -58,
            -58, -58, -57, -56, -56, -55, -55, -55, -54, -53, -53, -52, -52, -52, -51, -50, -50, -49, -49, -49,
            -48, -47, -47, -46, -46, -46, -45, -44, -44, -43, -43, -43, -42, -41, -41, -40, -40, -40, -39, -38,
            -38, -37, -37, -37, -36, -35, -35, -34, -34, -34, -33, -32, -32, -31, -31, -31, -30, -29, -29, -28,
            -28, -28, -27, -26, -26, -25, -25, -25, -24, -23, -23, -22, -22, -22, -21, -20, -20, -19, -19, -19,
            -18, -17, -17, -16, -16, -16, -15, -14, -14, -13, -13, -13, -12, -11, -11, -10, -10, -10, -9, -8,
            -8, -7, -7, -7, -6, -5, -5, -4, -4, -4, -3, -2, -2, -1, -1, -1, 0, 1, 1, 2,
            2, 2, 3, 4, 4, 5, 5, 5, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12,
            12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22,
            22, 23, 23, 24, 24, 25, 25, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31, 32,
            32, 33, 33, 34, 34, 35, 35, 36, 36, 37, 37, 38, 38, 39, 39, 40, 40, 41, 41, 42,
            42, 43, 43, 44, 44, 45, 45, 46, 46, 47, 47, 48, 48, 49, 49, 50, 50, 51, 51, 52,
            52, 53, 53, 54, 54, 55, 55, 56, 56, 57, 57, 58, 58, 59, 59, 60, 60, 61, 61, 62,
            62, 63, 63, 64, 64, 65, 65, 66, 66, 67, 67, 68, 68, 69, 69, 70, 70, 71, 71, 72,
            72, 73, 73, 74, 74, 75, 75, 76, 76, 77, 77, 78, 78, 79, 79, 80, 80, 81, 81, 82,
            32767, -32768, 32767, -32761,
        ],
        // quantize_s16_s16
        &[
            -23527, -23370, -23213, -23055, -22898, -22741, -22584, -22427, -22270, -22113, -21955, -21798, -21641, -21484, -21327, -21170, -21012, -20855, -20698, -20541,
            -20384, -20227, -20070, -19912, -19755, -19598, -19441, -19284, -19127, -18969, -18812, -18655, -18498, -18341, -18184, -18027, -17869, -17712, -17555, -17398,
            -17241, -17084, -16926, -16769, -16612, -16455, -16298, -16141, -15984, -15826, -15669, -15512, -15355, -15198, -15041, -14883, -14726, -14569, -14412, -14255,
            -14098, -13941, -13783, -13626, -13469, -13312, -13155, -12998, -12840, -12683, -12526, -12369, -12212, -12055, -11898, -11740, -11583, -11426, -11269, -11112,
            -10955, -10797, -10640, -10483, -10326, -10169, -10012, -9854, -9697, -9540, -9383, -9226, -9069, -8912, -8754, -8597, -8440, -8283, -8126, -7969,
            -7811, -7654, -7497, -7340, -7183, -7026, -6869, -6711, -6554, -6397, -6240, -6083, -5926, -5768, -5611, -5454, -5297, -5140, -4983, -4826,
            -4668, -4511, -4354, -4197, -4040, -3883, -3725, -3568, -3411, -3254, -3097, -2940, -2783, -2625, -2468, -2311, -2154, -1997, -1840, -1682,
            -1525, -1368, -1211, -1054, -897, -740, -582, -425, -268, -111, 46, 203, 361, 518, 675, 832, 989, 1146, 1303, 1461,
            1618, 1775, 1932, 2089, 2246, 2404, 2561, 2718, 2875, 3032, 3189, 3347, 3504, 3661, 3818, 3975, 4132, 4289, 4447, 4604,
            4761, 4918, 5075, 5232, 5390, 5547, 5704, 5861, 6018, 6175, 6332, 6490, 6647, 6804, 6961, 7118, 7275, 7433, 7590, 7747,
            7904, 8061, 8218, 8375, 8533, 8690, 8847, 9004, 9161, 9318, 9476, 9633, 9790, 9947, 10104, 10261, 10418, 10576, 10733, 10890,
            11047, 11204, 11361, 11519, 11676, 11833, 11990, 12147, 12304, 12461, 12619, 12776, 12933, 13090, 13247, 13404, 13562, 13719, 13876, 14033,
            14190, 14347, 14504, 14662, 14819, 14976, 15133, 15290, 15447, 15605, 15762, 15919, 16076, 16233, 16390, 16548, 16705, 16862, 17019, 17176,
            17333, 17490, 17648, 17805, 17962, 18119, 18276, 18433, 18591, 18748, 18905, 19062, 19219, 19376, 19533, 19691, 19848, 20005, 20162, 20319,
            20476, 20634, 20791, 20948, 21105, 21262, 21419, 21576, 21734, 21891, 22048, 22205, 22362, 22519, 22677, 22834, 22991, 23148, 23305, 23462,
            -23527, -13, -13, -12, 23501,
        ],
        // quantize_s8_s32
        &[
            -3071, -3043, -3014, -2986, -2957, -2928, -2900, -2871, -2843, -2814, -2786, -2757, -2729, -2700, -2672, -2643, -2615, -2586, -2557, -2529,
            -2500, -2472, -2443, -2415, -2386, -2358, -2329, -2301, -2272, -2244, -2215, -2186, -2158, -2129, -2101, -2072, -2044, -2015, -1987, -1958,
            -1930, -1901, -1873, -1844, -1815, -1787, -1758, -1730, -1701, -1673, -1644, -1616, -1587, -1559, -1530, -1502, -1473, -1444, -1416, -1387,
            -1359, -1330, -1302, -1273, -1245, -1216, -1188, -1159, -1131, -1102, -1073, -1045, -1016, -988, -959, -931, -902, -874, -845, -817,
            -788, -760, -731, -702, -674, -645, -617, -588, -560, -531, -503, -474, -446, -417, -389, -360, -331, -303, -274, -246,
            -217, -189, -160, -132, -103, -75, -46, -18, 11, 40, 68, 97, 125, 154, 182, 211, 239, 268, 296, 325,
            353, 382, 411, 439, 468, 496, 525, 553, 582, 610, 639, 667, 696, 724, 753, 782, 810, 839, 867, 896,
            924, 953, 981, 1010, 1038, 1067, 1095, 1124, 1153, 1181, 1210, 1238, 1267, 1295, 1324, 1352, 1381, 1409, 1438, 1466,
            1495, 1524, 1552, 1581, 1609, 1638, 1666, 1695, 1723, 1752, 1780, 1809, 1837, 1866, 1895, 1923, 1952, 1980, 2009, 2037,
            2066, 2094, 2123, 2151, 2180, 2208, 2237, 2266, 2294, 2323, 2351, 2380, 2408, 2437, 2465, 2494, 2522, 2551, 2579, 2608,
            2637, 2665, 2694, 2722, 2751, 2779, 2808, 2836, 2865, 2893, 2922, 2950, 2979, 3008, 3036, 3065, 3093, 3122, 3150, 3179,
            3207, 3236, 3264, 3293, 3321, 3350, 3379, 3407, 3436, 3464, 3493, 3521, 3550, 3578, 3607, 3635, 3664, 3692, 3721, 3750,
            3778, 3807, 3835, 3864, 3892, 3921, 3949, 3978, 4006, 4035, 4063, 4092, 4121, 4149, 4178, 4206,
        ],
        // quantize_s8_u8
        &[
            53, 54, 55, 56, 56, 57, 58, 59, 59, 60, 61, 61, 62, 63, 64, 64, 65, 66, 66, 67,
            68, 69, 69, 70, 71, 71, 72, 73, 74, 74, 75, 76, 76, 77, 78, 79, 79, 80, 81, 81,
            82, 83, 84, 84, 85, 86, 87, 87, 88, 89, 89, 90, 91, 92, 92, 93, 94, 94, 95, 96,
            97, 97, 98, 99, 99, 100, 101, 102, 102, 103, 104, 104, 105, 106, 107, 107, 108, 109, 109, 110,
            111, 112, 112, 113, 114, 114, 115, 116, 117, 117, 118, 119, 120, 120, 121, 122, 122, 123, 124, 125,
            125, 126, 127, 127, 128, 129, 130, 130, 131, 132, 132, 133, 134, 135, 135, 136, 137, 137, 138, 139,
            140, 140, 141, 142, 142, 143, 144, 145, 145, 146, 147, 148, 148, 149, 150, 150, 151, 152, 153, 153,
            154, 155, 155, 156, 157, 158, 158, 159, 160, 160, 161, 162, 163, 163, 164, 165, 165, 166, 167, 168,
            168, 169, 170, 170, 171, 172, 173, 173, 174, 175, 175, 176, 177, 178, 178, 179, 180, 181, 181, 182,
            183, 183, 184, 185, 186, 186, 187, 188, 188, 189, 190, 191, 191, 192, 193, 193, 194, 195, 196, 196,
            197, 198, 198, 199, 200, 201, 201, 202, 203, 203, 204, 205, 206, 206, 207, 208, 209, 209, 210, 211,
            211, 212, 213, 214, 214, 215, 216, 216, 217, 218, 219, 219, 220, 221, 221, 222, 223, 224, 224, 225,
            226, 226, 227, 228, 229, 229, 230, 231, 231, 232, 233, 234, 234, 235, 236, 236,
        ],
        // quantize_s8_u8_flip
        &[
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
            20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
            40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59,
            60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79,
            80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99,
            100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119,
            120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139,
            140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159,
            160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179,
            180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199,
            200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219,
            220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239,
            240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255,
        ],
        // quantize_u8_s8
        &[
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -126, -125, -123, -122, -120,
            -119, -118, -116, -115, -113, -112, -111, -109, -108, -106, -105, -104, -102, -101, -99, -98, -97, -95, -94, -92,
            -91, -90, -88, -87, -85, -84, -83, -81, -80, -79, -77, -76, -74, -73, -72, -70, -69, -67, -66, -65,
            -63, -62, -60, -59, -58, -56, -55, -53, -52, -51, -49, -48, -46, -45, -44, -42, -41, -40, -38, -37,
            -35, -34, -33, -31, -30, -28, -27, -26, -24, -23, -21, -20, -19, -17, -16, -14, -13, -12, -10, -9,
            -7, -6, -5, -3, -2, 0, 1, 2, 4, 5, 6, 8, 9, 11, 12, 13, 15, 16, 18, 19,
            20, 22, 23, 25, 26, 27, 29, 30, 32, 33, 34, 36, 37, 39, 40, 41, 43, 44, 45, 47,
            48, 50, 51, 52, 54, 55, 57, 58, 59, 61, 62, 64, 65, 66, 68, 69, 71, 72, 73, 75,
            76, 78, 79, 80, 82, 83, 85, 86, 87, 89, 90, 91, 93, 94, 96, 97, 98, 100, 101, 103,
            104, 105, 107, 108, 110, 111, 112, 114, 115, 117, 118, 119, 121, 122, 124, 125, 126, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        ],
        // quantize_s32_s8
        &[
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
            -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -126,
            -124, -122, -120, -118, -116, -114, -112, -110, -108, -106, -104, -102, -100, -98, -96, -94, -92, -90, -88, -86,
            -84, -82, -80, -78, -76, -74, -72, -70, -68, -66, -64, -62, -60, -58, -56, -54, -52, -50, -48, -46,
            -44, -42, -40, -38, -36, -34, -32, -30, -28, -26, -24, -22, -20, -18, -16, -14, -12, -10, -8, -6,
            -4, -2, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34,
            36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62, 64, 66, 68, 70, 72, 74,
            76, 78, 80, 82, 84, 86, 88, 90, 92, 94, 96, 98, 100, 102, 104, 106, 108, 110, 112, 114,
            116, 118, 120, 122, 124, 126, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
            127, 127, -4, -4, -4, 127,
        ],
        // quantize_s32_s16
        &[
            -9983, -9883, -9783, -9683, -9583, -9483, -9383, -9283, -9183, -9083, -8983, -8883, -8783, -8683, -8583, -8483, -8383, -8283, -8183, -8083,
            -7983, -7883, -7783, -7683, -7583, -7483, -7383, -7283, -7183, -7083, -6983, -6883, -6783, -6683, -6583, -6483, -6383, -6283, -6183, -6083,
            -5983, -5883, -5783, -5683, -5583, -5483, -5383, -5283, -5183, -5083, -4983, -4883, -4783, -4683, -4583, -4483, -4383, -4283, -4183, -4083,
            -3983, -3883, -3783, -3683, -3583, -3483, -3383, -3283, -3183, -3083, -2983, -2883, -2783, -2683, -2583, -2483, -2383, -2283, -2183, -2083,
            -1983, -1883, -1783, -1683, -1583, -1483, -1383, -1283, -1183, -1083, -983, -883, -783, -683, -583, -483, -383, -283, -183, -83,
            17, 117, 217, 317, 417, 517, 617, 717, 817, 917, 1017, 1117, 1217, 1317, 1417, 1517, 1617, 1717, 1817, 1917,
            2017, 2117, 2217, 2317, 2417, 2517, 2617, 2717, 2817, 2917, 3017, 3117, 3217, 3317, 3417, 3517, 3617, 3717, 3817, 3917,
            4017, 4117, 4217, 4317, 4417, 4517, 4617, 4717, 4817, 4917, 5017, 5117, 5217, 5317, 5417, 5517, 5617, 5717, 5817, 5917,
            6017, 6117, 6217, 6317, 6417, 6517, 6617, 6717, 6817, 6917, 7017, 7117, 7217, 7317, 7417, 7517, 7617, 7717, 7817, 7917,
            8017, 8117, 8217, 8317, 8417, 8517, 8617, 8717, 8817, 8917, 9017, 9117, 9217, 9317, 9417, 9517, 9617, 9717, 9817, 9917,
            32767, 32767, 17, 17, 17, 32767,
        ],
    ];

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
