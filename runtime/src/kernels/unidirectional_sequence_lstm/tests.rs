//! Integer LSTM tests: a naive implementation that follows TFLite Micro's structure
//! (`LstmStep`: each gate computed for the whole step into its own buffer, two fully
//! connected layers with explicit zero-point offsets and unfolded biases, time-major steps
//! taking all batch rows at once), run over several calls so that the state carry-over is
//! checked; the int16 sigmoid/tanh against the real functions; and cases worked by hand.
//! Bit-exactness with TFLite Micro on real layers is checked by `op_conformance` and the e2e
//! suite.

use super::{
    cell_tanh_scaling, lut_input_scaling, sigmoid_s16, tanh_s16, LstmGateParams, LstmParams, LstmWeights,
    SIGMOID_TABLE_U16,
};
use crate::kernels::test_util::{check_output, kernel_tests, zero_point, KernelCase, Rng, LANE_TAILS};
use crate::prepare::{fold_input_offset, quantize_multiplier};
use crate::quant::multiply_by_quantized_multiplier;
use proptest::prelude::*;
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

type Kernel = fn(&LstmParams, &[i8], &LstmWeights<'_>, &mut [i8], &mut [i16], &mut [i8]);

fn sat16(v: i64) -> i16 {
    v.clamp(-32768, 32767) as i16
}

/// TFLite `reference_integer_ops::FullyConnected` into int16, as written there: offsets
/// added to every input, optional bias after the sum.
fn naive_fc(x: &[i8], rows: usize, units: usize, w: &[i8], bias: Option<&[i32]>, input_offset: i32, (m, s): (i32, i32)) -> Vec<i16> {
    let n = x.len() / rows;
    let mut out = Vec::new();
    for r in 0..rows {
        for u in 0..units {
            let mut acc: i64 = 0;
            for d in 0..n {
                acc += w[u * n + d] as i64 * (x[r * n + d] as i64 + input_offset as i64);
            }
            if let Some(b) = bias {
                acc += b[u] as i64;
            }
            let acc = i32::try_from(acc).expect("test sums stay in i32");
            out.push(sat16(multiply_by_quantized_multiplier(acc, m, s) as i64));
        }
    }
    out
}

/// A layer: parameters, raw weights and biases, zero points; and the runs' inputs.
#[derive(Clone, Debug)]
struct Layer {
    p: LstmParams,
    input_zero_point: i32,
    w_in: [Vec<i8>; 4],
    w_rec: [Vec<i8>; 4],
    bias: [Vec<i32>; 4],
    hidden: Vec<i8>,
    cell: Vec<i16>,
    runs: Vec<Vec<i8>>,
}

impl Layer {
    fn weights(&self) -> (Vec<i32>, [&[i8]; 4], [&[i8]; 4]) {
        let (n, units) = (self.p.input_size, self.p.units);
        let mut folded = Vec::new();
        for g in 0..4 {
            for u in 0..units {
                let row = &self.w_in[g][u * n..(u + 1) * n];
                folded.push(fold_input_offset(row.iter().copied(), self.bias[g][u], -self.input_zero_point));
            }
            for u in 0..units {
                let row = &self.w_rec[g][u * units..(u + 1) * units];
                folded.push(fold_input_offset(row.iter().copied(), 0, -self.p.hidden_zero_point));
            }
        }
        let w_in = [0, 1, 2, 3].map(|g| self.w_in[g].as_slice());
        let w_rec = [0, 1, 2, 3].map(|g| self.w_rec[g].as_slice());
        (folded, w_in, w_rec)
    }

    /// TFLite Micro's `EvalLstm` over one run, on `hidden` and `cell`.
    fn naive_run(&self, input: &[i8], hidden: &mut [i8], cell: &mut [i16]) -> Vec<i8> {
        let p = &self.p;
        let units = p.units;
        let mut out = vec![0i8; p.batches * p.time_steps * units];
        // (rows per step, input/output offsets and state offset of each step).
        let mut steps = Vec::new();
        if p.time_major {
            for t in 0..p.time_steps {
                steps.push((p.batches, t * p.batches, 0));
            }
        } else {
            for b in 0..p.batches {
                for t in 0..p.time_steps {
                    steps.push((1, b * p.time_steps + t, b));
                }
            }
        }
        for (rows, row0, state_row) in steps {
            let x = &input[row0 * p.input_size..(row0 + rows) * p.input_size];
            let h = &mut hidden[state_row * units..(state_row + rows) * units];
            let c = &mut cell[state_row * units..(state_row + rows) * units];
            let gate = |g: usize, h: &[i8]| -> Vec<i16> {
                let gp = &p.gates[g];
                let a = naive_fc(x, rows, units, &self.w_in[g], Some(&self.bias[g]), -self.input_zero_point, (gp.input_multiplier, gp.input_shift));
                let b = naive_fc(h, rows, units, &self.w_rec[g], None, -p.hidden_zero_point, (gp.recurrent_multiplier, gp.recurrent_shift));
                a.iter().zip(&b).map(|(&a, &b)| sat16(a as i64 + b as i64)).collect()
            };
            let sig = |v: Vec<i16>| -> Vec<i16> { v.into_iter().map(|x| sigmoid_s16(x, 3, 0)).collect() };
            let f = sig(gate(1, h));
            let i = sig(gate(0, h));
            let g: Vec<i16> = gate(2, h).into_iter().map(|x| tanh_s16(x, 3, 0)).collect();
            let mul16 = |a: i16, b: i16, m: i32, s: i32| sat16(multiply_by_quantized_multiplier(a as i32 * b as i32, m, s) as i64);
            for k in 0..c.len() {
                let fc = mul16(f[k], c[k], p.forget_multiplier, p.forget_shift);
                let ig = mul16(i[k], g[k], p.input_multiplier, p.input_shift);
                c[k] = sat16(fc as i64 + ig as i64);
                if let Some(clip) = p.cell_clip {
                    c[k] = c[k].clamp(-clip, clip);
                }
            }
            let o = sig(gate(3, h));
            for k in 0..c.len() {
                let t = tanh_s16(c[k], p.cell_tanh_multiplier, p.cell_tanh_shift);
                let v = p.hidden_zero_point as i64
                    + multiply_by_quantized_multiplier(t as i32 * o[k] as i32, p.hidden_multiplier, p.hidden_shift) as i64;
                h[k] = v.clamp(-128, 127) as i8;
            }
            out[row0 * units..(row0 + rows) * units].copy_from_slice(h);
        }
        out
    }
}

/// A random layer run three times (each run continues from the last one's state).
#[derive(Clone, Debug)]
struct Lstm {
    batches: usize,
    time_steps: usize,
    input_size: usize,
    units: usize,
    time_major: bool,
    /// `Some(c)`: clip the cell at `c` (int16 units).
    cell_clip: Option<i16>,
    /// The cell state's scale is `2^-cell_power`.
    cell_power: i32,
    zps: (i32, i32),
    seed: u64,
}

impl Lstm {
    fn layer(&self) -> Layer {
        let mut rng = Rng(self.seed);
        let gates = [0; 4].map(|_| {
            let (input_multiplier, input_shift) = rng.multiplier(-2, 6);
            let (recurrent_multiplier, recurrent_shift) = rng.multiplier(-2, 6);
            LstmGateParams { input_multiplier, input_shift, recurrent_multiplier, recurrent_shift }
        });
        // The inter-gate multipliers as TFLite Micro derives them from the cell scale
        // 2^-cell_power and a random hidden scale.
        let cell_scale = (-self.cell_power as f64).exp2();
        let hidden_scale = (rng.range(1, 1000) as f64) / 64000.0;
        let (forget_multiplier, forget_shift) = quantize_multiplier(2f64.powi(-15) * cell_scale / cell_scale).unwrap();
        let (input_multiplier, input_shift) = quantize_multiplier(2f64.powi(-30) / cell_scale).unwrap();
        let (hidden_multiplier, hidden_shift) = quantize_multiplier(2f64.powi(-30) / hidden_scale).unwrap();
        let (cell_tanh_multiplier, cell_tanh_shift) = cell_tanh_scaling(-self.cell_power).unwrap();
        let p = LstmParams {
            batches: self.batches,
            time_steps: self.time_steps,
            input_size: self.input_size,
            units: self.units,
            time_major: self.time_major,
            gates,
            forget_multiplier,
            forget_shift,
            input_multiplier,
            input_shift,
            hidden_multiplier,
            hidden_shift,
            hidden_zero_point: self.zps.1,
            cell_clip: self.cell_clip,
            cell_tanh_multiplier,
            cell_tanh_shift,
        };
        let (n, u) = (self.input_size, self.units);
        let w_in = [0; 4].map(|_| rng.i8s(u * n));
        let w_rec = [0; 4].map(|_| rng.i8s(u * u));
        let bias = [0; 4].map(|_| rng.i32s(u, -(1 << 14), 1 << 14));
        let hidden = rng.i8s(self.batches * u);
        let cell = (0..self.batches * u).map(|_| rng.range(-32768, 32767) as i16).collect();
        let runs = (0..3).map(|_| rng.i8s(self.batches * self.time_steps * n)).collect();
        Layer { p, input_zero_point: self.zps.0, w_in, w_rec, bias, hidden, cell, runs }
    }
}

impl KernelCase for Lstm {
    type Kernel = Kernel;
    /// Per run: the output, the hidden state and the cell state after it.
    type Output = Vec<(Vec<i8>, Vec<i8>, Vec<i16>)>;
    const REFERENCE: Kernel = crate::kernels::unidirectional_sequence_lstm::scalar::unidirectional_sequence_lstm_s8;

    fn strategy() -> BoxedStrategy<Self> {
        (
            (1usize..4, 1usize..5, 1usize..24, 1usize..12),
            (any::<bool>(), prop::option::of(0i16..=32767), 9i32..16),
            (zero_point(), zero_point(), any::<u64>()),
        )
            .prop_map(|((batches, time_steps, input_size, units), (time_major, cell_clip, cell_power), (zi, zh, seed))| Lstm {
                batches,
                time_steps,
                input_size,
                units,
                time_major,
                cell_clip,
                cell_power,
                zps: (zi, zh),
                seed,
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let c = |batches, time_steps, input_size, units, time_major, cell_clip, cell_power, zps, seed| Lstm {
            batches,
            time_steps,
            input_size,
            units,
            time_major,
            cell_clip,
            cell_power,
            zps,
            seed,
        };
        let mut v = Vec::new();
        // Extreme zero points, both layouts, clip at 0 and at the int16 maximum.
        for (i, zps) in [(-128, 127), (127, -128), (0, 0)].into_iter().enumerate() {
            v.push(c(3, 4, 5, 6, false, None, 11, zps, i as u64));
            v.push(c(3, 4, 5, 6, true, Some(0), 15, zps, 10 + i as u64));
            v.push(c(2, 2, 7, 3, true, Some(32767), 9, zps, 20 + i as u64));
        }
        // Large inputs and units: every FC saturates int16 at these multipliers.
        v.push(c(1, 3, 64, 16, false, Some(3000), 12, (-128, 127), 30));
        // Lane tails of the input and of the recurrent dot product.
        for n in LANE_TAILS {
            v.push(c(1, 2, n, 3, false, None, 12, (5, -7), n as u64));
            v.push(c(2, 1, 4, n, true, None, 11, (-3, 9), 100 + n as u64));
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Self::Output, String> {
        let layer = self.layer();
        let (bias, input, recurrent) = layer.weights();
        let w = LstmWeights { input, recurrent, bias: &bias };
        let (mut hidden, mut cell) = (layer.hidden.clone(), layer.cell.clone());
        let mut runs = Vec::new();
        for x in &layer.runs {
            let mut out = vec![0x55u8 as i8; self.batches * self.time_steps * self.units];
            kernel(&layer.p, x, &w, &mut hidden, &mut cell, &mut out);
            runs.push((out, hidden.clone(), cell.clone()));
        }
        Ok(runs)
    }

    fn check(&self, runs: &Self::Output) -> Result<(), String> {
        let layer = self.layer();
        let (mut hidden, mut cell) = (layer.hidden.clone(), layer.cell.clone());
        for (k, (x, (out, h, c))) in layer.runs.iter().zip(runs).enumerate() {
            let want = layer.naive_run(x, &mut hidden, &mut cell);
            check_output(out, &want, None).map_err(|e| format!("run {k}: output {e}"))?;
            check_output(h, &hidden, None).map_err(|e| format!("run {k}: hidden state {e}"))?;
            check_output(c, &cell, None).map_err(|e| format!("run {k}: cell state {e}"))?;
        }
        Ok(())
    }
}

kernel_tests!(impl_scalar, Lstm, crate::kernels::unidirectional_sequence_lstm::scalar::unidirectional_sequence_lstm_s8);
kernel_tests!(impl_dispatch, if true, Lstm, crate::kernels::unidirectional_sequence_lstm::unidirectional_sequence_lstm_s8);

/// The table is sigmoid(i / 24) in 0.16 (within 1.5 units of the real value, the last
/// entry saturated to 65535) and increasing.
#[test]
fn sigmoid_table_is_sigmoid() {
    for (i, &v) in SIGMOID_TABLE_U16.iter().enumerate() {
        let real = 65536.0 / (1.0 + (-(i as f64) / 24.0).exp());
        assert!((v as f64 - real.min(65535.0)).abs() <= 1.5, "entry {i}: {v} vs {real}");
    }
    assert!(SIGMOID_TABLE_U16.windows(2).all(|w| w[0] <= w[1]));
}

/// Over every int16 input at the gate scale 2^-12: the LUT sigmoid and tanh are within a
/// few Q0.15 units of the real functions, and odd / complementary as the reference is.
#[test]
fn sigmoid_and_tanh_follow_the_real_functions() {
    for x in i16::MIN..=i16::MAX {
        let r = x as f64 / 4096.0;
        let s = sigmoid_s16(x, 3, 0) as f64 / 32768.0;
        let t = tanh_s16(x, 3, 0) as f64 / 32768.0;
        assert!((s - 1.0 / (1.0 + (-r).exp())).abs() < 2e-4, "sigmoid({r}) = {s}");
        assert!((t - r.tanh()).abs() < 4e-4, "tanh({r}) = {t}");
    }
    // The cell state at scale 2^-11 is twice the gate scale: multiplier 3 << 1; at 2^-15 an
    // eighth of it: multiplier 3 and a rounding right shift by 3.
    assert_eq!(cell_tanh_scaling(-11), Some((6, 0)));
    assert_eq!(cell_tanh_scaling(-12), Some((3, 0)));
    assert_eq!(cell_tanh_scaling(-10), Some((12, 0)));
    assert_eq!(cell_tanh_scaling(-15), Some((3, 3)));
    assert_eq!(cell_tanh_scaling(3), None);
    assert_eq!(lut_input_scaling(0, 16), None);
    assert_eq!(lut_input_scaling(3, 40), None);
    for x in [-32768i16, -20000, -1, 0, 1, 20000, 32767] {
        let m = cell_tanh_scaling(-11).unwrap();
        let t = tanh_s16(x, m.0, m.1) as f64 / 32768.0;
        assert!((t - (x as f64 / 2048.0).tanh()).abs() < 4e-4, "tanh at 2^-11 of {x}: {t}");
    }
}

/// Values worked by hand from the reference's integer steps.
#[test]
fn lut_by_hand() {
    // sigmoid(0): v = 0, table[0] << 9 = 32768 << 9; + 512 >> 10 = 16384 (0.5).
    assert_eq!(sigmoid_s16(0, 3, 0), 16384);
    // tanh(0): (32768 << 8) - 2^23 + 128 >> 8 = 0.
    assert_eq!(tanh_s16(0, 3, 0), 0);
    // x = 512 (0.125): v = 1536, uh = 3, ut = 0: (34813 << 9) + 512 >> 10 = 17407.
    assert_eq!(sigmoid_s16(512, 3, 0), 17407);
    // x = -512: (2^25 - (34813 << 9) + 511) >> 10 = 15361 (32768 - 17407).
    assert_eq!(sigmoid_s16(-512, 3, 0), 15361);
    // tanh, x = 512: v = 1536, uh = 6, ut = 0: (36843 << 8) - 2^23 + 128 >> 8 = 4075.
    assert_eq!(tanh_s16(512, 3, 0), 4075);
    // x = -512: -(36843 << 8) + 2^23 + 127 >> 8 = floor(-4074.5) = -4075.
    assert_eq!(tanh_s16(-512, 3, 0), -4075);
    // Saturation: |v| >> 8 >= 255 gives 0xFFFF << 8.
    assert_eq!(tanh_s16(i16::MAX, 6, 0), 32767);
    assert_eq!(tanh_s16(i16::MIN, 6, 0), -32767);
}

/// One unit, one input, one step, worked by hand: all weights zero but the cell gate's
/// input weight, so that the gates are sigmoid(bias) and the cell gate tanh(w * x).
#[test]
fn one_unit_by_hand() {
    let one = quantize_multiplier(1.0).unwrap();
    let gate = LstmGateParams { input_multiplier: one.0, input_shift: one.1, recurrent_multiplier: one.0, recurrent_shift: one.1 };
    // Cell scale 2^-12 (tanh shift 0), hidden scale 2^-7 (hidden multiplier 2^-23).
    let fm = quantize_multiplier(2f64.powi(-15)).unwrap();
    let im = quantize_multiplier(2f64.powi(-30) / 2f64.powi(-12)).unwrap();
    let hm = quantize_multiplier(2f64.powi(-30) / 2f64.powi(-7)).unwrap();
    let p = LstmParams {
        batches: 1,
        time_steps: 1,
        input_size: 1,
        units: 1,
        time_major: false,
        gates: [gate; 4],
        forget_multiplier: fm.0,
        forget_shift: fm.1,
        input_multiplier: im.0,
        input_shift: im.1,
        hidden_multiplier: hm.0,
        hidden_shift: hm.1,
        hidden_zero_point: 0,
        cell_clip: None,
        cell_tanh_multiplier: 3,
        cell_tanh_shift: 0,
    };
    let (wi, wf, wc, wo) = ([0i8], [0i8], [64i8], [0i8]);
    let wr = [0i8];
    // Folded biases: input gate 0, forget gate 0, cell gate 0 (x's zero point 0), output 0.
    let bias = [0i32; 8];
    let w = LstmWeights { input: [&wi, &wf, &wc, &wo], recurrent: [&wr; 4], bias: &bias };
    let (mut h, mut c, mut out) = ([0i8], [4096i16], [0i8]);
    // x = 8: cell gate pre-activation 512 -> tanh 4075; i = f = o = sigmoid(0) = 16384.
    // f * c = 16384 * 4096 * 2^-15 = 2048; i * g = 16384 * 4075 * 2^-18 = 254.69 -> 255;
    // c = 2303; tanh(2303 at 2^-12): v = 6909, uh = 26, ut = 253:
    // (48964 << 8) + 253 * (49475 - 48964) = 12664067; - 2^23 + 128 >> 8 = 16701;
    // h = 16701 * 16384 * 2^-23 = 32.6 -> 33.
    super::unidirectional_sequence_lstm_s8(&p, &[8], &w, &mut h, &mut c, &mut out);
    assert_eq!((c, h, out), ([2303], [33], [33]));
}
