use super::*;
use crate::kernels::test_util::{flat_index, kernel_tests, multi_indices, Gather, GatherOp, LANE_TAILS};
use proptest::prelude::*;
use std::vec::Vec;

/// Python `slice(start, stop, step).indices(len)` then `range(...)`: the independent
/// oracle (numpy basic slicing). `None` start/stop stand for the masked case.
fn py_range(len: i64, start: Option<i64>, stop: Option<i64>, step: i64) -> Vec<i64> {
    let (lo, hi) = if step > 0 { (0, len) } else { (-1, len - 1) };
    let norm = |v: i64| {
        let v = if v < 0 { v + len } else { v };
        v.clamp(lo, hi)
    };
    let start = start.map(norm).unwrap_or(if step > 0 { 0 } else { len - 1 });
    let stop = stop.map(norm).unwrap_or(if step > 0 { len } else { -1 });
    let mut v = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        v.push(i);
        i += step;
    }
    v
}

fn run(shape: &[usize], b: &[i32], e: &[i32], s: &[i32], bm: u32, em: u32, sm: u32) -> Vec<u32> {
    let total: usize = shape.iter().product();
    let input: Vec<u32> = (0..total as u32).collect();
    let plan = prepare_strided_slice(shape, b, e, s, bm, em, sm, false).unwrap();
    let p = plan.as_params();
    let mut out = std::vec![0; p.out_len()];
    strided_slice(&p, &input, &mut out);
    out
}

#[test]
fn hand_computed() {
    // x = arange(10): x[1:-1:3] = [1, 4, 7]
    assert_eq!(run(&[10], &[1], &[-1], &[3], 0, 0, 0), [1, 4, 7]);
    // x[::-1] via masks
    assert_eq!(run(&[4], &[0], &[0], &[-1], 1, 1, 0), [3, 2, 1, 0]);
    // x[8:2:-2] = [8, 6, 4]
    assert_eq!(run(&[10], &[8], &[2], &[-2], 0, 0, 0), [8, 6, 4]);
    // out of range clamps: x[-100:100] = all
    assert_eq!(run(&[3], &[-100], &[100], &[1], 0, 0, 0), [0, 1, 2]);
    // 2-D, shrink axis 0 at index -1: x[-1, 1:] of [[0,1,2],[3,4,5]] = [4, 5]
    assert_eq!(run(&[2, 3], &[-1, 1], &[0, 3], &[1, 1], 0, 0, 1), [4, 5]);
    // empty
    assert_eq!(run(&[5], &[3], &[1], &[1], 0, 0, 0), std::vec![0u32; 0]);
    // TFLite quirk: shrink with a negative stride loops zero times.
    let bounds = strided_slice_bounds(&[4], &[2], &[0], &[-1], 0, 0, 1, false).unwrap();
    assert_eq!(bounds.count[4], 0);
}

#[test]
fn rejects_zero_stride() {
    assert!(prepare_strided_slice(&[4], &[0], &[4], &[0], 0, 0, 0, false).is_none());
}

/// A STRIDED_SLICE with its Python-slicing meaning (`ranges`: the input indices each
/// output dim walks, from [`py_range`]).
#[derive(Clone, Debug)]
struct StridedSlice {
    shape: Vec<usize>,
    begin: Vec<i32>,
    end: Vec<i32>,
    strides: Vec<i32>,
    masks: (u32, u32, u32),
    ranges: Vec<Vec<i64>>,
}

impl StridedSlice {
    fn new(dims: &[(usize, i32, i32, i32, u8)]) -> Self {
        let shape: Vec<usize> = dims.iter().map(|d| d.0).collect();
        let (mut b, mut e, mut s) = (Vec::new(), Vec::new(), Vec::new());
        let (mut bm, mut em, mut sm) = (0u32, 0u32, 0u32);
        let mut ranges = Vec::new();
        for (i, &(n, bi, ei, si, flags)) in dims.iter().enumerate() {
            let shrink = flags & 4 != 0 && si > 0 && bi >= -(n as i32) && bi < n as i32;
            b.push(bi);
            e.push(ei);
            s.push(si);
            if shrink {
                sm |= 1 << i;
                let k = if bi < 0 { bi + n as i32 } else { bi };
                ranges.push(std::vec![k as i64]);
                continue;
            }
            if flags & 1 != 0 {
                bm |= 1 << i;
            }
            if flags & 2 != 0 {
                em |= 1 << i;
            }
            ranges.push(py_range(
                n as i64,
                if flags & 1 != 0 { None } else { Some(bi as i64) },
                if flags & 2 != 0 { None } else { Some(ei as i64) },
                si as i64,
            ));
        }
        StridedSlice { shape, begin: b, end: e, strides: s, masks: (bm, em, sm), ranges }
    }
}

impl GatherOp for StridedSlice {
    fn strategy() -> BoxedStrategy<Self> {
        proptest::collection::vec((1usize..6, -7i32..7, -7i32..7, prop_oneof![-3i32..0, 1i32..4], 0u8..8), 1..6)
            .prop_map(|dims| StridedSlice::new(&dims))
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            // Empty, reversed with masks, clamped far out of range, shrink.
            StridedSlice::new(&[(5, 3, 1, 1, 0)]),
            StridedSlice::new(&[(4, 0, 0, -1, 3), (3, 0, 0, 1, 3)]),
            StridedSlice::new(&[(3, -100, 100, 1, 0), (4, 1, 2, 1, 4)]),
        ];
        for n in LANE_TAILS {
            v.push(StridedSlice::new(&[(n + 1, 1, n as i32 + 1, 1, 0)]));
            v.push(StridedSlice::new(&[(2, 0, 2, 1, 0), (2 * n, -1, 0, -2, 2)]));
        }
        v
    }

    fn input_shape(&self) -> Vec<usize> {
        self.shape.clone()
    }

    fn plan(&self) -> Option<crate::kernels::nd::GatherPlan> {
        let (bm, em, sm) = self.masks;
        prepare_strided_slice(&self.shape, &self.begin, &self.end, &self.strides, bm, em, sm, false)
    }

    fn naive_indices(&self) -> Vec<usize> {
        let counts: Vec<usize> = self.ranges.iter().map(|r| r.len()).collect();
        multi_indices(&counts)
            .into_iter()
            .map(|o| {
                let i: Vec<usize> = o.iter().zip(&self.ranges).map(|(&k, r)| r[k] as usize).collect();
                flat_index(&self.shape, &i)
            })
            .collect()
    }
}

kernel_tests!(impl_scalar, Gather<StridedSlice>, crate::kernels::nd::strided_copy::<i8>);
kernel_tests!(impl_dispatch, if true, Gather<StridedSlice>, strided_slice_s8);
