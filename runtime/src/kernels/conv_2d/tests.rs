//! CONV_2D tests: one [`KernelCase`] (random geometry and quantization, fixed edge cases,
//! the naive definition as oracle: materialized zero-point padding, i64 accumulation
//! wrapped to int32 like TFLite's) and one suite per implementation.

use super::{Conv2dParams, Conv2dVariant, ConvGeometry};
use crate::isa::{HostSimd, TargetClass};
use crate::kernels::dot::Dot;
use crate::kernels::numerics::{Clamp, QuantS8, S8};
use crate::kernels::test_util::{extremes, kernel_tests, multipliers, zero_point, KernelCase, Rng, LANE_TAILS};
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::string::String;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&Conv2dParams<S8>, &[i8], &[i8], Option<&[i32]>, &mut [i8]);

/// The filter in LUT form (`kernels::lut`; per-channel tables for odd rows, one shared
/// table for even ones) run by the `_lut` kernel with the dot implementation `D`; a filter
/// with no LUT form (more than 128 values a table) runs the reference.
fn lut<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let [out_d, f_h, f_w, f_d] = p.geometry.filter_shape;
    let row = f_h * f_w * f_d;
    let rows: Vec<Vec<i8>> = filter.chunks(row.max(1)).take(out_d).map(<[i8]>::to_vec).collect();
    match crate::kernels::lut::testing::encode(&rows, row % 2 == 1, row % 3) {
        Some(w) if row > 0 => crate::kernels::lut::conv_2d_lut::<D>(p, input, &w.view(), bias, output),
        _ => super::conv_2d_s8(p, input, filter, bias, output),
    }
}

/// The filter packed as int4 (`kernels::int4`, the file's order: output-channel rows) run by
/// the `_int4` kernel with the dot implementation `D` (the `Int4<Conv>` suites: every weight
/// is in `-8..=7`).
fn int4<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    // The form the compiler would select, packed as it packs it.
    use crate::kernels::int4::Conv2dInt4;
    let form = Conv2dInt4::select(p, filter, bias);
    let mut packed = vec![0i32; form.packed_len(&p.geometry)];
    form.pack(p, filter, bias, &mut packed);
    match form {
        Conv2dInt4::Rows => {
            let mut nibbles = vec![0u8; filter.len().div_ceil(2)];
            crate::kernels::int4::pack(filter, &mut nibbles);
            crate::kernels::lut::conv_2d_lut::<D>(p, input, &crate::kernels::int4::Int4Weights { nibbles: &nibbles }, bias, output)
        }
        Conv2dInt4::Gemm => super::gemm::conv_gemm_int4::<D, false>(p, input, &packed, output),
        Conv2dInt4::GemmPw => super::gemm::conv_gemm_int4::<D, true>(p, input, &packed, output),
    }
}

/// The variant the compiler would select for `p`, its weights packed as the compiler packs
/// them, run with the dot implementation `D`: the suite instantiated for every
/// implementation the machine can execute.
fn selected<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = Conv2dVariant::select(p, filter, bias, crate::isa::TargetClass::ArmDsp);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    match v {
        Conv2dVariant::Reference => super::conv_2d_s8(p, input, filter, bias, output),
        Conv2dVariant::Gemm => super::gemm::conv_gemm::<D>(p, input, &packed, output),
        Conv2dVariant::GemmChunked => super::gemm::conv_gemm_chunked::<D>(p, input, &packed, output),
        Conv2dVariant::GemmPw => super::gemm::conv_gemm_pw::<D>(p, input, &packed, output),
        Conv2dVariant::GemmChunkedPw => super::gemm::conv_gemm_chunked_pw::<D>(p, input, &packed, output),
        Conv2dVariant::Pointwise => super::fast::conv_1x1::<D>(p, input, filter, &packed, output),
        Conv2dVariant::Window => super::fast::conv_window::<D>(p, input, filter, bias, &packed, output),
        Conv2dVariant::Wide => super::wide::conv_wide_s8(p, input, &packed, output),
        Conv2dVariant::Quad => super::quad::conv_quad(p, input, &packed, output),
    }
}

/// The variant a host build selects (x86-64's when `X86`, the other hosts' else), run in its
/// portable form (whatever `crate::isa` selected): the check of the host layouts on every
/// machine.
fn host_portable<const X86: bool>(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let class = if X86 { crate::isa::TargetClass::X86 } else { crate::isa::TargetClass::Host };
    let v = Conv2dVariant::select(p, filter, bias, class);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    match v {
        Conv2dVariant::Reference => super::conv_2d_s8(p, input, filter, bias, output),
        Conv2dVariant::Gemm => super::gemm::conv_gemm::<crate::kernels::dot::scalar::Scalar>(p, input, &packed, output),
        Conv2dVariant::GemmChunked => super::gemm::conv_gemm_chunked::<crate::kernels::dot::scalar::Scalar>(p, input, &packed, output),
        Conv2dVariant::GemmPw => super::gemm::conv_gemm_pw::<crate::kernels::dot::scalar::Scalar>(p, input, &packed, output),
        Conv2dVariant::GemmChunkedPw => super::gemm::conv_gemm_chunked_pw::<crate::kernels::dot::scalar::Scalar>(p, input, &packed, output),
        Conv2dVariant::Pointwise => super::fast::conv_1x1::<crate::kernels::dot::scalar::Scalar>(p, input, filter, &packed, output),
        Conv2dVariant::Window => super::fast::conv_window::<crate::kernels::dot::scalar::Scalar>(p, input, filter, bias, &packed, output),
        Conv2dVariant::Wide => super::wide::conv_wide_s8(p, input, &packed, output),
        Conv2dVariant::Quad => super::quad::conv_quad(p, input, &packed, output),
    }
}

/// The same through the public variant functions (the selected ISA), as generated code
/// calls them.
/// The variant `class` selects, through its public function (the variant table's `run`)
/// with `simd` selected on this thread: the dispatch generated code goes through, on one
/// instruction set.
#[allow(dead_code)]
fn under(simd: HostSimd, class: TargetClass, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    crate::isa::under(simd, || {
        let v = Conv2dVariant::select(p, filter, bias, class);
        let mut packed = vec![0i32; v.packed_len(&p.geometry)];
        v.pack(p, filter, bias, &mut packed);
        v.run(p, crate::variants::Operands { input, filter, bias, packed: &packed }, output);
    })
}

fn public(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = Conv2dVariant::select(p, filter, bias, crate::isa::TargetClass::BUILD);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    v.run(p, crate::variants::Operands { input, filter, bias, packed: &packed }, output);
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
                    // The int32 accumulator wraps (no saturation), as TFLite's does.
                    let acc = acc as i32;
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

/// A random CONV_2D: its shapes, options and zero points; the data, multipliers and clamp
/// come from `seed`.
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

impl Case {
    fn geometry(&self) -> ConvGeometry {
        let c = self;
        let (in_d, out_d) = (c.groups * c.group_in, c.groups * c.group_out);
        let oh = out_size(c.in_h, c.pads[0], c.pads[1], c.k_h, c.stride_h, c.dil_h);
        let ow = out_size(c.in_w, c.pads[2], c.pads[3], c.k_w, c.stride_w, c.dil_w);
        ConvGeometry {
            input_shape: [c.batches, c.in_h, c.in_w, in_d],
            filter_shape: [out_d, c.k_h, c.k_w, c.group_in],
            output_shape: [c.batches, oh, ow, out_d],
            stride_height: c.stride_h,
            stride_width: c.stride_w,
            dilation_height: c.dil_h,
            dilation_width: c.dil_w,
            pad_top: c.pads[0],
            pad_left: c.pads[2],
        }
    }

    fn problem(&self) -> Problem {
        let c = self;
        let mut rng = Rng(c.seed);
        let geometry = self.geometry();
        let out_d = c.groups * c.group_out;
        let (mult, shift) = multipliers(&mut rng, out_d, -14, 1);
        let (act_min, act_max) = rng.activation_range();
        let input = rng.i8s(geometry.input_shape.iter().product());
        let filter = rng.i8s(geometry.filter_shape.iter().product());
        let bias = rng.i32s(out_d, -(1 << 18), 1 << 18);
        Problem {
            geometry,
            input_offset: -c.in_zp,
            output_offset: c.out_zp,
            mult,
            shift,
            clamp: (act_min as i8, act_max as i8),
            input,
            filter,
            bias: c.with_bias.then_some(bias),
            expected: None,
        }
    }

    /// A case with one group, no dilation, stride 1, zero points 0 and a bias.
    fn plain(in_h: usize, in_w: usize, channels: usize, out_channels: usize, k: [usize; 2], pads: [usize; 4], seed: u64) -> Case {
        Case {
            batches: 1,
            in_h,
            in_w,
            groups: 1,
            group_in: channels,
            group_out: out_channels,
            k_h: k[0],
            k_w: k[1],
            stride_h: 1,
            stride_w: 1,
            dil_h: 1,
            dil_w: 1,
            pads,
            in_zp: 0,
            out_zp: 0,
            with_bias: true,
            seed,
        }
    }
}

/// A fully specified CONV_2D, with its hand-computed output when there is one.
#[derive(Debug, Clone)]
struct Problem {
    geometry: ConvGeometry,
    input_offset: i32,
    output_offset: i32,
    mult: Vec<i32>,
    shift: Vec<i32>,
    clamp: (i8, i8),
    input: Vec<i8>,
    filter: Vec<i8>,
    bias: Option<Vec<i32>>,
    expected: Option<Vec<i8>>,
}

impl Problem {
    fn params(&self) -> Conv2dParams<'_, S8> {
        Conv2dParams {
            geometry: self.geometry,
            quant: QuantS8 { input_offset: self.input_offset, output_offset: self.output_offset, output_multiplier: &self.mult, output_shift: &self.shift },
            clamp: Clamp { min: self.clamp.0, max: self.clamp.1 },
        }
    }

    /// A 1-channel problem with per-tensor multiplier `(mult, shift)`, the full clamp and
    /// output zero point 0 (the hand-computed cases).
    #[allow(clippy::too_many_arguments)]
    fn hand(geometry: ConvGeometry, input_offset: i32, output_offset: i32, mult: (i32, i32), input: &[i8], filter: &[i8], bias: Option<&[i32]>, expected: &[i8]) -> Problem {
        Problem {
            geometry,
            input_offset,
            output_offset,
            mult: vec![mult.0],
            shift: vec![mult.1],
            clamp: (-128, 127),
            input: input.to_vec(),
            filter: filter.to_vec(),
            bias: bias.map(<[i32]>::to_vec),
            expected: Some(expected.to_vec()),
        }
    }
}

fn geometry(input_shape: [usize; 4], filter_shape: [usize; 4], output_shape: [usize; 4], pad: usize) -> ConvGeometry {
    ConvGeometry { input_shape, filter_shape, output_shape, stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1, pad_top: pad, pad_left: pad }
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

/// Deep inputs (16..40 channels, one group): whole-word rows of the blocked variant, and
/// windows of more than one of its 64-tap chunks, border windows included.
fn deep_case() -> impl Strategy<Value = Case> {
    (case(), 16usize..40).prop_map(|(c, group_in)| Case { groups: 1, group_in, ..c })
}

/// Pointwise cases (1x1 filter, no padding before; sometimes after, which leaves windows
/// outside the input), for the fast path's 1x1 branch.
fn pointwise_case() -> impl Strategy<Value = Case> {
    (case(), 0usize..2, 0usize..2, prop_oneof![1usize..8, 8usize..40])
        .prop_map(|(c, after_h, after_w, group_in)| Case { k_h: 1, k_w: 1, pads: [0, after_h, 0, after_w], group_in, ..c })
}

/// One CONV_2D case: random (shapes and seed) or fully specified.
#[derive(Debug, Clone)]
enum Conv {
    Random(Case),
    Fixed(Problem),
}

impl Conv {
    fn problem(&self) -> Problem {
        match self {
            Conv::Random(c) => c.problem(),
            Conv::Fixed(p) => p.clone(),
        }
    }
}

impl KernelCase for Conv {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = super::conv_2d_s8;
    /// The three shape families (general, deep, pointwise) get about 200 cases each, per
    /// property: a variant line then runs 600 against the oracle and 600 more against the
    /// reference (the old per-implementation suite ran 3 x 300, both checks on each).
    const CASES: Option<u32> = Some(600);

    fn strategy() -> BoxedStrategy<Self> {
        prop_oneof![case(), deep_case(), pointwise_case()].prop_map(Conv::Random).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        // 1x1 conv, 2 in -> 2 out channels, hand-computed. acc = w . (x - zp) + bias; x * 0.5
        // through SaturatingRoundingDoublingHighMul: positive ties round up, negative ties
        // toward zero (gemmlowp's nudge is 1 - 2^30 below zero).
        // pixel 0: ch0 = 2 + 8 + 1 = 11 -> 5.5 -> 6 -> 3; ch1 = -6 + 4 - 1 = -3 -> -1.5 -> -1 -> -4
        // pixel 1: ch0 = -2 + 0 + 1 = -1 -> -0.5 -> 0 -> -3; ch1 = 6 + 0 - 1 = 5 -> 2.5 -> 3 -> 0
        let g = geometry([1, 1, 2, 2], [2, 1, 1, 2], [1, 1, 2, 2], 0);
        v.push(Problem::hand(g, -1, -3, (1 << 30, 0), &[3, 5, -1, 1], &[1, 2, -3, 1], Some(&[1, -1]), &[3, -4, -3, 0]));
        // SAME 3x3 on a 2x2 image: every window is clipped; padding contributes nothing even
        // with a non-zero input zero point (1, 2, 3, 4 after the offset).
        let g = geometry([1, 2, 2, 1], [1, 3, 3, 1], [1, 2, 2, 1], 1);
        v.push(Problem::hand(g, 100, 0, (1 << 30, 1), &[-99, -98, -97, -96], &[1; 9], None, &[10; 4]));
        // The int32 accumulator wraps like TFLite's (no saturation): MAX + 1 is MIN.
        let g = geometry([1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], 0);
        v.push(Problem::hand(g, 0, 0, (1 << 30, 0), &[1], &[1], Some(&[i32::MAX]), &[-128]));
        v.push(Problem::hand(g, 0, 0, (1 << 30, 0), &[0], &[1], Some(&[i32::MAX]), &[127]));
        // Zero-size output: nothing is written, nothing panics.
        let g = geometry([1, 2, 2, 1], [1, 3, 3, 1], [1, 0, 0, 1], 0);
        v.push(Problem::hand(g, 0, 0, (1 << 30, 0), &[0; 4], &[0; 9], None, &[]));
        let mut v: Vec<Conv> = v.into_iter().map(Conv::Fixed).collect();
        // Lane tails of the channel dot products (odd channel counts included), for the
        // blocked (gemm: whole-word rows and gathered windows) and window variants, with and
        // without padding.
        for n in LANE_TAILS {
            let seed = n as u64;
            v.push(Conv::Random(Case::plain(2, 3, n, 3, [1, 1], [0; 4], seed)));
            v.push(Conv::Random(Case::plain(3, 3, n, n, [3, 3], [1; 4], seed)));
            v.push(Conv::Random(Case::plain(2, 4, n, 2, [2, 3], [0; 4], seed)));
            v.push(Conv::Random(Case { groups: 3, ..Case::plain(2, 2, n, 2, [2, 2], [1, 0, 0, 1], seed) }));
        }
        // Every padding edge: each side 0, 1 (part of a window outside) or 3 (whole windows
        // in the padding), at strides 1 and 2, dilation 1 and 2.
        for (i, pads) in (0..81).map(|i| [i % 3, i / 3 % 3, i / 9 % 3, i / 27].map(|p| [0, 1, 3][p])).enumerate() {
            for (stride, dil) in [(1, 1), (2, 1), (1, 2)] {
                let c = Case { stride_h: stride, stride_w: stride, dil_h: dil, dil_w: dil, in_zp: 5, out_zp: -3, ..Case::plain(4, 5, 3, 2, [3, 3], pads, i as u64) };
                v.push(Conv::Random(c));
            }
        }
        // ±127 / −128 everywhere (data and zero points), against every variant.
        for (i, (in_zp, out_zp)) in [(-128, 127), (127, -128), (-128, -128), (127, 127)].into_iter().enumerate() {
            for (k, pads, channels) in [([1, 1], [0; 4], 17), ([3, 3], [1; 4], 2), ([3, 3], [1; 4], 20)] {
                let mut p = Case { in_zp, out_zp, ..Case::plain(3, 4, channels, 5, k, pads, i as u64) }.problem();
                p.input = extremes(p.input.len());
                p.filter = extremes(p.filter.len()).into_iter().rev().collect();
                v.push(Conv::Fixed(p));
            }
        }
        // Multiplier extremes: the largest multiplier with the largest left shift, the
        // smallest right shifts, per channel and per tensor.
        for (i, (mult, shift)) in [(i32::MAX, 1), (1 << 30, 1), (i32::MAX, 0), (1 << 30, -31), (i32::MAX, -20), (1 << 30, -14)].into_iter().enumerate() {
            for channels in [1, 5] {
                let mut p = Case { in_zp: -128, out_zp: 127, ..Case::plain(3, 3, 4, channels, [3, 3], [1; 4], i as u64) }.problem();
                p.mult = vec![mult; p.mult.len()];
                p.shift = vec![shift; p.shift.len()];
                p.clamp = (-128, 127);
                v.push(Conv::Fixed(p));
            }
        }
        // The host tiles (`Quad`: blocks of 16 channels, 8 and 16 pixels per tile, a last
        // block of at most 8 channels two pixels per register, pixel tails; `Wide`): output
        // channel counts around 8, 16, 32, depths 1, 3, 8 (quads padded), rows of 1 to 21
        // pixels, padding and stride 2, zero points at the extremes.
        for (i, (in_d, out_d, k, stride, in_w)) in [
            (1, 1, [3, 3], 1, 21),
            (3, 8, [3, 3], 2, 21),
            (3, 15, [3, 3], 1, 7),
            (8, 16, [1, 1], 1, 19),
            (3, 17, [3, 3], 1, 11),
            (1, 24, [3, 3], 1, 9),
            (8, 33, [3, 3], 2, 13),
            (4, 40, [1, 1], 1, 5),
            (5, 48, [3, 3], 1, 3),
            (16, 64, [3, 3], 1, 17),
        ]
        .into_iter()
        .enumerate()
        {
            let pads = if k[0] == 1 { [0; 4] } else { [1; 4] };
            let (in_zp, out_zp) = [(-128, 127), (127, -128), (5, -3)][i % 3];
            let mut p = Case { stride_h: stride, stride_w: stride, in_zp, out_zp, ..Case::plain(4, in_w, in_d, out_d, k, pads, 50 + i as u64) }.problem();
            if i % 3 != 2 {
                p.input = extremes(p.input.len());
            }
            p.mult = (0..p.mult.len()).map(|c| (1 << 30) + (c as i32) * 54321).collect();
            p.shift = (0..p.shift.len()).map(|c| -6 - (c % 5) as i32).collect();
            v.push(Conv::Fixed(p));
        }
        // The window bound of `Wide` and `Quad` (3x3x512 = 4608 taps) and just past it.
        for in_d in [512, 513] {
            let mut p = Case { in_zp: -128, out_zp: 0, ..Case::plain(3, 3, in_d, 17, [3, 3], [1; 4], 60 + in_d as u64) }.problem();
            p.mult = vec![1 << 30; p.mult.len()];
            p.shift = vec![-12; p.shift.len()];
            v.push(Conv::Fixed(p));
        }
        // The GemmChunked variant's windows (more than 64 taps) over more than one block of
        // 8 channel pairs (33, 40, 70 channels), whole-word rows and gathered ones (3 and 13
        // channels), with padding, stride 2 and dilation 2; windows of more than 288 taps
        // (more than one chunk of 72 groups, RV32's and Helium's: 64 and 37 channels); the
        // last cases are 1x1.
        for (i, (in_d, out_d, k, stride, dil)) in [
            (24, 33, [3, 3], 1, 1),
            (13, 40, [3, 3], 2, 1),
            (3, 70, [5, 5], 2, 1),
            (20, 34, [3, 3], 1, 2),
            (64, 33, [3, 3], 1, 1),
            (37, 34, [3, 3], 2, 1),
            (128, 36, [1, 1], 1, 1),
            (90, 33, [1, 1], 1, 1),
        ]
                .into_iter()
                .enumerate()
        {
            let pads = if k[0] == 1 { [0; 4] } else { [1, 2, 1, 2] };
            let mut p = Case { stride_h: stride, stride_w: stride, dil_h: dil, dil_w: dil, in_zp: -7, out_zp: 3, ..Case::plain(5, 6, in_d, out_d, k, pads, 70 + i as u64) }.problem();
            p.mult = (0..p.mult.len()).map(|c| (1 << 30) + (c as i32) * 12345).collect();
            p.shift = (0..p.shift.len()).map(|c| -9 - (c % 4) as i32).collect();
            v.push(Conv::Fixed(p));
        }
        // The Gemm variant at its exactness bound (accumulators up to 2^30 - 2 in magnitude,
        // the largest multiplier, right shifts 1..=31, a channel with multiplier 0), and just
        // past it (the window variant).
        for (i, (sign, past)) in [(1i64, 0i64), (-1, 0), (1, 300)].into_iter().enumerate() {
            let mut p = Case { in_zp: -128, out_zp: 5, ..Case::plain(3, 3, 4, 6, [3, 3], [1; 4], 90 + i as u64) }.problem();
            p.mult = vec![i32::MAX, i32::MAX, 1 << 30, i32::MAX, i32::MAX, 0];
            // The multiplier-0 channel with a right shift, and (second case) a left shift:
            // the block requantization has no case for it, whatever the shift.
            p.shift = vec![-1, -2, -5, -13, -31, if i == 1 { 3 } else { -1 }];
            let row = 36;
            let bias = (0..6).map(|c| {
                let taps: i64 = p.filter[c * row..][..row].iter().map(|&w| (w as i64).abs()).sum();
                (sign * ((1i64 << 30) - 2 - 255 * taps + past)) as i32
            });
            p.bias = Some(bias.collect());
            p.clamp = (-128, 127);
            v.push(Conv::Fixed(p));
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let p = self.problem();
        let mut out = vec![0x55u8 as i8; p.geometry.output_shape.iter().product()];
        kernel(&p.params(), &p.input, &p.filter, p.bias.as_deref(), &mut out);
        Ok(out)
    }

    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        let p = self.problem();
        let want = naive(&p.params(), &p.input, &p.filter, p.bias.as_deref());
        crate::kernels::test_util::check_output(out, &want, p.expected.as_deref())
    }
}

kernel_tests!(reference, Conv, crate::kernels::conv_2d::conv_2d_s8);
kernel_tests!(selected_scalar, if true, Conv, selected::<crate::kernels::dot::scalar::Scalar>);
// The drivers' byte paths (Helium's `GEMM_BYTES`), with the scalar micro-kernels.
kernel_tests!(selected_scalar_bytes, if true, Conv, selected::<crate::kernels::dot::scalar::ScalarBytes>);
// The RV32 micro-kernels (portable Rust, so run natively here too) on the Arm layouts.
kernel_tests!(selected_rv32, if true, Conv, selected::<crate::kernels::dot::rv32::Rv32>);
#[cfg(tflc_arm_dsp)]
kernel_tests!(selected_arm_dsp, if true, Conv, selected::<crate::kernels::dot::dsp::ArmDsp>);
#[cfg(target_arch = "x86_64")]
kernel_tests!(selected_avx2, if HostSimd::Avx2.executable(), Conv, |p, x, f, b, o| under(HostSimd::Avx2, TargetClass::X86, p, x, f, b, o));
#[cfg(target_arch = "x86_64")]
kernel_tests!(selected_avxvnni, if HostSimd::AvxVnni.executable(), Conv, |p, x, f, b, o| under(HostSimd::AvxVnni, TargetClass::X86, p, x, f, b, o));
#[cfg(target_arch = "x86_64")]
kernel_tests!(selected_avx512vnni, if HostSimd::Avx512Vnni.executable(), Conv, |p, x, f, b, o| under(HostSimd::Avx512Vnni, TargetClass::X86, p, x, f, b, o));
#[cfg(target_arch = "x86_64")]
kernel_tests!(wide_avx2, if HostSimd::Avx2.executable(), Conv, |p, x, f, b, o| under(HostSimd::Avx2, TargetClass::Host, p, x, f, b, o));
#[cfg(target_arch = "x86_64")]
kernel_tests!(wide_avx512vnni, if HostSimd::Avx512Vnni.executable(), Conv, |p, x, f, b, o| under(HostSimd::Avx512Vnni, TargetClass::Host, p, x, f, b, o));
#[cfg(target_arch = "x86_64")]
kernel_tests!(rows_avx512vnni, if crate::arch::x86_64::vnni::tests::detected(), Conv, crate::arch::x86_64::vnni::tests::conv_2d_rows);
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
kernel_tests!(selected_neon_micro, if true, Conv, selected::<crate::kernels::dot::neon::Neon>);
#[cfg(tflc_neon)]
kernel_tests!(selected_neon, if true, Conv, crate::arch::aarch64::tests::conv_2d::<false>);
#[cfg(tflc_neon)]
kernel_tests!(selected_neon_sdot, if crate::arch::aarch64::tests::dotprod_detected(), Conv, crate::arch::aarch64::tests::conv_2d::<true>);
#[cfg(tflc_neon)]
kernel_tests!(pointwise_neon, if true, Conv, crate::arch::aarch64::tests::conv_2d_pointwise::<false>);
#[cfg(tflc_neon)]
kernel_tests!(pointwise_neon_sdot, if crate::arch::aarch64::tests::dotprod_detected(), Conv, crate::arch::aarch64::tests::conv_2d_pointwise::<true>);
kernel_tests!(public_api, if true, Conv, public);
kernel_tests!(selected_host_portable, if true, Conv, host_portable::<false>);
kernel_tests!(selected_x86_portable, if true, Conv, host_portable::<true>);

/// Legacy uint8 CONV_2D: the `Wide` variant (portable, and AVX2 where the machine runs it)
/// against `conv_2d_u8` on the suite's random geometries, with every zero point (inputs,
/// weights, outputs at both ends of their ranges) and saturating clamps.
mod wide_u8 {
    use super::*;
    use crate::kernels::numerics::{QuantU8, U8};

    fn run(c: &Case, zps: (i32, i32, i32), mult: (i32, i32), clamp: (u8, u8), with_bias: bool) -> Result<(), TestCaseError> {
        let geometry = c.geometry();
        let mut rng = Rng(c.seed ^ 0x75_38);
        let n_in: usize = geometry.input_shape.iter().product();
        let n_w: usize = geometry.filter_shape.iter().product();
        let out_d = geometry.filter_shape[0];
        let input: Vec<u8> = (0..n_in).map(|_| rng.range(0, 255) as u8).collect();
        let filter: Vec<u8> = (0..n_w).map(|_| rng.range(0, 255) as u8).collect();
        let bias: Option<Vec<i32>> = with_bias.then(|| (0..out_d).map(|_| rng.range(-(1 << 20), 1 << 20) as i32).collect());
        let p = Conv2dParams::<U8> {
            geometry,
            quant: QuantU8 { input_offset: -zps.0, weights_offset: -zps.1, output_offset: zps.2, output_multiplier: mult.0, output_shift: mult.1 },
            clamp: Clamp { min: clamp.0, max: clamp.1 },
        };
        let n_out: usize = geometry.output_shape.iter().product();
        let mut want = vec![0u8; n_out];
        super::super::conv_2d_u8(&p, &input, &filter, bias.as_deref(), &mut want);
        let v = super::super::Conv2dU8Variant::select(&p, crate::isa::TargetClass::Host);
        if v != super::super::Conv2dU8Variant::Wide {
            prop_assert_eq!(v, super::super::Conv2dU8Variant::Reference);
            return Ok(());
        }
        let mut packed = vec![0i32; v.packed_len(&geometry)];
        v.pack(&p, &filter, bias.as_deref(), &mut packed);
        let mut got = vec![0x55u8; n_out];
        super::super::wide::conv_wide_u8(&p, &input, &packed, &mut got);
        prop_assert_eq!(&got, &want, "portable");
        #[cfg(target_arch = "x86_64")]
        if crate::kernels::test_util::available("avx2", crate::arch::x86_64::tests::detected()) {
            let token = crate::arch::x86_64::Avx2::detect().expect("detected");
            let mut got = vec![0x55u8; n_out];
            crate::arch::x86_64::conv_2d_u8_wide(token, &p, &input, &packed, &mut got);
            prop_assert_eq!(&got, &want, "avx2");
        }
        #[cfg(target_arch = "x86_64")]
        if crate::kernels::test_util::available("avx512vnni", crate::arch::x86_64::vnni::tests::detected()) {
            let token = crate::arch::x86_64::vnni::tests::token();
            let mut got = vec![0x55u8; n_out];
            crate::arch::x86_64::vnni::conv_2d_u8_wide(token, &p, &input, &packed, &mut got);
            prop_assert_eq!(&got, &want, "avx512vnni");
        }
        #[cfg(tflc_neon)]
        {
            let mut got = vec![0x55u8; n_out];
            crate::arch::aarch64::conv_2d_u8_wide(crate::arch::aarch64::Neon::new(), &p, &input, &packed, &mut got);
            prop_assert_eq!(&got, &want, "neon");
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn matches_reference(
            c in prop_oneof![case(), pointwise_case()],
            zps in (prop_oneof![Just(0), Just(255), 0i32..=255], prop_oneof![Just(0), Just(255), 0i32..=255], prop_oneof![Just(0), Just(255), 0i32..=255]),
            mult in ((1i32 << 30)..i32::MAX, -12i32..=2),
            clamp in prop_oneof![Just((0u8, 255u8)), (0u8..=128, 128u8..=255)],
            with_bias in any::<bool>(),
        ) {
            run(&c, zps, mult, clamp, with_bias)?;
        }
    }
}

/// The strategies reach every variant (the suites above would otherwise test less than
/// they claim).
#[test]
fn strategies_reach_every_variant() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut per_strategy = Vec::new();
    for strategy in [case().boxed(), deep_case().boxed(), pointwise_case().boxed(), Conv::strategy().prop_map(|c| match c {
        Conv::Random(c) => c,
        Conv::Fixed(_) => unreachable!(),
    }).boxed()] {
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..300 {
            let c = strategy.new_tree(&mut runner).expect("a case").current();
            seen.insert(std::format!("{:?}", variant_of(&c.problem())));
        }
        per_strategy.push(seen);
    }
    // Every Arm variant but `GemmChunkedPw` (a pointwise layer of more than 64 input
    // channels, past the random shapes), which the edge cases reach.
    let all: std::collections::BTreeSet<_> = per_strategy[..3].iter().flatten().cloned().collect();
    assert_eq!(all.len(), 6, "{per_strategy:?}");
    assert_eq!(per_strategy[3].len(), 6, "{per_strategy:?}");
    let edges: std::collections::BTreeSet<_> = Conv::edge_cases().iter().map(|c| std::format!("{:?}", variant_of(&c.problem()))).collect();
    assert!(edges.contains("GemmChunkedPw"), "edge cases reach {edges:?}");
    assert_eq!(all.union(&edges).count(), 7, "edge cases reach {edges:?}");
}

/// The bound edge cases select Gemm up to the bound and the window variant past it.
#[test]
fn gemm_bound_selects() {
    let edges = Conv::edge_cases();
    let got: Vec<Conv2dVariant> = edges[edges.len() - 3..].iter().map(|c| variant_of(&c.problem())).collect();
    assert_eq!(got, [Conv2dVariant::Gemm, Conv2dVariant::Gemm, Conv2dVariant::Window]);
}

/// The chunked Gemm edge cases do run the GemmChunked variant.
#[test]
fn chunked_gemm_cases_select_gemm_chunked() {
    let edges = Conv::edge_cases();
    let got: Vec<Conv2dVariant> = edges[edges.len() - 11..edges.len() - 3].iter().map(|c| variant_of(&c.problem())).collect();
    // The 1x1 on 128 channels (whole words) is the pointwise form; on 90 the general one.
    let mut want = [Conv2dVariant::GemmChunked; 8];
    want[6] = Conv2dVariant::GemmChunkedPw;
    assert_eq!(got, want);
}

/// The variant the compiler selects for a problem.
fn variant_of(p: &Problem) -> Conv2dVariant {
    Conv2dVariant::select(&p.params(), &p.filter, p.bias.as_deref(), crate::isa::TargetClass::ArmDsp)
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
crate::kernels::test_util::every_dot!(lut, Conv, lut);

crate::kernels::test_util::narrow_int4!(Conv);
// int4 filters kept packed (`kernels::int4`): the same suite with every weight in -8..=7,
// through the form the compiler selects (the `Gemm` drivers on nibble words where `Gemm`
// applies, else the `_lut` drivers on `Int4Weights`), with every dot implementation.
crate::kernels::test_util::every_dot!(int4, crate::kernels::test_util::Int4<Conv>, int4);
