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
struct Mul {
    a: QuantParams,
    b: QuantParams,
    out: QuantParams,
    activation: FusedActivation,
}

impl BinaryS8Op for Mul {
    type Params<'a> = MulParams<'a>;
    const REFERENCE: BinaryKernel<Self> = (scalar::mul_s8, scalar::mul_s8_in_place);

    fn strategy() -> BoxedStrategy<Self> {
        (scale(0.001, 0.1), scale(0.001, 0.1), scale(0.0001, 0.2), zero_point(), zero_point(), zero_point(), fused_activation())
            .prop_map(|(sa, sb, so, za, zb, zo, activation)| Mul { a: q(sa, za), b: q(sb, zb), out: q(so, zo), activation })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        // A product multiplier above 1 (positive shift, saturating), one of 1e-6 and one of
        // exactly 1/2.
        for (sa, sb, so) in [(0.1, 0.1, 1e-5), (1e-3, 1e-3, 1.0), (0.5, 0.5, 0.5)] {
            for (za, zb, zo) in [(0, 0, 0), (-128, 127, -128), (127, -128, 127)] {
                v.push(Mul { a: q(sa, za), b: q(sb, zb), out: q(so, zo), activation: FusedActivation::None });
            }
            v.push(Mul { a: q(sa, 3), b: q(sb, -5), out: q(so, 7), activation: FusedActivation::Relu });
        }
        v
    }

    fn params<'a>(&self, broadcast: Broadcast<'a>) -> Option<MulParams<'a>> {
        prepare_mul(self.a, self.b, self.out, self.activation, broadcast)
    }

    fn ideal(&self, x: i8, y: i8) -> f64 {
        let (lo, hi) = real_activation_range(self.activation);
        to_s8_units((real(x, self.a) * real(y, self.b)).clamp(lo, hi), self.out)
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
