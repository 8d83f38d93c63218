//! Tests of the 16x8 / int16 kernels (`conv_2d_s16`, `depthwise_conv_2d_s16`,
//! `fully_connected_s16`, `average_pool_2d_s16`) against naive implementations that pad
//! the image explicitly and accumulate in i128, over random shapes, strides, dilations,
//! paddings, multipliers and clamps: one [`KernelCase`] per operator (the naive
//! implementation its oracle; edge cases at lane tails, every padding edge, ±32767 / −32768
//! with ±127 / −128 weights and the multiplier extremes) and one suite for its one
//! implementation, the reference loop nest. Bit-exactness with TFLite Micro is checked on golden
//! data (op_conformance, `armzoo_ds_cnn_s_int16`) and on single-op vectors in the
//! compiler (`lower::ops::tests_16x8`). `softmax_s16` depends on compile-time tables and
//! is tested there.

use super::average_pool_2d::{average_pool_2d_s16, AveragePool2dParams};
use super::conv_2d::{conv_2d_s16, Conv2dParams};
use super::depthwise_conv_2d::{depthwise_conv_2d_s16, DepthwiseConv2dParams};
use super::fully_connected::{fully_connected_s16, FullyConnectedGeometry, FullyConnectedParams};
use super::numerics::{Clamp, QuantS16};
use super::window::{ConvGeometry, PoolGeometry};
use super::test_util::{extremes, kernel_tests, multipliers, KernelCase, Rng, LANE_TAILS};
use crate::quant::multiply_by_quantized_multiplier_i64;
use proptest::prelude::*;
use std::string::String;
use std::vec;
use std::vec::Vec;

fn i16s(rng: &mut Rng, n: usize) -> Vec<i16> {
    (0..n)
        .map(|_| match rng.next_u64() % 8 {
            0 => i16::MIN,
            1 => i16::MAX,
            _ => rng.next_u64() as i16,
        })
        .collect()
}

fn i64s(rng: &mut Rng, n: usize) -> Vec<i64> {
    (0..n).map(|_| rng.range(-(1 << 36), 1 << 36)).collect()
}

fn clamp16(rng: &mut Rng) -> (i32, i32) {
    if rng.next_u64().is_multiple_of(2) {
        (-32768, 32767)
    } else {
        let a = rng.range(-32768, 32767) as i32;
        let b = rng.range(-32768, 32767) as i32;
        (a.min(b), a.max(b))
    }
}

fn requant(acc: i128, m: &[i32], s: &[i32], c: usize, lo: i32, hi: i32) -> i16 {
    let q = if m.len() == 1 { 0 } else { c };
    let acc = i64::try_from(acc).expect("test accumulators fit i64");
    multiply_by_quantized_multiplier_i64(acc, m[q], s[q]).clamp(lo, hi) as i16
}

/// Zero-padded NHWC image: `pad = [top, bottom, left, right]`.
fn padded(x: &[i16], [n, h, w, c]: [usize; 4], pad: [usize; 4]) -> (Vec<i16>, usize, usize) {
    let (ph, pw) = (h + pad[0] + pad[1], w + pad[2] + pad[3]);
    let mut out = vec![0i16; n * ph * pw * c];
    for b in 0..n {
        for y in 0..h {
            for xx in 0..w {
                for ch in 0..c {
                    out[((b * ph + y + pad[0]) * pw + xx + pad[2]) * c + ch] = x[((b * h + y) * w + xx) * c + ch];
                }
            }
        }
    }
    (out, ph, pw)
}

fn out_size(total: usize, k: usize, stride: usize, dil: usize) -> usize {
    let eff = (k - 1) * dil + 1;
    if total < eff {
        0
    } else {
        (total - eff) / stride + 1
    }
}

/// `len` values cycling through the int16 extremes and their neighbours.
fn extremes16(len: usize) -> Vec<i16> {
    const E: [i16; 6] = [i16::MIN, i16::MAX, -32767, 0, 1, -1];
    (0..len).map(|i| E[i % E.len()]).collect()
}

/// What every case shares: data from `seed`, or (`extreme`) the extremes everywhere, and
/// optionally one multiplier for every channel.
#[derive(Clone, Copy, Debug)]
struct Data {
    with_bias: bool,
    seed: u64,
    extreme: bool,
    multiplier: Option<(i32, i32)>,
}

impl Data {
    fn random(with_bias: bool, seed: u64) -> Data {
        Data { with_bias, seed, extreme: false, multiplier: None }
    }

    /// Input, filter, bias, multipliers and shifts, clamp.
    #[allow(clippy::type_complexity)]
    fn draw(&self, inputs: usize, weights: usize, channels: usize, lo_exp: i32) -> (Vec<i16>, Vec<i8>, Vec<i64>, (Vec<i32>, Vec<i32>), (i32, i32)) {
        let mut rng = Rng(self.seed);
        let mut x = i16s(&mut rng, inputs);
        let mut filter = rng.i8s(weights);
        let mut bias = i64s(&mut rng, channels);
        let (mut m, mut s) = multipliers(&mut rng, channels, lo_exp, 0);
        let mut clamp = clamp16(&mut rng);
        if self.extreme {
            x = extremes16(inputs);
            filter = extremes(weights).into_iter().rev().collect();
            bias = (0..channels).map(|c| [1i64 << 36, -(1 << 36), 0][c % 3]).collect();
            clamp = (-32768, 32767);
        }
        if let Some((mult, shift)) = self.multiplier {
            m = vec![mult; m.len()];
            s = vec![shift; s.len()];
            clamp = (-32768, 32767);
        }
        (x, filter, bias, (m, s), clamp)
    }
}

/// The multiplier extremes of the 64-bit requantization (`shift` in `-31..8`).
const MULTIPLIER_EXTREMES: [(i32, i32); 5] = [(i32::MAX, 0), (0x7FFF_0000 - 1, 0), (1 << 30, -31), (i32::MAX, 7), (1 << 30, -24)];

fn compare(got: &[i16], want: &[i16]) -> Result<(), String> {
    super::test_util::check_output(got, want, None)
}

// ---------------------------------------------------------------------------------------
// CONV_2D 16x8.

#[derive(Clone, Debug)]
struct ConvS16 {
    batches: usize,
    hw: [usize; 2],
    in_d: usize,
    out_d: usize,
    k: [usize; 2],
    stride: [usize; 2],
    dil: [usize; 2],
    pad: [usize; 4],
    data: Data,
}

impl ConvS16 {
    fn plain(hw: [usize; 2], in_d: usize, out_d: usize, k: [usize; 2], pad: [usize; 4], data: Data) -> ConvS16 {
        ConvS16 { batches: 1, hw, in_d, out_d, k, stride: [1, 1], dil: [1, 1], pad, data }
    }
}

type ConvS16Kernel = fn(&Conv2dParams<super::numerics::S16>, &[i16], &[i8], Option<&[i64]>, &mut [i16]);

impl KernelCase for ConvS16 {
    type Kernel = ConvS16Kernel;
    type Output = Vec<i16>;
    const REFERENCE: ConvS16Kernel = conv_2d_s16;
    const CASES: Option<u32> = Some(120);

    fn strategy() -> BoxedStrategy<Self> {
        (
            (1usize..3, [1usize..8, 1usize..8], 1usize..5, 1usize..5),
            ([1usize..4, 1usize..4], [1usize..3, 1usize..3], [1usize..3, 1usize..3]),
            ([0usize..3, 0usize..3, 0usize..3, 0usize..3], any::<bool>(), any::<u64>()),
        )
            .prop_map(|((batches, hw, in_d, out_d), (k, stride, dil), (pad, with_bias, seed))| ConvS16 { batches, hw, in_d, out_d, k, stride, dil, pad, data: Data::random(with_bias, seed) })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        for n in LANE_TAILS {
            v.push(ConvS16::plain([2, 3], n, 3, [1, 1], [0; 4], Data::random(true, n as u64)));
            v.push(ConvS16::plain([3, 3], n, 2, [3, 3], [1; 4], Data::random(false, n as u64)));
        }
        for (i, pad) in (0..81).map(|i| [i % 3, i / 3 % 3, i / 9 % 3, i / 27]).enumerate() {
            for (stride, dil) in [(1, 1), (2, 1), (1, 2)] {
                v.push(ConvS16 { stride: [stride; 2], dil: [dil; 2], ..ConvS16::plain([4, 5], 2, 2, [3, 3], pad, Data::random(true, i as u64)) });
            }
        }
        for in_d in [1, 4, 17] {
            v.push(ConvS16::plain([3, 4], in_d, 5, [3, 3], [1; 4], Data { extreme: true, ..Data::random(true, 1) }));
        }
        for (i, mult) in MULTIPLIER_EXTREMES.into_iter().enumerate() {
            v.push(ConvS16::plain([3, 3], 3, 4, [3, 3], [1; 4], Data { multiplier: Some(mult), ..Data::random(true, i as u64) }));
            v.push(ConvS16::plain([3, 3], 3, 4, [3, 3], [1; 4], Data { multiplier: Some(mult), extreme: true, ..Data::random(true, i as u64) }));
        }
        // No window fits: empty output.
        v.push(ConvS16::plain([1, 2], 2, 2, [3, 3], [0; 4], Data::random(true, 0)));
        v
    }

    fn run(&self, kernel: ConvS16Kernel) -> Result<Vec<i16>, String> {
        Ok(self.go(Some(kernel)))
    }

    fn check(&self, got: &Vec<i16>) -> Result<(), String> {
        compare(got, &self.go(None))
    }
}

impl ConvS16 {
    /// Runs `kernel`, or (`None`) the naive definition.
    fn go(&self, kernel: Option<ConvS16Kernel>) -> Vec<i16> {
        let ConvS16 { batches, hw: [h, w], in_d, out_d, k: [kh, kw], stride: [sh, sw], dil: [dh, dw], pad, data } = self.clone();
        let (x, filter, bias, (m, s), (lo, hi)) = data.draw(batches * h * w * in_d, out_d * kh * kw * in_d, out_d, -24);
        let (xp, ph, pw) = padded(&x, [batches, h, w, in_d], pad);
        let (oh, ow) = (out_size(ph, kh, sh, dh), out_size(pw, kw, sw, dw));
        let with_bias = data.with_bias;
        if let Some(kernel) = kernel {
            let p = Conv2dParams { geometry: ConvGeometry { input_shape: [batches, h, w, in_d], filter_shape: [out_d, kh, kw, in_d], output_shape: [batches, oh, ow, out_d], stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw, pad_top: pad[0], pad_left: pad[2] }, quant: QuantS16 { output_multiplier: &m, output_shift: &s }, clamp: Clamp { min: (lo) as i16, max: (hi) as i16 } };
            let mut got = vec![0x5555i16; batches * oh * ow * out_d];
            kernel(&p, &x, &filter, with_bias.then_some(&bias[..]), &mut got);
            return got;
        }
        let mut want = vec![0i16; batches * oh * ow * out_d];
        for b in 0..batches { for oy in 0..oh { for ox in 0..ow { for oc in 0..out_d {
            let mut acc: i128 = if with_bias { bias[oc] as i128 } else { 0 };
            for ky in 0..kh { for kx in 0..kw { for ic in 0..in_d {
                let xv = xp[((b * ph + oy * sh + ky * dh) * pw + ox * sw + kx * dw) * in_d + ic] as i128;
                acc += xv * filter[((oc * kh + ky) * kw + kx) * in_d + ic] as i128;
            }}}
            want[((b * oh + oy) * ow + ox) * out_d + oc] = requant(acc, &m, &s, oc, lo, hi);
        }}}}
        want
    }
}

kernel_tests!(conv_2d, ConvS16, conv_2d_s16);

// ---------------------------------------------------------------------------------------
// DEPTHWISE_CONV_2D 16x8.

#[derive(Clone, Debug)]
struct DepthwiseS16 {
    hw: [usize; 2],
    in_d: usize,
    mult: usize,
    k: [usize; 2],
    stride: [usize; 2],
    dil: [usize; 2],
    pad: [usize; 4],
    data: Data,
}

impl DepthwiseS16 {
    fn plain(hw: [usize; 2], in_d: usize, mult: usize, k: [usize; 2], pad: [usize; 4], data: Data) -> DepthwiseS16 {
        DepthwiseS16 { hw, in_d, mult, k, stride: [1, 1], dil: [1, 1], pad, data }
    }
}

type DepthwiseS16Kernel = fn(&DepthwiseConv2dParams<super::numerics::S16>, &[i16], &[i8], Option<&[i64]>, &mut [i16]);

impl KernelCase for DepthwiseS16 {
    type Kernel = DepthwiseS16Kernel;
    type Output = Vec<i16>;
    const REFERENCE: DepthwiseS16Kernel = depthwise_conv_2d_s16;
    const CASES: Option<u32> = Some(120);

    fn strategy() -> BoxedStrategy<Self> {
        (
            ([1usize..8, 1usize..8], 1usize..4, 1usize..3),
            ([1usize..4, 1usize..4], [1usize..3, 1usize..3], [1usize..3, 1usize..3]),
            ([0usize..3, 0usize..3, 0usize..3, 0usize..3], any::<bool>(), any::<u64>()),
        )
            .prop_map(|((hw, in_d, mult), (k, stride, dil), (pad, with_bias, seed))| DepthwiseS16 { hw, in_d, mult, k, stride, dil, pad, data: Data::random(with_bias, seed) })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        for n in LANE_TAILS {
            v.push(DepthwiseS16::plain([3, 3], n, 1, [3, 3], [1; 4], Data::random(true, n as u64)));
            v.push(DepthwiseS16::plain([2, 3], 2, n, [2, 2], [0; 4], Data::random(false, n as u64)));
        }
        for (i, pad) in (0..81).map(|i| [i % 3, i / 3 % 3, i / 9 % 3, i / 27]).enumerate() {
            for (stride, dil) in [(1, 1), (2, 1), (1, 2)] {
                v.push(DepthwiseS16 { stride: [stride; 2], dil: [dil; 2], ..DepthwiseS16::plain([4, 5], 3, 2, [3, 3], pad, Data::random(true, i as u64)) });
            }
        }
        for (in_d, mult) in [(1, 1), (3, 2), (17, 1)] {
            v.push(DepthwiseS16::plain([3, 4], in_d, mult, [3, 3], [1; 4], Data { extreme: true, ..Data::random(true, 1) }));
        }
        for (i, m) in MULTIPLIER_EXTREMES.into_iter().enumerate() {
            v.push(DepthwiseS16::plain([3, 3], 3, 2, [3, 3], [1; 4], Data { multiplier: Some(m), ..Data::random(true, i as u64) }));
            v.push(DepthwiseS16::plain([3, 3], 3, 2, [3, 3], [1; 4], Data { multiplier: Some(m), extreme: true, ..Data::random(true, i as u64) }));
        }
        v.push(DepthwiseS16::plain([1, 2], 2, 1, [3, 3], [0; 4], Data::random(true, 0)));
        v
    }

    fn run(&self, kernel: DepthwiseS16Kernel) -> Result<Vec<i16>, String> {
        Ok(self.go(Some(kernel)))
    }

    fn check(&self, got: &Vec<i16>) -> Result<(), String> {
        compare(got, &self.go(None))
    }
}

impl DepthwiseS16 {
    /// Runs `kernel`, or (`None`) the naive definition.
    fn go(&self, kernel: Option<DepthwiseS16Kernel>) -> Vec<i16> {
        let DepthwiseS16 { hw: [h, w], in_d, mult, k: [kh, kw], stride: [sh, sw], dil: [dh, dw], pad, data } = self.clone();
        let out_d = in_d * mult;
        let (x, filter, bias, (m, s), (lo, hi)) = data.draw(h * w * in_d, kh * kw * out_d, out_d, -20);
        let (xp, ph, pw) = padded(&x, [1, h, w, in_d], pad);
        let (oh, ow) = (out_size(ph, kh, sh, dh), out_size(pw, kw, sw, dw));
        let with_bias = data.with_bias;
        if let Some(kernel) = kernel {
            let p = DepthwiseConv2dParams { geometry: ConvGeometry { input_shape: [1, h, w, in_d], filter_shape: [1, kh, kw, out_d], output_shape: [1, oh, ow, out_d], stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw, pad_top: pad[0], pad_left: pad[2] }, quant: QuantS16 { output_multiplier: &m, output_shift: &s }, clamp: Clamp { min: (lo) as i16, max: (hi) as i16 } };
            let mut got = vec![0x5555i16; oh * ow * out_d];
            kernel(&p, &x, &filter, with_bias.then_some(&bias[..]), &mut got);
            return got;
        }
        let mut want = vec![0i16; oh * ow * out_d];
        for oy in 0..oh { for ox in 0..ow { for oc in 0..out_d {
            let ic = oc / mult;
            let mut acc: i128 = if with_bias { bias[oc] as i128 } else { 0 };
            for ky in 0..kh { for kx in 0..kw {
                let xv = xp[((oy * sh + ky * dh) * pw + ox * sw + kx * dw) * in_d + ic] as i128;
                acc += xv * filter[(ky * kw + kx) * out_d + oc] as i128;
            }}
            want[(oy * ow + ox) * out_d + oc] = requant(acc, &m, &s, oc, lo, hi);
        }}}
        want
    }
}

kernel_tests!(depthwise_conv_2d, DepthwiseS16, depthwise_conv_2d_s16);

// ---------------------------------------------------------------------------------------
// FULLY_CONNECTED 16x8.

#[derive(Clone, Debug)]
struct FullyConnectedS16 {
    batches: usize,
    depth: usize,
    units: usize,
    filter_zp: i32,
    data: Data,
}

type FullyConnectedS16Kernel = fn(&FullyConnectedParams<super::numerics::S16>, &[i16], &[i8], Option<&[i64]>, &mut [i16]);

impl KernelCase for FullyConnectedS16 {
    type Kernel = FullyConnectedS16Kernel;
    type Output = Vec<i16>;
    const REFERENCE: FullyConnectedS16Kernel = fully_connected_s16;
    const CASES: Option<u32> = Some(120);

    fn strategy() -> BoxedStrategy<Self> {
        (1usize..4, 1usize..40, 1usize..8, -3i32..4, any::<bool>(), any::<u64>())
            .prop_map(|(batches, depth, units, filter_zp, with_bias, seed)| FullyConnectedS16 { batches, depth, units, filter_zp, data: Data::random(with_bias, seed) })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let c = |batches, depth, units, filter_zp, data| FullyConnectedS16 { batches, depth, units, filter_zp, data };
        let mut v = Vec::new();
        for n in LANE_TAILS {
            v.push(c(1, n, 3, 0, Data::random(true, n as u64)));
            v.push(c(2, n, 5, 3, Data::random(false, n as u64)));
            v.push(c(2, 7, n, -3, Data::random(true, n as u64)));
        }
        v.push(c(0, 8, 3, 0, Data::random(true, 0)));
        for depth in [1, 4, 17, 64] {
            for filter_zp in [0, -3, 3] {
                v.push(c(2, depth, 3, filter_zp, Data { extreme: true, ..Data::random(true, depth as u64) }));
            }
        }
        for (i, m) in MULTIPLIER_EXTREMES.into_iter().enumerate() {
            v.push(c(2, 9, 5, 2, Data { multiplier: Some(m), ..Data::random(true, i as u64) }));
            v.push(c(2, 9, 5, 0, Data { multiplier: Some(m), extreme: true, ..Data::random(true, i as u64) }));
        }
        v
    }

    fn run(&self, kernel: FullyConnectedS16Kernel) -> Result<Vec<i16>, String> {
        Ok(self.go(Some(kernel)))
    }

    fn check(&self, got: &Vec<i16>) -> Result<(), String> {
        compare(got, &self.go(None))
    }
}

impl FullyConnectedS16 {
    /// Runs `kernel`, or (`None`) the naive definition.
    fn go(&self, kernel: Option<FullyConnectedS16Kernel>) -> Vec<i16> {
        let FullyConnectedS16 { batches, depth, units, filter_zp, data } = self.clone();
        let (x, filter, bias, (m, s), (lo, hi)) = data.draw(batches * depth, units * depth, units, -24);
        let filter_offset = if m.len() == 1 { -filter_zp } else { 0 };
        let with_bias = data.with_bias;
        if let Some(kernel) = kernel {
            let p = FullyConnectedParams { geometry: FullyConnectedGeometry { batches, input_depth: depth, output_depth: units }, weights_offset: filter_offset, quant: QuantS16 { output_multiplier: &m, output_shift: &s }, clamp: Clamp { min: (lo) as i16, max: (hi) as i16 } };
            let mut got = vec![0x5555i16; batches * units];
            kernel(&p, &x, &filter, with_bias.then_some(&bias[..]), &mut got);
            return got;
        }
        let mut want = vec![0i16; batches * units];
        for b in 0..batches { for u in 0..units {
            let mut acc: i128 = if with_bias { bias[u] as i128 } else { 0 };
            for d in 0..depth {
                acc += (filter[u * depth + d] as i128 + filter_offset as i128) * x[b * depth + d] as i128;
            }
            want[b * units + u] = requant(acc, &m, &s, u, lo, hi);
        }}
        want
    }
}

kernel_tests!(fully_connected, FullyConnectedS16, fully_connected_s16);

// ---------------------------------------------------------------------------------------
// AVERAGE_POOL_2D int16.

/// SAME-like: the padding before is below the window (`pt < fh`, `pl < fw`), so every
/// window overlaps the input.
#[derive(Clone, Debug)]
struct AveragePoolS16 {
    hw: [usize; 2],
    depth: usize,
    f: [usize; 2],
    stride: [usize; 2],
    pad: [usize; 2],
    seed: u64,
    extreme: bool,
}

type AveragePoolS16Kernel = fn(&AveragePool2dParams<super::numerics::S16>, &[i16], &mut [i16]);

impl KernelCase for AveragePoolS16 {
    type Kernel = AveragePoolS16Kernel;
    type Output = Vec<i16>;
    const REFERENCE: AveragePoolS16Kernel = average_pool_2d_s16;
    const CASES: Option<u32> = Some(120);

    fn strategy() -> BoxedStrategy<Self> {
        ([1usize..9, 1usize..9], 1usize..5, [1usize..5, 1usize..5], [1usize..3, 1usize..3], [0usize..2, 0usize..2], any::<u64>())
            .prop_filter("the padding before is below the window", |(_, _, f, _, pad, _)| pad[0] < f[0] && pad[1] < f[1])
            .prop_map(|(hw, depth, f, stride, pad, seed)| AveragePoolS16 { hw, depth, f, stride, pad, seed, extreme: false })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let c = |hw, depth, f, stride, pad, seed, extreme| AveragePoolS16 { hw, depth, f, stride, pad, seed, extreme };
        let mut v = Vec::new();
        for n in LANE_TAILS {
            v.push(c([3, 4], n, [2, 2], [1, 1], [0, 0], n as u64, false));
            v.push(c([4, 3], n, [3, 3], [2, 2], [1, 1], n as u64, false));
        }
        for (i, pad) in [[0, 0], [0, 1], [1, 0], [1, 1], [2, 2], [0, 2], [2, 0]].into_iter().enumerate() {
            for stride in [1, 2] {
                v.push(c([4, 5], 3, [3, 3], [stride; 2], pad, i as u64, false));
                v.push(c([4, 5], 3, [3, 3], [stride; 2], pad, i as u64, true));
            }
        }
        v
    }

    fn run(&self, kernel: AveragePoolS16Kernel) -> Result<Vec<i16>, String> {
        Ok(self.go(Some(kernel)))
    }

    fn check(&self, got: &Vec<i16>) -> Result<(), String> {
        compare(got, &self.go(None))
    }
}

impl AveragePoolS16 {
    /// Runs `kernel`, or (`None`) the naive definition.
    fn go(&self, kernel: Option<AveragePoolS16Kernel>) -> Vec<i16> {
        let AveragePoolS16 { hw: [h, w], depth, f: [fh, fw], stride: [sh, sw], pad: [pt, pl], seed, extreme } = self.clone();
        let mut rng = Rng(seed);
        let mut x = i16s(&mut rng, h * w * depth);
        let (mut lo, mut hi) = clamp16(&mut rng);
        if extreme {
            x = extremes16(x.len());
            (lo, hi) = (-32768, 32767);
        }
        let oh = (h + pt - 1) / sh + 1;
        let ow = (w + pl - 1) / sw + 1;
        if let Some(kernel) = kernel {
            let p = AveragePool2dParams { geometry: PoolGeometry { input_shape: [1, h, w, depth], output_height: oh, output_width: ow, filter_height: fh, filter_width: fw, stride_height: sh, stride_width: sw, pad_top: pt, pad_left: pl }, clamp: Clamp { min: (lo) as i16, max: (hi) as i16 } };
            let mut got = vec![0x5555i16; oh * ow * depth];
            kernel(&p, &x, &mut got);
            return got;
        }
        let mut want = vec![0i16; oh * ow * depth];
        for oy in 0..oh { for ox in 0..ow { for c in 0..depth {
            let (mut sum, mut count) = (0i64, 0i64);
            for ky in 0..fh { for kx in 0..fw {
                let (iy, ix) = ((oy * sh + ky) as i64 - pt as i64, (ox * sw + kx) as i64 - pl as i64);
                if iy >= 0 && ix >= 0 && (iy as usize) < h && (ix as usize) < w {
                    sum += x[(iy as usize * w + ix as usize) * depth + c] as i64;
                    count += 1;
                }
            }}
            assert!(count > 0, "every window overlaps the input");
            // Round half away from zero.
            let avg = (2 * sum.abs() + count) / (2 * count) * sum.signum();
            want[(oy * ow + ox) * depth + c] = avg.clamp(lo as i64, hi as i64) as i16;
        }}}
        want
    }
}

kernel_tests!(average_pool_2d, AveragePoolS16, average_pool_2d_s16);

#[test]
fn lut_lookup_interpolates_and_wraps_like_cpp() {
    use crate::quant::lut_lookup_i16;
    // A linear table: lut[i] = 64 * i - 16384; lookups interpolate exactly.
    let lut: Vec<i16> = (0..513).map(|i| (64 * i - 16384) as i16).collect();
    // value = -32768 -> index 0, offset 0.
    assert_eq!(lut_lookup_i16(-32768, &lut), -16384);
    // value = 0 -> index 256; value 64 -> offset 64: base 0 + (64*64 + 64) >> 7 = 32.
    assert_eq!(lut_lookup_i16(0, &lut), 0);
    assert_eq!(lut_lookup_i16(64, &lut), 32);
    // value = 32767 -> index 511, offset 127: 16320 + (64*127 + 64) >> 7 = 16320 + 64.
    assert_eq!(lut_lookup_i16(32767, &lut), 16384);
    // A slope beyond int16 wraps when narrowed (C++ `int16_t slope = a - b`).
    let mut steep = vec![0i16; 513];
    steep[256] = -30000;
    steep[257] = 30000; // 60000 - wraps to -5536 as int16
    let want = (-30000i32 + ((-5536 * 100 + 64) >> 7)) as i16;
    assert_eq!(lut_lookup_i16(100, &steep), want);
}
