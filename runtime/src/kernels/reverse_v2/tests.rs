use super::*;
use crate::kernels::test_util::{flat_index, kernel_tests, multi_indices, Gather, GatherOp, Rng, LANE_TAILS};
use proptest::prelude::*;
use std::vec::Vec;

#[derive(Clone, Debug)]
struct ReverseV2 {
    shape: Vec<usize>,
    axes: Vec<usize>,
}

impl GatherOp for ReverseV2 {
    fn strategy() -> BoxedStrategy<Self> {
        (proptest::collection::vec(1usize..5, 1..7), any::<u64>())
            .prop_map(|(shape, seed)| {
                // A contiguous run of axes, as TFLite Micro accepts.
                let mut r = Rng(seed);
                let lo = r.range(0, shape.len() as i64 - 1) as usize;
                let hi = r.range(lo as i64, shape.len() as i64 - 1) as usize;
                ReverseV2 { shape, axes: (lo..=hi).collect() }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            ReverseV2 { shape: std::vec![3, 0, 2], axes: std::vec![1] },
            ReverseV2 { shape: std::vec![2; MAX_RANK], axes: (0..MAX_RANK).collect() },
            ReverseV2 { shape: std::vec![2, 3, 4], axes: std::vec![0] },
            ReverseV2 { shape: std::vec![2, 3, 4], axes: std::vec![1, 2] },
        ];
        for n in LANE_TAILS {
            v.push(ReverseV2 { shape: std::vec![n], axes: std::vec![0] });
            v.push(ReverseV2 { shape: std::vec![2, n], axes: std::vec![0] });
        }
        v
    }

    fn input_shape(&self) -> Vec<usize> {
        self.shape.clone()
    }

    fn plan(&self) -> Option<GatherPlan> {
        prepare_reverse_v2(&self.shape, &self.axes)
    }

    /// `reference_ops::Reverse`: `[upper, middle, lower]` around the axes, the middle
    /// block's index mirrored.
    fn naive_indices(&self) -> Vec<usize> {
        let (lo, hi) = (self.axes[0], self.axes[self.axes.len() - 1]);
        let upper: usize = self.shape[..lo].iter().product();
        let middle: usize = self.shape[lo..=hi].iter().product();
        let lower: usize = self.shape[hi + 1..].iter().product();
        multi_indices(&[upper, middle, lower]).into_iter().map(|o| flat_index(&[upper, middle, lower], &[o[0], middle - 1 - o[1], o[2]])).collect()
    }
}

kernel_tests!(impl_scalar, Gather<ReverseV2>, crate::kernels::nd::strided_copy::<i8>);
kernel_tests!(impl_dispatch, if true, Gather<ReverseV2>, reverse_v2_s8);

#[test]
fn refuses_repeated_and_out_of_range_axes() {
    assert!(prepare_reverse_v2(&[2, 3], &[1, 1]).is_none());
    assert!(prepare_reverse_v2(&[2, 3], &[2]).is_none());
}
