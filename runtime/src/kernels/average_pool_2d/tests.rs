//! AVERAGE_POOL_2D tests: naive reference (enumerate the window, count the cells inside,
//! round |sum| / count half up and restore the sign), as the oracle of
//! one [`KernelCase`] (random geometry, fixed edge cases), one suite per implementation.

use super::{AveragePool2dParams, PoolGeometry};
use crate::kernels::numerics::{Clamp, S8};
use crate::kernels::test_util::{extremes, kernel_tests, KernelCase, Rng, LANE_TAILS};
use proptest::prelude::*;
use std::string::String;
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

/// A random pool: shapes, filter, strides and padding; data and clamp from `seed`.
#[derive(Debug, Clone)]
struct Case {
    dims: [usize; 4],
    k: [usize; 2],
    stride: [usize; 2],
    pads: [usize; 4],
    seed: u64,
}

/// One pool case: random, or fixed (geometry, clamp, input, hand-computed output if any).
#[derive(Debug, Clone)]
enum Pool {
    Random(Case),
    Fixed(PoolGeometry, (i8, i8), Vec<i8>, Option<Vec<i8>>),
}

impl Pool {
    /// The parameters and the input.
    fn problem(&self) -> (AveragePool2dParams<S8>, Vec<i8>) {
        match self {
            Pool::Random(c) => {
                let Case { dims, k, stride, pads, seed } = *c;
                let mut rng = Rng(seed);
        // Every window overlaps the input (padding < filter), as TFLite's SAME/VALID guarantee.
        let pads = [pads[0] % k[0], pads[1] % k[0], pads[2] % k[1], pads[3] % k[1]];
                let oh = out_size(dims[1], pads[0], pads[1], k[0], stride[0]);
                let ow = out_size(dims[2], pads[2], pads[3], k[1], stride[1]);
                let (act_min, act_max) = rng.activation_range();
                let geometry = PoolGeometry { input_shape: dims, output_height: oh, output_width: ow, filter_height: k[0], filter_width: k[1], stride_height: stride[0], stride_width: stride[1], pad_top: pads[0], pad_left: pads[2] };
                let p = AveragePool2dParams { geometry, clamp: Clamp { min: act_min as i8, max: act_max as i8 } };
                (p, rng.i8s(dims.iter().product()))
            }
            Pool::Fixed(geometry, (min, max), input, _) => (AveragePool2dParams { geometry: *geometry, clamp: Clamp { min: *min, max: *max } }, input.clone()),
        }
    }
}

impl KernelCase for Pool {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = super::scalar::average_pool_2d::<S8>;
    const CASES: Option<u32> = Some(300);

    fn strategy() -> BoxedStrategy<Self> {
        ([1usize..3, 1usize..10, 1usize..10, 1usize..6], [1usize..5, 1usize..5], [1usize..4, 1usize..4], [0usize..6, 0usize..6, 0usize..6, 0usize..6], any::<u64>())
            .prop_map(|(dims, k, stride, pads, seed)| Pool::Random(Case { dims, k, stride, pads, seed }))
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        // 3x3 SAME on 2x2: each window holds the 4 pixels, counted as 4 (not 9); negative
        // ties round away from zero. channel 0: 1 + 2 + 3 + 4 = 10 -> 2.5 -> 3; channel 1:
        // -10 -> -2.5 -> -3.
        let g = PoolGeometry { input_shape: [1, 2, 2, 2], output_height: 2, output_width: 2, filter_height: 3, filter_width: 3, stride_height: 1, stride_width: 1, pad_top: 1, pad_left: 1 };
        v.push(Pool::Fixed(g, (-128, 127), vec![1, -1, 2, -2, 3, -3, 4, -4], Some(vec![3, -3, 3, -3, 3, -3, 3, -3])));
        // Extremes and the clamp; -0.5 -> -1.
        let g = PoolGeometry { input_shape: [1, 1, 2, 1], output_height: 1, output_width: 1, filter_height: 1, filter_width: 2, stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0 };
        v.push(Pool::Fixed(g, (-100, 127), vec![-128, -128], Some(vec![-100])));
        v.push(Pool::Fixed(g, (-100, 127), vec![127, 127], Some(vec![127])));
        v.push(Pool::Fixed(g, (-100, 127), vec![127, -128], Some(vec![-1])));
        let c = |dims, k, stride, pads, seed| Pool::Random(Case { dims, k, stride, pads, seed });
        // Lane tails of the channel loop (odd channel counts included).
        for n in LANE_TAILS {
            v.push(c([1, 3, 4, n], [2, 2], [1, 1], [0; 4], n as u64));
            v.push(c([2, 4, 3, n], [3, 3], [2, 2], [1; 4], n as u64));
        }
        // Every padding edge: each side 0, 1 or 2 (the most that keeps every window overlapping the input), at strides 1 and 2.
        for (i, pads) in (0..81).map(|i| [i % 3, i / 3 % 3, i / 9 % 3, i / 27].map(|p| [0, 1, 2][p])).enumerate() {
            for stride in [1, 2] {
                v.push(c([1, 4, 5, 3], [3, 3], [stride, stride], pads, i as u64));
            }
        }
        // ±127 / −128 in every window, full clamp and a clamp that cuts both ends.
        for (i, clamp) in [(-128, 127), (-127, 126), (0, 0)].into_iter().enumerate() {
            for (dims, k, pads) in [([1, 4, 5, 7], [2, 3], [1, 0, 1, 1]), ([2, 3, 3, 17], [3, 3], [1; 4]), ([1, 2, 8, 6], [1, 4], [0; 4])] {
                let (p, input) = c(dims, k, [1, 1], pads, i as u64).problem();
                v.push(Pool::Fixed(p.geometry, clamp, extremes(input.len()), None));
            }
        }
        // Global pools (large counts: the vector forms divide in double precision), random
        // and extreme data, the clamp cutting both ends.
        for (dims, seed) in [([1, 40, 40, 21], 1u64), ([1, 7, 9, 35], 2)] {
            let k = [dims[1], dims[2]];
            v.push(c(dims, k, [1, 1], [0; 4], seed));
            let (p, input) = c(dims, k, [1, 1], [0; 4], seed).problem();
            v.push(Pool::Fixed(p.geometry, (-128, 127), extremes(input.len()), None));
            v.push(Pool::Fixed(p.geometry, (-3, 2), Rng(seed).i8s(input.len()), None));
        }
        // Zero-size: no batch, no channel, no window fits.
        v.push(c([0, 3, 3, 2], [2, 2], [1, 1], [0; 4], 0));
        v.push(c([1, 3, 3, 0], [2, 2], [1, 1], [0; 4], 0));
        v.push(c([1, 1, 2, 2], [3, 3], [1, 1], [0; 4], 0));
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let (p, input) = self.problem();
        let mut out = vec![0x55u8 as i8; p.geometry.input_shape[0] * p.geometry.output_height * p.geometry.output_width * p.geometry.input_shape[3]];
        kernel(&p, &input, &mut out);
        Ok(out)
    }

    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        let (p, input) = self.problem();
        let want = naive(&p, &input);
        let expected = match self {
            Pool::Fixed(.., Some(expected)) => Some(expected.as_slice()),
            _ => None,
        };
        crate::kernels::test_util::check_output(out, &want, expected)
    }
}

kernel_tests!(scalar, Pool, crate::kernels::average_pool_2d::scalar::average_pool_2d::<S8>);
kernel_tests!(public_api, if true, Pool, crate::kernels::average_pool_2d::average_pool_2d_s8);
// Helium's sixteen-channel path (`Dot::SUM16`), with the scalar micro-kernel.
kernel_tests!(sum16_scalar, if true, Pool, crate::kernels::average_pool_2d::sum16::<crate::kernels::dot::scalar::ScalarBytes>);
#[cfg(target_arch = "x86_64")]
fn avx2(p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) {
    let token = crate::arch::x86_64::Avx2::detect().expect("the suite checked detection first");
    crate::arch::x86_64::average_pool_2d_s8(token, p, input, output)
}
#[cfg(target_arch = "x86_64")]
fn avx512vnni(p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) {
    crate::arch::x86_64::vnni::average_pool_2d_s8(crate::arch::x86_64::vnni::tests::token(), p, input, output)
}
#[cfg(target_arch = "x86_64")]
kernel_tests!(impl_avx2, if crate::arch::x86_64::tests::detected(), Pool, avx2);
#[cfg(target_arch = "x86_64")]
kernel_tests!(impl_avx512vnni, if crate::arch::x86_64::vnni::tests::detected(), Pool, avx512vnni);
