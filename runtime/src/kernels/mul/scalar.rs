//! Scalar reference implementation of int8 MUL.

use super::MulParams;
use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place};
use crate::quant::multiply_by_quantized_multiplier;

#[inline(always)]
fn mul_one(p: &MulParams, x: i8, y: i8) -> i8 {
    let input1_val = p.input1_offset + x as i32;
    let input2_val = p.input2_offset + y as i32;
    let unclamped = p
        .output_offset
        .wrapping_add(multiply_by_quantized_multiplier(input1_val * input2_val, p.output_multiplier, p.output_shift));
    unclamped.max(p.activation_min).min(p.activation_max) as i8
}

/// int8 MUL with broadcasting: `(input1 - zp1) * (input2 - zp2)` rescaled to the output, offset and clamped.
pub fn mul_s8(p: &MulParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    debug_assert!(p.activation_min <= p.activation_max);
    broadcast_binary(&p.broadcast, input1, input2, output, |x, y| mul_one(p, x, y));
}

/// [`mul_s8`] writing into the first operand, which has the output's shape.
pub fn mul_s8_in_place(p: &MulParams, inout: &mut [i8], input2: &[i8]) {
    debug_assert!(p.activation_min <= p.activation_max);
    broadcast_binary_in_place(&p.broadcast, inout, input2, |x, y| mul_one(p, x, y));
}
