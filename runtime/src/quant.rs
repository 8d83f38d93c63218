//! Fixed-point requantization primitives, bit-exact with TFLite Micro's reference
//! (`tensorflow/lite/kernels/internal/common.h`, gemmlowp `fixedpoint.h`) in its default
//! double-rounding mode (TFLITE_SINGLE_ROUNDING off).
//!
//! The compiler computes every `(multiplier, shift)` pair at compile time; kernels only
//! apply them.

/// gemmlowp `SaturatingRoundingDoublingHighMul`: `(a * b * 2) >> 32`, rounded half away
/// from zero, saturating the one overflowing case `i32::MIN * i32::MIN`.
#[inline(always)]
pub fn saturating_rounding_doubling_high_mul(a: i32, b: i32) -> i32 {
    if a == i32::MIN && b == i32::MIN {
        return i32::MAX;
    }
    let ab = a as i64 * b as i64;
    let nudge: i64 = if ab >= 0 { 1 << 30 } else { 1 - (1 << 30) };
    // C++ integer division truncates toward zero, as does Rust's `/`.
    ((ab + nudge) / (1i64 << 31)) as i32
}

/// gemmlowp `RoundingDivideByPOT`: `x / 2^exponent`, rounded to nearest, ties away from
/// zero. `exponent` must be in `0..=31`.
#[inline(always)]
pub fn rounding_divide_by_pot(x: i32, exponent: i32) -> i32 {
    debug_assert!((0..=31).contains(&exponent));
    let mask: i32 = ((1i64 << exponent) - 1) as i32;
    let remainder = x & mask;
    let threshold = (mask >> 1) + (x < 0) as i32;
    (x >> exponent) + (remainder > threshold) as i32
}

/// TFLite `MultiplyByQuantizedMultiplier(int32 x, int32 multiplier, int shift)`:
/// a positive `shift` is a left shift before the high multiply, a negative one a
/// rounding right shift after it.
#[inline(always)]
pub fn multiply_by_quantized_multiplier(x: i32, multiplier: i32, shift: i32) -> i32 {
    let left_shift = if shift > 0 { shift } else { 0 };
    let right_shift = if shift > 0 { 0 } else { -shift };
    rounding_divide_by_pot(
        saturating_rounding_doubling_high_mul(x.wrapping_mul(1i32.wrapping_shl(left_shift as u32)), multiplier),
        right_shift,
    )
}

/// TFLite `MultiplyByQuantizedMultiplierSmallerThanOneExp(x, multiplier, left_shift)`,
/// where `left_shift <= 0`.
#[inline(always)]
pub fn multiply_by_quantized_multiplier_smaller_than_one_exp(x: i32, multiplier: i32, left_shift: i32) -> i32 {
    rounding_divide_by_pot(saturating_rounding_doubling_high_mul(x, multiplier), -left_shift)
}

/// TFLite `MultiplyByQuantizedMultiplierGreaterThanOne(x, multiplier, left_shift)`,
/// where `left_shift >= 0`.
#[inline(always)]
pub fn multiply_by_quantized_multiplier_greater_than_one(x: i32, multiplier: i32, left_shift: i32) -> i32 {
    saturating_rounding_doubling_high_mul(x.wrapping_mul(1i32.wrapping_shl(left_shift as u32)), multiplier)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srdhm_edges() {
        assert_eq!(saturating_rounding_doubling_high_mul(i32::MIN, i32::MIN), i32::MAX);
        assert_eq!(saturating_rounding_doubling_high_mul(1 << 30, 1 << 30), 1 << 29);
        assert_eq!(saturating_rounding_doubling_high_mul(0, 12345), 0);
        // -1 * 2^30 * 2 / 2^32 = -0.5 -> rounds away from zero to -1? gemmlowp nudges
        // negatives by (1 - 2^30) and truncates: (-2^30 + 1 - 2^30) / 2^31 = 0.
        assert_eq!(saturating_rounding_doubling_high_mul(-1, 1 << 30), 0);
        assert_eq!(saturating_rounding_doubling_high_mul(-3, 1 << 30), -1);
        assert_eq!(saturating_rounding_doubling_high_mul(3, 1 << 30), 2);
    }

    #[test]
    fn rdbpot_ties_away_from_zero() {
        assert_eq!(rounding_divide_by_pot(5, 1), 3);
        assert_eq!(rounding_divide_by_pot(-5, 1), -3);
        assert_eq!(rounding_divide_by_pot(4, 1), 2);
        assert_eq!(rounding_divide_by_pot(-4, 1), -2);
        assert_eq!(rounding_divide_by_pot(7, 2), 2);
        assert_eq!(rounding_divide_by_pot(-7, 2), -2);
        assert_eq!(rounding_divide_by_pot(6, 2), 2);
        assert_eq!(rounding_divide_by_pot(-6, 2), -2);
        assert_eq!(rounding_divide_by_pot(i32::MIN, 31), -1);
        assert_eq!(rounding_divide_by_pot(i32::MAX, 31), 1);
        assert_eq!(rounding_divide_by_pot(123, 0), 123);
    }

    #[test]
    fn mbqm_matches_float_within_one() {
        // multiplier 0.75 in Q31, shift -3 => x * 0.75 / 8
        let m = (0.75f64 * (1u64 << 31) as f64) as i32;
        for x in [-100000, -777, -1, 0, 1, 777, 100000] {
            let got = multiply_by_quantized_multiplier(x, m, -3);
            let want = (x as f64 * 0.75 / 8.0).round() as i32;
            assert!((got - want).abs() <= 1, "{x}: {got} vs {want}");
        }
        // positive shift
        assert_eq!(multiply_by_quantized_multiplier(10, 1 << 30, 2), 20);
    }
}
