//! SVDF tests: a naive implementation that follows TFLite Micro's structure (explicit
//! scratch of per-filter sums, state as rows of time steps) in i64, run over several steps
//! so that the state carry-over is checked; and a case worked by hand. Bit-exactness with
//! TFLite Micro on real layers is checked by `op_conformance` and the e2e suite.

use super::SvdfParams;
use crate::kernels::test_util::{zero_point, Rng};
use crate::prepare::quantize_multiplier;
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&SvdfParams, &[i8], &[i8], &[i8], &[i32], &mut [i8], &mut [i8]);

/// One step: `state[b][f]` is a row of `memory_size` steps, oldest first.
fn naive(p: &SvdfParams, input: &[i8], wf: &[i8], wt: &[i8], bias: &[i32], state: &mut [Vec<Vec<i8>>]) -> Vec<i8> {
    let mut out = vec![0i8; p.batches * p.num_units];
    for b in 0..p.batches {
        for f in 0..p.num_filters {
            let row = &mut state[b][f];
            row.remove(0);
            let mut dot: i64 = 0;
            for c in 0..p.input_size {
                dot += wf[f * p.input_size + c] as i64 * (input[b * p.input_size + c] as i64 - p.input_zero_point as i64);
            }
            let dot = i32::try_from(dot).expect("test sums stay in i32");
            let v = multiply_by_quantized_multiplier(dot, p.feature_multiplier, p.feature_shift).clamp(-128, 127);
            row.push((p.state_zero_point + v) as i8);
        }
        let scratch: Vec<i64> = (0..p.num_filters)
            .map(|f| {
                (0..p.memory_size)
                    .map(|j| wt[f * p.memory_size + j] as i64 * (state[b][f][j] as i64 - p.state_zero_point as i64))
                    .sum()
            })
            .collect();
        for u in 0..p.num_units {
            let acc = bias[u] as i64 + (0..p.rank).map(|r| scratch[u * p.rank + r]).sum::<i64>();
            let acc = i32::try_from(acc).expect("test sums stay in i32");
            let v = multiply_by_quantized_multiplier(acc, p.output_multiplier, p.output_shift) as i64
                + p.output_zero_point as i64;
            out[b * p.num_units + u] = v.clamp(-128, 127) as i8;
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn check(kernel: Kernel, batches: usize, input_size: usize, units: usize, rank: usize, memory_size: usize, zps: (i32, i32, i32), seed: u64) {
    let mut rng = Rng(seed);
    let (feature_multiplier, feature_shift) = rng.multiplier(-12, 0);
    let (output_multiplier, output_shift) = rng.multiplier(-10, 1);
    let p = SvdfParams {
        batches,
        input_size,
        num_filters: units * rank,
        num_units: units,
        rank,
        memory_size,
        input_zero_point: zps.0,
        state_zero_point: zps.1,
        output_zero_point: zps.2,
        feature_multiplier,
        feature_shift,
        output_multiplier,
        output_shift,
    };
    let nf = p.num_filters;
    let wf = rng.i8s(nf * input_size);
    let wt = rng.i8s(nf * memory_size);
    let bias = rng.i32s(units, -(1 << 16), 1 << 16);
    // A random starting state (the model's reset value is one particular state).
    let init = rng.i8s(batches * nf * memory_size);
    let mut state = init.clone();
    let mut rows: Vec<Vec<Vec<i8>>> = (0..batches)
        .map(|b| (0..nf).map(|f| init[(b * nf + f) * memory_size..][..memory_size].to_vec()).collect())
        .collect();
    for _step in 0..memory_size + 2 {
        let input = rng.i8s(batches * input_size);
        let mut got = vec![0x55u8 as i8; batches * units];
        kernel(&p, &input, &wf, &wt, &bias, &mut state, &mut got);
        assert_eq!(got, naive(&p, &input, &wf, &wt, &bias, &mut rows));
        let flat: Vec<i8> = rows.iter().flatten().flatten().copied().collect();
        assert_eq!(state, flat, "state after the step");
    }
}

macro_rules! kernel_tests {
    ($name:ident, $kernel:path) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(150))]
                #[test]
                fn matches_naive_over_steps(
                    batches in 1usize..3, input_size in 1usize..20, units in 1usize..6, rank in 1usize..4,
                    memory_size in 1usize..6, in_zp in zero_point(), st_zp in zero_point(), out_zp in zero_point(),
                    seed in any::<u64>(),
                ) {
                    check($kernel, batches, input_size, units, rank, memory_size, (in_zp, st_zp, out_zp), seed);
                }
            }

            #[test]
            fn memory_of_one_and_extreme_zero_points() {
                for (i, zps) in [(-128, 127, -128), (127, -128, 127), (0, 0, 0)].into_iter().enumerate() {
                    check($kernel, 2, 7, 3, 2, 1, zps, i as u64);
                }
            }

            /// Large weights and inputs against a zero point of the other sign: the
            /// feature sum saturates int8 and `zero_point + value` wraps in the store.
            #[test]
            fn saturation_and_wrapping_store() {
                check($kernel, 1, 64, 4, 2, 8, (-128, 100, -128), 7);
                check($kernel, 1, 64, 4, 2, 8, (127, -100, 127), 8);
            }
        }
    };
}

kernel_tests!(scalar, crate::kernels::svdf::scalar::svdf_s8);
kernel_tests!(public, crate::kernels::svdf::svdf_s8);

/// Worked by hand. One filter, memory 2, multipliers 1.0 and 0.5.
#[test]
fn by_hand() {
    let (m1, s1) = quantize_multiplier(1.0).unwrap();
    let (m2, s2) = quantize_multiplier(0.5).unwrap();
    let p = SvdfParams {
        batches: 1,
        input_size: 2,
        num_filters: 1,
        num_units: 1,
        rank: 1,
        memory_size: 2,
        input_zero_point: 1,
        state_zero_point: -3,
        output_zero_point: 10,
        feature_multiplier: m1,
        feature_shift: s1,
        output_multiplier: m2,
        output_shift: s2,
    };
    let wf = [2i8, -1];
    let wt = [3i8, 4];
    let bias = [5i32];
    // The reset state is the zero point everywhere.
    let mut state = [-3i8, -3];
    let mut out = [0i8];
    // Step 1: feature = 2*(4-1) + -1*(2-1) = 5; state [-3, -3+5=2];
    // time = 3*0 + 4*5 = 20; (5 + 20) * 0.5 = 12.5 -> 13 (ties away); + 10 = 23.
    super::svdf_s8(&p, &[4, 2], &wf, &wt, &bias, &mut state, &mut out);
    assert_eq!(state, [-3, 2]);
    assert_eq!(out, [23]);
    // Step 2: feature = 2*(0-1) + -1*(-9-1) = 8; state [2, 5];
    // time = 3*5 + 4*8 = 47; (5 + 47) * 0.5 = 26; + 10 = 36.
    super::svdf_s8(&p, &[0, -9], &wf, &wt, &bias, &mut state, &mut out);
    assert_eq!(state, [2, 5]);
    assert_eq!(out, [36]);
}
