//! Scalar reference implementation of int8 and 16x8 PRELU (TFLite's
//! `reference_ops::BroadcastPrelu4DSlow<T, U>` with `T` int8 or int16 and `U` int8).

use super::PreluParams;
use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place};
use crate::quant::multiply_by_quantized_multiplier;

/// One element before the clamp to the output type: the identity branch or the
/// `input * alpha` branch requantized, plus the output zero point.
#[inline(always)]
fn prelu_value(p: &PreluParams, x: i32, a: i8) -> i32 {
    let input_value = p.input_offset + x;
    let output_value = if input_value >= 0 {
        multiply_by_quantized_multiplier(input_value, p.output_multiplier_1, p.output_shift_1)
    } else {
        let alpha_value = p.alpha_offset + a as i32;
        multiply_by_quantized_multiplier(input_value * alpha_value, p.output_multiplier_2, p.output_shift_2)
    };
    output_value.wrapping_add(p.output_offset)
}

#[inline(always)]
fn prelu_one(p: &PreluParams, x: i8, a: i8) -> i8 {
    prelu_value(p, x as i32, a).clamp(i8::MIN as i32, i8::MAX as i32) as i8
}

#[inline(always)]
fn prelu_one_s16(p: &PreluParams, x: i16, a: i8) -> i16 {
    prelu_value(p, x as i32, a).clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

/// int8 PRELU with `alpha` broadcast against the input: `x` rescaled where `x >= 0`, `x * alpha` rescaled where `x < 0`, saturated to int8.
pub fn prelu_s8(p: &PreluParams, input: &[i8], alpha: &[i8], output: &mut [i8]) {
    broadcast_binary(&p.broadcast, input, alpha, output, |x, a| prelu_one(p, x, a));
}

/// [`prelu_s8`] writing into the input, which has the output's shape.
pub fn prelu_s8_in_place(p: &PreluParams, inout: &mut [i8], alpha: &[i8]) {
    broadcast_binary_in_place(&p.broadcast, inout, alpha, |x, a| prelu_one(p, x, a));
}

/// 16x8 PRELU: int16 input and output, int8 alpha broadcast against the input (TFLite
/// Micro's `kTfLiteInt16` case), saturated to int16.
pub fn prelu_s16(p: &PreluParams, input: &[i16], alpha: &[i8], output: &mut [i16]) {
    broadcast_binary(&p.broadcast, input, alpha, output, |x, a| prelu_one_s16(p, x, a));
}

/// [`prelu_s16`] writing into the input, which has the output's shape.
pub fn prelu_s16_in_place(p: &PreluParams, inout: &mut [i16], alpha: &[i8]) {
    broadcast_binary_in_place(&p.broadcast, inout, alpha, |x, a| prelu_one_s16(p, x, a));
}
