//! SUB, int8 activations (also float32 and int32), with numpy broadcasting and a fused
//! activation.
//!
//! Mirrors TFLite Micro `sub.cc` / `sub_common.cc` (`CalculateOpDataSub`): ADD's
//! left-shift-20 scheme (and ADD's params struct), but with the real multipliers computed
//! in f32 (the runtime's [`prepare_sub`] reproduces that); operand checks, broadcasting
//! and the float32 / int32 forms are the binary family's (`binary.rs`).

use super::binary::{lower_arith_op, lower_arith_s16, ArithAny, ArithKernel, ArithOp, PlainKernel, ArithS8};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::Activation;
use tflc_runtime::kernels::nd::Broadcast;
use tflc_runtime::kernels::sub::{prepare_sub, sub_f32, sub_i32, sub_s8, SubParams};

/// SUB for [`ArithOp`] (its params are ADD's `AddParams`, emitted as such).
#[derive(Debug, Clone)]
pub struct SubKernel;

#[allow(dead_code)] // The op's name for readers; the registry builds `ArithOp` directly.
pub type Sub = ArithOp<SubKernel>;

impl ArithKernel for SubKernel {
    type Params<'b> = SubParams<'b>;
    const MODULE: (&'static str, &'static str) = ("sub", "SubParams");
    const SYMMETRIC: bool = false;
    const S8: ArithS8<Self> = sub_s8;
    const F32: PlainKernel<f32> = sub_f32;
    const I32: PlainKernel<i32> = sub_i32;
    fn params<'b>(p: &SubParams<'static>, broadcast: Broadcast<'b>, _swap: bool) -> SubParams<'b> {
        SubParams { broadcast, ..*p }
    }
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, activation: Activation) -> Result<ArithAny<SubKernel>, LowerError> {
    // 16x8 (int16 output): TFLite Micro's int16 path, its own kernel.
    if let Some(op) = lower_arith_s16::<SubKernel>(cx, activation, tflc_runtime::kernels::sub::prepare_sub_s16, tflc_runtime::kernels::sub::sub_s16)? {
        return Ok(ArithAny::S16(op));
    }
    Ok(ArithAny::Base(lower_arith_op(cx, activation, prepare_sub)?))
}

#[cfg(test)]
mod tests {
    use super::super::binary::tests::check_plain;
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{Activation, DType, OpKind, TensorId};

    fn model(a: (&[usize], Q), b: (&[usize], Q), out: (&[usize], Q), act: Activation) -> (Vec<u8>, [TensorId; 3]) {
        binary_model(OpKind::Sub { activation: act }, DType::I8, a, b, out)
    }

    /// Equal scales make SUB exact: `(a - za) - (b - zb) + zo`, clamped (all multipliers
    /// are powers of two in f32 too).
    fn check_equal_scales(a_shape: &[usize], b_shape: &[usize], zps: [i64; 3], act: Activation, lo: i32, hi: i32) {
        let s = 0.125;
        let av = i8s(5, a_shape.iter().product());
        let bv = i8s(6, b_shape.iter().product());
        let (out_shape, want) = broadcast_reference(a_shape, &av, b_shape, &bv, |a, b| {
            ((a as i32 - zps[0] as i32) - (b as i32 - zps[1] as i32) + zps[2] as i32).clamp(lo, hi) as i8
        });
        let (bytes, [x, y, z]) =
            model((a_shape, Some((s, zps[0]))), (b_shape, Some((s, zps[1]))), (&out_shape, Some((s, zps[2]))), act);
        let store = run_op0("sub", &bytes, &[(x, TensorData::I8(av)), (y, TensorData::I8(bv))]);
        assert_eq!(out_i8(&store, z), want, "{a_shape:?} - {b_shape:?}");
    }

    #[test]
    fn broadcasting_every_pattern_saturates() {
        for (a, b) in BROADCAST_CASES {
            check_equal_scales(a, b, [-2, 11, 4], Activation::None, -128, 127);
            // Operand order matters for SUB.
            check_equal_scales(b, a, [0, 0, 0], Activation::None, -128, 127);
        }
    }

    #[test]
    fn fused_activations_clamp() {
        // scale 1/8: RELU6 clamps at zo + 48, RELU_N1_TO_1 at zo -/+ 8.
        check_equal_scales(&[3, 5], &[3, 1], [1, 2, 7], Activation::Relu, 7, 127);
        check_equal_scales(&[3, 5], &[3, 1], [1, 2, 7], Activation::Relu6, 7, 55);
        check_equal_scales(&[3, 5], &[3, 1], [1, 2, 7], Activation::ReluN1To1, -1, 15);
    }

    #[test]
    fn different_scales_follow_the_real_difference() {
        let (sa, sb, so) = (0.03f32, 0.011f32, 0.05f32);
        let (bytes, [x, y, z]) = model((&[3, 4], Some((sa, 7))), (&[4], Some((sb, -1))), (&[3, 4], Some((so, 0))), Activation::None);
        let av = i8s(7, 12);
        let bv = i8s(8, 4);
        let store = run_op0("sub_scales", &bytes, &[(x, TensorData::I8(av.clone())), (y, TensorData::I8(bv.clone()))]);
        let got = out_i8(&store, z);
        for i in 0..12 {
            let real = sa as f64 * (av[i] as f64 - 7.0) - sb as f64 * (bv[i % 4] as f64 + 1.0);
            let want = (real / so as f64).round().clamp(-128.0, 127.0);
            assert!((got[i] as f64 - want).abs() <= 1.0, "{i}: {} vs {want}", got[i]);
        }
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, _) = model((&[2, 1, 3], Some((0.5, -1))), (&[4, 1], Some((0.25, 2))), (&[2, 4, 3], Some((1.0, 3))), Activation::Relu6);
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn float32_and_int32() {
        check_plain("sub", |activation| OpKind::Sub { activation }, |a, b| a - b, i32::wrapping_sub);
    }

    #[test]
    fn malformed_models_are_errors() {
        check_malformed_binary(OpKind::Sub { activation: Activation::None });
        let q = Some((0.5, 0));
        let (b, _) = model((&[3], q), (&[3], q), (&[3], q), Activation::SignBit);
        assert!(matches!(lower_op0(&b), Err(LowerError::Unsupported { .. })));
    }

    /// Unequal scales, both operands stretching, RELU_N1_TO_1; TFLite Micro's output.
    #[test]
    fn reference_vectors() {
        let (bytes, [x, y, z]) =
            model((&[2, 1, 4], Some((0.017, 5))), (&[1, 3, 1], Some((0.023, -9))), (&[2, 3, 4], Some((0.011, 2))), Activation::ReluN1To1);
        let inputs = [(x, TensorData::I8(i8s(41, 8))), (y, TensorData::I8(i8s(42, 3)))];
        check_vector("sub_broadcast_n1to1", &bytes, &inputs, z, SUB_BROADCAST_N1TO1);
        let (bytes, [x, y, z]) = model((&[1, 4, 4, 3], Some((0.05, -1))), (&[3], Some((0.2, 0))), (&[1, 4, 4, 3], Some((0.09, 6))), Activation::Relu);
        let inputs = [(x, TensorData::I8(i8s(43, 48))), (y, TensorData::I8(i8s(44, 3)))];
        check_vector("sub_channel_relu", &bytes, &inputs, z, SUB_CHANNEL_RELU);
    }


    const SUB_BROADCAST_N1TO1: &[i8] = &[
        -89, -89, -89, -89, 93, -9, 93, 93, 93, -20, 93, 93, -89, -89, -89, -89, 93, 93, 93, 73,
        93, 93, 93, 62,
    ];
    const SUB_CHANNEL_RELU: &[i8] = &[
        97, 6, 82, 127, 6, 91, 127, 6, 127, 127, 6, 127, 127, 6, 65, 127, 6, 127, 127, 6,
        127, 109, 6, 127, 102, 6, 75, 127, 6, 127, 127, 6, 64, 127, 6, 119, 107, 6, 115, 127,
        6, 126, 127, 6, 109, 127, 6, 100,
    ];
}
