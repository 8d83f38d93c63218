use super::*;
use crate::kernels::test_util::{kernel_tests, tag, KernelCase, Rng, LANE_TAILS};
use proptest::prelude::*;
use std::format;
use std::string::String;
use std::vec::Vec;

#[derive(Clone, Debug)]
struct Case {
    p: GatherParams,
    coords: Vec<i32>,
}

type Kernel = fn(&GatherParams, &[i8], &[i32], &mut [i8]);

impl KernelCase for Case {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = gather::<i8>;

    fn strategy() -> BoxedStrategy<Self> {
        (0usize..3, 0usize..4, 1usize..5, 0usize..5, 0usize..4, any::<u64>())
            .prop_map(|(batch, outer, axis_size, coords, inner, seed)| {
                let mut r = Rng(seed);
                // Mostly in range, sometimes just outside on either side.
                let c = (0..batch * coords).map(|_| r.range(-1, axis_size as i64) as i32).collect();
                Case { p: GatherParams { batch, outer, axis_size, coords, inner }, coords: c }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            Case { p: GatherParams { batch: 1, outer: 1, axis_size: 3, coords: 0, inner: 2 }, coords: std::vec![] },
            Case { p: GatherParams { batch: 1, outer: 2, axis_size: 3, coords: 3, inner: 1 }, coords: std::vec![i32::MIN, 2, i32::MAX] },
        ];
        for n in LANE_TAILS {
            v.push(Case { p: GatherParams { batch: 2, outer: 1, axis_size: 2, coords: 2, inner: n }, coords: std::vec![1, 0, 0, 1] });
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let input: Vec<i8> = (0..self.p.input_len()).map(tag).collect();
        let mut out = std::vec![0x55i8; self.p.output_len()];
        kernel(&self.p, &input, &self.coords, &mut out);
        Ok(out)
    }

    /// `output[b, o, c, i] = input[b, o, coords[b, c], i]`, zero for a coordinate out of range.
    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        let p = &self.p;
        let mut k = 0;
        for b in 0..p.batch {
            for o in 0..p.outer {
                for c in 0..p.coords {
                    let x = self.coords[b * p.coords + c];
                    for i in 0..p.inner {
                        let want = if (0..p.axis_size as i64).contains(&(x as i64)) { tag(((b * p.outer + o) * p.axis_size + x as usize) * p.inner + i) } else { 0 };
                        if out[k] != want {
                            return Err(format!("output {k}: got {}, want {want}", out[k]));
                        }
                        k += 1;
                    }
                }
            }
        }
        Ok(())
    }
}

kernel_tests!(impl_scalar, Case, gather::<i8>);
kernel_tests!(impl_dispatch, if true, Case, gather_s8);
