use super::*;
use crate::kernels::test_util::{kernel_tests, tag, KernelCase, LANE_TAILS};
use proptest::prelude::*;
use std::string::String;
use std::vec::Vec;

fn naive<T: Copy>(in_shape: &[usize], out_shape: &[usize], before: &[usize], input: &[T], v: T) -> Vec<T> {
    let rank = in_shape.len();
    let total: usize = out_shape.iter().product();
    (0..total)
        .map(|flat| {
            let mut rem = flat;
            let mut off = 0usize;
            let mut mult = 1usize;
            let mut inside = true;
            for d in (0..rank).rev() {
                let i = rem % out_shape[d];
                rem /= out_shape[d];
                if i < before[d] || i >= before[d] + in_shape[d] {
                    inside = false;
                } else {
                    off += (i - before[d]) * mult;
                }
                mult *= in_shape[d];
            }
            if inside { input[off] } else { v }
        })
        .collect()
}

#[test]
fn pads_every_edge_2d() {
    let p = PadParams { input_shape: &[2, 2], output_shape: &[4, 5], before: &[1, 2], pad_value: -1 };
    let mut out = [0i8; 20];
    pad_s8(&p, &[1, 2, 3, 4], &mut out);
    #[rustfmt::skip]
    assert_eq!(out, [
        -1, -1, -1, -1, -1,
        -1, -1,  1,  2, -1,
        -1, -1,  3,  4, -1,
        -1, -1, -1, -1, -1,
    ]);
}

type Kernel = fn(&PadParams<i8>, &[i8], &mut [i8]);

/// PAD / PADV2: `(size, before, after)` per dim and the pad value (the output zero point
/// for PAD, the constant for PADV2).
#[derive(Clone, Debug)]
struct Pad {
    dims: Vec<(usize, usize, usize)>,
    value: i8,
}

impl Pad {
    fn shapes(&self) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
        let in_shape: Vec<usize> = self.dims.iter().map(|d| d.0).collect();
        let pads: Vec<(i64, i64)> = self.dims.iter().map(|d| (d.1 as i64, d.2 as i64)).collect();
        let before: Vec<usize> = self.dims.iter().map(|d| d.1).collect();
        let mut out_shape = std::vec![0; in_shape.len()];
        pad_output_shape(&in_shape, &pads, &mut out_shape).expect("valid paddings");
        (in_shape, out_shape, before)
    }

    fn input(&self) -> Vec<i8> {
        (0..self.dims.iter().map(|d| d.0).product()).map(tag).collect()
    }
}

impl KernelCase for Pad {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = scalar::pad::<i8>;

    fn strategy() -> BoxedStrategy<Self> {
        (proptest::collection::vec((0usize..4, 0usize..3, 0usize..3), 1..6), any::<i8>())
            .prop_map(|(dims, value)| Pad { dims, value })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            Pad { dims: std::vec![(0, 1, 2), (3, 0, 0)], value: -128 },
            Pad { dims: std::vec![(2, 1, 1); 5], value: 127 },
            // Trailing dimensions without padding (merged by `collapsed`).
            Pad { dims: std::vec![(1, 0, 0), (4, 1, 1), (3, 1, 2), (3, 0, 0)], value: -7 },
            Pad { dims: std::vec![(3, 1, 2), (2, 0, 0), (5, 0, 0)], value: 9 },
            Pad { dims: std::vec![(2, 0, 0), (3, 0, 0)], value: 1 },
            Pad { dims: std::vec![(2, 1, 0), (0, 0, 0)], value: 1 },
        ];
        for n in LANE_TAILS {
            v.push(Pad { dims: std::vec![(n, 1, 2)], value: -128 });
            v.push(Pad { dims: std::vec![(2, 0, 1), (n, 3, 0)], value: 127 });
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let (in_shape, out_shape, before) = self.shapes();
        let p = PadParams { input_shape: &in_shape, output_shape: &out_shape, before: &before, pad_value: self.value };
        let mut out = std::vec![0x55; out_shape.iter().product()];
        kernel(&p, &self.input(), &mut out);
        Ok(out)
    }

    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        let (in_shape, out_shape, before) = self.shapes();
        let want = naive(&in_shape, &out_shape, &before, &self.input(), self.value);
        if *out == want { Ok(()) } else { Err(std::format!("got {out:?}, naive {want:?}")) }
    }
}

kernel_tests!(impl_scalar, Pad, scalar::pad::<i8>);
kernel_tests!(impl_dispatch, if true, Pad, pad_s8);
kernel_tests!(impl_collapsed, if true, Pad, collapsed::<i8>);
