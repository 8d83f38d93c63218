use super::*;
use crate::kernels::test_util::{kernel_tests, tag, KernelCase, LANE_TAILS};
use proptest::prelude::*;
use std::format;
use std::string::String;
use std::vec::Vec;

/// A case: the output `[batch, height, width, depth]`, block and crops (top, bottom,
/// left, right); the input is the uncropped space split into batches.
#[derive(Clone, Debug)]
struct Case {
    out: [usize; 4],
    block: [usize; 2],
    crops: [usize; 4],
}

impl Case {
    fn params(&self) -> BatchToSpaceNdParams {
        let [ob, oh, ow, d] = self.out;
        let [bh, bw] = self.block;
        let [t, b, l, r] = self.crops;
        BatchToSpaceNdParams { input: [ob * bh * bw, (oh + t + b) / bh, (ow + l + r) / bw, d], output: [ob, oh, ow], block: self.block, crop: [t, l] }
    }
}

type Kernel = fn(&BatchToSpaceNdParams, &[i8], &mut [i8]);

impl KernelCase for Case {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = batch_to_space_nd::<i8>;

    fn strategy() -> BoxedStrategy<Self> {
        (1usize..3, 1usize..4, 1usize..4, 1usize..4, 1usize..4, 1usize..4, 0usize..3, 0usize..3)
            .prop_map(|(ob, ih, iw, d, bh, bw, t, l)| {
                // Crops smaller than a block on each side, so the output is not empty.
                let (t, l) = (t.min(bh - 1), l.min(bw - 1));
                let (oh, ow) = (ih * bh - t, iw * bw - l);
                Case { out: [ob, oh, ow, d], block: [bh, bw], crops: [t, 0, l, 0] }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            Case { out: [0, 2, 2, 1], block: [2, 2], crops: [0; 4] },
            Case { out: [1, 1, 1, 1], block: [1, 1], crops: [0; 4] },
            // Cropped at every edge.
            Case { out: [2, 3, 2, 3], block: [2, 3], crops: [1, 0, 2, 2] },
        ];
        for n in LANE_TAILS {
            v.push(Case { out: [1, 2, 2, n], block: [2, 2], crops: [0; 4] });
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let p = self.params();
        let input: Vec<i8> = (0..p.input.iter().product()).map(tag).collect();
        let mut out = std::vec![0i8; self.out.iter().product()];
        kernel(&p, &input, &mut out);
        Ok(out)
    }

    /// The definition (TensorFlow's): the output at `(b, h, w, c)` is the uncropped space's
    /// `(h + top, w + left)`, which is input batch `((h + top) % bh * bw + (w + left) % bw)
    /// * batch + b` at `((h + top) / bh, (w + left) / bw)`.
    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        let p = self.params();
        let [ob, oh, ow, d] = self.out;
        let [bh, bw] = self.block;
        let [_, ih, iw, _] = p.input;
        for b in 0..ob {
            for h in 0..oh {
                for w in 0..ow {
                    for c in 0..d {
                        let (sh, sw) = (h + self.crops[0], w + self.crops[2]);
                        let ib = ((sh % bh) * bw + sw % bw) * ob + b;
                        let i = ((ib * ih + sh / bh) * iw + sw / bw) * d + c;
                        let o = ((b * oh + h) * ow + w) * d + c;
                        if out[o] != tag(i) {
                            return Err(format!("output {o} ({b}, {h}, {w}, {c}): got {}, want input {i}", out[o]));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

kernel_tests!(impl_scalar, Case, batch_to_space_nd::<i8>);
kernel_tests!(impl_dispatch, if true, Case, batch_to_space_nd_s8);
