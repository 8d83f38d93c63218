//! PRELU, int8 and 16x8 (int16 input and output, int8 alpha), and float32: `x >= 0 ? x :
//! x * alpha` with a (broadcast) alpha tensor. Mirrors TFLite
//! Micro `prelu_common.cc` (`CalculatePreluParams`) and `reference/prelu.h`
//! (`BroadcastPrelu4DSlow` / `Prelu`): two requantizations, one for the identity branch
//! and one for the `input * alpha` product.

use crate::kernels::nd::Broadcast;
#[cfg(feature = "prepare")]
use crate::prepare::quantize_multiplier;
#[cfg(feature = "prepare")]
use crate::quant::QuantParams;

pub mod scalar;
#[cfg(test)]
mod tests;

/// Precomputed parameters of an int8 or 16x8 PRELU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreluParams<'a> {
    /// `-input.zero_point`.
    pub input_offset: i32,
    /// `-alpha.zero_point`.
    pub alpha_offset: i32,
    /// `output.zero_point`.
    pub output_offset: i32,
    /// `QuantizeMultiplier(s_in / s_out)`, for `x >= 0`.
    pub output_multiplier_1: i32,
    /// Exponent of `output_multiplier_1` (positive: a left shift).
    pub output_shift_1: i32,
    /// `QuantizeMultiplier(s_in * s_alpha / s_out)`, for `x < 0`.
    pub output_multiplier_2: i32,
    /// Exponent of `output_multiplier_2` (positive: a left shift).
    pub output_shift_2: i32,
    /// Operand 1 is the input, operand 2 the alpha tensor.
    pub broadcast: Broadcast<'a>,
}

/// TFLite Micro `CalculatePreluParams` for int8 and int16 (f64 math). `None` on non-finite
/// scales.
#[cfg(feature = "prepare")]
pub fn prepare_prelu<'a>(
    input: QuantParams,
    alpha: QuantParams,
    output: QuantParams,
    broadcast: Broadcast<'a>,
) -> Option<PreluParams<'a>> {
    let real_multiplier_1 = input.scale as f64 / output.scale as f64;
    let real_multiplier_2 = input.scale as f64 * alpha.scale as f64 / output.scale as f64;
    let (output_multiplier_1, output_shift_1) = quantize_multiplier(real_multiplier_1)?;
    let (output_multiplier_2, output_shift_2) = quantize_multiplier(real_multiplier_2)?;
    Some(PreluParams {
        input_offset: -input.zero_point,
        alpha_offset: -alpha.zero_point,
        output_offset: output.zero_point,
        output_multiplier_1,
        output_shift_1,
        output_multiplier_2,
        output_shift_2,
        broadcast,
    })
}

/// int8 PRELU; `alpha` is broadcast against `input` per `params.broadcast`.
#[inline]
pub fn prelu_s8(params: &PreluParams, input: &[i8], alpha: &[i8], output: &mut [i8]) {
    scalar::prelu_s8(params, input, alpha, output)
}

/// [`prelu_s8`] with the output written over `input`.
#[inline]
pub fn prelu_s8_in_place(params: &PreluParams, input_output: &mut [i8], alpha: &[i8]) {
    scalar::prelu_s8_in_place(params, input_output, alpha)
}

/// 16x8 PRELU: int16 `input` and output, int8 `alpha` broadcast per `params.broadcast`.
#[inline]
pub fn prelu_s16(params: &PreluParams, input: &[i16], alpha: &[i8], output: &mut [i16]) {
    scalar::prelu_s16(params, input, alpha, output)
}

/// [`prelu_s16`] with the output written over `input`.
#[inline]
pub fn prelu_s16_in_place(params: &PreluParams, input_output: &mut [i16], alpha: &[i8]) {
    scalar::prelu_s16_in_place(params, input_output, alpha)
}

/// float32 PRELU (TFLite Micro `BroadcastPrelu4DSlowFloat`: `x >= 0 ? x : x * alpha`),
/// `alpha` broadcast per `broadcast` (operand 2).
#[inline]
pub fn prelu_f32(broadcast: &Broadcast, input: &[f32], alpha: &[f32], output: &mut [f32]) {
    crate::kernels::nd::broadcast_binary(broadcast, input, alpha, output, prelu_f32_one);
}

/// [`prelu_f32`] with the output written over `input_output` (which must have the output's
/// shape; `alpha` may broadcast).
#[inline]
pub fn prelu_f32_in_place(broadcast: &Broadcast, input_output: &mut [f32], alpha: &[f32]) {
    crate::kernels::nd::broadcast_binary_in_place(broadcast, input_output, alpha, prelu_f32_one);
}

/// One float32 PRELU element: `x >= 0 ? x : x * alpha`.
#[inline(always)]
fn prelu_f32_one(x: f32, a: f32) -> f32 {
    if x >= 0.0 {
        x
    } else {
        x * a
    }
}
