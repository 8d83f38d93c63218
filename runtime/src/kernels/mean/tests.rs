//! MEAN tests: a naive reference that scatters every input element into its output cell
//! (i64 sums), then requantizes through `prepare::mean_s8`'s parameters; plus a float
//! sanity bound and edge cases.

use super::MeanParams;
use crate::kernels::test_util::{zero_point, Rng};
use crate::prepare::mean_s8;
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&MeanParams, &[i8], &mut [i8]);

fn out_len(p: &MeanParams) -> usize {
    (0..4).map(|k| if p.reduce_axes[k] { 1 } else { p.input_shape[k] }).product()
}

fn naive(p: &MeanParams, input: &[i8], n: i64) -> Vec<i8> {
    let d = p.input_shape;
    let od: Vec<usize> = (0..4).map(|k| if p.reduce_axes[k] { 1 } else { d[k] }).collect();
    let mut sums = vec![0i64; out_len(p)];
    for (flat, &x) in input.iter().enumerate() {
        let idx = [flat / (d[1] * d[2] * d[3]), flat / (d[2] * d[3]) % d[1], flat / d[3] % d[2], flat % d[3]];
        let o: Vec<usize> = (0..4).map(|k| if p.reduce_axes[k] { 0 } else { idx[k] }).collect();
        sums[((o[0] * od[1] + o[1]) * od[2] + o[2]) * od[3] + o[3]] += x as i64;
    }
    let input_zp = -(p.sum_offset as i64) / n;
    sums.iter()
        .map(|&s| {
            let shifted = i32::try_from(s - input_zp * n).unwrap();
            let v = multiply_by_quantized_multiplier(shifted, p.multiplier, p.shift) as i64 + p.output_offset as i64;
            v.clamp(-128, 127) as i8
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn check(kernel: Kernel, dims: [usize; 4], axes: [bool; 4], in_scale: f32, out_scale: f32, in_zp: i32, out_zp: i32, seed: u64) {
    let mut rng = Rng(seed);
    let n: usize = (0..4).filter(|&k| axes[k]).map(|k| dims[k]).product();
    let q = mean_s8(in_scale, in_zp, out_scale, n).unwrap();
    let p = MeanParams {
        input_shape: dims,
        reduce_axes: axes,
        multiplier: q.multiplier,
        shift: q.shift,
        sum_offset: q.sum_offset,
        output_offset: out_zp,
    };
    let input = rng.i8s(dims.iter().product());
    let mut got = vec![0x55u8 as i8; out_len(&p)];
    kernel(&p, &input, &mut got);
    let want = naive(&p, &input, n as i64);
    assert_eq!(got, want);
    // Sanity against real arithmetic (the folded 1/n loses a few bits: within 1).
    let reference = naive_float(&p, &input, in_scale, in_zp, out_scale, out_zp);
    for (g, r) in got.iter().zip(reference) {
        assert!((*g as f64 - r).abs() <= 1.0 || (*g == 127 && r > 127.0) || (*g == -128 && r < -128.0), "{g} vs {r}");
    }
}

fn naive_float(p: &MeanParams, input: &[i8], in_scale: f32, in_zp: i32, out_scale: f32, out_zp: i32) -> Vec<f64> {
    let d = p.input_shape;
    let od: Vec<usize> = (0..4).map(|k| if p.reduce_axes[k] { 1 } else { d[k] }).collect();
    let mut sums = vec![(0f64, 0f64); out_len(p)];
    for (flat, &x) in input.iter().enumerate() {
        let idx = [flat / (d[1] * d[2] * d[3]), flat / (d[2] * d[3]) % d[1], flat / d[3] % d[2], flat % d[3]];
        let o: Vec<usize> = (0..4).map(|k| if p.reduce_axes[k] { 0 } else { idx[k] }).collect();
        let cell = &mut sums[((o[0] * od[1] + o[1]) * od[2] + o[2]) * od[3] + o[3]];
        cell.0 += in_scale as f64 * (x as f64 - in_zp as f64);
        cell.1 += 1.0;
    }
    sums.iter().map(|&(s, c)| s / c / out_scale as f64 + out_zp as f64).collect()
}

macro_rules! kernel_tests {
    ($name:ident, $kernel:path) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(300))]
                #[test]
                fn matches_naive(
                    dims in [1usize..3, 1usize..8, 1usize..8, 1usize..7],
                    axes in [any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()],
                    in_scale in 0.001f32..0.2, scale_ratio in 0.2f32..4.0,
                    in_zp in zero_point(), out_zp in zero_point(), seed in any::<u64>(),
                ) {
                    check($kernel, dims, axes, in_scale, in_scale * scale_ratio, in_zp, out_zp, seed);
                }
            }

            /// The corpus case: MEAN over H and W with keep_dims, equal quantization.
            #[test]
            fn spatial_mean_same_quantization() {
                check($kernel, [1, 7, 5, 6], [false, true, true, false], 0.05, 0.05, -3, -3, 1);
                // Constant input: the mean is the input, exactly.
                let q = mean_s8(0.05, -3, 0.05, 35).unwrap();
                let p = MeanParams { input_shape: [1, 7, 5, 1], reduce_axes: [false, true, true, false], multiplier: q.multiplier, shift: q.shift, sum_offset: q.sum_offset, output_offset: -3 };
                for v in [-128i8, -3, 0, 77, 127] {
                    let mut out = [0i8; 1];
                    $kernel(&p, &[v; 35], &mut out);
                    assert_eq!(out, [v]);
                }
            }

            /// No reduced axis: a pure requantization.
            #[test]
            fn no_axes_requantizes() {
                let q = mean_s8(0.5, 0, 0.25, 1).unwrap();
                let p = MeanParams { input_shape: [1, 1, 1, 4], reduce_axes: [false; 4], multiplier: q.multiplier, shift: q.shift, sum_offset: q.sum_offset, output_offset: 1 };
                let mut out = [0i8; 4];
                $kernel(&p, &[1, -1, 63, 64], &mut out);
                assert_eq!(out, [3, -1, 127, 127]);
            }
        }
    };
}

kernel_tests!(scalar, crate::kernels::mean::scalar::mean_s8);
kernel_tests!(public_api, crate::kernels::mean::mean_s8);
