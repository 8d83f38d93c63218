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

/// float32 MUL (TFLite's unquantized path).
#[derive(Clone, Debug)]
struct MulF32;

impl PlainBinaryOp for MulF32 {
    type T = f32;
    const REFERENCE: PlainKernel<f32> = (plain::mul_f32, plain::mul_f32_in_place);
    fn apply(a: f32, b: f32) -> f32 {
        a * b
    }
}

/// int32 MUL (wrapping: TFLite leaves overflow undefined).
#[derive(Clone, Debug)]
struct MulI32;

impl PlainBinaryOp for MulI32 {
    type T = i32;
    const REFERENCE: PlainKernel<i32> = (plain::mul_i32, plain::mul_i32_in_place);
    fn apply(a: i32, b: i32) -> i32 {
        a.wrapping_mul(b)
    }
}

kernel_tests!(impl_scalar_f32, Plain<MulF32>, (plain::mul_f32, plain::mul_f32_in_place));
kernel_tests!(impl_dispatch_f32, if true, Plain<MulF32>, (mul_f32, mul_f32_in_place));
kernel_tests!(impl_scalar_i32, Plain<MulI32>, (plain::mul_i32, plain::mul_i32_in_place));
kernel_tests!(impl_dispatch_i32, if true, Plain<MulI32>, (mul_i32, mul_i32_in_place));

#[cfg(target_arch = "x86_64")]
kernel_tests!(
    impl_avx2,
    if crate::arch::x86_64::tests::detected(),
    Binary<Mul>,
    (crate::arch::x86_64::elementwise::tests::mul_avx2, crate::arch::x86_64::elementwise::tests::mul_in_place_avx2)
);
#[cfg(target_arch = "x86_64")]
kernel_tests!(
    impl_avx512vnni,
    if crate::arch::x86_64::vnni::tests::detected(),
    Binary<Mul>,
    (crate::arch::x86_64::elementwise::tests::mul_avx512, crate::arch::x86_64::elementwise::tests::mul_in_place_avx512)
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
        let Some(p) = prepare_mul_s16(q(scales.0, 0), q(scales.1, 0), q(scales.2, 0), activation, plan.as_broadcast()) else { return Ok(()) };
        let mut rng = crate::kernels::test_util::Rng(seed);
        let x = crate::kernels::test_util::random_i16s(&mut rng, s1.iter().product());
        let y = crate::kernels::test_util::random_i16s(&mut rng, s2.iter().product());
        let run = |b: &Broadcast, x: &[i16], y: &[i16], out: &mut [i16]| mul_s16(&MulParams { broadcast: *b, ..p }, x, y, out);
        let run_in_place = |b: &Broadcast, x: &mut [i16], y: &[i16]| mul_s16_in_place(&MulParams { broadcast: *b, ..p }, x, y);
        crate::kernels::test_util::binary_in_place_matches((&s1, &x), (&s2, &y), run, run_in_place).map_err(TestCaseError::fail)?;
    }
}
