use super::*;
use crate::kernels::test_util::{flat_index, kernel_tests, multi_indices, Gather, GatherOp, Rng, LANE_TAILS};
use proptest::prelude::*;
use std::vec::Vec;

#[derive(Clone, Debug)]
struct BroadcastTo {
    input: Vec<usize>,
    output: Vec<usize>,
}

impl GatherOp for BroadcastTo {
    fn strategy() -> BoxedStrategy<Self> {
        (proptest::collection::vec(1usize..5, 1..6), any::<u64>())
            .prop_map(|(output, seed)| {
                let mut r = Rng(seed);
                let drop = r.range(0, output.len() as i64) as usize;
                let input = output[drop..].iter().map(|&n| if r.range(0, 1) == 0 { 1 } else { n }).collect();
                BroadcastTo { input, output }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            BroadcastTo { input: std::vec![], output: std::vec![] },
            BroadcastTo { input: std::vec![], output: std::vec![2, 3] },
            BroadcastTo { input: std::vec![1, 3], output: std::vec![0, 3] },
            BroadcastTo { input: std::vec![2, 1, 2], output: std::vec![2, 2, 2, 2, 2, 2, 3, 2] },
            BroadcastTo { input: std::vec![1, 3, 1], output: std::vec![4, 3, 5] },
        ];
        for n in LANE_TAILS {
            v.push(BroadcastTo { input: std::vec![1], output: std::vec![n] });
            v.push(BroadcastTo { input: std::vec![n], output: std::vec![3, n] });
        }
        v
    }

    fn input_shape(&self) -> Vec<usize> {
        self.input.clone()
    }

    fn plan(&self) -> Option<GatherPlan> {
        prepare_broadcast_to(&self.input, &self.output)
    }

    /// The input index of each output index: right-aligned, size-1 dims read index 0.
    fn naive_indices(&self) -> Vec<usize> {
        let lead = self.output.len() - self.input.len();
        multi_indices(&self.output)
            .into_iter()
            .map(|o| {
                let i: Vec<usize> = self.input.iter().enumerate().map(|(d, &n)| if n == 1 { 0 } else { o[lead + d] }).collect();
                flat_index(&self.input, &i)
            })
            .collect()
    }
}

kernel_tests!(impl_scalar, Gather<BroadcastTo>, crate::kernels::nd::strided_copy::<i8>);
kernel_tests!(impl_dispatch, if true, Gather<BroadcastTo>, broadcast_to_s8);

#[test]
fn refuses_what_tflite_micro_refuses() {
    assert!(prepare_broadcast_to(&[2, 3], &[3]).is_none());
    assert!(prepare_broadcast_to(&[2, 3], &[2, 4]).is_none());
}
