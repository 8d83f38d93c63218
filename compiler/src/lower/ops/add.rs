//! ADD, int8 activations (also float32 and int32), with numpy broadcasting and a fused
//! activation.
//!
//! Mirrors TFLite Micro `add.cc` / `add_common.cc` (`CalculateOpDataAdd`): the runtime's
//! [`prepare_add`] computes the left-shift-20 multipliers from the f32 scales and the
//! activation clamp. Operand checks, broadcasting and the float32 / int32 forms are the
//! binary family's (`binary.rs`).

use super::binary::{lower_arith_op, lower_arith_s16, ArithAny, ArithKernel, ArithOp, PlainKernel, ArithS8};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::Activation;
use tflc_runtime::kernels::add::{add_f32, add_i32, add_s8, prepare_add, AddParams};
use tflc_runtime::kernels::nd::Broadcast;

crate::runtime_struct_lit!(kernels::add::AddParams<'a> {
    input1_offset,
    input2_offset,
    output_offset,
    left_shift,
    input1_multiplier,
    input1_shift,
    input2_multiplier,
    input2_shift,
    output_multiplier,
    output_shift,
    activation_min,
    activation_max,
    broadcast,
});

/// ADD for [`ArithOp`].
#[derive(Debug, Clone)]
pub struct AddKernel;

#[allow(dead_code)] // The op's name for readers; the registry builds `ArithOp` directly.
pub type Add = ArithOp<AddKernel>;

impl ArithKernel for AddKernel {
    type Params<'b> = AddParams<'b>;
    const MODULE: (&'static str, &'static str) = ("add", "AddParams");
    const SYMMETRIC: bool = true;
    const S8: ArithS8<Self> = add_s8;
    const F32: PlainKernel<f32> = add_f32;
    const I32: PlainKernel<i32> = add_i32;
    /// Swapped: the same sum with the operands exchanged (integer addition commutes, each
    /// operand keeps its own rescaling).
    fn params<'b>(p: &AddParams<'static>, broadcast: Broadcast<'b>, swap: bool) -> AddParams<'b> {
        if !swap {
            return AddParams { broadcast, ..*p };
        }
        AddParams {
            input1_offset: p.input2_offset,
            input2_offset: p.input1_offset,
            input1_multiplier: p.input2_multiplier,
            input2_multiplier: p.input1_multiplier,
            input1_shift: p.input2_shift,
            input2_shift: p.input1_shift,
            broadcast,
            ..*p
        }
    }
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, activation: Activation) -> Result<ArithAny<AddKernel>, LowerError> {
    // 16x8 (int16 output): TFLite Micro's int16 path, its own kernel.
    if let Some(op) = lower_arith_s16::<AddKernel>(cx, activation, tflc_runtime::kernels::add::prepare_add_s16, tflc_runtime::kernels::add::add_s16)? {
        return Ok(ArithAny::S16(op));
    }
    Ok(ArithAny::Base(lower_arith_op(cx, activation, prepare_add)?))
}

#[cfg(test)]
mod tests {
    use super::super::binary::tests::check_plain;
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{Activation, DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(a: (&[usize], Q), b: (&[usize], Q), out: (&[usize], Q), act: Activation) -> (Vec<u8>, [TensorId; 3]) {
        binary_model(OpKind::Add { activation: act }, DType::I8, a, b, out)
    }

    /// With all three scales equal, TFLite's ADD is exact integer arithmetic:
    /// `(a - za) + (b - zb) + zo`, clamped (multipliers 1/2, 1/2 and 2^-19 are powers of
    /// two, so no rounding happens).
    fn check_equal_scales(a_shape: &[usize], b_shape: &[usize], zps: [i64; 3], act: Activation, lo: i32, hi: i32) {
        let s = 0.0625;
        let av = i8s(1, a_shape.iter().product());
        let bv = i8s(2, b_shape.iter().product());
        let (out_shape, want) = broadcast_reference(a_shape, &av, b_shape, &bv, |a, b| {
            (a as i32 - zps[0] as i32 + b as i32 - zps[1] as i32 + zps[2] as i32).clamp(lo, hi) as i8
        });
        let (bytes, [x, y, z]) =
            model((a_shape, Some((s, zps[0]))), (b_shape, Some((s, zps[1]))), (&out_shape, Some((s, zps[2]))), act);
        let store = run_op0("add", &bytes, &[(x, TensorData::I8(av)), (y, TensorData::I8(bv))]);
        assert_eq!(out_i8(&store, z), want, "{a_shape:?} + {b_shape:?}");
    }

    #[test]
    fn broadcasting_every_pattern_saturates() {
        for (a, b) in BROADCAST_CASES {
            check_equal_scales(a, b, [3, -7, 1], Activation::None, -128, 127);
            check_equal_scales(a, b, [0, 0, 0], Activation::None, -128, 127);
        }
    }

    #[test]
    fn fused_activations_clamp() {
        // scale 1/16: RELU clamps at zo, RELU6 at zo + 96, RELU_N1_TO_1 at zo -/+ 16.
        check_equal_scales(&[4, 9], &[9], [0, 0, -20], Activation::Relu, -20, 127);
        check_equal_scales(&[4, 9], &[9], [0, 0, -20], Activation::Relu6, -20, 76);
        check_equal_scales(&[4, 9], &[9], [0, 0, -20], Activation::ReluN1To1, -36, -4);
    }

    #[test]
    fn different_scales_follow_the_real_sum() {
        // Not exact in fixed point: within one step of the real-valued result.
        let (sa, sb, so) = (0.02f32, 0.05f32, 0.07f32);
        let (bytes, [x, y, z]) = model((&[2, 8], Some((sa, -3))), (&[1, 8], Some((sb, 10))), (&[2, 8], Some((so, 5))), Activation::None);
        let av = i8s(3, 16);
        let bv = i8s(4, 8);
        let store = run_op0("add_scales", &bytes, &[(x, TensorData::I8(av.clone())), (y, TensorData::I8(bv.clone()))]);
        let got = out_i8(&store, z);
        for i in 0..16 {
            let real = sa as f64 * (av[i] as f64 + 3.0) + sb as f64 * (bv[i % 8] as f64 - 10.0);
            let want = ((real / so as f64).round() + 5.0).clamp(-128.0, 127.0);
            assert!((got[i] as f64 - want).abs() <= 1.0, "{i}: {} vs {want}", got[i]);
        }
    }

    #[test]
    fn constant_operand_is_a_weight() {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[1, 2, 3], Some((0.5, 0)));
        let c = m.constant_i8("c", &[3], &[1, -2, 100], Some((0.5, 0)));
        let z = m.activation("z", DType::I8, &[1, 2, 3], Some((0.5, 0)));
        m.op(OpKind::Add { activation: Activation::None }, &[Some(x), Some(c)], &[z]);
        m.inputs(&[x]);
        m.outputs(&[z]);
        let bytes = m.finish();
        let store = run_op0("add_const", &bytes, &[(x, TensorData::I8(vec![0, 0, 0, 5, 5, 100]))]);
        assert_eq!(out_i8(&store, z), vec![1, -2, 100, 6, 3, 127]);
        #[cfg(feature = "format")]
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, _) = model((&[1, 4, 6, 3], Some((0.5, -1))), (&[1, 1, 1, 3], Some((0.25, 2))), (&[1, 4, 6, 3], Some((1.0, 3))), Activation::Relu);
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn float32_and_int32() {
        check_plain("add", |activation| OpKind::Add { activation }, |a, b| a + b, i32::wrapping_add);
    }

    #[test]
    fn malformed_models_are_errors() {
        check_malformed_binary(OpKind::Add { activation: Activation::None });
        let q = Some((0.5, 0));
        let (b, _) = model((&[3], q), (&[3], q), (&[3], q), Activation::Tanh);
        assert!(matches!(lower_op0(&b), Err(LowerError::Unsupported { .. })));
    }

    /// Cases the corpus lacks (rank 5, both operands stretching, unequal scales, RELU6),
    /// checked against TFLite Micro (`tools/op_test_vectors.py`).
    #[test]
    fn reference_vectors() {
        let (bytes, [x, y, z]) = model(
            (&[2, 3, 1, 2, 1], Some((0.031, -7))),
            (&[3, 2, 2, 5], Some((0.0123, 19))),
            (&[2, 3, 2, 2, 5], Some((0.027, -128))),
            Activation::Relu6,
        );
        let inputs = [(x, TensorData::I8(i8s(31, 12))), (y, TensorData::I8(i8s(32, 60)))];
        check_vector("add_rank5_relu6", &bytes, &inputs, z, ADD_RANK5_RELU6);
        let (bytes, [x, y, z]) = model((&[7, 1], Some((0.9, 3))), (&[1, 9], Some((0.0041, -2))), (&[7, 9], Some((0.5, 0))), Activation::None);
        let inputs = [(x, TensorData::I8(i8s(33, 7))), (y, TensorData::I8(i8s(34, 9)))];
        check_vector("add_scale_ratio", &bytes, &inputs, z, ADD_SCALE_RATIO);
    }


    const ADD_RANK5_RELU6: &[i8] = &[
        -128, -86, -92, -117, -128, -106, -128, -119, -103, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -116, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -90, -128, -128, -96, -111,
        -128, -125, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -89, -128, -66, -128, -128, -128, -118, -128, -128, -77, -116, -117, -83, -128, -128, -128, -117, -128, -128,
        49, -29, 23, -1, -25, -73, -88, -85, -43, -46, -50, -19, -44, 28, -31, -2, -47, -70, -8, -23,
    ];
    const ADD_SCALE_RATIO: &[i8] = &[
        93, 93, 94, 94, 93, 94, 94, 94, 94, -128, -128, -128, -128, -128, -128, -128, -128, -128, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 46, 46, 47, 48, 46, 47, 47, 47, 48, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -73, -72, -71, -71, -72, -72, -72, -72, -71, -74, -74, -73, -73, -74, -73,
        -74, -74, -73,
    ];
}
