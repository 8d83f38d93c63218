//! DIV, int32, float32 (TFLite Micro `div.cc`, `EvalDiv<T>`) and int8 (`EvalQuantized`):
//! broadcasting, the fused activation's clamp (`CalculateActivationRange`, for int8
//! `CalculateActivationRangeQuantized`), int32 truncating division with Cortex-M `SDIV`
//! results where C is undefined (see `tflc_runtime::kernels::div`). int32 operands must be
//! unquantized, as TFLite Micro's Prepare requires. int8 follows `reference/div.h`'s
//! fixed-point reciprocal (`tflc_runtime::kernels::div::div_s8_elem`). Where that
//! arithmetic shifts right by 32 or more (small quotients when the output multiplier is
//! below 2^7), C leaves the result undefined and TFLite Micro's x86 and Arm builds differ:
//! tflc computes what it computes on a Cortex-M. Scales that would make the shift negative
//! for some pair of inputs (an output multiplier of 2^23 or more) are refused with the op
//! and the first such pair named.

use super::binary::{lower_binary, Binary};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{Activation, DType};
use proc_macro2::TokenStream;
use quote::quote;
use super::binary::NO_BROADCAST;
use tflc_runtime::kernels::div::{div_f32, div_i32, div_s8, div_s8_defined, prepare_div_s8, DivS8Params};
use tflc_runtime::kernels::nd::{activation_range_f32, activation_range_i32, PlainBinaryParams};

crate::runtime_struct_lit!(kernels::div::DivS8Params<'a> {
    input1_offset,
    input2_offset,
    output_offset,
    output_multiplier,
    output_shift,
    activation_min,
    activation_max,
    broadcast,
});

#[derive(Debug, Clone, PartialEq)]
pub enum DivScheme {
    I32 { min: i32, max: i32 },
    F32 { min: f32, max: f32 },
    /// int8, with the [`NO_BROADCAST`] placeholder (the walk borrows `bin.plan`).
    S8(DivS8Params<'static>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Div {
    pub bin: Binary,
    pub scheme: DivScheme,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, activation: Activation) -> Result<Div, LowerError> {
    let (bin, [i1, i2, o]) = lower_binary(cx)?;
    let act = cx.fused_activation(activation)?;
    let scheme = match o.dtype {
        DType::I32 => {
            for t in [i1, i2, o] {
                cx.expect_dtype(t, DType::I32)?;
                if t.quant.as_ref().is_some_and(|q| !q.scale.is_empty()) {
                    return Err(cx.unsupported_tensor(t, "a quantized int32 DIV (TFLite Micro supports only unquantized int32)"));
                }
            }
            let (min, max) = activation_range_i32(act);
            DivScheme::I32 { min, max }
        }
        DType::F32 => {
            cx.expect_dtype(i1, DType::F32)?;
            cx.expect_dtype(i2, DType::F32)?;
            let (min, max) = activation_range_f32(act);
            DivScheme::F32 { min, max }
        }
        DType::I8 => {
            let (q1, q2, qo) = (cx.q_s8(i1)?, cx.q_s8(i2)?, cx.q_s8(o)?);
            let range = cx.activation_range_s8(activation, qo)?;
            let p = prepare_div_s8(q1, q2, qo, range, NO_BROADCAST).ok_or_else(|| cx.invalid("the scales give a multiplier TFLite cannot quantize"))?;
            if let Err((a, b, e)) = div_s8_defined(&p) {
                return Err(cx.unsupported_tensor(
                    o,
                    format!(
                        "int8 DIV with these scales: for inputs {a} / {b} TFLite's reference would divide by 2^{e}, a negative shift C leaves undefined (output multiplier exponent {}, at most 22 works for every input)",
                        p.output_shift
                    ),
                ));
            }
            DivScheme::S8(p)
        }
        other => return Err(cx.unsupported_tensor(o, format!("element type {other} (tflc's DIV is int8, int32 or float32)"))),
    };
    Ok(Div { bin, scheme })
}

impl Kernel for Div {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let n = self.bin.plan.as_broadcast().out_len();
        let broadcast = self.bin.broadcast(false);
        let out = match self.scheme {
            DivScheme::I32 { min, max } => {
                let mut out = s.take_i32(self.bin.output, n);
                let (a, b) = self.bin.operands(s, TensorStore::i32)?;
                div_i32(&PlainBinaryParams { activation_min: min, activation_max: max, broadcast }, a, b, &mut out);
                TensorData::I32(out)
            }
            DivScheme::F32 { min, max } => {
                let mut out = s.take_f32(self.bin.output, n);
                let (a, b) = self.bin.operands(s, TensorStore::f32)?;
                div_f32(&PlainBinaryParams { activation_min: min, activation_max: max, broadcast }, a, b, &mut out);
                TensorData::F32(out)
            }
            DivScheme::S8(held) => {
                let p = DivS8Params { broadcast, ..held };
                return self.bin.execute_s8(s, |a, b, out| div_s8(&p, a, b, out));
            }
        };
        s.insert(self.bin.output, out);
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let bin = &self.bin;
        let broadcast = bin.broadcast(false);
        match self.scheme {
            DivScheme::I32 { min, max } => bin.emit_in_place_capable(cx, quote! { kernels::nd::PlainBinaryParams<'static, i32> }, ("div", "div_i32"), |_| {
                PlainBinaryParams { activation_min: min, activation_max: max, broadcast }
            }),
            DivScheme::F32 { min, max } => bin.emit_in_place_capable(cx, quote! { kernels::nd::PlainBinaryParams<'static, f32> }, ("div", "div_f32"), |_| {
                PlainBinaryParams { activation_min: min, activation_max: max, broadcast }
            }),
            DivScheme::S8(held) => bin.emit_in_place_capable(cx, quote! { kernels::div::DivS8Params<'static> }, ("div", "div_s8"), |_| DivS8Params { broadcast, ..held }),
        }
    }

    /// Every element type (`div_i32_in_place`, `div_f32_in_place`, `div_s8_in_place`), over
    /// the dividend only.
    fn in_place(&self) -> Vec<(usize, usize)> {
        self.bin.in_place_pairs(false)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{Activation, DType, OpKind};

    #[test]
    fn int32_truncates_broadcasts_and_clamps() {
        let (bytes, [x, y, z]) = binary_model(OpKind::Div { activation: Activation::None }, DType::I32, (&[2, 3], None), (&[1], None), (&[2, 3], None));
        let s = run_op0("div_i32", &bytes, &[(x, TensorData::I32(vec![7, -7, 0, 100, -100, i32::MIN])), (y, TensorData::I32(vec![-2]))]);
        assert_eq!(s.i32(z).unwrap(), &[-3, 3, 0, -50, 50, 1 << 30]);
        let (bytes, [x, y, z]) = binary_model(OpKind::Div { activation: Activation::Relu6 }, DType::I32, (&[4], None), (&[4], None), (&[4], None));
        let s = run_op0("div_i32_relu6", &bytes, &[(x, TensorData::I32(vec![7, -7, 50, 9])), (y, TensorData::I32(vec![1, 1, 2, 0]))]);
        assert_eq!(s.i32(z).unwrap(), &[6, 0, 6, 0]);
    }

    #[test]
    fn float32_divides() {
        let (bytes, [x, y, z]) = binary_model(OpKind::Div { activation: Activation::None }, DType::F32, (&[3], None), (&[3], None), (&[3], None));
        let s = run_op0("div_f32", &bytes, &[(x, TensorData::F32(vec![1.0, -3.0, 2.5])), (y, TensorData::F32(vec![4.0, 2.0, -0.5]))]);
        assert_eq!(s.f32(z).unwrap(), &[0.25, -1.5, -5.0]);
    }

    /// int8 against TFLite Micro (`EvalQuantized`): every dividend and divisor value (the
    /// divisor's zero point too: a zero divisor, which TFLite only `DCHECK`s), a broadcast
    /// divisor, and a fused RELU.
    #[test]
    fn int8_matches_tflite_micro() {
        let all: Vec<i8> = (i8::MIN..=i8::MAX).collect();
        for (name, act, (q1, q2, qo), want) in [
            ("div_s8", Activation::None, ((0.05, 3), (0.02, -7), (0.02, -2)), DIV_S8),
            ("div_s8_relu", Activation::Relu, ((0.011, -20), (0.004, 9), (0.01, 5)), DIV_S8_RELU),
        ] {
            let (bytes, [x, y, z]) = binary_model(OpKind::Div { activation: act }, DType::I8, (&[256, 2], Some(q1)), (&[2], Some(q2)), (&[256, 2], Some(qo)));
            let xv: Vec<i8> = all.iter().flat_map(|&v| [v, v]).collect();
            // The divisor: its zero point (a zero divisor) and one other value, per pass
            // over every dividend; a second model below divides by every value.
            let yv = vec![q2.1 as i8, 37];
            check_vector(name, &bytes, &[(x, TensorData::I8(xv)), (y, TensorData::I8(yv))], z, want);
        }
        // Every divisor value against a few dividends.
        let (bytes, [x, y, z]) = binary_model(OpKind::Div { activation: Activation::None }, DType::I8, (&[4, 1], Some((0.05, 3))), (&[256], Some((0.02, -7))), (&[4, 256], Some((0.02, -2))));
        check_vector("div_s8_divisors", &bytes, &[(x, TensorData::I8(vec![-128, -1, 50, 127])), (y, TensorData::I8(all.clone()))], z, DIV_S8_DIVISORS);
        #[cfg(feature = "format")]
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn int8_with_negative_shifts_and_other_types_are_refused() {
        // s1 / (s2 * so) = 4e7: output_shift 26, so 127 / 1 needs a negative shift.
        let e = lower_op0(&binary_model(OpKind::Div { activation: Activation::None }, DType::I8, (&[3], Some((10.0, 0))), (&[3], Some((0.0005, 0))), (&[3], Some((0.0005, 0)))).0).expect_err("refused");
        assert!(matches!(e, crate::error::LowerError::Unsupported { .. }) && e.to_string().contains("negative shift"), "{e}");
        // s1 / (s2 * so) = 2 (output_shift 2): small quotients shift by 32 or more, which
        // tflc computes as TFLite Micro on Arm does (`tflc_runtime::kernels::div`).
        lower_op0(&binary_model(OpKind::Div { activation: Activation::None }, DType::I8, (&[3], Some((0.01, 0))), (&[3], Some((0.1, 0))), (&[3], Some((0.05, 0)))).0).expect("compiles");
        expect_invalid(&binary_model(OpKind::Div { activation: Activation::None }, DType::I32, (&[3], None), (&[2], None), (&[3], None)).0);
        let q = Some((0.5, 0));
        expect_unsupported(&binary_model(OpKind::Div { activation: Activation::None }, DType::I16, (&[3], q), (&[3], q), (&[3], q)).0);
    }

    const DIV_S8: &[i8] = &[
        127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127,
        -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128,
        127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127,
        -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128,
        127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127,
        -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128,
        127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127,
        -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128,
        127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127,
        -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128,
        127, -128, 127, -128, 127, -127, 127, -124, 127, -121, 127, -118, 127, -116, 127, -113, 127,
        -110, 127, -107, 127, -104, 127, -101, 127, -99, 127, -96, 127, -93, 127, -90, 127, -87, 127,
        -84, 127, -82, 127, -79, 127, -76, 127, -73, 127, -70, 127, -67, 127, -65, 127, -62, 127, -59,
        127, -56, 127, -53, 127, -50, 127, -47, 127, -45, 127, -42, 127, -39, 127, -36, 127, -33, 127,
        -30, 127, -28, 127, -25, 127, -22, 127, -19, 127, -16, 127, -13, 127, -11, 127, -8, 127, -5, -2,
        -2, -128, 1, -128, 4, -128, 7, -128, 9, -128, 12, -128, 15, -128, 18, -128, 21, -128, 24, -128,
        26, -128, 29, -128, 32, -128, 35, -128, 38, -128, 41, -128, 43, -128, 46, -128, 49, -128, 52,
        -128, 55, -128, 58, -128, 61, -128, 63, -128, 66, -128, 69, -128, 72, -128, 75, -128, 78, -128,
        80, -128, 83, -128, 86, -128, 89, -128, 92, -128, 95, -128, 97, -128, 100, -128, 103, -128, 106,
        -128, 109, -128, 112, -128, 114, -128, 117, -128, 120, -128, 123, -128, 126, -128, 127, -128,
        127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127,
        -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128,
        127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127,
        -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128,
        127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127,
        -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128,
        127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127,
        -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128,
        127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127, -128, 127,
        -128, 127,
    ];
    const DIV_S8_RELU: &[i8] = &[
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        5, 5, 5, 15, 5, 25, 5, 34, 5, 44, 5, 54, 5, 64, 5, 74, 5, 84, 5, 93, 5, 103, 5, 113, 5, 123, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5, 127, 5,
        127, 5, 127, 5, 127,
    ];
    const DIV_S8_DIVISORS: &[i8] = &[
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -126, -125, -124, 2, 2, 2, 2, 2, 2,
        2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4,
        4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 8,
        8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 13, 13, 14, 14, 15, 15, 16, 17, 17,
        18, 19, 20, 21, 22, 23, 24, 26, 27, 29, 31, 34, 36, 40, 43, 48, 54, 61, 69, 81, 98, 123, 127,
        127, 127, 127, -128, -128, -128, -127, -102, -85, -73, -65, -58, -52, -47, -44, -40, -38, -35,
        -33, -31, -30, -28, -27, -26, -25, -24, -23, -22, -21, -21, -20, -19, -19, -18, -18, -17, -17,
        -16, -16, -16, -15, -15, -15, -14, -14, -14, -13, -13, -13, -13, -12, -12, -12, -12, -12, -11,
        -11, -11, -11, -11, -11, -10, -10, -10, -10, -10, -10, -10, -10, -9, -9, -9, -9, -9, -9, -9, -9,
        -9, -9, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -8, -7, -7, -7, -7, -7, -7, -7, -7,
        -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6,
        -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -51, -51, -51, -52, -52, -53, -53, -54, -54,
        -54, -55, -55, -56, -56, -57, -57, -58, -58, -59, -60, -60, -61, -61, -62, -63, -63, -64, -65,
        -65, -66, -67, -67, -68, -69, -70, -70, -71, -72, -73, -74, -75, -75, -76, -77, -78, -79, -80,
        -81, -82, -84, -85, -86, -87, -88, -90, -91, -92, -94, -95, -97, -98, -100, -102, -103, -105,
        -107, -109, -111, -113, -115, -117, -120, -122, -124, -127, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 126,
        123, 120, 118, 116, 113, 111, 109, 107, 105, 103, 101, 99, 98, 96, 94, 93, 91, 90, 88, 87, 86,
        84, 83, 82, 81, 80, 78, 77, 76, 75, 74, 73, 72, 71, 71, 70, 69, 68, 67, 66, 66, 65, 64, 63, 63,
        62, 61, 61, 60, 59, 59, 58, 57, 57, 56, 56, 55, 54, 54, 53, 53, 52, 52, 51, 51, 50, 50, 50, 49,
        49, 48, 48, 47, 47, 47, 46, 46, 45, 45, 45, 44, 44, 44, 43, 43, 43, 42, 42, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 126, 125, 124, 123, 122,
        121, 120, 119, 118, 117, 116, 115, 115, 114,
    ];
}
