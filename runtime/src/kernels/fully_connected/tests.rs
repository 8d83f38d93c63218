//! FULLY_CONNECTED tests: one [`KernelCase`] (random shapes and quantization, fixed edge
//! cases, the naive i64 matrix-vector product wrapped to int32 as oracle) and one suite per
//! implementation.

use super::{FullyConnectedGeometry, FullyConnectedParams, FullyConnectedVariant};
use crate::isa::{HostSimd, TargetClass};
use crate::kernels::dot::Dot;
use crate::kernels::numerics::{Clamp, QuantS8, S8};
use crate::kernels::test_util::{extremes, kernel_tests, multipliers, zero_point, KernelCase, Rng, LANE_TAILS};
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::string::String;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&FullyConnectedParams<S8>, &[i8], &[i8], Option<&[i32]>, &mut [i8]);

/// The variant the compiler would select, packed as the compiler packs it, run with the dot
/// implementation `D`.
fn selected<D: Dot>(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = FullyConnectedVariant::select(p, filter, bias, crate::isa::TargetClass::ArmDsp);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    match v {
        FullyConnectedVariant::Reference => super::fully_connected_s8(p, input, filter, bias, output),
        FullyConnectedVariant::Dot4 => super::fast::fully_connected_dot4::<D>(p, input, filter, &packed, output),
        FullyConnectedVariant::Interleaved => super::fast::fully_connected_interleaved::<D>(p, input, &packed, output),
        FullyConnectedVariant::Rows => super::fast::fully_connected_rows::<D>(p, input, filter, &packed, output),
        // Not selected for Arm; the portable form if it were.
        FullyConnectedVariant::Quad => crate::kernels::conv_2d::quad::conv_quad(&super::as_conv(p), input, &packed, output),
    }
}

/// What x86-64 selects (`Quad` for every layer it takes), in the portable form.
fn selected_x86_portable(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = FullyConnectedVariant::select(p, filter, bias, crate::isa::TargetClass::X86);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    match v {
        FullyConnectedVariant::Quad => crate::kernels::conv_2d::quad::conv_quad(&super::as_conv(p), input, &packed, output),
        FullyConnectedVariant::Reference => super::fully_connected_s8(p, input, filter, bias, output),
        FullyConnectedVariant::Dot4 => super::fast::fully_connected_dot4::<crate::kernels::dot::scalar::Scalar>(p, input, filter, &packed, output),
        FullyConnectedVariant::Interleaved => super::fast::fully_connected_interleaved::<crate::kernels::dot::scalar::Scalar>(p, input, &packed, output),
        FullyConnectedVariant::Rows => super::fast::fully_connected_rows::<crate::kernels::dot::scalar::Scalar>(p, input, filter, &packed, output),
    }
}

/// The weights in LUT form (`kernels::lut`; per-channel tables for odd depths, one shared
/// table for even ones) run by the `_lut` kernel with the dot implementation `D`; weights
/// that have no LUT form (more than 128 values a table, or asymmetric) run the reference.
fn lut<D: Dot>(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let depth = p.geometry.input_depth;
    let rows: Vec<Vec<i8>> = filter.chunks(depth.max(1)).take(p.geometry.output_depth).map(<[i8]>::to_vec).collect();
    match crate::kernels::lut::testing::encode(&rows, depth % 2 == 1, depth % 3) {
        Some(w) if p.weights_offset == 0 && depth > 0 => crate::kernels::lut::fully_connected_lut::<D>(p, input, &w.view(), bias, output),
        _ => super::fully_connected_s8(p, input, filter, bias, output),
    }
}

/// The weights packed as int4 (`kernels::int4`, the file's order) run by the `_int4` kernel
/// with the dot implementation `D` (the `Int4<Fc>` suites: every weight is in `-8..=7`);
/// asymmetric weights run the reference, as the compiler then unpacks.
fn int4<D: Dot>(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    if p.weights_offset != 0 {
        return super::fully_connected_s8(p, input, filter, bias, output);
    }
    // The form the compiler would select, packed as it packs it.
    use crate::kernels::int4::FullyConnectedInt4;
    let form = FullyConnectedInt4::select(p, filter, bias);
    if form == FullyConnectedInt4::Interleaved {
        let mut packed = vec![0i32; form.packed_len(&p.geometry)];
        form.pack(p, filter, bias, &mut packed);
        return super::fast::fully_connected_interleaved_int4::<D>(p, input, &packed, output);
    }
    let mut nibbles = vec![0u8; filter.len().div_ceil(2)];
    crate::kernels::int4::pack(filter, &mut nibbles);
    crate::kernels::lut::fully_connected_lut::<D>(p, input, &crate::kernels::int4::Int4Weights { nibbles: &nibbles }, bias, output)
}

/// The same through the public functions, as generated code calls them.
/// The variant `class` selects, through its public function (the variant table's `run`)
/// with `simd` selected on this thread: the dispatch generated code goes through, on one
/// instruction set.
#[allow(dead_code)]
fn under(simd: HostSimd, class: TargetClass, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    crate::isa::under(simd, || {
        let v = FullyConnectedVariant::select(p, filter, bias, class);
        let mut packed = vec![0i32; v.packed_len(&p.geometry)];
        v.pack(p, filter, bias, &mut packed);
        v.run(p, crate::variants::Operands { input, filter, bias, packed: &packed }, output);
    })
}

fn public(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = FullyConnectedVariant::select(p, filter, bias, crate::isa::TargetClass::BUILD);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    v.run(p, crate::variants::Operands { input, filter, bias, packed: &packed }, output);
}

fn naive(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>) -> Vec<i8> {
    let mut out = vec![0i8; p.geometry.batches * p.geometry.output_depth];
    for b in 0..p.geometry.batches {
        for u in 0..p.geometry.output_depth {
            let mut acc: i64 = bias.map_or(0, |bs| bs[u] as i64);
            for d in 0..p.geometry.input_depth {
                acc += (filter[u * p.geometry.input_depth + d] as i64 + p.weights_offset as i64)
                    * (input[b * p.geometry.input_depth + d] as i64 + p.quant.input_offset as i64);
            }
            // The int32 accumulator wraps (no saturation), as TFLite's does.
            let acc = acc as i32;
            let q = if p.quant.output_multiplier.len() == 1 { 0 } else { u };
            let v = multiply_by_quantized_multiplier(acc, p.quant.output_multiplier[q], p.quant.output_shift[q]) as i64 + p.quant.output_offset as i64;
            out[b * p.geometry.output_depth + u] = v.clamp(p.clamp.min as i64, p.clamp.max as i64) as i8;
        }
    }
    out
}

/// A random FULLY_CONNECTED: shapes and zero points; data, multipliers and clamp from
/// `seed`. With `symmetric`, the weights offset is 0 (the `Dot4` variant's case).
#[derive(Debug, Clone)]
struct Case {
    batches: usize,
    depth: usize,
    units: usize,
    in_zp: i32,
    filter_zp: i32,
    out_zp: i32,
    with_bias: bool,
    symmetric: bool,
    seed: u64,
    /// Right shifts only (1..=13), which the `Interleaved` variant's packed requantization
    /// needs; otherwise shifts -13..=1.
    right_shifts: bool,
}

/// A fully specified FULLY_CONNECTED, with its hand-computed output when there is one.
#[derive(Debug, Clone)]
struct Problem {
    geometry: FullyConnectedGeometry,
    weights_offset: i32,
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

impl Case {
    fn problem(&self) -> Problem {
        let c = self;
        let mut rng = Rng(c.seed);
        let (mult, shift) = multipliers(&mut rng, c.units, -14, if c.right_shifts { -1 } else { 1 });
        // A filter zero point only exists with per-tensor weights.
        let weights_offset = if mult.len() == 1 && !c.symmetric { -c.filter_zp } else { 0 };
        let (act_min, act_max) = rng.activation_range();
        let input = rng.i8s(c.batches * c.depth);
        let filter = rng.i8s(c.units * c.depth);
        let bias = rng.i32s(c.units, -(1 << 20), 1 << 20);
        Problem {
            geometry: FullyConnectedGeometry { batches: c.batches, input_depth: c.depth, output_depth: c.units },
            weights_offset,
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

    fn plain(batches: usize, depth: usize, units: usize, symmetric: bool, seed: u64) -> Case {
        Case { batches, depth, units, in_zp: 0, filter_zp: 3, out_zp: 0, with_bias: true, symmetric, seed, right_shifts: true }
    }
}

impl Problem {
    fn params(&self) -> FullyConnectedParams<'_, S8> {
        FullyConnectedParams {
            geometry: self.geometry,
            weights_offset: self.weights_offset,
            quant: QuantS8 { input_offset: self.input_offset, output_offset: self.output_offset, output_multiplier: &self.mult, output_shift: &self.shift },
            clamp: Clamp { min: self.clamp.0, max: self.clamp.1 },
        }
    }
}

/// One FULLY_CONNECTED case: random (shapes and seed) or fully specified.
#[derive(Debug, Clone)]
enum Fc {
    Random(Case),
    Fixed(Problem),
}

impl Fc {
    fn problem(&self) -> Problem {
        match self {
            Fc::Random(c) => c.problem(),
            Fc::Fixed(p) => p.clone(),
        }
    }
}

impl KernelCase for Fc {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = super::fully_connected_s8;
    const CASES: Option<u32> = Some(300);

    fn strategy() -> BoxedStrategy<Self> {
        let depth = prop_oneof![1usize..70, (1usize..40).prop_map(|d| 4 * d), (8usize..40).prop_map(|d| 16 * d)];
        let units = prop_oneof![1usize..20, (1usize..6).prop_map(|u| 4 * u)];
        (1usize..4, depth, units, zero_point(), -5i32..5, zero_point(), any::<bool>(), any::<u64>(), any::<bool>(), any::<bool>())
            .prop_map(|(batches, depth, units, in_zp, filter_zp, out_zp, with_bias, seed, symmetric, right_shifts)| {
                Fc::Random(Case { batches, depth, units, in_zp, filter_zp, out_zp, with_bias, symmetric, seed, right_shifts })
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        // Two batches, two units, hand-computed, with a per-tensor filter offset.
        // b0: (2 + 4)/4 = 1.5 -> 2 -> 12; (6 + 4 - 4)/4 = 1.5 -> 2 -> 12
        // b1: (0 + 4)/4 = 1 -> 11;        (100 - 4)/4 = 24 -> 34 -> clamp 20
        v.push(Fc::Fixed(Problem {
            geometry: FullyConnectedGeometry { batches: 2, input_depth: 3, output_depth: 2 },
            weights_offset: -1,
            input_offset: 1,
            output_offset: 10,
            mult: vec![1 << 30],
            shift: vec![-1], // 0.25
            clamp: (-128, 20),
            input: vec![1, 2, 3, -1, -1, 99], // +1: (2, 3, 4), (0, 0, 100)
            filter: vec![2, 1, 1, 1, 3, 2],   // -1: (1, 0, 0), (0, 2, 1)
            bias: Some(vec![4, -4]),
            expected: Some(vec![12, 12, 11, 20]),
        }));
        // The int32 accumulator wraps like TFLite's: MAX + (2 - 1) * 1 is MIN, both variants.
        for (weights_offset, x, want) in [(0, 1, -128), (0, 0, 127), (-1, 1, -128), (-1, 0, 127)] {
            v.push(Fc::Fixed(Problem {
                geometry: FullyConnectedGeometry { batches: 1, input_depth: 1, output_depth: 1 },
                weights_offset,
                input_offset: 0,
                output_offset: 0,
                mult: vec![1 << 30],
                shift: vec![0],
                clamp: (-128, 127),
                input: vec![x],
                filter: vec![if weights_offset == 0 { 1 } else { 2 }],
                bias: Some(vec![i32::MAX]),
                expected: Some(vec![want]),
            }));
        }
        // Lane tails of the dot product (odd depths included), both variants, one and
        // several batches and units.
        for n in LANE_TAILS {
            for symmetric in [true, false] {
                v.push(Fc::Random(Case::plain(1, n, 3, symmetric, n as u64)));
                v.push(Fc::Random(Case::plain(3, n, 5, symmetric, n as u64)));
                v.push(Fc::Random(Case::plain(2, 7, n, symmetric, n as u64)));
            }
        }
        // The Interleaved variant: depths and units multiples of 4 (its 8-byte steps and
        // the 4-byte remainder), batches 1..3, zero points at the extremes.
        for (i, (depth, units)) in [(128, 4), (64, 8), (32, 16), (64, 12), (640, 8), (36, 16)].into_iter().enumerate() {
            for (in_zp, out_zp) in [(0, 0), (-128, 127), (127, -128)] {
                v.push(Fc::Random(Case { in_zp, out_zp, ..Case::plain(1 + i % 3, depth, units, true, i as u64) }));
            }
        }
        // Zero batches (empty output).
        v.push(Fc::Random(Case::plain(0, 8, 3, true, 0)));
        v.push(Fc::Random(Case::plain(0, 8, 3, false, 0)));
        // ±127 / −128 in data and zero points.
        for (i, (in_zp, out_zp)) in [(-128, 127), (127, -128), (-128, -128), (127, 127)].into_iter().enumerate() {
            for (depth, units, symmetric) in [(1, 3, true), (4, 3, true), (17, 3, true), (64, 3, true), (17, 3, false), (64, 3, false), (128, 4, true), (64, 8, true)] {
                let mut p = Case { in_zp, out_zp, filter_zp: -5, ..Case::plain(2, depth, units, symmetric, i as u64) }.problem();
                p.input = extremes(p.input.len());
                p.filter = extremes(p.filter.len()).into_iter().rev().collect();
                v.push(Fc::Fixed(p));
            }
        }
        // Multiplier extremes, per channel and per tensor.
        for (i, (mult, shift)) in [(i32::MAX, 1), (1 << 30, 1), (i32::MAX, 0), (1 << 30, -31), (i32::MAX, -20), (1 << 30, -14)].into_iter().enumerate() {
            for symmetric in [true, false] {
                let mut p = Case { in_zp: -128, out_zp: 127, ..Case::plain(2, 9, 5, symmetric, i as u64) }.problem();
                p.mult = vec![mult; p.mult.len()];
                p.shift = vec![shift; p.shift.len()];
                p.clamp = (-128, 127);
                v.push(Fc::Fixed(p));
            }
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let p = self.problem();
        let mut out = vec![0x55u8 as i8; p.geometry.batches * p.geometry.output_depth];
        kernel(&p.params(), &p.input, &p.filter, p.bias.as_deref(), &mut out);
        Ok(out)
    }

    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        let p = self.problem();
        let want = naive(&p.params(), &p.input, &p.filter, p.bias.as_deref());
        crate::kernels::test_util::check_output(out, &want, p.expected.as_deref())
    }
}

kernel_tests!(reference, Fc, crate::kernels::fully_connected::fully_connected_s8);
kernel_tests!(selected_scalar, if true, Fc, selected::<crate::kernels::dot::scalar::Scalar>);
// The RV32 micro-kernels (portable Rust, so run natively here too) on the Arm layouts.
kernel_tests!(selected_rv32, if true, Fc, selected::<crate::kernels::dot::rv32::Rv32>);
#[cfg(tflc_arm_dsp)]
kernel_tests!(selected_arm_dsp, if true, Fc, selected::<crate::kernels::dot::dsp::ArmDsp>);
kernel_tests!(selected_x86_portable, if true, Fc, selected_x86_portable);
#[cfg(target_arch = "x86_64")]
kernel_tests!(selected_avx2, if HostSimd::Avx2.executable(), Fc, |p, x, f, b, o| under(HostSimd::Avx2, TargetClass::X86, p, x, f, b, o));
#[cfg(target_arch = "x86_64")]
kernel_tests!(selected_avxvnni, if HostSimd::AvxVnni.executable(), Fc, |p, x, f, b, o| under(HostSimd::AvxVnni, TargetClass::X86, p, x, f, b, o));
#[cfg(target_arch = "x86_64")]
kernel_tests!(selected_avx512vnni, if HostSimd::Avx512Vnni.executable(), Fc, |p, x, f, b, o| under(HostSimd::Avx512Vnni, TargetClass::X86, p, x, f, b, o));
#[cfg(target_arch = "x86_64")]
kernel_tests!(dot4_avx2, if HostSimd::Avx2.executable(), Fc, |p, x, f, b, o| under(HostSimd::Avx2, TargetClass::Host, p, x, f, b, o));
#[cfg(target_arch = "x86_64")]
kernel_tests!(dot4_avx512vnni, if HostSimd::Avx512Vnni.executable(), Fc, |p, x, f, b, o| under(HostSimd::Avx512Vnni, TargetClass::Host, p, x, f, b, o));
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
kernel_tests!(selected_neon_micro, if true, Fc, selected::<crate::kernels::dot::neon::Neon>);
#[cfg(tflc_neon)]
kernel_tests!(selected_neon, if true, Fc, crate::arch::aarch64::tests::fully_connected::<false>);
#[cfg(tflc_neon)]
kernel_tests!(selected_neon_sdot, if crate::arch::aarch64::tests::dotprod_detected(), Fc, crate::arch::aarch64::tests::fully_connected::<true>);
kernel_tests!(public_api, if true, Fc, public);

/// The strategy and the edge cases reach every variant.
#[test]
fn cases_reach_every_variant() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..100 {
        let p = Fc::strategy().new_tree(&mut runner).expect("a case").current().problem();
        seen.insert(std::format!("{:?}", FullyConnectedVariant::select(&p.params(), &p.filter, p.bias.as_deref(), crate::isa::TargetClass::ArmDsp)));
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
    let edges: std::collections::BTreeSet<_> = Fc::edge_cases()
        .iter()
        .map(|c| {
            let p = c.problem();
            std::format!("{:?}", FullyConnectedVariant::select(&p.params(), &p.filter, p.bias.as_deref(), crate::isa::TargetClass::ArmDsp))
        })
        .collect();
    assert_eq!(edges.len(), 4, "{edges:?}");
}
crate::kernels::test_util::every_dot!(lut, Fc, lut);

crate::kernels::test_util::narrow_int4!(Fc);
// int4 filters kept packed (`kernels::int4`): the same suite with every weight in -8..=7,
// through the `_lut` drivers on `Int4Weights`, with every dot implementation.
crate::kernels::test_util::every_dot!(int4, crate::kernels::test_util::Int4<Fc>, int4);
