use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{kernel_tests, qp as q, Arith, ArithOp, Binary, BinaryKernel};
use crate::kernels::test_util::{plain_binary_tests, s16_in_place_test, x86_binary_tests};

/// MUL int8 as an [`ArithOp`].
#[derive(Clone, Debug)]
struct MulOp;

type Mul = Arith<MulOp>;

impl ArithOp for MulOp {
    type Params<'a> = MulParams<'a>;
    const REFERENCE: BinaryKernel<Mul> = (scalar::mul_s8, scalar::mul_s8_in_place);
    const OUT_SCALE: (f32, f32) = (0.0001, 0.2);
    // A product multiplier above 1 (positive shift, saturating), one of 1e-6 and one of
    // exactly 1/2.
    const EDGE_SCALES: &'static [(f32, f32, f32)] = &[(0.1, 0.1, 1e-5), (1e-3, 1e-3, 1.0), (0.5, 0.5, 0.5)];
    const EDGE_ACTIVATION: FusedActivation = FusedActivation::Relu;

    fn prepare<'a>(a: QuantParams, b: QuantParams, out: QuantParams, activation: FusedActivation, broadcast: Broadcast<'a>) -> Option<MulParams<'a>> {
        prepare_mul(a, b, out, activation, broadcast)
    }

    fn apply(x: f64, y: f64) -> f64 {
        x * y
    }
}

kernel_tests!(impl_scalar, Binary<Mul>, (scalar::mul_s8, scalar::mul_s8_in_place));
kernel_tests!(impl_dispatch, if true, Binary<Mul>, (mul_s8, mul_s8_in_place));

#[test]
fn hand_computed() {
    let plan = plan_broadcast(&[1, 4], &[1]).unwrap();
    // out = a * b * (0.5 * 0.25 / 1.0) = a*b/8
    let p = prepare_mul(q(0.5, 0), q(0.25, 0), q(1.0, 0), FusedActivation::None, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 4];
    mul_s8(&p, &[4, -4, 127, -128], &[3], &mut out);
    // 1.5 -> 2, -1.5 -> -2, 47.625 -> 48, -48
    assert_eq!(out, [2, -2, 48, -48]);
    let p = prepare_mul(q(0.5, 0), q(0.25, 0), q(0.01, 0), FusedActivation::Relu6, plan.as_broadcast()).unwrap();
    mul_s8(&p, &[4, -4, 127, -128], &[3], &mut out);
    assert_eq!(out, [127, 0, 127, 0]);
}

// float32 and int32 MUL (TFLite's unquantized paths; int32 wraps: TFLite leaves overflow
// undefined).
plain_binary_tests!(f32, f32, (plain::mul_f32, plain::mul_f32_in_place), (mul_f32, mul_f32_in_place), |a, b| a * b);
plain_binary_tests!(i32, i32, (plain::mul_i32, plain::mul_i32_in_place), (mul_i32, mul_i32_in_place), |a, b| a.wrapping_mul(b));

x86_binary_tests!(Binary<Mul>, (mul_avx2, mul_in_place_avx2), (mul_avx512, mul_in_place_avx512));

s16_in_place_test!(prepare_mul_s16, mul_s16, mul_s16_in_place, MulParams);
