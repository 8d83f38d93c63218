//! DEPTHWISE_CONV_2D tests: one [`KernelCase`] (random geometry and quantization, fixed
//! edge cases, the naive definition as oracle: materialized zero-point padding, i64
//! accumulation wrapped to int32 like TFLite's) and one suite per implementation.

use super::{ConvGeometry, DepthwiseConv2dParams, DepthwiseConv2dVariant};
use crate::isa::{HostSimd, TargetClass};
use crate::kernels::dot::Dot;
use crate::kernels::numerics::{Clamp, QuantS8, S8};
use crate::kernels::test_util::{extremes, kernel_tests, multipliers, zero_point, KernelCase, Rng, LANE_TAILS};
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::string::String;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&DepthwiseConv2dParams<S8>, &[i8], &[i8], Option<&[i32]>, &mut [i8]);

/// The filter in LUT form (`kernels::lut`: channel-major rows of taps; per-channel tables
/// for an odd channel count, one shared table otherwise) run by the `_lut` kernel with the
/// dot implementation `D`; a filter with no LUT form or a window of more than
/// `DEPTHWISE_MAX_TAPS` taps runs the reference.
fn lut<D: Dot>(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let [_, f_h, f_w, out_d] = p.geometry.filter_shape;
    let taps = f_h * f_w;
    let rows: Vec<Vec<i8>> = (0..out_d).map(|c| (0..taps).map(|t| filter[t * out_d + c]).collect()).collect();
    match crate::kernels::lut::testing::encode(&rows, out_d % 2 == 1, out_d % 3) {
        Some(w) if taps <= crate::kernels::lut::DEPTHWISE_MAX_TAPS => crate::kernels::lut::depthwise_conv_2d_lut::<D>(p, input, &w.view(), bias, output),
        _ => super::depthwise_conv_2d_s8(p, input, filter, bias, output),
    }
}

/// The filter packed as int4 (`kernels::int4`: channel-major rows of taps, as the compiler
/// packs it) run by the `_int4` kernel with the dot implementation `D` (the
/// `Int4<Depthwise>` suites: every weight is in `-8..=7`); a window of more than
/// `DEPTHWISE_MAX_TAPS` taps runs the reference, as the compiler then unpacks.
fn int4<D: Dot>(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let [_, f_h, f_w, out_d] = p.geometry.filter_shape;
    let taps = f_h * f_w;
    // The form the compiler would select, packed as it packs it.
    use crate::kernels::int4::DepthwiseInt4;
    let form = DepthwiseInt4::select(p, filter, bias);
    if form == DepthwiseInt4::Mult1 {
        let mut packed = vec![0i32; form.packed_len(&p.geometry)];
        form.pack(p, filter, bias, &mut packed);
        return super::fast::depthwise_mult1_int4::<D>(p, input, &packed, output);
    }
    if taps > crate::kernels::int4::DEPTHWISE_MAX_TAPS {
        return super::depthwise_conv_2d_s8(p, input, filter, bias, output);
    }
    let rows: Vec<i8> = (0..out_d).flat_map(|c| (0..taps).map(move |t| (t, c))).map(|(t, c)| filter[t * out_d + c]).collect();
    let mut nibbles = vec![0u8; rows.len().div_ceil(2)];
    crate::kernels::int4::pack(&rows, &mut nibbles);
    crate::kernels::lut::depthwise_conv_2d_lut::<D>(p, input, &crate::kernels::int4::Int4Weights { nibbles: &nibbles }, bias, output)
}

/// The variant the compiler would select, packed as the compiler packs it, run with the dot
/// implementation `D`.
fn selected<D: Dot>(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = DepthwiseConv2dVariant::select(p, filter, bias, crate::isa::TargetClass::ArmDsp);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    let whole = crate::kernels::window::RowRange::whole(p.geometry.output_shape[1]);
    match v {
        DepthwiseConv2dVariant::Reference => super::depthwise_conv_2d_s8(p, input, filter, bias, output),
        DepthwiseConv2dVariant::Window => super::fast::depthwise_window::<D>(p, input, filter, bias, &packed, output),
        DepthwiseConv2dVariant::Mult1 => super::fast::depthwise_mult1::<D>(p, whole, input, &packed, output),
        DepthwiseConv2dVariant::OneChannel => super::fast::depthwise_one_channel::<D>(p, whole, input, &packed, output),
    }
}

/// The same through the public functions, as generated code calls them.
/// The variant `class` selects, through its public function (the variant table's `run`)
/// with `simd` selected on this thread: the dispatch generated code goes through, on one
/// instruction set.
#[allow(dead_code)]
fn under(simd: HostSimd, class: TargetClass, p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    crate::isa::under(simd, || {
        let v = DepthwiseConv2dVariant::select(p, filter, bias, class);
        let mut packed = vec![0i32; v.packed_len(&p.geometry)];
        v.pack(p, filter, bias, &mut packed);
        v.run(p, crate::variants::Operands { input, filter, bias, packed: &packed }, output);
    })
}

fn public(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = DepthwiseConv2dVariant::select(p, filter, bias, crate::isa::TargetClass::BUILD);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    v.run(p, crate::variants::Operands { input, filter, bias, packed: &packed }, output);
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
    /// Right shifts only (1..=11), which the packed requantization of `Mult1` and
    /// `OneChannel` needs; otherwise shifts -11..=1.
    right_shifts: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (1usize..3, 1usize..9, 1usize..9, prop_oneof![1usize..8, Just(8), 15usize..40, 60usize..140], prop_oneof![Just(1usize), 1usize..4, Just(4), Just(8)]),
        ([1usize..5, 1usize..5], [1usize..4, 1usize..4], [1usize..3, 1usize..3]),
        ([0usize..5, 0usize..5, 0usize..5, 0usize..5], zero_point(), zero_point(), any::<bool>(), any::<u64>(), any::<bool>()),
    )
        .prop_map(|((batches, in_h, in_w, in_d, mult), (k, stride, dil), (pads, in_zp, out_zp, with_bias, seed, right_shifts))| Case {
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
            right_shifts,
        })
}

impl Case {
    fn problem(&self) -> Problem {
        let c = self;
        let mut rng = Rng(c.seed);
        let out_d = c.in_d * c.mult;
        let oh = out_size(c.in_h, c.pads[0], c.pads[1], c.k[0], c.stride[0], c.dil[0]);
        let ow = out_size(c.in_w, c.pads[2], c.pads[3], c.k[1], c.stride[1], c.dil[1]);
        let (mult, shift) = multipliers(&mut rng, out_d, -12, if c.right_shifts { -1 } else { 1 });
        let (act_min, act_max) = rng.activation_range();
        let geometry = ConvGeometry { input_shape: [c.batches, c.in_h, c.in_w, c.in_d], filter_shape: [1, c.k[0], c.k[1], out_d], output_shape: [c.batches, oh, ow, out_d], stride_height: c.stride[0], stride_width: c.stride[1], dilation_height: c.dil[0], dilation_width: c.dil[1], pad_top: c.pads[0], pad_left: c.pads[2] };
        let input = rng.i8s(c.batches * c.in_h * c.in_w * c.in_d);
        let filter = rng.i8s(c.k[0] * c.k[1] * out_d);
        let bias = rng.i32s(out_d, -(1 << 18), 1 << 18);
        Problem { geometry, input_offset: -c.in_zp, output_offset: c.out_zp, mult, shift, clamp: (act_min as i8, act_max as i8), input, filter, bias: c.with_bias.then_some(bias), expected: None }
    }

    /// One batch, stride and dilation 1, zero points 0, a bias.
    fn plain(hw: [usize; 2], in_d: usize, mult: usize, k: [usize; 2], pads: [usize; 4], seed: u64) -> Case {
        Case { batches: 1, in_h: hw[0], in_w: hw[1], in_d, mult, k, stride: [1, 1], dil: [1, 1], pads, in_zp: 0, out_zp: 0, with_bias: true, seed, right_shifts: true }
    }
}

/// A fully specified DEPTHWISE_CONV_2D, with its hand-computed output when there is one.
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
    fn params(&self) -> DepthwiseConv2dParams<'_, S8> {
        DepthwiseConv2dParams {
            geometry: self.geometry,
            quant: QuantS8 { input_offset: self.input_offset, output_offset: self.output_offset, output_multiplier: &self.mult, output_shift: &self.shift },
            clamp: Clamp { min: self.clamp.0, max: self.clamp.1 },
        }
    }
}

/// One DEPTHWISE_CONV_2D case: random (shapes and seed) or fully specified.
#[derive(Debug, Clone)]
enum Depthwise {
    Random(Case),
    Fixed(Problem),
}

impl Depthwise {
    fn problem(&self) -> Problem {
        match self {
            Depthwise::Random(c) => c.problem(),
            Depthwise::Fixed(p) => p.clone(),
        }
    }
}

impl KernelCase for Depthwise {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = super::depthwise_conv_2d_s8;
    /// Per property: a variant line runs 200 against the oracle and 200 more against the
    /// reference (the old suite ran 300, both checks on each).
    const CASES: Option<u32> = Some(200);

    fn strategy() -> BoxedStrategy<Self> {
        case().prop_map(Depthwise::Random).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        // Depth multiplier 2 on a single pixel: output channel `2c + m` is
        // `w[2c + m] * (x[c] - zp)` (scale 1.0), hand-computed.
        // x - zp = (2, 10): 2*1+1, 2*-2+1, 10*3+1, clamp(10*100+7+1)
        v.push(Depthwise::Fixed(Problem {
            geometry: ConvGeometry { input_shape: [1, 1, 1, 2], filter_shape: [1, 1, 1, 4], output_shape: [1, 1, 1, 4], stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1, pad_top: 0, pad_left: 0 },
            input_offset: 5,
            output_offset: 1,
            mult: vec![1 << 30],
            shift: vec![1], // 1.0
            clamp: (-128, 127),
            input: vec![-3, 5],
            filter: vec![1, -2, 3, 100],
            bias: Some(vec![0, 0, 0, 7]),
            expected: Some(vec![3, -3, 31, 127]),
        }));
        let r = Depthwise::Random;
        // Lane tails of the channel loop (odd channel counts included), depth multipliers 1
        // and 2 and a lane-tail multiplier, with and without padding.
        for n in LANE_TAILS {
            v.push(r(Case::plain([3, 3], n, 1, [3, 3], [1; 4], n as u64)));
            v.push(r(Case::plain([2, 3], n, 2, [2, 2], [0; 4], n as u64)));
            v.push(r(Case::plain([2, 2], 2, n, [1, 2], [0, 1, 1, 0], n as u64)));
        }
        // 3x3 windows with depth multiplier 1 (the `Mult1` variant's unrolled interior and its
        // border path): strides, dilations, paddings, depths 4..64, extreme zero points.
        let mut seed = 1u64;
        for in_d in [4usize, 8, 12, 64] {
            for stride in [1usize, 2] {
                for dil in [1usize, 2] {
                    for pad in [0usize, 1, 2] {
                        for (in_zp, out_zp) in [(0, 0), (-128, 127), (127, -128), (5, -3)] {
                            seed += 1;
                            v.push(r(Case { batches: 2, in_h: 7, in_w: 6, in_d, mult: 1, k: [3, 3], stride: [stride, stride], dil: [dil, dil], pads: [pad, pad, pad, pad / 2], in_zp, out_zp, with_bias: !seed.is_multiple_of(3), seed, right_shifts: !seed.is_multiple_of(5) }));
                        }
                    }
                }
            }
        }
        // The same on rows wide enough (at least eight output pixels) for the AVX-512 form
        // that prepares tap pairs once per call (`arch::x86_64::vnni::depthwise`), depths
        // with and without a channel tail.
        for in_d in [20usize, 64] {
            for stride in [1usize, 2] {
                for dil in [1usize, 2] {
                    for pad in [0usize, 1, 2] {
                        for (in_zp, out_zp) in [(0, 0), (-128, 127), (127, -128), (5, -3)] {
                            seed += 1;
                            v.push(r(Case { batches: 1, in_h: 5, in_w: 21, in_d, mult: 1, k: [3, 3], stride: [stride, stride], dil: [dil, dil], pads: [pad, pad / 2, pad, pad], in_zp, out_zp, with_bias: !seed.is_multiple_of(3), seed, right_shifts: !seed.is_multiple_of(5) }));
                        }
                    }
                }
            }
        }
        // One input channel (the `OneChannel` variant's band and tap pairs): micro_speech's
        // 10x8 window at stride 2, widths that are not a multiple of 4, dilation down,
        // paddings on every side, extreme zero points; windows of more words than the
        // kernel gathers at once (9 x 4 and 33 x 1 words: gathered in parts per group).
        for (i, (mult, k, stride, dil, pads)) in [
            (8, [10, 8], [2, 2], [1, 1], [4, 5, 3, 3]),
            (4, [9, 13], [2, 3], [1, 1], [4, 4, 6, 6]),
            (8, [33, 2], [1, 1], [1, 1], [12, 12, 1, 0]),
            (4, [3, 3], [1, 1], [1, 1], [1, 1, 1, 1]),
            (4, [1, 5], [1, 2], [2, 1], [0, 2, 3, 0]),
            (12, [2, 7], [2, 1], [1, 1], [1, 0, 0, 4]),
            (8, [4, 4], [3, 3], [2, 1], [3, 3, 0, 0]),
            (4, [1, 1], [1, 1], [1, 1], [0, 0, 0, 0]),
        ]
        .into_iter()
        .enumerate()
        {
            for (in_zp, out_zp) in [(0, 0), (-128, 127), (127, -128), (5, -3)] {
                v.push(r(Case { batches: 2, in_h: 9, in_w: 11, in_d: 1, mult, k, stride, dil, pads, in_zp, out_zp, with_bias: i != 2, seed: i as u64, right_shifts: true }));
            }
        }
        // Multipliers of 8 (the AVX2 broadcast path; micro_speech's 1 -> 8 channels), every
        // zero point extreme, borders and strides.
        for (i, (in_d, mult, stride)) in [(1usize, 8usize, 1usize), (1, 8, 2), (3, 8, 1), (2, 16, 2), (1, 24, 1)].into_iter().enumerate() {
            for (in_zp, out_zp) in [(0, 0), (-128, 127), (127, -128)] {
                v.push(r(Case { stride: [stride, stride], in_zp, out_zp, ..Case::plain([5, 4], in_d, mult, [3, 2], [1, 1, 1, 0], 100 + i as u64) }));
            }
        }
        // Narrow rows (kws's 25x5 layers: most windows touch a side), widths 1..=8: the
        // AVX2 tap-pair forms for depths that are multiples of 16 (multiplier 1) and for
        // multipliers of 8 (one input channel: whole rows in one load), odd windows (a last
        // tap paired with weight 0), paddings, strides, extreme zero points.
        for w in 1usize..=8 {
            for (j, (in_d, mult, k, stride)) in [(16usize, 1usize, [3usize, 3usize], 1usize), (48, 1, [3, 3], 2), (64, 1, [2, 3], 1), (1, 8, [3, 5], 1), (1, 8, [4, 3], 2), (2, 16, [3, 3], 1)].into_iter().enumerate() {
                let (in_zp, out_zp) = [(0, 0), (-128, 127), (127, -128), (5, -3)][(w + j) % 4];
                seed += 1;
                v.push(r(Case { batches: 1, in_h: 5, in_w: w, in_d, mult, k, stride: [stride, stride], dil: [1, 1 + (w + j) % 2], pads: [1, 1, (w + j) % 3, j % 2], in_zp, out_zp, with_bias: !seed.is_multiple_of(3), seed, right_shifts: !seed.is_multiple_of(5) }));
            }
        }
        // Large windows: the AVX-512 form's weight buffer holds two 32-channel blocks of an
        // 11x11 window (three blocks: two sweeps over the image) and no block of a 16x16
        // one (the AVX2 form's).
        for (i, (in_d, k)) in [(70usize, [11usize, 11usize]), (40, [11, 11]), (16, [16, 16])].into_iter().enumerate() {
            v.push(r(Case { in_zp: -7, out_zp: 3, ..Case::plain([13, 12], in_d, 1, k, [5, 4, 6, 3], 200 + i as u64) }));
        }
        // Depth multipliers on both sides of the Window variant's limit (64).
        for mult in [63, 64, 65, 66] {
            v.push(r(Case::plain([2, 2], 1, mult, [2, 2], [1, 0, 1, 0], mult as u64)));
        }
        // Every padding edge: each side 0, 1 (part of a window outside) or 3 (whole windows
        // in the padding), at strides 1 and 2, dilation 1 and 2.
        for (i, pads) in (0..81).map(|i| [i % 3, i / 3 % 3, i / 9 % 3, i / 27].map(|p| [0, 1, 3][p])).enumerate() {
            for (stride, dil) in [(1, 1), (2, 1), (1, 2)] {
                v.push(r(Case { stride: [stride; 2], dil: [dil; 2], in_zp: 5, out_zp: -3, ..Case::plain([4, 5], 3, 2, [3, 3], pads, i as u64) }));
            }
        }
        // Zero-size output.
        v.push(r(Case::plain([1, 2], 2, 1, [3, 3], [0; 4], 0)));
        // ±127 / −128 everywhere (data and zero points).
        for (i, (in_zp, out_zp)) in [(-128, 127), (127, -128), (-128, -128), (127, 127)].into_iter().enumerate() {
            for (in_d, mult) in [(1, 1), (17, 1), (3, 2), (2, 70)] {
                let mut p = Case { in_zp, out_zp, ..Case::plain([3, 4], in_d, mult, [3, 3], [1; 4], i as u64) }.problem();
                p.input = extremes(p.input.len());
                p.filter = extremes(p.filter.len()).into_iter().rev().collect();
                v.push(Depthwise::Fixed(p));
            }
        }
        // Multiplier extremes, per channel and per tensor; the accumulator wraps.
        for (i, (mult, shift)) in [(i32::MAX, 1), (1 << 30, 1), (i32::MAX, 0), (1 << 30, -31), (i32::MAX, -20), (1 << 30, -14)].into_iter().enumerate() {
            for in_d in [1, 5] {
                let mut p = Case { in_zp: -128, out_zp: 127, ..Case::plain([3, 3], in_d, 2, [3, 3], [1; 4], i as u64) }.problem();
                p.mult = vec![mult; p.mult.len()];
                p.shift = vec![shift; p.shift.len()];
                p.clamp = (-128, 127);
                v.push(Depthwise::Fixed(p));
            }
        }
        for (x, want) in [(1, -128), (0, 127)] {
            let mut p = Case::plain([1, 1], 1, 1, [1, 1], [0; 4], 0).problem();
            (p.input, p.filter, p.bias, p.mult, p.shift, p.clamp, p.expected) = (vec![x], vec![1], Some(vec![i32::MAX]), vec![1 << 30], vec![0], (-128, 127), Some(vec![want]));
            v.push(Depthwise::Fixed(p));
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

kernel_tests!(reference, Depthwise, crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8);
kernel_tests!(selected_scalar, if true, Depthwise, selected::<crate::kernels::dot::scalar::Scalar>);
// The RV32 micro-kernels (portable Rust, so run natively here too) on the Arm layouts.
kernel_tests!(selected_rv32, if true, Depthwise, selected::<crate::kernels::dot::rv32::Rv32>);
#[cfg(tflc_arm_dsp)]
kernel_tests!(selected_arm_dsp, if true, Depthwise, selected::<crate::kernels::dot::dsp::ArmDsp>);
#[cfg(target_arch = "x86_64")]
kernel_tests!(selected_avx2, if HostSimd::Avx2.executable(), Depthwise, |p, x, f, b, o| under(HostSimd::Avx2, TargetClass::X86, p, x, f, b, o));
#[cfg(target_arch = "x86_64")]
kernel_tests!(selected_avx512vnni, if HostSimd::Avx512Vnni.executable(), Depthwise, |p, x, f, b, o| under(HostSimd::Avx512Vnni, TargetClass::X86, p, x, f, b, o));
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
kernel_tests!(selected_neon_micro, if true, Depthwise, selected::<crate::kernels::dot::neon::Neon>);
#[cfg(tflc_neon)]
kernel_tests!(selected_neon, if true, Depthwise, crate::arch::aarch64::tests::depthwise_conv_2d);
kernel_tests!(public_api, if true, Depthwise, public);

/// The strategy reaches the Window variant (its depth multipliers stay below 4), the edge
/// cases both variants (multipliers 65 and 66 are the Reference's).
#[test]
fn cases_reach_every_variant() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..300 {
        let p = Depthwise::strategy().new_tree(&mut runner).expect("a case").current().problem();
        seen.insert(std::format!("{:?}", DepthwiseConv2dVariant::select(&p.params(), &p.filter, p.bias.as_deref(), crate::isa::TargetClass::ArmDsp)));
    }
    assert!(seen.contains("Window"), "{seen:?}");
    let edges: std::collections::BTreeSet<_> = Depthwise::edge_cases()
        .iter()
        .map(|c| {
            let p = c.problem();
            std::format!("{:?}", DepthwiseConv2dVariant::select(&p.params(), &p.filter, p.bias.as_deref(), crate::isa::TargetClass::ArmDsp))
        })
        .collect();
    assert_eq!(edges.len(), 4, "{edges:?}");
}
crate::kernels::test_util::every_dot!(lut, Depthwise, lut);

crate::kernels::test_util::narrow_int4!(Depthwise);
// int4 filters kept packed (`kernels::int4`): the same suite with every weight in -8..=7,
// through the `_lut` drivers on `Int4Weights`, with every dot implementation.
crate::kernels::test_util::every_dot!(int4, crate::kernels::test_util::Int4<Depthwise>, int4);
