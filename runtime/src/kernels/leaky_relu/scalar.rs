//! Scalar reference implementation of int8 and int16 LEAKY_RELU (`QuantizeLeakyRelu<T>`).

use super::LeakyReluParams;
use crate::quant::multiply_by_quantized_multiplier;

#[inline(always)]
fn leaky_one(p: &LeakyReluParams, x: i8) -> i8 {
    leaky_q(p, x as i32, i8::MIN as i32, i8::MAX as i32) as i8
}

/// `QuantizeLeakyRelu` on one value, clamped to `lo..=hi` (the element type's range).
#[inline(always)]
fn leaky_q(p: &LeakyReluParams, x: i32, lo: i32, hi: i32) -> i32 {
    let is_alpha_negative = p.output_multiplier_alpha < 0;
    let safe_alpha_multiplier = p.output_multiplier_alpha.wrapping_abs();
    let input_value = x - p.input_zero_point;
    let mut unclamped = p.output_zero_point;
    if input_value >= 0 {
        unclamped = unclamped.wrapping_add(multiply_by_quantized_multiplier(
            input_value,
            p.output_multiplier_identity,
            p.output_shift_identity,
        ));
    } else {
        let scaled = multiply_by_quantized_multiplier(input_value, safe_alpha_multiplier, p.output_shift_alpha);
        unclamped = unclamped.wrapping_add(if is_alpha_negative { scaled.wrapping_neg() } else { scaled });
    }
    unclamped.max(lo).min(hi)
}

/// int8 LEAKY_RELU: non-negative inputs rescaled by the identity multiplier, negative ones by the alpha multiplier, saturated to int8.
pub fn leaky_relu_s8(p: &LeakyReluParams, input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(input.len(), output.len());
    for (o, &x) in output.iter_mut().zip(input) {
        *o = leaky_one(p, x);
    }
}

/// [`leaky_relu_s8`] in place.
pub fn leaky_relu_s8_in_place(p: &LeakyReluParams, data: &mut [i8]) {
    for x in data.iter_mut() {
        *x = leaky_one(p, *x);
    }
}

/// int16 LEAKY_RELU (16x8): the int8 arithmetic saturated to int16.
pub fn leaky_relu_s16(p: &LeakyReluParams, input: &[i16], output: &mut [i16]) {
    debug_assert_eq!(input.len(), output.len());
    for (o, &x) in output.iter_mut().zip(input) {
        *o = leaky_q(p, x as i32, i16::MIN as i32, i16::MAX as i32) as i16;
    }
}

/// [`leaky_relu_s16`] in place.
pub fn leaky_relu_s16_in_place(p: &LeakyReluParams, data: &mut [i16]) {
    for x in data.iter_mut() {
        *x = leaky_q(p, *x as i32, i16::MIN as i32, i16::MAX as i32) as i16;
    }
}
