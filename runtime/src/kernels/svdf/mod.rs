//! SVDF, int8 input/output with int8 feature weights, int8 time weights and an int8
//! variable state (TFLite Micro's "int8 SVDF" layout).
//!
//! Bit-exact with TFLite Micro `svdf_common.cc` (`EvalIntegerSvdfReference<int8_t>`):
//! the state (per batch `num_filters` rows of `memory_size`) is shifted left by one; each
//! filter's dot product with the input (minus its zero point) is rescaled by the first
//! multiplier, clamped to int8 and stored, plus the state's zero point (wrapping, as the
//! C++ narrowing store does), into the row's last slot; each unit's output is its bias
//! plus the `rank` filters' dot products of state (minus its zero point) with the time
//! weights, rescaled by the second multiplier, plus the output zero point, clamped to
//! int8. TFLite Micro applies no fused activation on this path, and neither do we.
//!
//! TFLite Micro keeps the per-filter sums in a scratch buffer; the sums are plain wrapping
//! int32 additions, so summing each unit's filters directly gives the same bits without
//! one.
//!
//! float32 ([`svdf_f32`]) is TFLite Micro's `EvalFloatSvdfReference`, bit for bit: the
//! whole state buffer shifted left by one element, each filter's dot product with the input
//! (from 0, in input order) into its row's last slot, then per unit its bias (or 0) plus,
//! filter by filter, the time dot product (from 0, in memory order), then the fused
//! activation (`ActivationValFloat`). Again no scratch: adding each filter's finished dot
//! product straight into the unit's output is the order TFLite Micro adds its scratch.

pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything SVDF needs besides the tensors; computed by the compiler from TFLite Micro's
/// `PrepareSvdf`.
#[derive(Clone, Copy, Debug)]
pub struct SvdfParams {
    /// Batch size.
    pub batches: usize,
    /// Input features per batch.
    pub input_size: usize,
    /// Rows of the feature and time weights (`num_units * rank`).
    pub num_filters: usize,
    /// Output units per batch.
    pub num_units: usize,
    /// `num_filters / num_units`.
    pub rank: usize,
    /// Columns of the time weights: the state keeps this many steps per filter.
    pub memory_size: usize,
    /// The input's zero point.
    pub input_zero_point: i32,
    /// The activation state's zero point.
    pub state_zero_point: i32,
    /// The output's zero point.
    pub output_zero_point: i32,
    /// `QuantizeMultiplier(float(input_scale * feature_scale / state_scale))`.
    pub feature_multiplier: i32,
    /// Exponent of `feature_multiplier` (positive: a left shift).
    pub feature_shift: i32,
    /// `QuantizeMultiplier(float(state_scale * time_scale / output_scale))`.
    pub output_multiplier: i32,
    /// Exponent of `output_multiplier` (positive: a left shift).
    pub output_shift: i32,
}

/// The fused activation of a float32 SVDF: TFLite Micro's `ActivationValFloat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SvdfActivation {
    /// No activation: `a`.
    None,
    /// `max(0, a)` as `0 > a ? 0 : a`.
    Relu,
    /// `max(-1, min(a, 1))`.
    ReluN1To1,
    /// `max(0, min(a, 6))`.
    Relu6,
    /// `std::tanh(a)` ([`crate::math::tanhf`]).
    Tanh,
    /// `std::signbit(a)`: 1 for a negative sign bit, else 0.
    SignBit,
}

/// float32 SVDF: the shapes and the fused activation.
#[derive(Clone, Copy, Debug)]
pub struct SvdfF32Params {
    /// Batch size.
    pub batches: usize,
    /// Input features per batch.
    pub input_size: usize,
    /// Rows of the feature and time weights (`num_units * rank`).
    pub num_filters: usize,
    /// Output units per batch.
    pub num_units: usize,
    /// `num_filters / num_units`.
    pub rank: usize,
    /// Columns of the time weights: the state keeps this many steps per filter.
    pub memory_size: usize,
    /// The fused activation applied to each output.
    pub activation: SvdfActivation,
}

/// float32 SVDF (TFLite Micro `EvalFloatSvdfReference`); shapes as [`svdf_s8`], `bias`
/// empty when the model has none.
pub fn svdf_f32(
    params: &SvdfF32Params,
    input: &[f32],
    weights_feature: &[f32],
    weights_time: &[f32],
    bias: &[f32],
    state: &mut [f32],
    output: &mut [f32],
) {
    let p = params;
    debug_assert!(p.rank > 0 && p.num_units * p.rank == p.num_filters && p.memory_size > 0);
    debug_assert_eq!(input.len(), p.batches * p.input_size);
    debug_assert_eq!(weights_feature.len(), p.num_filters * p.input_size);
    debug_assert_eq!(weights_time.len(), p.num_filters * p.memory_size);
    debug_assert!(bias.is_empty() || bias.len() == p.num_units);
    debug_assert_eq!(state.len(), p.batches * p.num_filters * p.memory_size);
    debug_assert_eq!(output.len(), p.batches * p.num_units);
    scalar::svdf_f32(params, input, weights_feature, weights_time, bias, state, output)
}

/// SVDF with int8 time weights and int8 state. `weights_feature` is
/// `[num_filters, input_size]`, `weights_time` `[num_filters, memory_size]`, `bias`
/// `[num_units]`, `state` `[batches, num_filters * memory_size]` (read and updated: it
/// carries over from one run to the next), `output` `[batches, num_units]`.
pub fn svdf_s8(
    params: &SvdfParams,
    input: &[i8],
    weights_feature: &[i8],
    weights_time: &[i8],
    bias: &[i32],
    state: &mut [i8],
    output: &mut [i8],
) {
    let p = params;
    debug_assert!(p.rank > 0 && p.num_units * p.rank == p.num_filters && p.memory_size > 0);
    debug_assert_eq!(input.len(), p.batches * p.input_size);
    debug_assert_eq!(weights_feature.len(), p.num_filters * p.input_size);
    debug_assert_eq!(weights_time.len(), p.num_filters * p.memory_size);
    debug_assert_eq!(bias.len(), p.num_units);
    debug_assert_eq!(state.len(), p.batches * p.num_filters * p.memory_size);
    debug_assert_eq!(output.len(), p.batches * p.num_units);
    scalar::svdf_s8(params, input, weights_feature, weights_time, bias, state, output)
}
