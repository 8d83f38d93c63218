use super::*;
use crate::kernels::test_util::{kernel_tests, tag, KernelCase, LANE_TAILS};
use proptest::prelude::*;
use std::string::String;
use std::vec::Vec;

/// One input's copy into the output (what the generated code calls per input).
type Kernel = fn(&ConcatenationParams, usize, &[i8], &mut [i8]);

/// CONCATENATION (and PACK, the same copy) of inputs that share `shape` except along
/// `axis`, where input `k` has `axis_dims[k]`. Input `k`'s element `i` is `tag(k * 10007 + i)`.
#[derive(Clone, Debug)]
struct Concat {
    shape: Vec<usize>,
    axis: usize,
    axis_dims: Vec<usize>,
}

impl Concat {
    fn shapes(&self) -> Vec<Vec<usize>> {
        self.axis_dims
            .iter()
            .map(|&a| {
                let mut s = self.shape.clone();
                s[self.axis] = a;
                s
            })
            .collect()
    }

    fn inputs(&self) -> Vec<Vec<i8>> {
        self.shapes().iter().enumerate().map(|(k, s)| (0..s.iter().product()).map(|i| tag(k * 10007 + i)).collect()).collect()
    }
}

impl KernelCase for Concat {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = scalar::concatenation_one::<i8>;

    fn strategy() -> BoxedStrategy<Self> {
        (proptest::collection::vec(1usize..4, 1..5), any::<usize>(), proptest::collection::vec(0usize..4, 1..4))
            .prop_map(|(shape, ax, axis_dims)| Concat { axis: ax % shape.len(), shape, axis_dims })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            Concat { shape: std::vec![2, 3], axis: 1, axis_dims: std::vec![0, 0] },
            Concat { shape: std::vec![0, 3], axis: 1, axis_dims: std::vec![1, 2] },
            Concat { shape: std::vec![1], axis: 0, axis_dims: std::vec![1; 10] },
        ];
        for n in LANE_TAILS {
            v.push(Concat { shape: std::vec![n], axis: 0, axis_dims: std::vec![n, 1, n] });
            v.push(Concat { shape: std::vec![3, n], axis: 0, axis_dims: std::vec![1, 2] });
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let shapes = self.shapes();
        let refs: Vec<&[usize]> = shapes.iter().map(|s| &s[..]).collect();
        let mut offsets = std::vec![0; shapes.len()];
        let mut lens = std::vec![0; shapes.len()];
        let (outer, row) = prepare_concatenation(&refs, self.axis, &mut offsets, &mut lens).ok_or("prepare refused")?;
        let p = ConcatenationParams { outer, output_row: row, offsets: &offsets, lens: &lens };
        let inputs = self.inputs();
        let mut out = std::vec![0x55; outer * row];
        for (k, input) in inputs.iter().enumerate() {
            kernel(&p, k, input, &mut out);
        }
        // The all-inputs entry point agrees.
        let in_refs: Vec<&[i8]> = inputs.iter().map(|v| &v[..]).collect();
        let mut all = std::vec![0x55; outer * row];
        concatenation_s8(&p, &in_refs, &mut all);
        if all != out {
            return Err(std::format!("concatenation_s8 {all:?} differs from the per-input copies {out:?}"));
        }
        Ok(out)
    }

    /// Naive: walk the output by (outer, axis, inner) and find the source.
    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        let inputs = self.inputs();
        let inner: usize = self.shape[self.axis + 1..].iter().product();
        let outer: usize = self.shape[..self.axis].iter().product();
        let axis_total: usize = self.axis_dims.iter().sum();
        let mut want = Vec::new();
        for o in 0..outer {
            for a in 0..axis_total {
                let (mut k, mut a_in) = (0, a);
                while a_in >= self.axis_dims[k] {
                    a_in -= self.axis_dims[k];
                    k += 1;
                }
                for i in 0..inner {
                    want.push(inputs[k][(o * self.axis_dims[k] + a_in) * inner + i]);
                }
            }
        }
        if *out == want { Ok(()) } else { Err(std::format!("got {out:?}, naive {want:?}")) }
    }
}

kernel_tests!(impl_scalar, Concat, scalar::concatenation_one::<i8>);
kernel_tests!(impl_dispatch, if true, Concat, concatenation_one::<i8>);

#[test]
fn rejects_mismatch() {
    let mut o = [0; 2];
    let mut l = [0; 2];
    assert!(prepare_concatenation(&[&[1, 2, 3], &[1, 3, 3]], 2, &mut o, &mut l).is_none());
    assert!(prepare_concatenation(&[&[1, 2, 3], &[1, 2]], 1, &mut o, &mut l).is_none());
    assert!(prepare_concatenation(&[&[1, 2, 3], &[1, 2, 5]], 2, &mut o, &mut l).is_some());
}
