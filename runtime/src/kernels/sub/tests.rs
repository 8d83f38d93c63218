use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{
    fused_activation, kernel_tests, real, real_activation_range, scale, to_s8_units, zero_point, Binary, BinaryKernel,
    BinaryS8Op,
};
use crate::kernels::test_util::{plain_binary_tests, s16_in_place_test, x86_binary_tests};
use proptest::prelude::*;
use std::vec::Vec;

fn q(scale: f32, zero_point: i32) -> QuantParams {
    QuantParams { scale, zero_point }
}

#[derive(Clone, Debug)]
struct Sub {
    a: QuantParams,
    b: QuantParams,
    out: QuantParams,
    activation: FusedActivation,
}

impl BinaryS8Op for Sub {
    type Params<'a> = SubParams<'a>;
    const REFERENCE: BinaryKernel<Self> = (scalar::sub_s8, scalar::sub_s8_in_place);

    fn strategy() -> BoxedStrategy<Self> {
        (scale(0.001, 0.1), scale(0.001, 0.1), scale(0.002, 0.2), zero_point(), zero_point(), zero_point(), fused_activation())
            .prop_map(|(sa, sb, so, za, zb, zo, activation)| Sub { a: q(sa, za), b: q(sb, zb), out: q(so, zo), activation })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        for (sa, sb, so) in [(0.05, 0.05, 0.1), (0.1, 1e-4, 0.1), (0.1, 0.1, 1e-3), (1e-3, 1e-3, 0.5)] {
            for (za, zb, zo) in [(0, 0, 0), (-128, 127, -128), (127, -128, 127)] {
                v.push(Sub { a: q(sa, za), b: q(sb, zb), out: q(so, zo), activation: FusedActivation::None });
            }
            v.push(Sub { a: q(sa, 3), b: q(sb, -5), out: q(so, 7), activation: FusedActivation::ReluN1To1 });
        }
        v
    }

    fn params<'a>(&self, broadcast: Broadcast<'a>) -> Option<SubParams<'a>> {
        prepare_sub(self.a, self.b, self.out, self.activation, broadcast)
    }

    fn ideal(&self, x: i8, y: i8) -> f64 {
        let (lo, hi) = real_activation_range(self.activation);
        to_s8_units((real(x, self.a) - real(y, self.b)).clamp(lo, hi), self.out)
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
