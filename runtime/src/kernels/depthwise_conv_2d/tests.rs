//! DEPTHWISE_CONV_2D tests: a naive definition-level reference (materialized zero-point
//! padding, i64 accumulation), property tests, fixed edge cases.

use super::DepthwiseConv2dParams;
use crate::kernels::test_util::{multipliers, zero_point, Rng};
use crate::prepare::fold_input_offset;
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&DepthwiseConv2dParams, &[i8], &[i8], Option<&[i32]>, &mut [i8]);

/// DEPTHWISE_CONV_2D from the definition: output channel `o` correlates input channel
/// `o / depth_multiplier` with filter channel `o`, over the zero-point-padded input.
fn naive(p: &DepthwiseConv2dParams, input: &[i8], filter: &[i8], bias: Option<&[i32]>) -> Vec<i8> {
    let [n, h, w, c] = p.input_shape;
    let [_, kh, kw, oc] = p.filter_shape;
    let [_, oh, ow, _] = p.output_shape;
    let reach = |o: usize, s: usize, k: usize, d: usize| if o == 0 { 0 } else { (o - 1) * s + (k - 1) * d + 1 };
    let ph = (p.pad_top + h).max(reach(oh, p.stride_height, kh, p.dilation_height));
    let pw = (p.pad_left + w).max(reach(ow, p.stride_width, kw, p.dilation_width));
    let mut padded = vec![-p.input_offset as i64; n * ph * pw * c];
    for b in 0..n {
        for y in 0..h {
            for x in 0..w {
                for ch in 0..c {
                    padded[((b * ph + y + p.pad_top) * pw + x + p.pad_left) * c + ch] = input[((b * h + y) * w + x) * c + ch] as i64;
                }
            }
        }
    }
    let mut out = vec![0i8; n * oh * ow * oc];
    for b in 0..n {
        for y in 0..oh {
            for x in 0..ow {
                for o in 0..oc {
                    let ic = o / p.depth_multiplier;
                    let mut acc: i64 = bias.map_or(0, |bs| bs[o] as i64);
                    for fy in 0..kh {
                        for fx in 0..kw {
                            let py = y * p.stride_height + fy * p.dilation_height;
                            let px = x * p.stride_width + fx * p.dilation_width;
                            let v = padded[((b * ph + py) * pw + px) * c + ic] + p.input_offset as i64;
                            acc += filter[(fy * kw + fx) * oc + o] as i64 * v;
                        }
                    }
                    let acc = i32::try_from(acc).expect("test accumulators stay in i32");
                    let q = if p.output_multiplier.len() == 1 { 0 } else { o };
                    let v = multiply_by_quantized_multiplier(acc, p.output_multiplier[q], p.output_shift[q]) as i64
                        + p.output_offset as i64;
                    out[((b * oh + y) * ow + x) * oc + o] =
                        v.clamp(p.output_activation_min as i64, p.output_activation_max as i64) as i8;
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

/// Runs `kernel` on the case and compares with the naive definition; with `fold`, the
/// params carry the compile-time folded bias (the fast path's input) and the result must
/// also equal the scalar reference's.
fn check_case(kernel: Kernel, c: &Case, fold: bool) {
    let mut rng = Rng(c.seed);
    let out_d = c.in_d * c.mult;
    let oh = out_size(c.in_h, c.pads[0], c.pads[1], c.k[0], c.stride[0], c.dil[0]);
    let ow = out_size(c.in_w, c.pads[2], c.pads[3], c.k[1], c.stride[1], c.dil[1]);
    let (mult, shift) = multipliers(&mut rng, out_d, -12, 1);
    let (act_min, act_max) = rng.activation_range();
    let p = DepthwiseConv2dParams {
        input_shape: [c.batches, c.in_h, c.in_w, c.in_d],
        filter_shape: [1, c.k[0], c.k[1], out_d],
        output_shape: [c.batches, oh, ow, out_d],
        depth_multiplier: c.mult,
        stride_height: c.stride[0],
        stride_width: c.stride[1],
        dilation_height: c.dil[0],
        dilation_width: c.dil[1],
        pad_top: c.pads[0],
        pad_left: c.pads[2],
        input_offset: -c.in_zp,
        output_offset: c.out_zp,
        output_multiplier: &mult,
        output_shift: &shift,
        output_activation_min: act_min,
        output_activation_max: act_max,
        folded_bias: &[],
    };
    let input = rng.i8s(c.batches * c.in_h * c.in_w * c.in_d);
    let filter = rng.i8s(c.k[0] * c.k[1] * out_d);
    let bias = rng.i32s(out_d, -(1 << 18), 1 << 18);
    let bias = c.with_bias.then_some(&bias[..]);
    let folded: Vec<i32> = (0..out_d)
        .map(|o| fold_input_offset(filter.iter().skip(o).step_by(out_d).copied(), bias.map_or(0, |b| b[o]), p.input_offset))
        .collect();
    let p = if fold { DepthwiseConv2dParams { folded_bias: &folded, ..p } } else { p };
    assert_eq!(fold, super::fast::applies(&p));
    let mut got = vec![0x55u8 as i8; c.batches * oh * ow * out_d];
    kernel(&p, &input, &filter, bias, &mut got);
    assert_eq!(got, naive(&p, &input, &filter, bias), "{c:?}");
    if fold {
        let mut reference = vec![0x55u8 as i8; got.len()];
        super::scalar::depthwise_conv_2d_s8(&p, &input, &filter, bias, &mut reference);
        assert_eq!(got, reference, "{c:?}");
    }
}

macro_rules! kernel_tests {
    ($name:ident, $kernel:path, $fold:expr) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(300))]
                #[test]
                fn matches_naive(c in case()) {
                    check_case($kernel, &c, $fold);
                }
            }

            /// Depth multiplier 2 on a single pixel: output channel `2c + m` is
            /// `w[2c + m] * (x[c] - zp)` (scale 1.0), hand-computed.
            #[test]
            fn hand_computed_multiplier_layout() {
                let (mult, shift) = ([1 << 30], [1]); // 1.0
                let p = DepthwiseConv2dParams {
                    input_shape: [1, 1, 1, 2],
                    filter_shape: [1, 1, 1, 4],
                    output_shape: [1, 1, 1, 4],
                    depth_multiplier: 2,
                    stride_height: 1,
                    stride_width: 1,
                    dilation_height: 1,
                    dilation_width: 1,
                    pad_top: 0,
                    pad_left: 0,
                    input_offset: 5,
                    output_offset: 1,
                    output_multiplier: &mult,
                    output_shift: &shift,
                    output_activation_min: -128,
                    output_activation_max: 127,
                    folded_bias: &[],
                };
                let mut out = [0i8; 4];
                $kernel(&p, &[-3, 5], &[1, -2, 3, 100], Some(&[0, 0, 0, 7]), &mut out);
                // x - zp = (2, 10): 2*1+1, 2*-2+1, 10*3+1, clamp(10*100+7+1)
                assert_eq!(out, [3, -3, 31, 127]);
            }
        }
    };
}

kernel_tests!(scalar, crate::kernels::depthwise_conv_2d::scalar::depthwise_conv_2d_s8, false);
kernel_tests!(public_api, crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8, false);
// The public API with folded biases: the fast path for depth multiplier 1 (others fall
// back to the scalar kernel), checked against the naive definition and the scalar kernel.
kernel_tests!(public_api_folded, crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8, true);
