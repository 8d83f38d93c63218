use super::*;
use proptest::prelude::*;

fn q(scale: f32, zero_point: i32) -> QuantParams {
    QuantParams { scale, zero_point }
}

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
    let input: std::vec::Vec<i8> = (-128..=127).map(|v| v as i8).collect();
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

    #[test]
    fn requantize_close_to_float(si in 0.001f32..0.1, so in 0.001f32..0.1, zi in -128i32..128, zo in -128i32..128) {
        let p = prepare_requantize(q(si, zi), q(so, zo)).unwrap();
        let input: std::vec::Vec<i8> = (-128..=127).map(|v| v as i8).collect();
        let mut out = [0i8; 256];
        quantize_s8_s8(&p, &input, &mut out);
        for (&x, &y) in input.iter().zip(&out) {
            let want = (si as f64 * (x as i32 - zi) as f64 / so as f64 + zo as f64).clamp(-128.0, 127.0);
            prop_assert!((y as f64 - want).abs() <= 1.01, "{} -> {} vs {}", x, y, want);
        }
    }
}
