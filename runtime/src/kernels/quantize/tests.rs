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

proptest! {
    /// float32 -> int16: `roundf(x / scale)` (half away from zero) plus the zero point,
    /// clamped to int16.
    #[test]
    fn float_quantize_int16_is_nearest(x in -3000.0f32..3000.0, scale in 0.001f32..0.2, zp in -32768i32..32768) {
        let p = QuantizeParams { scale, zero_point: zp };
        let mut out = [0i16; 1];
        quantize_f32_s16(&p, &[x], &mut out);
        let q = x / scale;
        let rounded = if q < 0.0 { -((-q) as f64 + 0.5).floor() } else { (q as f64 + 0.5).floor() };
        prop_assert_eq!(out[0] as i64, (rounded as i64 + zp as i64).clamp(-32768, 32767));
    }

    /// Every new requantization pair against `clamp(round(ratio * (x - zp_in)) + zp_out)`
    /// within one step, and exactly the zero-point shift at equal scales.
    #[test]
    fn integer_pairs(si in 0.001f32..0.1, so in 0.001f32..0.1, seed in any::<u64>()) {
        let mut rng = crate::kernels::test_util::Rng(seed);
        let (zi, zo) = ((rng.next_u64() % 200) as i32 - 100, (rng.next_u64() % 200) as i32 - 100);
        let xs: Vec<i32> = (0..64).map(|_| (rng.next_u64() % 256) as i32 - 128).collect();
        let ideal = |p: &RequantizeParams, x: i32, lo: i64, hi: i64| -> i64 {
            let r = (si as f64 / so as f64) * (x - p.input_zero_point) as f64;
            (r.round() as i64 + p.output_zero_point as i64).clamp(lo, hi)
        };
        let p = prepare_requantize(q(si, zi), q(so, zo)).unwrap();
        let close = |got: i64, want: i64| (got - want).abs() <= 1;
        let x8: Vec<i8> = xs.iter().map(|&x| x as i8).collect();
        let x16: Vec<i16> = xs.iter().map(|&x| (x * 200) as i16).collect();
        let x32: Vec<i32> = xs.iter().map(|&x| x * 70_000).collect();
        let xu: Vec<u8> = xs.iter().map(|&x| (x + 128) as u8).collect();
        let (mut o8, mut o16, mut o32, mut ou) = (std::vec![0i8; 64], std::vec![0i16; 64], std::vec![0i32; 64], std::vec![0u8; 64]);
        quantize_s16_s16(&p, &x16, &mut o16);
        for i in 0..64 { prop_assert!(close(o16[i] as i64, ideal(&p, x16[i] as i32, -32768, 32767))); }
        quantize_s8_s32(&p, &x8, &mut o32);
        for i in 0..64 { prop_assert!(close(o32[i] as i64, ideal(&p, x8[i] as i32, i32::MIN as i64, i32::MAX as i64))); }
        quantize_s32_s8(&p, &x32, &mut o8);
        for i in 0..64 { prop_assert!(close(o8[i] as i64, ideal(&p, x32[i], -128, 127))); }
        quantize_s32_s16(&p, &x32, &mut o16);
        for i in 0..64 { prop_assert!(close(o16[i] as i64, ideal(&p, x32[i], -32768, 32767))); }
        let pu = prepare_requantize(q(si, zi), q(so, zo + 100)).unwrap();
        quantize_s8_u8(&pu, &x8, &mut ou);
        for i in 0..64 { prop_assert!(close(ou[i] as i64, ideal(&pu, x8[i] as i32, 0, 255))); }
        let pi = prepare_requantize(q(si, zi + 100), q(so, zo)).unwrap();
        quantize_u8_s8(&pi, &xu, &mut o8);
        for i in 0..64 { prop_assert!(close(o8[i] as i64, ideal(&pi, xu[i] as i32, -128, 127))); }
    }
}

/// int8 <-> uint8 at one scale and zero points 128 apart: TFLite's XOR-0x80 shortcut's bytes.
#[test]
fn int8_uint8_same_scale_is_the_sign_flip() {
    let all = all_i8();
    let mut u = [0u8; 256];
    quantize_s8_u8(&prepare_requantize(q(0.1, -3), q(0.1, 125)).unwrap(), &all, &mut u);
    for (&x, &y) in all.iter().zip(&u) {
        assert_eq!(y, (x as u8) ^ 0x80);
    }
    let mut back = [0i8; 256];
    quantize_u8_s8(&prepare_requantize(q(0.1, 125), q(0.1, -3)).unwrap(), &u, &mut back);
    assert_eq!(&back[..], &all[..]);
}

proptest! {
    /// int16 -> int16 requantization in place gives the out-of-place bytes.
    #[test]
    fn s16_s16_in_place_matches(n in 0usize..70, seed in any::<u64>(), si in 0.001f32..0.1, so in 0.001f32..0.1, zi in -300i32..300, zo in -300i32..300) {
        let p = prepare_requantize(q(si, zi), q(so, zo)).unwrap();
        let x = crate::kernels::test_util::random_i16s(&mut crate::kernels::test_util::Rng(seed), n);
        crate::kernels::test_util::unary_in_place_matches(&x, |x, y| quantize_s16_s16(&p, x, y), |d| quantize_s16_s16_in_place(&p, d))
            .map_err(proptest::test_runner::TestCaseError::fail)?;
    }
}
