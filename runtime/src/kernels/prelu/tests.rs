use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{broadcast_shapes, naive_broadcast_pairs};
use proptest::prelude::*;
use std::vec::Vec;

fn q(scale: f32, zero_point: i32) -> QuantParams {
    QuantParams { scale, zero_point }
}

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
    #[test]
    fn prelu_close_to_float(
        (s1, s2) in broadcast_shapes(),
        si in 0.001f32..0.1, sa in 0.001f32..0.1, so in 0.002f32..0.2,
        zi in -128i32..128, za in -128i32..128, zo in -128i32..128, seed in any::<u64>(),
    ) {
        // PRELU's alpha broadcasts onto the input's shape: only keep cases where input is the full shape.
        let (out_shape, pairs) = naive_broadcast_pairs(&s1, &s2);
        prop_assume!(s1.iter().product::<usize>() == out_shape.iter().product::<usize>());
        let plan = plan_broadcast(&s1, &s2).unwrap();
        let p = prepare_prelu(q(si, zi), q(sa, za), q(so, zo), plan.as_broadcast()).unwrap();
        let n1: usize = s1.iter().product();
        let n2: usize = s2.iter().product();
        let mut rng = seed;
        let mut next = || { rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); (rng >> 56) as u8 as i8 };
        let x: Vec<i8> = (0..n1).map(|_| next()).collect();
        let a: Vec<i8> = (0..n2).map(|_| next()).collect();
        let mut out = std::vec![0i8; pairs.len()];
        prelu_s8(&p, &x, &a, &mut out);
        for (k, &(i, j)) in pairs.iter().enumerate() {
            let rx = si as f64 * (x[i] as i32 - zi) as f64;
            let r = if rx >= 0.0 { rx } else { rx * sa as f64 * (a[j] as i32 - za) as f64 };
            let want = (r / so as f64 + zo as f64).clamp(-128.0, 127.0);
            prop_assert!((out[k] as f64 - want).abs() <= 1.01, "{} vs {}", out[k], want);
        }
    }
}
