use super::*;
use crate::kernels::test_util::{flat_index, kernel_tests, multi_indices, Gather, GatherOp, LANE_TAILS};
use proptest::prelude::*;
use std::vec::Vec;

#[derive(Clone, Debug)]
struct DepthToSpace {
    shape: [usize; 4],
    block: usize,
}

impl GatherOp for DepthToSpace {
    fn strategy() -> BoxedStrategy<Self> {
        (0usize..3, 1usize..4, 1usize..4, 1usize..4, 1usize..4)
            .prop_map(|(b, h, w, oc, block)| DepthToSpace { shape: [b, h, w, oc * block * block], block })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            DepthToSpace { shape: [0, 2, 2, 4], block: 2 },
            DepthToSpace { shape: [1, 1, 1, 1], block: 1 },
            DepthToSpace { shape: [2, 3, 2, 18], block: 3 },
        ];
        for n in LANE_TAILS {
            v.push(DepthToSpace { shape: [1, 2, 1, 4 * n], block: 2 });
        }
        v
    }

    fn input_shape(&self) -> Vec<usize> {
        self.shape.to_vec()
    }

    fn plan(&self) -> Option<GatherPlan> {
        prepare_depth_to_space(self.shape, self.block)
    }

    /// `reference_ops::DepthToSpace`'s index arithmetic, loop for loop.
    fn naive_indices(&self) -> Vec<usize> {
        let [b, h, w, c] = self.shape;
        let bs = self.block;
        let od = c / (bs * bs);
        multi_indices(&[b, h * bs, w * bs, od])
            .into_iter()
            .map(|o| flat_index(&self.shape, &[o[0], o[1] / bs, o[2] / bs, o[3] + ((o[1] % bs) * bs + o[2] % bs) * od]))
            .collect()
    }
}

kernel_tests!(impl_scalar, Gather<DepthToSpace>, crate::kernels::nd::strided_copy::<i8>);
kernel_tests!(impl_dispatch, if true, Gather<DepthToSpace>, depth_to_space_s8);

#[test]
fn refuses_what_tflite_micro_refuses() {
    assert!(prepare_depth_to_space([1, 2, 2, 4], 0).is_none());
    assert!(prepare_depth_to_space([1, 2, 2, 6], 2).is_none());
    assert!(prepare_depth_to_space([1, 2, 2, 4], usize::MAX).is_none());
}
