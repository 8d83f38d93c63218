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
    let plan = plan_broadcast(&[4], &[1]).unwrap();
    let p = prepare_sub(q(0.5, 0), q(0.5, 0), q(1.0, -5), FusedActivation::None, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 4];
    sub_s8(&p, &[10, -10, 127, -128], &[3], &mut out);
    // (a - 3) / 2 - 5, ties away from zero: 3.5 -> 4, -6.5 -> -7, 62 -> 62, -65.5 -> -66.
    assert_eq!(out, [-1, -12, 57, -71]);
}

proptest! {
    #[test]
    fn sub_close_to_float(
        (s1, s2) in broadcast_shapes(),
        sa in 0.001f32..0.1, sb in 0.001f32..0.1, so in 0.002f32..0.2,
        za in -128i32..128, zb in -128i32..128, zo in -128i32..128, seed in any::<u64>(),
    ) {
        let plan = plan_broadcast(&s1, &s2).unwrap();
        let Some(p) = prepare_sub(q(sa, za), q(sb, zb), q(so, zo), FusedActivation::None, plan.as_broadcast()) else { return Ok(()) };
        let n1: usize = s1.iter().product();
        let n2: usize = s2.iter().product();
        let mut rng = seed;
        let mut next = || { rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); (rng >> 56) as u8 as i8 };
        let a: Vec<i8> = (0..n1).map(|_| next()).collect();
        let b: Vec<i8> = (0..n2).map(|_| next()).collect();
        let (_, pairs) = naive_broadcast_pairs(&s1, &s2);
        let mut out = std::vec![0i8; pairs.len()];
        sub_s8(&p, &a, &b, &mut out);
        for (k, &(i, j)) in pairs.iter().enumerate() {
            let r = sa as f64 * (a[i] as i32 - za) as f64 - sb as f64 * (b[j] as i32 - zb) as f64;
            let want = (r / so as f64 + zo as f64).clamp(-128.0, 127.0);
            prop_assert!((out[k] as f64 - want).abs() <= 1.01, "{} vs {}", out[k], want);
        }
    }
}
