//! LEAKY_RELU, int8 and int16 (16x8: TFLite Micro's `QuantizeLeakyRelu<int16_t>`, the same
//! parameters and arithmetic saturated to int16). Mirrors TFLite Micro `leaky_relu_common.cc`
//! (`CalculateOpDataLeakyRelu`) and `reference/leaky_relu.h` (`QuantizeLeakyRelu`):
//! an identity requantization for `x >= zp` and an alpha one for `x < zp`.

#[cfg(feature = "prepare")]
use crate::prepare::quantize_multiplier;
#[cfg(feature = "prepare")]
use crate::quant::QuantParams;

pub mod scalar;
#[cfg(test)]
mod tests;

/// Precomputed parameters of an int8 LEAKY_RELU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeakyReluParams {
    /// `input.zero_point` (subtracted).
    pub input_zero_point: i32,
    /// `output.zero_point` (added).
    pub output_zero_point: i32,
    /// `QuantizeMultiplier(s_in * alpha / s_out)` (f32 math); negative for a negative alpha.
    pub output_multiplier_alpha: i32,
    /// Exponent of `output_multiplier_alpha` (positive: a left shift).
    pub output_shift_alpha: i32,
    /// `QuantizeMultiplier(s_in / s_out)` (f32 division).
    pub output_multiplier_identity: i32,
    /// Exponent of `output_multiplier_identity` (positive: a left shift).
    pub output_shift_identity: i32,
}

/// TFLite Micro `CalculateOpDataLeakyRelu` for int8. `None` on non-finite values.
#[cfg(feature = "prepare")]
pub fn prepare_leaky_relu(input: QuantParams, output: QuantParams, alpha: f32) -> Option<LeakyReluParams> {
    let alpha_multiplier = (input.scale * alpha / output.scale) as f64;
    let (output_multiplier_alpha, output_shift_alpha) = quantize_multiplier(alpha_multiplier)?;
    let identity_multiplier = (input.scale / output.scale) as f64;
    let (output_multiplier_identity, output_shift_identity) = quantize_multiplier(identity_multiplier)?;
    Some(LeakyReluParams {
        input_zero_point: input.zero_point,
        output_zero_point: output.zero_point,
        output_multiplier_alpha,
        output_shift_alpha,
        output_multiplier_identity,
        output_shift_identity,
    })
}

/// int8 LEAKY_RELU. `input.len() == output.len()`.
#[inline]
pub fn leaky_relu_s8(params: &LeakyReluParams, input: &[i8], output: &mut [i8]) {
    scalar::leaky_relu_s8(params, input, output)
}

/// [`leaky_relu_s8`] in place.
#[inline]
pub fn leaky_relu_s8_in_place(params: &LeakyReluParams, data: &mut [i8]) {
    scalar::leaky_relu_s8_in_place(params, data)
}

/// int16 LEAKY_RELU (the parameters of [`prepare_leaky_relu`]). `input.len() == output.len()`.
#[inline]
pub fn leaky_relu_s16(params: &LeakyReluParams, input: &[i16], output: &mut [i16]) {
    scalar::leaky_relu_s16(params, input, output)
}

/// [`leaky_relu_s16`] in place.
#[inline]
pub fn leaky_relu_s16_in_place(params: &LeakyReluParams, data: &mut [i16]) {
    scalar::leaky_relu_s16_in_place(params, data)
}

/// float32 LEAKY_RELU (`reference_ops::LeakyRelu`: `x > 0 ? x : x * alpha`).
#[inline]
pub fn leaky_relu_f32(alpha: f32, input: &[f32], output: &mut [f32]) {
    crate::kernels::nd::map(input, output, |x| if x > 0.0 { x } else { x * alpha })
}

/// [`leaky_relu_f32`] in place.
#[inline]
pub fn leaky_relu_f32_in_place(alpha: f32, data: &mut [f32]) {
    crate::kernels::nd::map_in_place(data, |x| if x > 0.0 { x } else { x * alpha })
}
