//! DEPTHWISE_CONV_2D tests: one [`KernelCase`] (random geometry and quantization, fixed
//! edge cases, the naive definition as oracle: materialized zero-point padding, i64
//! accumulation wrapped to int32 like TFLite's) and one suite per implementation.

use super::{ConvGeometry, DepthwiseConv2dParams, DepthwiseConv2dVariant};
use crate::isa::{HostSimd, TargetClass};
use crate::kernels::dot::Dot;
use crate::kernels::numerics::{Clamp, QuantS8, S8};
use crate::kernels::test_util::{extremes, kernel_tests, multipliers, out_size, pad_image, requantize_s8, zero_point, KernelCase, Rng, LANE_TAILS};
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
    let padded = pad_image(input, [n, h, w, c], [p.geometry.pad_top, p.geometry.pad_left], [ph, pw], -p.quant.input_offset as i64);
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
                    out[((b * oh + y) * ow + x) * oc + o] = requantize_s8(acc, &p.quant, o, p.clamp);
                }
            }
        }
    }
    out
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

/// float32 DEPTHWISE_CONV_2D (`depthwise_conv_2d_f32`, its packed variant and its
/// float16-weight form) on the float32 convolution case CONV_2D's suites define
/// ([`ConvF32`], whose module documentation states the oracle).
mod float32 {
    use super::super::{depthwise_conv_2d_f32, DepthwiseConv2dParams};
    use crate::kernels::conv_2d::tests::float32::ConvF32;
    use crate::kernels::numerics::F32;
    use crate::kernels::test_util::{clamp_f32, compare_f32, compare_packed, halves, kernel_tests, packed_suites, same_f32_bits, KernelCase};
    use proptest::prelude::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    type DepthwiseKernel = fn(&DepthwiseConv2dParams<F32>, &[f32], &[f32], Option<&[f32]>, &mut [f32]);

    /// DEPTHWISE_CONV_2D's naive definitions (filter `[1, kh, kw, out_d]`) on `f`.
    fn naive(c: &ConvF32, x: &[f32], f: &[f32], b: &[f32]) -> (Vec<f32>, Vec<f64>, Vec<f64>) {
        let kw = c.k[1];
        let mult = c.out_d / c.in_d;
        c.naive(x, f, b, |oc, ky, kx| vec![(oc / mult, (ky * kw + kx) * c.out_d + oc)])
    }

    /// DEPTHWISE_CONV_2D's parameters and data.
    fn problem(c: &ConvF32) -> (DepthwiseConv2dParams<'static, F32>, Vec<f32>, Vec<f32>, Vec<f32>) {
        let mut geometry = c.geometry();
        geometry.filter_shape = [1, c.k[0], c.k[1], c.out_d];
        let (x, f, b) = c.data(geometry.filter_shape.iter().product());
        (DepthwiseConv2dParams::<F32> { geometry, quant: (), clamp: clamp_f32(c.clamp) }, x, f, b)
    }

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
            let (p, x, f, b) = problem(&self.0);
            let mut out = vec![f32::NAN; p.geometry.output_shape.iter().product()];
            kernel(&p, &x, &f, self.0.bias.then_some(&b[..]), &mut out);
            Ok(out)
        }

        fn check(&self, got: &Vec<f32>) -> Result<(), String> {
            let c = &self.0;
            let (x, f, b) = c.data(c.k[0] * c.k[1] * c.out_d);
            let (exact, real, bound) = naive(c, &x, &f, &b);
            compare_f32(got, &exact, &real, &bound, clamp_f32(c.clamp))
        }
    }

    kernel_tests!(reference, Depthwise, depthwise_conv_2d_f32);

    /// The packed variant (`kernels::f32x8`; not TFLite's order: [`compare_packed`]'s
    /// tolerance) on depth multiplier 1 and wider rows ([`ConvF32::packed_strategy`]).
    #[derive(Clone, Debug)]
    struct DepthwisePacked(ConvF32);

    impl KernelCase for DepthwisePacked {
        type Kernel = DepthwiseKernel;
        type Output = Vec<f32>;
        const REFERENCE: DepthwiseKernel = depthwise_conv_2d_f32;
        const CASES: Option<u32> = Some(120);

        fn strategy() -> BoxedStrategy<Self> {
            ConvF32::packed_strategy(true).prop_map(DepthwisePacked).boxed()
        }

        fn edge_cases() -> Vec<Self> {
            ConvF32::packed_edge_cases(true).into_iter().map(DepthwisePacked).collect()
        }

        fn run(&self, kernel: DepthwiseKernel) -> Result<Vec<f32>, String> {
            Depthwise(self.0.clone()).run(kernel)
        }

        fn check(&self, got: &Vec<f32>) -> Result<(), String> {
            let c = &self.0;
            let (x, f, b) = c.data(c.k[0] * c.k[1] * c.out_d);
            let (_, real, bound) = naive(c, &x, &f, &b);
            let reference = Depthwise(c.clone()).run(depthwise_conv_2d_f32)?;
            compare_packed(got, &reference, &real, &bound, c.k[0] * c.k[1], clamp_f32(c.clamp))
        }
    }

    /// A packed variant's loop nest on the packed weights.
    type PackedRun = fn(&DepthwiseConv2dParams<F32>, &[f32], &[f32], &mut [f32]);

    /// One implementation of the packed variant, as the suites run it: select for
    /// `TargetClass::Host` and pack as the compiler does, then run `imp`'s loop nest.
    fn select_packed(imp: PackedRun, p: &DepthwiseConv2dParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
        use crate::isa::TargetClass;
        use crate::kernels::depthwise_conv_2d::DepthwiseConv2dF32Variant;
        let v = DepthwiseConv2dF32Variant::select(p, TargetClass::Host);
        let mut packed = vec![f32::NAN; v.packed_len(&p.geometry)];
        v.pack(p, f, b, &mut packed);
        match v {
            DepthwiseConv2dF32Variant::Reference => depthwise_conv_2d_f32(p, x, f, b, out),
            DepthwiseConv2dF32Variant::Packed => imp(p, x, &packed, out),
        }
    }

    packed_suites!(DepthwisePacked, DepthwiseConv2dParams<F32>, select_packed, depthwise_conv_2d, crate::kernels::depthwise_conv_2d::depthwise_conv_2d_f32_packed, depthwise_conv_2d_f32_packed);

    /// float16 weights kept in flash (`depthwise_conv_2d_f32_f16w`, numerics `F32H`): the
    /// float32 suites' cases with weights that are float16 values; each case must equal, bit
    /// for bit, the float32 reference on the exactly widened weights, and pass the float32
    /// oracle.
    mod f16_weights {
        use super::*;
        use crate::kernels::depthwise_conv_2d::{depthwise_conv_2d_f32_f16w, depthwise_conv_2d_f32_f16w_blocked, DepthwiseConv2dF32Variant};

        const WHAT: (&str, &str) = ("with f16 weights", "with the widened float32 weights");

        fn case(c: &ConvF32) -> Result<(), String> {
            let (p, x, f, b) = problem(c);
            let (bits, wide) = halves(&f, c.seed);
            let n = p.geometry.output_shape.iter().product();
            let (mut got, mut want) = (vec![f32::NAN; n], vec![f32::NAN; n]);
            depthwise_conv_2d_f32_f16w(&p, &x, &bits, c.bias.then_some(&b[..]), &mut got);
            depthwise_conv_2d_f32(&p, &x, &wide, c.bias.then_some(&b[..]), &mut want);
            same_f32_bits(&got, &want, WHAT)?;
            // The blocked form (Arm: depth multiplier 1, at most 25 taps), from the model's halves.
            if DepthwiseConv2dF32Variant::f16_blocked(&p) {
                let mut blocked = vec![f32::NAN; n];
                depthwise_conv_2d_f32_f16w_blocked(&p, &x, &bits, c.bias.then_some(&b[..]), &mut blocked);
                same_f32_bits(&blocked, &want, WHAT).map_err(|e| std::format!("blocked: {e}"))?;
            }
            let (exact, real, bound) = naive(c, &x, &wide, &b);
            compare_f32(&got, &exact, &real, &bound, clamp_f32(c.clamp))
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(120))]
            #[test]
            fn random(c in ConvF32::strategy(true)) {
                case(&c).map_err(TestCaseError::fail)?;
            }

            /// Depth multiplier 1 and up to 23 channels (several blocks of four, tails).
            #[test]
            fn random_mult1(c in ConvF32::packed_strategy(true)) {
                case(&c).map_err(TestCaseError::fail)?;
            }
        }

        /// The edge cases reach the blocked form, with channel tails of 1 to 3, and the
        /// reference fallback (depth multiplier other than 1).
        #[test]
        fn cases_reach_both_forms() {
            let cases = ConvF32::packed_edge_cases(true).into_iter().chain(ConvF32::edge_cases(true));
            let (mut blocked, mut tails, mut other) = (0, [false; 4], 0);
            for c in cases {
                let (p, ..) = problem(&c);
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
            for c in ConvF32::edge_cases(true).into_iter().chain(ConvF32::packed_edge_cases(true)) {
                case(&c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
            }
        }
    }
}

/// 16x8 DEPTHWISE_CONV_2D (`depthwise_conv_2d_s16`, the reference loop nest) against the
/// naive definition that pads the image explicitly and accumulates in i128 (as CONV_2D's
/// int16 suite).
mod int16 {
    use super::super::{depthwise_conv_2d_s16, DepthwiseConv2dParams};
    use crate::kernels::numerics::{Clamp, QuantS16, S16};
    use crate::kernels::test_util::{check_output, kernel_tests, out_size, pad_image, requant_s16, DataS16, KernelCase, LANE_TAILS, MULTIPLIER_EXTREMES_S16};
    use crate::kernels::window::ConvGeometry;
    use proptest::prelude::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    #[derive(Clone, Debug)]
    struct DepthwiseS16 {
        hw: [usize; 2],
        in_d: usize,
        mult: usize,
        k: [usize; 2],
        stride: [usize; 2],
        dil: [usize; 2],
        pad: [usize; 4],
        data: DataS16,
    }

    impl DepthwiseS16 {
        fn plain(hw: [usize; 2], in_d: usize, mult: usize, k: [usize; 2], pad: [usize; 4], data: DataS16) -> DepthwiseS16 {
            DepthwiseS16 { hw, in_d, mult, k, stride: [1, 1], dil: [1, 1], pad, data }
        }
    }

    type Kernel = fn(&DepthwiseConv2dParams<S16>, &[i16], &[i8], Option<&[i64]>, &mut [i16]);

    impl KernelCase for DepthwiseS16 {
        type Kernel = Kernel;
        type Output = Vec<i16>;
        const REFERENCE: Kernel = depthwise_conv_2d_s16;
        const CASES: Option<u32> = Some(120);

        fn strategy() -> BoxedStrategy<Self> {
            (
                ([1usize..8, 1usize..8], 1usize..4, 1usize..3),
                ([1usize..4, 1usize..4], [1usize..3, 1usize..3], [1usize..3, 1usize..3]),
                ([0usize..3, 0usize..3, 0usize..3, 0usize..3], any::<bool>(), any::<u64>()),
            )
                .prop_map(|((hw, in_d, mult), (k, stride, dil), (pad, with_bias, seed))| DepthwiseS16 { hw, in_d, mult, k, stride, dil, pad, data: DataS16::random(with_bias, seed) })
                .boxed()
        }

        fn edge_cases() -> Vec<Self> {
            let mut v = Vec::new();
            for n in LANE_TAILS {
                v.push(DepthwiseS16::plain([3, 3], n, 1, [3, 3], [1; 4], DataS16::random(true, n as u64)));
                v.push(DepthwiseS16::plain([2, 3], 2, n, [2, 2], [0; 4], DataS16::random(false, n as u64)));
            }
            for (i, pad) in (0..81).map(|i| [i % 3, i / 3 % 3, i / 9 % 3, i / 27]).enumerate() {
                for (stride, dil) in [(1, 1), (2, 1), (1, 2)] {
                    v.push(DepthwiseS16 { stride: [stride; 2], dil: [dil; 2], ..DepthwiseS16::plain([4, 5], 3, 2, [3, 3], pad, DataS16::random(true, i as u64)) });
                }
            }
            for (in_d, mult) in [(1, 1), (3, 2), (17, 1)] {
                v.push(DepthwiseS16::plain([3, 4], in_d, mult, [3, 3], [1; 4], DataS16 { extreme: true, ..DataS16::random(true, 1) }));
            }
            for (i, m) in MULTIPLIER_EXTREMES_S16.into_iter().enumerate() {
                v.push(DepthwiseS16::plain([3, 3], 3, 2, [3, 3], [1; 4], DataS16 { multiplier: Some(m), ..DataS16::random(true, i as u64) }));
                v.push(DepthwiseS16::plain([3, 3], 3, 2, [3, 3], [1; 4], DataS16 { multiplier: Some(m), extreme: true, ..DataS16::random(true, i as u64) }));
            }
            v.push(DepthwiseS16::plain([1, 2], 2, 1, [3, 3], [0; 4], DataS16::random(true, 0)));
            v
        }

        fn run(&self, kernel: Kernel) -> Result<Vec<i16>, String> {
            Ok(self.go(Some(kernel)))
        }

        fn check(&self, got: &Vec<i16>) -> Result<(), String> {
            check_output(got, &self.go(None), None)
        }
    }

    impl DepthwiseS16 {
        /// Runs `kernel`, or (`None`) the naive definition.
        fn go(&self, kernel: Option<Kernel>) -> Vec<i16> {
            let DepthwiseS16 { hw: [h, w], in_d, mult, k: [kh, kw], stride: [sh, sw], dil: [dh, dw], pad, data } = self.clone();
            let out_d = in_d * mult;
            let (x, filter, bias, (m, s), (lo, hi)) = data.draw(h * w * in_d, kh * kw * out_d, out_d, -20);
            let (ph, pw) = (h + pad[0] + pad[1], w + pad[2] + pad[3]);
            let xp = pad_image(&x, [1, h, w, in_d], [pad[0], pad[2]], [ph, pw], 0);
            let (oh, ow) = (out_size(ph, 0, 0, kh, sh, dh), out_size(pw, 0, 0, kw, sw, dw));
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
                want[(oy * ow + ox) * out_d + oc] = requant_s16(acc, &m, &s, oc, lo, hi);
            }}}
            want
        }
    }

    kernel_tests!(reference, DepthwiseS16, depthwise_conv_2d_s16);
}

/// Legacy uint8 DEPTHWISE_CONV_2D (`depthwise_conv_2d_u8`, the host window form, AVX2 and
/// AVX-512 VNNI) on the uint8 convolution case CONV_2D's suites define ([`ConvU8`], whose
/// module documentation states the oracle).
mod uint8 {
    use super::super::{depthwise_conv_2d_u8, DepthwiseConv2dParams};
    use crate::kernels::conv_2d::tests::uint8::ConvU8;
    use crate::kernels::numerics::{Clamp, U8};
    use crate::kernels::test_util::{check_output, kernel_tests, KernelCase};
    use proptest::prelude::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    type Kernel = fn(&DepthwiseConv2dParams<U8>, &[u8], &[u8], Option<&[i32]>, &mut [u8]);

    #[derive(Clone, Debug)]
    struct Depthwise(ConvU8);

    impl KernelCase for Depthwise {
        type Kernel = Kernel;
        type Output = Vec<u8>;
        const REFERENCE: Kernel = depthwise_conv_2d_u8;

        fn strategy() -> BoxedStrategy<Self> {
            ConvU8::strategy(true).prop_map(Depthwise).boxed()
        }

        fn edge_cases() -> Vec<Self> {
            ConvU8::edge_cases(true).into_iter().map(Depthwise).collect()
        }

        fn run(&self, kernel: Kernel) -> Result<Vec<u8>, String> {
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
            check_output(got, &c.naive(c.k[0] * c.k[1] * c.out_d, |oc, ky, kx| vec![(oc / mult, (ky * c.k[1] + kx) * c.out_d + oc)]), None)
        }
    }

    kernel_tests!(reference, Depthwise, depthwise_conv_2d_u8);
    kernel_tests!(window, if true, Depthwise, crate::kernels::depthwise_conv_2d::depthwise_conv_2d_u8_window);

    #[cfg(target_arch = "x86_64")]
    fn avx2(p: &DepthwiseConv2dParams<U8>, input: &[u8], filter: &[u8], bias: Option<&[i32]>, output: &mut [u8]) {
        let token = crate::arch::x86_64::Avx2::detect().expect("the suite checked detection first");
        crate::arch::x86_64::depthwise_conv_2d_u8_window(token, p, input, filter, bias, output)
    }
    #[cfg(target_arch = "x86_64")]
    kernel_tests!(window_avx2, if crate::arch::x86_64::tests::detected(), Depthwise, avx2);
    #[cfg(target_arch = "x86_64")]
    fn avx512vnni(p: &DepthwiseConv2dParams<U8>, input: &[u8], filter: &[u8], bias: Option<&[i32]>, output: &mut [u8]) {
        crate::arch::x86_64::vnni::depthwise_conv_2d_u8_window(crate::arch::x86_64::vnni::tests::token(), p, input, filter, bias, output)
    }
    #[cfg(target_arch = "x86_64")]
    kernel_tests!(window_avx512vnni, if crate::arch::x86_64::vnni::tests::detected(), Depthwise, avx512vnni);
}
