//! PRELU, int8, 16x8 (int16 input and output, int8 alpha: TFLite Micro's `kTfLiteInt16`
//! case, whose Prepare requires the int8 alpha) and float32: `x >= 0 ? x : x * alpha` with
//! an alpha tensor broadcast against the input.
//!
//! Mirrors TFLite Micro `prelu_common.cc` (`CalculatePreluParams`): identity multiplier
//! `QuantizeMultiplier(s_in / s_out)` and product multiplier
//! `QuantizeMultiplier(s_in * s_alpha / s_out)` in f64 (the runtime's [`prepare_prelu`]).
//! The output has the broadcast shape of input and alpha (TFLite's PRELU Prepare); the
//! walk is ADD's broadcast plan with the input as operand 1 and alpha as operand 2.

use super::binary::{lower_binary, Binary, NO_BROADCAST};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::DType;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::prelu::{prelu_f32, prelu_s16, prelu_s8, prepare_prelu, PreluParams};

crate::runtime_struct_lit!(kernels::prelu::PreluParams<'a> {
    input_offset,
    alpha_offset,
    output_offset,
    output_multiplier_1,
    output_shift_1,
    output_multiplier_2,
    output_shift_2,
    broadcast,
});

#[derive(Debug, Clone, PartialEq)]
pub struct Prelu {
    /// `input1` is the input, `input2` alpha.
    pub bin: Binary,
    /// The int8 / 16x8 parameters with the [`NO_BROADCAST`] placeholder (the walk borrows
    /// `bin.plan`; [`Prelu::params`] puts it in); `None` for float32
    /// (`BroadcastPrelu4DSlowFloat`, whose only parameter is the walk).
    pub params: Option<PreluParams<'static>>,
    /// int16 input and output (int8 alpha).
    pub s16: bool,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Prelu, LowerError> {
    let (bin, [input, alpha, output]) = lower_binary(cx)?;
    if input.dtype == DType::F32 {
        cx.expect_dtype(alpha, DType::F32)?;
        cx.expect_dtype(output, DType::F32)?;
        return Ok(Prelu { bin, params: None, s16: false });
    }
    let s16 = input.dtype == DType::I16;
    let (qi, qa, qo) = if s16 {
        // TFLite Micro's Prepare: an int16 output takes an int8 alpha; CalculatePreluParams
        // reads the zero points as they are (no symmetric requirement).
        cx.expect_dtype(output, DType::I16)?;
        cx.expect_dtype(alpha, DType::I8)?;
        (cx.per_tensor_q(input)?, cx.per_tensor_q(alpha)?, cx.per_tensor_q(output)?)
    } else {
        (cx.q_s8(input)?, cx.q_s8(alpha)?, cx.q_s8(output)?)
    };
    let p = prepare_prelu(qi, qa, qo, NO_BROADCAST).ok_or_else(|| cx.invalid("the scales give a multiplier that cannot be quantized"))?;
    Ok(Prelu { bin, params: Some(p), s16 })
}

impl Prelu {
    /// The int8 kernel's params (PRELU is not symmetric: the walk is never swapped).
    fn params<'s>(&'s self, held: &PreluParams<'static>) -> PreluParams<'s> {
        PreluParams { broadcast: self.bin.broadcast(false), ..*held }
    }
}

impl Kernel for Prelu {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let Some(held) = &self.params else {
            let broadcast = self.bin.broadcast(false);
            let mut out = s.take_f32(self.bin.output, broadcast.out_len());
            let (x, a) = self.bin.operands(s, TensorStore::f32)?;
            prelu_f32(&broadcast, x, a, &mut out);
            s.insert(self.bin.output, TensorData::F32(out));
            return Ok(());
        };
        let p = self.params(held);
        if !self.s16 {
            return self.bin.execute_s8(s, |x, a, out| prelu_s8(&p, x, a, out));
        }
        let mut out = s.take_i16(self.bin.output, p.broadcast.out_len());
        let x = s.i16(self.bin.input1)?;
        let a = s.i8(self.bin.input2)?;
        if x.len() != self.bin.input1_len || a.len() != self.bin.input2_len {
            return Err(ExecError(format!("operand lengths {} and {} (expected {} and {})", x.len(), a.len(), self.bin.input1_len, self.bin.input2_len)));
        }
        prelu_s16(&p, x, a, &mut out);
        s.insert(self.bin.output, TensorData::I16(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let Some(held) = &self.params else {
            let bin = &self.bin;
            return bin.emit_in_place_capable(cx, quote! { kernels::nd::Broadcast<'static> }, ("prelu", "prelu_f32"), |_| bin.broadcast(false));
        };
        let func = if self.s16 { "prelu_s16" } else { "prelu_s8" };
        self.bin.emit_in_place_capable(cx, quote! { kernels::prelu::PreluParams<'static> }, ("prelu", func), |_| self.params(held))
    }

    /// int8, 16x8 and float32 (`prelu_s8_in_place`, `prelu_s16_in_place`,
    /// `prelu_f32_in_place`), operand 1 (the input) only.
    fn in_place(&self) -> Vec<(usize, usize)> {
        self.bin.in_place_pairs(false)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::*;
    use crate::ir::{OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    /// Input activation, constant alpha.
    fn model(x_shape: &[usize], qi: Q, alpha: (&[usize], &[i8], Q), out: (&[usize], Q)) -> (Vec<u8>, [TensorId; 2]) {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I8, x_shape, qi);
        let a = m.constant_i8("alpha", alpha.0, alpha.1, alpha.2);
        let z = m.activation("z", DType::I8, out.0, out.1);
        m.op(OpKind::Prelu, &[Some(x), Some(a)], &[z]);
        m.inputs(&[x]);
        m.outputs(&[z]);
        (m.finish(), [x, z])
    }

    #[test]
    fn broadcast_alpha_exact() {
        // s_in == s_out and s_alpha == 1: `v >= 0 ? v : v * (a - za)` plus zo, saturating,
        // with v = x - zi. Every broadcasting pattern, alpha on either side.
        for (x_shape, a_shape) in BROADCAST_CASES {
            let (zi, za, zo) = (3i64, -2i64, -5i64);
            let xv = i8s(21, x_shape.iter().product());
            let av: Vec<i8> = i8s(22, a_shape.iter().product()).into_iter().map(|a| a / 32).collect();
            let (out_shape, want) = broadcast_reference(x_shape, &xv, a_shape, &av, |x, a| {
                let v = x as i32 - zi as i32;
                let y = if v >= 0 { v } else { v * (a as i32 - za as i32) };
                (y + zo as i32).clamp(-128, 127) as i8
            });
            let (bytes, [x, z]) = model(x_shape, Some((0.5, zi)), (a_shape, &av, Some((1.0, za))), (&out_shape, Some((0.5, zo))));
            let store = run_op0("prelu", &bytes, &[(x, TensorData::I8(xv))]);
            assert_eq!(out_i8(&store, z), want, "{x_shape:?} {a_shape:?}");
        }
    }

    #[test]
    fn float32_broadcast() {
        for (x_shape, a_shape) in BROADCAST_CASES {
            let xv: Vec<f32> = i8s(63, x_shape.iter().product()).iter().map(|&v| v as f32 * 0.1).collect();
            let av: Vec<f32> = i8s(64, a_shape.iter().product()).iter().map(|&v| v as f32 * 0.01).collect();
            let (out_shape, want) = broadcast_reference(x_shape, &xv, a_shape, &av, |x, a| if x >= 0.0 { x } else { x * a });
            let (bytes, [x, y, z]) = binary_model(OpKind::Prelu, DType::F32, (x_shape, None), (a_shape, None), (&out_shape, None));
            let store = run_op0("prelu_f32", &bytes, &[(x, TensorData::F32(xv)), (y, TensorData::F32(av))]);
            assert_eq!(store.f32(z).unwrap(), &want[..], "{x_shape:?} {a_shape:?}");
        }
        let (bytes, _) = binary_model(OpKind::Prelu, DType::F32, (&[1, 2, 3], None), (&[3], None), (&[1, 2, 3], None));
        #[cfg(feature = "format")]
        insta::assert_snapshot!(emit_op0(&bytes));
        let _ = bytes;
        // float32 input with an int8 alpha.
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::F32, &[3], None);
        let a = m.constant_i8("alpha", &[3], &[1, 2, 3], Some((0.5, 0)));
        let z = m.activation("z", DType::F32, &[3], None);
        m.op(OpKind::Prelu, &[Some(x), Some(a)], &[z]);
        assert!(matches!(lower_op0(&m.finish()), Err(LowerError::Unsupported { .. })));
    }

    #[test]
    fn arbitrary_scales_follow_the_real_value() {
        let (qi, qa, qo) = ((0.0731f32, -7i64), (0.0041f32, 12i64), (0.05f32, 20i64));
        let av: Vec<i8> = vec![-100, 0, 37];
        let (bytes, [x, z]) = model(&[1, 4, 3], Some(qi), (&[3], &av, Some(qa)), (&[1, 4, 3], Some(qo)));
        let xv = i8s(23, 12);
        let got = out_i8(&run_op0("prelu_scales", &bytes, &[(x, TensorData::I8(xv.clone()))]), z);
        for i in 0..12 {
            let v = qi.0 as f64 * (xv[i] as f64 - qi.1 as f64);
            let a = qa.0 as f64 * (av[i % 3] as f64 - qa.1 as f64);
            let real = if v >= 0.0 { v } else { a * v };
            let want = ((real / qo.0 as f64).round() + qo.1 as f64).clamp(-128.0, 127.0);
            assert!((got[i] as f64 - want).abs() <= 1.0, "{i}: {} vs {want}", got[i]);
        }
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, _) = model(&[1, 6, 6, 3], Some((0.05, -3)), (&[1, 1, 3], &[10, -20, 30], Some((0.01, 0))), (&[1, 6, 6, 3], Some((0.04, 10))));
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        check_malformed_binary(OpKind::Prelu);
        // Alpha of another element type.
        let q = Some((0.5, 0));
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        let a = m.constant_i32("alpha", &[3], &[1, 2, 3], q);
        let z = m.activation("z", DType::I8, &[3], q);
        m.op(OpKind::Prelu, &[Some(x), Some(a)], &[z]);
        assert!(matches!(lower_op0(&m.finish()), Err(LowerError::Unsupported { .. })));
    }

    /// Per-channel alpha on a rank-4 input with unequal scales; TFLite Micro's output.
    #[test]
    fn reference_vectors() {
        let av = i8s(62, 5);
        let (bytes, [x, z]) = model(&[1, 3, 4, 5], Some((0.0731, -7)), (&[1, 1, 5], &av, Some((0.0041, 12))), (&[1, 3, 4, 5], Some((0.05, 20))));
        check_vector("prelu_channel", &bytes, &[(x, TensorData::I8(i8s(61, 60)))], z, PRELU_CHANNEL);
    }


    const PRELU_CHANNEL: &[i8] = &[
        -8, 21, 127, 76, 19, -14, 57, 16, 84, 19, 3, 127, 67, 24, 127, 84, 61, 13, 106, 20,
        10, 31, 19, 125, 20, 48, 127, 112, 66, 20, 121, 63, 122, 49, 106, -2, 127, 20, 127, 127,
        8, 127, 13, 70, 20, 89, 45, 127, 93, 20, 127, 61, 13, 68, 127, 19, 87, 20, 24, 27,
    ];
}
