//! DEQUANTIZE, int8, int16 and uint8 -> float32 (TFLite Micro's `DequantizeEval` types). Mirrors TFLite Micro `dequantize.cc` +
//! `reference_ops::Dequantize`: `(float)((double)scale * (x - zero_point))`.
//!
//! The kernel multiplies in f32 instead, which gives the same bits: `x - zero_point` is
//! an integer of at most 9 bits (17 for int16), so the f64 product of it and the 24-bit f32 scale is
//! exact and TFLite's single rounding to f32 equals the correctly rounded f32 product
//! (tested exhaustively below). This avoids soft-float f64 on Cortex-M.

pub mod scalar;
#[cfg(test)]
mod tests;

/// Parameters of an int8 -> float32 DEQUANTIZE: the input's quantization.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DequantizeParams {
    /// The input's scale: one quantization step, in real units.
    pub scale: f32,
    /// The input's zero point (the quantized value of real 0).
    pub zero_point: i32,
}

/// int8 -> float32.
#[inline]
pub fn dequantize_s8_f32(params: &DequantizeParams, input: &[i8], output: &mut [f32]) {
    scalar::dequantize_s8_f32(params, input, output)
}

/// int16 -> float32 (the same step; `x - zero_point` has at most 17 bits, so the f32
/// product is still TFLite's double product rounded once).
#[inline]
pub fn dequantize_s16_f32(params: &DequantizeParams, input: &[i16], output: &mut [f32]) {
    scalar::dequantize_s16_f32(params, input, output)
}

/// uint8 -> float32 (legacy asymmetric uint8; the same step).
#[inline]
pub fn dequantize_u8_f32(params: &DequantizeParams, input: &[u8], output: &mut [f32]) {
    scalar::dequantize_u8_f32(params, input, output)
}
