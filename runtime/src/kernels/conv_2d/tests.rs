//! CONV_2D tests: one [`KernelCase`] (random geometry and quantization, fixed edge cases,
//! the naive definition as oracle: materialized zero-point padding, i64 accumulation
//! wrapped to int32 like TFLite's) and one suite per implementation.

use super::{Conv2dParams, Conv2dVariant, ConvGeometry};
use crate::isa::{HostSimd, TargetClass};
use crate::kernels::dot::Dot;
use crate::kernels::numerics::{Clamp, QuantS8, S8};
use crate::kernels::test_util::{extremes, kernel_tests, multipliers, out_size, pad_image, requantize_s8, zero_point, KernelCase, Rng, LANE_TAILS};
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
    let padded = pad_image(input, [n, h, w, c], [p.geometry.pad_top, p.geometry.pad_left], [ph, pw], -p.quant.input_offset as i64);
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
                    out[((b * oh + y) * ow + x) * oc + o] = requantize_s8(acc, &p.quant, o, p.clamp);
                }
            }
        }
    }
    out
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

/// float32 CONV_2D (`conv_2d_f32`, its packed, blocked and float16-weight variants), and
/// the float32 convolution case DEPTHWISE_CONV_2D's suites share ([`ConvF32`]). The oracle
/// is two naive implementations written from TFLite's float reference kernels
/// (`reference_ops::Conv`, `DepthwiseConv`):
///
/// - the same arithmetic in `f32`, in TFLite's order (taps outside the image skipped, `total
///   += x * w` per tap, then `total + bias`, then the clamp): the reference and blocked
///   kernels must match it **bit for bit**;
/// - the real result in `f64`: the kernel must be within `1e-5 * sum |x * w|` of it (the
///   float rounding bound for these sizes), so an order that happened to agree with a wrong
///   naive version would still fail.
///
/// Edge cases: lane tails, every padding edge at strides and dilations 1 and 2, every fused
/// activation clamp, huge and tiny magnitudes, empty outputs.
pub(crate) mod float32 {
    #![allow(clippy::needless_range_loop)] // the naive definitions index as TFLite's loops do

    use super::super::{conv_2d_f32, Conv2dParams};
    use crate::kernels::numerics::F32;
    use crate::kernels::test_util::{act_f32, clamp_f32, compare_f32, compare_packed, floats, halves, kernel_tests, out_size, packed_suites, same_f32_bits, KernelCase, Rng, LANE_TAILS};
    use crate::kernels::window::ConvGeometry;
    use proptest::prelude::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    /// A float32 convolution: CONV_2D with `out_d` filters, or DEPTHWISE_CONV_2D with
    /// `out_d` a multiple of `in_d`.
    #[derive(Clone, Debug)]
    pub(crate) struct ConvF32 {
        pub(crate) batches: usize,
        pub(crate) hw: [usize; 2],
        pub(crate) in_d: usize,
        pub(crate) out_d: usize,
        pub(crate) k: [usize; 2],
        pub(crate) stride: [usize; 2],
        pub(crate) dil: [usize; 2],
        /// `[top, bottom, left, right]`.
        pub(crate) pad: [usize; 4],
        pub(crate) clamp: usize,
        pub(crate) bias: bool,
        pub(crate) scale: f32,
        pub(crate) seed: u64,
    }

    type ConvKernel = fn(&Conv2dParams<F32>, &[f32], &[f32], Option<&[f32]>, &mut [f32]);

    impl ConvF32 {
        pub(crate) fn plain(hw: [usize; 2], in_d: usize, out_d: usize, k: [usize; 2], pad: [usize; 4], seed: u64) -> ConvF32 {
            ConvF32 { batches: 1, hw, in_d, out_d, k, stride: [1, 1], dil: [1, 1], pad, clamp: seed as usize, bias: !seed.is_multiple_of(3), scale: 1.0, seed }
        }

        pub(crate) fn strategy(depthwise: bool) -> BoxedStrategy<Self> {
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

        pub(crate) fn edge_cases(depthwise: bool) -> Vec<Self> {
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

        /// Edge cases for the packed convolutions on top of the reference's: rows wide
        /// enough for the four-pixel blocks, with borders, at every channel count 1..=33
        /// (block tails of 8 and 16), strides and dilations 2.
        pub(crate) fn packed_edge_cases(depthwise: bool) -> Vec<ConvF32> {
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

        /// Wider rows than the reference's strategy, so the four-pixel blocks run; depthwise
        /// cases have depth multiplier 1 (others take the reference variant).
        pub(crate) fn packed_strategy(depthwise: bool) -> BoxedStrategy<ConvF32> {
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

        pub(crate) fn geometry(&self) -> ConvGeometry {
            let ConvF32 { batches, hw: [h, w], in_d, out_d, k: [kh, kw], stride: [sh, sw], dil: [dh, dw], pad, .. } = *self;
            let (oh, ow) = (out_size(h, pad[0], pad[1], kh, sh, dh), out_size(w, pad[2], pad[3], kw, sw, dw));
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
        pub(crate) fn data(&self, filter_len: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
            let mut rng = Rng(self.seed);
            let g = self.geometry();
            let x = floats(&mut rng, g.input_shape.iter().product(), self.scale);
            let f = floats(&mut rng, filter_len, 1.0);
            let b = floats(&mut rng, self.out_d, self.scale);
            (x, f, b)
        }

        /// The naive definitions: for output channel `oc`, `tap(oc, ky, kx)` lists the (input
        /// channel, filter index) pairs of one tap, in TFLite's order. The f32 result, the
        /// f64 one and the bound of the f32 one's rounding errors.
        pub(crate) fn naive(&self, x: &[f32], f: &[f32], b: &[f32], tap: impl Fn(usize, usize, usize) -> Vec<(usize, usize)>) -> (Vec<f32>, Vec<f64>, Vec<f64>) {
            let g = self.geometry();
            let [batches, h, w, in_d] = g.input_shape;
            let [_, oh, ow, out_d] = g.output_shape;
            let [_, kh, kw, _] = g.filter_shape;
            let n = batches * oh * ow * out_d;
            let (mut exact, mut real, mut bound) = (vec![0f32; n], vec![0f64; n], vec![0f64; n]);
            let c = clamp_f32(self.clamp);
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
                exact[o] = act_f32(t + bv, c);
                real[o] = r + bv as f64;
                bound[o] = m + (bv as f64).abs();
            }}}}
            (exact, real, bound)
        }

        /// CONV_2D's naive definitions (filters `[out_d, kh, kw, in_d]`) on `f`.
        fn naive_conv(&self, x: &[f32], f: &[f32], b: &[f32]) -> (Vec<f32>, Vec<f64>, Vec<f64>) {
            let [kh, kw] = self.k;
            self.naive(x, f, b, |oc, ky, kx| (0..self.in_d).map(|ic| (ic, ((oc * kh + ky) * kw + kx) * self.in_d + ic)).collect())
        }

        /// CONV_2D's parameters and data.
        fn conv_problem(&self) -> (Conv2dParams<'static, F32>, Vec<f32>, Vec<f32>, Vec<f32>) {
            let mut geometry = self.geometry();
            geometry.filter_shape = [self.out_d, self.k[0], self.k[1], self.in_d];
            let (x, f, b) = self.data(geometry.filter_shape.iter().product());
            (Conv2dParams::<F32> { geometry, quant: (), clamp: clamp_f32(self.clamp) }, x, f, b)
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
            let (p, x, f, b) = self.0.conv_problem();
            let mut out = vec![f32::NAN; p.geometry.output_shape.iter().product()];
            kernel(&p, &x, &f, self.0.bias.then_some(&b[..]), &mut out);
            Ok(out)
        }

        fn check(&self, got: &Vec<f32>) -> Result<(), String> {
            let c = &self.0;
            let (x, f, b) = c.data(c.out_d * c.k[0] * c.k[1] * c.in_d);
            let (exact, real, bound) = c.naive_conv(&x, &f, &b);
            compare_f32(got, &exact, &real, &bound, clamp_f32(c.clamp))
        }
    }

    kernel_tests!(reference, Conv, conv_2d_f32);

    /// The packed variant (`kernels::f32x8`; not TFLite's order: [`compare_packed`]'s
    /// tolerance): the reference's cases and the wider rows of [`ConvF32::packed_strategy`].
    #[derive(Clone, Debug)]
    struct ConvPacked(ConvF32);

    impl KernelCase for ConvPacked {
        type Kernel = ConvKernel;
        type Output = Vec<f32>;
        const REFERENCE: ConvKernel = conv_2d_f32;
        const CASES: Option<u32> = Some(120);

        fn strategy() -> BoxedStrategy<Self> {
            ConvF32::packed_strategy(false).prop_map(ConvPacked).boxed()
        }

        fn edge_cases() -> Vec<Self> {
            ConvF32::packed_edge_cases(false).into_iter().map(ConvPacked).collect()
        }

        fn run(&self, kernel: ConvKernel) -> Result<Vec<f32>, String> {
            Conv(self.0.clone()).run(kernel)
        }

        fn check(&self, got: &Vec<f32>) -> Result<(), String> {
            let c = &self.0;
            let (x, f, b) = c.data(c.out_d * c.k[0] * c.k[1] * c.in_d);
            let (_, real, bound) = c.naive_conv(&x, &f, &b);
            let reference = Conv(c.clone()).run(conv_2d_f32)?;
            compare_packed(got, &reference, &real, &bound, c.k[0] * c.k[1] * c.in_d, clamp_f32(c.clamp))
        }
    }

    /// A packed variant's loop nest on the packed weights.
    type PackedRun = fn(&Conv2dParams<F32>, &[f32], &[f32], &mut [f32]);

    /// One implementation of the packed variant, as the suites run it: select for
    /// `TargetClass::Host` and pack as the compiler does, then run `imp`'s loop nest.
    fn select_packed(imp: PackedRun, p: &Conv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
        use crate::isa::TargetClass;
        use crate::kernels::conv_2d::Conv2dF32Variant;
        let v = Conv2dF32Variant::select(p, TargetClass::Host);
        let mut packed = vec![f32::NAN; v.packed_len(&p.geometry)];
        v.pack(p, f, b, &mut packed);
        match v {
            Conv2dF32Variant::Reference => conv_2d_f32(p, x, f, b, out),
            Conv2dF32Variant::Packed => imp(p, x, &packed, out),
            Conv2dF32Variant::Blocked => panic!("hosts select Packed"),
        }
    }

    packed_suites!(ConvPacked, Conv2dParams<F32>, select_packed, conv_2d, crate::kernels::conv_2d::conv_2d_f32_packed, conv_2d_f32_packed);

    /// The Arm variant (`kernels::blocked_f32`: four output channels per pass, TFLite's
    /// order), selected and packed for Arm as the compiler does; the suite also compares
    /// every output bit for bit with the reference.
    fn blocked(p: &Conv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
        use crate::isa::TargetClass;
        use crate::kernels::conv_2d::{conv_2d_f32_blocked, Conv2dF32Variant};
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

    kernel_tests!(blocked, if true, Conv, blocked);

    /// The suite reaches the blocked variant (not only the reference fallback).
    #[test]
    fn cases_reach_the_blocked_variant() {
        use crate::kernels::conv_2d::Conv2dF32Variant;
        let (p, ..) = ConvF32::edge_cases(false)[0].conv_problem();
        let p = Conv2dParams { clamp: clamp_f32(0), ..p };
        assert_eq!(Conv2dF32Variant::select(&p, crate::isa::TargetClass::ArmDsp), Conv2dF32Variant::Blocked);
    }

    /// float16 weights kept in flash (`conv_2d_f32_f16w`, numerics `F32H`): the float32
    /// suite's cases with weights that are float16 values (normal and subnormal halves, both
    /// zeros). Each case runs the f16 kernel on the halves' bits and must equal, bit for bit,
    /// the float32 reference on the exactly widened weights, and pass the float32 oracle
    /// (TFLite's order and the f64 bound).
    mod f16_weights {
        use super::*;
        use crate::kernels::blocked_f32;
        use crate::kernels::conv_2d::{conv_2d_f32_f16w, conv_2d_f32_f16w_blocked};

        const WHAT: (&str, &str) = ("with f16 weights", "with the widened float32 weights");

        fn case(c: &ConvF32) -> Result<(), String> {
            let (p, x, f, b) = c.conv_problem();
            let (bits, wide) = halves(&f, c.seed);
            let n = p.geometry.output_shape.iter().product();
            let (mut got, mut want) = (vec![f32::NAN; n], vec![f32::NAN; n]);
            conv_2d_f32_f16w(&p, &x, &bits, c.bias.then_some(&b[..]), &mut got);
            conv_2d_f32(&p, &x, &wide, c.bias.then_some(&b[..]), &mut want);
            same_f32_bits(&got, &want, WHAT)?;
            // The blocked form (Arm), from the halves packed as the compiler packs them.
            let taps = c.k[0] * c.k[1] * c.in_d;
            let mut packed = vec![0u16; blocked_f32::packed_len(c.out_d, taps)];
            blocked_f32::pack(c.out_d, taps, &bits, &mut packed);
            let mut blocked = vec![f32::NAN; n];
            conv_2d_f32_f16w_blocked(&p, &x, &packed, c.bias.then_some(&b[..]), &mut blocked);
            same_f32_bits(&blocked, &want, WHAT)?;
            let (exact, real, bound) = c.naive_conv(&x, &wide, &b);
            compare_f32(&got, &exact, &real, &bound, clamp_f32(c.clamp))
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(120))]
            #[test]
            fn random(c in ConvF32::strategy(false)) {
                case(&c).map_err(TestCaseError::fail)?;
            }
        }

        #[test]
        fn edge_cases() {
            for c in ConvF32::edge_cases(false) {
                case(&c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
            }
        }

        /// Windows around the blocked form's stack block (`CONV_WIDE_TAPS` = 96 taps): 90,
        /// 96 (widened once per block) and 99 (widened per tap), with borders and tails.
        #[test]
        fn windows_around_the_widened_block() {
            assert_eq!(blocked_f32::CONV_WIDE_TAPS, 96);
            for (in_d, k, out_d) in [(10, [3, 3], 5), (6, [4, 4], 7), (11, [3, 3], 9), (96, [1, 1], 6), (97, [1, 1], 3)] {
                let c = ConvF32::plain([5, 7], in_d, out_d, k, [1; 4], in_d as u64);
                case(&c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
            }
        }
    }
}

/// 16x8 CONV_2D (`conv_2d_s16`, the reference loop nest) against the naive definition that
/// pads the image explicitly and accumulates in i128, over random shapes, strides,
/// dilations, paddings, multipliers and clamps; edge cases at lane tails, every padding
/// edge, ±32767 / −32768 with ±127 / −128 weights and the multiplier extremes.
/// Bit-exactness with TFLite Micro is checked on golden data (op_conformance,
/// `armzoo_ds_cnn_s_int16`) and on single-op vectors in the compiler
/// (`lower::ops::tests_16x8`).
mod int16 {
    use super::super::{conv_2d_s16, Conv2dParams};
    use crate::kernels::numerics::{Clamp, QuantS16, S16};
    use crate::kernels::test_util::{check_output, kernel_tests, out_size, pad_image, requant_s16, DataS16, KernelCase, LANE_TAILS, MULTIPLIER_EXTREMES_S16};
    use crate::kernels::window::ConvGeometry;
    use proptest::prelude::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

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
        data: DataS16,
    }

    impl ConvS16 {
        fn plain(hw: [usize; 2], in_d: usize, out_d: usize, k: [usize; 2], pad: [usize; 4], data: DataS16) -> ConvS16 {
            ConvS16 { batches: 1, hw, in_d, out_d, k, stride: [1, 1], dil: [1, 1], pad, data }
        }
    }

    type Kernel = fn(&Conv2dParams<S16>, &[i16], &[i8], Option<&[i64]>, &mut [i16]);

    impl KernelCase for ConvS16 {
        type Kernel = Kernel;
        type Output = Vec<i16>;
        const REFERENCE: Kernel = conv_2d_s16;
        const CASES: Option<u32> = Some(120);

        fn strategy() -> BoxedStrategy<Self> {
            (
                (1usize..3, [1usize..8, 1usize..8], 1usize..5, 1usize..5),
                ([1usize..4, 1usize..4], [1usize..3, 1usize..3], [1usize..3, 1usize..3]),
                ([0usize..3, 0usize..3, 0usize..3, 0usize..3], any::<bool>(), any::<u64>()),
            )
                .prop_map(|((batches, hw, in_d, out_d), (k, stride, dil), (pad, with_bias, seed))| ConvS16 { batches, hw, in_d, out_d, k, stride, dil, pad, data: DataS16::random(with_bias, seed) })
                .boxed()
        }

        fn edge_cases() -> Vec<Self> {
            let mut v = Vec::new();
            for n in LANE_TAILS {
                v.push(ConvS16::plain([2, 3], n, 3, [1, 1], [0; 4], DataS16::random(true, n as u64)));
                v.push(ConvS16::plain([3, 3], n, 2, [3, 3], [1; 4], DataS16::random(false, n as u64)));
            }
            for (i, pad) in (0..81).map(|i| [i % 3, i / 3 % 3, i / 9 % 3, i / 27]).enumerate() {
                for (stride, dil) in [(1, 1), (2, 1), (1, 2)] {
                    v.push(ConvS16 { stride: [stride; 2], dil: [dil; 2], ..ConvS16::plain([4, 5], 2, 2, [3, 3], pad, DataS16::random(true, i as u64)) });
                }
            }
            for in_d in [1, 4, 17] {
                v.push(ConvS16::plain([3, 4], in_d, 5, [3, 3], [1; 4], DataS16 { extreme: true, ..DataS16::random(true, 1) }));
            }
            for (i, mult) in MULTIPLIER_EXTREMES_S16.into_iter().enumerate() {
                v.push(ConvS16::plain([3, 3], 3, 4, [3, 3], [1; 4], DataS16 { multiplier: Some(mult), ..DataS16::random(true, i as u64) }));
                v.push(ConvS16::plain([3, 3], 3, 4, [3, 3], [1; 4], DataS16 { multiplier: Some(mult), extreme: true, ..DataS16::random(true, i as u64) }));
            }
            // No window fits: empty output.
            v.push(ConvS16::plain([1, 2], 2, 2, [3, 3], [0; 4], DataS16::random(true, 0)));
            v
        }

        fn run(&self, kernel: Kernel) -> Result<Vec<i16>, String> {
            Ok(self.go(Some(kernel)))
        }

        fn check(&self, got: &Vec<i16>) -> Result<(), String> {
            check_output(got, &self.go(None), None)
        }
    }

    impl ConvS16 {
        /// Runs `kernel`, or (`None`) the naive definition.
        fn go(&self, kernel: Option<Kernel>) -> Vec<i16> {
            let ConvS16 { batches, hw: [h, w], in_d, out_d, k: [kh, kw], stride: [sh, sw], dil: [dh, dw], pad, data } = self.clone();
            let (x, filter, bias, (m, s), (lo, hi)) = data.draw(batches * h * w * in_d, out_d * kh * kw * in_d, out_d, -24);
            let (ph, pw) = (h + pad[0] + pad[1], w + pad[2] + pad[3]);
            let xp = pad_image(&x, [batches, h, w, in_d], [pad[0], pad[2]], [ph, pw], 0);
            let (oh, ow) = (out_size(ph, 0, 0, kh, sh, dh), out_size(pw, 0, 0, kw, sw, dw));
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
                want[((b * oh + oy) * ow + ox) * out_d + oc] = requant_s16(acc, &m, &s, oc, lo, hi);
            }}}}
            want
        }
    }

    kernel_tests!(reference, ConvS16, conv_2d_s16);
}

/// Legacy uint8 CONV_2D (`conv_2d_u8` and the variant a host selects), and the uint8
/// convolution case DEPTHWISE_CONV_2D's suites share ([`ConvU8`]). The oracle is the naive
/// definition of TFLite's uint8 `reference_ops::Conv` / `DepthwiseConv` (taps outside
/// skipped, `(w - zw) * (x - zx)` summed in i64, bias, `MultiplyByQuantizedMultiplier`,
/// output zero point, clamp). Bit-exactness with TFLite is checked on
/// `coral_mobilenet_v1_025_128_uint8` (op conformance and e2e).
pub(crate) mod uint8 {
    #![allow(clippy::needless_range_loop)] // the naive definitions index as TFLite's loops do

    use super::super::{conv_2d_u8, Conv2dParams, Conv2dU8Variant};
    use crate::kernels::numerics::{Clamp, QuantU8, U8};
    use crate::kernels::test_util::{check_output, kernel_tests, out_size, u8s, KernelCase, Rng, LANE_TAILS};
    use crate::kernels::window::ConvGeometry;
    use crate::quant::multiply_by_quantized_multiplier;
    use proptest::prelude::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    /// A uint8 convolution: CONV_2D with `out_d` filters, or DEPTHWISE_CONV_2D with `out_d`
    /// a multiple of `in_d`.
    #[derive(Clone, Debug)]
    pub(crate) struct ConvU8 {
        pub(crate) hw: [usize; 2],
        pub(crate) in_d: usize,
        pub(crate) out_d: usize,
        pub(crate) k: [usize; 2],
        pub(crate) stride: usize,
        pub(crate) pad: [usize; 2],
        pub(crate) zero_points: [i32; 3],
        pub(crate) clamp: (u8, u8),
        pub(crate) seed: u64,
    }

    impl ConvU8 {
        pub(crate) fn strategy(depthwise: bool) -> BoxedStrategy<Self> {
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

        pub(crate) fn edge_cases(depthwise: bool) -> Vec<Self> {
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
        pub(crate) fn setup(&self, filter_len: usize) -> (Vec<u8>, Vec<u8>, Vec<i32>, (i32, i32), ConvGeometry) {
            let mut rng = Rng(self.seed);
            let [h, w] = self.hw;
            let x = u8s(&mut rng, h * w * self.in_d);
            let f = u8s(&mut rng, filter_len);
            let b = rng.i32s(self.out_d, -20000, 20000);
            let m = rng.multiplier(-12, -4);
            let (oh, ow) = (out_size(h, self.pad[0], self.pad[0], self.k[0], self.stride, 1), out_size(w, self.pad[1], self.pad[1], self.k[1], self.stride, 1));
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

        pub(crate) fn quant(&self, m: (i32, i32)) -> QuantU8 {
            let [zx, zw, zo] = self.zero_points;
            QuantU8 { input_offset: -zx, weights_offset: -zw, output_offset: zo, output_multiplier: m.0, output_shift: m.1 }
        }

        /// The naive definition; `tap(oc, ky, kx)` lists (input channel, filter index) pairs.
        pub(crate) fn naive(&self, filter_len: usize, tap: impl Fn(usize, usize, usize) -> Vec<(usize, usize)>) -> Vec<u8> {
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

    type Kernel = fn(&Conv2dParams<U8>, &[u8], &[u8], Option<&[i32]>, &mut [u8]);

    #[derive(Clone, Debug)]
    struct Conv(ConvU8);

    impl KernelCase for Conv {
        type Kernel = Kernel;
        type Output = Vec<u8>;
        const REFERENCE: Kernel = conv_2d_u8;

        fn strategy() -> BoxedStrategy<Self> {
            ConvU8::strategy(false).prop_map(Conv).boxed()
        }

        fn edge_cases() -> Vec<Self> {
            ConvU8::edge_cases(false).into_iter().map(Conv).collect()
        }

        fn run(&self, kernel: Kernel) -> Result<Vec<u8>, String> {
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
            check_output(got, &c.naive(c.out_d * kh * kw * c.in_d, |oc, ky, kx| (0..c.in_d).map(|ic| (ic, ((oc * kh + ky) * kw + kx) * c.in_d + ic)).collect()), None)
        }
    }

    kernel_tests!(reference, Conv, conv_2d_u8);

    /// The variant a host selects for `p` ([`Conv2dU8Variant::select`]), packed as the
    /// compiler packs it, through its table's `run` (the selected host SIMD form).
    fn host(p: &Conv2dParams<U8>, input: &[u8], filter: &[u8], bias: Option<&[i32]>, output: &mut [u8]) {
        let v = Conv2dU8Variant::select(p, crate::isa::TargetClass::Host);
        let mut packed = vec![0i32; v.packed_len(&p.geometry)];
        v.pack(p, filter, bias, &mut packed);
        v.run(p, crate::variants::Operands { input, filter, bias, packed: &packed }, output);
    }

    kernel_tests!(host, if true, Conv, host);
}
