//! UNIDIRECTIONAL_SEQUENCE_LSTM, int8 activations and weights, int32 biases, int16 cell
//! state: TFLite Micro's integer LSTM (`EvalLstm<int8_t, int8_t, int16_t, int32_t>`); its
//! 16x8 form, int16 activations with int8 weights and int64 biases (`EvalLstm<int16_t,
//! int8_t, int16_t, int64_t>`: the same parameters, int64 gate accumulators and TFLite's
//! 64-bit requantization, an int16 hidden state); and float32 throughout (`EvalLstm<float,
//! float, float, float>`). One lowering: the checks
//! below are shared, the numerics differ only in the parameters ([`LstmScheme`]) and the
//! runtime's [`tflc_runtime::kernels::unidirectional_sequence_lstm::LstmNumerics`].
//!
//! Mirrors TFLite Micro `unidirectional_sequence_lstm.cc` (`UnidirectionalSequenceLstmPrepare`),
//! `lstm_eval.cc` (`LstmTensors::ValidateTensorStatus`) and `lstm_eval_common.cc`
//! (`ValidateTensorSize`, `PrepareGateParametersInteger`, `CreateLstmCellStateInfo`):
//!
//! - 24 inputs, one output. The eight gate weight matrices (input, forget, cell, output;
//!   input side `[units, input_size]`, recurrent side `[units, units]`) and the four gate
//!   biases `[units]` must all be present (no CIFG), of one weight type and one bias type;
//!   the peephole (9..=11), projection (16, 17) and layer-norm (20..=23) inputs must be absent:
//!   TFLite Micro's kernel refuses every other variant, and so does tflc.
//! - The output state (18, the hidden state) and the cell state (19) are variable tensors;
//!   the hidden state and the output have the input's type; the cell state is int16, or
//!   float32 with float32 input, weights and biases (TFLite Micro's float path; float
//!   activations with int8 weights, a hybrid model TFLite Micro would read as floats, are
//!   refused with how to convert the model).
//! - float32 needs no parameters beyond the shapes and the cell clip (`cell_clip > 0`
//!   clips, as `CreateLstmCellStateInfoFloat`); the weights and biases are the model's.
//! - Each gate's two fully connected layers go into int16 at the fixed scale 2^-12, their
//!   multipliers `QuantizeMultiplier(double(float(s_in * s_w)) / 2^-12)`
//!   (`CalculateOpDataFullyConnected` without a bias, so the bias scale is never checked);
//!   the inter-gate products `QuantizeMultiplier(double(a) * double(b) / double(out))` with
//!   the nonlinearity output scale 2^-15; the cell state's power of two is `CheckedLog2`'s
//!   rounded `log(scale) / log(2)` in float (not required to be exact, as in TFLite Micro);
//!   the clip `int16(clamp(double(cell_clip) / double(cell_scale)))` when `cell_clip > 0`.
//! - The cell gate's nonlinearity is the op's fused activation, which must be TANH (TFLite
//!   Micro asserts on anything but TANH and SIGMOID, and TFLite's schema has no SIGMOID).
//!
//! What tflc adds to TFLite Micro's checks, where TFLite Micro only asserts in debug builds
//! or reads past what it validated: weights must be per-tensor with zero point 0 (TFLite
//! Micro's LSTM uses only the per-tensor multiplier, and DCHECKs the zero point), the input
//! and output rank 3, the hidden state rank 2 (TFLite Micro reads its `dims[1]`), and the
//! tanh input scaling of the cell state must not overflow int32 (a cell scale above 2^2).
//! The cell state's zero point is ignored, as TFLite Micro ignores it (the converter always
//! writes 0). The op's `intermediates` (the converter's gate scales for TFLite's kernel) are
//! not used by TFLite Micro, nor here.
//!
//! The states are read and written in place: the kernel gets them as outputs of the op, and
//! the generated `Model::new()` fills them with their reset value
//! ([`crate::ir::Tensor::reset_byte`]), as TFLite Micro resets variable tensors.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{Activation, DType, SequenceLstmOptions, Tensor, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::unidirectional_sequence_lstm::{
    cell_tanh_scaling, unidirectional_sequence_lstm_f32, unidirectional_sequence_lstm_s16, unidirectional_sequence_lstm_s8, LstmF32Params,
    LstmF32Weights, LstmGateParams, LstmParams, LstmS16Params, LstmS16Weights, LstmWeights,
};
use tflc_runtime::prepare::{fold_input_offset, fully_connected_tensor_multiplier, quantize_multiplier};

crate::runtime_struct_lit!(kernels::unidirectional_sequence_lstm::LstmGateParams {
    input_multiplier,
    input_shift,
    recurrent_multiplier,
    recurrent_shift,
});

crate::runtime_struct_lit!(kernels::unidirectional_sequence_lstm::LstmParams {
    batches,
    time_steps,
    input_size,
    units,
    time_major,
    gates,
    forget_multiplier,
    forget_shift,
    input_multiplier,
    input_shift,
    hidden_multiplier,
    hidden_shift,
    hidden_zero_point,
    cell_clip,
    cell_tanh_multiplier,
    cell_tanh_shift,
});

crate::runtime_struct_lit!(kernels::unidirectional_sequence_lstm::LstmF32Params { batches, time_steps, input_size, units, time_major, cell_clip });

crate::runtime_struct_lit!(kernels::unidirectional_sequence_lstm::LstmS16Params { int });

/// The op's inputs (TFLite Micro `lstm_shared.h`).
const INPUT: usize = 0;
/// Input-side weights of the input, forget, cell and output gates.
const INPUT_WEIGHTS: [usize; 4] = [1, 2, 3, 4];
const RECURRENT_WEIGHTS: [usize; 4] = [5, 6, 7, 8];
const PEEPHOLE: [usize; 3] = [9, 10, 11];
const BIASES: [usize; 4] = [12, 13, 14, 15];
const PROJECTION: [usize; 2] = [16, 17];
const OUTPUT_STATE: usize = 18;
const CELL_STATE: usize = 19;
const LAYER_NORM: [usize; 4] = [20, 21, 22, 23];

/// The int16 scale of the gates' fully connected outputs (Q3.12), and of the
/// nonlinearities' outputs (Q0.15): TFLite Micro's `float` constants 0.000244140625 and
/// 0.000030517578125, exactly 2^-12 and 2^-15.
const GATE_SCALE: f32 = 1.0 / 4096.0;
const NONLINEAR_OUTPUT_SCALE: f32 = 1.0 / 32768.0;

#[derive(Debug, Clone)]
pub struct UnidirectionalSequenceLstm {
    pub input: TensorId,
    pub input_weights: [TensorId; 4],
    pub recurrent_weights: [TensorId; 4],
    pub hidden: TensorId,
    pub cell: TensorId,
    pub output: TensorId,
    pub scheme: LstmScheme,
}

/// What the numerics need besides the shared tensors.
// One value per LSTM op, held for the compile: the int8 variant's size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum LstmScheme {
    /// The integer LSTM.
    S8 {
        params: LstmParams,
        /// Constant data, decoded for `execute`.
        input_weights_data: [Vec<i8>; 4],
        recurrent_weights_data: [Vec<i8>; 4],
        /// The biases with both zero points folded in ([`LstmWeights::bias`]'s layout).
        folded_bias: Vec<i32>,
    },
    /// The 16x8 LSTM: the integer LSTM's parameters, int64 folded biases.
    S16 {
        params: LstmS16Params,
        input_weights_data: [Vec<i8>; 4],
        recurrent_weights_data: [Vec<i8>; 4],
        /// [`LstmS16Weights::bias`]'s layout.
        folded_bias: Vec<i64>,
    },
    /// float32: the model's weights and biases as they are.
    F32 { params: LstmF32Params, biases: [TensorId; 4] },
}

fn weights_i8(cx: &OpCx<'_, '_>, t: &Tensor<'_>, rows: usize, cols: usize) -> Result<Vec<i8>, LowerError> {
    if t.shape != [rows, cols] {
        return Err(cx.invalid_tensor(t, format!("weights of shape {:?}, expected [{rows}, {cols}]", t.shape)));
    }
    let q = cx.per_tensor_q(t)?;
    if q.zero_point != 0 {
        return Err(cx.unsupported_tensor(t, format!("weights with zero point {} (TFLite Micro requires symmetric weights)", q.zero_point)));
    }
    let d = cx.expect_constant(t)?;
    Ok(d.iter().map(|&b| b as i8).collect())
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &SequenceLstmOptions) -> Result<UnidirectionalSequenceLstm, LowerError> {
    cx.expect_arity(24..=24, 1)?;
    let input = cx.input(INPUT)?;
    let output = cx.output(0)?;
    let hidden = cx.input(OUTPUT_STATE)?;
    let cell = cx.input(CELL_STATE)?;

    // LstmTensors::ValidateTensorStatus.
    for (what, t) in [("output (hidden) state", hidden), ("cell state", cell)] {
        if !t.is_variable || t.is_constant() {
            return Err(cx.invalid_tensor(t, format!("the LSTM's {what} must be a variable tensor")));
        }
    }
    for (what, t) in [("output (hidden) state", hidden), ("output", output)] {
        if t.dtype != input.dtype {
            return Err(cx.invalid_tensor(t, format!("{what} of type {} for an input of type {}", t.dtype, input.dtype)));
        }
    }
    let all_weights = INPUT_WEIGHTS.iter().chain(&RECURRENT_WEIGHTS);
    let weight_type = cx.input(INPUT_WEIGHTS[1])?.dtype;
    for &i in all_weights {
        let w = cx.optional_input(i).ok_or_else(|| {
            cx.unsupported(format!(
                "an LSTM without input {i} (TFLite Micro's LSTM requires every gate weight: no CIFG)"
            ))
        })?;
        if w.dtype != weight_type {
            return Err(cx.invalid_tensor(w, format!("gate weights of types {} and {weight_type}", w.dtype)));
        }
    }
    let bias_type = cx.input(BIASES[1])?.dtype;
    for &i in &BIASES {
        let b = cx
            .optional_input(i)
            .ok_or_else(|| cx.unsupported(format!("an LSTM without gate bias {i} (TFLite Micro's LSTM requires all four)")))?;
        if b.dtype != bias_type {
            return Err(cx.invalid_tensor(b, format!("gate biases of types {} and {bias_type}", b.dtype)));
        }
    }
    for (what, ids) in [("peephole", &PEEPHOLE[..]), ("projection", &PROJECTION[..]), ("layer normalisation", &LAYER_NORM[..])] {
        if let Some(t) = ids.iter().find_map(|&i| cx.optional_input(i)) {
            return Err(cx.unsupported_tensor(t, format!("an LSTM with {what} (TFLite Micro's LSTM refuses it)")));
        }
    }
    // The cell state's type selects the path (Prepare); the input's and the weights' type
    // the instantiation (Eval).
    match (input.dtype, weight_type, cell.dtype) {
        (DType::I8, DType::I8, DType::I16) | (DType::I16, DType::I8, DType::I16) | (DType::F32, DType::F32, DType::F32) => {}
        (DType::F32, w, DType::F32) => {
            return Err(cx.unsupported_tensor(
                input,
                format!(
                    "float32 activations with {w} weights (a hybrid, dynamic-range model, which TFLite Micro does not run): \
                     convert the model with full-integer quantization (a representative dataset and \
                     `converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]`) or keep it float32"
                ),
            ))
        }
        (_, _, c) if c != DType::I16 && c != DType::F32 => {
            return Err(cx.unsupported_tensor(cell, format!("cell state of type {c} (TFLite Micro's LSTM requires int16 or float32)")))
        }
        (i, w, c) => {
            return Err(cx.unsupported_tensor(
                input,
                format!("an LSTM with {i} input, {w} weights and {c} cell state (TFLite Micro's LSTM refuses it)"),
            ))
        }
    }
    let want_bias = match input.dtype {
        DType::F32 => DType::F32,
        DType::I16 => DType::I64,
        _ => DType::I32,
    };
    if bias_type != want_bias {
        return Err(cx.unsupported_tensor(
            cx.input(BIASES[1])?,
            format!("gate biases of type {bias_type} (the {} LSTM takes {want_bias})", input.dtype),
        ));
    }
    if o.activation != Activation::Tanh {
        return Err(cx.unsupported(format!(
            "an LSTM cell gate activation {} (TFLite Micro's LSTM supports TANH only from a model file)",
            o.activation
        )));
    }

    // CreateLstmSizeInfo + ValidateTensorSize.
    cx.expect_activation(input)?;
    let &[d0, d1, input_size] = input.shape.as_slice() else {
        return Err(cx.unsupported_tensor(input, format!("input of shape {:?} (expected rank 3)", input.shape)));
    };
    let (batches, time_steps) = if o.time_major { (d1, d0) } else { (d0, d1) };
    let &[_, units] = hidden.shape.as_slice() else {
        return Err(cx.unsupported_tensor(hidden, format!("output state of shape {:?} (expected rank 2)", hidden.shape)));
    };
    for t in [hidden, cell] {
        if t.num_elements() != batches * units {
            return Err(cx.invalid_tensor(t, format!("state of {} elements, expected {batches} x {units}", t.num_elements())));
        }
    }
    if output.shape != [d0, d1, units] {
        return Err(cx.invalid_tensor(output, format!("output of shape {:?}, expected [{d0}, {d1}, {units}]", output.shape)));
    }
    let input_weights = INPUT_WEIGHTS.map(|i| cx.op.input(i).unwrap_or(input.id));
    let recurrent_weights = RECURRENT_WEIGHTS.map(|i| cx.op.input(i).unwrap_or(input.id));
    let shared = |scheme| UnidirectionalSequenceLstm {
        input: input.id,
        input_weights,
        recurrent_weights,
        hidden: hidden.id,
        cell: cell.id,
        output: output.id,
        scheme,
    };
    if input.dtype == DType::F32 {
        for g in 0..4 {
            let (wi, wr, b) = (cx.input(INPUT_WEIGHTS[g])?, cx.input(RECURRENT_WEIGHTS[g])?, cx.input(BIASES[g])?);
            for (t, shape) in [(wi, [units, input_size].as_slice()), (wr, &[units, units]), (b, &[units])] {
                if t.shape != shape {
                    return Err(cx.invalid_tensor(t, format!("shape {:?}, expected {shape:?}", t.shape)));
                }
                cx.expect_constant(t)?;
            }
        }
        let params = LstmF32Params { batches, time_steps, input_size, units, time_major: o.time_major, cell_clip: o.cell_clip };
        return Ok(shared(LstmScheme::F32 { params, biases: BIASES.map(|i| cx.op.input(i).unwrap_or(input.id)) }));
    }

    let wide = input.dtype == DType::I16;
    let (in_q, h_q) = if wide { (cx.per_tensor_q(input)?, cx.per_tensor_q(hidden)?) } else { (cx.q_s8(input)?, cx.q_s8(hidden)?) };
    let c_q = cx.per_tensor_q(cell)?;
    let mut input_weights_data: [Vec<i8>; 4] = Default::default();
    let mut recurrent_weights_data: [Vec<i8>; 4] = Default::default();
    let mut gates = [LstmGateParams { input_multiplier: 0, input_shift: 0, recurrent_multiplier: 0, recurrent_shift: 0 }; 4];
    let mut folded_bias = Vec::with_capacity(8 * units);
    // 16x8: the same folding in int64 (`bias + input_offset * sum(row)`, exact).
    let mut folded_bias_wide: Vec<i64> = Vec::with_capacity(if wide { 8 * units } else { 0 });
    for g in 0..4 {
        let wi = cx.input(INPUT_WEIGHTS[g])?;
        let wr = cx.input(RECURRENT_WEIGHTS[g])?;
        let b = cx.input(BIASES[g])?;
        let wi_data = weights_i8(cx, wi, units, input_size)?;
        let wr_data = weights_i8(cx, wr, units, units)?;
        if b.shape != [units] {
            return Err(cx.invalid_tensor(b, format!("gate bias of shape {:?}, expected [{units}]", b.shape)));
        }
        let bias = if wide { Vec::new() } else { cx.bias_i32(Some(b), units, "units")? };
        let bias_wide = if wide { super::conv_common::bias_i64(cx, Some(b), units)? } else { Vec::new() };
        let multiplier = |x: &Tensor<'_>, xs: f32, w: &Tensor<'_>| -> Result<(i32, i32), LowerError> {
            let ws = cx.per_tensor_q(w)?.scale;
            fully_connected_tensor_multiplier(xs, ws, GATE_SCALE).ok_or_else(|| {
                cx.invalid_tensor(w, format!("effective scale {xs} * {ws} / 2^-12 of {} cannot be quantized", x.name))
            })
        };
        let (input_multiplier, input_shift) = multiplier(input, in_q.scale, wi)?;
        let (recurrent_multiplier, recurrent_shift) = multiplier(hidden, h_q.scale, wr)?;
        gates[g] = LstmGateParams { input_multiplier, input_shift, recurrent_multiplier, recurrent_shift };
        if wide {
            // TFLite's 64-bit MultiplyByQuantizedMultiplier asserts shifts below 8.
            super::conv_common::check_shifts_16x8(cx, wi, &[input_shift])?;
            super::conv_common::check_shifts_16x8(cx, wr, &[recurrent_shift])?;
            let sum = |row: &[i8]| row.iter().map(|&w| w as i64).sum::<i64>();
            for u in 0..units {
                let row = &wi_data[u * input_size..(u + 1) * input_size];
                folded_bias_wide.push(bias_wide[u] - in_q.zero_point as i64 * sum(row));
            }
            for u in 0..units {
                folded_bias_wide.push(-(h_q.zero_point as i64) * sum(&wr_data[u * units..(u + 1) * units]));
            }
            input_weights_data[g] = wi_data;
            recurrent_weights_data[g] = wr_data;
            continue;
        }
        for (u, row) in wi_data.chunks_exact(input_size.max(1)).take(units).enumerate() {
            folded_bias.push(fold_input_offset(row.iter().copied(), bias[u], -in_q.zero_point));
        }
        if input_size == 0 {
            folded_bias.extend_from_slice(&bias);
        }
        for row in wr_data.chunks_exact(units.max(1)).take(units) {
            folded_bias.push(fold_input_offset(row.iter().copied(), 0, -h_q.zero_point));
        }
        input_weights_data[g] = wi_data;
        recurrent_weights_data[g] = wr_data;
    }

    // PrepareGateParametersInteger: the inter-gate products.
    let product = |a: f32, b: f32, out: f32, t: &Tensor<'_>| -> Result<(i32, i32), LowerError> {
        let effective = a as f64 * b as f64 / out as f64;
        quantize_multiplier(effective)
            .ok_or_else(|| cx.invalid_tensor(t, format!("effective scale {effective} cannot be quantized")))
    };
    let (forget_multiplier, forget_shift) = product(NONLINEAR_OUTPUT_SCALE, c_q.scale, c_q.scale, cell)?;
    let (input_multiplier, input_shift) = product(NONLINEAR_OUTPUT_SCALE, NONLINEAR_OUTPUT_SCALE, c_q.scale, cell)?;
    let (hidden_multiplier, hidden_shift) = product(NONLINEAR_OUTPUT_SCALE, NONLINEAR_OUTPUT_SCALE, h_q.scale, hidden)?;

    // CreateLstmCellStateInfo.
    let power = (c_q.scale.ln() * (1.0f32 / 2.0f32.ln())).round();
    let (cell_tanh_multiplier, cell_tanh_shift) = cell_tanh_scaling(power as i32).ok_or_else(|| {
        cx.unsupported_tensor(cell, format!("cell state scale {} (2^{power}): its tanh input scaling overflows int32", c_q.scale))
    })?;
    let cell_clip = (o.cell_clip > 0.0)
        .then(|| (o.cell_clip as f64 / c_q.scale as f64).clamp(-32768.0, 32767.0) as i16);

    let params = LstmParams {
        batches,
        time_steps,
        input_size,
        units,
        time_major: o.time_major,
        gates,
        forget_multiplier,
        forget_shift,
        input_multiplier,
        input_shift,
        hidden_multiplier,
        hidden_shift,
        hidden_zero_point: h_q.zero_point,
        cell_clip,
        cell_tanh_multiplier,
        cell_tanh_shift,
    };
    if wide {
        return Ok(shared(LstmScheme::S16 { params: LstmS16Params { int: params }, input_weights_data, recurrent_weights_data, folded_bias: folded_bias_wide }));
    }
    Ok(shared(LstmScheme::S8 { params, input_weights_data, recurrent_weights_data, folded_bias }))
}

impl UnidirectionalSequenceLstm {
    /// `execute` of the 16x8 LSTM.
    fn execute_s16(&self, s: &mut TensorStore, params: &LstmS16Params, wi: &[Vec<i8>; 4], wr: &[Vec<i8>; 4], bias: &[i64]) -> Result<(), ExecError> {
        let p = &params.int;
        let mut hidden = s.i16(self.hidden)?.to_vec();
        let mut cell = s.i16(self.cell)?.to_vec();
        if hidden.len() != p.batches * p.units || cell.len() != p.batches * p.units {
            return Err(ExecError(format!("LSTM: states have {} and {} elements", hidden.len(), cell.len())));
        }
        let input = s.i16(self.input)?;
        if input.len() != p.batches * p.time_steps * p.input_size {
            return Err(ExecError(format!("LSTM: input has {} elements", input.len())));
        }
        let w = LstmS16Weights { input: [0, 1, 2, 3].map(|g| wi[g].as_slice()), recurrent: [0, 1, 2, 3].map(|g| wr[g].as_slice()), bias };
        let mut out = vec![0i16; p.batches * p.time_steps * p.units];
        unidirectional_sequence_lstm_s16(params, input, &w, &mut hidden, &mut cell, &mut out);
        s.insert(self.hidden, TensorData::I16(hidden));
        s.insert(self.cell, TensorData::I16(cell));
        s.insert(self.output, TensorData::I16(out));
        Ok(())
    }

    /// `execute` of the float32 LSTM.
    fn execute_f32(&self, s: &mut TensorStore, p: &LstmF32Params, biases: &[TensorId; 4]) -> Result<(), ExecError> {
        let mut hidden = s.f32(self.hidden)?.to_vec();
        let mut cell = s.f32(self.cell)?.to_vec();
        if hidden.len() != p.batches * p.units || cell.len() != p.batches * p.units {
            return Err(ExecError(format!("LSTM: states have {} and {} elements", hidden.len(), cell.len())));
        }
        let input = s.f32(self.input)?;
        if input.len() != p.batches * p.time_steps * p.input_size {
            return Err(ExecError(format!("LSTM: input has {} elements", input.len())));
        }
        let get = |ids: &[TensorId; 4], len: usize| -> Result<[&[f32]; 4], ExecError> {
            let mut out: [&[f32]; 4] = [&[]; 4];
            for (o, &t) in out.iter_mut().zip(ids) {
                *o = s.f32(t)?;
                if o.len() != len {
                    return Err(ExecError(format!("LSTM: constant {t} has {} elements, expected {len}", o.len())));
                }
            }
            Ok(out)
        };
        let w = LstmF32Weights {
            input: get(&self.input_weights, p.units * p.input_size)?,
            recurrent: get(&self.recurrent_weights, p.units * p.units)?,
            bias: get(biases, p.units)?,
        };
        let mut out = vec![0f32; p.batches * p.time_steps * p.units];
        unidirectional_sequence_lstm_f32(p, input, &w, &mut hidden, &mut cell, &mut out);
        s.insert(self.hidden, TensorData::F32(hidden));
        s.insert(self.cell, TensorData::F32(cell));
        s.insert(self.output, TensorData::F32(out));
        Ok(())
    }
}

impl Kernel for UnidirectionalSequenceLstm {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let (p, input_weights_data, recurrent_weights_data, folded_bias) = match &self.scheme {
            LstmScheme::S8 { params, input_weights_data, recurrent_weights_data, folded_bias } => (params, input_weights_data, recurrent_weights_data, folded_bias),
            LstmScheme::F32 { params, biases } => return self.execute_f32(s, params, biases),
            LstmScheme::S16 { params, input_weights_data, recurrent_weights_data, folded_bias } => {
                return self.execute_s16(s, params, input_weights_data, recurrent_weights_data, folded_bias)
            }
        };
        let mut hidden = s.i8(self.hidden)?.to_vec();
        let mut cell = s.i16(self.cell)?.to_vec();
        if hidden.len() != p.batches * p.units || cell.len() != p.batches * p.units {
            return Err(ExecError(format!("LSTM: states have {} and {} elements", hidden.len(), cell.len())));
        }
        let input = s.i8(self.input)?;
        if input.len() != p.batches * p.time_steps * p.input_size {
            return Err(ExecError(format!("LSTM: input has {} elements", input.len())));
        }
        let w = LstmWeights {
            input: [0, 1, 2, 3].map(|g| input_weights_data[g].as_slice()),
            recurrent: [0, 1, 2, 3].map(|g| recurrent_weights_data[g].as_slice()),
            bias: folded_bias,
        };
        let mut out = vec![0i8; p.batches * p.time_steps * p.units];
        unidirectional_sequence_lstm_s8(p, input, &w, &mut hidden, &mut cell, &mut out);
        s.insert(self.hidden, TensorData::I8(hidden));
        s.insert(self.cell, TensorData::I16(cell));
        s.insert(self.output, TensorData::I8(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let (params, folded_bias) = match &self.scheme {
            LstmScheme::S8 { params, folded_bias, .. } => (params, folded_bias),
            LstmScheme::S16 { params, folded_bias, .. } => {
                let params = cx.params_lit(quote! { kernels::unidirectional_sequence_lstm::LstmS16Params }, params);
                let input = cx.input(self.input);
                let wi: Vec<TokenStream> = self.input_weights.iter().map(|&t| cx.input(t)).collect();
                let wr: Vec<TokenStream> = self.recurrent_weights.iter().map(|&t| cx.input(t)).collect();
                let bias = cx.table_i64("bias", folded_bias);
                let hidden = cx.output(self.hidden);
                let cell = cx.output(self.cell);
                let output = cx.output(self.output);
                return quote! {
                    #rt::kernels::unidirectional_sequence_lstm::unidirectional_sequence_lstm_s16(
                        &#params,
                        #input,
                        &#rt::kernels::unidirectional_sequence_lstm::LstmS16Weights {
                            input: [#(#wi),*],
                            recurrent: [#(#wr),*],
                            bias: #bias,
                        },
                        #hidden,
                        #cell,
                        #output,
                    );
                };
            }
            LstmScheme::F32 { params, biases } => {
                let params = cx.params_lit(quote! { kernels::unidirectional_sequence_lstm::LstmF32Params }, params);
                let input = cx.input(self.input);
                let wi: Vec<TokenStream> = self.input_weights.iter().map(|&t| cx.input(t)).collect();
                let wr: Vec<TokenStream> = self.recurrent_weights.iter().map(|&t| cx.input(t)).collect();
                let bias: Vec<TokenStream> = biases.iter().map(|&t| cx.input(t)).collect();
                let hidden = cx.output(self.hidden);
                let cell = cx.output(self.cell);
                let output = cx.output(self.output);
                return quote! {
                    #rt::kernels::unidirectional_sequence_lstm::unidirectional_sequence_lstm_f32(
                        &#params,
                        #input,
                        &#rt::kernels::unidirectional_sequence_lstm::LstmF32Weights {
                            input: [#(#wi),*],
                            recurrent: [#(#wr),*],
                            bias: [#(#bias),*],
                        },
                        #hidden,
                        #cell,
                        #output,
                    );
                };
            }
        };
        let params = cx.params_lit(quote! { kernels::unidirectional_sequence_lstm::LstmParams }, params);
        let input = cx.input(self.input);
        let wi: Vec<TokenStream> = self.input_weights.iter().map(|&t| cx.input(t)).collect();
        let wr: Vec<TokenStream> = self.recurrent_weights.iter().map(|&t| cx.input(t)).collect();
        let bias = cx.table_i32("bias", folded_bias);
        let hidden = cx.output(self.hidden);
        let cell = cx.output(self.cell);
        let output = cx.output(self.output);
        quote! {
            #rt::kernels::unidirectional_sequence_lstm::unidirectional_sequence_lstm_s8(
                &#params,
                #input,
                &#rt::kernels::unidirectional_sequence_lstm::LstmWeights {
                    input: [#(#wi),*],
                    recurrent: [#(#wr),*],
                    bias: #bias,
                },
                #hidden,
                #cell,
                #output,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::ir::{OpKind, Quantization};
    use crate::tflite::builder::{ModelBuilder, TensorSpec};

    #[derive(Clone)]
    struct Spec {
        batches: usize,
        time_steps: usize,
        input_size: usize,
        units: usize,
        time_major: bool,
        activation: Activation,
        cell_clip: f32,
        cell_scale: f32,
        cell_dtype: DType,
        states_variable: bool,
        /// Input index to leave out (-1 in the model), or a peephole to add.
        drop: Option<usize>,
        add: Option<usize>,
        weight_zero_point: i64,
    }

    const BASE: Spec = Spec {
        batches: 2,
        time_steps: 3,
        input_size: 5,
        units: 4,
        time_major: false,
        activation: Activation::Tanh,
        cell_clip: 3.0,
        cell_scale: 1.0 / 2048.0,
        cell_dtype: DType::I16,
        states_variable: true,
        drop: None,
        add: None,
        weight_zero_point: 0,
    };

    fn state(b: &mut ModelBuilder, name: &str, dtype: DType, shape: &[usize], q: (f32, i64), variable: bool) -> TensorId {
        b.tensor(TensorSpec {
            name: name.into(),
            dtype,
            shape: shape.iter().map(|&d| d as i32).collect(),
            shape_signature: None,
            quant: Some(Quantization { scale: vec![q.0], zero_point: vec![q.1], axis: None }),
            data: None,
            variable,
        })
    }

    /// One integer LSTM (the corpus has batch 1 and no cell clip): batches 2, 3 steps, 5
    /// inputs, 4 units, input zero point 7, hidden state zero point -3 at scale 1/100, cell
    /// state at 2^-11 clipped at 3.0, every gate's weights at their own scale.
    fn build(s: &Spec) -> (Vec<u8>, TensorId, TensorId, TensorId, TensorId) {
        let (n, u) = (s.input_size, s.units);
        let mut b = ModelBuilder::new();
        let x_shape = if s.time_major { [s.time_steps, s.batches, n] } else { [s.batches, s.time_steps, n] };
        let x = b.activation("x", DType::I8, &x_shape, Some((0.05, 7)));
        let mut inputs: Vec<Option<TensorId>> = vec![Some(x)];
        for g in 0..4 {
            let scale = 0.004 * (g as f32 + 1.0);
            inputs.push(Some(b.constant_i8(&format!("w_in{g}"), &[u, n], &i8s(60 + g as u64, u * n), Some((scale, s.weight_zero_point)))));
        }
        for g in 0..4 {
            let scale = 0.003 + 0.002 * g as f32;
            inputs.push(Some(b.constant_i8(&format!("w_rec{g}"), &[u, u], &i8s(70 + g as u64, u * u), Some((scale, 0)))));
        }
        inputs.extend([None, None, None]);
        for g in 0..4 {
            let v: Vec<i32> = (0..u as i32).map(|k| (k - 2) * 700 + g * 311).collect();
            inputs.push(Some(b.constant_i32(&format!("bias{g}"), &[u], &v, Some((0.0002 * (g as f32 + 1.0), 0)))));
        }
        inputs.extend([None, None]);
        let h = state(&mut b, "hidden", DType::I8, &[s.batches, u], (0.01, -3), s.states_variable);
        let c = state(&mut b, "cell", s.cell_dtype, &[s.batches, u], (s.cell_scale, 0), s.states_variable);
        inputs.extend([Some(h), Some(c)]);
        inputs.extend([None, None, None, None]);
        if let Some(i) = s.drop {
            inputs[i] = None;
        }
        if let Some(i) = s.add {
            inputs[i] = Some(b.constant_i8(&format!("extra{i}"), &[u], &vec![1; u], Some((0.01, 0))));
        }
        let y_shape = if s.time_major { [s.time_steps, s.batches, u] } else { [s.batches, s.time_steps, u] };
        let y = b.activation("y", DType::I8, &y_shape, Some((0.01, -3)));
        b.op(
            OpKind::UnidirectionalSequenceLstm(SequenceLstmOptions {
                activation: s.activation,
                cell_clip: s.cell_clip,
                proj_clip: 0.0,
                time_major: s.time_major,
                asymmetric_quantize_inputs: false,
                diagonal_recurrent_tensors: false,
            }),
            &inputs,
            &[y],
        );
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, h, c, y)
    }

    /// A 16x8 LSTM (int16 input, hidden state and output, int8 weights, int64 biases) on
    /// the base shapes, with a cell clip: two batch rows of three steps.
    fn build_16x8(time_major: bool) -> (Vec<u8>, TensorId, TensorId) {
        let (batches, steps, n, u) = (2usize, 3usize, 5usize, 4usize);
        let mut b = ModelBuilder::new();
        let x_shape = if time_major { [steps, batches, n] } else { [batches, steps, n] };
        let x = b.activation("x", DType::I16, &x_shape, Some((0.0004, 0)));
        let mut inputs: Vec<Option<TensorId>> = vec![Some(x)];
        for g in 0..4 {
            let scale = 0.004 * (g as f32 + 1.0);
            inputs.push(Some(b.constant_i8(&format!("w_in{g}"), &[u, n], &i8s(60 + g as u64, u * n), Some((scale, 0)))));
        }
        for g in 0..4 {
            let scale = 0.003 + 0.002 * g as f32;
            inputs.push(Some(b.constant_i8(&format!("w_rec{g}"), &[u, u], &i8s(70 + g as u64, u * u), Some((scale, 0)))));
        }
        inputs.extend([None, None, None]);
        for g in 0..4 {
            let v: Vec<u8> = (0..u as i64).flat_map(|k| ((k - 2) * 40_000 + g * 9_311).to_le_bytes()).collect();
            let q = Quantization { scale: vec![0.0000016 * (g as f32 + 1.0)], zero_point: vec![0], axis: None };
            inputs.push(Some(b.constant(&format!("bias{g}"), DType::I64, &[u], v, Some(q))));
        }
        inputs.extend([None, None]);
        let h = state(&mut b, "hidden", DType::I16, &[batches, u], (0.0003, 0), true);
        let c = state(&mut b, "cell", DType::I16, &[batches, u], (1.0 / 2048.0, 0), true);
        inputs.extend([Some(h), Some(c)]);
        inputs.extend([None, None, None, None]);
        let y_shape = if time_major { [steps, batches, u] } else { [batches, steps, u] };
        let y = b.activation("y", DType::I16, &y_shape, Some((0.0003, 0)));
        b.op(
            OpKind::UnidirectionalSequenceLstm(SequenceLstmOptions {
                activation: Activation::Tanh,
                cell_clip: 3.0,
                proj_clip: 0.0,
                time_major,
                asymmetric_quantize_inputs: false,
                diagonal_recurrent_tensors: false,
            }),
            &inputs,
            &[y],
        );
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// The 16x8 LSTM against TFLite Micro (`EvalLstm<int16_t, int8_t, int16_t, int64_t>`),
    /// batch-major and time-major, from the reset state.
    #[test]
    fn lstm_16x8_matches_tflite_micro() {
        for (name, time_major, want) in [("lstm16_b2_t3", false, LSTM16_B2_T3), ("lstm16_tm", true, LSTM16_TM)] {
            let (bytes, x, y) = build_16x8(time_major);
            let xv: Vec<i16> = i8s(83, 60).chunks(2).map(|c| i16::from_le_bytes([c[0] as u8, c[1] as u8]) / 4).collect();
            let xv: Vec<i16> = xv.iter().chain(&xv).copied().take(30).collect();
            let store = run_op0(name, &bytes, &[(x, TensorData::I16(xv))]);
            if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
                continue;
            }
            assert_eq!(store.i16(y).unwrap(), want, "{name}: differs from TFLite Micro");
        }
        let (bytes, ..) = build_16x8(false);
        #[cfg(feature = "format")]
        insta::assert_snapshot!(emit_op0(&bytes));
        let _ = bytes;
    }

    const LSTM16_B2_T3: &[i16] = &[-90, -5, -571, 93, -2170, -2, -670, 176, 1542, -2080, -472, -664, -25, 80, 1241, 1340, 0, 2948, 0, 1227, -1, 24, 50, 154];
    const LSTM16_TM: &[i16] = &[-90, -5, -571, 93, -1764, -1, -159, -185, 1697, -2063, -677, -454, -74, 69, 1262, 1143, 1, 728, -1, 634, -2, 16, 81, 87];

    const LSTM_B2_T3_CLIP: [i8; 24] =
        [-3, 2, -2, 2, -76, -10, 77, 7, -61, -3, 22, -3, -36, -3, -8, 0, -3, 68, -3, -1, -63, -3, 76, 22];
    const LSTM_TM_NOCLIP: [i8; 24] =
        [-3, -5, -24, 5, -3, 69, -3, 53, -3, -8, -3, -2, 37, -47, -3, -22, -74, -52, -85, -6, -3, -3, 30, 14];

    fn run(name: &str, s: &Spec, seed: u64) -> Vec<i8> {
        let (bytes, x, ..) = build(s);
        let n = s.batches * s.time_steps * s.input_size;
        let store = run_op0(name, &bytes, &[(x, TensorData::I8(i8s(seed, n)))]);
        out_i8(&store, build(s).4)
    }

    /// Expected outputs: TFLite Micro (pip `tflite-micro`, `tools/op_test_vectors.py`) on the
    /// models these tests build (dumped with `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc
    /// --lib unidirectional_sequence_lstm`), from the reset state.
    #[test]
    fn batch_major_two_batches_three_steps_clipped() {
        let got = run("lstm_b2_t3_clip", &BASE, 81);
        let want: &[i8] = &LSTM_B2_T3_CLIP;
        assert_eq!(got, want);
    }

    #[test]
    fn time_major_unclipped() {
        let s = Spec { time_major: true, cell_clip: 0.0, cell_scale: 1.0 / 4096.0, ..BASE };
        let got = run("lstm_tm_noclip", &s, 82);
        let want: &[i8] = &LSTM_TM_NOCLIP;
        assert_eq!(got, want);
    }

    /// A second run continues from the first one's state (the hidden and cell states are
    /// variable tensors the kernel updates in place).
    #[test]
    fn state_carries_over() {
        let (bytes, x, h, c, y) = build(&BASE);
        let mut store = run_op0("lstm_state", &bytes, &[(x, TensorData::I8(i8s(81, 30)))]);
        let first = out_i8(&store, y);
        let (h0, c0) = (store.i8(h).expect("hidden").to_vec(), store.i16(c).expect("cell").to_vec());
        // The last step's output is the hidden state.
        assert_eq!(h0[..4], first[8..12]);
        assert_eq!(h0[4..], first[20..24]);
        let model = crate::passes::read_model(&bytes).expect("parses");
        let k = super::super::lower(model.main(), &model.main().ops[crate::ir::OpId::new(0)]).expect("lowers");
        k.execute(&mut store).expect("runs");
        assert_ne!(store.i16(c).expect("cell"), c0.as_slice());
        // Same input, other state: other output.
        assert_ne!(out_i8(&store, y), first);
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, ..) = build(&BASE);
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn refuses_what_tflite_micro_refuses() {
        let unsupported = [
            (Spec { drop: Some(1), ..BASE.clone() }, "CIFG"),
            (Spec { drop: Some(12), ..BASE.clone() }, "no input gate bias"),
            (Spec { add: Some(10), ..BASE.clone() }, "peephole"),
            (Spec { add: Some(16), ..BASE.clone() }, "projection"),
            (Spec { add: Some(21), ..BASE.clone() }, "layer norm"),
            (Spec { cell_dtype: DType::I8, ..BASE.clone() }, "int8 cell"),
            (Spec { activation: Activation::Relu, ..BASE.clone() }, "relu cell gate"),
            (Spec { weight_zero_point: 3, ..BASE.clone() }, "asymmetric weights"),
            (Spec { cell_scale: 16.0, ..BASE.clone() }, "huge cell scale"),
        ];
        for (spec, what) in unsupported {
            let e = lower_op0(&build(&spec).0).expect_err(what);
            assert!(matches!(e, LowerError::Unsupported { .. }), "{what}: {e}");
            assert!(e.to_string().contains("UNIDIRECTIONAL_SEQUENCE_LSTM"), "{what}: {e}");
        }
        let e = lower_op0(&build(&Spec { states_variable: false, ..BASE.clone() }).0).expect_err("not variable");
        assert!(matches!(e, LowerError::Invalid { .. }) && e.to_string().contains("variable"), "{e}");
    }

    /// One float32 LSTM: batches 2, 3 steps, 5 inputs, 4 units; every tensor float32, the
    /// states variable; `weights` the element type of the gate weights (float32, or int8 for
    /// the hybrid refusal).
    fn build_f32(time_major: bool, cell_clip: f32, weights: DType) -> (Vec<u8>, TensorId, TensorId, TensorId, TensorId) {
        let (bt, ts, n, u) = (2usize, 3usize, 5usize, 4usize);
        let f = |seed: u64, len: usize, scale: f32| -> Vec<f32> { i8s(seed, len).iter().map(|&q| f32::from(q) * scale).collect() };
        let mut b = ModelBuilder::new();
        let x_shape = if time_major { [ts, bt, n] } else { [bt, ts, n] };
        let x = b.activation("x", DType::F32, &x_shape, None);
        let mut inputs: Vec<Option<TensorId>> = vec![Some(x)];
        let weight = |b: &mut ModelBuilder, name: &str, shape: &[usize], seed: u64, scale: f32| {
            let len = shape.iter().product();
            if weights == DType::F32 {
                b.constant_f32(name, shape, &f(seed, len, scale))
            } else {
                b.constant_i8(name, shape, &i8s(seed, len), Some((scale, 0)))
            }
        };
        for g in 0..4 {
            inputs.push(Some(weight(&mut b, &format!("w_in{g}"), &[u, n], 60 + g as u64, 0.004 * (g as f32 + 1.0))));
        }
        for g in 0..4 {
            inputs.push(Some(weight(&mut b, &format!("w_rec{g}"), &[u, u], 70 + g as u64, 0.003 + 0.002 * g as f32)));
        }
        inputs.extend([None, None, None]);
        for g in 0..4 {
            let v: Vec<f32> = (0..u).map(|k| (k as f32 - 2.0) * 0.14 + g as f32 * 0.06).collect();
            inputs.push(Some(b.constant_f32(&format!("bias{g}"), &[u], &v)));
        }
        inputs.extend([None, None]);
        let state = |b: &mut ModelBuilder, name: &str| {
            b.tensor(TensorSpec {
                name: name.into(),
                dtype: DType::F32,
                shape: vec![bt as i32, u as i32],
                shape_signature: None,
                quant: None,
                data: None,
                variable: true,
            })
        };
        let (h, c) = (state(&mut b, "hidden"), state(&mut b, "cell"));
        inputs.extend([Some(h), Some(c)]);
        inputs.extend([None, None, None, None]);
        let y_shape = if time_major { [ts, bt, u] } else { [bt, ts, u] };
        let y = b.activation("y", DType::F32, &y_shape, None);
        b.op(
            OpKind::UnidirectionalSequenceLstm(SequenceLstmOptions {
                activation: Activation::Tanh,
                cell_clip,
                proj_clip: 0.0,
                time_major,
                asymmetric_quantize_inputs: false,
                diagonal_recurrent_tensors: false,
            }),
            &inputs,
            &[y],
        );
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, h, c, y)
    }

    /// The LSTM in f64 from the model's constants: per step and batch row, gates
    /// `sigma(W x + R h + b)` (TFLite's piecewise sigmoid), `c = f c + i tanh(.)` clipped,
    /// `h = o tanh(c)`; `runs` inputs in turn, the state carried.
    #[allow(clippy::needless_range_loop)] // the definition indexes as the formula does
    fn lstm_f64(bytes: &[u8], time_major: bool, clip: f64, runs: &[Vec<f32>]) -> Vec<f64> {
        let model = crate::passes::read_model(bytes).expect("parses");
        let sg = model.main();
        let op = &sg.ops[crate::ir::OpId::new(0)];
        let data = |i: usize| -> Vec<f64> {
            let t = sg.tensor(op.input(i).unwrap());
            t.data.unwrap().chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64).collect()
        };
        let (bt, ts, n, u) = (2usize, 3usize, 5usize, 4usize);
        let sig = |v: f64| if v > 16.619047164916992 { 1.0 } else if v < -9.0 { v.exp() } else { 1.0 / (1.0 + (-v).exp()) };
        let (mut h, mut c) = (vec![0f64; bt * u], vec![0f64; bt * u]);
        let mut out = Vec::new();
        for x in runs {
            let mut y = vec![0f64; bt * ts * u];
            for b in 0..bt {
                for t in 0..ts {
                    let row = if time_major { t * bt + b } else { b * ts + t };
                    let xr = &x[row * n..(row + 1) * n];
                    let pre = |g: usize, k: usize| -> f64 {
                        let (wi, wr, bias) = (data(1 + g), data(5 + g), data(12 + g));
                        bias[k] + (0..n).map(|d| wi[k * n + d] * xr[d] as f64).sum::<f64>() + (0..u).map(|d| wr[k * u + d] * h[b * u + d]).sum::<f64>()
                    };
                    let mut hn = vec![0f64; u];
                    for k in 0..u {
                        let (i, f, g, o) = (sig(pre(0, k)), sig(pre(1, k)), pre(2, k).tanh(), sig(pre(3, k)));
                        let mut cn = f * c[b * u + k] + i * g;
                        if clip > 0.0 {
                            cn = cn.clamp(-clip, clip);
                        }
                        c[b * u + k] = cn;
                        hn[k] = o * cn.tanh();
                    }
                    h[b * u..(b + 1) * u].copy_from_slice(&hn);
                    y[row * u..(row + 1) * u].copy_from_slice(&hn);
                }
            }
            out.extend(y);
        }
        out
    }

    /// float32, batch- and time-major, clipped and not, over two runs (the second
    /// continuing from the first's state): within 1e-6 x max |ref| of TFLite Micro (one
    /// interpreter invoked twice; not bit for bit: the pip build's glibc 2.36 `tanhf` is one
    /// ulp off the correctly rounded `math::tanhf` on some inputs, see TANH, and the
    /// recurrence carries those ulps on), and within 1e-5 of the LSTM in f64; the hidden
    /// state after the run is the last step's output.
    #[test]
    fn float32_two_runs_against_tflite_micro() {
        for (k, (time_major, clip)) in [(false, 0.0f32), (true, 0.3)].into_iter().enumerate() {
            let (bytes, x, h, _c, y) = build_f32(time_major, clip, DType::F32);
            let name = format!("lstm_f32_{k}");
            let runs: Vec<Vec<f32>> = (0..2).map(|r| i8s(90 + 2 * k as u64 + r, 30).iter().map(|&q| f32::from(q) / 40.0).collect()).collect();
            let mut store = run_op0(&name, &bytes, &[(x, TensorData::F32(runs[0].clone()))]);
            let mut got = store.f32(y).unwrap().to_vec();
            let model = crate::passes::read_model(&bytes).expect("parses");
            let kern = super::super::lower(model.main(), &model.main().ops[crate::ir::OpId::new(0)]).expect("lowers");
            if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
                std::fs::write(std::path::Path::new(&dir).join(format!("{name}.run1.bin")), TensorData::F32(runs[1].clone()).to_le_bytes()).expect("dump");
            }
            store.insert(x, TensorData::F32(runs[1].clone()));
            kern.execute(&mut store).expect("runs");
            let second = store.f32(y).unwrap().to_vec();
            let hidden = store.f32(h).unwrap().to_vec();
            let last = |b: usize| if time_major { (2 * 2 + b) * 4 } else { (b * 3 + 2) * 4 };
            for b in 0..2 {
                assert_eq!(hidden[b * 4..(b + 1) * 4], second[last(b)..last(b) + 4], "{name}: hidden state");
            }
            got.extend(second);
            let real = lstm_f64(&bytes, time_major, clip as f64, &runs);
            for (i, (&g, &r)) in got.iter().zip(&real).enumerate() {
                assert!((g as f64 - r).abs() <= 1e-5, "{name} output {i}: {g} vs {r}");
            }
            let want = LSTM_F32_TFLM.iter().find(|(nm, _)| *nm == name).map_or(&[][..], |(_, v)| *v);
            if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
                continue;
            }
            assert_eq!(got.len(), want.len(), "{name}");
            let max_ref = want.iter().fold(0f32, |m, v| m.max(v.abs()));
            let max_err = got.iter().zip(want).fold(0f32, |m, (g, w)| m.max((g - w).abs()));
            let exact = got.iter().zip(want).filter(|(g, w)| g.to_bits() == w.to_bits()).count();
            println!("{name}: max |ours - TFLite Micro| = {max_err:e} = {:e} x max |ref|, {exact} of {} bit-identical", max_err / max_ref, got.len());
            assert!(max_err <= 1e-6 * max_ref, "{name}: max error {max_err:e}, max |ref| {max_ref:e}");
        }
    }

    /// TFLite Micro's outputs of the two runs, concatenated.
    const LSTM_F32_TFLM: &[(&str, &[f32])] = &[
        ("lstm_f32_0", &[
            5.002535e-05, 0.57505846, -0.0018421966, 0.080672905, -0.3479286, 0.0053676036, -0.6277123, 0.07774235,
            0.001471738, 0.25323027, 0.05452717, 0.22223799, -0.18962264, -0.37847397, -0.036297154, -0.046446603,
            9.0172565e-05, 0.38110152, 1.1521681e-05, 0.53898156, 0.0006544385, 0.07609983, -0.0006546729,
            -0.00080691173, 0.24617964, -0.22843303, -0.0040525077, -0.16479848, 0.5788812, -0.6977866, -0.0060581677,
            -0.24402006, -0.18229368, -0.0007248012, -0.7500283, -0.003470189, 0.4045895, 0.8313221, 0.12163407,
            0.081890166, 0.29119775, 0.9214291, 0.021620506, 0.20419174, -0.25839823, -0.0009561261, 0.75573087,
            0.40039432
        ]),
        ("lstm_f32_1", &[
            0.00033288874, 0.22558613, -0.00015250975, -0.021903185, 0.062367585, 0.288788, -0.0054537207,
            -0.21114351, 2.1137106e-05, 0.039770722, 0.0075790253, 0.037446883, 0.2046222, 0.28341457, 0.13022904,
            0.28686637, 8.073295e-05, 0.28929237, -5.323888e-06, -0.015598275, 0.019832281, -0.083832085,
            -0.046515997, -0.10117832, 0.13381356, -0.0012649442, -0.2912263, -0.1925445, 0.00861115, 0.28628662,
            -0.00014751109, -0.016763393, -0.010022398, -0.006520815, -0.0045479634, -0.00076559925, -0.005812044,
            0.0023569681, -0.04069162, -0.01075536, -0.111815386, 0.0003957973, 0.20240043, 0.04426357, 0.19660863,
            0.0004523771, 0.15096207, 0.0048697903
        ]),
    ];

    #[test]
    fn float32_refusals() {
        let e = lower_op0(&build_f32(false, 0.0, DType::I8).0).expect_err("hybrid");
        assert!(matches!(e, LowerError::Unsupported { .. }) && e.to_string().contains("full-integer"), "{e}");
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_float32_call() {
        insta::assert_snapshot!(emit_op0(&build_f32(false, 0.3, DType::F32).0));
    }
}
