//! Tests of the float32 kernels (`conv_2d_f32`, `depthwise_conv_2d_f32`,
//! `fully_connected_f32`, `average_pool_2d_f32`, `max_pool_2d_f32`, `softmax_f32`): one
//! [`KernelCase`] per operator, whose oracle is two naive implementations written from
//! TFLite's float reference kernels (`reference_ops::Conv`, `DepthwiseConv`,
//! `FullyConnected`, `AveragePool`, `MaxPool`, `Softmax`):
//!
//! - the same arithmetic in `f32`, in TFLite's order (taps outside the image skipped, `total
//!   += x * w` per tap, then `total + bias`, then the clamp): the kernels must match it
//!   **bit for bit** (SOFTMAX: its `exp` is `math::expf`, tested on its own);
//! - the real result in `f64`: the kernel must be within `1e-5 * sum |x * w|` of it (the
//!   float rounding bound for these sizes), so an order that happened to agree with a wrong
//!   naive version would still fail.
//!
//! Edge cases: lane tails, every padding edge at strides and dilations 1 and 2, every fused
//! activation clamp, huge and tiny magnitudes, empty outputs.

#![allow(clippy::needless_range_loop)] // the naive definitions index as TFLite's loops do

use super::average_pool_2d::{average_pool_2d_f32, AveragePool2dParams};
use super::conv_2d::{conv_2d_f32, Conv2dParams};
use super::depthwise_conv_2d::{depthwise_conv_2d_f32, DepthwiseConv2dParams};
use super::fully_connected::{fully_connected_f32, FullyConnectedGeometry, FullyConnectedParams};
use super::max_pool_2d::{max_pool_2d_f32, MaxPool2dParams};
use super::numerics::{Clamp, F32};
use super::softmax::{softmax_f32, SoftmaxF32Params};
use super::test_util::{kernel_tests, KernelCase, Rng, LANE_TAILS};
use super::window::{ConvGeometry, PoolGeometry};
use proptest::prelude::*;
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

/// `n` floats: standard-normal-ish (sum of uniforms), scaled by `scale`, with exact zeros
/// and sign changes mixed in.
fn floats(rng: &mut Rng, n: usize, scale: f32) -> Vec<f32> {
    (0..n)
        .map(|_| {
            let u: f32 = (0..4).map(|_| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32).sum::<f32>() - 2.0;
            match rng.next_u64() % 16 {
                0 => 0.0,
                1 => -u * scale * 1000.0,
                _ => u * scale,
            }
        })
        .collect()
}

/// The fused activations' float clamps (TFLite `CalculateActivationRange`).
const CLAMPS: [(f32, f32); 4] = [(f32::MIN, f32::MAX), (0.0, f32::MAX), (0.0, 6.0), (-1.0, 1.0)];

fn clamp_of(i: usize) -> Clamp<f32> {
    let (min, max) = CLAMPS[i % CLAMPS.len()];
    Clamp { min, max }
}

/// `std::min(std::max(x, lo), hi)`.
fn act(x: f32, c: Clamp<f32>) -> f32 {
    let v = if x < c.min { c.min } else { x };
    if c.max < v {
        c.max
    } else {
        v
    }
}

/// Bit-for-bit equality with the f32 oracle, and closeness to the f64 one (`bound[i]`:
/// the sum of magnitudes the output's rounding errors scale with).
fn compare(got: &[f32], exact: &[f32], real: &[f64], bound: &[f64], c: Clamp<f32>) -> Result<(), String> {
    if got.len() != exact.len() {
        return Err(format!("{} outputs, expected {}", got.len(), exact.len()));
    }
    for i in 0..got.len() {
        if got[i].to_bits() != exact[i].to_bits() && !(got[i] == 0.0 && exact[i] == 0.0) {
            return Err(format!("output {i}: {:e}, TFLite's order gives {:e}", got[i], exact[i]));
        }
        let r = real[i].clamp(c.min as f64, c.max as f64);
        if (got[i] as f64 - r).abs() > 1e-5 * bound[i] + 1e-30 {
            return Err(format!("output {i}: {:e}, the real result is {r:e} (bound {:e})", got[i], bound[i]));
        }
    }
    Ok(())
}

fn out_size(size: usize, pad: usize, k: usize, stride: usize, dil: usize) -> usize {
    let eff = (k - 1) * dil + 1;
    if size + pad < eff {
        0
    } else {
        (size + pad - eff) / stride + 1
    }
}

// ---------------------------------------------------------------------------------------
// CONV_2D and DEPTHWISE_CONV_2D float32.

/// A convolution: `mult` 0 is CONV_2D with `out_d` filters, else DEPTHWISE_CONV_2D with
/// depth multiplier `mult`.
#[derive(Clone, Debug)]
struct ConvF32 {
    batches: usize,
    hw: [usize; 2],
    in_d: usize,
    out_d: usize,
    k: [usize; 2],
    stride: [usize; 2],
    dil: [usize; 2],
    /// `[top, bottom, left, right]`.
    pad: [usize; 4],
    clamp: usize,
    bias: bool,
    scale: f32,
    seed: u64,
}

type ConvKernel = fn(&Conv2dParams<F32>, &[f32], &[f32], Option<&[f32]>, &mut [f32]);
type DepthwiseKernel = fn(&DepthwiseConv2dParams<F32>, &[f32], &[f32], Option<&[f32]>, &mut [f32]);

impl ConvF32 {
    fn plain(hw: [usize; 2], in_d: usize, out_d: usize, k: [usize; 2], pad: [usize; 4], seed: u64) -> ConvF32 {
        ConvF32 { batches: 1, hw, in_d, out_d, k, stride: [1, 1], dil: [1, 1], pad, clamp: seed as usize, bias: !seed.is_multiple_of(3), scale: 1.0, seed }
    }

    fn strategy(depthwise: bool) -> BoxedStrategy<Self> {
        (
            (1usize..3, [1usize..8, 1usize..8], 1usize..5, 1usize..5),
            ([1usize..4, 1usize..4], [1usize..3, 1usize..3], [1usize..3, 1usize..3]),
            ([0usize..3, 0usize..3, 0usize..3, 0usize..3], 0usize..4, any::<bool>(), any::<u64>()),
        )
            .prop_map(move |((batches, hw, in_d, out_d), (k, stride, dil), (pad, clamp, bias, seed))| ConvF32 {
                batches,
                hw,
                in_d,
                out_d: if depthwise { in_d * out_d.min(3) } else { out_d },
                k,
                stride,
                dil,
                pad,
                clamp,
                bias,
                scale: 1.0,
                seed,
            })
            .boxed()
    }

    fn edge_cases(depthwise: bool) -> Vec<Self> {
        let mut v = Vec::new();
        let od = |in_d: usize, m: usize| if depthwise { in_d * m } else { m };
        for n in LANE_TAILS {
            v.push(ConvF32::plain([2, 3], n, od(n, 1), [1, 1], [0; 4], n as u64));
            v.push(ConvF32::plain([3, 3], n, od(n, 2), [3, 3], [1; 4], n as u64 + 100));
        }
        for (i, pad) in (0..81).map(|i| [i % 3, i / 3 % 3, i / 9 % 3, i / 27]).enumerate() {
            for (stride, dil) in [(1, 1), (2, 1), (1, 2)] {
                v.push(ConvF32 { stride: [stride; 2], dil: [dil; 2], ..ConvF32::plain([4, 5], 2, od(2, 2), [3, 3], pad, i as u64) });
            }
        }
        for (i, scale) in [1e-30f32, 1e-3, 1e3, 1e15].into_iter().enumerate() {
            for clamp in 0..4 {
                v.push(ConvF32 { scale, clamp, ..ConvF32::plain([3, 4], 5, od(5, 3), [3, 3], [1; 4], i as u64) });
            }
        }
        // No window fits: empty output.
        v.push(ConvF32::plain([1, 2], 2, od(2, 2), [3, 3], [0; 4], 0));
        v
    }

    fn geometry(&self) -> ConvGeometry {
        let ConvF32 { batches, hw: [h, w], in_d, out_d, k: [kh, kw], stride: [sh, sw], dil: [dh, dw], pad, .. } = *self;
        let (oh, ow) = (out_size(h, pad[0] + pad[1], kh, sh, dh), out_size(w, pad[2] + pad[3], kw, sw, dw));
        ConvGeometry {
            input_shape: [batches, h, w, in_d],
            filter_shape: [0, kh, kw, 0],
            output_shape: [batches, oh, ow, out_d],
            stride_height: sh,
            stride_width: sw,
            dilation_height: dh,
            dilation_width: dw,
            pad_top: pad[0],
            pad_left: pad[2],
        }
    }

    /// Input, filter (`filter_len` values) and bias.
    fn data(&self, filter_len: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
        let mut rng = Rng(self.seed);
        let g = self.geometry();
        let x = floats(&mut rng, g.input_shape.iter().product(), self.scale);
        let f = floats(&mut rng, filter_len, 1.0);
        let b = floats(&mut rng, self.out_d, self.scale);
        (x, f, b)
    }

    /// The naive definitions: for output channel `oc`, `tap(oc, ky, kx)` lists the (input
    /// channel, filter index) pairs of one tap, in TFLite's order.
    fn naive(&self, x: &[f32], f: &[f32], b: &[f32], tap: impl Fn(usize, usize, usize) -> Vec<(usize, usize)>) -> (Vec<f32>, Vec<f64>, Vec<f64>) {
        let g = self.geometry();
        let [batches, h, w, in_d] = g.input_shape;
        let [_, oh, ow, out_d] = g.output_shape;
        let [_, kh, kw, _] = g.filter_shape;
        let n = batches * oh * ow * out_d;
        let (mut exact, mut real, mut bound) = (vec![0f32; n], vec![0f64; n], vec![0f64; n]);
        let c = clamp_of(self.clamp);
        for bi in 0..batches { for oy in 0..oh { for ox in 0..ow { for oc in 0..out_d {
            let (mut t, mut r, mut m) = (0f32, 0f64, 0f64);
            for ky in 0..kh { for kx in 0..kw {
                let iy = (oy * g.stride_height + ky * g.dilation_height) as isize - g.pad_top as isize;
                let ix = (ox * g.stride_width + kx * g.dilation_width) as isize - g.pad_left as isize;
                if iy < 0 || ix < 0 || iy >= h as isize || ix >= w as isize {
                    continue;
                }
                for (ic, fi) in tap(oc, ky, kx) {
                    let xv = x[((bi * h + iy as usize) * w + ix as usize) * in_d + ic];
                    t += xv * f[fi];
                    r += xv as f64 * f[fi] as f64;
                    m += (xv as f64 * f[fi] as f64).abs();
                }
            }}
            let bv = if self.bias { b[oc] } else { 0.0 };
            let o = ((bi * oh + oy) * ow + ox) * out_d + oc;
            exact[o] = act(t + bv, c);
            real[o] = r + bv as f64;
            bound[o] = m + (bv as f64).abs();
        }}}}
        (exact, real, bound)
    }
}

#[derive(Clone, Debug)]
struct Conv(ConvF32);

impl KernelCase for Conv {
    type Kernel = ConvKernel;
    type Output = Vec<f32>;
    const REFERENCE: ConvKernel = conv_2d_f32;
    const CASES: Option<u32> = Some(120);

    fn strategy() -> BoxedStrategy<Self> {
        ConvF32::strategy(false).prop_map(Conv).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        ConvF32::edge_cases(false).into_iter().map(Conv).collect()
    }

    fn run(&self, kernel: ConvKernel) -> Result<Vec<f32>, String> {
        let c = &self.0;
        let mut geometry = c.geometry();
        geometry.filter_shape = [c.out_d, c.k[0], c.k[1], c.in_d];
        let (x, f, b) = c.data(geometry.filter_shape.iter().product());
        let p = Conv2dParams::<F32> { geometry, quant: (), clamp: clamp_of(c.clamp) };
        let mut out = vec![f32::NAN; geometry.output_shape.iter().product()];
        kernel(&p, &x, &f, c.bias.then_some(&b[..]), &mut out);
        Ok(out)
    }

    fn check(&self, got: &Vec<f32>) -> Result<(), String> {
        let c = &self.0;
        let [kh, kw] = c.k;
        let (x, f, b) = c.data(c.out_d * kh * kw * c.in_d);
        let (exact, real, bound) = c.naive(&x, &f, &b, |oc, ky, kx| (0..c.in_d).map(|ic| (ic, ((oc * kh + ky) * kw + kx) * c.in_d + ic)).collect());
        compare(got, &exact, &real, &bound, clamp_of(c.clamp))
    }
}

kernel_tests!(conv_2d, Conv, conv_2d_f32);

#[derive(Clone, Debug)]
struct Depthwise(ConvF32);

impl KernelCase for Depthwise {
    type Kernel = DepthwiseKernel;
    type Output = Vec<f32>;
    const REFERENCE: DepthwiseKernel = depthwise_conv_2d_f32;
    const CASES: Option<u32> = Some(120);

    fn strategy() -> BoxedStrategy<Self> {
        ConvF32::strategy(true).prop_map(Depthwise).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        ConvF32::edge_cases(true).into_iter().map(Depthwise).collect()
    }

    fn run(&self, kernel: DepthwiseKernel) -> Result<Vec<f32>, String> {
        let c = &self.0;
        let mut geometry = c.geometry();
        geometry.filter_shape = [1, c.k[0], c.k[1], c.out_d];
        let (x, f, b) = c.data(geometry.filter_shape.iter().product());
        let p = DepthwiseConv2dParams::<F32> { geometry, quant: (), clamp: clamp_of(c.clamp) };
        let mut out = vec![f32::NAN; geometry.output_shape.iter().product()];
        kernel(&p, &x, &f, c.bias.then_some(&b[..]), &mut out);
        Ok(out)
    }

    fn check(&self, got: &Vec<f32>) -> Result<(), String> {
        let c = &self.0;
        let [kh, kw] = c.k;
        let mult = c.out_d / c.in_d;
        let (x, f, b) = c.data(kh * kw * c.out_d);
        let (exact, real, bound) = c.naive(&x, &f, &b, |oc, ky, kx| vec![(oc / mult, (ky * kw + kx) * c.out_d + oc)]);
        compare(got, &exact, &real, &bound, clamp_of(c.clamp))
    }
}

kernel_tests!(depthwise_conv_2d, Depthwise, depthwise_conv_2d_f32);

// ---------------------------------------------------------------------------------------
// FULLY_CONNECTED float32.

#[derive(Clone, Debug)]
struct FullyConnected {
    batches: usize,
    depth: usize,
    units: usize,
    clamp: usize,
    bias: bool,
    scale: f32,
    seed: u64,
}

type FcKernel = fn(&FullyConnectedParams<F32>, &[f32], &[f32], Option<&[f32]>, &mut [f32]);

impl FullyConnected {
    fn data(&self) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
        let mut rng = Rng(self.seed);
        let x = floats(&mut rng, self.batches * self.depth, self.scale);
        let w = floats(&mut rng, self.units * self.depth, 1.0);
        let b = floats(&mut rng, self.units, self.scale);
        (x, w, b)
    }
}

impl KernelCase for FullyConnected {
    type Kernel = FcKernel;
    type Output = Vec<f32>;
    const REFERENCE: FcKernel = fully_connected_f32;

    fn strategy() -> BoxedStrategy<Self> {
        (0usize..4, 1usize..70, 1usize..20, 0usize..4, any::<bool>(), any::<u64>())
            .prop_map(|(batches, depth, units, clamp, bias, seed)| FullyConnected { batches, depth, units, clamp, bias, scale: 1.0, seed })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        for n in LANE_TAILS {
            v.push(FullyConnected { batches: 1, depth: n, units: 3, clamp: n, bias: n % 2 == 0, scale: 1.0, seed: n as u64 });
            v.push(FullyConnected { batches: 2, depth: 5, units: n, clamp: n + 1, bias: true, scale: 1.0, seed: n as u64 });
        }
        for (i, scale) in [1e-30f32, 1e-3, 1e3, 1e15].into_iter().enumerate() {
            for clamp in 0..4 {
                v.push(FullyConnected { batches: 2, depth: 16, units: 16, clamp, bias: true, scale, seed: i as u64 });
            }
        }
        v.push(FullyConnected { batches: 0, depth: 4, units: 3, clamp: 0, bias: true, scale: 1.0, seed: 0 });
        v
    }

    fn run(&self, kernel: FcKernel) -> Result<Vec<f32>, String> {
        let (x, w, b) = self.data();
        let geometry = FullyConnectedGeometry { batches: self.batches, input_depth: self.depth, output_depth: self.units };
        let p = FullyConnectedParams::<F32> { geometry, weights_offset: 0, quant: (), clamp: clamp_of(self.clamp) };
        let mut out = vec![f32::NAN; self.batches * self.units];
        kernel(&p, &x, &w, self.bias.then_some(&b[..]), &mut out);
        Ok(out)
    }

    fn check(&self, got: &Vec<f32>) -> Result<(), String> {
        let (x, w, b) = self.data();
        let c = clamp_of(self.clamp);
        let (mut exact, mut real, mut bound) = (Vec::new(), Vec::new(), Vec::new());
        for bi in 0..self.batches {
            for u in 0..self.units {
                let (mut t, mut r, mut m) = (0f32, 0f64, 0f64);
                for d in 0..self.depth {
                    let (xv, wv) = (x[bi * self.depth + d], w[u * self.depth + d]);
                    t += xv * wv;
                    r += xv as f64 * wv as f64;
                    m += (xv as f64 * wv as f64).abs();
                }
                let bv = if self.bias { b[u] } else { 0.0 };
                exact.push(act(t + bv, c));
                real.push(r + bv as f64);
                bound.push(m + (bv as f64).abs());
            }
        }
        compare(got, &exact, &real, &bound, c)
    }
}

kernel_tests!(fully_connected, FullyConnected, fully_connected_f32);

// ---------------------------------------------------------------------------------------
// AVERAGE_POOL_2D and MAX_POOL_2D float32.

#[derive(Clone, Debug)]
struct PoolF32 {
    batches: usize,
    hw: [usize; 2],
    depth: usize,
    k: [usize; 2],
    stride: [usize; 2],
    /// `[top, left]`, below the window size so every window overlaps the input.
    pad: [usize; 2],
    clamp: usize,
    seed: u64,
}

impl PoolF32 {
    fn strategy() -> BoxedStrategy<Self> {
        (1usize..3, [1usize..8, 1usize..8], 1usize..20, [1usize..4, 1usize..4], [1usize..3, 1usize..3], [0usize..3, 0usize..3], 0usize..4, any::<u64>())
            .prop_map(|(batches, hw, depth, k, stride, pad, clamp, seed)| PoolF32 { batches, hw, depth, k, stride, pad: [pad[0].min(k[0] - 1), pad[1].min(k[1] - 1)], clamp, seed })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        for n in LANE_TAILS {
            v.push(PoolF32 { batches: 1, hw: [4, 5], depth: n, k: [2, 2], stride: [2, 2], pad: [0, 0], clamp: n, seed: n as u64 });
            v.push(PoolF32 { batches: 1, hw: [5, 5], depth: n, k: [3, 3], stride: [2, 2], pad: [1, 1], clamp: n + 1, seed: n as u64 });
        }
        for (i, pad) in [[0, 0], [1, 0], [0, 1], [2, 2], [1, 2]].into_iter().enumerate() {
            for stride in 1..=2 {
                v.push(PoolF32 { batches: 2, hw: [4, 5], depth: 3, k: [3, 3], stride: [stride; 2], pad, clamp: i, seed: i as u64 });
            }
        }
        // A window over the whole input (global pooling).
        v.push(PoolF32 { batches: 1, hw: [8, 8], depth: 64, k: [8, 8], stride: [8, 8], pad: [0, 0], clamp: 0, seed: 7 });
        v
    }

    fn geometry(&self) -> PoolGeometry {
        let [h, w] = self.hw;
        PoolGeometry {
            input_shape: [self.batches, h, w, self.depth],
            output_height: out_size(h, self.pad[0], self.k[0], self.stride[0], 1),
            output_width: out_size(w, self.pad[1], self.k[1], self.stride[1], 1),
            filter_height: self.k[0],
            filter_width: self.k[1],
            stride_height: self.stride[0],
            stride_width: self.stride[1],
            pad_top: self.pad[0],
            pad_left: self.pad[1],
        }
    }

    fn input(&self) -> Vec<f32> {
        floats(&mut Rng(self.seed), self.geometry().input_shape.iter().product(), 4.0)
    }

    /// The naive pool: TFLite's order per channel (rows, then columns of the clipped
    /// window); `average` or max.
    fn naive(&self, average: bool) -> (Vec<f32>, Vec<f64>, Vec<f64>) {
        let g = self.geometry();
        let x = self.input();
        let [batches, h, w, depth] = g.input_shape;
        let c = clamp_of(self.clamp);
        let (mut exact, mut real, mut bound) = (Vec::new(), Vec::new(), Vec::new());
        for b in 0..batches { for oy in 0..g.output_height { for ox in 0..g.output_width { for ch in 0..depth {
            let y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
            let x0 = (ox * g.stride_width) as isize - g.pad_left as isize;
            let (mut t, mut mx, mut n, mut r, mut m) = (0f32, f32::MIN, 0f32, 0f64, 0f64);
            for ky in 0..g.filter_height as isize { for kx in 0..g.filter_width as isize {
                let (iy, ix) = (y0 + ky, x0 + kx);
                if iy < 0 || ix < 0 || iy >= h as isize || ix >= w as isize {
                    continue;
                }
                let v = x[((b * h + iy as usize) * w + ix as usize) * depth + ch];
                t += v;
                mx = if mx < v { v } else { mx };
                n += 1.0;
                r += v as f64;
                m += (v as f64).abs();
            }}
            if average {
                exact.push(act(t / n, c));
                real.push(r / n as f64);
                bound.push(m / n as f64);
            } else {
                exact.push(act(mx, c));
                real.push(mx as f64);
                bound.push(0.0);
            }
        }}}}
        (exact, real, bound)
    }
}

type AveragePoolKernel = fn(&AveragePool2dParams<F32>, &[f32], &mut [f32]);
type MaxPoolKernel = fn(&MaxPool2dParams<F32>, &[f32], &mut [f32]);

#[derive(Clone, Debug)]
struct AveragePool(PoolF32);

impl KernelCase for AveragePool {
    type Kernel = AveragePoolKernel;
    type Output = Vec<f32>;
    const REFERENCE: AveragePoolKernel = average_pool_2d_f32;

    fn strategy() -> BoxedStrategy<Self> {
        PoolF32::strategy().prop_map(AveragePool).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        PoolF32::edge_cases().into_iter().map(AveragePool).collect()
    }

    fn run(&self, kernel: AveragePoolKernel) -> Result<Vec<f32>, String> {
        let g = self.0.geometry();
        let mut out = vec![f32::NAN; g.output_len()];
        kernel(&AveragePool2dParams { geometry: g, clamp: clamp_of(self.0.clamp) }, &self.0.input(), &mut out);
        Ok(out)
    }

    fn check(&self, got: &Vec<f32>) -> Result<(), String> {
        let (exact, real, bound) = self.0.naive(true);
        compare(got, &exact, &real, &bound, clamp_of(self.0.clamp))
    }
}

kernel_tests!(average_pool_2d, AveragePool, average_pool_2d_f32);

#[derive(Clone, Debug)]
struct MaxPool(PoolF32);

impl KernelCase for MaxPool {
    type Kernel = MaxPoolKernel;
    type Output = Vec<f32>;
    const REFERENCE: MaxPoolKernel = max_pool_2d_f32;

    fn strategy() -> BoxedStrategy<Self> {
        PoolF32::strategy().prop_map(MaxPool).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        PoolF32::edge_cases().into_iter().map(MaxPool).collect()
    }

    fn run(&self, kernel: MaxPoolKernel) -> Result<Vec<f32>, String> {
        let g = self.0.geometry();
        let mut out = vec![f32::NAN; g.output_len()];
        kernel(&MaxPool2dParams { geometry: g, clamp: clamp_of(self.0.clamp) }, &self.0.input(), &mut out);
        Ok(out)
    }

    fn check(&self, got: &Vec<f32>) -> Result<(), String> {
        let (exact, real, bound) = self.0.naive(false);
        compare(got, &exact, &real, &bound, clamp_of(self.0.clamp))
    }
}

kernel_tests!(max_pool_2d, MaxPool, max_pool_2d_f32);

// ---------------------------------------------------------------------------------------
// SOFTMAX float32.

#[derive(Clone, Debug)]
struct Softmax {
    depth: usize,
    beta: f32,
    input: Vec<f32>,
}

type SoftmaxKernel = fn(&SoftmaxF32Params, &[f32], &mut [f32]);

impl KernelCase for Softmax {
    type Kernel = SoftmaxKernel;
    type Output = Vec<f32>;
    const REFERENCE: SoftmaxKernel = softmax_f32;

    fn strategy() -> BoxedStrategy<Self> {
        (0usize..4, 1usize..40, 0.1f32..3.0, 0.1f32..30.0, any::<u64>())
            .prop_map(|(rows, depth, beta, scale, seed)| Softmax { depth, beta, input: floats(&mut Rng(seed), rows * depth, scale) })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = vec![
            // One huge logit (the others underflow to 0), all equal, +-1e30.
            Softmax { depth: 4, beta: 1.0, input: vec![1000.0, 0.0, -5.0, 3.0] },
            Softmax { depth: 5, beta: 1.0, input: vec![2.5; 5] },
            Softmax { depth: 3, beta: 1.0, input: vec![1e30, -1e30, 0.0] },
            Softmax { depth: 1, beta: 0.5, input: vec![-7.0, 7.0] },
        ];
        for n in LANE_TAILS {
            v.push(Softmax { depth: n, beta: 1.0, input: floats(&mut Rng(n as u64), 2 * n, 3.0) });
        }
        v
    }

    fn run(&self, kernel: SoftmaxKernel) -> Result<Vec<f32>, String> {
        let mut out = vec![f32::NAN; self.input.len()];
        kernel(&SoftmaxF32Params { depth: self.depth, beta: self.beta }, &self.input, &mut out);
        Ok(out)
    }

    /// TFLite's steps with the host's `expf` (within one ulp per output of ours, the
    /// `math::expf` difference carried through), and the real softmax within 1e-6.
    fn check(&self, got: &Vec<f32>) -> Result<(), String> {
        for (r, (xs, ys)) in self.input.chunks(self.depth).zip(got.chunks(self.depth)).enumerate() {
            let max = xs.iter().fold(f32::MIN, |m, &x| if m < x { x } else { m });
            let e: Vec<f32> = xs.iter().map(|&x| ((x - max) * self.beta).exp()).collect();
            let sum: f32 = e.iter().sum();
            let real: Vec<f64> = xs.iter().map(|&x| ((x as f64 - max as f64) * self.beta as f64).exp()).collect();
            let real_sum: f64 = real.iter().sum();
            for c in 0..self.depth {
                let want = e[c] / sum;
                if (ys[c] - want).abs() > 4.0 * f32::EPSILON * want.max(f32::MIN_POSITIVE) {
                    return Err(format!("row {r} output {c}: {:e}, TFLite's steps give {want:e}", ys[c]));
                }
                if (ys[c] as f64 - real[c] / real_sum).abs() > 1e-6 {
                    return Err(format!("row {r} output {c}: {:e}, the real softmax is {:e}", ys[c], real[c] / real_sum));
                }
            }
        }
        Ok(())
    }
}

kernel_tests!(softmax, Softmax, softmax_f32);

// ---------------------------------------------------------------------------------------
// The packed float32 variants (`kernels::f32x8`): AVX2+FMA, NEON and the portable form.
//
// They are not TFLite's order: each output starts from its bias and accumulates its taps
// in the packed order, fused where the ISA has it. Tolerance, from the accumulation length:
// a sum of `n` terms in any order (fused or not) is within `γ_n = n * 2^-24 / (1 - n *
// 2^-24)` times the sum of the terms' magnitudes of the real sum, and so is the reference,
// so the packed result must be within `2 * (n + 1) * 2^-24 * (sum |x * w| + |b|)` of the
// real (f64) result, `n` the window's taps times its input channels (+1: the bias). The
// bound is checked against the f64 result, and the packed result against the reference
// within twice that.

/// The f64 check of a packed variant: `taps` is the accumulation length per output.
fn compare_packed(got: &[f32], reference: &[f32], real: &[f64], bound: &[f64], taps: usize, c: Clamp<f32>) -> Result<(), String> {
    if got.len() != real.len() {
        return Err(format!("{} outputs, expected {}", got.len(), real.len()));
    }
    let gamma = 2.0 * (taps as f64 + 1.0) * (-24f64).exp2();
    for i in 0..got.len() {
        let r = real[i].clamp(c.min as f64, c.max as f64);
        let tol = gamma * bound[i] + 1e-38;
        if (got[i] as f64 - r).abs() > tol {
            return Err(format!("output {i}: {:e}, the real result is {r:e} (tolerance {tol:e}, {taps} taps)", got[i]));
        }
        if (got[i] as f64 - reference[i] as f64).abs() > 2.0 * tol {
            return Err(format!("output {i}: {:e}, the reference gives {:e} (tolerance {:e})", got[i], reference[i], 2.0 * tol));
        }
    }
    Ok(())
}

/// `packed_tests!(name, if detected, Case, kernel)`: the oracle property and the edge cases
/// for one implementation of a packed variant, skipped and reported `UNTESTED` where this
/// machine cannot execute it (`TFLC_TEST_FEATURE=name` makes that a failure).
macro_rules! packed_tests {
    ($name:ident, if $detected:expr, $case:ty, $kernel:expr) => {
        mod $name {
            use super::*;
            use crate::kernels::test_util::{available, check_oracle, config};

            fn here() -> bool {
                available(stringify!($name), $detected)
            }

            proptest! {
                #![proptest_config(config::<$case>())]
                #[test]
                fn oracle(case in <$case as KernelCase>::strategy()) {
                    if here() {
                        check_oracle(&case, $kernel)?;
                    }
                }
            }

            #[test]
            fn edge_cases() {
                if !here() {
                    return;
                }
                for case in <$case as KernelCase>::edge_cases() {
                    if let Err(e) = check_oracle(&case, $kernel) {
                        panic!("{case:?}: {e}");
                    }
                }
            }
        }
    };
}

/// Edge cases for the packed convolutions on top of the reference's: rows wide enough for
/// the four-pixel blocks, with borders, at every channel count 1..=33 (block tails of 8
/// and 16), strides and dilations 2.
fn packed_edge_cases(depthwise: bool) -> Vec<ConvF32> {
    let mut v = ConvF32::edge_cases(depthwise);
    let od = |in_d: usize, m: usize| if depthwise { in_d } else { m };
    for n in LANE_TAILS {
        v.push(ConvF32::plain([2, 9], n, od(n, n), [1, 1], [0; 4], n as u64));
        v.push(ConvF32::plain([3, 11], if depthwise { n } else { 3 }, od(n, n), [3, 3], [1; 4], n as u64 + 7));
        v.push(ConvF32::plain([4, 10], n, od(n, 17 - n.min(16)), [3, 3], [1, 1, 2, 0], n as u64 + 70));
    }
    for (stride, dil) in [(2, 1), (1, 2), (2, 2)] {
        v.push(ConvF32 { stride: [stride; 2], dil: [dil; 2], ..ConvF32::plain([9, 13], 4, od(4, 20), [3, 3], [1, 2, 1, 2], 5) });
    }
    v.push(ConvF32 { batches: 2, ..ConvF32::plain([5, 12], 8, od(8, 24), [5, 5], [2; 4], 9) });
    v
}

fn packed_strategy(depthwise: bool) -> BoxedStrategy<ConvF32> {
    // Wider rows than the reference's strategy, so the four-pixel blocks run; depthwise
    // cases have depth multiplier 1 (others take the reference variant).
    (ConvF32::strategy(depthwise), 4usize..14, 1usize..24)
        .prop_map(move |(mut c, w, d)| {
            c.hw[1] = w;
            if depthwise {
                c.in_d = d;
                c.out_d = d;
            } else {
                c.out_d = d;
            }
            c
        })
        .boxed()
}

#[derive(Clone, Debug)]
struct ConvPacked(ConvF32);

impl KernelCase for ConvPacked {
    type Kernel = ConvKernel;
    type Output = Vec<f32>;
    const REFERENCE: ConvKernel = conv_2d_f32;
    const CASES: Option<u32> = Some(120);

    fn strategy() -> BoxedStrategy<Self> {
        packed_strategy(false).prop_map(ConvPacked).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        packed_edge_cases(false).into_iter().map(ConvPacked).collect()
    }

    fn run(&self, kernel: ConvKernel) -> Result<Vec<f32>, String> {
        Conv(self.0.clone()).run(kernel)
    }

    fn check(&self, got: &Vec<f32>) -> Result<(), String> {
        let c = &self.0;
        let [kh, kw] = c.k;
        let (x, f, b) = c.data(c.out_d * kh * kw * c.in_d);
        let (_, real, bound) = c.naive(&x, &f, &b, |oc, ky, kx| (0..c.in_d).map(|ic| (ic, ((oc * kh + ky) * kw + kx) * c.in_d + ic)).collect());
        let reference = Conv(c.clone()).run(conv_2d_f32)?;
        compare_packed(got, &reference, &real, &bound, kh * kw * c.in_d, clamp_of(c.clamp))
    }
}

#[derive(Clone, Debug)]
struct DepthwisePacked(ConvF32);

impl KernelCase for DepthwisePacked {
    type Kernel = DepthwiseKernel;
    type Output = Vec<f32>;
    const REFERENCE: DepthwiseKernel = depthwise_conv_2d_f32;
    const CASES: Option<u32> = Some(120);

    fn strategy() -> BoxedStrategy<Self> {
        packed_strategy(true).prop_map(DepthwisePacked).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        packed_edge_cases(true).into_iter().map(DepthwisePacked).collect()
    }

    fn run(&self, kernel: DepthwiseKernel) -> Result<Vec<f32>, String> {
        Depthwise(self.0.clone()).run(kernel)
    }

    fn check(&self, got: &Vec<f32>) -> Result<(), String> {
        let c = &self.0;
        let [kh, kw] = c.k;
        let mult = c.out_d / c.in_d;
        let (x, f, b) = c.data(kh * kw * c.out_d);
        let (_, real, bound) = c.naive(&x, &f, &b, |oc, ky, kx| vec![(oc / mult, (ky * kw + kx) * c.out_d + oc)]);
        let reference = Depthwise(c.clone()).run(depthwise_conv_2d_f32)?;
        compare_packed(got, &reference, &real, &bound, kh * kw, clamp_of(c.clamp))
    }
}

#[derive(Clone, Debug)]
struct FcPacked(FullyConnected);

impl KernelCase for FcPacked {
    type Kernel = FcKernel;
    type Output = Vec<f32>;
    const REFERENCE: FcKernel = fully_connected_f32;

    fn strategy() -> BoxedStrategy<Self> {
        (0usize..4, 1usize..90, 1usize..70, 0usize..4, any::<bool>(), any::<u64>())
            .prop_map(|(batches, depth, units, clamp, bias, seed)| FcPacked(FullyConnected { batches, depth, units, clamp, bias, scale: 1.0, seed }))
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v: Vec<Self> = FullyConnected::edge_cases().into_iter().map(FcPacked).collect();
        // Unit counts around the 32-unit (AVX-512: 64-unit) groups and the 8-unit blocks, the
        // two-chain tail of 1 to 3 blocks.
        for units in [31, 32, 33, 40, 63, 64, 65, 72, 96, 120, 136] {
            v.push(FcPacked(FullyConnected { batches: 2, depth: 37, units, clamp: units, bias: units % 2 == 0, scale: 1.0, seed: units as u64 }));
        }
        v
    }

    fn run(&self, kernel: FcKernel) -> Result<Vec<f32>, String> {
        self.0.run(kernel)
    }

    fn check(&self, got: &Vec<f32>) -> Result<(), String> {
        let fc = &self.0;
        let (x, w, b) = fc.data();
        let c = clamp_of(fc.clamp);
        let (mut real, mut bound) = (Vec::new(), Vec::new());
        for bi in 0..fc.batches {
            for u in 0..fc.units {
                let (mut r, mut m) = (0f64, 0f64);
                for d in 0..fc.depth {
                    let (xv, wv) = (x[bi * fc.depth + d] as f64, w[u * fc.depth + d] as f64);
                    r += xv * wv;
                    m += (xv * wv).abs();
                }
                let bv = if fc.bias { b[u] as f64 } else { 0.0 };
                real.push(r + bv);
                bound.push(m + bv.abs());
            }
        }
        let reference = fc.run(fully_connected_f32)?;
        compare_packed(got, &reference, &real, &bound, fc.depth, c)
    }
}

/// One implementation of the packed variants, as the suites run it: select for
/// `TargetClass::Host` and pack as the compiler does, then run `imp`'s loop nest.
mod packed {
    use super::*;
    use crate::isa::TargetClass;
    use crate::kernels::conv_2d::{conv_2d_f32_packed, Conv2dF32Variant};
    use crate::kernels::depthwise_conv_2d::{depthwise_conv_2d_f32_packed, DepthwiseConv2dF32Variant};
    use crate::kernels::fully_connected::{fully_connected_f32_packed, FullyConnectedF32Variant};

    type ConvRun = fn(&Conv2dParams<F32>, &[f32], &[f32], &mut [f32]);
    type DwRun = fn(&DepthwiseConv2dParams<F32>, &[f32], &[f32], &mut [f32]);
    type FcRun = fn(&FullyConnectedParams<F32>, &[f32], &[f32], &mut [f32]);

    pub(super) fn conv(imp: ConvRun, p: &Conv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
        let v = Conv2dF32Variant::select(p, TargetClass::Host);
        let mut packed = vec![f32::NAN; v.packed_len(&p.geometry)];
        v.pack(p, f, b, &mut packed);
        match v {
            Conv2dF32Variant::Reference => conv_2d_f32(p, x, f, b, out),
            Conv2dF32Variant::Packed => imp(p, x, &packed, out),
            Conv2dF32Variant::Blocked => panic!("hosts select Packed"),
        }
    }

    pub(super) fn depthwise(imp: DwRun, p: &DepthwiseConv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
        let v = DepthwiseConv2dF32Variant::select(p, TargetClass::Host);
        let mut packed = vec![f32::NAN; v.packed_len(&p.geometry)];
        v.pack(p, f, b, &mut packed);
        match v {
            DepthwiseConv2dF32Variant::Reference => depthwise_conv_2d_f32(p, x, f, b, out),
            DepthwiseConv2dF32Variant::Packed => imp(p, x, &packed, out),
        }
    }

    pub(super) fn fc(imp: FcRun, p: &FullyConnectedParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
        let v = FullyConnectedF32Variant::select(p, TargetClass::Host);
        let mut packed = vec![f32::NAN; v.packed_len(&p.geometry)];
        v.pack(p, f, b, &mut packed);
        match v {
            FullyConnectedF32Variant::Reference => fully_connected_f32(p, x, f, b, out),
            FullyConnectedF32Variant::Packed => imp(p, x, &packed, out),
            FullyConnectedF32Variant::Blocked => panic!("hosts select Packed"),
        }
    }

    /// The portable eight-lane form.
    pub(super) mod portable {
        use super::*;
        use crate::kernels::f32x8::{self, Portable};
        pub(crate) fn conv(p: &Conv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::conv(|p, x, k, o| f32x8::conv_2d(Portable, p, x, k, o), p, x, f, b, out)
        }
        pub(crate) fn depthwise(p: &DepthwiseConv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::depthwise(|p, x, k, o| f32x8::depthwise_conv_2d(Portable, p, x, k, o), p, x, f, b, out)
        }
        pub(crate) fn fc(p: &FullyConnectedParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::fc(|p, x, k, o| f32x8::fully_connected(Portable, p, x, k, o), p, x, f, b, out)
        }
    }

    /// The public variant functions, as generated code calls them (whatever `crate::isa`
    /// selected).
    pub(super) mod public_api {
        use super::*;
        pub(crate) fn conv(p: &Conv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::conv(conv_2d_f32_packed, p, x, f, b, out)
        }
        pub(crate) fn depthwise(p: &DepthwiseConv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::depthwise(depthwise_conv_2d_f32_packed, p, x, f, b, out)
        }
        pub(crate) fn fc(p: &FullyConnectedParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::fc(fully_connected_f32_packed, p, x, f, b, out)
        }
    }

    /// AVX2+FMA, called directly (only where detected).
    #[cfg(target_arch = "x86_64")]
    pub(super) mod avx2_fma {
        use super::*;
        use crate::arch::x86_64::f32 as imp;

        pub(crate) fn detected() -> bool {
            crate::arch::x86_64::tests::detected()
        }
        fn token() -> imp::Avx2Fma {
            imp::Avx2Fma::with(crate::arch::x86_64::Avx2::detect().expect("the suite checked detection first"))
        }
        pub(crate) fn conv(p: &Conv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::conv(|p, x, k, o| imp::conv_2d_f32_packed(token(), p, x, k, o), p, x, f, b, out)
        }
        pub(crate) fn depthwise(p: &DepthwiseConv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::depthwise(|p, x, k, o| imp::depthwise_conv_2d_f32_packed(token(), p, x, k, o), p, x, f, b, out)
        }
        pub(crate) fn fc(p: &FullyConnectedParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::fc(|p, x, k, o| imp::fully_connected_f32_packed(token(), p, x, k, o), p, x, f, b, out)
        }
    }

    /// AVX-512F, called directly (only where detected).
    #[cfg(target_arch = "x86_64")]
    pub(super) mod avx512 {
        use super::*;
        use crate::arch::x86_64::f32 as imp;

        pub(crate) fn detected() -> bool {
            let std_says = crate::arch::x86_64::tests::detected()
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512dq")
                && std::is_x86_feature_detected!("avx512vl");
            assert_eq!(std_says, imp::Avx512F32::detect().is_some());
            std_says
        }
        fn token() -> imp::Avx512F32 {
            imp::Avx512F32::detect().expect("the suite checked detection first")
        }
        pub(crate) fn conv(p: &Conv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::conv(|p, x, k, o| imp::avx512::conv_2d_f32_packed(token(), p, x, k, o), p, x, f, b, out)
        }
        pub(crate) fn depthwise(p: &DepthwiseConv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::depthwise(|p, x, k, o| imp::avx512::depthwise_conv_2d_f32_packed(token(), p, x, k, o), p, x, f, b, out)
        }
        pub(crate) fn fc(p: &FullyConnectedParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::fc(|p, x, k, o| imp::avx512::fully_connected_f32_packed(token(), p, x, k, o), p, x, f, b, out)
        }
    }

    /// NEON, called directly (aarch64 builds).
    #[cfg(tflc_neon)]
    pub(super) mod neon {
        use super::*;
        use crate::arch::aarch64::f32::{self as imp, Neon};

        fn token() -> Neon {
            Neon::selected().expect("NEON builds always have it")
        }
        pub(crate) fn conv(p: &Conv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::conv(|p, x, k, o| imp::conv_2d_f32_packed(token(), p, x, k, o), p, x, f, b, out)
        }
        pub(crate) fn depthwise(p: &DepthwiseConv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::depthwise(|p, x, k, o| imp::depthwise_conv_2d_f32_packed(token(), p, x, k, o), p, x, f, b, out)
        }
        pub(crate) fn fc(p: &FullyConnectedParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
            super::fc(|p, x, k, o| imp::fully_connected_f32_packed(token(), p, x, k, o), p, x, f, b, out)
        }
    }
}

packed_tests!(conv_2d_packed_portable, if true, ConvPacked, packed::portable::conv);
packed_tests!(conv_2d_packed_public_api, if true, ConvPacked, packed::public_api::conv);
packed_tests!(depthwise_packed_portable, if true, DepthwisePacked, packed::portable::depthwise);
packed_tests!(depthwise_packed_public_api, if true, DepthwisePacked, packed::public_api::depthwise);
packed_tests!(fully_connected_packed_portable, if true, FcPacked, packed::portable::fc);
packed_tests!(fully_connected_packed_public_api, if true, FcPacked, packed::public_api::fc);
#[cfg(target_arch = "x86_64")]
packed_tests!(conv_2d_packed_avx2_fma, if packed::avx2_fma::detected(), ConvPacked, packed::avx2_fma::conv);
#[cfg(target_arch = "x86_64")]
packed_tests!(depthwise_packed_avx2_fma, if packed::avx2_fma::detected(), DepthwisePacked, packed::avx2_fma::depthwise);
#[cfg(target_arch = "x86_64")]
packed_tests!(fully_connected_packed_avx2_fma, if packed::avx2_fma::detected(), FcPacked, packed::avx2_fma::fc);
#[cfg(target_arch = "x86_64")]
packed_tests!(conv_2d_packed_avx512, if packed::avx512::detected(), ConvPacked, packed::avx512::conv);
#[cfg(target_arch = "x86_64")]
packed_tests!(depthwise_packed_avx512, if packed::avx512::detected(), DepthwisePacked, packed::avx512::depthwise);
#[cfg(target_arch = "x86_64")]
packed_tests!(fully_connected_packed_avx512, if packed::avx512::detected(), FcPacked, packed::avx512::fc);

/// `same_bits_tests!(name, Case, avx2 kernel, avx512 kernel)`: AVX-512 computes every output
/// with the same fused multiply-adds in the same order as AVX2+FMA (more pixels or lanes per
/// pass, one 16-lane vector instead of two 8-lane ones), so the two must give the same bits,
/// on random cases and on the edge cases.
macro_rules! same_bits_tests {
    ($name:ident, $case:ty, $avx2:expr, $avx512:expr) => {
        #[cfg(target_arch = "x86_64")]
        mod $name {
            use super::*;
            use crate::kernels::test_util::{available, config};

            fn same_bits(case: &$case) -> Result<(), String> {
                let a = case.run($avx2)?;
                let b = case.run($avx512)?;
                match a.iter().zip(&b).position(|(x, y)| x.to_bits() != y.to_bits()) {
                    Some(i) => Err(format!("output {i}: AVX-512 {:e}, AVX2+FMA {:e}", b[i], a[i])),
                    None if a.len() != b.len() => Err(format!("{} outputs, AVX2+FMA {}", b.len(), a.len())),
                    None => Ok(()),
                }
            }

            fn here() -> bool {
                available(stringify!($name), packed::avx512::detected() && packed::avx2_fma::detected())
            }

            proptest! {
                #![proptest_config(config::<$case>())]
                #[test]
                fn random(case in <$case as KernelCase>::strategy()) {
                    if here() {
                        same_bits(&case).map_err(TestCaseError::fail)?;
                    }
                }
            }

            #[test]
            fn edge_cases() {
                if !here() {
                    return;
                }
                for case in <$case as KernelCase>::edge_cases() {
                    if let Err(e) = same_bits(&case) {
                        panic!("{case:?}: {e}");
                    }
                }
            }
        }
    };
}

same_bits_tests!(conv_2d_packed_avx512_bits, ConvPacked, packed::avx2_fma::conv, packed::avx512::conv);
same_bits_tests!(depthwise_packed_avx512_bits, DepthwisePacked, packed::avx2_fma::depthwise, packed::avx512::depthwise);
same_bits_tests!(fully_connected_packed_avx512_bits, FcPacked, packed::avx2_fma::fc, packed::avx512::fc);

#[cfg(tflc_neon)]
packed_tests!(conv_2d_packed_neon, if true, ConvPacked, packed::neon::conv);
#[cfg(tflc_neon)]
packed_tests!(depthwise_packed_neon, if true, DepthwisePacked, packed::neon::depthwise);
#[cfg(tflc_neon)]
packed_tests!(fully_connected_packed_neon, if true, FcPacked, packed::neon::fc);

// ---------------------------------------------------------------------------------------
// The Arm float32 variants (`kernels::blocked_f32`: four output channels per pass, TFLite's
// order): the reference suites' cases, selected and packed for Arm as the compiler does; the
// `if true` form also compares every output bit for bit with the reference.

mod blocked {
    use super::*;
    use crate::isa::TargetClass;
    use crate::kernels::conv_2d::{conv_2d_f32_blocked, Conv2dF32Variant};
    use crate::kernels::fully_connected::{fully_connected_f32_blocked, FullyConnectedF32Variant};

    pub(super) fn conv(p: &Conv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
        let v = Conv2dF32Variant::select(p, TargetClass::ArmDsp);
        assert_eq!(v, Conv2dF32Variant::select(p, TargetClass::Arm));
        let mut packed = vec![f32::NAN; v.packed_len(&p.geometry)];
        v.pack(p, f, b, &mut packed);
        match v {
            Conv2dF32Variant::Blocked => conv_2d_f32_blocked(p, x, &packed, b, out),
            Conv2dF32Variant::Reference => conv_2d_f32(p, x, f, b, out),
            Conv2dF32Variant::Packed => panic!("Arm selects Blocked"),
        }
    }

    pub(super) fn fc(p: &FullyConnectedParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
        let v = FullyConnectedF32Variant::select(p, TargetClass::ArmDsp);
        let mut packed = vec![f32::NAN; v.packed_len(&p.geometry)];
        v.pack(p, f, b, &mut packed);
        match v {
            FullyConnectedF32Variant::Blocked => fully_connected_f32_blocked(p, x, &packed, b, out),
            FullyConnectedF32Variant::Reference => fully_connected_f32(p, x, f, b, out),
            FullyConnectedF32Variant::Packed => panic!("Arm selects Blocked"),
        }
    }

    /// The suites reach the blocked variants (not only the reference fallback).
    #[test]
    fn cases_reach_the_blocked_variants() {
        let c = &ConvF32::edge_cases(false)[0];
        let mut g = c.geometry();
        g.filter_shape = [c.out_d, c.k[0], c.k[1], c.in_d];
        assert_eq!(Conv2dF32Variant::select(&Conv2dParams { geometry: g, quant: (), clamp: clamp_of(0) }, TargetClass::ArmDsp), Conv2dF32Variant::Blocked);
        let geometry = FullyConnectedGeometry { batches: 1, input_depth: 3, output_depth: 5 };
        let p = FullyConnectedParams::<F32> { geometry, weights_offset: 0, quant: (), clamp: clamp_of(0) };
        assert_eq!(FullyConnectedF32Variant::select(&p, TargetClass::Arm), FullyConnectedF32Variant::Blocked);
    }
}

kernel_tests!(conv_2d_blocked, if true, Conv, blocked::conv);
kernel_tests!(fully_connected_blocked, if true, FullyConnected, blocked::fc);

// ---------------------------------------------------------------------------------------
// float16 weights kept in flash (`conv_2d_f32_f16w`, `depthwise_conv_2d_f32_f16w`,
// `fully_connected_f32_f16w`, numerics `F32H`): the float32 suites' cases with weights that
// are float16 values (normal and subnormal halves, both zeros). Each case runs the f16
// kernel on the halves' bits and must equal, bit for bit, the float32 reference on the
// exactly widened weights, and pass the float32 oracle (TFLite's order and the f64 bound).

mod f16_weights {
    use super::*;
    use crate::kernels::blocked_f32;
    use crate::kernels::conv_2d::{conv_2d_f32_f16w, conv_2d_f32_f16w_blocked};
    use crate::kernels::depthwise_conv_2d::{depthwise_conv_2d_f32_f16w, depthwise_conv_2d_f32_f16w_blocked, DepthwiseConv2dF32Variant};
    use crate::kernels::fully_connected::{fully_connected_f32_f16w, fully_connected_f32_f16w_blocked};
    use crate::math::f16_to_f32;

    /// The half nearest below `v` in magnitude (truncated; 65504 above the range, 0 below
    /// 2^-24), as bits. One value in eight is first scaled into the subnormal halves.
    fn half_bits(v: f32, subnormal: bool) -> u16 {
        let v = if subnormal { v * (-18f32).exp2() } else { v };
        let sign = if v.is_sign_negative() { 0x8000u16 } else { 0 };
        let a = v.abs();
        let mag = if a >= 65504.0 {
            0x7bff
        } else if a < (-14f32).exp2() {
            (a * 16_777_216.0) as u16 // m * 2^-24, truncated
        } else {
            let bits = a.to_bits();
            let e = (bits >> 23) as i32 - 127 + 15;
            ((e as u16) << 10) | ((bits >> 13) & 0x3ff) as u16
        };
        sign | mag
    }

    /// `f` as halves (bits) and those halves widened.
    fn halves(f: &[f32], seed: u64) -> (Vec<u16>, Vec<f32>) {
        let mut rng = Rng(seed ^ 0x5eed);
        let bits: Vec<u16> = f.iter().map(|&v| half_bits(v, rng.next_u64().is_multiple_of(8))).collect();
        let wide = bits.iter().map(|&h| f16_to_f32(h)).collect();
        (bits, wide)
    }

    fn same_bits(got: &[f32], want: &[f32]) -> Result<(), String> {
        match got.iter().zip(want).position(|(a, b)| a.to_bits() != b.to_bits()) {
            Some(i) => Err(format!("output {i}: {:e} with f16 weights, {:e} with the widened float32 weights", got[i], want[i])),
            None if got.len() == want.len() => Ok(()),
            None => Err(format!("{} outputs, expected {}", got.len(), want.len())),
        }
    }

    fn conv_case(c: &ConvF32) -> Result<(), String> {
        let [kh, kw] = c.k;
        let mut geometry = c.geometry();
        geometry.filter_shape = [c.out_d, kh, kw, c.in_d];
        let (x, f, b) = c.data(geometry.filter_shape.iter().product());
        let (bits, wide) = halves(&f, c.seed);
        let p = Conv2dParams::<F32> { geometry, quant: (), clamp: clamp_of(c.clamp) };
        let n = geometry.output_shape.iter().product();
        let (mut got, mut want) = (vec![f32::NAN; n], vec![f32::NAN; n]);
        conv_2d_f32_f16w(&p, &x, &bits, c.bias.then_some(&b[..]), &mut got);
        conv_2d_f32(&p, &x, &wide, c.bias.then_some(&b[..]), &mut want);
        same_bits(&got, &want)?;
        // The blocked form (Arm), from the halves packed as the compiler packs them.
        let taps = kh * kw * c.in_d;
        let mut packed = vec![0u16; blocked_f32::packed_len(c.out_d, taps)];
        blocked_f32::pack(c.out_d, taps, &bits, &mut packed);
        let mut blocked = vec![f32::NAN; n];
        conv_2d_f32_f16w_blocked(&p, &x, &packed, c.bias.then_some(&b[..]), &mut blocked);
        same_bits(&blocked, &want)?;
        let (exact, real, bound) = c.naive(&x, &wide, &b, |oc, ky, kx| (0..c.in_d).map(|ic| (ic, ((oc * kh + ky) * kw + kx) * c.in_d + ic)).collect());
        compare(&got, &exact, &real, &bound, clamp_of(c.clamp))
    }

    fn depthwise_case(c: &ConvF32) -> Result<(), String> {
        let [kh, kw] = c.k;
        let mut geometry = c.geometry();
        geometry.filter_shape = [1, kh, kw, c.out_d];
        let (x, f, b) = c.data(geometry.filter_shape.iter().product());
        let (bits, wide) = halves(&f, c.seed);
        let p = DepthwiseConv2dParams::<F32> { geometry, quant: (), clamp: clamp_of(c.clamp) };
        let n = geometry.output_shape.iter().product();
        let (mut got, mut want) = (vec![f32::NAN; n], vec![f32::NAN; n]);
        depthwise_conv_2d_f32_f16w(&p, &x, &bits, c.bias.then_some(&b[..]), &mut got);
        depthwise_conv_2d_f32(&p, &x, &wide, c.bias.then_some(&b[..]), &mut want);
        same_bits(&got, &want)?;
        // The blocked form (Arm: depth multiplier 1, at most 25 taps), from the model's halves.
        if DepthwiseConv2dF32Variant::f16_blocked(&p) {
            let mut blocked = vec![f32::NAN; n];
            depthwise_conv_2d_f32_f16w_blocked(&p, &x, &bits, c.bias.then_some(&b[..]), &mut blocked);
            same_bits(&blocked, &want).map_err(|e| format!("blocked: {e}"))?;
        }
        let mult = c.out_d / c.in_d;
        let (exact, real, bound) = c.naive(&x, &wide, &b, |oc, ky, kx| vec![(oc / mult, (ky * kw + kx) * c.out_d + oc)]);
        compare(&got, &exact, &real, &bound, clamp_of(c.clamp))
    }

    fn fc_case(c: &FullyConnected) -> Result<(), String> {
        let (x, w, b) = c.data();
        let (bits, wide) = halves(&w, c.seed);
        let geometry = FullyConnectedGeometry { batches: c.batches, input_depth: c.depth, output_depth: c.units };
        let p = FullyConnectedParams::<F32> { geometry, weights_offset: 0, quant: (), clamp: clamp_of(c.clamp) };
        let n = c.batches * c.units;
        let (mut got, mut want) = (vec![f32::NAN; n], vec![f32::NAN; n]);
        fully_connected_f32_f16w(&p, &x, &bits, c.bias.then_some(&b[..]), &mut got);
        fully_connected_f32(&p, &x, &wide, c.bias.then_some(&b[..]), &mut want);
        same_bits(&got, &want)?;
        let mut packed = vec![0u16; blocked_f32::packed_len(c.units, c.depth)];
        blocked_f32::pack(c.units, c.depth, &bits, &mut packed);
        let mut blocked = vec![f32::NAN; n];
        fully_connected_f32_f16w_blocked(&p, &x, &packed, c.bias.then_some(&b[..]), &mut blocked);
        same_bits(&blocked, &want)?;
        // The float32 suite's oracle, on the widened weights.
        let mut exact = Vec::new();
        let cl = clamp_of(c.clamp);
        for bi in 0..c.batches {
            for u in 0..c.units {
                let mut t = 0f32;
                for d in 0..c.depth {
                    t += x[bi * c.depth + d] * wide[u * c.depth + d];
                }
                exact.push(act(t + if c.bias { b[u] } else { 0.0 }, cl));
            }
        }
        same_bits(&got, &exact)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]
        #[test]
        fn conv_2d(c in ConvF32::strategy(false)) {
            conv_case(&c).map_err(TestCaseError::fail)?;
        }

        #[test]
        fn depthwise_conv_2d(c in ConvF32::strategy(true)) {
            depthwise_case(&c).map_err(TestCaseError::fail)?;
        }

        /// Depth multiplier 1 and up to 23 channels (several blocks of four, tails).
        #[test]
        fn depthwise_conv_2d_mult1(c in packed_strategy(true)) {
            depthwise_case(&c).map_err(TestCaseError::fail)?;
        }

        #[test]
        fn fully_connected(c in <FullyConnected as KernelCase>::strategy()) {
            fc_case(&c).map_err(TestCaseError::fail)?;
        }
    }

    /// The depthwise edge cases reach the blocked form, with channel tails of 1 to 3, and
    /// the reference fallback (depth multiplier other than 1).
    #[test]
    fn depthwise_cases_reach_both_forms() {
        let cases = packed_edge_cases(true).into_iter().chain(ConvF32::edge_cases(true));
        let (mut blocked, mut tails, mut other) = (0, [false; 4], 0);
        for c in cases {
            let mut geometry = c.geometry();
            geometry.filter_shape = [1, c.k[0], c.k[1], c.out_d];
            let p = DepthwiseConv2dParams::<F32> { geometry, quant: (), clamp: clamp_of(c.clamp) };
            if DepthwiseConv2dF32Variant::f16_blocked(&p) {
                blocked += 1;
                tails[c.out_d % 4] = true;
            } else {
                other += 1;
            }
        }
        assert!(blocked > 0 && other > 0 && tails.iter().all(|&t| t), "blocked {blocked}, tails {tails:?}, other {other}");
    }

    #[test]
    fn edge_cases() {
        for c in ConvF32::edge_cases(false) {
            conv_case(&c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
        }
        for c in ConvF32::edge_cases(true).into_iter().chain(packed_edge_cases(true)) {
            depthwise_case(&c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
        }
        for c in <FullyConnected as KernelCase>::edge_cases() {
            fc_case(&c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
        }
    }

    /// CONV_2D windows around the blocked form's stack block (`CONV_WIDE_TAPS` = 96 taps):
    /// 90, 96 (widened once per block) and 99 (widened per tap), with borders and tails.
    #[test]
    fn conv_windows_around_the_widened_block() {
        assert_eq!(blocked_f32::CONV_WIDE_TAPS, 96);
        for (in_d, k, out_d) in [(10, [3, 3], 5), (6, [4, 4], 7), (11, [3, 3], 9), (96, [1, 1], 6), (97, [1, 1], 3)] {
            let c = ConvF32::plain([5, 7], in_d, out_d, k, [1; 4], in_d as u64);
            conv_case(&c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
        }
    }

    /// Every half as a 1x1 weight (infinities, NaNs, subnormals, both zeros included) times
    /// inputs of both signs, zero and infinity: the f16 kernels' bits are the float32
    /// kernels' on the widened weight (NaN bits included).
    #[test]
    fn every_half_as_a_weight() {
        let xs = [1.0f32, -3.5, 0.0, -0.0, f32::INFINITY, 1e-30, 7e30];
        let geometry = FullyConnectedGeometry { batches: xs.len(), input_depth: 1, output_depth: 1 };
        let p = FullyConnectedParams::<F32> { geometry, weights_offset: 0, quant: (), clamp: clamp_of(0) };
        for h in 0..=u16::MAX {
            let (mut got, mut want) = ([0f32; 7], [0f32; 7]);
            fully_connected_f32_f16w(&p, &xs, &[h], Some(&[0.25]), &mut got);
            fully_connected_f32(&p, &xs, &[f16_to_f32(h)], Some(&[0.25]), &mut want);
            same_bits(&got, &want).unwrap_or_else(|e| panic!("{h:#06x}: {e}"));
            let mut blocked = [0f32; 7];
            fully_connected_f32_f16w_blocked(&p, &xs, &[h, 0, 0, 0], Some(&[0.25]), &mut blocked);
            same_bits(&blocked, &want).unwrap_or_else(|e| panic!("{h:#06x} blocked: {e}"));
        }
    }
}
