//! DEPTHWISE_CONV_2D tests: a naive definition-level reference (materialized zero-point
//! padding, i64 accumulation), property tests, fixed edge cases.

use super::{ConvGeometry, DepthwiseConv2dParams, DepthwiseConv2dVariant};
use crate::kernels::dot::Dot;
use crate::kernels::numerics::{Clamp, QuantS8, S8};
use crate::kernels::test_util::{multipliers, zero_point, Rng};
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&DepthwiseConv2dParams<S8>, &[i8], &[i8], Option<&[i32]>, &mut [i8]);

/// The variant the compiler would select, packed as the compiler packs it, run with the dot
/// implementation `D`.
fn selected<D: Dot>(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = DepthwiseConv2dVariant::select(&p.geometry);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    match v {
        DepthwiseConv2dVariant::Reference => super::depthwise_conv_2d_s8(p, input, filter, bias, output),
        DepthwiseConv2dVariant::Window => super::fast::depthwise_window::<D>(p, input, filter, bias, &packed, output),
        DepthwiseConv2dVariant::Mult1 => super::fast::depthwise_mult1::<D>(p, input, bias, &packed, output),
    }
}

/// The same through the public functions, as generated code calls them.
fn public(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = DepthwiseConv2dVariant::select(&p.geometry);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    match v {
        DepthwiseConv2dVariant::Reference => super::depthwise_conv_2d_s8(p, input, filter, bias, output),
        DepthwiseConv2dVariant::Window => super::depthwise_conv_2d_s8_window(p, input, filter, bias, &packed, output),
        DepthwiseConv2dVariant::Mult1 => super::depthwise_conv_2d_s8_mult1(p, input, bias, &packed, output),
    }
}

/// DEPTHWISE_CONV_2D from the definition: output channel `o` correlates input channel
/// `o / depth_multiplier` with filter channel `o`, over the zero-point-padded input.
fn naive(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>) -> Vec<i8> {
    let [n, h, w, c] = p.geometry.input_shape;
    let [_, kh, kw, oc] = p.geometry.filter_shape;
    let [_, oh, ow, _] = p.geometry.output_shape;
    let reach = |o: usize, s: usize, k: usize, d: usize| if o == 0 { 0 } else { (o - 1) * s + (k - 1) * d + 1 };
    let ph = (p.geometry.pad_top + h).max(reach(oh, p.geometry.stride_height, kh, p.geometry.dilation_height));
    let pw = (p.geometry.pad_left + w).max(reach(ow, p.geometry.stride_width, kw, p.geometry.dilation_width));
    let mut padded = vec![-p.quant.input_offset as i64; n * ph * pw * c];
    for b in 0..n {
        for y in 0..h {
            for x in 0..w {
                for ch in 0..c {
                    padded[((b * ph + y + p.geometry.pad_top) * pw + x + p.geometry.pad_left) * c + ch] = input[((b * h + y) * w + x) * c + ch] as i64;
                }
            }
        }
    }
    let mut out = vec![0i8; n * oh * ow * oc];
    for b in 0..n {
        for y in 0..oh {
            for x in 0..ow {
                for o in 0..oc {
                    let ic = o / p.depth_multiplier();
                    let mut acc: i64 = bias.map_or(0, |bs| bs[o] as i64);
                    for fy in 0..kh {
                        for fx in 0..kw {
                            let py = y * p.geometry.stride_height + fy * p.geometry.dilation_height;
                            let px = x * p.geometry.stride_width + fx * p.geometry.dilation_width;
                            let v = padded[((b * ph + py) * pw + px) * c + ic] + p.quant.input_offset as i64;
                            acc += filter[(fy * kw + fx) * oc + o] as i64 * v;
                        }
                    }
                    let acc = i32::try_from(acc).expect("test accumulators stay in i32");
                    let q = if p.quant.output_multiplier.len() == 1 { 0 } else { o };
                    let v = multiply_by_quantized_multiplier(acc, p.quant.output_multiplier[q], p.quant.output_shift[q]) as i64
                        + p.quant.output_offset as i64;
                    out[((b * oh + y) * ow + x) * oc + o] =
                        v.clamp(p.clamp.min as i64, p.clamp.max as i64) as i8;
                }
            }
        }
    }
    out
}

fn out_size(input: usize, pad_before: usize, pad_after: usize, k: usize, stride: usize, dilation: usize) -> usize {
    let eff = (k - 1) * dilation + 1;
    let total = input + pad_before + pad_after;
    if total < eff {
        0
    } else {
        (total - eff) / stride + 1
    }
}

#[derive(Debug, Clone)]
struct Case {
    batches: usize,
    in_h: usize,
    in_w: usize,
    in_d: usize,
    mult: usize,
    k: [usize; 2],
    stride: [usize; 2],
    dil: [usize; 2],
    pads: [usize; 4],
    in_zp: i32,
    out_zp: i32,
    with_bias: bool,
    seed: u64,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (1usize..3, 1usize..9, 1usize..9, prop_oneof![1usize..8, 15usize..40, 60usize..140], prop_oneof![Just(1usize), 1usize..4]),
        ([1usize..5, 1usize..5], [1usize..4, 1usize..4], [1usize..3, 1usize..3]),
        ([0usize..5, 0usize..5, 0usize..5, 0usize..5], zero_point(), zero_point(), any::<bool>(), any::<u64>()),
    )
        .prop_map(|((batches, in_h, in_w, in_d, mult), (k, stride, dil), (pads, in_zp, out_zp, with_bias, seed))| Case {
            batches,
            in_h,
            in_w,
            in_d,
            mult,
            k,
            stride,
            dil,
            pads,
            in_zp,
            out_zp,
            with_bias,
            seed,
        })
}

/// Runs `kernel` on the case and compares with the naive definition and the reference.
fn check_case(kernel: Kernel, c: &Case) {
    let mut rng = Rng(c.seed);
    let out_d = c.in_d * c.mult;
    let oh = out_size(c.in_h, c.pads[0], c.pads[1], c.k[0], c.stride[0], c.dil[0]);
    let ow = out_size(c.in_w, c.pads[2], c.pads[3], c.k[1], c.stride[1], c.dil[1]);
    let (mult, shift) = multipliers(&mut rng, out_d, -12, 1);
    let (act_min, act_max) = rng.activation_range();
    let p = DepthwiseConv2dParams { geometry: ConvGeometry { input_shape: [c.batches, c.in_h, c.in_w, c.in_d], filter_shape: [1, c.k[0], c.k[1], out_d], output_shape: [c.batches, oh, ow, out_d], stride_height: c.stride[0], stride_width: c.stride[1], dilation_height: c.dil[0], dilation_width: c.dil[1], pad_top: c.pads[0], pad_left: c.pads[2] }, quant: QuantS8 { input_offset: -c.in_zp, output_offset: c.out_zp, output_multiplier: &mult, output_shift: &shift }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
    let input = rng.i8s(c.batches * c.in_h * c.in_w * c.in_d);
    let filter = rng.i8s(c.k[0] * c.k[1] * out_d);
    let bias = rng.i32s(out_d, -(1 << 18), 1 << 18);
    let bias = c.with_bias.then_some(&bias[..]);
    let mut got = vec![0x55u8 as i8; c.batches * oh * ow * out_d];
    kernel(&p, &input, &filter, bias, &mut got);
    assert_eq!(got, naive(&p, &input, &filter, bias), "{c:?}");
    let mut reference = vec![0x55u8 as i8; got.len()];
    super::depthwise_conv_2d_s8(&p, &input, &filter, bias, &mut reference);
    assert_eq!(got, reference, "{c:?}");
}

macro_rules! kernel_tests {
    ($name:ident, $kernel:expr) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(300))]
                #[test]
                fn matches_naive(c in case()) {
                    check_case($kernel, &c);
                }
            }

            /// 3x3 windows with depth multiplier 1 (the `Mult1` variant's unrolled interior
            /// and its border path): strides, dilations, paddings, depths 4..64.
            #[test]
            fn three_by_three_depth_multiplier_1() {
                let mut seed = 1u64;
                for in_d in [4usize, 8, 12, 64] {
                    for stride in [1usize, 2] {
                        for dil in [1usize, 2] {
                            for pad in [0usize, 1, 2] {
                                for (in_zp, out_zp) in [(0, 0), (-128, 127), (127, -128), (5, -3)] {
                                    seed += 1;
                                    let c = Case { batches: 2, in_h: 7, in_w: 6, in_d, mult: 1, k: [3, 3], stride: [stride, stride], dil: [dil, dil], pads: [pad, pad, pad, pad / 2], in_zp, out_zp, with_bias: seed % 3 != 0, seed };
                                    check_case($kernel, &c);
                                }
                            }
                        }
                    }
                }
            }

            /// Depth multiplier 2 on a single pixel: output channel `2c + m` is
            /// `w[2c + m] * (x[c] - zp)` (scale 1.0), hand-computed.
            #[test]
            fn hand_computed_multiplier_layout() {
                let (mult, shift) = ([1 << 30], [1]); // 1.0
                let p = DepthwiseConv2dParams { geometry: ConvGeometry { input_shape: [1, 1, 1, 2], filter_shape: [1, 1, 1, 4], output_shape: [1, 1, 1, 4], stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1, pad_top: 0, pad_left: 0 }, quant: QuantS8 { input_offset: 5, output_offset: 1, output_multiplier: &mult, output_shift: &shift }, clamp: Clamp { min: -128, max: 127 } };
                let mut out = [0i8; 4];
                $kernel(&p, &[-3, 5], &[1, -2, 3, 100], Some(&[0, 0, 0, 7]), &mut out);
                // x - zp = (2, 10): 2*1+1, 2*-2+1, 10*3+1, clamp(10*100+7+1)
                assert_eq!(out, [3, -3, 31, 127]);
            }
        }
    };
}

kernel_tests!(reference, crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8);
kernel_tests!(selected_scalar, selected::<crate::kernels::dot::scalar::Scalar>);
#[cfg(tflc_arm_dsp)]
kernel_tests!(selected_arm_dsp, selected::<crate::kernels::dot::dsp::ArmDsp>);
kernel_tests!(public_api, public);
