use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{broadcast_shapes, naive_broadcast_pairs};
use crate::prepare::FusedActivation;
use crate::quant::QuantParams;
use proptest::prelude::*;
use std::vec::Vec;

fn q(scale: f32, zero_point: i32) -> QuantParams {
    QuantParams { scale, zero_point }
}

/// Float oracle: the exact real-number result, quantized and clamped.
#[allow(clippy::too_many_arguments)]
fn ideal(a: i8, b: i8, qa: QuantParams, qb: QuantParams, qo: QuantParams, lo: i32, hi: i32, sub: bool) -> f64 {
    let ra = qa.scale as f64 * (a as i32 - qa.zero_point) as f64;
    let rb = qb.scale as f64 * (b as i32 - qb.zero_point) as f64;
    let r = if sub { ra - rb } else { ra + rb };
    (r / qo.scale as f64 + qo.zero_point as f64).clamp(lo as f64, hi as f64)
}

#[test]
fn hand_computed() {
    // Same scales, zero points 0, output scale twice the input's: out = round((a+b)/2).
    let plan = plan_broadcast(&[4], &[4]).unwrap();
    let p = prepare_add(q(0.5, 0), q(0.5, 0), q(1.0, 0), FusedActivation::None, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 4];
    add_s8(&p, &[10, -10, 127, -128], &[20, -21, 127, -128], &mut out);
    assert_eq!(out, [15, -16, 127, -128]); // -15.5 rounds away from zero
    // Relu clamps at the output zero point.
    let p = prepare_add(q(0.5, 0), q(0.5, 0), q(1.0, 3), FusedActivation::Relu, plan.as_broadcast()).unwrap();
    add_s8(&p, &[10, -10, -100, 0], &[20, -21, -100, 0], &mut out);
    assert_eq!(out, [18, 3, 3, 3]);
}

proptest! {
    #[test]
    fn add_close_to_float_and_broadcasts(
        (s1, s2) in broadcast_shapes(),
        sa in 0.001f32..0.1, sb in 0.001f32..0.1, so in 0.002f32..0.2,
        za in -128i32..128, zb in -128i32..128, zo in -128i32..128,
        act in 0usize..4, seed in any::<u64>(),
    ) {
        let act = [FusedActivation::None, FusedActivation::Relu, FusedActivation::Relu6, FusedActivation::ReluN1To1][act];
        let plan = plan_broadcast(&s1, &s2).unwrap();
        let Some(p) = prepare_add(q(sa, za), q(sb, zb), q(so, zo), act, plan.as_broadcast()) else { return Ok(()) };
        let n1: usize = s1.iter().product();
        let n2: usize = s2.iter().product();
        let mut rng = seed;
        let mut next = || { rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); (rng >> 56) as u8 as i8 };
        let a: Vec<i8> = (0..n1).map(|_| next()).collect();
        let b: Vec<i8> = (0..n2).map(|_| next()).collect();
        let (_, pairs) = naive_broadcast_pairs(&s1, &s2);
        let mut out = std::vec![0i8; pairs.len()];
        add_s8(&p, &a, &b, &mut out);
        for (k, &(i, j)) in pairs.iter().enumerate() {
            let want = ideal(a[i], b[j], q(sa, za), q(sb, zb), q(so, zo), p.activation_min, p.activation_max, false);
            prop_assert!((out[k] as f64 - want).abs() <= 1.01, "{} vs {}", out[k], want);
            prop_assert!((p.activation_min..=p.activation_max).contains(&(out[k] as i32)));
        }
    }
}

#[test]
fn saturates() {
    let plan = plan_broadcast(&[2], &[1]).unwrap();
    let p = prepare_add(q(0.1, 0), q(0.1, 0), q(0.01, 0), FusedActivation::None, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 2];
    add_s8(&p, &[100, -100], &[27], &mut out);
    assert_eq!(out, [127, -128]);
}
