//! MEAN tests: a naive reference that scatters every input element into its output cell
//! (i64 sums), then requantizes through `prepare::mean_s8`'s parameters; plus a float
//! sanity bound and edge cases.

use super::MeanParams;
use crate::kernels::test_util::{kernel_tests, scale, zero_point, KernelCase, Rng, LANE_TAILS};
use crate::prepare::mean_s8;
use std::format;
use std::string::String;
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

/// MEAN over `axes` of a `dims` int8 tensor between two quantizations; input from `seed`.
#[derive(Clone, Debug)]
struct Mean {
    dims: [usize; 4],
    axes: [bool; 4],
    in_scale: f32,
    out_scale: f32,
    in_zp: i32,
    out_zp: i32,
    seed: u64,
}

impl Mean {
    fn params(&self) -> Option<MeanParams> {
        let n: usize = (0..4).filter(|&k| self.axes[k]).map(|k| self.dims[k]).product();
        let q = mean_s8(self.in_scale, self.in_zp, self.out_scale, n)?;
        Some(MeanParams {
            input_shape: self.dims,
            reduce_axes: self.axes,
            multiplier: q.multiplier,
            shift: q.shift,
            sum_offset: q.sum_offset,
            output_offset: self.out_zp,
        })
    }

    fn input(&self) -> Vec<i8> {
        Rng(self.seed).i8s(self.dims.iter().product())
    }
}

impl KernelCase for Mean {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = super::scalar::mean_s8;

    fn strategy() -> BoxedStrategy<Self> {
        (
            [1usize..3, 1usize..8, 1usize..8, 1usize..7],
            [any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()],
            scale(0.001, 0.2),
            0.2f32..4.0,
            zero_point(),
            zero_point(),
            any::<u64>(),
        )
            .prop_map(|(dims, axes, in_scale, ratio, in_zp, out_zp, seed)| Mean {
                dims,
                axes,
                in_scale,
                out_scale: in_scale * ratio,
                in_zp,
                out_zp,
                seed,
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let m = |dims, axes, ratio: f32, in_zp, out_zp| Mean { dims, axes, in_scale: 0.05, out_scale: 0.05 * ratio, in_zp, out_zp, seed: 7 };
        let mut v = std::vec![
            // The corpus case: H and W, keep_dims, equal quantization.
            m([1, 7, 5, 6], [false, true, true, false], 1.0, -3, -3),
            // Zero-size (a kept dim of 0), everything reduced, nothing reduced.
            m([1, 0, 3, 2], [false, false, true, false], 1.0, 0, 0),
            m([2, 3, 4, 5], [true; 4], 0.2, -128, 127),
            m([1, 2, 3, 4], [false; 4], 4.0, 127, -128),
        ];
        // Channel counts around and past the rows form's chunk of 64, and the corpus'
        // 7x7x1280 global average.
        for c in [63, 64, 65, 130] {
            v.push(m([1, 3, 2, c], [false, true, true, false], 0.7, 5, -9));
            v.push(m([2, 3, 2, c], [true, false, true, false], 1.3, -128, 127));
        }
        v.push(m([1, 7, 7, 1280], [false, true, true, false], 1.0, -128, -128));
        for n in LANE_TAILS {
            v.push(m([1, 1, 1, n], [false, false, false, true], 0.5, -128, 0));
            v.push(m([1, n, 1, 3], [false, true, false, false], 2.0, 127, -128));
        }
        v
    }

    fn prepares(&self) -> bool {
        self.params().is_some()
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let Some(p) = self.params() else { return Ok(Vec::new()) };
        let mut out = vec![0x55u8 as i8; out_len(&p)];
        kernel(&p, &self.input(), &mut out);
        Ok(out)
    }

    fn check(&self, got: &Vec<i8>) -> Result<(), String> {
        let Some(p) = self.params() else { return Ok(()) };
        let input = self.input();
        let n: usize = (0..4).filter(|&k| self.axes[k]).map(|k| self.dims[k]).product();
        let want = naive(&p, &input, n as i64);
        if *got != want {
            return Err(format!("got {got:?}, naive {want:?}"));
        }
        // Sanity against real arithmetic (the folded 1/n loses a few bits: within 1).
        let reference = naive_float(&p, &input, self.in_scale, self.in_zp, self.out_scale, self.out_zp);
        for (g, r) in got.iter().zip(reference) {
            if !((*g as f64 - r).abs() <= 1.0 || (*g == 127 && r > 127.0) || (*g == -128 && r < -128.0)) {
                return Err(format!("{g} vs real {r}"));
            }
        }
        Ok(())
    }
}

kernel_tests!(impl_scalar, Mean, crate::kernels::mean::scalar::mean_s8);
kernel_tests!(impl_dispatch, if true, Mean, crate::kernels::mean::mean_s8);
kernel_tests!(impl_rows, Mean, rows_or_scalar);

/// [`super::mean_s8_rows`] where it applies (the innermost dimension kept), else the
/// reference: the suite's random shapes reduce it about half the time.
fn rows_or_scalar(p: &MeanParams, input: &[i8], output: &mut [i8]) {
    if p.reduce_axes[3] {
        super::scalar::mean_s8(p, input, output)
    } else {
        super::mean_s8_rows(p, input, output)
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

/// Constant input: the mean is the input, exactly.
#[test]
fn constant_input_is_its_own_mean() {
    let q = mean_s8(0.05, -3, 0.05, 35).unwrap();
    let p = MeanParams { input_shape: [1, 7, 5, 1], reduce_axes: [false, true, true, false], multiplier: q.multiplier, shift: q.shift, sum_offset: q.sum_offset, output_offset: -3 };
    for v in [-128i8, -3, 0, 77, 127] {
        let mut out = [0i8; 1];
        crate::kernels::mean::mean_s8(&p, &[v; 35], &mut out);
        assert_eq!(out, [v]);
    }
}

/// No reduced axis: a pure requantization.
#[test]
fn no_axes_requantizes() {
    let q = mean_s8(0.5, 0, 0.25, 1).unwrap();
    let p = MeanParams { input_shape: [1, 1, 1, 4], reduce_axes: [false; 4], multiplier: q.multiplier, shift: q.shift, sum_offset: q.sum_offset, output_offset: 1 };
    let mut out = [0i8; 4];
    super::mean_s8(&p, &[1, -1, 63, 64], &mut out);
    assert_eq!(out, [3, -1, 127, 127]);
}

/// int16 MEAN (16x8): the naive definition (i64 sums, scattered per output cell, then the
/// same requantization, clamped to int16), over random shapes, axes and scales, and the
/// real-number mean within two steps where it does not saturate.
mod s16 {
    use super::*;
    use crate::kernels::mean::mean_s16;

    fn naive16(p: &MeanParams, input: &[i16], n: i64) -> Vec<i16> {
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
                v.clamp(-32768, 32767) as i16
            })
            .collect()
    }

    proptest! {
        #[test]
        fn matches_naive_and_real(seed: u64, dims in proptest::array::uniform4(1usize..6), axes: [bool; 4], in_scale in 1e-5f32..1e-2, out_scale in 1e-5f32..1e-2) {
            let n: usize = (0..4).filter(|&k| axes[k]).map(|k| dims[k]).product();
            let q = mean_s8(in_scale, 0, out_scale, n).unwrap();
            let p = MeanParams { input_shape: dims, reduce_axes: axes, multiplier: q.multiplier, shift: q.shift, sum_offset: q.sum_offset, output_offset: 0 };
            let mut rng = Rng(seed);
            let x: Vec<i16> = (0..dims.iter().product::<usize>()).map(|_| rng.range(-32768, 32767) as i16).collect();
            let mut y = vec![0i16; out_len(&p)];
            mean_s16(&p, &x, &mut y);
            prop_assert_eq!(&y, &naive16(&p, &x, n as i64));
            // The real mean: the same scatter in f64.
            let d = dims;
            let od: Vec<usize> = (0..4).map(|k| if axes[k] { 1 } else { d[k] }).collect();
            let mut real = vec![0f64; y.len()];
            for (flat, &v) in x.iter().enumerate() {
                let idx = [flat / (d[1] * d[2] * d[3]), flat / (d[2] * d[3]) % d[1], flat / d[3] % d[2], flat % d[3]];
                let o: Vec<usize> = (0..4).map(|k| if axes[k] { 0 } else { idx[k] }).collect();
                real[((o[0] * od[1] + o[1]) * od[2] + o[2]) * od[3] + o[3]] += v as f64 * in_scale as f64 / out_scale as f64 / n as f64;
            }
            for (g, r) in y.iter().zip(&real) {
                if r.abs() < 32000.0 {
                    prop_assert!((*g as f64 - r).abs() <= 2.0, "{} vs {}", g, r);
                }
            }
        }
    }
}
