use super::*;
use crate::kernels::test_util::{kernel_tests, scale, zero_point, Unary, UnaryKernel, UnaryS8Op};
use proptest::prelude::*;
use std::vec::Vec;

fn q(scale: f32, zero_point: i32) -> QuantParams {
    QuantParams { scale, zero_point }
}

/// RELU (`kind` 0), RELU6 (1) or RELU_N1_TO_1 (2) between two quantizations.
#[derive(Clone, Debug)]
struct Relu {
    input: QuantParams,
    output: QuantParams,
    kind: u8,
}

impl UnaryS8Op for Relu {
    type Params = ReluParams;
    const REFERENCE: UnaryKernel<ReluParams> = (scalar::relu_s8, scalar::relu_s8_in_place);

    fn strategy() -> BoxedStrategy<Self> {
        (scale(0.001, 0.1), scale(0.001, 0.1), zero_point(), zero_point(), 0u8..3)
            .prop_map(|(si, so, zi, zo, kind)| Relu { input: q(si, zi), output: q(so, zo), kind })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        // Same quantization (a clamp), scale ratios of 1000 and 1/1000 (the multiplier's
        // shift at both ends), zero points at the int8 extremes.
        for (si, so) in [(0.05, 0.05), (0.1, 1e-4), (1e-4, 0.1)] {
            for (zi, zo) in [(0, 0), (-128, 127), (127, -128)] {
                for kind in 0..3 {
                    v.push(Relu { input: q(si, zi), output: q(so, zo), kind });
                }
            }
        }
        v
    }

    fn params(&self) -> Option<ReluParams> {
        match self.kind {
            0 => prepare_relu(self.input, self.output),
            1 => prepare_relu6(self.input, self.output),
            _ => prepare_relu_n1_to_1(self.input, self.output),
        }
    }

    fn ideal(&self, x: i8) -> f64 {
        let (lo, hi) = [(0.0, f64::INFINITY), (0.0, 6.0), (-1.0, 1.0)][self.kind as usize];
        let r = (self.input.scale as f64 * (x as i32 - self.input.zero_point) as f64).clamp(lo, hi);
        (r / self.output.scale as f64 + self.output.zero_point as f64).clamp(-128.0, 127.0)
    }
}

kernel_tests!(impl_scalar, Unary<Relu>, (scalar::relu_s8, scalar::relu_s8_in_place));
kernel_tests!(impl_dispatch, if true, Unary<Relu>, (relu_s8, relu_s8_in_place));

#[test]
fn same_quantization_is_a_clamp() {
    let p = prepare_relu6(q(0.05, -10), q(0.05, -10)).unwrap();
    // six = -10 + 120 = 110
    assert_eq!((p.activation_min, p.activation_max), (-10, 110));
    let input: [i8; 6] = [-128, -11, -10, 0, 110, 127];
    let mut out = [0i8; 6];
    relu_s8(&p, &input, &mut out);
    assert_eq!(out, [-10, -10, -10, 0, 110, 110]);
    let p = prepare_relu(q(0.05, -10), q(0.05, -10)).unwrap();
    relu_s8(&p, &input, &mut out);
    assert_eq!(out, [-10, -10, -10, 0, 110, 127]);
    let p = prepare_relu_n1_to_1(q(0.05, -10), q(0.05, -10)).unwrap();
    relu_s8(&p, &input, &mut out);
    assert_eq!(out, [-30, -11, -10, 0, 10, 10]);
}

proptest::proptest! {
    /// float32 RELU, RELU6 and RELU_N1_TO_1 and int16 RELU / RELU6 in place give the
    /// out-of-place bytes (NaN, infinities, signed zeros and the int16 extremes included).
    #[test]
    fn f32_and_s16_in_place_match(n in 0usize..70, seed in proptest::prelude::any::<u64>(), si in 1e-4f32..1e-2, so in 1e-4f32..1e-2) {
        let mut rng = crate::kernels::test_util::Rng(seed);
        let x = crate::kernels::test_util::special_f32s(&mut rng, n);
        crate::kernels::test_util::unary_in_place_matches(&x, relu_f32, relu_f32_in_place).map_err(proptest::test_runner::TestCaseError::fail)?;
        crate::kernels::test_util::unary_in_place_matches(&x, relu6_f32, relu6_f32_in_place).map_err(proptest::test_runner::TestCaseError::fail)?;
        crate::kernels::test_util::unary_in_place_matches(&x, relu_n1_to_1_f32, relu_n1_to_1_f32_in_place).map_err(proptest::test_runner::TestCaseError::fail)?;
        let x16 = crate::kernels::test_util::random_i16s(&mut rng, n);
        let (qi, qo) = (QuantParams { scale: si, zero_point: 0 }, QuantParams { scale: so, zero_point: 0 });
        for act_max in [None, Some(6.0)] {
            let p = prepare_relu_x_s16(qi, qo, 0.0, act_max).unwrap();
            crate::kernels::test_util::unary_in_place_matches(&x16, |x, y| relu_s16(&p, x, y), |d| relu_s16_in_place(&p, d)).map_err(proptest::test_runner::TestCaseError::fail)?;
        }
    }
}
