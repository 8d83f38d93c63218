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
    let plan = plan_broadcast(&[1, 4], &[1]).unwrap();
    // out = a * b * (0.5 * 0.25 / 1.0) = a*b/8
    let p = prepare_mul(q(0.5, 0), q(0.25, 0), q(1.0, 0), FusedActivation::None, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 4];
    mul_s8(&p, &[4, -4, 127, -128], &[3], &mut out);
    // 1.5 -> 2, -1.5 -> -2, 47.625 -> 48, -48
    assert_eq!(out, [2, -2, 48, -48]);
    let p = prepare_mul(q(0.5, 0), q(0.25, 0), q(0.01, 0), FusedActivation::Relu6, plan.as_broadcast()).unwrap();
    mul_s8(&p, &[4, -4, 127, -128], &[3], &mut out);
    assert_eq!(out, [127, 0, 127, 0]);
}

proptest! {
    #[test]
    fn mul_close_to_float(
        (s1, s2) in broadcast_shapes(),
        sa in 0.001f32..0.1, sb in 0.001f32..0.1, so in 0.0001f32..0.2,
        za in -128i32..128, zb in -128i32..128, zo in -128i32..128, seed in any::<u64>(),
    ) {
        let plan = plan_broadcast(&s1, &s2).unwrap();
        let p = prepare_mul(q(sa, za), q(sb, zb), q(so, zo), FusedActivation::None, plan.as_broadcast()).unwrap();
        let n1: usize = s1.iter().product();
        let n2: usize = s2.iter().product();
        let mut rng = seed;
        let mut next = || { rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); (rng >> 56) as u8 as i8 };
        let a: Vec<i8> = (0..n1).map(|_| next()).collect();
        let b: Vec<i8> = (0..n2).map(|_| next()).collect();
        let (_, pairs) = naive_broadcast_pairs(&s1, &s2);
        let mut out = std::vec![0i8; pairs.len()];
        mul_s8(&p, &a, &b, &mut out);
        for (k, &(i, j)) in pairs.iter().enumerate() {
            let r = sa as f64 * (a[i] as i32 - za) as f64 * sb as f64 * (b[j] as i32 - zb) as f64;
            let want = (r / so as f64 + zo as f64).clamp(-128.0, 127.0);
            prop_assert!((out[k] as f64 - want).abs() <= 1.01, "{} vs {}", out[k], want);
        }
    }
}
