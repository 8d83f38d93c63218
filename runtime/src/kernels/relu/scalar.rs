//! Scalar reference implementation of int8 RELU / RELU6 / RELU_N1_TO_1.

use super::ReluParams;
use crate::quant::multiply_by_quantized_multiplier;

#[inline(always)]
fn relu_one(p: &ReluParams, x: i8) -> i8 {
    let v = p
        .output_zero_point
        .wrapping_add(multiply_by_quantized_multiplier(x as i32 - p.input_zero_point, p.output_multiplier, p.output_shift));
    v.max(p.activation_min).min(p.activation_max) as i8
}

/// int8 RELU / RELU6 / RELU_N1_TO_1: `x - input_zero_point` rescaled to the output, offset, clamped to the activation bounds.
pub fn relu_s8(p: &ReluParams, input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(input.len(), output.len());
    for (o, &x) in output.iter_mut().zip(input) {
        *o = relu_one(p, x);
    }
}

/// [`relu_s8`] in place.
pub fn relu_s8_in_place(p: &ReluParams, data: &mut [i8]) {
    for x in data.iter_mut() {
        *x = relu_one(p, *x);
    }
}
