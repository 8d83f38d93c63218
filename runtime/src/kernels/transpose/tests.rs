use super::*;
use crate::kernels::nd::MAX_RANK;
use crate::kernels::test_util::{flat_index, kernel_tests, multi_indices, Gather, GatherOp, Rng, LANE_TAILS};
use proptest::prelude::*;
use std::vec::Vec;

#[derive(Clone, Debug)]
struct Transpose {
    shape: Vec<usize>,
    perm: Vec<usize>,
}

impl GatherOp for Transpose {
    fn strategy() -> BoxedStrategy<Self> {
        (proptest::collection::vec(1usize..5, 1..7), any::<u64>())
            .prop_map(|(shape, seed)| {
                let perm = Rng(seed).permutation(shape.len());
                Transpose { shape, perm }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            Transpose { shape: std::vec![], perm: std::vec![] },
            Transpose { shape: std::vec![3, 0, 2], perm: std::vec![2, 0, 1] },
            Transpose { shape: std::vec![2; MAX_RANK], perm: (0..MAX_RANK).rev().collect() },
        ];
        for n in LANE_TAILS {
            v.push(Transpose { shape: std::vec![n], perm: std::vec![0] });
            v.push(Transpose { shape: std::vec![n, 3], perm: std::vec![1, 0] });
        }
        v
    }

    fn input_shape(&self) -> Vec<usize> {
        self.shape.clone()
    }

    fn plan(&self) -> Option<crate::kernels::nd::GatherPlan> {
        prepare_transpose(&self.shape, &self.perm)
    }

    /// Output dim `d` walks input dim `perm[d]`.
    fn naive_indices(&self) -> Vec<usize> {
        let out_shape: Vec<usize> = self.perm.iter().map(|&p| self.shape[p]).collect();
        multi_indices(&out_shape)
            .into_iter()
            .map(|o| {
                let mut i = std::vec![0; self.shape.len()];
                for (d, &p) in self.perm.iter().enumerate() {
                    i[p] = o[d];
                }
                flat_index(&self.shape, &i)
            })
            .collect()
    }
}

kernel_tests!(impl_scalar, Gather<Transpose>, crate::kernels::nd::strided_copy::<i8>);
kernel_tests!(impl_dispatch, if true, Gather<Transpose>, transpose_s8);

#[test]
fn nhwc_to_nchw_like_0312() {
    let shape = [1, 4, 5, 3];
    let plan = prepare_transpose(&shape, &[0, 3, 1, 2]).unwrap();
    let input: Vec<u32> = (0..60).collect();
    let mut out = std::vec![0; 60];
    transpose(&plan.as_params(), &input, &mut out);
    assert_eq!(&out[..6], &[0, 3, 6, 9, 12, 15]);
    assert_eq!(out[59], 59);
}

#[test]
fn rejects_bad_perm() {
    assert!(prepare_transpose(&[2, 3], &[0, 0]).is_none());
    assert!(prepare_transpose(&[2, 3], &[0, 2]).is_none());
    assert!(prepare_transpose(&[2, 3], &[0]).is_none());
}
