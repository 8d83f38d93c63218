//! DEQUANTIZE, int8 -> float32. Mirrors TFLite Micro `dequantize.cc` +
//! `reference_ops::Dequantize`: `(float)((double)scale * (x - zero_point))`.
//!
//! The kernel multiplies in f32 instead, which gives the same bits: `x - zero_point` is
//! an integer of at most 9 bits, so the f64 product of it and the 24-bit f32 scale is
//! exact and TFLite's single rounding to f32 equals the correctly rounded f32 product
//! (tested exhaustively below). This avoids soft-float f64 on Cortex-M.

pub mod scalar;
#[cfg(test)]
mod tests;

/// Parameters of an int8 -> float32 DEQUANTIZE: the input's quantization.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DequantizeParams {
    pub scale: f32,
    pub zero_point: i32,
}

/// int8 -> float32.
#[inline]
pub fn dequantize_s8_f32(params: &DequantizeParams, input: &[i8], output: &mut [f32]) {
    scalar::dequantize_s8_f32(params, input, output)
}
