use super::*;
use crate::kernels::nd::MAX_RANK;
use crate::kernels::test_util::{flat_index, kernel_tests, multi_indices, Gather, GatherOp, LANE_TAILS};
use proptest::prelude::*;
use std::vec::Vec;

/// One output of SPLIT / SPLIT_V / UNPACK: `len` slices from `start` along `axis`.
#[derive(Clone, Debug)]
struct SplitOutput {
    shape: Vec<usize>,
    axis: usize,
    start: usize,
    len: usize,
}

impl GatherOp for SplitOutput {
    fn strategy() -> BoxedStrategy<Self> {
        (proptest::collection::vec(1usize..5, 1..6), any::<usize>(), any::<usize>(), any::<usize>())
            .prop_map(|(shape, ax, s, l)| {
                let axis = ax % shape.len();
                let start = s % shape[axis];
                let len = l % (shape[axis] - start + 1);
                SplitOutput { shape, axis, start, len }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            SplitOutput { shape: std::vec![3, 4], axis: 1, start: 2, len: 0 },
            SplitOutput { shape: std::vec![2; MAX_RANK], axis: MAX_RANK - 1, start: 1, len: 1 },
            SplitOutput { shape: std::vec![2; MAX_RANK], axis: 0, start: 0, len: 1 },
        ];
        for n in LANE_TAILS {
            v.push(SplitOutput { shape: std::vec![2 * n], axis: 0, start: n, len: n });
            v.push(SplitOutput { shape: std::vec![3, n + 1], axis: 1, start: 1, len: n });
        }
        v
    }

    fn input_shape(&self) -> Vec<usize> {
        self.shape.clone()
    }

    fn plan(&self) -> Option<crate::kernels::nd::GatherPlan> {
        prepare_split_output(&self.shape, self.axis, self.start, self.len)
    }

    fn naive_indices(&self) -> Vec<usize> {
        let mut out_shape = self.shape.clone();
        out_shape[self.axis] = self.len;
        multi_indices(&out_shape)
            .into_iter()
            .map(|mut i| {
                i[self.axis] += self.start;
                flat_index(&self.shape, &i)
            })
            .collect()
    }
}

kernel_tests!(impl_scalar, Gather<SplitOutput>, crate::kernels::nd::strided_copy::<i8>);
kernel_tests!(impl_dispatch, if true, Gather<SplitOutput>, split_s8);

#[test]
fn split_two_on_last_axis() {
    let shape = [1, 2, 2, 4];
    let input: Vec<u32> = (0..16).collect();
    let size = split_size(4, 2).unwrap();
    let p0 = prepare_split_output(&shape, 3, 0, size).unwrap();
    let p1 = prepare_split_output(&shape, 3, size, size).unwrap();
    let (mut a, mut b) = ([0u32; 8], [0u32; 8]);
    split_all(&[p0.as_params(), p1.as_params()], &input, &mut [&mut a[..], &mut b[..]]);
    assert_eq!(a, [0, 1, 4, 5, 8, 9, 12, 13]);
    assert_eq!(b, [2, 3, 6, 7, 10, 11, 14, 15]);
    assert_eq!(split_size(5, 2), None);
    assert_eq!(resolve_axis(-1, 4), Some(3));
    assert_eq!(resolve_axis(4, 4), None);
}
