use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{kernel_tests, qp as q, Arith, ArithOp, Binary, BinaryKernel};
use crate::kernels::test_util::{plain_binary_tests, s16_in_place_test, x86_binary_tests};

/// SUB int8 as an [`ArithOp`].
#[derive(Clone, Debug)]
struct SubOp;

type Sub = Arith<SubOp>;

impl ArithOp for SubOp {
    type Params<'a> = SubParams<'a>;
    const REFERENCE: BinaryKernel<Sub> = (scalar::sub_s8, scalar::sub_s8_in_place);
    const OUT_SCALE: (f32, f32) = (0.002, 0.2);
    const EDGE_SCALES: &'static [(f32, f32, f32)] = &[(0.05, 0.05, 0.1), (0.1, 1e-4, 0.1), (0.1, 0.1, 1e-3), (1e-3, 1e-3, 0.5)];
    const EDGE_ACTIVATION: FusedActivation = FusedActivation::ReluN1To1;

    fn prepare<'a>(a: QuantParams, b: QuantParams, out: QuantParams, activation: FusedActivation, broadcast: Broadcast<'a>) -> Option<SubParams<'a>> {
        prepare_sub(a, b, out, activation, broadcast)
    }

    fn apply(x: f64, y: f64) -> f64 {
        x - y
    }
}

kernel_tests!(impl_scalar, Binary<Sub>, (scalar::sub_s8, scalar::sub_s8_in_place));
kernel_tests!(impl_dispatch, if true, Binary<Sub>, (sub_s8, sub_s8_in_place));

#[test]
fn hand_computed() {
    let plan = plan_broadcast(&[4], &[1]).unwrap();
    let p = prepare_sub(q(0.5, 0), q(0.5, 0), q(1.0, -5), FusedActivation::None, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 4];
    sub_s8(&p, &[10, -10, 127, -128], &[3], &mut out);
    // (a - 3) / 2 - 5, ties away from zero: 3.5 -> 4, -6.5 -> -7, 62 -> 62, -65.5 -> -66.
    assert_eq!(out, [-1, -12, 57, -71]);
}

// float32 and int32 SUB (TFLite's unquantized paths; int32 wraps: TFLite leaves overflow
// undefined).
plain_binary_tests!(f32, f32, (plain::sub_f32, plain::sub_f32_in_place), (sub_f32, sub_f32_in_place), |a, b| a - b);
plain_binary_tests!(i32, i32, (plain::sub_i32, plain::sub_i32_in_place), (sub_i32, sub_i32_in_place), |a, b| a.wrapping_sub(b));

x86_binary_tests!(Binary<Sub>, (sub_avx2, sub_in_place_avx2), (sub_avx512, sub_in_place_avx512));

s16_in_place_test!(prepare_sub_s16, sub_s16, sub_s16_in_place, SubParams);
