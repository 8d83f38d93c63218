use super::*;
use proptest::prelude::*;

fn q(scale: f32, zero_point: i32) -> QuantParams {
    QuantParams { scale, zero_point }
}

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

proptest! {
    #[test]
    fn requantizes_close_to_float(si in 0.001f32..0.1, so in 0.001f32..0.1, zi in -128i32..128, zo in -128i32..128, kind in 0usize..3) {
        let (p, lo, hi) = match kind {
            0 => (prepare_relu(q(si, zi), q(so, zo)).unwrap(), 0.0, f64::INFINITY),
            1 => (prepare_relu6(q(si, zi), q(so, zo)).unwrap(), 0.0, 6.0),
            _ => (prepare_relu_n1_to_1(q(si, zi), q(so, zo)).unwrap(), -1.0, 1.0),
        };
        let input: std::vec::Vec<i8> = (-128..=127).map(|v| v as i8).collect();
        let mut out = [0i8; 256];
        relu_s8(&p, &input, &mut out);
        for (&x, &y) in input.iter().zip(&out) {
            let r = (si as f64 * (x as i32 - zi) as f64).clamp(lo, hi);
            let want = (r / so as f64 + zo as f64).clamp(-128.0, 127.0);
            prop_assert!((y as f64 - want).abs() <= 1.01, "{} -> {} vs {}", x, y, want);
        }
    }
}
