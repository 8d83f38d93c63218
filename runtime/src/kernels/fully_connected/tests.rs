//! FULLY_CONNECTED tests: one [`KernelCase`] (random shapes and quantization, fixed edge
//! cases, the naive i64 matrix-vector product wrapped to int32 as oracle) and one suite per
//! implementation.

use super::{FullyConnectedGeometry, FullyConnectedParams, FullyConnectedVariant};
use crate::isa::{HostSimd, TargetClass};
use crate::kernels::dot::Dot;
use crate::kernels::numerics::{Clamp, QuantS8, S8};
use crate::kernels::test_util::{extremes, kernel_tests, multipliers, requantize_s8, zero_point, KernelCase, Rng, LANE_TAILS};
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
            out[b * p.geometry.output_depth + u] = requantize_s8(acc, &p.quant, u, p.clamp);
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

/// float32 FULLY_CONNECTED (`fully_connected_f32`, its packed, blocked and float16-weight
/// variants). The oracle (as the float32 convolutions'): TFLite's `reference_ops::
/// FullyConnected` in `f32` (the reference and blocked kernels match it bit for bit) and
/// the real result in `f64` (within `1e-5 * sum |x * w|`).
mod float32 {
    use super::super::{fully_connected_f32, FullyConnectedGeometry, FullyConnectedParams};
    use crate::kernels::numerics::F32;
    use crate::kernels::test_util::{act_f32, clamp_f32, compare_f32, compare_packed, floats, halves, kernel_tests, packed_suites, same_f32_bits, KernelCase, Rng, LANE_TAILS};
    use proptest::prelude::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

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

        fn params(&self) -> FullyConnectedParams<'static, F32> {
            let geometry = FullyConnectedGeometry { batches: self.batches, input_depth: self.depth, output_depth: self.units };
            FullyConnectedParams::<F32> { geometry, weights_offset: 0, quant: (), clamp: clamp_f32(self.clamp) }
        }

        /// The naive definitions on weights `w`: the f32 result (TFLite's order), the f64
        /// one and the bound of the f32 one's rounding errors.
        fn naive(&self, x: &[f32], w: &[f32], b: &[f32]) -> (Vec<f32>, Vec<f64>, Vec<f64>) {
            let c = clamp_f32(self.clamp);
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
                    exact.push(act_f32(t + bv, c));
                    real.push(r + bv as f64);
                    bound.push(m + (bv as f64).abs());
                }
            }
            (exact, real, bound)
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
            let mut out = vec![f32::NAN; self.batches * self.units];
            kernel(&self.params(), &x, &w, self.bias.then_some(&b[..]), &mut out);
            Ok(out)
        }

        fn check(&self, got: &Vec<f32>) -> Result<(), String> {
            let (x, w, b) = self.data();
            let (exact, real, bound) = self.naive(&x, &w, &b);
            compare_f32(got, &exact, &real, &bound, clamp_f32(self.clamp))
        }
    }

    kernel_tests!(reference, FullyConnected, fully_connected_f32);

    /// The packed variant (`kernels::f32x8`; not TFLite's order: [`compare_packed`]'s
    /// tolerance), on more units.
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
            // Unit counts around the 32-unit (AVX-512: 64-unit) groups and the 8-unit blocks,
            // the two-chain tail of 1 to 3 blocks.
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
            let (_, real, bound) = fc.naive(&x, &w, &b);
            let reference = fc.run(fully_connected_f32)?;
            compare_packed(got, &reference, &real, &bound, fc.depth, clamp_f32(fc.clamp))
        }
    }

    /// A packed variant's loop nest on the packed weights.
    type PackedRun = fn(&FullyConnectedParams<F32>, &[f32], &[f32], &mut [f32]);

    /// One implementation of the packed variant, as the suites run it: select for
    /// `TargetClass::Host` and pack as the compiler does, then run `imp`'s loop nest.
    fn select_packed(imp: PackedRun, p: &FullyConnectedParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
        use crate::isa::TargetClass;
        use crate::kernels::fully_connected::FullyConnectedF32Variant;
        let v = FullyConnectedF32Variant::select(p, TargetClass::Host);
        let mut packed = vec![f32::NAN; v.packed_len(&p.geometry)];
        v.pack(p, f, b, &mut packed);
        match v {
            FullyConnectedF32Variant::Reference => fully_connected_f32(p, x, f, b, out),
            FullyConnectedF32Variant::Packed => imp(p, x, &packed, out),
            FullyConnectedF32Variant::Blocked => panic!("hosts select Packed"),
        }
    }

    packed_suites!(FcPacked, FullyConnectedParams<F32>, select_packed, fully_connected, crate::kernels::fully_connected::fully_connected_f32_packed, fully_connected_f32_packed);

    /// The Arm variant (`kernels::blocked_f32`: four units per pass, TFLite's order),
    /// selected and packed for Arm as the compiler does; the suite also compares every output
    /// bit for bit with the reference.
    fn blocked(p: &FullyConnectedParams<F32>, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
        use crate::isa::TargetClass;
        use crate::kernels::fully_connected::{fully_connected_f32_blocked, FullyConnectedF32Variant};
        let v = FullyConnectedF32Variant::select(p, TargetClass::ArmDsp);
        let mut packed = vec![f32::NAN; v.packed_len(&p.geometry)];
        v.pack(p, f, b, &mut packed);
        match v {
            FullyConnectedF32Variant::Blocked => fully_connected_f32_blocked(p, x, &packed, b, out),
            FullyConnectedF32Variant::Reference => fully_connected_f32(p, x, f, b, out),
            FullyConnectedF32Variant::Packed => panic!("Arm selects Blocked"),
        }
    }

    kernel_tests!(blocked, if true, FullyConnected, blocked);

    /// The suite reaches the blocked variant (not only the reference fallback).
    #[test]
    fn cases_reach_the_blocked_variant() {
        use crate::kernels::fully_connected::FullyConnectedF32Variant;
        let geometry = FullyConnectedGeometry { batches: 1, input_depth: 3, output_depth: 5 };
        let p = FullyConnectedParams::<F32> { geometry, weights_offset: 0, quant: (), clamp: clamp_f32(0) };
        assert_eq!(FullyConnectedF32Variant::select(&p, crate::isa::TargetClass::Arm), FullyConnectedF32Variant::Blocked);
    }

    /// float16 weights kept in flash (`fully_connected_f32_f16w`, numerics `F32H`): the
    /// float32 suite's cases with weights that are float16 values (normal and subnormal
    /// halves, both zeros). Each case runs the f16 kernel on the halves' bits and must
    /// equal, bit for bit, the float32 reference on the exactly widened weights and the
    /// float32 oracle (TFLite's order).
    mod f16_weights {
        use super::*;
        use crate::kernels::blocked_f32;
        use crate::kernels::fully_connected::{fully_connected_f32_f16w, fully_connected_f32_f16w_blocked};
        use crate::math::f16_to_f32;

        const WHAT: (&str, &str) = ("with f16 weights", "with the widened float32 weights");

        fn case(c: &FullyConnected) -> Result<(), String> {
            let (x, w, b) = c.data();
            let (bits, wide) = halves(&w, c.seed);
            let p = c.params();
            let n = c.batches * c.units;
            let (mut got, mut want) = (vec![f32::NAN; n], vec![f32::NAN; n]);
            fully_connected_f32_f16w(&p, &x, &bits, c.bias.then_some(&b[..]), &mut got);
            fully_connected_f32(&p, &x, &wide, c.bias.then_some(&b[..]), &mut want);
            same_f32_bits(&got, &want, WHAT)?;
            let mut packed = vec![0u16; blocked_f32::packed_len(c.units, c.depth)];
            blocked_f32::pack(c.units, c.depth, &bits, &mut packed);
            let mut blocked = vec![f32::NAN; n];
            fully_connected_f32_f16w_blocked(&p, &x, &packed, c.bias.then_some(&b[..]), &mut blocked);
            same_f32_bits(&blocked, &want, WHAT)?;
            // The float32 suite's oracle, on the widened weights.
            let (exact, ..) = c.naive(&x, &wide, &b);
            same_f32_bits(&got, &exact, ("with f16 weights", "in TFLite's order"))
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(120))]
            #[test]
            fn random(c in <FullyConnected as KernelCase>::strategy()) {
                case(&c).map_err(TestCaseError::fail)?;
            }
        }

        #[test]
        fn edge_cases() {
            for c in <FullyConnected as KernelCase>::edge_cases() {
                case(&c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
            }
        }

        /// Every half as a 1x1 weight (infinities, NaNs, subnormals, both zeros included)
        /// times inputs of both signs, zero and infinity: the f16 kernels' bits are the
        /// float32 kernels' on the widened weight (NaN bits included).
        #[test]
        fn every_half_as_a_weight() {
            let xs = [1.0f32, -3.5, 0.0, -0.0, f32::INFINITY, 1e-30, 7e30];
            let geometry = FullyConnectedGeometry { batches: xs.len(), input_depth: 1, output_depth: 1 };
            let p = FullyConnectedParams::<F32> { geometry, weights_offset: 0, quant: (), clamp: clamp_f32(0) };
            for h in 0..=u16::MAX {
                let (mut got, mut want) = ([0f32; 7], [0f32; 7]);
                fully_connected_f32_f16w(&p, &xs, &[h], Some(&[0.25]), &mut got);
                fully_connected_f32(&p, &xs, &[f16_to_f32(h)], Some(&[0.25]), &mut want);
                same_f32_bits(&got, &want, WHAT).unwrap_or_else(|e| panic!("{h:#06x}: {e}"));
                let mut blocked = [0f32; 7];
                fully_connected_f32_f16w_blocked(&p, &xs, &[h, 0, 0, 0], Some(&[0.25]), &mut blocked);
                same_f32_bits(&blocked, &want, WHAT).unwrap_or_else(|e| panic!("{h:#06x} blocked: {e}"));
            }
        }
    }
}

/// 16x8 FULLY_CONNECTED (`fully_connected_s16`, the reference loop nest) against the naive
/// definition accumulating in i128, with per-tensor filter zero points (as CONV_2D's int16
/// suite).
mod int16 {
    use super::super::{fully_connected_s16, FullyConnectedGeometry, FullyConnectedParams};
    use crate::kernels::numerics::{Clamp, QuantS16, S16};
    use crate::kernels::test_util::{check_output, kernel_tests, requant_s16, DataS16, KernelCase, LANE_TAILS, MULTIPLIER_EXTREMES_S16};
    use proptest::prelude::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    #[derive(Clone, Debug)]
    struct FullyConnectedS16 {
        batches: usize,
        depth: usize,
        units: usize,
        filter_zp: i32,
        data: DataS16,
    }

    type Kernel = fn(&FullyConnectedParams<S16>, &[i16], &[i8], Option<&[i64]>, &mut [i16]);

    impl KernelCase for FullyConnectedS16 {
        type Kernel = Kernel;
        type Output = Vec<i16>;
        const REFERENCE: Kernel = fully_connected_s16;
        const CASES: Option<u32> = Some(120);

        fn strategy() -> BoxedStrategy<Self> {
            (1usize..4, 1usize..40, 1usize..8, -3i32..4, any::<bool>(), any::<u64>())
                .prop_map(|(batches, depth, units, filter_zp, with_bias, seed)| FullyConnectedS16 { batches, depth, units, filter_zp, data: DataS16::random(with_bias, seed) })
                .boxed()
        }

        fn edge_cases() -> Vec<Self> {
            let c = |batches, depth, units, filter_zp, data| FullyConnectedS16 { batches, depth, units, filter_zp, data };
            let mut v = Vec::new();
            for n in LANE_TAILS {
                v.push(c(1, n, 3, 0, DataS16::random(true, n as u64)));
                v.push(c(2, n, 5, 3, DataS16::random(false, n as u64)));
                v.push(c(2, 7, n, -3, DataS16::random(true, n as u64)));
            }
            v.push(c(0, 8, 3, 0, DataS16::random(true, 0)));
            for depth in [1, 4, 17, 64] {
                for filter_zp in [0, -3, 3] {
                    v.push(c(2, depth, 3, filter_zp, DataS16 { extreme: true, ..DataS16::random(true, depth as u64) }));
                }
            }
            for (i, m) in MULTIPLIER_EXTREMES_S16.into_iter().enumerate() {
                v.push(c(2, 9, 5, 2, DataS16 { multiplier: Some(m), ..DataS16::random(true, i as u64) }));
                v.push(c(2, 9, 5, 0, DataS16 { multiplier: Some(m), extreme: true, ..DataS16::random(true, i as u64) }));
            }
            v
        }

        fn run(&self, kernel: Kernel) -> Result<Vec<i16>, String> {
            Ok(self.go(Some(kernel)))
        }

        fn check(&self, got: &Vec<i16>) -> Result<(), String> {
            check_output(got, &self.go(None), None)
        }
    }

    impl FullyConnectedS16 {
        /// Runs `kernel`, or (`None`) the naive definition.
        fn go(&self, kernel: Option<Kernel>) -> Vec<i16> {
            let FullyConnectedS16 { batches, depth, units, filter_zp, data } = self.clone();
            let (x, filter, bias, (m, s), (lo, hi)) = data.draw(batches * depth, units * depth, units, -24);
            let filter_offset = if m.len() == 1 { -filter_zp } else { 0 };
            let with_bias = data.with_bias;
            if let Some(kernel) = kernel {
                let p = FullyConnectedParams { geometry: FullyConnectedGeometry { batches, input_depth: depth, output_depth: units }, weights_offset: filter_offset, quant: QuantS16 { output_multiplier: &m, output_shift: &s }, clamp: Clamp { min: (lo) as i16, max: (hi) as i16 } };
                let mut got = vec![0x5555i16; batches * units];
                kernel(&p, &x, &filter, with_bias.then_some(&bias[..]), &mut got);
                return got;
            }
            let mut want = vec![0i16; batches * units];
            for b in 0..batches { for u in 0..units {
                let mut acc: i128 = if with_bias { bias[u] as i128 } else { 0 };
                for d in 0..depth {
                    acc += (filter[u * depth + d] as i128 + filter_offset as i128) * x[b * depth + d] as i128;
                }
                want[b * units + u] = requant_s16(acc, &m, &s, u, lo, hi);
            }}
            want
        }
    }

    kernel_tests!(reference, FullyConnectedS16, fully_connected_s16);
}
