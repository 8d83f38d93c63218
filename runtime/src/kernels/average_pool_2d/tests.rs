//! AVERAGE_POOL_2D tests: naive reference (enumerate the window, count the cells inside,
//! round |sum| / count half up and restore the sign), property tests, edge cases.

use super::{AveragePool2dParams, PoolGeometry};
use crate::kernels::numerics::{Clamp, S8};
use crate::kernels::test_util::Rng;
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&AveragePool2dParams<S8>, &[i8], &mut [i8]);

fn naive(p: &AveragePool2dParams<S8>, input: &[i8]) -> Vec<i8> {
    let [n, h, w, c] = p.geometry.input_shape;
    let mut out = vec![0i8; n * p.geometry.output_height * p.geometry.output_width * c];
    for b in 0..n {
        for oy in 0..p.geometry.output_height {
            for ox in 0..p.geometry.output_width {
                for ch in 0..c {
                    let (mut sum, mut count) = (0i64, 0i64);
                    for fy in 0..p.geometry.filter_height {
                        for fx in 0..p.geometry.filter_width {
                            let y = (oy * p.geometry.stride_height + fy) as i64 - p.geometry.pad_top as i64;
                            let x = (ox * p.geometry.stride_width + fx) as i64 - p.geometry.pad_left as i64;
                            if (0..h as i64).contains(&y) && (0..w as i64).contains(&x) {
                                sum += input[((b * h + y as usize) * w + x as usize) * c + ch] as i64;
                                count += 1;
                            }
                        }
                    }
                    assert!(count > 0, "test cases keep every window overlapping the input");
                    let magnitude = (2 * sum.abs() + count) / (2 * count);
                    let avg = if sum < 0 { -magnitude } else { magnitude };
                    out[((b * p.geometry.output_height + oy) * p.geometry.output_width + ox) * c + ch] =
                        avg.clamp(p.clamp.min as i64, p.clamp.max as i64) as i8;
                }
            }
        }
    }
    out
}

/// Output extent with explicit padding (stride >= 1, padding < filter so that every
/// window overlaps the input, as TFLite's SAME/VALID guarantee).
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
    let pads = [pads[0] % k[0], pads[1] % k[0], pads[2] % k[1], pads[3] % k[1]];
    let oh = out_size(dims[1], pads[0], pads[1], k[0], stride[0]);
    let ow = out_size(dims[2], pads[2], pads[3], k[1], stride[1]);
    let (act_min, act_max) = rng.activation_range();
    let p = AveragePool2dParams { geometry: PoolGeometry { input_shape: dims, output_height: oh, output_width: ow, filter_height: k[0], filter_width: k[1], stride_height: stride[0], stride_width: stride[1], pad_top: pads[0], pad_left: pads[2] }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
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
                    dims in (1usize..3, 1usize..10, 1usize..10, prop_oneof![1usize..6, 14usize..40]).prop_map(|(n, h, w, c)| [n, h, w, c]),
                    k in [1usize..5, 1usize..5],
                    stride in [1usize..4, 1usize..4],
                    pads in [0usize..4, 0usize..4, 0usize..4, 0usize..4],
                    seed in any::<u64>(),
                ) {
                    check($kernel, dims, k, stride, pads, seed);
                }
            }

            /// 3x3 SAME on 2x2: each window holds the 4 pixels, counted as 4 (not 9);
            /// negative ties round away from zero.
            #[test]
            fn border_windows_count_only_inside_cells() {
                let p = AveragePool2dParams { geometry: PoolGeometry { input_shape: [1, 2, 2, 2], output_height: 2, output_width: 2, filter_height: 3, filter_width: 3, stride_height: 1, stride_width: 1, pad_top: 1, pad_left: 1 }, clamp: Clamp { min: -128, max: 127 } };
                // channel 0: 1 + 2 + 3 + 4 = 10 -> 2.5 -> 3; channel 1: -10 -> -2.5 -> -3
                let input = [1, -1, 2, -2, 3, -3, 4, -4];
                let mut out = [0i8; 8];
                $kernel(&p, &input, &mut out);
                assert_eq!(out, [3, -3, 3, -3, 3, -3, 3, -3]);
            }

            #[test]
            fn extremes_and_clamp() {
                let p = AveragePool2dParams { geometry: PoolGeometry { input_shape: [1, 1, 2, 1], output_height: 1, output_width: 1, filter_height: 1, filter_width: 2, stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0 }, clamp: Clamp { min: -100, max: 127 } };
                let mut out = [0i8; 1];
                $kernel(&p, &[-128, -128], &mut out);
                assert_eq!(out, [-100]);
                $kernel(&p, &[127, 127], &mut out);
                assert_eq!(out, [127]);
                $kernel(&p, &[127, -128], &mut out); // -0.5 -> -1
                assert_eq!(out, [-1]);
            }
        }
    };
}

kernel_tests!(scalar, crate::kernels::average_pool_2d::scalar::average_pool_2d::<S8>);
kernel_tests!(public_api, crate::kernels::average_pool_2d::average_pool_2d_s8);
