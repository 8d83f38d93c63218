use super::*;
use proptest::prelude::*;

fn q(scale: f32, zero_point: i32) -> QuantParams {
    QuantParams { scale, zero_point }
}

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

proptest! {
    #[test]
    fn close_to_float(si in 0.001f32..0.1, so in 0.001f32..0.1, zi in -128i32..128, zo in -128i32..128, alpha in -2.0f32..2.0) {
        let p = prepare_leaky_relu(q(si, zi), q(so, zo), alpha).unwrap();
        let input: std::vec::Vec<i8> = (-128..=127).map(|v| v as i8).collect();
        let mut out = [0i8; 256];
        leaky_relu_s8(&p, &input, &mut out);
        for (&x, &y) in input.iter().zip(&out) {
            let r = si as f64 * (x as i32 - zi) as f64;
            let r = if r >= 0.0 { r } else { r * alpha as f64 };
            let want = (r / so as f64 + zo as f64).clamp(-128.0, 127.0);
            prop_assert!((y as f64 - want).abs() <= 1.01, "{} -> {} vs {}", x, y, want);
        }
    }
}
