use super::*;
use crate::kernels::test_util::{kernel_tests, tag, KernelCase, LANE_TAILS};
use proptest::prelude::*;
use std::string::String;
use std::vec::Vec;

/// f64 oracle of TF's nearest-neighbour coordinate rules.
fn oracle(x: usize, in_size: usize, out_size: usize, align: bool, half: bool) -> usize {
    let scale = if align && out_size > 1 { (in_size - 1) as f64 / (out_size - 1) as f64 } else { in_size as f64 / out_size as f64 };
    let v = (x as f64 + if half { 0.5 } else { 0.0 }) * scale;
    let i = if align { v.round() } else { v.floor() } as i64;
    i.clamp(0, in_size as i64 - 1) as usize
}

#[test]
fn indices_match_oracle_on_small_sizes() {
    for in_size in 1..9 {
        for out_size in 1..19 {
            for (align, half) in [(false, false), (true, false), (false, true)] {
                for x in 0..out_size {
                    assert_eq!(
                        nearest_neighbor_index(x, in_size, out_size, align, half),
                        oracle(x, in_size, out_size, align, half),
                        "x={x} in={in_size} out={out_size} align={align} half={half}"
                    );
                }
            }
        }
    }
}

#[test]
fn upscale_2x() {
    // 1x2x2x1 -> 1x4x4x1
    let mut rows = [0usize; 4];
    let mut cols = [0usize; 4];
    prepare_resize_nearest_neighbor(2, 2, 1, false, false, &mut rows, &mut cols);
    let p = ResizeNearestNeighborParams { batches: 1, depth: 1, input_batch_stride: 4, row_offsets: &rows, col_offsets: &cols };
    let mut out = [0i8; 16];
    resize_nearest_neighbor_s8(&p, &[1, 2, 3, 4], &mut out);
    assert_eq!(out, [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]);
}

type Kernel = fn(&ResizeNearestNeighborParams, &[i8], &mut [i8]);

/// NHWC `batches x ih x iw x depth` resized to `oh x ow` with TF's coordinate flags.
#[derive(Clone, Debug)]
struct Resize {
    batches: usize,
    ih: usize,
    iw: usize,
    depth: usize,
    oh: usize,
    ow: usize,
    align: bool,
    half: bool,
}

impl KernelCase for Resize {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = scalar::resize_nearest_neighbor::<i8>;

    fn strategy() -> BoxedStrategy<Self> {
        (1usize..3, 1usize..6, 1usize..6, 1usize..4, 1usize..12, 1usize..12, 0u8..3)
            .prop_map(|(batches, ih, iw, depth, oh, ow, mode)| {
                let (align, half) = [(false, false), (true, false), (false, true)][mode as usize];
                Resize { batches, ih, iw, depth, oh, ow, align, half }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let r = |ih, iw, depth, oh, ow, align, half| Resize { batches: 1, ih, iw, depth, oh, ow, align, half };
        let mut v = std::vec![r(2, 2, 0, 3, 3, false, false), r(1, 1, 3, 5, 7, true, false), r(8, 8, 1, 1, 1, false, true)];
        for n in LANE_TAILS {
            v.push(r(1, 2, n, 1, 4, false, false));
            v.push(r(3, n, 2, 2, n + 1, false, true));
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let (mut rows, mut cols) = (std::vec![0usize; self.oh], std::vec![0usize; self.ow]);
        prepare_resize_nearest_neighbor(self.ih, self.iw, self.depth, self.align, self.half, &mut rows, &mut cols);
        let stride = self.ih * self.iw * self.depth;
        let p = ResizeNearestNeighborParams { batches: self.batches, depth: self.depth, input_batch_stride: stride, row_offsets: &rows, col_offsets: &cols };
        let input: Vec<i8> = (0..self.batches * stride).map(tag).collect();
        let mut out = std::vec![0x55; self.batches * self.oh * self.ow * self.depth];
        kernel(&p, &input, &mut out);
        Ok(out)
    }

    /// Each output pixel copies the input pixel the f64 oracle names.
    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        let mut want = Vec::new();
        for b in 0..self.batches {
            for y in 0..self.oh {
                let iy = oracle(y, self.ih, self.oh, self.align, self.half);
                for x in 0..self.ow {
                    let ix = oracle(x, self.iw, self.ow, self.align, self.half);
                    for c in 0..self.depth {
                        want.push(tag(((b * self.ih + iy) * self.iw + ix) * self.depth + c));
                    }
                }
            }
        }
        if *out == want { Ok(()) } else { Err(std::format!("got {out:?}, oracle {want:?}")) }
    }
}

kernel_tests!(impl_scalar, Resize, scalar::resize_nearest_neighbor::<i8>);
kernel_tests!(impl_dispatch, if true, Resize, resize_nearest_neighbor_s8);
