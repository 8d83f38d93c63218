//! Scalar reference implementations of [`super::softmax_s8`] and [`super::softmax_s8_s16`]:
//! TFLite's `Softmax<int8_t, OutputT>`, one body for both output types.

use super::SoftmaxParams;
use crate::quant::{
    exp_on_negative_values, fixedpoint_rescale, get_reciprocal, multiply_by_quantized_multiplier_greater_than_one,
    rounding_divide_by_pot, saturating_rounding_doubling_high_mul,
};

const SCALED_DIFF_INTEGER_BITS: i32 = 5;
const ACCUMULATION_INTEGER_BITS: i32 = 12;

/// `exp(beta * input_scale * diff)` in Q0.31 for `diff = x - max <= 0`.
#[inline]
fn exp_of_diff(p: &SoftmaxParams, diff: i32) -> i32 {
    let rescaled = multiply_by_quantized_multiplier_greater_than_one(diff, p.input_multiplier, p.input_left_shift);
    exp_on_negative_values(rescaled, SCALED_DIFF_INTEGER_BITS)
}

/// An output element type of the int8-input softmax.
trait SoftmaxOut: Copy {
    const BITS: i32;
    const MIN: i32;
    const MAX: i32;
    fn from_clamped(v: i32) -> Self;
}

impl SoftmaxOut for i8 {
    const BITS: i32 = 8;
    const MIN: i32 = i8::MIN as i32;
    const MAX: i32 = i8::MAX as i32;
    fn from_clamped(v: i32) -> Self {
        v as i8
    }
}

impl SoftmaxOut for i16 {
    const BITS: i32 = 16;
    const MIN: i32 = i16::MIN as i32;
    const MAX: i32 = i16::MAX as i32;
    fn from_clamped(v: i32) -> Self {
        v as i16
    }
}

/// See [`super::softmax_s8`].
pub fn softmax_s8(p: &SoftmaxParams, input: &[i8], output: &mut [i8]) {
    softmax_s8_to(p, input, output)
}

/// See [`super::softmax_s8_s16`].
pub fn softmax_s8_s16(p: &SoftmaxParams, input: &[i8], output: &mut [i16]) {
    softmax_s8_to(p, input, output)
}

fn softmax_s8_to<O: SoftmaxOut>(p: &SoftmaxParams, input: &[i8], output: &mut [O]) {
    for (xs, out) in input.chunks_exact(p.depth).zip(output.chunks_exact_mut(p.depth)) {
        let max = xs.iter().copied().max().unwrap_or(i8::MIN) as i32;

        let mut sum_of_exps: i32 = 0; // Q12.19
        for &x in xs {
            let diff = x as i32 - max;
            if diff >= p.diff_min {
                let e = exp_of_diff(p, diff);
                sum_of_exps = sum_of_exps.wrapping_add(fixedpoint_rescale(e, 0, ACCUMULATION_INTEGER_BITS));
            }
        }

        let (shifted_scale, num_bits_over_unit) = get_reciprocal(sum_of_exps, ACCUMULATION_INTEGER_BITS);
        let exponent = num_bits_over_unit + 31 - O::BITS;
        debug_assert!((0..=31).contains(&exponent));

        for (&x, o) in xs.iter().zip(out.iter_mut()) {
            let diff = x as i32 - max;
            *o = if diff >= p.diff_min {
                let e = exp_of_diff(p, diff);
                let unsat = rounding_divide_by_pot(saturating_rounding_doubling_high_mul(shifted_scale, e), exponent);
                O::from_clamped(unsat.wrapping_add(O::MIN).clamp(O::MIN, O::MAX))
            } else {
                O::from_clamped(O::MIN)
            };
        }
    }
}
