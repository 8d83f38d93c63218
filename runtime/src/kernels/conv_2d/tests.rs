//! CONV_2D tests: a naive definition-level reference (materialized zero-point padding, i64
//! accumulation), property tests over geometry and quantization, and fixed edge cases.

use super::{Conv2dParams, Conv2dVariant, ConvGeometry};
use crate::kernels::dot::Dot;
use crate::kernels::numerics::{Clamp, QuantS8, S8};
use crate::kernels::test_util::{multipliers, zero_point, Rng};
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&Conv2dParams<S8>, &[i8], &[i8], Option<&[i32]>, &mut [i8]);

/// The variant the compiler would select for `p`, its weights packed as the compiler packs
/// them, run with the dot implementation `D`: the suite instantiated for every
/// implementation the machine can execute.
fn selected<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = Conv2dVariant::select(&p.geometry);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    match v {
        Conv2dVariant::Reference => super::conv_2d_s8(p, input, filter, bias, output),
        Conv2dVariant::Pointwise => super::fast::conv_1x1::<D>(p, input, filter, &packed, output),
        Conv2dVariant::Window => super::fast::conv_window::<D>(p, input, filter, bias, &packed, output),
        Conv2dVariant::Im2col => super::fast::conv_im2col::<D>(p, input, filter, &packed, output),
    }
}

/// The same through the public variant functions (the selected ISA), as generated code
/// calls them.
fn public(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = Conv2dVariant::select(&p.geometry);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    match v {
        Conv2dVariant::Reference => super::conv_2d_s8(p, input, filter, bias, output),
        Conv2dVariant::Pointwise => super::conv_2d_s8_pointwise(p, input, filter, &packed, output),
        Conv2dVariant::Window => super::conv_2d_s8_window(p, input, filter, bias, &packed, output),
        Conv2dVariant::Im2col => super::conv_2d_s8_im2col(p, input, filter, &packed, output),
    }
}

/// CONV_2D from the definition: pad the input with its zero point (a padding cell is then
/// exactly 0 after the offset), then correlate every output position with its group's
/// filters, accumulating in i64.
fn naive(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>) -> Vec<i8> {
    let [n, h, w, c] = p.geometry.input_shape;
    let [oc, kh, kw, kc] = p.geometry.filter_shape;
    let [_, oh, ow, _] = p.geometry.output_shape;
    let reach = |o: usize, s: usize, k: usize, d: usize| if o == 0 { 0 } else { (o - 1) * s + (k - 1) * d + 1 };
    let ph = (p.geometry.pad_top + h).max(reach(oh, p.geometry.stride_height, kh, p.geometry.dilation_height));
    let pw = (p.geometry.pad_left + w).max(reach(ow, p.geometry.stride_width, kw, p.geometry.dilation_width));
    let zp = -p.quant.input_offset as i64;
    let mut padded = vec![zp; n * ph * pw * c];
    for b in 0..n {
        for y in 0..h {
            for x in 0..w {
                for ch in 0..c {
                    padded[((b * ph + y + p.geometry.pad_top) * pw + x + p.geometry.pad_left) * c + ch] = input[((b * h + y) * w + x) * c + ch] as i64;
                }
            }
        }
    }
    let groups = c / kc;
    let per_group = oc / groups;
    let mut out = vec![0i8; n * oh * ow * oc];
    for b in 0..n {
        for y in 0..oh {
            for x in 0..ow {
                for o in 0..oc {
                    let g = o / per_group;
                    let mut acc: i64 = 0;
                    for fy in 0..kh {
                        for fx in 0..kw {
                            for k in 0..kc {
                                let py = y * p.geometry.stride_height + fy * p.geometry.dilation_height;
                                let px = x * p.geometry.stride_width + fx * p.geometry.dilation_width;
                                let v = padded[((b * ph + py) * pw + px) * c + g * kc + k] + p.quant.input_offset as i64;
                                acc += filter[((o * kh + fy) * kw + fx) * kc + k] as i64 * v;
                            }
                        }
                    }
                    acc += bias.map_or(0, |bs| bs[o] as i64);
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

/// Output extent for explicit before/after padding (0 if no window fits).
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
    groups: usize,
    group_in: usize,
    group_out: usize,
    k_h: usize,
    k_w: usize,
    stride_h: usize,
    stride_w: usize,
    dil_h: usize,
    dil_w: usize,
    pads: [usize; 4],
    in_zp: i32,
    out_zp: i32,
    with_bias: bool,
    seed: u64,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (1usize..3, 1usize..9, 1usize..9, 1usize..3, prop_oneof![1usize..6, 6usize..20], 1usize..10),
        (1usize..5, 1usize..5, 1usize..4, 1usize..4, 1usize..3, 1usize..3),
        ([0usize..5, 0usize..5, 0usize..5, 0usize..5], zero_point(), zero_point(), any::<bool>(), any::<u64>()),
    )
        .prop_map(|((batches, in_h, in_w, groups, group_in, group_out), (k_h, k_w, stride_h, stride_w, dil_h, dil_w), (pads, in_zp, out_zp, with_bias, seed))| Case {
            batches,
            in_h,
            in_w,
            groups,
            group_in,
            group_out,
            k_h,
            k_w,
            stride_h,
            stride_w,
            dil_h,
            dil_w,
            pads,
            in_zp,
            out_zp,
            with_bias,
            seed,
        })
}

/// Deep inputs (16..40 channels, one group), so that the fast path's contiguous-run branch
/// (runs of at least 16 int8), border windows included, is exercised next to im2col.
fn deep_case() -> impl Strategy<Value = Case> {
    (case(), 16usize..40).prop_map(|(c, group_in)| Case { groups: 1, group_in, ..c })
}

/// Pointwise cases (1x1 filter, no padding before; sometimes after, which leaves windows
/// outside the input), for the fast path's 1x1 branch.
fn pointwise_case() -> impl Strategy<Value = Case> {
    (case(), 0usize..2, 0usize..2, prop_oneof![1usize..8, 8usize..40])
        .prop_map(|(c, after_h, after_w, group_in)| Case { k_h: 1, k_w: 1, pads: [0, after_h, 0, after_w], group_in, ..c })
}

/// Runs `kernel` on the case and compares with the naive definition and the reference
/// kernel.
fn check_case(kernel: Kernel, c: &Case) {
    let mut rng = Rng(c.seed);
    let in_d = c.groups * c.group_in;
    let out_d = c.groups * c.group_out;
    let oh = out_size(c.in_h, c.pads[0], c.pads[1], c.k_h, c.stride_h, c.dil_h);
    let ow = out_size(c.in_w, c.pads[2], c.pads[3], c.k_w, c.stride_w, c.dil_w);
    let (mult, shift) = multipliers(&mut rng, out_d, -14, 1);
    let (act_min, act_max) = rng.activation_range();
    let p = Conv2dParams { geometry: ConvGeometry { input_shape: [c.batches, c.in_h, c.in_w, in_d], filter_shape: [out_d, c.k_h, c.k_w, c.group_in], output_shape: [c.batches, oh, ow, out_d], stride_height: c.stride_h, stride_width: c.stride_w, dilation_height: c.dil_h, dilation_width: c.dil_w, pad_top: c.pads[0], pad_left: c.pads[2] }, quant: QuantS8 { input_offset: -c.in_zp, output_offset: c.out_zp, output_multiplier: &mult, output_shift: &shift }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
    let input = rng.i8s(c.batches * c.in_h * c.in_w * in_d);
    let filter = rng.i8s(out_d * c.k_h * c.k_w * c.group_in);
    let bias = rng.i32s(out_d, -(1 << 18), 1 << 18);
    let bias = c.with_bias.then_some(&bias[..]);
    let mut got = vec![0x55u8 as i8; c.batches * oh * ow * out_d];
    kernel(&p, &input, &filter, bias, &mut got);
    assert_eq!(got, naive(&p, &input, &filter, bias), "{c:?}");
    let mut reference = vec![0x55u8 as i8; got.len()];
    super::conv_2d_s8(&p, &input, &filter, bias, &mut reference);
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

                #[test]
                fn matches_naive_deep(c in deep_case()) {
                    check_case($kernel, &c);
                }

                #[test]
                fn matches_naive_pointwise(c in pointwise_case()) {
                    check_case($kernel, &c);
                }
            }

            /// 1x1 conv, 2 in -> 2 out channels, hand-computed. acc = w . (x - zp) + bias.
            #[test]
            fn hand_computed_1x1() {
                let (mult, shift) = ([1 << 30], [0]); // 0.5 for every channel
                let p = Conv2dParams { geometry: ConvGeometry { input_shape: [1, 1, 2, 2], filter_shape: [2, 1, 1, 2], output_shape: [1, 1, 2, 2], stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1, pad_top: 0, pad_left: 0 }, quant: QuantS8 { input_offset: -1, output_offset: -3, output_multiplier: &mult, output_shift: &shift }, clamp: Clamp { min: -128, max: 127 } };
                let input = [3, 5, -1, 1]; // pixel 0: (2, 4), pixel 1: (-2, 0) after the offset
                let filter = [1, 2, -3, 1];
                let bias = [1, -1];
                let mut out = [0i8; 4];
                $kernel(&p, &input, &filter, Some(&bias), &mut out);
                // x * 0.5 through SaturatingRoundingDoublingHighMul: positive ties round up,
                // negative ties toward zero (gemmlowp's nudge is 1 - 2^30 below zero).
                // pixel 0: ch0 = 2 + 8 + 1 = 11 -> 5.5 -> 6 -> 3; ch1 = -6 + 4 - 1 = -3 -> -1.5 -> -1 -> -4
                // pixel 1: ch0 = -2 + 0 + 1 = -1 -> -0.5 -> 0 -> -3; ch1 = 6 + 0 - 1 = 5 -> 2.5 -> 3 -> 0
                assert_eq!(out, [3, -4, -3, 0]);
            }

            /// SAME 3x3 on a 2x2 image: every window is clipped; padding contributes nothing
            /// even with a non-zero input zero point.
            #[test]
            fn padding_contributes_nothing() {
                let (mult, shift) = ([1 << 30], [1]); // 1.0
                let p = Conv2dParams { geometry: ConvGeometry { input_shape: [1, 2, 2, 1], filter_shape: [1, 3, 3, 1], output_shape: [1, 2, 2, 1], stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1, pad_top: 1, pad_left: 1 }, quant: QuantS8 { input_offset: 100, output_offset: 0, output_multiplier: &mult, output_shift: &shift }, clamp: Clamp { min: -128, max: 127 } };
                let input = [-99, -98, -97, -96]; // 1, 2, 3, 4 after the offset
                let filter = [1; 9];
                let mut out = [0i8; 4];
                $kernel(&p, &input, &filter, None, &mut out);
                assert_eq!(out, [10, 10, 10, 10]);
            }

            /// The int32 accumulator wraps like TFLite's (no saturation): MAX + 1 is MIN.
            #[test]
            fn accumulator_wraps() {
                let (mult, shift) = ([1 << 30], [0]);
                let p = Conv2dParams { geometry: ConvGeometry { input_shape: [1, 1, 1, 1], filter_shape: [1, 1, 1, 1], output_shape: [1, 1, 1, 1], stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1, pad_top: 0, pad_left: 0 }, quant: QuantS8 { input_offset: 0, output_offset: 0, output_multiplier: &mult, output_shift: &shift }, clamp: Clamp { min: -128, max: 127 } };
                let mut out = [0i8; 1];
                $kernel(&p, &[1], &[1], Some(&[i32::MAX]), &mut out);
                assert_eq!(out, [-128]);
                $kernel(&p, &[0], &[1], Some(&[i32::MAX]), &mut out);
                assert_eq!(out, [127]);
            }

            /// Zero-size output: nothing is written, nothing panics.
            #[test]
            fn empty_output() {
                let (mult, shift) = ([1 << 30], [0]);
                let p = Conv2dParams { geometry: ConvGeometry { input_shape: [1, 2, 2, 1], filter_shape: [1, 3, 3, 1], output_shape: [1, 0, 0, 1], stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1, pad_top: 0, pad_left: 0 }, quant: QuantS8 { input_offset: 0, output_offset: 0, output_multiplier: &mult, output_shift: &shift }, clamp: Clamp { min: -128, max: 127 } };
                $kernel(&p, &[0; 4], &[0; 9], None, &mut []);
            }
        }
    };
}

kernel_tests!(reference, crate::kernels::conv_2d::conv_2d_s8);
kernel_tests!(selected_scalar, selected::<crate::kernels::dot::scalar::Scalar>);
#[cfg(tflc_arm_dsp)]
kernel_tests!(selected_arm_dsp, selected::<crate::kernels::dot::dsp::ArmDsp>);
kernel_tests!(public_api, public);

/// The strategies reach every variant (the suites above would otherwise test less than
/// they claim).
#[test]
fn strategies_reach_every_variant() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut seen = std::collections::BTreeSet::new();
    for strategy in [case().boxed(), deep_case().boxed(), pointwise_case().boxed()] {
        for _ in 0..300 {
            let c = strategy.new_tree(&mut runner).expect("a case").current();
            let in_d = c.groups * c.group_in;
            let out_d = c.groups * c.group_out;
            let oh = out_size(c.in_h, c.pads[0], c.pads[1], c.k_h, c.stride_h, c.dil_h);
            let ow = out_size(c.in_w, c.pads[2], c.pads[3], c.k_w, c.stride_w, c.dil_w);
            let g = ConvGeometry {
                input_shape: [c.batches, c.in_h, c.in_w, in_d],
                filter_shape: [out_d, c.k_h, c.k_w, c.group_in],
                output_shape: [c.batches, oh, ow, out_d],
                stride_height: c.stride_h,
                stride_width: c.stride_w,
                dilation_height: c.dil_h,
                dilation_width: c.dil_w,
                pad_top: c.pads[0],
                pad_left: c.pads[2],
            };
            seen.insert(std::format!("{:?}", Conv2dVariant::select(&g)));
        }
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
}

/// The window variant's accumulator wraps like the reference's: the folded bias starts at
/// `i32::MAX`, one more product crosses to `i32::MIN`.
#[test]
fn fast_accumulator_wraps() {
    let (mult, shift) = ([1 << 30], [0]);
    let base = Conv2dParams { geometry: ConvGeometry { input_shape: [1, 1, 1, 1], filter_shape: [1, 1, 1, 1], output_shape: [1, 1, 1, 1], stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1, pad_top: 0, pad_left: 0 }, quant: QuantS8 { input_offset: 3, output_offset: 0, output_multiplier: &mult, output_shift: &shift }, clamp: Clamp { min: -128, max: 127 } };
    let bias = [i32::MAX - 3];
    let v = Conv2dVariant::Window;
    let mut folded = [0i32];
    v.pack(&base, &[1], Some(&bias), &mut folded);
    assert_eq!(folded, [i32::MAX]);
    for x in [1i8, 0, -1] {
        let (mut fast, mut reference) = ([0i8], [0i8]);
        super::fast::conv_window::<crate::kernels::dot::scalar::Scalar>(&base, &[x], &[1], Some(&bias), &folded, &mut fast);
        super::conv_2d_s8(&base, &[x], &[1], Some(&bias), &mut reference);
        assert_eq!(fast, reference, "x = {x}");
    }
}
