//! QUANTIZE. Mirrors TFLite Micro `quantize_common.cc`:
//! - float32 -> int8: `reference_ops::AffineQuantize`, i.e.
//!   `clamp((int32)roundf(x / scale) + zero_point)`, the division in f32;
//! - int8 -> int8 (requantization): `reference_ops::Requantize`, i.e.
//!   `clamp(MBQM(x - zp_in, m, s) + zp_out)` with `m, s = QuantizeMultiplier(s_in / s_out)`
//!   (f64). TFLite's XOR-0x80 shortcut exists only for int8 <-> uint8, so int8 -> int8
//!   always takes the general path (which is exact when scales match: m = 2^30, s = 1).

use crate::prepare_b::{quantize_multiplier, QuantParams};

pub mod scalar;
#[cfg(test)]
mod tests;

/// Parameters of a float32 -> int8 QUANTIZE: the output's quantization.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuantizeParams {
    /// Output scale (f32, as stored in the model; TFLite widens it to double and back).
    pub scale: f32,
    pub zero_point: i32,
}

/// Parameters of an int8 -> int8 QUANTIZE (requantization).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequantizeParams {
    pub input_zero_point: i32,
    pub output_zero_point: i32,
    /// `QuantizeMultiplier(s_in / s_out)`.
    pub multiplier: i32,
    pub shift: i32,
}

/// TFLite Micro `PrepareQuantizeReference` for int8 -> int8.
pub fn prepare_requantize(input: QuantParams, output: QuantParams) -> RequantizeParams {
    let effective_scale = input.scale as f64 / output.scale as f64;
    let (multiplier, shift) = quantize_multiplier(effective_scale);
    RequantizeParams { input_zero_point: input.zero_point, output_zero_point: output.zero_point, multiplier, shift }
}

/// float32 -> int8. Out-of-int32-range and NaN inputs are undefined behaviour in TFLite's
/// `static_cast<int32_t>`; here they saturate (NaN -> zero point), as Arm hardware does.
#[inline]
pub fn quantize_f32_s8(params: &QuantizeParams, input: &[f32], output: &mut [i8]) {
    scalar::quantize_f32_s8(params, input, output)
}

/// int8 -> int8 requantization.
#[inline]
pub fn quantize_s8_s8(params: &RequantizeParams, input: &[i8], output: &mut [i8]) {
    scalar::quantize_s8_s8(params, input, output)
}
