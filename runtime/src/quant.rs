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

/// `std::round` on `f32` (C `roundf`): round to nearest, ties away from zero. `core` has no
/// float rounding in no_std, so this works on the bits (exact for every input, including
/// `0.49999997`, where `x + 0.5` would round up). NaN and infinities pass through.
#[inline]
pub fn round_f32(x: f32) -> f32 {
    let bits = x.to_bits();
    let exp = ((bits >> 23) & 0xff) as i32 - 127;
    if exp >= 23 {
        return x; // already integral, or inf/NaN
    }
    let sign = bits & 0x8000_0000;
    if exp < -1 {
        return f32::from_bits(sign); // |x| < 0.5
    }
    if exp == -1 {
        return f32::from_bits(sign | 0x3f80_0000); // 0.5 <= |x| < 1 -> +-1
    }
    let frac_mask = (1u32 << (23 - exp)) - 1;
    let half = 1u32 << (22 - exp);
    // Adding half an ulp-of-one to the magnitude and truncating rounds half away from zero;
    // a carry into the exponent field is the correct result (e.g. 1.5 -> 2.0).
    f32::from_bits((bits + half) & !frac_mask)
}

/// C `truncf`: round toward zero.
#[inline]
pub fn trunc_f32(x: f32) -> f32 {
    let bits = x.to_bits();
    let exp = ((bits >> 23) & 0xff) as i32 - 127;
    if exp >= 23 {
        return x;
    }
    if exp < 0 {
        return f32::from_bits(bits & 0x8000_0000);
    }
    let frac_mask = (1u32 << (23 - exp)) - 1;
    f32::from_bits(bits & !frac_mask)
}

/// C `floorf`.
#[inline]
pub fn floor_f32(x: f32) -> f32 {
    let t = trunc_f32(x);
    if x < 0.0 && t != x {
        t - 1.0
    } else {
        t
    }
}

/// C `ceilf`.
#[inline]
pub fn ceil_f32(x: f32) -> f32 {
    let t = trunc_f32(x);
    if x > 0.0 && t != x {
        t + 1.0
    } else {
        t
    }
}

/// C `round` on `f64`: nearest, ties away from zero.
#[inline]
pub fn round_f64(x: f64) -> f64 {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1023;
    if exp >= 52 {
        return x;
    }
    let sign = bits & 0x8000_0000_0000_0000;
    if exp < -1 {
        return f64::from_bits(sign);
    }
    if exp == -1 {
        return f64::from_bits(sign | 0x3ff0_0000_0000_0000);
    }
    let frac_mask = (1u64 << (52 - exp)) - 1;
    let half = 1u64 << (51 - exp);
    f64::from_bits((bits + half) & !frac_mask)
}

/// C `frexp`: `x = m * 2^e` with `0.5 <= |m| < 1` (`(0.0, 0)` for zero; inf/NaN returned
/// unchanged with exponent 0).
pub fn frexp_f64(x: f64) -> (f64, i32) {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if x == 0.0 || biased == 0x7ff {
        return (x, 0);
    }
    if biased == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp_f64(x * f64::from_bits(0x43f0_0000_0000_0000)); // 2^64
        return (m, e - 64);
    }
    let e = biased - 1022;
    let m = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (m, e)
}

/// The saturating `float -> int32` conversion used where TFLite writes
/// `static_cast<int32_t>(float)`. In range it truncates like C++; out of range C++ is
/// undefined (x86 gives `i32::MIN`, Arm saturates); we saturate like Arm and NaN gives 0.
#[inline]
pub fn f32_to_i32_saturating(x: f32) -> i32 {
    x as i32
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
    #[test]
    fn round_f32_matches_roundf() {
        let cases: [(f32, f32); 14] = [
            (0.5, 1.0), (-0.5, -1.0), (1.5, 2.0), (2.5, 3.0), (-2.5, -3.0),
            (0.49999997, 0.0), (-0.49999997, -0.0), (8388607.5, 8388608.0),
            (1.0e10, 1.0e10), (0.0, 0.0), (-0.0, -0.0), (3.4999998, 3.0), (-7.5, -8.0), (0.75, 1.0),
        ];
        for (x, want) in cases {
            assert_eq!(round_f32(x).to_bits(), want.to_bits(), "{x}");
        }
        assert!(round_f32(f32::NAN).is_nan());
        assert_eq!(round_f32(f32::INFINITY), f32::INFINITY);
    }

    #[test]
    fn floor_ceil_f32() {
        for (x, f, c) in [(1.5f32, 1.0f32, 2.0f32), (-1.5, -2.0, -1.0), (2.0, 2.0, 2.0), (-0.25, -1.0, -0.0), (0.25, 0.0, 1.0)] {
            assert_eq!(floor_f32(x), f, "{x}");
            assert_eq!(ceil_f32(x), c, "{x}");
        }
    }

    #[test]
    fn round_f64_and_frexp() {
        assert_eq!(round_f64(2.5), 3.0);
        assert_eq!(round_f64(-2.5), -3.0);
        assert_eq!(round_f64(0.49999999999999994), 0.0);
        assert_eq!(round_f64(1073741823.5), 1073741824.0);
        assert_eq!(frexp_f64(1.0), (0.5, 1));
        assert_eq!(frexp_f64(0.75), (0.75, 0));
        assert_eq!(frexp_f64(-3.0), (-0.75, 2));
        assert_eq!(frexp_f64(0.0), (0.0, 0));
        let (m, e) = frexp_f64(f64::MIN_POSITIVE / 8.0);
        assert_eq!((m, e), (0.5, -1024));
    }
}
