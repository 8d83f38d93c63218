//! Scalar reference implementations of QUANTIZE.

use super::{QuantizeParams, RequantizeParams};
use crate::quant::{f32_to_i32_saturating, multiply_by_quantized_multiplier, round_f32};

/// float32 -> int8 QUANTIZE: `round(x / scale) + zero_point`, saturated to int8.
pub fn quantize_f32_s8(p: &QuantizeParams, input: &[f32], output: &mut [i8]) {
    debug_assert_eq!(input.len(), output.len());
    for (o, &x) in output.iter_mut().zip(input) {
        let unclamped = f32_to_i32_saturating(round_f32(x / p.scale)).saturating_add(p.zero_point);
        *o = unclamped.max(i8::MIN as i32).min(i8::MAX as i32) as i8;
    }
}

/// float32 -> int16 QUANTIZE: `round(x / scale) + zero_point`, saturated to int16.
pub fn quantize_f32_s16(p: &QuantizeParams, input: &[f32], output: &mut [i16]) {
    debug_assert_eq!(input.len(), output.len());
    for (o, &x) in output.iter_mut().zip(input) {
        let unclamped = f32_to_i32_saturating(round_f32(x / p.scale)).saturating_add(p.zero_point);
        *o = unclamped.max(i16::MIN as i32).min(i16::MAX as i32) as i16;
    }
}

#[inline(always)]
fn requantize_one(p: &RequantizeParams, x: i8) -> i8 {
    let v = multiply_by_quantized_multiplier(x as i32 - p.input_zero_point, p.multiplier, p.shift)
        .wrapping_add(p.output_zero_point);
    v.max(i8::MIN as i32).min(i8::MAX as i32) as i8
}

/// int8 -> int8 QUANTIZE: `x - input_zero_point` rescaled by the multiplier, plus the output zero point, saturated.
pub fn quantize_s8_s8(p: &RequantizeParams, input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(input.len(), output.len());
    for (o, &x) in output.iter_mut().zip(input) {
        *o = requantize_one(p, x);
    }
}

/// [`quantize_s8_s8`] in place.
pub fn quantize_s8_s8_in_place(p: &RequantizeParams, data: &mut [i8]) {
    for x in data.iter_mut() {
        *x = requantize_one(p, *x);
    }
}

/// `Requantize`'s element step for any input/output width: `clamp(MBQM(x - zp_in) + zp_out)`.
#[inline(always)]
pub fn requantize_i32(p: &RequantizeParams, x: i32, min: i32, max: i32) -> i32 {
    let v = multiply_by_quantized_multiplier(x.wrapping_sub(p.input_zero_point), p.multiplier, p.shift)
        .wrapping_add(p.output_zero_point);
    v.max(min).min(max)
}
