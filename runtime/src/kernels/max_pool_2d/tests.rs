//! MAX_POOL_2D tests: naive reference (maximum over the window cells inside the input),
//! property tests, edge cases.

use super::{MaxPool2dParams, PoolGeometry};
use crate::kernels::numerics::{Clamp, S8};
use crate::kernels::test_util::Rng;
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&MaxPool2dParams<S8>, &[i8], &mut [i8]);

fn naive(p: &MaxPool2dParams<S8>, input: &[i8]) -> Vec<i8> {
    let [n, h, w, c] = p.geometry.input_shape;
    let mut out = vec![0i8; n * p.geometry.output_height * p.geometry.output_width * c];
    for b in 0..n {
        for oy in 0..p.geometry.output_height {
            for ox in 0..p.geometry.output_width {
                for ch in 0..c {
                    let mut cells = Vec::new();
                    for fy in 0..p.geometry.filter_height {
                        for fx in 0..p.geometry.filter_width {
                            let y = (oy * p.geometry.stride_height + fy) as i64 - p.geometry.pad_top as i64;
                            let x = (ox * p.geometry.stride_width + fx) as i64 - p.geometry.pad_left as i64;
                            if (0..h as i64).contains(&y) && (0..w as i64).contains(&x) {
                                cells.push(input[((b * h + y as usize) * w + x as usize) * c + ch] as i32);
                            }
                        }
                    }
                    let max = cells.into_iter().max().unwrap_or(-128);
                    out[((b * p.geometry.output_height + oy) * p.geometry.output_width + ox) * c + ch] =
                        max.clamp(p.clamp.min as i32, p.clamp.max as i32) as i8;
                }
            }
        }
    }
    out
}

fn out_size(input: usize, before: usize, after: usize, k: usize, stride: usize) -> usize {
    let total = input + before + after;
    if total < k {
        0
    } else {
        (total - k) / stride + 1
    }
}

fn check(kernel: Kernel, dims: [usize; 4], k: [usize; 2], stride: [usize; 2], pads: [usize; 4], seed: u64) {
    let mut rng = Rng(seed);
    // Max pooling tolerates windows entirely in the padding (-128 before the clamp).
    let oh = out_size(dims[1], pads[0], pads[1], k[0], stride[0]);
    let ow = out_size(dims[2], pads[2], pads[3], k[1], stride[1]);
    let (act_min, act_max) = rng.activation_range();
    let p = MaxPool2dParams { geometry: PoolGeometry { input_shape: dims, output_height: oh, output_width: ow, filter_height: k[0], filter_width: k[1], stride_height: stride[0], stride_width: stride[1], pad_top: pads[0], pad_left: pads[2] }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
    let input = rng.i8s(dims.iter().product());
    let mut got = vec![0x55u8 as i8; dims[0] * oh * ow * dims[3]];
    kernel(&p, &input, &mut got);
    assert_eq!(got, naive(&p, &input));
}

macro_rules! kernel_tests {
    ($name:ident, $kernel:path) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(300))]
                #[test]
                fn matches_naive(
                    dims in [1usize..3, 1usize..10, 1usize..10, 1usize..6],
                    k in [1usize..5, 1usize..5],
                    stride in [1usize..4, 1usize..4],
                    pads in [0usize..6, 0usize..6, 0usize..6, 0usize..6],
                    seed in any::<u64>(),
                ) {
                    check($kernel, dims, k, stride, pads, seed);
                }
            }

            /// Padding never wins, even over -128, and the clamp applies afterwards.
            #[test]
            fn padding_is_ignored() {
                let p = MaxPool2dParams { geometry: PoolGeometry { input_shape: [1, 1, 2, 1], output_height: 1, output_width: 2, filter_height: 1, filter_width: 2, stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 1 }, clamp: Clamp { min: -128, max: 100 } };
                let mut out = [0i8; 2];
                $kernel(&p, &[-128, 127], &mut out);
                assert_eq!(out, [-128, 100]);
            }
        }
    };
}

kernel_tests!(scalar, crate::kernels::max_pool_2d::scalar::max_pool_2d::<S8>);
kernel_tests!(public_api, crate::kernels::max_pool_2d::max_pool_2d_s8);
