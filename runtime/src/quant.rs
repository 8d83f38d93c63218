//! Fixed-point requantization primitives, bit-exact with TFLite Micro's reference
//! (`tensorflow/lite/kernels/internal/common.h`, gemmlowp `fixedpoint.h`) in its default
//! double-rounding mode (TFLITE_SINGLE_ROUNDING off).
//!
//! The compiler computes every `(multiplier, shift)` pair at compile time; kernels only
//! apply them.

/// Quantization parameters of one per-tensor-quantized tensor, as the compile-time
/// `prepare_*` helpers of the kernels take them (`scale` exactly as stored in the model).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuantParams {
    /// One quantization step, in real units (`real = scale * (q - zero_point)`).
    pub scale: f32,
    /// The quantized value of real 0.
    pub zero_point: i32,
}

/// gemmlowp `SaturatingRoundingDoublingHighMul`: `(a * b * 2) >> 32`, rounded half away
/// from zero, saturating the one overflowing case `i32::MIN * i32::MIN`.
#[inline(always)]
pub fn saturating_rounding_doubling_high_mul(a: i32, b: i32) -> i32 {
    if a == i32::MIN && b == i32::MIN {
        return i32::MAX;
    }
    // gemmlowp: `(ab + nudge) / 2^31` truncating, nudge `2^30` for `ab >= 0` and
    // `1 - 2^30` below. For `ab < 0`, `ab + 1 - 2^30` is negative, and truncating a negative
    // `v` is flooring `v + 2^31 - 1`, i.e. `ab + 2^30`: both cases are the one floor shift
    // below (no branch; `srdhm_matches_gemmlowp` checks it against the definition).
    ((a as i64 * b as i64 + (1 << 30)) >> 31) as i32
}

/// gemmlowp `RoundingDivideByPOT`: `x / 2^exponent`, rounded to nearest, ties away from
/// zero. `exponent` must be in `0..=31`.
#[inline(always)]
pub fn rounding_divide_by_pot(x: i32, exponent: i32) -> i32 {
    debug_assert!((0..=31).contains(&exponent));
    let mask = ((1u32 << exponent) - 1) as i32;
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

/// TFLite `MultiplyByQuantizedMultiplier(int64 x, int32 multiplier, int shift)`: the
/// 64-bit-input variant, which reduces the multiplier to 16 bits and rounds once.
/// Preconditions (TFLite's): `multiplier >= 0`, `-31 <= shift < 8`,
/// `-(2^47) <= x < 2^47`.
#[inline(always)]
pub fn multiply_by_quantized_multiplier_i64(x: i64, multiplier: i32, shift: i32) -> i32 {
    debug_assert!(multiplier >= 0);
    debug_assert!((-31..8).contains(&shift));
    let reduced_multiplier: i64 = if multiplier < 0x7FFF_0000 { ((multiplier + (1 << 15)) >> 16) as i64 } else { 0x7FFF };
    let total_shift = 15 - shift;
    let x = x.wrapping_mul(reduced_multiplier).wrapping_add(1i64 << (total_shift - 1));
    (x >> total_shift) as i32
}

// ---------------------------------------------------------------------------------------
// gemmlowp `fixedpoint.h`, scalar int32 (`FixedPoint<int32_t, IntegerBits>` is represented
// by its raw `i32`; the number of integer bits is tracked by the caller, as in gemmlowp's
// templates). gemmlowp's plain `+`/`-` on raw values are not saturating; their overflow
// is undefined behaviour in C++ and wraps on every TFLite target, so we wrap.
// ---------------------------------------------------------------------------------------

/// gemmlowp `RoundingHalfSum(int32, int32)`: `(a + b) / 2`, rounded half away from zero.
#[inline(always)]
pub fn rounding_half_sum(a: i32, b: i32) -> i32 {
    let sum = a as i64 + b as i64;
    let sign: i64 = if sum >= 0 { 1 } else { -1 };
    ((sum + sign) / 2) as i32
}

/// gemmlowp `SaturatingRoundingMultiplyByPOT<exponent>(int32)`: a saturating left shift
/// for `exponent > 0`, a rounding right shift ([`rounding_divide_by_pot`]) for
/// `exponent < 0`. `exponent` must be in `-31..=31`.
#[inline(always)]
pub fn saturating_rounding_multiply_by_pot(x: i32, exponent: i32) -> i32 {
    if exponent > 0 {
        debug_assert!(exponent < 32);
        let threshold: i32 = ((1i64 << (31 - exponent)) - 1) as i32;
        if x > threshold {
            i32::MAX
        } else if x < -threshold {
            i32::MIN
        } else {
            x << exponent
        }
    } else if exponent < 0 {
        rounding_divide_by_pot(x, -exponent)
    } else {
        x
    }
}

/// gemmlowp `Rescale<dst_integer_bits>(FixedPoint<int32, src_integer_bits>)`.
#[inline(always)]
pub fn fixedpoint_rescale(x: i32, src_integer_bits: i32, dst_integer_bits: i32) -> i32 {
    saturating_rounding_multiply_by_pot(x, src_integer_bits - dst_integer_bits)
}

/// gemmlowp `FixedPoint<int32, 0>::One()` (the raw value is `i32::MAX`).
pub const FIXEDPOINT_Q0_ONE: i32 = i32::MAX;

/// gemmlowp `exp_on_interval_between_negative_one_quarter_and_0_excl` on Q0.31.
#[inline]
pub fn exp_on_interval_between_negative_one_quarter_and_0_excl(a: i32) -> i32 {
    const CONSTANT_TERM: i32 = 1_895_147_668; // exp(-1/8)
    const CONSTANT_1_OVER_3: i32 = 715_827_883; // 1/3
    let srdhm = saturating_rounding_doubling_high_mul;
    let x = a.wrapping_add(1 << 28); // a + 1/8
    let x2 = srdhm(x, x);
    let x3 = srdhm(x2, x);
    let x4 = srdhm(x2, x2);
    let x4_over_4 = saturating_rounding_multiply_by_pot(x4, -2);
    let x4_over_24_plus_x3_over_6_plus_x2_over_2 =
        saturating_rounding_multiply_by_pot(srdhm(x4_over_4.wrapping_add(x3), CONSTANT_1_OVER_3).wrapping_add(x2), -1);
    CONSTANT_TERM.wrapping_add(srdhm(CONSTANT_TERM, x.wrapping_add(x4_over_24_plus_x3_over_6_plus_x2_over_2)))
}

/// gemmlowp `exp_on_negative_values(FixedPoint<int32, integer_bits>)` -> Q0.31.
/// `a` (raw, with `integer_bits` integer bits) must be `<= 0`; `integer_bits` in `0..=30`.
#[inline]
pub fn exp_on_negative_values(a: i32, integer_bits: i32) -> i32 {
    debug_assert!((0..31).contains(&integer_bits));
    let fractional_bits = 31 - integer_bits;
    let one_quarter: i32 = 1 << (fractional_bits - 2);
    let mask = one_quarter - 1;
    let a_mod_quarter_minus_one_quarter = (a & mask) - one_quarter;
    let mut result = exp_on_interval_between_negative_one_quarter_and_0_excl(fixedpoint_rescale(
        a_mod_quarter_minus_one_quarter,
        integer_bits,
        0,
    ));
    let remainder = a_mod_quarter_minus_one_quarter.wrapping_sub(a);
    // Barrel shifter: (exponent, Q0.31 value of exp(-2^exponent)).
    const BARREL: [(i32, i32); 7] = [
        (-2, 1_672_461_947),
        (-1, 1_302_514_674),
        (0, 790_015_084),
        (1, 290_630_308),
        (2, 39_332_535),
        (3, 720_401),
        (4, 242),
    ];
    for &(exponent, multiplier) in BARREL.iter() {
        if integer_bits > exponent {
            let shift = fractional_bits + exponent;
            if remainder & (1i32 << shift) != 0 {
                result = saturating_rounding_doubling_high_mul(result, multiplier);
            }
        }
    }
    if integer_bits > 5 {
        let clamp = -(1i32 << (36 - integer_bits)); // -32.0
        if a < clamp {
            result = 0;
        }
    }
    if a == 0 {
        result = FIXEDPOINT_Q0_ONE;
    }
    result
}

/// The Newton-Raphson iteration shared by gemmlowp's `one_over_one_plus_x_for_x_in_0_1`
/// and `one_minus_x_over_one_plus_x_for_x_in_0_1`: returns `1 / (1 + a)` in Q2.29 for
/// `a` in Q0.31.
#[inline]
fn one_over_one_plus_x_q2(a: i32) -> i32 {
    const CONSTANT_48_OVER_17: i32 = 1_515_870_810; // Q2.29
    const CONSTANT_NEG_32_OVER_17: i32 = -1_010_580_540; // Q2.29
    const Q2_ONE: i32 = 1 << 29;
    let srdhm = saturating_rounding_doubling_high_mul;
    let half_denominator = rounding_half_sum(a, FIXEDPOINT_Q0_ONE);
    let mut x = CONSTANT_48_OVER_17.wrapping_add(srdhm(half_denominator, CONSTANT_NEG_32_OVER_17));
    for _ in 0..3 {
        let half_denominator_times_x = srdhm(half_denominator, x);
        let one_minus_half_denominator_times_x = Q2_ONE.wrapping_sub(half_denominator_times_x);
        // x * (..) is Q4; Rescale<2> brings it back to Q2.
        x = x.wrapping_add(fixedpoint_rescale(srdhm(x, one_minus_half_denominator_times_x), 4, 2));
    }
    x
}

/// gemmlowp `one_over_one_plus_x_for_x_in_0_1`: Q0.31 -> Q0.31.
#[inline]
pub fn one_over_one_plus_x_for_x_in_0_1(a: i32) -> i32 {
    // ExactMulByPot<-1> turns the Q2 value into Q1 (same raw); Rescale<0> from 1.
    fixedpoint_rescale(one_over_one_plus_x_q2(a), 1, 0)
}

/// gemmlowp `one_minus_x_over_one_plus_x_for_x_in_0_1`: Q0.31 -> Q0.31.
#[inline]
pub fn one_minus_x_over_one_plus_x_for_x_in_0_1(a: i32) -> i32 {
    fixedpoint_rescale(one_over_one_plus_x_q2(a).wrapping_sub(1 << 29), 2, 0)
}

/// gemmlowp `logistic(FixedPoint<int32, integer_bits>)` -> Q0.31.
#[inline]
pub fn fixedpoint_logistic(a: i32, integer_bits: i32) -> i32 {
    if a == 0 {
        return 1 << 30; // 0.5
    }
    let abs_input = if a > 0 { a } else { a.wrapping_neg() };
    let result_if_positive = one_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(abs_input.wrapping_neg(), integer_bits));
    if a > 0 {
        result_if_positive
    } else {
        FIXEDPOINT_Q0_ONE.wrapping_sub(result_if_positive)
    }
}

/// gemmlowp `tanh(FixedPoint<int32, integer_bits>)` -> Q0.31.
#[inline]
pub fn fixedpoint_tanh(a: i32, integer_bits: i32) -> i32 {
    if a == 0 {
        return 0;
    }
    let negative = a < 0;
    let n = if negative { a } else { a.wrapping_neg() };
    // neg_tanh_on_negative_values: ExactMulByPot<1> keeps the raw value, one more
    // integer bit.
    let t = one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(n, integer_bits + 1));
    if negative {
        t.wrapping_neg()
    } else {
        t
    }
}

/// TFLite `SaturatingAddNonGemmlowp(int32, int32)` (common.h): the sum clamped to `i32`.
#[inline]
pub fn saturating_add_i32(a: i32, b: i32) -> i32 {
    a.saturating_add(b)
}

/// TFLite `log_x_for_x_greater_than_or_equal_to_1_impl<output_integer_bits,
/// input_integer_bits>` (common.h): `ln x` of a fixed-point `x >= 1` with
/// `input_integer_bits` integer bits, as a fixed-point value with `output_integer_bits`
/// (the accumulation has one more). Every step is TFLite's: the power of two from the count
/// of leading zeros of `x` and of `x sqrt(1/2)`, the larger exponent (adjusted by a
/// quarter) and the smaller mantissa, then a rational approximation around
/// `sqrt(sqrt(1/2))`. `SaturatingRoundingMultiplyByPOTParam` is only ever a saturating
/// left shift here ([`saturating_rounding_multiply_by_pot`] with a non-negative exponent).
#[inline]
pub fn log_x_for_x_greater_than_or_equal_to_1(input_val: i32, input_integer_bits: i32, output_integer_bits: i32) -> i32 {
    let srdhm = saturating_rounding_doubling_high_mul;
    let accum_integer_bits = output_integer_bits + 1;
    const LOG_2: i32 = 1_488_522_236;
    const SQRT_SQRT_HALF: i32 = 1_805_811_301;
    const SQRT_HALF: i32 = 1_518_500_250;
    const ONE_QUARTER: i32 = 536_870_912;
    const ALPHA_N: i32 = 117_049_297;
    const ALPHA_D: i32 = 127_690_142;
    const ALPHA_I: i32 = 1_057_819_769;
    const ALPHA_F: i32 = 638_450_708;
    let shifted_quarter = fixedpoint_rescale(ONE_QUARTER, 0, accum_integer_bits);

    let z_a = input_val;
    let z_a_headroom_plus_1 = (z_a as u32).leading_zeros() as i32;
    let r_a_tmp = saturating_rounding_multiply_by_pot(z_a, z_a_headroom_plus_1 - 1);
    let r_a_raw = saturating_rounding_multiply_by_pot(srdhm(r_a_tmp, SQRT_HALF), 1);
    let z_a_pow_2_adj = saturating_add_i32(
        saturating_rounding_multiply_by_pot(input_integer_bits - z_a_headroom_plus_1, 31 - accum_integer_bits),
        shifted_quarter,
    );

    let z_b = srdhm(z_a, SQRT_HALF);
    let z_b_headroom = (z_b as u32).leading_zeros() as i32 - 1;
    let r_b_raw = saturating_rounding_multiply_by_pot(z_a, z_b_headroom);
    let z_b_pow_2_adj = saturating_rounding_multiply_by_pot(input_integer_bits - z_b_headroom, 31 - accum_integer_bits)
        .saturating_sub(shifted_quarter);

    let r = r_a_raw.min(r_b_raw);
    let z_pow_2_adj = z_a_pow_2_adj.max(z_b_pow_2_adj);

    let p = rounding_half_sum(r, SQRT_SQRT_HALF);
    let mut q = r.wrapping_sub(SQRT_SQRT_HALF);
    q = q.wrapping_add(q);

    let common_sq = srdhm(q, q);
    let num = srdhm(q, r).wrapping_add(srdhm(srdhm(q, common_sq), ALPHA_N));
    let denom_minus_one_0 =
        srdhm(p, ALPHA_I.wrapping_add(q).wrapping_add(srdhm(ALPHA_D, common_sq))).wrapping_add(srdhm(ALPHA_F, q));
    let recip_denom = one_over_one_plus_x_for_x_in_0_1(denom_minus_one_0);

    let num_scaled = fixedpoint_rescale(num, 0, accum_integer_bits);
    fixedpoint_rescale(srdhm(z_pow_2_adj, LOG_2).wrapping_add(srdhm(num_scaled, recip_denom)), accum_integer_bits, output_integer_bits)
}

/// TFLite `GetReciprocal(x, x_integer_digits, &num_bits_over_unit)` (common.h): returns
/// `(reciprocal in Q0.31, num_bits_over_unit)`. `x` must be positive.
#[inline]
pub fn get_reciprocal(x: i32, x_integer_digits: i32) -> (i32, i32) {
    debug_assert!(x > 0);
    let headroom_plus_one = (x as u32).leading_zeros();
    let num_bits_over_unit = x_integer_digits - headroom_plus_one as i32;
    let shifted_sum_minus_one = ((x as u32) << headroom_plus_one).wrapping_sub(1u32 << 31) as i32;
    (one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one), num_bits_over_unit)
}

/// [`get_reciprocal`] for any `x >= 0`, zero included: TFLite's `GetReciprocal(0, ...)`
/// (a zero divisor, which TFLite only `DCHECK`s) counts 32 leading zeros and shifts 0 left
/// by 32, which gives 0 on every platform (the shift count is out of range in C, but no
/// shifted bit is set), so its Q0.31 argument is `0 - 2^31`.
#[inline]
pub fn get_reciprocal_or_zero(x: i32, x_integer_digits: i32) -> (i32, i32) {
    if x == 0 {
        return (one_over_one_plus_x_for_x_in_0_1(i32::MIN), x_integer_digits - 32);
    }
    get_reciprocal(x, x_integer_digits)
}

// ---------------------------------------------------------------------------------------
// int16 fixed point, as used by TFLite's quantized HARD_SWISH (reference/hard_swish.h).
// C++ computes these in `int` and truncates to int16 on assignment; so do we.
// ---------------------------------------------------------------------------------------

/// gemmlowp `SaturatingRoundingDoublingHighMul(int16, int16)`.
#[inline(always)]
pub fn saturating_rounding_doubling_high_mul_i16(a: i16, b: i16) -> i16 {
    if a == i16::MIN && b == i16::MIN {
        return i16::MAX;
    }
    let ab = a as i32 * b as i32;
    let nudge: i32 = if ab >= 0 { 1 << 14 } else { 1 - (1 << 14) };
    ((ab + nudge) / (1 << 15)) as i16
}

/// TFLite `SaturatingDoublingHighMul(int16, int16)` (reference/hard_swish.h): like
/// [`saturating_rounding_doubling_high_mul_i16`] but truncating toward zero.
#[inline(always)]
pub fn saturating_doubling_high_mul_i16(a: i16, b: i16) -> i16 {
    if a == i16::MIN && b == i16::MIN {
        return i16::MAX;
    }
    ((a as i32 * b as i32) / (1 << 15)) as i16
}

/// gemmlowp `RoundingDivideByPOT<int16>(x, exponent)`, `exponent` in `0..=31`. For
/// `exponent >= 16` gemmlowp's int16 mask truncates to all ones; mirrored.
#[inline(always)]
pub fn rounding_divide_by_pot_i16(x: i16, exponent: i32) -> i16 {
    debug_assert!((0..=31).contains(&exponent));
    let mask = ((1i64 << exponent) - 1) as i16 as i32;
    let x32 = x as i32;
    let remainder = (x32 & mask) as i16 as i32;
    let threshold = ((mask >> 1) + (x < 0) as i32) as i16 as i32;
    ((x32 >> exponent) + (remainder > threshold) as i32) as i16
}

/// TFLite `SaturatingLeftShift(int16 value, int amount)` (reference/hard_swish.h).
#[inline(always)]
pub fn saturating_left_shift_i16(value: i16, amount: i32) -> i16 {
    debug_assert!((0..31).contains(&amount));
    let result = value as i64 * (1i64 << amount);
    result.clamp(i16::MIN as i64, i16::MAX as i64) as i16
}

/// TFLite `LUTLookup(int16_t, const int16_t* lut)`: a 513-entry table indexed by the top 9
/// bits of `value`, linearly interpolated on the low 7 bits (C++'s narrowing of the slope
/// and of the result to int16 wrap).
#[inline(always)]
pub fn lut_lookup_i16(value: i16, lut: &[i16]) -> i16 {
    debug_assert_eq!(lut.len(), 513);
    let index = (256 + (value >> 7) as i32) as usize;
    let offset = (value & 0x7f) as i32;
    let base = lut[index] as i32;
    let slope = (lut[index + 1] as i32 - base) as i16 as i32;
    let delta = (slope * offset + 64) >> 7;
    (base + delta) as i16
}

/// TFLite `GetInvSqrtQuantizedMultiplierExp(input, reverse_shift)` (`common.h`): `1 /
/// sqrt(input)` as a multiplier and shift, by five Newton-Raphson steps in gemmlowp Q3.28
/// from the guess 1. Inputs `<= 1` (0 included) give `(i32::MAX, 0)`. Returns
/// `(output_inv_sqrt, output_shift)`, the shift multiplied by `reverse_shift` (TFLite's
/// `kReverseShift` is -1).
pub fn get_inv_sqrt_quantized_multiplier_exp(mut input: i32, reverse_shift: i32) -> (i32, i32) {
    if input <= 1 {
        return (i32::MAX, 0);
    }
    let mut output_shift = 11;
    while input >= (1 << 29) {
        input /= 4;
        output_shift += 1;
    }
    let max_left_shift_bits = (input as u32).leading_zeros() as i32 - 1;
    let max_left_shift_bit_pairs = max_left_shift_bits / 2;
    let left_shift_bit_pairs = max_left_shift_bit_pairs - 1;
    output_shift -= left_shift_bit_pairs;
    input <<= 2 * left_shift_bit_pairs;
    debug_assert!(((1 << 27)..(1 << 29)).contains(&input));
    // F3 = FixedPoint<int32, 3>: one is 2^28; `a * b` of two fixed points is
    // SaturatingRoundingDoublingHighMul of the raws (integer bits add up).
    let fixedpoint_input = input >> 1;
    let fixedpoint_half_input = saturating_rounding_multiply_by_pot(fixedpoint_input, -1);
    let fixedpoint_half_three = (1 << 28) + (1 << 27);
    let mut x: i32 = 1 << 28;
    for _ in 0..5 {
        let x2 = saturating_rounding_doubling_high_mul(x, x); // F6
        let x3 = fixedpoint_rescale(saturating_rounding_doubling_high_mul(x2, x), 9, 3);
        let a = saturating_rounding_doubling_high_mul(fixedpoint_half_three, x); // F6
        let b = saturating_rounding_doubling_high_mul(fixedpoint_half_input, x3); // F6
        x = fixedpoint_rescale(a.wrapping_sub(b), 6, 3);
    }
    // sqrt(2) / 2 in F0.
    let fixedpoint_half_sqrt_2 = 1_518_500_250;
    let mut inv_sqrt = saturating_rounding_doubling_high_mul(x, fixedpoint_half_sqrt_2);
    if output_shift < 0 {
        inv_sqrt = inv_sqrt.wrapping_shl((-output_shift) as u32);
        output_shift = 0;
    }
    (inv_sqrt, output_shift * reverse_shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gemmlowp's formulation, as written there: the nudge chosen by sign, then a
    /// truncating division.
    fn srdhm_gemmlowp(a: i32, b: i32) -> i32 {
        if a == i32::MIN && b == i32::MIN {
            return i32::MAX;
        }
        let ab = a as i64 * b as i64;
        let nudge: i64 = if ab >= 0 { 1 << 30 } else { 1 - (1 << 30) };
        ((ab + nudge) / (1i64 << 31)) as i32
    }

    /// gemmlowp's RoundingDivideByPOT with the mask computed in 64 bits.
    fn rdbpot_gemmlowp(x: i32, exponent: i32) -> i32 {
        let mask: i32 = ((1i64 << exponent) - 1) as i32;
        let remainder = x & mask;
        let threshold = (mask >> 1) + (x < 0) as i32;
        (x >> exponent) + (remainder > threshold) as i32
    }

    proptest::proptest! {
        #[test]
        fn srdhm_matches_gemmlowp(
            a in proptest::prop_oneof![proptest::prelude::any::<i32>(), -3i32..3, proptest::prelude::Just(i32::MIN), proptest::prelude::Just(i32::MAX)],
            b in proptest::prop_oneof![proptest::prelude::any::<i32>(), (1i32 << 30)..i32::MAX, proptest::prelude::Just(i32::MIN), proptest::prelude::Just(1 << 30)],
            e in 0i32..=31,
        ) {
            proptest::prop_assert_eq!(saturating_rounding_doubling_high_mul(a, b), srdhm_gemmlowp(a, b));
            proptest::prop_assert_eq!(rounding_divide_by_pot(a, e), rdbpot_gemmlowp(a, e));
        }
    }

    #[test]
    fn srdhm_ties_match_gemmlowp() {
        // Products at and around every half: ab = k * 2^30 + d.
        for k in -6i64..=6 {
            for d in -2i64..=2 {
                let ab = k * (1 << 30) + d;
                // a = ab / 2^15, b = 2^15 when divisible; else a = ab, b = 1.
                let (a, b) = if ab % (1 << 15) == 0 { ((ab >> 15) as i32, 1 << 15) } else { (ab as i32, 1) };
                assert_eq!(saturating_rounding_doubling_high_mul(a, b), srdhm_gemmlowp(a, b), "ab = {ab}");
            }
        }
    }

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

    /// `lut_lookup_i16` (int16 SOFTMAX's tables) interpolates and wraps as TFLite's C++.
    #[test]
    fn lut_lookup_interpolates_and_wraps_like_cpp() {
        // A linear table: lut[i] = 64 * i - 16384; lookups interpolate exactly.
        let lut: std::vec::Vec<i16> = (0..513).map(|i| (64 * i - 16384) as i16).collect();
        // value = -32768 -> index 0, offset 0.
        assert_eq!(lut_lookup_i16(-32768, &lut), -16384);
        // value = 0 -> index 256; value 64 -> offset 64: base 0 + (64*64 + 64) >> 7 = 32.
        assert_eq!(lut_lookup_i16(0, &lut), 0);
        assert_eq!(lut_lookup_i16(64, &lut), 32);
        // value = 32767 -> index 511, offset 127: 16320 + (64*127 + 64) >> 7 = 16320 + 64.
        assert_eq!(lut_lookup_i16(32767, &lut), 16384);
        // A slope beyond int16 wraps when narrowed (C++ `int16_t slope = a - b`).
        let mut steep = std::vec![0i16; 513];
        steep[256] = -30000;
        steep[257] = 30000; // 60000 - wraps to -5536 as int16
        let want = (-30000i32 + ((-5536 * 100 + 64) >> 7)) as i16;
        assert_eq!(lut_lookup_i16(100, &steep), want);
    }
}

/// One element of a TFLite int4 tensor: element `i` of `packed` (two per byte, element `2k`
/// in the low nibble of byte `k`, two's complement), sign-extended. TFLite's
/// `tensor_utils::UnpackDenseInt4IntoInt8`, one element at a time.
#[inline(always)]
pub fn int4_at(packed: &[u8], i: usize) -> i8 {
    let b = packed[i / 2] as i8;
    if i.is_multiple_of(2) {
        b.wrapping_shl(4) >> 4
    } else {
        b >> 4
    }
}

/// TFLite's `tensor_utils::UnpackDenseInt4IntoInt8`: the `out.len()` int4 elements of
/// `packed` (flat over the whole tensor, low nibble first; an odd count leaves the last
/// byte's high nibble unread) as int8. `packed` holds at least `out.len().div_ceil(2)` bytes.
pub fn unpack_int4(packed: &[u8], out: &mut [i8]) {
    debug_assert!(packed.len() >= out.len().div_ceil(2));
    for (i, o) in out.iter_mut().enumerate() {
        *o = int4_at(packed, i);
    }
}

#[cfg(test)]
mod int4_tests {
    use super::{int4_at, unpack_int4};

    /// TFLite's own example (`{0x12, 0x34}` -> `{2, 1, 4, 3}`), the sign extension of every
    /// nibble, and an odd count ignoring the last high nibble.
    #[test]
    fn unpacks_as_tflite() {
        let mut out = [0i8; 4];
        unpack_int4(&[0x12, 0x34], &mut out);
        assert_eq!(out, [2, 1, 4, 3]);
        for n in 0u8..16 {
            let want = if n < 8 { n as i8 } else { n as i8 - 16 };
            assert_eq!(int4_at(&[n], 0), want);
            assert_eq!(int4_at(&[n << 4], 1), want);
        }
        let mut out = [0i8; 3];
        unpack_int4(&[0x8f, 0x97], &mut out);
        assert_eq!(out, [-1, -8, 7]);
    }

}
