//! FULLY_CONNECTED tests: naive i64 matrix-vector reference, property tests, edge cases.

use super::FullyConnectedParams;
use crate::kernels::test_util::{multipliers, zero_point, Rng};
use crate::prepare::fold_input_offset;
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&FullyConnectedParams, &[i8], &[i8], Option<&[i32]>, &mut [i8]);

fn naive(p: &FullyConnectedParams, input: &[i8], filter: &[i8], bias: Option<&[i32]>) -> Vec<i8> {
    let mut out = vec![0i8; p.batches * p.output_depth];
    for b in 0..p.batches {
        for u in 0..p.output_depth {
            let mut acc: i64 = bias.map_or(0, |bs| bs[u] as i64);
            for d in 0..p.input_depth {
                acc += (filter[u * p.input_depth + d] as i64 + p.filter_offset as i64)
                    * (input[b * p.input_depth + d] as i64 + p.input_offset as i64);
            }
            let acc = i32::try_from(acc).expect("test accumulators stay in i32");
            let q = if p.output_multiplier.len() == 1 { 0 } else { u };
            let v = multiply_by_quantized_multiplier(acc, p.output_multiplier[q], p.output_shift[q]) as i64 + p.output_offset as i64;
            out[b * p.output_depth + u] = v.clamp(p.output_activation_min as i64, p.output_activation_max as i64) as i8;
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
/// With `fold`, the filter offset is 0 (as the compiler requires for folding) and the
/// params carry the folded bias; the result must also equal the scalar reference's.
fn check(kernel: Kernel, fold: bool, batches: usize, depth: usize, units: usize, in_zp: i32, filter_zp: i32, out_zp: i32, with_bias: bool, seed: u64) {
    let mut rng = Rng(seed);
    let (mult, shift) = multipliers(&mut rng, units, -14, 1);
    // A filter zero point only exists with per-tensor weights.
    let filter_offset = if mult.len() == 1 && !fold { -filter_zp } else { 0 };
    let (act_min, act_max) = rng.activation_range();
    let p = FullyConnectedParams {
        batches,
        input_depth: depth,
        output_depth: units,
        input_offset: -in_zp,
        filter_offset,
        output_offset: out_zp,
        output_multiplier: &mult,
        output_shift: &shift,
        output_activation_min: act_min,
        output_activation_max: act_max,
        folded_bias: &[],
    };
    let input = rng.i8s(batches * depth);
    let filter = rng.i8s(units * depth);
    let bias = rng.i32s(units, -(1 << 20), 1 << 20);
    let bias = with_bias.then_some(&bias[..]);
    let folded: Vec<i32> = (0..units)
        .map(|u| fold_input_offset(filter[u * depth..][..depth].iter().copied(), bias.map_or(0, |b| b[u]), p.input_offset))
        .collect();
    let p = if fold { FullyConnectedParams { folded_bias: &folded, ..p } } else { p };
    assert_eq!(fold, super::fast::applies(&p));
    let mut got = vec![0x55u8 as i8; batches * units];
    kernel(&p, &input, &filter, bias, &mut got);
    assert_eq!(got, naive(&p, &input, &filter, bias));
    if fold {
        let mut reference = vec![0x55u8 as i8; got.len()];
        super::scalar::fully_connected_s8(&p, &input, &filter, bias, &mut reference);
        assert_eq!(got, reference);
    }
}

macro_rules! kernel_tests {
    ($name:ident, $kernel:path, $fold:expr) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(300))]
                #[test]
                fn matches_naive(
                    batches in 1usize..4, depth in 1usize..70, units in 1usize..20,
                    in_zp in zero_point(), filter_zp in -5i32..5, out_zp in zero_point(),
                    with_bias in any::<bool>(), seed in any::<u64>(),
                ) {
                    check($kernel, $fold, batches, depth, units, in_zp, filter_zp, out_zp, with_bias, seed);
                }
            }

            /// Two batches, two units, hand-computed, with a per-tensor filter offset.
            #[test]
            fn hand_computed() {
                let (mult, shift) = ([1 << 30], [-1]); // 0.25
                let p = FullyConnectedParams {
                    batches: 2,
                    input_depth: 3,
                    output_depth: 2,
                    input_offset: 1,
                    filter_offset: -1,
                    output_offset: 10,
                    output_multiplier: &mult,
                    output_shift: &shift,
                    output_activation_min: -128,
                    output_activation_max: 20,
                    folded_bias: &[],
                };
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

kernel_tests!(scalar, crate::kernels::fully_connected::scalar::fully_connected_s8, false);
kernel_tests!(public_api, crate::kernels::fully_connected::fully_connected_s8, false);
// The public API with folded biases: the fast path, against the naive definition and the
// scalar kernel.
kernel_tests!(public_api_folded, crate::kernels::fully_connected::fully_connected_s8, true);
