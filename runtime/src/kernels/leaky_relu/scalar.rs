//! Scalar reference implementation of int8 LEAKY_RELU.

use super::LeakyReluParams;
use crate::quant::multiply_by_quantized_multiplier;

#[inline(always)]
fn leaky_one(p: &LeakyReluParams, x: i8) -> i8 {
    let is_alpha_negative = p.output_multiplier_alpha < 0;
    let safe_alpha_multiplier = p.output_multiplier_alpha.wrapping_abs();
    let input_value = x as i32 - p.input_zero_point;
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
    unclamped.max(i8::MIN as i32).min(i8::MAX as i32) as i8
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
