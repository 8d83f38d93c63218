//! Scalar reference implementation of the LSTM: one loop nest ([`sequence`], `step`)
//! over batch rows, time steps and units, generic over the numerics ([`LstmNumerics`]:
//! int8 [`LstmParams`], float32 [`LstmF32Params`]).

use super::{
    sigmoid_s16, tanh_s16, LstmDims, LstmF32Params, LstmF32Weights, LstmNumerics, LstmParams, LstmS16Params, LstmS16Weights, LstmWeights,
    GATE_CELL, GATE_FORGET, GATE_INPUT, GATE_OUTPUT,
};
use crate::quant::{multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_i64};

/// The gates' nonlinearities take their int16 input at scale 2^-12: TFLite Micro calls
/// `Logistic(0, 0)` (multiplier `3 << 0`, no shift) and `Tanh(cell_state_scale_power = -12)`
/// (`15 - 12 - 3 = 0`: the same scaling).
const GATE_LUT_MULTIPLIER: i32 = 3;
const GATE_LUT_SHIFT: i32 = 0;

#[inline(always)]
fn sat16(v: i32) -> i16 {
    v.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

/// `sum(w * x) + folded_bias`, requantized to int16 (output offset 0, no activation).
#[inline(always)]
fn fc_s16(w: &[i8], x: &[i8], folded_bias: i32, multiplier: i32, shift: i32) -> i16 {
    let mut acc = folded_bias;
    for (&wv, &xv) in w.iter().zip(x) {
        acc = acc.wrapping_add(wv as i32 * xv as i32);
    }
    sat16(multiply_by_quantized_multiplier(acc, multiplier, shift))
}

/// One gate's pre-activation for unit `u` (both integer LSTMs): the input-side layer on
/// `x` with the gate's folded bias plus the recurrent layer on `hidden` with its folded
/// zero-point term, each through `fc` (requantized and saturated on its own), added with
/// int16 saturation. `bias` is [`LstmWeights::bias`]'s layout in the accumulator's type.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn integer_gate<X, B: Copy>(
    p: &LstmParams,
    input: &[&[i8]; 4],
    recurrent: &[&[i8]; 4],
    bias: &[B],
    (g, u): (usize, usize),
    x: &[X],
    hidden: &[X],
    fc: impl Fn(&[i8], &[X], B, i32, i32) -> i16,
) -> i16 {
    let (n, units) = (p.input_size, p.units);
    let gp = &p.gates[g];
    let a = fc(&input[g][u * n..(u + 1) * n], x, bias[2 * g * units + u], gp.input_multiplier, gp.input_shift);
    let b = fc(&recurrent[g][u * units..(u + 1) * units], hidden, bias[(2 * g + 1) * units + u], gp.recurrent_multiplier, gp.recurrent_shift);
    sat16(a as i32 + b as i32)
}

/// The new hidden state before its clamp (both integer LSTMs): tanh of the cell at its own
/// scale times the output gate, requantized, plus the hidden zero point.
#[inline(always)]
fn integer_hidden(p: &LstmParams, c: i16, o: i16) -> i32 {
    let t = tanh_s16(c, p.cell_tanh_multiplier, p.cell_tanh_shift);
    p.hidden_zero_point + multiply_by_quantized_multiplier(t as i32 * o as i32, p.hidden_multiplier, p.hidden_shift)
}

impl LstmNumerics for LstmParams {
    type Act = i8;
    type Cell = i16;
    type Weights<'a> = LstmWeights<'a>;

    fn dims(&self) -> LstmDims {
        LstmDims { batches: self.batches, time_steps: self.time_steps, input_size: self.input_size, units: self.units, time_major: self.time_major }
    }

    /// The two int16 fully connected layers, each requantized and saturated on its own,
    /// added with int16 saturation.
    #[inline(always)]
    fn gate(&self, w: &LstmWeights<'_>, g: usize, u: usize, x: &[i8], hidden: &[i8]) -> i16 {
        integer_gate(self, &w.input, &w.recurrent, w.bias, (g, u), x, hidden, fc_s16)
    }

    #[inline(always)]
    fn sigmoid(&self, v: i16) -> i16 {
        sigmoid_s16(v, GATE_LUT_MULTIPLIER, GATE_LUT_SHIFT)
    }

    #[inline(always)]
    fn tanh(&self, v: i16) -> i16 {
        tanh_s16(v, GATE_LUT_MULTIPLIER, GATE_LUT_SHIFT)
    }

    /// Two int16 MulElementwise (offsets 0), a saturating add, the clip.
    #[inline(always)]
    fn update_cell(&self, f: i16, c: i16, i: i16, g: i16) -> i16 {
        let fc = sat16(multiply_by_quantized_multiplier(f as i32 * c as i32, self.forget_multiplier, self.forget_shift));
        let ig = sat16(multiply_by_quantized_multiplier(i as i32 * g as i32, self.input_multiplier, self.input_shift));
        let mut c = sat16(fc as i32 + ig as i32);
        if let Some(clip) = self.cell_clip {
            c = c.min(clip).max(clip.wrapping_neg());
        }
        c
    }

    /// tanh of the cell at its own scale times the output gate, into int8.
    #[inline(always)]
    fn hidden(&self, c: i16, o: i16) -> i8 {
        integer_hidden(self, c, o).clamp(-128, 127) as i8
    }
}

/// The 16x8 gate layer: `sum(w * x) + folded_bias` in int64, requantized with the 64-bit
/// `MultiplyByQuantizedMultiplier` and saturated to int16.
#[inline(always)]
fn fc_s16_wide(w: &[i8], x: &[i16], folded_bias: i64, multiplier: i32, shift: i32) -> i16 {
    let mut acc = folded_bias;
    for (&wv, &xv) in w.iter().zip(x) {
        acc += wv as i64 * xv as i64;
    }
    sat16(multiply_by_quantized_multiplier_i64(acc, multiplier, shift))
}

impl LstmNumerics for LstmS16Params {
    type Act = i16;
    type Cell = i16;
    type Weights<'a> = LstmS16Weights<'a>;

    fn dims(&self) -> LstmDims {
        self.int.dims()
    }

    /// The two int16 fully connected layers (int64 accumulators), each requantized and
    /// saturated on its own, added with int16 saturation.
    #[inline(always)]
    fn gate(&self, w: &LstmS16Weights<'_>, g: usize, u: usize, x: &[i16], hidden: &[i16]) -> i16 {
        integer_gate(&self.int, &w.input, &w.recurrent, w.bias, (g, u), x, hidden, fc_s16_wide)
    }

    #[inline(always)]
    fn sigmoid(&self, v: i16) -> i16 {
        self.int.sigmoid(v)
    }

    #[inline(always)]
    fn tanh(&self, v: i16) -> i16 {
        self.int.tanh(v)
    }

    #[inline(always)]
    fn update_cell(&self, f: i16, c: i16, i: i16, g: i16) -> i16 {
        self.int.update_cell(f, c, i, g)
    }

    /// tanh of the cell at its own scale times the output gate, into int16.
    #[inline(always)]
    fn hidden(&self, c: i16, o: i16) -> i16 {
        sat16(integer_hidden(&self.int, c, o))
    }
}

/// `ActivationFunctionWithMinMax(x, lowest, max)`, the clamp of TFLite Micro's float LSTM
/// fully connected layers and products (`CalculateActivationRange(kTfLiteActNone)`):
/// `std::min(std::max(x, -FLT_MAX), FLT_MAX)`, so infinities become `±FLT_MAX` and NaN stays.
#[inline(always)]
fn clamp_none(x: f32) -> f32 {
    let m = if x < f32::MIN { f32::MIN } else { x };
    if f32::MAX < m {
        f32::MAX
    } else {
        m
    }
}

/// `reference_ops::FullyConnected<float>` for one unit: `total` from 0 in input order, then
/// `total + bias` (0.0 without one), clamped.
#[inline(always)]
fn fc_f32(w: &[f32], x: &[f32], bias: f32) -> f32 {
    let mut total = 0.0f32;
    for (&wv, &xv) in w.iter().zip(x) {
        total += xv * wv;
    }
    clamp_none(total + bias)
}

impl LstmNumerics for LstmF32Params {
    type Act = f32;
    type Cell = f32;
    type Weights<'a> = LstmF32Weights<'a>;

    fn dims(&self) -> LstmDims {
        LstmDims { batches: self.batches, time_steps: self.time_steps, input_size: self.input_size, units: self.units, time_major: self.time_major }
    }

    /// Input FC with the gate's bias plus recurrent FC without one (`AddElementWise`).
    #[inline(always)]
    fn gate(&self, w: &LstmF32Weights<'_>, g: usize, u: usize, x: &[f32], hidden: &[f32]) -> f32 {
        let (n, units) = (self.input_size, self.units);
        let a = fc_f32(&w.input[g][u * n..(u + 1) * n], x, w.bias[g][u]);
        let b = fc_f32(&w.recurrent[g][u * units..(u + 1) * units], hidden, 0.0);
        a + b
    }

    /// `reference_ops::Logistic<float>`.
    #[inline(always)]
    fn sigmoid(&self, v: f32) -> f32 {
        crate::kernels::logistic::scalar::logistic_one_f32(v)
    }

    /// `reference_ops::Tanh` (`std::tanh`).
    #[inline(always)]
    fn tanh(&self, v: f32) -> f32 {
        crate::math::tanhf(v)
    }

    /// `Mul(forget, cell)`, `Mul(input, cell gate)` (each clamped), their sum, and
    /// `Clipping` when `cell_clip > 0`: `std::max(std::min(clip, c), -clip)`.
    #[inline(always)]
    fn update_cell(&self, f: f32, c: f32, i: f32, g: f32) -> f32 {
        let c = clamp_none(f * c) + clamp_none(i * g);
        if self.cell_clip > 0.0 {
            let clip = self.cell_clip;
            let m = if c < clip { c } else { clip };
            if m < -clip {
                -clip
            } else {
                m
            }
        } else {
            c
        }
    }

    /// `Mul(tanh(cell), output gate)`, clamped.
    #[inline(always)]
    fn hidden(&self, c: f32, o: f32) -> f32 {
        clamp_none(crate::math::tanhf(c) * o)
    }
}

/// One step of one batch row, in TFLite Micro's `LstmStep` order per unit (forget, input
/// and cell gates, the cell update, the output gate, the hidden state): updates `cell` in
/// place and writes the new hidden state to `out` (the caller copies it to the hidden
/// state once every unit is done: every gate reads the previous one).
#[inline(always)]
fn step<N: LstmNumerics>(p: &N, w: &N::Weights<'_>, x: &[N::Act], hidden: &[N::Act], cell: &mut [N::Cell], out: &mut [N::Act]) {
    for u in 0..p.dims().units {
        let f = p.sigmoid(p.gate(w, GATE_FORGET, u, x, hidden));
        let i = p.sigmoid(p.gate(w, GATE_INPUT, u, x, hidden));
        let g = p.tanh(p.gate(w, GATE_CELL, u, x, hidden));
        let c = p.update_cell(f, cell[u], i, g);
        cell[u] = c;
        let o = p.sigmoid(p.gate(w, GATE_OUTPUT, u, x, hidden));
        out[u] = p.hidden(c, o);
    }
}

/// The whole sequence: each batch row through its time steps (batch-major or time-major
/// rows of `input` and `output`).
pub fn sequence<N: LstmNumerics>(p: &N, input: &[N::Act], weights: &N::Weights<'_>, hidden: &mut [N::Act], cell: &mut [N::Cell], output: &mut [N::Act]) {
    let d = p.dims();
    let (n, units) = (d.input_size, d.units);
    for b in 0..d.batches {
        let h = &mut hidden[b * units..(b + 1) * units];
        let c = &mut cell[b * units..(b + 1) * units];
        for t in 0..d.time_steps {
            let row = if d.time_major { t * d.batches + b } else { b * d.time_steps + t };
            let x = &input[row * n..(row + 1) * n];
            let out = &mut output[row * units..(row + 1) * units];
            step(p, weights, x, h, c, out);
            h.copy_from_slice(out);
        }
    }
}

/// See [`super::unidirectional_sequence_lstm_s8`].
pub fn unidirectional_sequence_lstm_s8(p: &LstmParams, input: &[i8], weights: &LstmWeights<'_>, hidden: &mut [i8], cell: &mut [i16], output: &mut [i8]) {
    sequence(p, input, weights, hidden, cell, output)
}

/// See [`super::unidirectional_sequence_lstm_f32`].
pub fn unidirectional_sequence_lstm_f32(p: &LstmF32Params, input: &[f32], weights: &LstmF32Weights<'_>, hidden: &mut [f32], cell: &mut [f32], output: &mut [f32]) {
    sequence(p, input, weights, hidden, cell, output)
}
