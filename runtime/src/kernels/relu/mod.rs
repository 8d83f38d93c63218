//! RELU, RELU6 and RELU_N1_TO_1, int8, requantizing. One kernel for all three: TFLite
//! Micro's `ReluQuantized` (`activations.h`) and TFLite's `QuantizedReluX` +
//! `reference_ops::ReluX` compute `clamp(zp_out + MBQM(x - zp_in, m, s), lo, hi)`.
//!
//! RELU6 follows TFLite, not TFLite Micro: TFLM's int8 `Relu6Quantized` clamps in the
//! input's quantization and ignores the output's (wrong when they differ; see
//! `ops/README.md`). When input and output quantization are equal both agree.
//! TFLM has no RELU_N1_TO_1; TFLite's `QuantizedReluX(-1, 1)` is used.

use crate::kernels::nd::{map, map_in_place};
#[cfg(feature = "prepare")]
use crate::prepare::quantize_multiplier;
#[cfg(feature = "prepare")]
use crate::quant::QuantParams;
#[cfg(feature = "prepare")]
use crate::quant::round_f32;

pub mod s16;
pub mod scalar;
#[cfg(test)]
mod tests;

/// Precomputed parameters of an int8 RELU / RELU6 / RELU_N1_TO_1 (`ReluParams`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReluParams {
    /// `input.zero_point` (subtracted).
    pub input_zero_point: i32,
    /// `output.zero_point` (added).
    pub output_zero_point: i32,
    /// `QuantizeMultiplier(s_in / s_out)` (the division in f32).
    pub output_multiplier: i32,
    /// Exponent of `output_multiplier` (positive: a left shift).
    pub output_shift: i32,
    /// The activation bounds in the output's quantization, within `-128..=127`.
    pub activation_min: i32,
    /// Upper activation bound in the output's quantization, `>= activation_min`.
    pub activation_max: i32,
}

/// TFLite `CalculateReluOpData` / `QuantizedReluX` for int8: `act_max = None` means
/// +infinity (plain RELU). `None` on non-finite scales.
#[cfg(feature = "prepare")]
pub fn prepare_relu_x(input: QuantParams, output: QuantParams, act_min: f32, act_max: Option<f32>) -> Option<ReluParams> {
    let real_multiplier = (input.scale / output.scale) as f64;
    let (output_multiplier, output_shift) = quantize_multiplier(real_multiplier)?;
    let q = |f: f32| output.zero_point.wrapping_add(round_f32(f / output.scale) as i32);
    let activation_min = (i8::MIN as i32).max(q(act_min));
    let activation_max = match act_max {
        None => i8::MAX as i32,
        Some(m) => (i8::MAX as i32).min(q(m)),
    };
    Some(ReluParams {
        input_zero_point: input.zero_point,
        output_zero_point: output.zero_point,
        output_multiplier,
        output_shift,
        activation_min,
        activation_max,
    })
}

/// RELU: `[0, inf)`.
#[cfg(feature = "prepare")]
pub fn prepare_relu(input: QuantParams, output: QuantParams) -> Option<ReluParams> {
    prepare_relu_x(input, output, 0.0, None)
}

/// RELU6: `[0, 6]`.
#[cfg(feature = "prepare")]
pub fn prepare_relu6(input: QuantParams, output: QuantParams) -> Option<ReluParams> {
    prepare_relu_x(input, output, 0.0, Some(6.0))
}

/// RELU_N1_TO_1: `[-1, 1]`.
#[cfg(feature = "prepare")]
pub fn prepare_relu_n1_to_1(input: QuantParams, output: QuantParams) -> Option<ReluParams> {
    prepare_relu_x(input, output, -1.0, Some(1.0))
}

/// int8 RELU / RELU6 / RELU_N1_TO_1 (per `params`). `input.len() == output.len()`.
#[inline]
pub fn relu_s8(params: &ReluParams, input: &[i8], output: &mut [i8]) {
    scalar::relu_s8(params, input, output)
}

/// [`relu_s8`] in place.
#[inline]
pub fn relu_s8_in_place(params: &ReluParams, data: &mut [i8]) {
    scalar::relu_s8_in_place(params, data)
}

/// One float32 RELU element (TFLite Micro `ReluFloat`: `x < 0 ? 0 : x`).
#[inline(always)]
fn relu_f32_one(x: f32) -> f32 {
    if x < 0.0 {
        0.0
    } else {
        x
    }
}

/// One float32 RELU_N1_TO_1 element (TFLite's `reference_ops::Relu1`: `x > 1 ? 1 : x < -1 ?
/// -1 : x`).
#[inline(always)]
#[allow(clippy::manual_clamp)] // mirrors TFLite's comparison chain literally
fn relu_n1_to_1_f32_one(x: f32) -> f32 {
    if x > 1.0 {
        1.0
    } else if x < -1.0 {
        -1.0
    } else {
        x
    }
}

/// One float32 RELU6 element (TFLite Micro `Relu6Float`: `x > 6 ? 6 : x < 0 ? 0 : x`).
#[inline(always)]
#[allow(clippy::manual_clamp)] // mirrors TFLM's comparison chain literally
fn relu6_f32_one(x: f32) -> f32 {
    if x > 6.0 {
        6.0
    } else if x < 0.0 {
        0.0
    } else {
        x
    }
}

/// float32 RELU (TFLite Micro `ReluFloat`: `x < 0 ? 0 : x`).
#[inline]
pub fn relu_f32(input: &[f32], output: &mut [f32]) {
    map(input, output, relu_f32_one)
}

/// [`relu_f32`] in place.
#[inline]
pub fn relu_f32_in_place(data: &mut [f32]) {
    map_in_place(data, relu_f32_one)
}

/// float32 RELU_N1_TO_1 (TFLite's `reference_ops::Relu1`, which TFLite runs for float
/// tensors; TFLite Micro has no RELU_N1_TO_1: `x > 1 ? 1 : x < -1 ? -1 : x`).
#[inline]
pub fn relu_n1_to_1_f32(input: &[f32], output: &mut [f32]) {
    map(input, output, relu_n1_to_1_f32_one)
}

/// [`relu_n1_to_1_f32`] in place.
#[inline]
pub fn relu_n1_to_1_f32_in_place(data: &mut [f32]) {
    map_in_place(data, relu_n1_to_1_f32_one)
}

/// float32 RELU6 (TFLite Micro `Relu6Float`: `x > 6 ? 6 : x < 0 ? 0 : x`).
#[inline]
pub fn relu6_f32(input: &[f32], output: &mut [f32]) {
    map(input, output, relu6_f32_one)
}

/// [`relu6_f32`] in place.
#[inline]
pub fn relu6_f32_in_place(data: &mut [f32]) {
    map_in_place(data, relu6_f32_one)
}

pub use s16::{relu_s16, relu_s16_in_place};
#[cfg(feature = "prepare")]
pub use s16::prepare_relu_x_s16;
