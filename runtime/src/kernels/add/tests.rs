use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{
    fused_activation, kernel_tests, real, real_activation_range, scale, to_s8_units, zero_point, Binary, BinaryKernel,
    BinaryS8Op,
};
use crate::kernels::test_util::{plain_binary_tests, s16_in_place_test, x86_binary_tests};
use crate::prepare::FusedActivation;
use crate::quant::QuantParams;
use proptest::prelude::*;
use std::vec::Vec;

fn q(scale: f32, zero_point: i32) -> QuantParams {
    QuantParams { scale, zero_point }
}

#[derive(Clone, Debug)]
struct Add {
    a: QuantParams,
    b: QuantParams,
    out: QuantParams,
    activation: FusedActivation,
}

impl BinaryS8Op for Add {
    type Params<'a> = AddParams<'a>;
    const REFERENCE: BinaryKernel<Self> = (scalar::add_s8, scalar::add_s8_in_place);

    fn strategy() -> BoxedStrategy<Self> {
        (scale(0.001, 0.1), scale(0.001, 0.1), scale(0.002, 0.2), zero_point(), zero_point(), zero_point(), fused_activation())
            .prop_map(|(sa, sb, so, za, zb, zo, activation)| Add { a: q(sa, za), b: q(sb, zb), out: q(so, zo), activation })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        // Equal scales; input scales 1000 apart (one multiplier at the bottom of its
        // range); an output scale far below the inputs' (saturation) and far above.
        for (sa, sb, so) in [(0.05, 0.05, 0.1), (0.1, 1e-4, 0.1), (0.1, 0.1, 1e-3), (1e-3, 1e-3, 0.5)] {
            for (za, zb, zo) in [(0, 0, 0), (-128, 127, -128), (127, -128, 127)] {
                v.push(Add { a: q(sa, za), b: q(sb, zb), out: q(so, zo), activation: FusedActivation::None });
            }
            v.push(Add { a: q(sa, 3), b: q(sb, -5), out: q(so, 7), activation: FusedActivation::Relu6 });
        }
        v
    }

    fn params<'a>(&self, broadcast: Broadcast<'a>) -> Option<AddParams<'a>> {
        prepare_add(self.a, self.b, self.out, self.activation, broadcast)
    }

    fn ideal(&self, x: i8, y: i8) -> f64 {
        let (lo, hi) = real_activation_range(self.activation);
        to_s8_units((real(x, self.a) + real(y, self.b)).clamp(lo, hi), self.out)
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
