use super::*;
use crate::kernels::nd::MAX_RANK;
use crate::kernels::test_util::{flat_index, kernel_tests, multi_indices, Gather, GatherOp, LANE_TAILS};
use proptest::prelude::*;
use std::vec::Vec;

/// SLICE with `begin` / `size` per dim; `size` may be -1 ("to the end").
#[derive(Clone, Debug)]
struct Slice {
    shape: Vec<usize>,
    begin: Vec<i64>,
    size: Vec<i64>,
}

impl Slice {
    /// The resolved size of dim `d`.
    fn len(&self, d: usize) -> usize {
        if self.size[d] == -1 { self.shape[d] - self.begin[d] as usize } else { self.size[d] as usize }
    }
}

impl GatherOp for Slice {
    fn strategy() -> BoxedStrategy<Self> {
        (proptest::collection::vec((1usize..6, 0usize..6, 0usize..6, any::<bool>()), 1..6))
            .prop_map(|dims| {
                let shape: Vec<usize> = dims.iter().map(|d| d.0).collect();
                let begin: Vec<usize> = dims.iter().map(|d| d.1 % d.0).collect();
                let size = dims
                    .iter()
                    .zip(&begin)
                    .map(|(d, &b)| {
                        let s = d.2 % (d.0 - b + 1);
                        // -1 where it means the same as the explicit size.
                        if d.3 && b + s == d.0 { -1 } else { s as i64 }
                    })
                    .collect();
                Slice { shape, begin: begin.iter().map(|&b| b as i64).collect(), size }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            Slice { shape: std::vec![4, 3], begin: std::vec![1, 0], size: std::vec![0, -1] },
            Slice { shape: std::vec![2; MAX_RANK], begin: std::vec![1; MAX_RANK], size: std::vec![1; MAX_RANK] },
        ];
        for n in LANE_TAILS {
            v.push(Slice { shape: std::vec![n + 2], begin: std::vec![1], size: std::vec![n as i64] });
            v.push(Slice { shape: std::vec![3, n + 1], begin: std::vec![1, 1], size: std::vec![-1, -1] });
        }
        v
    }

    fn input_shape(&self) -> Vec<usize> {
        self.shape.clone()
    }

    fn plan(&self) -> Option<crate::kernels::nd::GatherPlan> {
        prepare_slice(&self.shape, &self.begin, &self.size)
    }

    fn naive_indices(&self) -> Vec<usize> {
        let out_shape: Vec<usize> = (0..self.shape.len()).map(|d| self.len(d)).collect();
        multi_indices(&out_shape)
            .into_iter()
            .map(|o| {
                let i: Vec<usize> = o.iter().zip(&self.begin).map(|(&x, &b)| x + b as usize).collect();
                flat_index(&self.shape, &i)
            })
            .collect()
    }
}

kernel_tests!(impl_scalar, Gather<Slice>, crate::kernels::nd::strided_copy::<i8>);
kernel_tests!(impl_dispatch, if true, Gather<Slice>, slice_s8);

#[test]
fn minus_one_means_to_end_and_bounds_are_checked() {
    let plan = prepare_slice(&[2, 3], &[1, 1], &[-1, -1]).unwrap();
    let input: Vec<u32> = (0..6).collect();
    let mut out = [0u32; 2];
    slice(&plan.as_params(), &input, &mut out);
    assert_eq!(out, [4, 5]);
    assert!(prepare_slice(&[2, 3], &[1, 1], &[2, 1]).is_none());
    assert!(prepare_slice(&[2, 3], &[-1, 0], &[1, 1]).is_none());
}
