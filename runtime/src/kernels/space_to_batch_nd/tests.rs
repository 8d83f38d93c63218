use super::*;
use crate::kernels::test_util::{kernel_tests, tag, KernelCase, LANE_TAILS};
use proptest::prelude::*;
use std::format;
use std::string::String;
use std::vec::Vec;

/// A case: the input `[batch, height, width, depth]`, block and paddings (top, bottom,
/// left, right), each padded extent a multiple of its block.
#[derive(Clone, Debug)]
struct Case {
    input: [usize; 4],
    block: [usize; 2],
    pads: [usize; 4],
}

impl Case {
    /// A pad value no input element has (so a misplaced element shows), or 0 when the
    /// input holds all 256 values.
    fn pad(&self) -> i8 {
        let tags: Vec<i8> = (0..self.input.iter().product()).map(tag).collect();
        (-128..=127).find(|v| !tags.contains(v)).unwrap_or(0)
    }

    fn params(&self) -> SpaceToBatchNdParams<i8> {
        let [b, h, w, _] = self.input;
        let [bh, bw] = self.block;
        let [t, bo, l, r] = self.pads;
        SpaceToBatchNdParams { input: self.input, output: [b * bh * bw, (h + t + bo) / bh, (w + l + r) / bw], block: self.block, pad_before: [t, l], pad: self.pad() }
    }
}

type Kernel = fn(&SpaceToBatchNdParams<i8>, &[i8], &mut [i8]);

impl KernelCase for Case {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = space_to_batch_nd::<i8>;

    fn strategy() -> BoxedStrategy<Self> {
        (0usize..3, 1usize..5, 1usize..5, 1usize..4, 1usize..4, 1usize..4, 0usize..3, 0usize..3)
            .prop_map(|(b, h, w, d, bh, bw, t, l)| {
                // Bottom and right paddings complete the blocks.
                let (bo, r) = ((bh - (h + t) % bh) % bh, (bw - (w + l) % bw) % bw);
                Case { input: [b, h, w, d], block: [bh, bw], pads: [t, bo, l, r] }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            Case { input: [0, 2, 2, 1], block: [2, 2], pads: [0; 4] },
            Case { input: [1, 1, 1, 1], block: [1, 1], pads: [0; 4] },
            Case { input: [2, 3, 2, 3], block: [2, 3], pads: [1, 2, 2, 2] },
        ];
        for n in LANE_TAILS {
            v.push(Case { input: [1, 2, 2, n], block: [2, 2], pads: [1, 1, 0, 2] });
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let p = self.params();
        let input: Vec<i8> = (0..self.input.iter().product()).map(tag).collect();
        let [ob, oh, ow] = p.output;
        let mut out = std::vec![0i8; ob * oh * ow * self.input[3]];
        kernel(&p, &input, &mut out);
        Ok(out)
    }

    /// The definition: input `(b, h, w, c)` sits at padded `(h + top, w + left)`, which is
    /// output batch `((h + top) % bh * bw + (w + left) % bw) * batch + b` at
    /// `((h + top) / bh, (w + left) / bw)`; every other output element is padding.
    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        let p = self.params();
        let [b, h, w, d] = self.input;
        let [bh, bw] = self.block;
        let [_, oh, ow] = p.output;
        let mut want = std::vec![p.pad; out.len()];
        for ib in 0..b {
            for y in 0..h {
                for x in 0..w {
                    for c in 0..d {
                        let (sh, sw) = (y + self.pads[0], x + self.pads[2]);
                        let ob = ((sh % bh) * bw + sw % bw) * b + ib;
                        want[((ob * oh + sh / bh) * ow + sw / bw) * d + c] = tag(((ib * h + y) * w + x) * d + c);
                    }
                }
            }
        }
        match out.iter().zip(&want).position(|(a, b)| a != b) {
            None => Ok(()),
            Some(k) => Err(format!("output {k}: got {}, want {}", out[k], want[k])),
        }
    }
}

kernel_tests!(impl_scalar, Case, space_to_batch_nd::<i8>);
kernel_tests!(impl_dispatch, if true, Case, space_to_batch_nd_s8);
