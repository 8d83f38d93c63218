use super::*;
use crate::kernels::test_util::{flat_index, kernel_tests, multi_indices, Gather, GatherOp, LANE_TAILS};
use proptest::prelude::*;
use std::vec::Vec;

#[derive(Clone, Debug)]
struct SpaceToDepth {
    shape: [usize; 4],
    block: usize,
}

impl GatherOp for SpaceToDepth {
    fn strategy() -> BoxedStrategy<Self> {
        (0usize..3, 1usize..4, 1usize..4, 1usize..5, 1usize..4)
            .prop_map(|(b, oh, ow, c, block)| SpaceToDepth { shape: [b, oh * block, ow * block, c], block })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            SpaceToDepth { shape: [0, 2, 2, 4], block: 2 },
            SpaceToDepth { shape: [1, 1, 1, 1], block: 1 },
            SpaceToDepth { shape: [2, 6, 3, 2], block: 3 },
        ];
        for n in LANE_TAILS {
            v.push(SpaceToDepth { shape: [1, 2, 2, n], block: 2 });
        }
        v
    }

    fn input_shape(&self) -> Vec<usize> {
        self.shape.to_vec()
    }

    fn plan(&self) -> Option<GatherPlan> {
        prepare_space_to_depth(self.shape, self.block)
    }

    /// `reference_ops::SpaceToDepth` walks the input and scatters; invert it here: record
    /// each input element's output position, then read the map back in output order.
    fn naive_indices(&self) -> Vec<usize> {
        let [b, h, w, c] = self.shape;
        let bs = self.block;
        let out_shape = [b, h / bs, w / bs, c * bs * bs];
        let mut src = std::vec![usize::MAX; out_shape.iter().product()];
        for i in multi_indices(&self.shape) {
            let od = i[3] + ((i[1] % bs) * bs + i[2] % bs) * c;
            src[flat_index(&out_shape, &[i[0], i[1] / bs, i[2] / bs, od])] = flat_index(&self.shape, &i);
        }
        src
    }
}

kernel_tests!(impl_scalar, Gather<SpaceToDepth>, crate::kernels::nd::strided_copy::<i8>);
kernel_tests!(impl_dispatch, if true, Gather<SpaceToDepth>, space_to_depth_s8);

#[test]
fn refuses_what_tflite_micro_refuses() {
    assert!(prepare_space_to_depth([1, 2, 2, 4], 0).is_none());
    assert!(prepare_space_to_depth([1, 3, 2, 4], 2).is_none());
    assert!(prepare_space_to_depth([1, 2, 3, 4], 2).is_none());
}
