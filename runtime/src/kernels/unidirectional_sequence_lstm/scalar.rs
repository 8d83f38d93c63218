//! Scalar reference implementation of [`super::unidirectional_sequence_lstm_s8`].

use super::{sigmoid_s16, tanh_s16, LstmParams, LstmWeights, GATE_CELL, GATE_FORGET, GATE_INPUT, GATE_OUTPUT};
use crate::quant::multiply_by_quantized_multiplier;

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

/// One step of one batch row: updates `cell` in place and writes the new hidden state to
/// `out` (the caller copies it to the hidden state once every unit is done).
fn step(p: &LstmParams, w: &LstmWeights<'_>, x: &[i8], hidden: &[i8], cell: &mut [i16], out: &mut [i8]) {
    let (n, units) = (p.input_size, p.units);
    for u in 0..units {
        let gate = |g: usize| -> i16 {
            let gp = &p.gates[g];
            let a = fc_s16(
                &w.input[g][u * n..(u + 1) * n],
                x,
                w.bias[2 * g * units + u],
                gp.input_multiplier,
                gp.input_shift,
            );
            let b = fc_s16(
                &w.recurrent[g][u * units..(u + 1) * units],
                hidden,
                w.bias[(2 * g + 1) * units + u],
                gp.recurrent_multiplier,
                gp.recurrent_shift,
            );
            sat16(a as i32 + b as i32)
        };
        let f = sigmoid_s16(gate(GATE_FORGET), GATE_LUT_MULTIPLIER, GATE_LUT_SHIFT);
        let i = sigmoid_s16(gate(GATE_INPUT), GATE_LUT_MULTIPLIER, GATE_LUT_SHIFT);
        let g = tanh_s16(gate(GATE_CELL), GATE_LUT_MULTIPLIER, GATE_LUT_SHIFT);
        // Cell update: two int16 MulElementwise (offsets 0), a saturating add, the clip.
        let fc = sat16(multiply_by_quantized_multiplier(f as i32 * cell[u] as i32, p.forget_multiplier, p.forget_shift));
        let ig = sat16(multiply_by_quantized_multiplier(i as i32 * g as i32, p.input_multiplier, p.input_shift));
        let mut c = sat16(fc as i32 + ig as i32);
        if let Some(clip) = p.cell_clip {
            c = c.min(clip).max(clip.wrapping_neg());
        }
        cell[u] = c;
        // Hidden state: tanh of the cell at its own scale times the output gate, into int8.
        let o = sigmoid_s16(gate(GATE_OUTPUT), GATE_LUT_MULTIPLIER, GATE_LUT_SHIFT);
        let t = tanh_s16(c, p.cell_tanh_multiplier, p.cell_tanh_shift);
        let h = p.hidden_zero_point + multiply_by_quantized_multiplier(t as i32 * o as i32, p.hidden_multiplier, p.hidden_shift);
        out[u] = h.clamp(-128, 127) as i8;
    }
}

/// See [`super::unidirectional_sequence_lstm_s8`].
pub fn unidirectional_sequence_lstm_s8(
    p: &LstmParams,
    input: &[i8],
    weights: &LstmWeights<'_>,
    hidden: &mut [i8],
    cell: &mut [i16],
    output: &mut [i8],
) {
    let (n, units) = (p.input_size, p.units);
    for b in 0..p.batches {
        let h = &mut hidden[b * units..(b + 1) * units];
        let c = &mut cell[b * units..(b + 1) * units];
        for t in 0..p.time_steps {
            let row = if p.time_major { t * p.batches + b } else { b * p.time_steps + t };
            let x = &input[row * n..(row + 1) * n];
            let out = &mut output[row * units..(row + 1) * units];
            step(p, weights, x, h, c, out);
            h.copy_from_slice(out);
        }
    }
}
