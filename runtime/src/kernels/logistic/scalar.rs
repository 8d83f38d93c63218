//! Scalar reference implementation of [`super::logistic_s8`].

use super::LogisticParams;
use crate::quant::{fixedpoint_logistic, multiply_by_quantized_multiplier, rounding_divide_by_pot};

const INPUT_INTEGER_BITS: i32 = 4;
const OUTPUT_INTEGER_BITS: i32 = 8;
const OUTPUT_ZERO_POINT: i32 = -128;

/// One element.
#[inline]
pub fn logistic_one(p: &LogisticParams, x: i8) -> i8 {
    let input = x as i32 - p.input_zero_point;
    // A radius of i32::MIN (a pathological input scale: TFLite's double-to-int conversion is
    // undefined there) negates to itself, as in two's complement C, instead of panicking.
    if input <= p.input_range_radius.wrapping_neg() {
        i8::MIN
    } else if input >= p.input_range_radius {
        i8::MAX
    } else {
        let input_in_q4 = multiply_by_quantized_multiplier(input, p.input_multiplier, p.input_left_shift);
        let output_in_q0 = fixedpoint_logistic(input_in_q4, INPUT_INTEGER_BITS);
        let output_in_q23 = rounding_divide_by_pot(output_in_q0, 31 - OUTPUT_INTEGER_BITS);
        (output_in_q23 + OUTPUT_ZERO_POINT).clamp(-128, 127) as i8
    }
}

/// See [`super::logistic_s8`].
pub fn logistic_s8(p: &LogisticParams, input: &[i8], output: &mut [i8]) {
    for (&x, o) in input.iter().zip(output.iter_mut()) {
        *o = logistic_one(p, x);
    }
}

/// See [`super::logistic_s8_in_place`].
pub fn logistic_s8_in_place(p: &LogisticParams, data: &mut [i8]) {
    for v in data.iter_mut() {
        *v = logistic_one(p, *v);
    }
}

/// TFLite `reference_ops::Logistic<float>` on one value.
#[inline]
pub fn logistic_one_f32(x: f32) -> f32 {
    // TFLite's `16.619047164916992188f`, as a float.
    const CUTOFF_UPPER: f32 = 16.619_047;
    const CUTOFF_LOWER: f32 = -9.0;
    if x > CUTOFF_UPPER {
        1.0
    } else if x < CUTOFF_LOWER {
        crate::math::expf(x)
    } else {
        1.0 / (1.0 + crate::math::expf(-x))
    }
}
