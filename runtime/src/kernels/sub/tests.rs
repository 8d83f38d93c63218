use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{
    fused_activation, kernel_tests, real, real_activation_range, scale, to_s8_units, zero_point, Binary, BinaryKernel,
    BinaryS8Op, Plain, PlainBinaryOp, PlainKernel,
};
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

/// float32 SUB (TFLite's unquantized path).
#[derive(Clone, Debug)]
struct SubF32;

impl PlainBinaryOp for SubF32 {
    type T = f32;
    const REFERENCE: PlainKernel<f32> = (plain::sub_f32, plain::sub_f32_in_place);
    fn apply(a: f32, b: f32) -> f32 {
        a - b
    }
}

/// int32 SUB (wrapping: TFLite leaves overflow undefined).
#[derive(Clone, Debug)]
struct SubI32;

impl PlainBinaryOp for SubI32 {
    type T = i32;
    const REFERENCE: PlainKernel<i32> = (plain::sub_i32, plain::sub_i32_in_place);
    fn apply(a: i32, b: i32) -> i32 {
        a.wrapping_sub(b)
    }
}

kernel_tests!(impl_scalar_f32, Plain<SubF32>, (plain::sub_f32, plain::sub_f32_in_place));
kernel_tests!(impl_dispatch_f32, if true, Plain<SubF32>, (sub_f32, sub_f32_in_place));
kernel_tests!(impl_scalar_i32, Plain<SubI32>, (plain::sub_i32, plain::sub_i32_in_place));
kernel_tests!(impl_dispatch_i32, if true, Plain<SubI32>, (sub_i32, sub_i32_in_place));

#[cfg(target_arch = "x86_64")]
kernel_tests!(
    impl_avx2,
    if crate::arch::x86_64::tests::detected(),
    Binary<Sub>,
    (crate::arch::x86_64::elementwise::tests::sub_avx2, crate::arch::x86_64::elementwise::tests::sub_in_place_avx2)
);
#[cfg(target_arch = "x86_64")]
kernel_tests!(
    impl_avx512vnni,
    if crate::arch::x86_64::vnni::tests::detected(),
    Binary<Sub>,
    (crate::arch::x86_64::elementwise::tests::sub_avx512, crate::arch::x86_64::elementwise::tests::sub_in_place_avx512)
);

proptest! {
    /// The 16x8 form in place (output over operand 1, operand 2 broadcasting) gives the
    /// out-of-place bytes, on every broadcasting pattern, every fused activation and
    /// full-range data.
    #[test]
    fn s16_in_place_matches(
        (s1, s2) in crate::kernels::test_util::broadcast_shapes(),
        scales in (scale(1e-5, 1e-2), scale(1e-5, 1e-2), scale(1e-5, 2e-2)),
        activation in fused_activation(),
        seed in any::<u64>(),
    ) {
        let plan = plan_broadcast(&s1, &s2).unwrap();
        let Some(p) = prepare_sub_s16(q(scales.0, 0), q(scales.1, 0), q(scales.2, 0), activation, plan.as_broadcast()) else { return Ok(()) };
        let mut rng = crate::kernels::test_util::Rng(seed);
        let x = crate::kernels::test_util::random_i16s(&mut rng, s1.iter().product());
        let y = crate::kernels::test_util::random_i16s(&mut rng, s2.iter().product());
        let run = |b: &Broadcast, x: &[i16], y: &[i16], out: &mut [i16]| sub_s16(&SubParams { broadcast: *b, ..p }, x, y, out);
        let run_in_place = |b: &Broadcast, x: &mut [i16], y: &[i16]| sub_s16_in_place(&SubParams { broadcast: *b, ..p }, x, y);
        crate::kernels::test_util::binary_in_place_matches((&s1, &x), (&s2, &y), run, run_in_place).map_err(TestCaseError::fail)?;
    }
}
