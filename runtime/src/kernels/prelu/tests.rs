use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{kernel_tests, real, scale, to_s8_units, zero_point, Binary, BinaryKernel, BinaryS8Op};
use proptest::prelude::*;
use std::vec::Vec;

fn q(scale: f32, zero_point: i32) -> QuantParams {
    QuantParams { scale, zero_point }
}

#[derive(Clone, Debug)]
struct Prelu {
    input: QuantParams,
    alpha: QuantParams,
    out: QuantParams,
}

impl BinaryS8Op for Prelu {
    type Params<'a> = PreluParams<'a>;
    const REFERENCE: BinaryKernel<Self> = (scalar::prelu_s8, scalar::prelu_s8_in_place);
    // PRELU's alpha broadcasts onto the input's shape.
    const FIRST_IS_FULL: bool = true;

    fn strategy() -> BoxedStrategy<Self> {
        (scale(0.001, 0.1), scale(0.001, 0.1), scale(0.002, 0.2), zero_point(), zero_point(), zero_point())
            .prop_map(|(si, sa, so, zi, za, zo)| Prelu { input: q(si, zi), alpha: q(sa, za), out: q(so, zo) })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        // Identity multiplier above 1 (saturating) and far below; alpha products of 1e-6.
        for (si, sa, so) in [(0.05, 0.01, 0.05), (0.1, 0.1, 1e-3), (1e-3, 1e-3, 0.5)] {
            for (zi, za, zo) in [(0, 0, 0), (-128, 127, -128), (127, -128, 127)] {
                v.push(Prelu { input: q(si, zi), alpha: q(sa, za), out: q(so, zo) });
            }
        }
        v
    }

    fn params<'a>(&self, broadcast: Broadcast<'a>) -> Option<PreluParams<'a>> {
        prepare_prelu(self.input, self.alpha, self.out, broadcast)
    }

    fn ideal(&self, x: i8, a: i8) -> f64 {
        let rx = real(x, self.input);
        to_s8_units(if rx >= 0.0 { rx } else { rx * real(a, self.alpha) }, self.out)
    }
}

kernel_tests!(impl_scalar, Binary<Prelu>, (scalar::prelu_s8, scalar::prelu_s8_in_place));
kernel_tests!(impl_dispatch, if true, Binary<Prelu>, (prelu_s8, prelu_s8_in_place));

#[test]
fn hand_computed() {
    let plan = plan_broadcast(&[2, 2], &[2]).unwrap();
    // in scale 1, alpha scale 0.25 (alpha = [1, 2] -> 0.25, 0.5), out scale 1, zp 0.
    let p = prepare_prelu(q(1.0, 0), q(0.25, 0), q(1.0, 0), plan.as_broadcast()).unwrap();
    let mut out = [0i8; 4];
    prelu_s8(&p, &[10, -10, -128, 127], &[1, 2], &mut out);
    // row 0 alpha [0.25, 0.5]: 10, -10*0.5; row 1: -128*0.25, 127
    assert_eq!(out, [10, -5, -32, 127]);
}

proptest! {
    /// float32 PRELU in place (output over the input, alpha broadcasting) gives the
    /// out-of-place bytes on every broadcasting pattern.
    #[test]
    fn f32_in_place_matches((s1, s2) in crate::kernels::test_util::broadcast_shapes(), seed in any::<u64>()) {
        let mut rng = crate::kernels::test_util::Rng(seed);
        let x = crate::kernels::test_util::special_f32s(&mut rng, s1.iter().product());
        let a = crate::kernels::test_util::special_f32s(&mut rng, s2.iter().product());
        crate::kernels::test_util::binary_in_place_matches((&s1, &x), (&s2, &a), prelu_f32, prelu_f32_in_place).map_err(proptest::test_runner::TestCaseError::fail)?;
    }
}
