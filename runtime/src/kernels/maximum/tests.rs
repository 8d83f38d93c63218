use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{broadcast_shapes, naive_broadcast_pairs};
use proptest::prelude::*;
use std::vec::Vec;

#[test]
fn hand_computed() {
    let plan = plan_broadcast(&[2, 2], &[2]).unwrap();
    let p = MaximumParams { broadcast: plan.as_broadcast() };
    let mut out = [0i8; 4];
    maximum_s8(&p, &[-128, 5, 127, -1], &[0, 6], &mut out);
    assert_eq!(out, [0, 6, 127, 6]);
}

proptest! {
    #[test]
    fn matches_naive((s1, s2) in broadcast_shapes(), seed in any::<u64>()) {
        let plan = plan_broadcast(&s1, &s2).unwrap();
        let p = MaximumParams { broadcast: plan.as_broadcast() };
        let n1: usize = s1.iter().product();
        let n2: usize = s2.iter().product();
        let mut rng = seed;
        let mut next = || { rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); (rng >> 56) as u8 as i8 };
        let a: Vec<i8> = (0..n1).map(|_| next()).collect();
        let b: Vec<i8> = (0..n2).map(|_| next()).collect();
        let (_, pairs) = naive_broadcast_pairs(&s1, &s2);
        let mut out = std::vec![0i8; pairs.len()];
        maximum_s8(&p, &a, &b, &mut out);
        let want: Vec<i8> = pairs.iter().map(|&(i, j)| a[i].max(b[j])).collect();
        prop_assert_eq!(out, want);
    }
}
