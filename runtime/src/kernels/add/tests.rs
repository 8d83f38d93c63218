use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{
    fused_activation, kernel_tests, real, real_activation_range, scale, to_s8_units, zero_point, Binary, BinaryKernel,
    BinaryS8Op, Plain, PlainBinaryOp, PlainKernel,
};
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

/// float32 ADD (TFLite's unquantized path).
#[derive(Clone, Debug)]
struct AddF32;

impl PlainBinaryOp for AddF32 {
    type T = f32;
    const REFERENCE: PlainKernel<f32> = (plain::add_f32, plain::add_f32_in_place);
    fn apply(a: f32, b: f32) -> f32 {
        a + b
    }
}

/// int32 ADD (wrapping: TFLite leaves overflow undefined).
#[derive(Clone, Debug)]
struct AddI32;

impl PlainBinaryOp for AddI32 {
    type T = i32;
    const REFERENCE: PlainKernel<i32> = (plain::add_i32, plain::add_i32_in_place);
    fn apply(a: i32, b: i32) -> i32 {
        a.wrapping_add(b)
    }
}

kernel_tests!(impl_scalar_f32, Plain<AddF32>, (plain::add_f32, plain::add_f32_in_place));
kernel_tests!(impl_dispatch_f32, if true, Plain<AddF32>, (add_f32, add_f32_in_place));
kernel_tests!(impl_scalar_i32, Plain<AddI32>, (plain::add_i32, plain::add_i32_in_place));
kernel_tests!(impl_dispatch_i32, if true, Plain<AddI32>, (add_i32, add_i32_in_place));

#[cfg(target_arch = "x86_64")]
kernel_tests!(
    impl_avx2,
    if crate::arch::x86_64::tests::detected(),
    Binary<Add>,
    (crate::arch::x86_64::elementwise::tests::add_avx2, crate::arch::x86_64::elementwise::tests::add_in_place_avx2)
);
#[cfg(target_arch = "x86_64")]
kernel_tests!(
    impl_avx512vnni,
    if crate::arch::x86_64::vnni::tests::detected(),
    Binary<Add>,
    (crate::arch::x86_64::elementwise::tests::add_avx512, crate::arch::x86_64::elementwise::tests::add_in_place_avx512)
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
        let Some(p) = prepare_add_s16(q(scales.0, 0), q(scales.1, 0), q(scales.2, 0), activation, plan.as_broadcast()) else { return Ok(()) };
        let mut rng = crate::kernels::test_util::Rng(seed);
        let x = crate::kernels::test_util::random_i16s(&mut rng, s1.iter().product());
        let y = crate::kernels::test_util::random_i16s(&mut rng, s2.iter().product());
        let run = |b: &Broadcast, x: &[i16], y: &[i16], out: &mut [i16]| add_s16(&AddParams { broadcast: *b, ..p }, x, y, out);
        let run_in_place = |b: &Broadcast, x: &mut [i16], y: &[i16]| add_s16_in_place(&AddParams { broadcast: *b, ..p }, x, y);
        crate::kernels::test_util::binary_in_place_matches((&s1, &x), (&s2, &y), run, run_in_place).map_err(TestCaseError::fail)?;
    }
}
