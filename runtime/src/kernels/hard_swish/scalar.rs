//! Scalar reference implementation of [`super::hard_swish_s8`].

use super::HardSwishParams;
use crate::quant::{
    rounding_divide_by_pot_i16, saturating_doubling_high_mul_i16, saturating_left_shift_i16,
    saturating_rounding_doubling_high_mul_i16,
};

/// One element. The C++ computes in `int` and stores into `int16_t` (truncating) after
/// each step; the `as i16` casts below are those stores.
#[inline]
pub fn hard_swish_one(p: &HardSwishParams, x: i8) -> i8 {
    let input_value = (x as i32 - p.input_zero_point as i32) as i16;
    let input_value_on_hires_input_scale = (input_value as i32 * (1 << 7)) as i16;
    let input_value_on_preshift_output_scale =
        saturating_rounding_doubling_high_mul_i16(input_value_on_hires_input_scale, p.output_multiplier_fixedpoint_int16);

    let mut reluish_value = input_value_on_hires_input_scale;
    if p.reluish_multiplier_exponent > 0 {
        reluish_value = saturating_left_shift_i16(reluish_value, p.reluish_multiplier_exponent - 1);
    }
    reluish_value = saturating_rounding_doubling_high_mul_i16(reluish_value, p.reluish_multiplier_fixedpoint_int16);
    if p.reluish_multiplier_exponent > 0 {
        reluish_value = saturating_left_shift_i16(reluish_value, 1);
    }
    if p.reluish_multiplier_exponent < 0 {
        reluish_value = rounding_divide_by_pot_i16(reluish_value, -p.reluish_multiplier_exponent);
    }
    // [-1, 1] -> [0, 1] in Q0.15.
    reluish_value = ((reluish_value as i32 + (1 << 15)) >> 1) as i16;

    let preshift_output_value = saturating_doubling_high_mul_i16(reluish_value, input_value_on_preshift_output_scale);
    let mut output_value = rounding_divide_by_pot_i16(preshift_output_value, -p.output_multiplier_exponent);
    output_value = (output_value as i32 + p.output_zero_point as i32) as i16;
    output_value.clamp(i8::MIN as i16, i8::MAX as i16) as i8
}

/// See [`super::hard_swish_s8`].
pub fn hard_swish_s8(p: &HardSwishParams, input: &[i8], output: &mut [i8]) {
    for (&x, o) in input.iter().zip(output.iter_mut()) {
        *o = hard_swish_one(p, x);
    }
}

/// See [`super::hard_swish_s8_in_place`].
pub fn hard_swish_s8_in_place(p: &HardSwishParams, data: &mut [i8]) {
    for v in data.iter_mut() {
        *v = hard_swish_one(p, *v);
    }
}

/// TFLite `reference_ops::HardSwish<float>` on one value. `std::max(0, v)` is
/// `0 < v ? v : 0` and `std::min(6, m)` is `m < 6 ? m : 6`, so a NaN `x + 3` becomes 0
/// (and the product `NaN * 0` NaN again).
#[inline]
pub fn hard_swish_one_f32(x: f32) -> f32 {
    let v = x + 3.0;
    let m = if 0.0 < v { v } else { 0.0 };
    let r = if m < 6.0 { m } else { 6.0 };
    x * r / 6.0
}
