use super::*;
use crate::kernels::test_util::{kernel_tests, scale, zero_point, Unary, UnaryKernel, UnaryS8Op};
use proptest::prelude::*;
use std::vec::Vec;

fn q(scale: f32, zero_point: i32) -> QuantParams {
    QuantParams { scale, zero_point }
}

#[derive(Clone, Debug)]
struct LeakyRelu {
    input: QuantParams,
    output: QuantParams,
    alpha: f32,
}

impl UnaryS8Op for LeakyRelu {
    type Params = LeakyReluParams;
    const REFERENCE: UnaryKernel<LeakyReluParams> = (scalar::leaky_relu_s8, scalar::leaky_relu_s8_in_place);

    fn strategy() -> BoxedStrategy<Self> {
        (scale(0.001, 0.1), scale(0.001, 0.1), zero_point(), zero_point(), -2.0f32..2.0)
            .prop_map(|(si, so, zi, zo, alpha)| LeakyRelu { input: q(si, zi), output: q(so, zo), alpha })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        // Identity and alpha multipliers at both ends of the shift range, a zero and a
        // negative alpha, alpha above one; zero points at the extremes.
        for (si, so) in [(0.05, 0.05), (0.1, 1e-4), (1e-4, 0.1)] {
            for (zi, zo) in [(0, 0), (-128, 127), (127, -128)] {
                for alpha in [0.0, 0.2, -0.5, 1.75] {
                    v.push(LeakyRelu { input: q(si, zi), output: q(so, zo), alpha });
                }
            }
        }
        v
    }

    fn params(&self) -> Option<LeakyReluParams> {
        prepare_leaky_relu(self.input, self.output, self.alpha)
    }

    fn ideal(&self, x: i8) -> f64 {
        let r = self.input.scale as f64 * (x as i32 - self.input.zero_point) as f64;
        let r = if r >= 0.0 { r } else { r * self.alpha as f64 };
        (r / self.output.scale as f64 + self.output.zero_point as f64).clamp(-128.0, 127.0)
    }
}

kernel_tests!(impl_scalar, Unary<LeakyRelu>, (scalar::leaky_relu_s8, scalar::leaky_relu_s8_in_place));
kernel_tests!(impl_dispatch, if true, Unary<LeakyRelu>, (leaky_relu_s8, leaky_relu_s8_in_place));

#[test]
fn hand_computed() {
    let p = prepare_leaky_relu(q(1.0, 0), q(1.0, 0), 0.25).unwrap();
    let input: [i8; 6] = [-128, -10, -2, 0, 5, 127];
    let mut out = [0i8; 6];
    leaky_relu_s8(&p, &input, &mut out);
    // -2.5 -> -3 (MBQM rounds ties away from zero), -0.5 -> -1
    assert_eq!(out, [-32, -3, -1, 0, 5, 127]);
    let p = prepare_leaky_relu(q(1.0, 0), q(1.0, 0), -0.5).unwrap();
    leaky_relu_s8(&p, &input, &mut out);
    assert_eq!(out, [64, 5, 1, 0, 5, 127]);
}

proptest::proptest! {
    /// float32 LEAKY_RELU in place gives the out-of-place bytes.
    #[test]
    fn f32_in_place_matches(n in 0usize..70, seed in proptest::prelude::any::<u64>(), alpha in -2.0f32..2.0) {
        let x = crate::kernels::test_util::special_f32s(&mut crate::kernels::test_util::Rng(seed), n);
        crate::kernels::test_util::unary_in_place_matches(&x, |x, y| leaky_relu_f32(alpha, x, y), |d| leaky_relu_f32_in_place(alpha, d))
            .map_err(proptest::test_runner::TestCaseError::fail)?;
    }
}

proptest::proptest! {
    /// int16 LEAKY_RELU within one step of `x` (x >= 0) or `alpha x` (below), requantized,
    /// saturated to int16; in place the same.
    #[test]
    fn s16_follows_the_real_value(si in 1e-5f32..1e-2, so in 1e-5f32..1e-2, alpha in -2.0f32..2.0, seed: u64) {
        let p = super::prepare_leaky_relu(q(si, 0), q(so, 0), alpha).unwrap();
        let mut rng = crate::kernels::test_util::Rng(seed);
        let x: Vec<i16> = [i16::MIN, -1, 0, 1, i16::MAX].into_iter().chain((0..64).map(|_| rng.range(-32768, 32767) as i16)).collect();
        let mut y = std::vec![0i16; x.len()];
        super::leaky_relu_s16(&p, &x, &mut y);
        let mut z = x.clone();
        super::leaky_relu_s16_in_place(&p, &mut z);
        proptest::prop_assert_eq!(&y, &z);
        for (&v, &g) in x.iter().zip(&y) {
            let real = if v >= 0 { v as f64 } else { v as f64 * alpha as f64 } * si as f64 / so as f64;
            let want = real.round().clamp(-32768.0, 32767.0);
            proptest::prop_assert!((g as f64 - want).abs() <= 1.0, "{} -> {} want {}", v, g, want);
        }
    }
}
