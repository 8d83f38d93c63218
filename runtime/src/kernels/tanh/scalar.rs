//! Scalar reference implementation of [`super::tanh_s8`].

use super::TanhParams;
use crate::quant::{fixedpoint_tanh, multiply_by_quantized_multiplier, rounding_divide_by_pot};

const INPUT_INTEGER_BITS: i32 = 4;
const OUTPUT_SCALE: i32 = 7;

/// One element.
#[inline]
pub fn tanh_one(p: &TanhParams, x: i8) -> i8 {
    let input = x as i32 - p.input_zero_point;
    // A radius of i32::MIN (a pathological input scale: TFLite's double-to-int conversion is
    // undefined there) negates to itself, as in two's complement C, instead of panicking.
    if input <= p.input_range_radius.wrapping_neg() {
        i8::MIN
    } else if input >= p.input_range_radius {
        i8::MAX
    } else {
        let input_in_q4 = multiply_by_quantized_multiplier(input, p.input_multiplier, p.input_left_shift);
        let output_in_q0 = fixedpoint_tanh(input_in_q4, INPUT_INTEGER_BITS);
        let output_in_q24 = rounding_divide_by_pot(output_in_q0, 31 - OUTPUT_SCALE);
        output_in_q24.clamp(-128, 127) as i8
    }
}

/// See [`super::tanh_s8`].
pub fn tanh_s8(p: &TanhParams, input: &[i8], output: &mut [i8]) {
    for (&x, o) in input.iter().zip(output.iter_mut()) {
        *o = tanh_one(p, x);
    }
}

/// See [`super::tanh_s8_in_place`].
pub fn tanh_s8_in_place(p: &TanhParams, data: &mut [i8]) {
    for v in data.iter_mut() {
        *v = tanh_one(p, *v);
    }
}
