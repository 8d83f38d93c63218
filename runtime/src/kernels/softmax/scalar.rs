//! Scalar reference implementations of [`super::softmax_s8`] and [`super::softmax_s8_s16`]:
//! TFLite's `Softmax<int8_t, OutputT>`, one body for both output types; and of
//! [`super::softmax_s16`] (TFLite's `SoftmaxInt16`).

use super::{SoftmaxParams, SoftmaxS16Params};
use crate::quant::{
    exp_on_negative_values, fixedpoint_rescale, get_reciprocal, lut_lookup_i16, multiply_by_quantized_multiplier,
    multiply_by_quantized_multiplier_greater_than_one,
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

impl SoftmaxOut for u8 {
    const BITS: i32 = 8;
    const MIN: i32 = 0;
    const MAX: i32 = u8::MAX as i32;
    fn from_clamped(v: i32) -> Self {
        v as u8
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

/// See [`super::softmax_u8`]: the int8 body, the input through its offset (the kernel
/// reads only differences from the row maximum) and the output's minimum 0.
pub fn softmax_u8(p: &SoftmaxParams, input: &[u8], output: &mut [u8]) {
    softmax_s8_to(p, input, output)
}

fn softmax_s8_to<I: Copy + Ord + Into<i32>, O: SoftmaxOut>(p: &SoftmaxParams, input: &[I], output: &mut [O]) {
    for (xs, out) in input.chunks_exact(p.depth).zip(output.chunks_exact_mut(p.depth)) {
        let max: i32 = xs.iter().copied().max().map_or(i32::MIN, Into::into);

        let mut sum_of_exps: i32 = 0; // Q12.19
        for &x in xs {
            let diff = x.into() - max;
            if diff >= p.diff_min {
                let e = exp_of_diff(p, diff);
                sum_of_exps = sum_of_exps.wrapping_add(fixedpoint_rescale(e, 0, ACCUMULATION_INTEGER_BITS));
            }
        }

        let (shifted_scale, num_bits_over_unit) = get_reciprocal(sum_of_exps, ACCUMULATION_INTEGER_BITS);
        let exponent = num_bits_over_unit + 31 - O::BITS;
        debug_assert!((0..=31).contains(&exponent));

        for (&x, o) in xs.iter().zip(out.iter_mut()) {
            let diff = x.into() - max;
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

/// See [`super::softmax_s16`].
pub fn softmax_s16(p: &SoftmaxS16Params, input: &[i16], output: &mut [i16]) {
    for (xs, out) in input.chunks_exact(p.depth).zip(output.chunks_exact_mut(p.depth)) {
        let max = xs.iter().copied().max().unwrap_or(i16::MIN) as i32;
        // exp(x - max) in Q0.15, kept in the output row; their sum in Q16.15.
        let mut sum_of_exps: i32 = 0;
        for (&x, o) in xs.iter().zip(out.iter_mut()) {
            let scaled = multiply_by_quantized_multiplier(x as i32 - max, p.input_multiplier, p.input_left_shift);
            let sym = scaled.wrapping_add(32767).clamp(-32768, 32767) as i16;
            *o = lut_lookup_i16(sym, p.exp_lut);
            sum_of_exps = sum_of_exps.wrapping_add(*o as i32);
        }
        // 1 / sum through the 1/(1+x) table, on the sum normalized to [1, 2).
        let headroom_plus_one = (sum_of_exps as u32).leading_zeros() as i32;
        debug_assert!((1..=31).contains(&headroom_plus_one), "the row maximum contributes exp(0)");
        let shifted_sum = (((sum_of_exps as i64) << (headroom_plus_one - 1)) + (1 << 13)) >> 14;
        let sym_sum = (shifted_sum as i32).wrapping_sub((1 << 15) + (1 << 16)).clamp(-32768, 32767) as i16;
        let reciprocal = lut_lookup_i16(sym_sum, p.one_over_one_plus_x_lut) as i64;
        let right_shift = 31 - headroom_plus_one;
        let round: i64 = 1 << (right_shift - 1);
        for o in out.iter_mut() {
            let r = ((*o as i64 * reciprocal + round) >> right_shift) as i32;
            *o = r.clamp(0, 32767) as i16;
        }
    }
}
