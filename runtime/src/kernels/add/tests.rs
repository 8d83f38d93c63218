use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{kernel_tests, qp as q, Arith, ArithOp, Binary, BinaryKernel};
use crate::kernels::test_util::{plain_binary_tests, s16_in_place_test, x86_binary_tests};
use crate::prepare::FusedActivation;
use crate::quant::QuantParams;

/// ADD int8 as an [`ArithOp`].
#[derive(Clone, Debug)]
struct AddOp;

type Add = Arith<AddOp>;

impl ArithOp for AddOp {
    type Params<'a> = AddParams<'a>;
    const REFERENCE: BinaryKernel<Add> = (scalar::add_s8, scalar::add_s8_in_place);
    const OUT_SCALE: (f32, f32) = (0.002, 0.2);
    // Equal scales; input scales 1000 apart (one multiplier at the bottom of its
    // range); an output scale far below the inputs' (saturation) and far above.
    const EDGE_SCALES: &'static [(f32, f32, f32)] = &[(0.05, 0.05, 0.1), (0.1, 1e-4, 0.1), (0.1, 0.1, 1e-3), (1e-3, 1e-3, 0.5)];
    const EDGE_ACTIVATION: FusedActivation = FusedActivation::Relu6;

    fn prepare<'a>(a: QuantParams, b: QuantParams, out: QuantParams, activation: FusedActivation, broadcast: Broadcast<'a>) -> Option<AddParams<'a>> {
        prepare_add(a, b, out, activation, broadcast)
    }

    fn apply(x: f64, y: f64) -> f64 {
        x + y
    }
}

kernel_tests!(impl_scalar, Binary<Add>, (scalar::add_s8, scalar::add_s8_in_place));
kernel_tests!(impl_dispatch, if true, Binary<Add>, (add_s8, add_s8_in_place));

#[test]
fn hand_computed() {
    // Same scales, zero points 0, output scale twice the input's: out = round((a+b)/2).
    let plan = plan_broadcast(&[4], &[4]).unwrap();
    let p = prepare_add(q(0.5, 0), q(0.5, 0), q(1.0, 0), FusedActivation::None, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 4];
    add_s8(&p, &[10, -10, 127, -128], &[20, -21, 127, -128], &mut out);
    assert_eq!(out, [15, -16, 127, -128]); // -15.5 rounds away from zero
    // Relu clamps at the output zero point.
    let p = prepare_add(q(0.5, 0), q(0.5, 0), q(1.0, 3), FusedActivation::Relu, plan.as_broadcast()).unwrap();
    add_s8(&p, &[10, -10, -100, 0], &[20, -21, -100, 0], &mut out);
    assert_eq!(out, [18, 3, 3, 3]);
}

#[test]
fn saturates() {
    let plan = plan_broadcast(&[2], &[1]).unwrap();
    let p = prepare_add(q(0.1, 0), q(0.1, 0), q(0.01, 0), FusedActivation::None, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 2];
    add_s8(&p, &[100, -100], &[27], &mut out);
    assert_eq!(out, [127, -128]);
}

// float32 and int32 ADD (TFLite's unquantized paths; int32 wraps: TFLite leaves overflow
// undefined).
plain_binary_tests!(f32, f32, (plain::add_f32, plain::add_f32_in_place), (add_f32, add_f32_in_place), |a, b| a + b);
plain_binary_tests!(i32, i32, (plain::add_i32, plain::add_i32_in_place), (add_i32, add_i32_in_place), |a, b| a.wrapping_add(b));

x86_binary_tests!(Binary<Add>, (add_avx2, add_in_place_avx2), (add_avx512, add_in_place_avx512));

s16_in_place_test!(prepare_add_s16, add_s16, add_s16_in_place, AddParams);
