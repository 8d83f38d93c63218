//! SVDF tests: a naive implementation that follows TFLite Micro's structure (explicit
//! scratch of per-filter sums, state as rows of time steps) in i64, run over several steps
//! so that the state carry-over is checked; and a case worked by hand. Bit-exactness with
//! TFLite Micro on real layers is checked by `op_conformance` and the e2e suite.

use super::SvdfParams;
use crate::kernels::test_util::{kernel_tests, zero_point, KernelCase, Rng, LANE_TAILS};
use crate::prepare::quantize_multiplier;
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::format;
use std::string::String;
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

/// An SVDF layer (weights, bias, multipliers and a random starting state from `seed`) run
/// for `memory_size + 2` steps, so that the state carries over and wraps.
#[derive(Clone, Debug)]
struct Svdf {
    batches: usize,
    input_size: usize,
    units: usize,
    rank: usize,
    memory_size: usize,
    zps: (i32, i32, i32),
    seed: u64,
}

/// The layer and its data, drawn from the case's seed.
struct Layer {
    p: SvdfParams,
    wf: Vec<i8>,
    wt: Vec<i8>,
    bias: Vec<i32>,
    state: Vec<i8>,
    inputs: Vec<Vec<i8>>,
}

impl Svdf {
    fn layer(&self) -> Layer {
        let mut rng = Rng(self.seed);
        let (feature_multiplier, feature_shift) = rng.multiplier(-12, 0);
        let (output_multiplier, output_shift) = rng.multiplier(-10, 1);
        let p = SvdfParams {
            batches: self.batches,
            input_size: self.input_size,
            num_filters: self.units * self.rank,
            num_units: self.units,
            rank: self.rank,
            memory_size: self.memory_size,
            input_zero_point: self.zps.0,
            state_zero_point: self.zps.1,
            output_zero_point: self.zps.2,
            feature_multiplier,
            feature_shift,
            output_multiplier,
            output_shift,
        };
        let nf = p.num_filters;
        let wf = rng.i8s(nf * self.input_size);
        let wt = rng.i8s(nf * self.memory_size);
        let bias = rng.i32s(self.units, -(1 << 16), 1 << 16);
        // A random starting state (the model's reset value is one particular state).
        let state = rng.i8s(self.batches * nf * self.memory_size);
        let inputs = (0..self.memory_size + 2).map(|_| rng.i8s(self.batches * self.input_size)).collect();
        Layer { p, wf, wt, bias, state, inputs }
    }
}

impl KernelCase for Svdf {
    type Kernel = Kernel;
    /// Every step's output and the state after it.
    type Output = Vec<(Vec<i8>, Vec<i8>)>;
    const REFERENCE: Kernel = crate::kernels::svdf::scalar::svdf_s8;

    fn strategy() -> BoxedStrategy<Self> {
        (1usize..3, 1usize..20, 1usize..6, 1usize..4, 1usize..6, (zero_point(), zero_point(), zero_point()), any::<u64>())
            .prop_map(|(batches, input_size, units, rank, memory_size, zps, seed)| Svdf {
                batches,
                input_size,
                units,
                rank,
                memory_size,
                zps,
                seed,
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let c = |batches, input_size, units, rank, memory_size, zps, seed| Svdf { batches, input_size, units, rank, memory_size, zps, seed };
        let mut v = Vec::new();
        // Memory of one and extreme zero points.
        for (i, zps) in [(-128, 127, -128), (127, -128, 127), (0, 0, 0)].into_iter().enumerate() {
            v.push(c(2, 7, 3, 2, 1, zps, i as u64));
        }
        // Large weights and inputs against a zero point of the other sign: the feature sum
        // saturates int8 and `zero_point + value` wraps in the store.
        v.push(c(1, 64, 4, 2, 8, (-128, 100, -128), 7));
        v.push(c(1, 64, 4, 2, 8, (127, -100, 127), 8));
        // Lane tails of the input dot product and of the memory.
        for n in LANE_TAILS {
            v.push(c(1, n, 2, 1, 3, (-128, 0, 5), n as u64));
            v.push(c(1, 4, 1, 2, n, (3, -128, 127), n as u64));
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Self::Output, String> {
        let Layer { p, wf, wt, bias, mut state, inputs } = self.layer();
        let mut steps = Vec::new();
        for input in &inputs {
            let mut out = vec![0x55u8 as i8; self.batches * self.units];
            kernel(&p, input, &wf, &wt, &bias, &mut state, &mut out);
            steps.push((out, state.clone()));
        }
        Ok(steps)
    }

    fn check(&self, steps: &Self::Output) -> Result<(), String> {
        let Layer { p, wf, wt, bias, state, inputs } = self.layer();
        let (nf, m) = (p.num_filters, self.memory_size);
        let mut rows: Vec<Vec<Vec<i8>>> =
            (0..self.batches).map(|b| (0..nf).map(|f| state[(b * nf + f) * m..][..m].to_vec()).collect()).collect();
        for (k, (input, (got, got_state))) in inputs.iter().zip(steps).enumerate() {
            let want = naive(&p, input, &wf, &wt, &bias, &mut rows);
            if *got != want {
                return Err(format!("step {k}: output {got:?}, naive {want:?}"));
            }
            let flat: Vec<i8> = rows.iter().flatten().flatten().copied().collect();
            if *got_state != flat {
                return Err(format!("step {k}: state {got_state:?}, naive {flat:?}"));
            }
        }
        Ok(())
    }
}

kernel_tests!(impl_scalar, Svdf, crate::kernels::svdf::scalar::svdf_s8);
kernel_tests!(impl_dispatch, if true, Svdf, crate::kernels::svdf::svdf_s8);

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
