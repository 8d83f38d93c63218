//! MUL, int8 activations (also float32 and int32), with numpy broadcasting and a fused
//! activation.
//!
//! Mirrors TFLite Micro `mul_common.cc` (`CalculateOpDataMul`): one multiplier
//! `QuantizeMultiplier(s1 * s2 / so)` in f64 and the activation clamp, computed by the
//! runtime's [`prepare_mul`]; operand checks, broadcasting and the float32 / int32 forms
//! are the binary family's (`binary.rs`).

use super::binary::{lower_arith_op, lower_arith_s16, ArithAny, ArithKernel, ArithOp, PlainKernel, ArithS8};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::Activation;
use tflc_runtime::kernels::mul::{mul_f32, mul_i32, mul_s8, prepare_mul, MulParams};
use tflc_runtime::kernels::nd::Broadcast;

crate::runtime_struct_lit!(kernels::mul::MulParams<'a> {
    input1_offset,
    input2_offset,
    output_offset,
    output_multiplier,
    output_shift,
    activation_min,
    activation_max,
    broadcast,
});

/// MUL for [`ArithOp`].
#[derive(Debug, Clone)]
pub struct MulKernel;

#[allow(dead_code)] // The op's name for readers; the registry builds `ArithOp` directly.
pub type Mul = ArithOp<MulKernel>;

impl ArithKernel for MulKernel {
    type Params<'b> = MulParams<'b>;
    const MODULE: (&'static str, &'static str) = ("mul", "MulParams");
    const SYMMETRIC: bool = true;
    const S8: ArithS8<Self> = mul_s8;
    const F32: PlainKernel<f32> = mul_f32;
    const I32: PlainKernel<i32> = mul_i32;
    /// Swapped: the same product with the operands (and their offsets) exchanged.
    fn params<'b>(p: &MulParams<'static>, broadcast: Broadcast<'b>, swap: bool) -> MulParams<'b> {
        let (input1_offset, input2_offset) = if swap { (p.input2_offset, p.input1_offset) } else { (p.input1_offset, p.input2_offset) };
        MulParams { input1_offset, input2_offset, broadcast, ..*p }
    }
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, activation: Activation) -> Result<ArithAny<MulKernel>, LowerError> {
    // 16x8 (int16 output): TFLite Micro's int16 path, its own kernel.
    if let Some(op) = lower_arith_s16::<MulKernel>(cx, activation, tflc_runtime::kernels::mul::prepare_mul_s16, tflc_runtime::kernels::mul::mul_s16)? {
        return Ok(ArithAny::S16(op));
    }
    Ok(ArithAny::Base(lower_arith_op(cx, activation, prepare_mul)?))
}

#[cfg(test)]
mod tests {
    use super::super::binary::tests::check_plain;
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{Activation, DType, OpKind, TensorId};

    fn model(a: (&[usize], Q), b: (&[usize], Q), out: (&[usize], Q), act: Activation) -> (Vec<u8>, [TensorId; 3]) {
        binary_model(OpKind::Mul { activation: act }, DType::I8, a, b, out)
    }

    /// With `s1 * s2 == so` MUL is exact: `(a - za) * (b - zb) + zo`, clamped (the
    /// multiplier is 1 = 2^30 * 2^(1-31)). Operands are kept small so that not everything
    /// saturates.
    fn check_exact(a_shape: &[usize], b_shape: &[usize], zps: [i64; 3], act: Activation, lo: i32, hi: i32) {
        let small = |v: Vec<i8>| -> Vec<i8> { v.into_iter().map(|x| x / 10).collect() };
        let av = small(i8s(9, a_shape.iter().product()));
        let bv = small(i8s(10, b_shape.iter().product()));
        let (out_shape, want) = broadcast_reference(a_shape, &av, b_shape, &bv, |a, b| {
            ((a as i32 - zps[0] as i32) * (b as i32 - zps[1] as i32) + zps[2] as i32).clamp(lo, hi) as i8
        });
        let (bytes, [x, y, z]) =
            model((a_shape, Some((0.25, zps[0]))), (b_shape, Some((0.5, zps[1]))), (&out_shape, Some((0.125, zps[2]))), act);
        let store = run_op0("mul", &bytes, &[(x, TensorData::I8(av)), (y, TensorData::I8(bv))]);
        assert_eq!(out_i8(&store, z), want, "{a_shape:?} * {b_shape:?}");
    }

    #[test]
    fn broadcasting_every_pattern_saturates() {
        for (a, b) in BROADCAST_CASES {
            check_exact(a, b, [1, -2, 3], Activation::None, -128, 127);
            check_exact(b, a, [0, 0, 0], Activation::None, -128, 127);
        }
    }

    #[test]
    fn fused_activations_clamp() {
        // Output scale 1/8: RELU6 clamps at zo + 48, RELU_N1_TO_1 at zo -/+ 8.
        check_exact(&[2, 3, 4], &[3, 1], [0, 0, -10], Activation::Relu, -10, 127);
        check_exact(&[2, 3, 4], &[3, 1], [0, 0, -10], Activation::Relu6, -10, 38);
        check_exact(&[2, 3, 4], &[3, 1], [0, 0, -10], Activation::ReluN1To1, -18, -2);
    }

    #[test]
    fn different_scales_follow_the_real_product() {
        let (sa, sb, so) = (0.03f32, 0.011f32, 0.05f32);
        let (bytes, [x, y, z]) = model((&[3, 4], Some((sa, 7))), (&[4], Some((sb, -1))), (&[3, 4], Some((so, 2))), Activation::None);
        let av = i8s(11, 12);
        let bv = i8s(12, 4);
        let store = run_op0("mul_scales", &bytes, &[(x, TensorData::I8(av.clone())), (y, TensorData::I8(bv.clone()))]);
        let got = out_i8(&store, z);
        for i in 0..12 {
            let real = sa as f64 * (av[i] as f64 - 7.0) * sb as f64 * (bv[i % 4] as f64 + 1.0);
            let want = ((real / so as f64).round() + 2.0).clamp(-128.0, 127.0);
            assert!((got[i] as f64 - want).abs() <= 1.0, "{i}: {} vs {want}", got[i]);
        }
    }

    #[test]
    fn squaring_reads_one_tensor_twice() {
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[5], Some((0.5, 0)));
        let z = m.activation("z", DType::I8, &[5], Some((0.25, 0)));
        m.op(OpKind::Mul { activation: Activation::None }, &[Some(x), Some(x)], &[z]);
        m.inputs(&[x]);
        m.outputs(&[z]);
        let bytes = m.finish();
        let store = run_op0("mul_square", &bytes, &[(x, TensorData::I8(vec![0, 1, -3, 11, 12]))]);
        assert_eq!(out_i8(&store, z), vec![0, 1, 9, 121, 127]);
        #[cfg(feature = "format")]
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, _) = model((&[1, 5, 5, 4], Some((0.5, -1))), (&[1, 1, 1, 4], Some((0.25, 2))), (&[1, 5, 5, 4], Some((1.0, 3))), Activation::None);
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn float32_and_int32() {
        check_plain("mul", |activation| OpKind::Mul { activation }, |a, b| a * b, i32::wrapping_mul);
    }

    #[test]
    fn malformed_models_are_errors() {
        check_malformed_binary(OpKind::Mul { activation: Activation::None });
        let q = Some((0.5, 0));
        let (b, _) = model((&[3], q), (&[3], q), (&[3], q), Activation::Tanh);
        assert!(matches!(lower_op0(&b), Err(LowerError::Unsupported { .. })));
    }

    /// Unequal scales, both operands stretching, RELU; TFLite Micro's output.
    #[test]
    fn reference_vectors() {
        let (bytes, [x, y, z]) = model((&[5, 1], Some((0.037, -4))), (&[1, 7], Some((0.0191, 11))), (&[5, 7], Some((0.061, -30))), Activation::Relu);
        let inputs = [(x, TensorData::I8(i8s(51, 5))), (y, TensorData::I8(i8s(52, 7)))];
        check_vector("mul_outer_relu", &bytes, &inputs, z, MUL_OUTER_RELU);
        let (bytes, [x, y, z]) =
            model((&[2, 3, 5], Some((0.5, 0))), (&[2, 3, 5], Some((0.25, -128))), (&[2, 3, 5], Some((0.00391, 127))), Activation::None);
        let inputs = [(x, TensorData::I8(i8s(53, 30))), (y, TensorData::I8(i8s(54, 30)))];
        check_vector("mul_large_ratio", &bytes, &inputs, z, MUL_LARGE_RATIO);
    }


    const MUL_OUTER_RELU: &[i8] = &[
        82, 1, -30, -30, 15, -8, -30, -30, -30, 59, 34, -30, -30, 22, 25, -15, -30, -30, -8, -19,
        -30, -30, -30, 63, 37, -30, -30, 25, -30, -30, -10, -15, -30, -30, -18,
    ];
    const MUL_LARGE_RATIO: &[i8] = &[
        127, -128, -128, -128, 127, -128, -128, -128, 127, -128, -128, -128, -128, -128, -128, 127, 127, 127, -128, 127,
        127, 127, 127, 127, -128, -128, -128, 127, 127, 127,
    ];
}
