//! Scalar reference implementation of int8 PRELU.

use super::PreluParams;
use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place};
use crate::quant::multiply_by_quantized_multiplier;

#[inline(always)]
fn prelu_one(p: &PreluParams, x: i8, a: i8) -> i8 {
    let input_value = p.input_offset + x as i32;
    let output_value = if input_value >= 0 {
        multiply_by_quantized_multiplier(input_value, p.output_multiplier_1, p.output_shift_1)
    } else {
        let alpha_value = p.alpha_offset + a as i32;
        multiply_by_quantized_multiplier(input_value * alpha_value, p.output_multiplier_2, p.output_shift_2)
    };
    output_value.wrapping_add(p.output_offset).max(i8::MIN as i32).min(i8::MAX as i32) as i8
}

/// int8 PRELU with `alpha` broadcast against the input: `x` rescaled where `x >= 0`, `x * alpha` rescaled where `x < 0`, saturated to int8.
pub fn prelu_s8(p: &PreluParams, input: &[i8], alpha: &[i8], output: &mut [i8]) {
    broadcast_binary(&p.broadcast, input, alpha, output, |x, a| prelu_one(p, x, a));
}

/// [`prelu_s8`] writing into the input, which has the output's shape.
pub fn prelu_s8_in_place(p: &PreluParams, inout: &mut [i8], alpha: &[i8]) {
    broadcast_binary_in_place(&p.broadcast, inout, alpha, |x, a| prelu_one(p, x, a));
}
