use super::*;
use crate::kernels::test_util::{all_i8, kernel_tests, scale, zero_point, Unary, UnaryKernel, UnaryS8Op};
use proptest::prelude::*;
use std::vec::Vec;

fn q(scale: f32, zero_point: i32) -> QuantParams {
    QuantParams { scale, zero_point }
}

/// QUANTIZE int8 -> int8 (a requantization).
#[derive(Clone, Debug)]
struct Requantize {
    input: QuantParams,
    output: QuantParams,
}

impl UnaryS8Op for Requantize {
    type Params = RequantizeParams;
    const REFERENCE: UnaryKernel<RequantizeParams> = (scalar::quantize_s8_s8, scalar::quantize_s8_s8_in_place);

    fn strategy() -> BoxedStrategy<Self> {
        (scale(0.001, 0.1), scale(0.001, 0.1), zero_point(), zero_point())
            .prop_map(|(si, so, zi, zo)| Requantize { input: q(si, zi), output: q(so, zo) })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        for (si, so) in [(0.05, 0.05), (0.1, 1e-4), (1e-4, 0.1), (0.1, 0.05)] {
            for (zi, zo) in [(0, 0), (-128, 127), (127, -128)] {
                v.push(Requantize { input: q(si, zi), output: q(so, zo) });
            }
        }
        v
    }

    fn params(&self) -> Option<RequantizeParams> {
        prepare_requantize(self.input, self.output)
    }

    fn ideal(&self, x: i8) -> f64 {
        let r = self.input.scale as f64 * (x as i32 - self.input.zero_point) as f64;
        (r / self.output.scale as f64 + self.output.zero_point as f64).clamp(-128.0, 127.0)
    }
}

kernel_tests!(impl_scalar, Unary<Requantize>, (scalar::quantize_s8_s8, scalar::quantize_s8_s8_in_place));
kernel_tests!(impl_dispatch, if true, Unary<Requantize>, (quantize_s8_s8, quantize_s8_s8_in_place));

#[test]
fn float_hand_computed() {
    let p = QuantizeParams { scale: 0.5, zero_point: -3 };
    let input = [0.0f32, 0.25, -0.25, 0.75, 1.0, 100.0, -100.0, 0.2499999, f32::INFINITY, f32::NEG_INFINITY];
    let mut out = [0i8; 10];
    quantize_f32_s8(&p, &input, &mut out);
    // 0.5 -> 1 and -0.5 -> -1 (ties away), 1.5 -> 2
    assert_eq!(out, [-3, -2, -4, -1, -1, 127, -128, -3, 127, -128]);
}

#[test]
fn requantize_same_scale_is_zero_point_shift() {
    let p = prepare_requantize(q(0.1, 5), q(0.1, -7)).unwrap();
    assert_eq!((p.multiplier, p.shift), (1 << 30, 1));
    let input = all_i8();
    let mut out = [0i8; 256];
    quantize_s8_s8(&p, &input, &mut out);
    for (&x, &y) in input.iter().zip(&out) {
        assert_eq!(y as i32, (x as i32 - 12).clamp(-128, 127));
    }
}

proptest! {
    #[test]
    fn float_quantize_is_nearest(x in -10.0f32..10.0, scale in 0.001f32..0.2, zp in -128i32..128) {
        let p = QuantizeParams { scale, zero_point: zp };
        let mut out = [0i8; 1];
        quantize_f32_s8(&p, &[x], &mut out);
        let want = ((x / scale) as f64).round() as i64 + zp as i64;
        prop_assert_eq!(out[0] as i64, want.clamp(-128, 127));
    }
}
