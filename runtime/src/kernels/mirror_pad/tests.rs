use super::*;
use crate::kernels::test_util::{flat_index, kernel_tests, multi_indices, tag, KernelCase, LANE_TAILS};
use proptest::prelude::*;
use std::format;
use std::string::String;
use std::vec::Vec;

/// A case: input shape, `(left, right)` per dimension, REFLECT or SYMMETRIC.
#[derive(Clone, Debug)]
struct Case {
    shape: Vec<usize>,
    pads: Vec<(usize, usize)>,
    reflect: bool,
}

impl Case {
    fn out_shape(&self) -> Vec<usize> {
        self.shape.iter().zip(&self.pads).map(|(&n, &(l, r))| n + l + r).collect()
    }

    /// The tables, as the compiler builds them.
    fn offsets(&self) -> Vec<usize> {
        let offset = usize::from(self.reflect);
        let mut stride = 1;
        let mut tables: Vec<Vec<usize>> = Vec::new();
        for d in (0..self.shape.len()).rev() {
            let (l, r) = self.pads[d];
            let n = self.shape[d];
            tables.push((0..n + l + r).map(|o| mirror_index(o, l, n, offset) * stride).collect());
            stride *= n;
        }
        tables.into_iter().rev().flatten().collect()
    }
}

type Kernel = fn(&MirrorPadParams, &[i8], &mut [i8]);

impl KernelCase for Case {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = mirror_pad::<i8>;

    fn strategy() -> BoxedStrategy<Self> {
        (proptest::collection::vec((1usize..5, 0usize..5, 0usize..5), 1..5), any::<bool>())
            .prop_map(|(dims, reflect)| {
                let o = usize::from(reflect);
                let shape = dims.iter().map(|d| d.0.max(1 + o)).collect::<Vec<_>>();
                let pads = dims.iter().zip(&shape).map(|(d, &n)| (d.1.min(n - o), d.2.min(n - o))).collect();
                Case { shape, pads, reflect }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            Case { shape: std::vec![1], pads: std::vec![(1, 1)], reflect: false },
            Case { shape: std::vec![2], pads: std::vec![(1, 1)], reflect: true },
            Case { shape: std::vec![3, 0], pads: std::vec![(2, 2), (0, 0)], reflect: true },
            Case { shape: std::vec![2; 8], pads: std::vec![(1, 0); 8], reflect: true },
        ];
        for n in LANE_TAILS {
            v.push(Case { shape: std::vec![2, n], pads: std::vec![(1, 1), (0, 0)], reflect: false });
            v.push(Case { shape: std::vec![n + 1], pads: std::vec![(n, n)], reflect: true });
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let out_shape = self.out_shape();
        let offsets = self.offsets();
        let input: Vec<i8> = (0..self.shape.iter().product()).map(tag).collect();
        let mut out = std::vec![0i8; out_shape.iter().product()];
        kernel(&MirrorPadParams { out_shape: &out_shape, offsets: &offsets }, &input, &mut out);
        Ok(out)
    }

    /// The definition: REFLECT mirrors about the edge element (`-1` reads `1`), SYMMETRIC
    /// about the edge itself (`-1` reads `0`), at both ends.
    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        let out_shape = self.out_shape();
        for (k, o) in multi_indices(&out_shape).into_iter().enumerate() {
            let i: Vec<usize> = o
                .iter()
                .enumerate()
                .map(|(d, &x)| {
                    let (l, n) = (self.pads[d].0 as i64, self.shape[d] as i64);
                    let x = x as i64 - l;
                    let r = if self.reflect { 0 } else { 1 };
                    let y = if x < 0 { -x - r } else if x >= n { 2 * n - x - 2 + r } else { x };
                    y as usize
                })
                .collect();
            let want = tag(flat_index(&self.shape, &i));
            if out[k] != want {
                return Err(format!("output {o:?}: got {}, want input {i:?}", out[k]));
            }
        }
        Ok(())
    }
}

kernel_tests!(impl_scalar, Case, mirror_pad::<i8>);
kernel_tests!(impl_dispatch, if true, Case, mirror_pad_s8);
