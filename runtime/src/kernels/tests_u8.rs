//! Tests of the legacy uint8 kernels (`conv_2d_u8`, `depthwise_conv_2d_u8`,
//! `average_pool_2d_u8`, `softmax_u8`): one [`KernelCase`] per operator. The oracle of the
//! convolutions is the naive definition of TFLite's uint8 `reference_ops::Conv` /
//! `DepthwiseConv` (taps outside skipped, `(w - zw) * (x - zx)` summed in i64, bias,
//! `MultiplyByQuantizedMultiplier`, output zero point, clamp); the pool's the uint8 sum
//! rounded half up (TFLite's `(acc + count / 2) / count`); softmax's the int8 kernel through
//! the offset (`x - 128`, output `+ 128`), which is the claim that uint8 shares int8's
//! arithmetic. Bit-exactness with TFLite is checked
//! on `coral_mobilenet_v1_025_128_uint8` (op conformance and e2e).

#![allow(clippy::needless_range_loop)] // the naive definitions index as TFLite's loops do

use super::average_pool_2d::{average_pool_2d_u8, AveragePool2dParams};
use super::conv_2d::{conv_2d_u8, Conv2dParams, Conv2dU8Variant};
use super::depthwise_conv_2d::{depthwise_conv_2d_u8, DepthwiseConv2dParams};
use super::numerics::{Clamp, QuantU8};
use super::softmax::{softmax_s8, softmax_u8, SoftmaxParams};
use super::test_util::{kernel_tests, KernelCase, Rng, LANE_TAILS};
use super::window::{ConvGeometry, PoolGeometry};
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::string::String;
use std::vec;
use std::vec::Vec;

fn u8s(rng: &mut Rng, n: usize) -> Vec<u8> {
    rng.i8s(n).into_iter().map(|v| (v as u8) ^ 0x80).collect()
}

fn out_size(size: usize, pad: usize, k: usize, stride: usize) -> usize {
    if size + pad < k {
        0
    } else {
        (size + pad - k) / stride + 1
    }
}

/// A convolution case: `mult` 0 is CONV_2D with `out_d` filters, else DEPTHWISE_CONV_2D.
#[derive(Clone, Debug)]
struct ConvU8 {
    hw: [usize; 2],
    in_d: usize,
    out_d: usize,
    k: [usize; 2],
    stride: usize,
    pad: [usize; 2],
    zero_points: [i32; 3],
    clamp: (u8, u8),
    seed: u64,
}

impl ConvU8 {
    fn strategy(depthwise: bool) -> BoxedStrategy<Self> {
        ([1usize..7, 1usize..7], prop_oneof![1usize..5, 8usize..20], prop_oneof![3 => 1usize..4, 1 => 9usize..20], [1usize..4, 1usize..4], 1usize..3, [0usize..2, 0usize..2], [0i32..=255, 0i32..=255, 0i32..=255], any::<(u8, u8)>(), any::<u64>())
            .prop_map(move |(hw, in_d, m, k, stride, pad, zero_points, (a, b), seed)| ConvU8 {
                hw,
                in_d,
                out_d: if depthwise { in_d * m } else { m },
                k,
                stride,
                pad,
                zero_points,
                clamp: (a.min(b), a.max(b)),
                seed,
            })
            .boxed()
    }

    fn edge_cases(depthwise: bool) -> Vec<Self> {
        let mut v = Vec::new();
        for n in LANE_TAILS {
            let out_d = if depthwise { n } else { 3 };
            for zero_points in [[0, 0, 0], [255, 255, 255], [128, 1, 254]] {
                v.push(ConvU8 { hw: [3, 3], in_d: n, out_d, k: [3, 3], stride: 1, pad: [1, 1], zero_points, clamp: (0, 255), seed: n as u64 });
            }
        }
        v.push(ConvU8 { hw: [5, 4], in_d: 2, out_d: if depthwise { 4 } else { 5 }, k: [3, 3], stride: 2, pad: [1, 0], zero_points: [7, 200, 99], clamp: (20, 230), seed: 1 });
        v
    }

    /// Data, params pieces: input, filter, bias, multiplier, geometry.
    #[allow(clippy::type_complexity)]
    fn setup(&self, filter_len: usize) -> (Vec<u8>, Vec<u8>, Vec<i32>, (i32, i32), ConvGeometry) {
        let mut rng = Rng(self.seed);
        let [h, w] = self.hw;
        let x = u8s(&mut rng, h * w * self.in_d);
        let f = u8s(&mut rng, filter_len);
        let b = rng.i32s(self.out_d, -20000, 20000);
        let m = rng.multiplier(-12, -4);
        let (oh, ow) = (out_size(h, 2 * self.pad[0], self.k[0], self.stride), out_size(w, 2 * self.pad[1], self.k[1], self.stride));
        let g = ConvGeometry {
            input_shape: [1, h, w, self.in_d],
            filter_shape: [0; 4],
            output_shape: [1, oh, ow, self.out_d],
            stride_height: self.stride,
            stride_width: self.stride,
            dilation_height: 1,
            dilation_width: 1,
            pad_top: self.pad[0],
            pad_left: self.pad[1],
        };
        (x, f, b, m, g)
    }

    fn quant(&self, m: (i32, i32)) -> QuantU8 {
        let [zx, zw, zo] = self.zero_points;
        QuantU8 { input_offset: -zx, weights_offset: -zw, output_offset: zo, output_multiplier: m.0, output_shift: m.1 }
    }

    /// The naive definition; `tap(oc, ky, kx)` lists (input channel, filter index) pairs.
    fn naive(&self, filter_len: usize, tap: impl Fn(usize, usize, usize) -> Vec<(usize, usize)>) -> Vec<u8> {
        let (x, f, b, m, g) = self.setup(filter_len);
        let [zx, zw, zo] = self.zero_points;
        let [_, h, w, in_d] = g.input_shape;
        let [_, oh, ow, out_d] = g.output_shape;
        let mut out = vec![0u8; oh * ow * out_d];
        for oy in 0..oh { for ox in 0..ow { for oc in 0..out_d {
            let mut acc: i64 = 0;
            for ky in 0..self.k[0] { for kx in 0..self.k[1] {
                let iy = (oy * self.stride + ky) as isize - self.pad[0] as isize;
                let ix = (ox * self.stride + kx) as isize - self.pad[1] as isize;
                if iy < 0 || ix < 0 || iy >= h as isize || ix >= w as isize {
                    continue;
                }
                for (ic, fi) in tap(oc, ky, kx) {
                    acc += (f[fi] as i64 - zw as i64) * (x[((iy as usize) * w + ix as usize) * in_d + ic] as i64 - zx as i64);
                }
            }}
            let acc = i32::try_from(acc + b[oc] as i64).expect("test accumulators fit");
            let v = multiply_by_quantized_multiplier(acc, m.0, m.1) + zo;
            out[(oy * ow + ox) * out_d + oc] = v.clamp(self.clamp.0 as i32, self.clamp.1 as i32) as u8;
        }}}
        out
    }
}

fn compare(got: &[u8], want: &[u8]) -> Result<(), String> {
    super::test_util::check_output(got, want, None)
}

type ConvKernel = fn(&Conv2dParams<super::numerics::U8>, &[u8], &[u8], Option<&[i32]>, &mut [u8]);
type DepthwiseKernel = fn(&DepthwiseConv2dParams<super::numerics::U8>, &[u8], &[u8], Option<&[i32]>, &mut [u8]);

#[derive(Clone, Debug)]
struct Conv(ConvU8);

impl KernelCase for Conv {
    type Kernel = ConvKernel;
    type Output = Vec<u8>;
    const REFERENCE: ConvKernel = conv_2d_u8;

    fn strategy() -> BoxedStrategy<Self> {
        ConvU8::strategy(false).prop_map(Conv).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        ConvU8::edge_cases(false).into_iter().map(Conv).collect()
    }

    fn run(&self, kernel: ConvKernel) -> Result<Vec<u8>, String> {
        let c = &self.0;
        let n = c.out_d * c.k[0] * c.k[1] * c.in_d;
        let (x, f, b, m, mut geometry) = c.setup(n);
        geometry.filter_shape = [c.out_d, c.k[0], c.k[1], c.in_d];
        let p = Conv2dParams { geometry, quant: c.quant(m), clamp: Clamp { min: c.clamp.0, max: c.clamp.1 } };
        let mut out = vec![0x55; geometry.output_shape.iter().product()];
        kernel(&p, &x, &f, Some(&b), &mut out);
        Ok(out)
    }

    fn check(&self, got: &Vec<u8>) -> Result<(), String> {
        let c = &self.0;
        let [kh, kw] = c.k;
        compare(got, &c.naive(c.out_d * kh * kw * c.in_d, |oc, ky, kx| (0..c.in_d).map(|ic| (ic, ((oc * kh + ky) * kw + kx) * c.in_d + ic)).collect()))
    }
}

kernel_tests!(conv_2d, Conv, conv_2d_u8);

/// The variant a host selects for `p` ([`Conv2dU8Variant::select`]), packed as the
/// compiler packs it, through its table's `run` (the selected host SIMD form).
fn conv_host(p: &Conv2dParams<super::numerics::U8>, input: &[u8], filter: &[u8], bias: Option<&[i32]>, output: &mut [u8]) {
    let v = Conv2dU8Variant::select(p, crate::isa::TargetClass::Host);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    v.run(p, crate::variants::Operands { input, filter, bias, packed: &packed }, output);
}

kernel_tests!(conv_2d_host, if true, Conv, conv_host);

#[derive(Clone, Debug)]
struct Depthwise(ConvU8);

impl KernelCase for Depthwise {
    type Kernel = DepthwiseKernel;
    type Output = Vec<u8>;
    const REFERENCE: DepthwiseKernel = depthwise_conv_2d_u8;

    fn strategy() -> BoxedStrategy<Self> {
        ConvU8::strategy(true).prop_map(Depthwise).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        ConvU8::edge_cases(true).into_iter().map(Depthwise).collect()
    }

    fn run(&self, kernel: DepthwiseKernel) -> Result<Vec<u8>, String> {
        let c = &self.0;
        let (x, f, b, m, mut geometry) = c.setup(c.k[0] * c.k[1] * c.out_d);
        geometry.filter_shape = [1, c.k[0], c.k[1], c.out_d];
        let p = DepthwiseConv2dParams { geometry, quant: c.quant(m), clamp: Clamp { min: c.clamp.0, max: c.clamp.1 } };
        let mut out = vec![0x55; geometry.output_shape.iter().product()];
        kernel(&p, &x, &f, Some(&b), &mut out);
        Ok(out)
    }

    fn check(&self, got: &Vec<u8>) -> Result<(), String> {
        let c = &self.0;
        let mult = c.out_d / c.in_d;
        compare(got, &c.naive(c.k[0] * c.k[1] * c.out_d, |oc, ky, kx| vec![(oc / mult, (ky * c.k[1] + kx) * c.out_d + oc)]))
    }
}

kernel_tests!(depthwise_conv_2d, Depthwise, depthwise_conv_2d_u8);
kernel_tests!(depthwise_conv_2d_host, if true, Depthwise, crate::kernels::depthwise_conv_2d::depthwise_conv_2d_u8_window);

#[cfg(target_arch = "x86_64")]
fn depthwise_avx2(p: &DepthwiseConv2dParams<super::numerics::U8>, input: &[u8], filter: &[u8], bias: Option<&[i32]>, output: &mut [u8]) {
    let token = crate::arch::x86_64::Avx2::detect().expect("the suite checked detection first");
    crate::arch::x86_64::depthwise_conv_2d_u8_window(token, p, input, filter, bias, output)
}
#[cfg(target_arch = "x86_64")]
kernel_tests!(depthwise_conv_2d_avx2, if crate::arch::x86_64::tests::detected(), Depthwise, depthwise_avx2);
#[cfg(target_arch = "x86_64")]
fn depthwise_avx512vnni(p: &DepthwiseConv2dParams<super::numerics::U8>, input: &[u8], filter: &[u8], bias: Option<&[i32]>, output: &mut [u8]) {
    crate::arch::x86_64::vnni::depthwise_conv_2d_u8_window(crate::arch::x86_64::vnni::tests::token(), p, input, filter, bias, output)
}
#[cfg(target_arch = "x86_64")]
kernel_tests!(depthwise_conv_2d_avx512vnni, if crate::arch::x86_64::vnni::tests::detected(), Depthwise, depthwise_avx512vnni);

/// AVERAGE_POOL_2D: the naive uint8 average is the oracle.
#[derive(Clone, Debug)]
struct AveragePool {
    hw: [usize; 2],
    depth: usize,
    k: usize,
    stride: usize,
    pad: usize,
    clamp: (u8, u8),
    seed: u64,
}

impl AveragePool {
    fn geometry(&self) -> PoolGeometry {
        let [h, w] = self.hw;
        PoolGeometry {
            input_shape: [1, h, w, self.depth],
            output_height: out_size(h, self.pad, self.k, self.stride),
            output_width: out_size(w, self.pad, self.k, self.stride),
            filter_height: self.k,
            filter_width: self.k,
            stride_height: self.stride,
            stride_width: self.stride,
            pad_top: self.pad,
            pad_left: self.pad,
        }
    }
}

type PoolKernel = fn(&AveragePool2dParams<super::numerics::U8>, &[u8], &mut [u8]);

impl KernelCase for AveragePool {
    type Kernel = PoolKernel;
    type Output = Vec<u8>;
    const REFERENCE: PoolKernel = average_pool_2d_u8;

    fn strategy() -> BoxedStrategy<Self> {
        ([1usize..8, 1usize..8], 1usize..20, 1usize..4, 1usize..3, 0usize..2, any::<(u8, u8)>(), any::<u64>())
            .prop_map(|(hw, depth, k, stride, pad, (a, b), seed)| AveragePool { hw, depth, k, stride, pad: pad.min(k - 1), clamp: (a.min(b), a.max(b)), seed })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        LANE_TAILS.map(|n| AveragePool { hw: [4, 4], depth: n, k: 4, stride: 4, pad: 0, clamp: (0, 255), seed: n as u64 }).collect()
    }

    fn run(&self, kernel: PoolKernel) -> Result<Vec<u8>, String> {
        let g = self.geometry();
        let x = u8s(&mut Rng(self.seed), g.input_shape.iter().product());
        let mut out = vec![0x55; g.output_len()];
        kernel(&AveragePool2dParams { geometry: g, clamp: Clamp { min: self.clamp.0, max: self.clamp.1 } }, &x, &mut out);
        Ok(out)
    }

    fn check(&self, got: &Vec<u8>) -> Result<(), String> {
        let g = self.geometry();
        let [_, h, w, d] = g.input_shape;
        let xu = u8s(&mut Rng(self.seed), h * w * d);
        let mut exact = Vec::new();
        for oy in 0..g.output_height { for ox in 0..g.output_width { for c in 0..d {
            let (ys, xs) = g.clipped(oy, ox);
            let n = (ys.len() * xs.len()) as i32;
            let sum: i32 = ys.flat_map(|y| xs.clone().map(move |x| (y, x))).map(|(y, x)| xu[(y * w + x) * d + c] as i32).sum();
            exact.push(((sum + n / 2) / n).clamp(self.clamp.0 as i32, self.clamp.1 as i32) as u8);
        }}}
        compare(got, &exact)
    }
}

kernel_tests!(average_pool_2d, AveragePool, average_pool_2d_u8);

/// SOFTMAX: `softmax_s8` on the inputs minus 128, plus 128, is the oracle (the kernel reads
/// only differences from the row maximum; the output zero point moves from -128 to 0).
#[derive(Clone, Debug)]
struct Softmax {
    depth: usize,
    params: (i32, i32, i32),
    input: Vec<u8>,
}

type SoftmaxKernel = fn(&SoftmaxParams, &[u8], &mut [u8]);

impl KernelCase for Softmax {
    type Kernel = SoftmaxKernel;
    type Output = Vec<u8>;
    const REFERENCE: SoftmaxKernel = softmax_u8;

    fn strategy() -> BoxedStrategy<Self> {
        (0usize..4, 1usize..40, 0.005f32..0.3, any::<u64>())
            .prop_map(|(rows, depth, scale, seed)| {
                let q = crate::prepare::softmax_s8(scale, 1.0).unwrap();
                Softmax { depth, params: (q.input_multiplier, q.input_left_shift, q.diff_min), input: u8s(&mut Rng(seed), rows * depth) }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let q = crate::prepare::softmax_s8(0.1, 1.0).unwrap();
        LANE_TAILS.map(|n| Softmax { depth: n, params: (q.input_multiplier, q.input_left_shift, q.diff_min), input: (0..2 * n).map(|i| [0u8, 255, 128, 1][i % 4]).collect() }).collect()
    }

    fn run(&self, kernel: SoftmaxKernel) -> Result<Vec<u8>, String> {
        let (input_multiplier, input_left_shift, diff_min) = self.params;
        let mut out = vec![0x55; self.input.len()];
        kernel(&SoftmaxParams { depth: self.depth, input_multiplier, input_left_shift, diff_min }, &self.input, &mut out);
        Ok(out)
    }

    fn check(&self, got: &Vec<u8>) -> Result<(), String> {
        let (input_multiplier, input_left_shift, diff_min) = self.params;
        let x: Vec<i8> = self.input.iter().map(|&v| (v ^ 0x80) as i8).collect();
        let mut want = vec![0i8; x.len()];
        softmax_s8(&SoftmaxParams { depth: self.depth, input_multiplier, input_left_shift, diff_min }, &x, &mut want);
        let want: Vec<u8> = want.iter().map(|&v| (v as u8) ^ 0x80).collect();
        compare(got, &want)
    }
}

kernel_tests!(softmax, Softmax, softmax_u8);
