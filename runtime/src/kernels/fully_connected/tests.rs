//! FULLY_CONNECTED tests: naive i64 matrix-vector reference, property tests, edge cases.

use super::{FullyConnectedGeometry, FullyConnectedParams, FullyConnectedVariant};
use crate::kernels::dot::Dot;
use crate::kernels::numerics::{Clamp, QuantS8, S8};
use crate::kernels::test_util::{multipliers, zero_point, Rng};
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&FullyConnectedParams<S8>, &[i8], &[i8], Option<&[i32]>, &mut [i8]);

/// The variant the compiler would select, packed as the compiler packs it, run with the dot
/// implementation `D`.
fn selected<D: Dot>(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = FullyConnectedVariant::select(p);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    match v {
        FullyConnectedVariant::Reference => super::fully_connected_s8(p, input, filter, bias, output),
        FullyConnectedVariant::Dot4 => super::fast::fully_connected_dot4::<D>(p, input, filter, &packed, output),
    }
}

/// The same through the public functions, as generated code calls them.
fn public(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let v = FullyConnectedVariant::select(p);
    let mut packed = vec![0i32; v.packed_len(&p.geometry)];
    v.pack(p, filter, bias, &mut packed);
    match v {
        FullyConnectedVariant::Reference => super::fully_connected_s8(p, input, filter, bias, output),
        FullyConnectedVariant::Dot4 => super::fully_connected_s8_dot4(p, input, filter, &packed, output),
    }
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
            let acc = i32::try_from(acc).expect("test accumulators stay in i32");
            let q = if p.quant.output_multiplier.len() == 1 { 0 } else { u };
            let v = multiply_by_quantized_multiplier(acc, p.quant.output_multiplier[q], p.quant.output_shift[q]) as i64 + p.quant.output_offset as i64;
            out[b * p.geometry.output_depth + u] = v.clamp(p.clamp.min as i64, p.clamp.max as i64) as i8;
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
/// Runs `kernel` and compares with the naive definition and the reference kernel. With
/// `symmetric`, the weights offset is 0 (the `Dot4` variant's case).
fn check(kernel: Kernel, symmetric: bool, batches: usize, depth: usize, units: usize, in_zp: i32, filter_zp: i32, out_zp: i32, with_bias: bool, seed: u64) {
    let mut rng = Rng(seed);
    let (mult, shift) = multipliers(&mut rng, units, -14, 1);
    // A filter zero point only exists with per-tensor weights.
    let filter_offset = if mult.len() == 1 && !symmetric { -filter_zp } else { 0 };
    let (act_min, act_max) = rng.activation_range();
    let p = FullyConnectedParams { geometry: FullyConnectedGeometry { batches, input_depth: depth, output_depth: units }, weights_offset: filter_offset, quant: QuantS8 { input_offset: -in_zp, output_offset: out_zp, output_multiplier: &mult, output_shift: &shift }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
    let input = rng.i8s(batches * depth);
    let filter = rng.i8s(units * depth);
    let bias = rng.i32s(units, -(1 << 20), 1 << 20);
    let bias = with_bias.then_some(&bias[..]);
    let mut got = vec![0x55u8 as i8; batches * units];
    kernel(&p, &input, &filter, bias, &mut got);
    assert_eq!(got, naive(&p, &input, &filter, bias));
    let mut reference = vec![0x55u8 as i8; got.len()];
    super::fully_connected_s8(&p, &input, &filter, bias, &mut reference);
    assert_eq!(got, reference);
}

macro_rules! kernel_tests {
    ($name:ident, $kernel:expr) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(300))]
                #[test]
                fn matches_naive(
                    batches in 1usize..4, depth in 1usize..70, units in 1usize..20,
                    in_zp in zero_point(), filter_zp in -5i32..5, out_zp in zero_point(),
                    with_bias in any::<bool>(), seed in any::<u64>(), symmetric in any::<bool>(),
                ) {
                    check($kernel, symmetric, batches, depth, units, in_zp, filter_zp, out_zp, with_bias, seed);
                }
            }

            /// Two batches, two units, hand-computed, with a per-tensor filter offset.
            #[test]
            fn hand_computed() {
                let (mult, shift) = ([1 << 30], [-1]); // 0.25
                let p = FullyConnectedParams { geometry: FullyConnectedGeometry { batches: 2, input_depth: 3, output_depth: 2 }, weights_offset: -1, quant: QuantS8 { input_offset: 1, output_offset: 10, output_multiplier: &mult, output_shift: &shift }, clamp: Clamp { min: -128, max: 20 } };
                let input = [1, 2, 3, -1, -1, 99]; // +1: (2, 3, 4), (0, 0, 100)
                let filter = [2, 1, 1, 1, 3, 2]; // -1: (1, 0, 0), (0, 2, 1)
                let mut out = [0i8; 4];
                $kernel(&p, &input, &filter, Some(&[4, -4]), &mut out);
                // b0: (2 + 4)/4 = 1.5 -> 2 -> 12; (6 + 4 - 4)/4 = 1.5 -> 2 -> 12
                // b1: (0 + 4)/4 = 1 -> 11;        (100 - 4)/4 = 24 -> 34 -> clamp 20
                assert_eq!(out, [12, 12, 11, 20]);
            }
        }
    };
}

kernel_tests!(reference, crate::kernels::fully_connected::fully_connected_s8);
kernel_tests!(selected_scalar, selected::<crate::kernels::dot::scalar::Scalar>);
#[cfg(tflc_arm_dsp)]
kernel_tests!(selected_arm_dsp, selected::<crate::kernels::dot::dsp::ArmDsp>);
kernel_tests!(public_api, public);
