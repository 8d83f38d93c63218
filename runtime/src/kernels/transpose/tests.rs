use super::*;
use crate::kernels::test_util::Rng;
use proptest::prelude::*;
use std::vec::Vec;

/// Naive transpose straight from the definition.
fn naive(shape: &[usize], perm: &[usize], input: &[u32]) -> Vec<u32> {
    let rank = shape.len();
    let out_shape: Vec<usize> = perm.iter().map(|&p| shape[p]).collect();
    let total: usize = shape.iter().product();
    let mut out = std::vec![0; total];
    for (flat, o) in out.iter_mut().enumerate() {
        let mut rem = flat;
        let mut oidx = std::vec![0; rank];
        for d in (0..rank).rev() {
            oidx[d] = rem % out_shape[d];
            rem /= out_shape[d];
        }
        let mut iidx = std::vec![0; rank];
        for d in 0..rank {
            iidx[perm[d]] = oidx[d];
        }
        let mut off = 0;
        for d in 0..rank {
            off = off * shape[d] + iidx[d];
        }
        *o = input[off];
    }
    out
}

#[test]
fn nhwc_to_nchw_like_0312() {
    let shape = [1, 4, 5, 3];
    let plan = prepare_transpose(&shape, &[0, 3, 1, 2]).unwrap();
    let input: Vec<u32> = (0..60).collect();
    let mut out = std::vec![0; 60];
    transpose(&plan.as_params(), &input, &mut out);
    assert_eq!(out, naive(&shape, &[0, 3, 1, 2], &input));
    assert_eq!(&out[..6], &[0, 3, 6, 9, 12, 15]);
}

#[test]
fn rejects_bad_perm() {
    assert!(prepare_transpose(&[2, 3], &[0, 0]).is_none());
    assert!(prepare_transpose(&[2, 3], &[0, 2]).is_none());
    assert!(prepare_transpose(&[2, 3], &[0]).is_none());
}

proptest! {
    #[test]
    fn matches_naive(shape in proptest::collection::vec(1usize..5, 1..7), seed in any::<u64>()) {
        let rank = shape.len();
        let perm = Rng(seed).permutation(rank);
        let total: usize = shape.iter().product();
        let input: Vec<u32> = (0..total as u32).collect();
        let plan = prepare_transpose(&shape, &perm).unwrap();
        let mut out = std::vec![0; total];
        transpose(&plan.as_params(), &input, &mut out);
        prop_assert_eq!(out, naive(&shape, &perm, &input));
    }
}
