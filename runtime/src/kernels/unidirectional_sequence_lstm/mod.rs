//! UNIDIRECTIONAL_SEQUENCE_LSTM, int8 activations and weights, int16 cell state (TFLite
//! Micro's integer LSTM, "8x8->16"); int16 activations with int8 weights and int64 biases
//! ("16x8->16", [`LstmS16Params`]); float32.
//!
//! Bit-exact with TFLite Micro `lstm_eval.h` (`EvalLstm<int8_t, int8_t, int16_t, int32_t>`).
//! One step, for one batch row `x` (int8, `input_size`), its hidden state `h` (int8,
//! `units`) and cell state `c` (int16, `units`), per unit and per gate
//! `g ∈ {input, forget, cell, output}`:
//!
//! - two fully connected layers into int16 at the fixed gate scale 2^-12 (TFLite
//!   `reference_integer_ops::FullyConnected` with int16 output, no activation): one on `x`
//!   with the gate's bias, one on `h` without; each is requantized and clamped to int16 on
//!   its own, then the two are added with int16 saturation;
//! - the input, forget and output gates go through the int16 sigmoid
//!   (`reference_integer_ops::Logistic` with multiplier 0 and shift 0, [`sigmoid_s16`]), the
//!   cell gate through the int16 tanh at scale 2^-12 (`reference_integer_ops::Tanh`,
//!   [`tanh_s16`]) (the op's fused activation, which must be TANH: TFLite's schema has no
//!   SIGMOID activation, and TFLite Micro asserts on any other);
//! - `c = sat16(requant(f * c) + requant(i * g))`, clipped to `±cell_clip` when the model
//!   sets a clip (`reference_integer_ops::MulElementwise` into int16, then
//!   `AddElementWise`, then `Clipping`);
//! - `h = clamp8(hidden_zero_point + requant(tanh(c) * o))`, the tanh taking `c` at the cell
//!   state's power-of-two scale;
//! - the new `h` is the step's output row and the next step's hidden state.
//!
//! TFLite Micro computes each gate for every unit into a scratch buffer before the cell
//! update; every operation is elementwise per unit and the hidden state is only replaced
//! after all units, so computing unit by unit and writing the new hidden state to the
//! output row first (then copying it to `h`) gives the same bits without any scratch.
//! The zero points of `x` and `h` are folded into the biases at compile time
//! (`bias + input_offset * sum(w)`, wrapping like the int32 accumulator).
//!
//! Batch-major input `[batches, time_steps, input_size]` runs every batch row through its
//! time steps in turn; time-major `[time_steps, batches, input_size]` runs each time step
//! for all rows. Rows are independent, so both are the same per-row recurrence over
//! differently strided input and output rows.
//!
//! 16x8 (`EvalLstm<int16_t, int8_t, int16_t, int64_t>`) is the same step with int16 input,
//! hidden state and output: each gate's fully connected layers accumulate in int64 with
//! the int64 biases (`reference_integer_ops::FullyConnected<int16_t, int8_t, int16_t,
//! int64_t>`) and requantize with TFLite's 64-bit `MultiplyByQuantizedMultiplier` (the
//! multiplier reduced to 16 bits, one rounding); the hidden state is clamped to int16
//! (`CreateInterGateMulParams` with an int16 output). Everything else (the parameters, the
//! nonlinearities, the cell update) is the 8x8 LSTM's.
//!
//! float32 (`EvalLstm<float, float, float, float>`, TFLite Micro's float path) is the same
//! loop nest with other numerics ([`LstmNumerics`]: [`LstmParams`] for int8,
//! [`LstmF32Params`] for float32): each gate is `reference_ops::FullyConnected<float>` on
//! the input (total from 0 in input order, plus the bias) plus the same without a bias on
//! the hidden state, each clamped to `±FLT_MAX` (`kTfLiteActNone`'s range); the gates go
//! through `reference_ops::Logistic<float>` and `std::tanh` ([`crate::math::tanhf`]); the
//! cell is `f * c + i * g` (each product clamped), clipped to `±cell_clip` when
//! `cell_clip > 0`; the hidden state `tanh(c) * o`. One rounding per operation, in TFLite
//! Micro's order, so the output is TFLite Micro's bit for bit wherever `expf` and `tanhf`
//! agree with the C library's.

pub mod scalar;
#[cfg(test)]
mod tests;

/// The two fully connected layers of one gate: input to int16 gate scale, hidden state to
/// int16 gate scale. `QuantizeMultiplier(double(float(scale_in * scale_w)) / 2^-12)` for each
/// (TFLite Micro `CreateGateParams`, through `CalculateOpDataFullyConnected`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LstmGateParams {
    /// Fixed-point multiplier of the input-side product `scale_in * scale_w / 2^-12`.
    pub input_multiplier: i32,
    /// Exponent of `input_multiplier` (positive: a left shift).
    pub input_shift: i32,
    /// Fixed-point multiplier of the recurrent product `scale_hidden * scale_w / 2^-12`.
    pub recurrent_multiplier: i32,
    /// Exponent of `recurrent_multiplier` (positive: a left shift).
    pub recurrent_shift: i32,
}

/// Gates in the order of the op's tensors (and of [`LstmParams::gates`]).
pub const GATE_INPUT: usize = 0;
/// Index of the forget gate.
pub const GATE_FORGET: usize = 1;
/// Index of the cell gate (the candidate cell value).
pub const GATE_CELL: usize = 2;
/// Index of the output gate.
pub const GATE_OUTPUT: usize = 3;

/// Everything the integer LSTM needs besides the tensors; computed by the compiler from
/// TFLite Micro's `UnidirectionalSequenceLstmPrepare` / `PrepareGateParametersInteger`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LstmParams {
    /// Batch size.
    pub batches: usize,
    /// Time steps per sequence.
    pub time_steps: usize,
    /// Input features per time step.
    pub input_size: usize,
    /// The state dimension (hidden and cell state per batch row).
    pub units: usize,
    /// Input and output are `[time, batch, ·]` rather than `[batch, time, ·]`.
    pub time_major: bool,
    /// Per gate, by [`GATE_INPUT`], [`GATE_FORGET`], [`GATE_CELL`], [`GATE_OUTPUT`].
    pub gates: [LstmGateParams; 4],
    /// `forget * cell -> cell`: `QuantizeMultiplier(2^-15 * cell_scale / cell_scale)`.
    pub forget_multiplier: i32,
    /// Exponent of `forget_multiplier` (positive: a left shift).
    pub forget_shift: i32,
    /// `input gate * cell gate -> cell`: `QuantizeMultiplier(2^-15 * 2^-15 / cell_scale)`.
    pub input_multiplier: i32,
    /// Exponent of `input_multiplier` (positive: a left shift).
    pub input_shift: i32,
    /// `tanh(cell) * output gate -> hidden`: `QuantizeMultiplier(2^-15 * 2^-15 / hidden_scale)`.
    pub hidden_multiplier: i32,
    /// Exponent of `hidden_multiplier` (positive: a left shift).
    pub hidden_shift: i32,
    /// The hidden state's (and output's) zero point.
    pub hidden_zero_point: i32,
    /// The quantized cell clip, when the model clips the cell state (`cell_clip > 0`).
    pub cell_clip: Option<i16>,
    /// The int16 tanh's input scaling of the cell state ([`cell_tanh_scaling`]).
    pub cell_tanh_multiplier: i32,
    /// Exponent of `cell_tanh_multiplier` (positive: a left shift).
    pub cell_tanh_shift: i32,
}

/// The shapes of an LSTM, whatever its numerics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LstmDims {
    /// Batch size.
    pub batches: usize,
    /// Time steps per sequence.
    pub time_steps: usize,
    /// Input features per time step.
    pub input_size: usize,
    /// Hidden units (the cell and output width).
    pub units: usize,
    /// Input and output are `[time, batch, ..]` (else `[batch, time, ..]`).
    pub time_major: bool,
}

/// One numerics of the LSTM cell: the steps TFLite Micro's `LstmStep` takes for one unit.
/// The loop nest over batch rows, time steps and units ([`scalar::sequence`]) is written
/// once for every implementation (int8 [`LstmParams`], float32 [`LstmF32Params`]).
pub trait LstmNumerics {
    /// Input, hidden state and output elements.
    type Act: Copy;
    /// Gate and cell state elements.
    type Cell: Copy;
    /// The constant tensors.
    type Weights<'a>;
    /// The shapes the loop nest walks.
    fn dims(&self) -> LstmDims;
    /// Gate `g`'s pre-activation for unit `u`: the input-side fully connected layer (with
    /// the gate's bias) plus the recurrent one on the previous hidden state.
    fn gate(&self, w: &Self::Weights<'_>, g: usize, u: usize, x: &[Self::Act], hidden: &[Self::Act]) -> Self::Cell;
    /// The input, forget and output gates' nonlinearity.
    fn sigmoid(&self, v: Self::Cell) -> Self::Cell;
    /// The cell gate's nonlinearity (the op's fused activation, TANH).
    fn tanh(&self, v: Self::Cell) -> Self::Cell;
    /// The new cell state from the forget gate `f`, the old cell `c`, the input gate `i`
    /// and the cell gate `g` (clipped as the model asks).
    fn update_cell(&self, f: Self::Cell, c: Self::Cell, i: Self::Cell, g: Self::Cell) -> Self::Cell;
    /// The new hidden state from the new cell and the output gate.
    fn hidden(&self, c: Self::Cell, o: Self::Cell) -> Self::Act;
}

/// float32 LSTM parameters: the shapes and the cell clip (`<= 0`: none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LstmF32Params {
    /// Batch size.
    pub batches: usize,
    /// Time steps per sequence.
    pub time_steps: usize,
    /// Input features per time step.
    pub input_size: usize,
    /// Hidden units (the cell and output width).
    pub units: usize,
    /// Input and output are `[time, batch, ..]` (else `[batch, time, ..]`).
    pub time_major: bool,
    /// The cell state is clamped to `[-cell_clip, cell_clip]` when positive.
    pub cell_clip: f32,
}

/// The constant tensors of a float32 LSTM, as the model stores them: per gate (by
/// [`GATE_INPUT`] ...) the input-side weights `[units, input_size]`, the recurrent weights
/// `[units, units]` and the bias `[units]`.
#[derive(Clone, Copy, Debug)]
pub struct LstmF32Weights<'a> {
    /// Per gate, the input-side weights `[units, input_size]`.
    pub input: [&'a [f32]; 4],
    /// Per gate, the recurrent weights `[units, units]`.
    pub recurrent: [&'a [f32]; 4],
    /// Per gate, the bias `[units]`.
    pub bias: [&'a [f32]; 4],
}

/// The float32 LSTM over the whole sequence (shapes as [`unidirectional_sequence_lstm_s8`];
/// `hidden` and `cell` carry over from one run to the next).
pub fn unidirectional_sequence_lstm_f32(
    params: &LstmF32Params,
    input: &[f32],
    weights: &LstmF32Weights<'_>,
    hidden: &mut [f32],
    cell: &mut [f32],
    output: &mut [f32],
) {
    let p = params;
    debug_assert_eq!(input.len(), p.batches * p.time_steps * p.input_size);
    debug_assert_eq!(output.len(), p.batches * p.time_steps * p.units);
    debug_assert_eq!(hidden.len(), p.batches * p.units);
    debug_assert_eq!(cell.len(), p.batches * p.units);
    debug_assert!(weights.bias.iter().all(|b| b.len() == p.units));
    debug_assert!(weights.input.iter().all(|w| w.len() == p.units * p.input_size));
    debug_assert!(weights.recurrent.iter().all(|w| w.len() == p.units * p.units));
    scalar::unidirectional_sequence_lstm_f32(params, input, weights, hidden, cell, output)
}

/// The constant parts of the LSTM: weights as the model stores them and biases with the
/// zero points folded in.
#[derive(Clone, Copy, Debug)]
pub struct LstmWeights<'a> {
    /// Per gate, `[units, input_size]`.
    pub input: [&'a [i8]; 4],
    /// Per gate, `[units, units]`.
    pub recurrent: [&'a [i8]; 4],
    /// `8 * units`: per gate `g`, at `2g * units` the input side's
    /// `bias + (-input_zero_point) * sum(row)` and at `(2g + 1) * units` the recurrent side's
    /// `(-hidden_zero_point) * sum(row)` ([`crate::prepare::fold_input_offset`]).
    pub bias: &'a [i32],
}

/// The constant parts of the 16x8 LSTM: int8 weights as the model stores them and the
/// int64 biases with the zero points folded in ([`LstmWeights::bias`]'s layout, exact in
/// 64 bits).
#[derive(Clone, Copy, Debug)]
pub struct LstmS16Weights<'a> {
    /// Per gate, `[units, input_size]`.
    pub input: [&'a [i8]; 4],
    /// Per gate, `[units, units]`.
    pub recurrent: [&'a [i8]; 4],
    /// `8 * units`, as [`LstmWeights::bias`] in int64.
    pub bias: &'a [i64],
}

/// The 16x8 LSTM's parameters: the 8x8 LSTM's (TFLite Micro computes them alike; the
/// hidden zero point is the int16 hidden state's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LstmS16Params {
    /// The shapes and fixed-point parameters.
    pub int: LstmParams,
}

/// The 16x8 LSTM over the whole sequence (shapes as [`unidirectional_sequence_lstm_s8`],
/// int16 input, hidden state and output).
pub fn unidirectional_sequence_lstm_s16(
    params: &LstmS16Params,
    input: &[i16],
    weights: &LstmS16Weights<'_>,
    hidden: &mut [i16],
    cell: &mut [i16],
    output: &mut [i16],
) {
    let p = &params.int;
    debug_assert_eq!(input.len(), p.batches * p.time_steps * p.input_size);
    debug_assert_eq!(output.len(), p.batches * p.time_steps * p.units);
    debug_assert_eq!(hidden.len(), p.batches * p.units);
    debug_assert_eq!(cell.len(), p.batches * p.units);
    debug_assert_eq!(weights.bias.len(), 8 * p.units);
    scalar::sequence(params, input, weights, hidden, cell, output)
}

/// The integer LSTM over the whole sequence. `input` is `[batches, time_steps,
/// input_size]` (or time-major), `output` the same with `units`; `hidden` (int8) and `cell`
/// (int16), `[batches, units]` each, are read and updated: they carry over from one run to
/// the next.
pub fn unidirectional_sequence_lstm_s8(
    params: &LstmParams,
    input: &[i8],
    weights: &LstmWeights<'_>,
    hidden: &mut [i8],
    cell: &mut [i16],
    output: &mut [i8],
) {
    let p = params;
    debug_assert_eq!(input.len(), p.batches * p.time_steps * p.input_size);
    debug_assert_eq!(output.len(), p.batches * p.time_steps * p.units);
    debug_assert_eq!(hidden.len(), p.batches * p.units);
    debug_assert_eq!(cell.len(), p.batches * p.units);
    debug_assert_eq!(weights.bias.len(), 8 * p.units);
    debug_assert!(weights.input.iter().all(|w| w.len() == p.units * p.input_size));
    debug_assert!(weights.recurrent.iter().all(|w| w.len() == p.units * p.units));
    scalar::unidirectional_sequence_lstm_s8(params, input, weights, hidden, cell, output)
}

/// TFLite `sigmoid_table_uint16` (`kernels/internal/common.h`): sigmoid(i / 24) in 0.16
/// fixed point, the table both int16 LUT nonlinearities interpolate. It is data the
/// reference kernels define (their values are not exactly any one rounding of the formula;
/// `tests::sigmoid_table_is_sigmoid` bounds them against it), so it is reproduced as is.
pub const SIGMOID_TABLE_U16: [u16; 256] = [
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
    43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
    51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
    61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
    63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
    64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
    65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
    65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
    65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
];

/// The input scaling `(multiplier, right_shift)` of TFLite's int16 LUT sigmoid / tanh,
/// `input = (x * multiplier + round) >> right_shift`, resolved at compile time from what
/// TFLite Micro passes them: `(input_multiplier, input_left_shift)`, where a zero
/// multiplier means `3 << input_left_shift` with no shift (the power-of-two case). `None`
/// when the C++ would overflow `int32` or shift by 32 or more.
pub fn lut_input_scaling(input_multiplier: i32, input_left_shift: i32) -> Option<(i32, i32)> {
    if !(0..=31).contains(&input_left_shift) {
        return None;
    }
    if input_multiplier == 0 {
        // |x| <= 2^15: the product fits in int32 while the multiplier is below 2^16.
        let m = 3i64 << input_left_shift;
        return (m < 1 << 16).then_some((m as i32, 0));
    }
    (input_multiplier > 0 && input_multiplier < 1 << 16).then_some((input_multiplier, input_left_shift))
}

/// The cell state's tanh scaling: TFLite Micro `lstm_internal::Tanh(cell_state_scale_power)`
/// computes `input_left_shift = 15 + power - 3`, and when that is negative negates it and
/// passes multiplier 3 (a right shift by it), else multiplier 0; then [`lut_input_scaling`].
pub fn cell_tanh_scaling(cell_state_scale_power: i32) -> Option<(i32, i32)> {
    let shift = (15 + cell_state_scale_power).checked_sub(3)?;
    if shift < 0 {
        lut_input_scaling(3, shift.checked_neg()?)
    } else {
        lut_input_scaling(0, shift)
    }
}

/// TFLite `reference_integer_ops::Logistic` on int16 with the input scaling of
/// [`lut_input_scaling`]: `sigmoid` in Q0.15 by linear interpolation in
/// [`SIGMOID_TABLE_U16`].
#[inline]
pub fn sigmoid_s16(x: i16, multiplier: i32, shift: i32) -> i16 {
    let round = if shift > 0 { 1i32 << (shift - 1) } else { 0 };
    let v = (x as i32 * multiplier + round) >> shift;
    let a = v.unsigned_abs();
    let uh = a >> 9;
    let r = if uh >= 255 {
        0x7FFFu32 << 10
    } else {
        let ua = SIGMOID_TABLE_U16[uh as usize] as u32;
        let ub = SIGMOID_TABLE_U16[uh as usize + 1] as u32;
        (ua << 9) + (a & 0x1ff) * (ub - ua)
    };
    let r = if v >= 0 { r + (1 << 9) } else { (1u32 << 25) - r + (1 << 9) - 1 };
    (r >> 10) as i16
}

/// TFLite `reference_integer_ops::Tanh` on int16 with the input scaling of
/// [`lut_input_scaling`]: `tanh(x) = 2 sigmoid(2x) - 1` in Q0.15 from [`SIGMOID_TABLE_U16`].
#[inline]
pub fn tanh_s16(x: i16, multiplier: i32, shift: i32) -> i16 {
    let round = if shift > 0 { 1i32 << (shift - 1) } else { 0 };
    let v = (x as i32 * multiplier + round) >> shift;
    let a = v.unsigned_abs();
    let uh = a >> 8;
    let r: i32 = if uh >= 255 {
        0xFFFF << 8
    } else {
        let ua = SIGMOID_TABLE_U16[uh as usize] as u32;
        let ub = SIGMOID_TABLE_U16[uh as usize + 1] as u32;
        ((ua << 8) + (a & 0xFF) * (ub - ua)) as i32
    };
    let r = if v >= 0 { r - (1 << 23) + (1 << 7) } else { -r + (1 << 23) + (1 << 7) - 1 };
    (r >> 8) as i16
}
