//! Accuracy and edge behaviour of the gemmlowp fixed-point helpers in `quant` (used by
//! SOFTMAX, LOGISTIC, TANH, HARD_SWISH), against real arithmetic. Bit-exactness with
//! TFLite Micro is covered end to end by `tflm_vectors.rs`; these tests pin down each
//! helper so that a regression points at the helper, not at a kernel.

use tflc_runtime::quant::*;

const Q31: f64 = 2147483648.0;

fn q(raw: i32, integer_bits: i32) -> f64 {
    raw as f64 / (1i64 << (31 - integer_bits)) as f64
}

#[test]
fn exp_on_negative_values_is_accurate() {
    for integer_bits in [0, 1, 4, 5, 6, 12] {
        assert_eq!(exp_on_negative_values(0, integer_bits), i32::MAX);
        let limit = -(1i64 << 31) as f64;
        let mut raw = -1i64;
        while raw as f64 >= limit {
            let a = raw as i32;
            let got = q(exp_on_negative_values(a, integer_bits), 0);
            let want = q(a, integer_bits).exp();
            assert!((got - want).abs() < 2e-8 + 1e-6 * want, "ib={integer_bits} a={a}: {got} vs {want}");
            raw = raw * 3 - 7;
        }
    }
    // Below -32 (only representable with > 5 integer bits) the result is exactly zero.
    assert_eq!(exp_on_negative_values(-(33 << 25), 6), 0);
}

#[test]
fn reciprocal_helpers_are_accurate() {
    for i in 0..=1000 {
        let x = i as f64 / 1000.0;
        let raw = ((x * Q31) as i64).min(i32::MAX as i64) as i32;
        let got = q(one_over_one_plus_x_for_x_in_0_1(raw), 0);
        assert!((got - 1.0 / (1.0 + x)).abs() < 1e-8, "{x}: {got}");
        let got = q(one_minus_x_over_one_plus_x_for_x_in_0_1(raw), 0);
        assert!((got - (1.0 - x) / (1.0 + x)).abs() < 1e-8, "{x}: {got}");
    }
    // GetReciprocal: x in Q12.19; result * 2^-num_bits_over_unit ~= 1 / x.
    for x in [1.0f64, 1.25, 2.0, 3.0, 7.5, 100.0, 4095.0] {
        let raw = (x * (1 << 19) as f64) as i32;
        let (recip, bits) = get_reciprocal(raw, 12);
        let got = q(recip, 0) / (1u64 << bits) as f64;
        assert!(((got - 1.0 / x) * x).abs() < 1e-7, "{x}: {got} (bits {bits})");
    }
}

#[test]
fn logistic_and_tanh_are_accurate() {
    for i in -1600..=1600 {
        let x = i as f64 / 100.0; // [-16, 16]
        let raw = ((x * (1 << 27) as f64) as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        let got = q(fixedpoint_logistic(raw, 4), 0);
        assert!((got - 1.0 / (1.0 + (-x).exp())).abs() < 5e-7, "logistic({x}) = {got}");
        let got = q(fixedpoint_tanh(raw, 4), 0);
        assert!((got - x.tanh()).abs() < 5e-7, "tanh({x}) = {got}");
    }
    assert_eq!(fixedpoint_logistic(0, 4), 1 << 30);
    assert_eq!(fixedpoint_tanh(0, 4), 0);
}

#[test]
fn rounding_half_sum_and_pot() {
    assert_eq!(rounding_half_sum(1, 2), 2);
    assert_eq!(rounding_half_sum(-1, -2), -2);
    assert_eq!(rounding_half_sum(i32::MAX, i32::MAX), i32::MAX);
    assert_eq!(rounding_half_sum(i32::MIN, i32::MIN), i32::MIN);
    assert_eq!(saturating_rounding_multiply_by_pot(1 << 28, 2), 1 << 30);
    assert_eq!(saturating_rounding_multiply_by_pot(1 << 29, 2), i32::MAX);
    assert_eq!(saturating_rounding_multiply_by_pot(-(1 << 29), 2), i32::MIN);
    assert_eq!(saturating_rounding_multiply_by_pot(7, -1), 4);
    assert_eq!(saturating_rounding_multiply_by_pot(-7, -1), -4);
    assert_eq!(fixedpoint_rescale(1 << 20, 12, 0), i32::MAX);
    assert_eq!(fixedpoint_rescale(i32::MAX, 0, 12), 1 << 19);
}

#[test]
fn int16_helpers() {
    assert_eq!(saturating_rounding_doubling_high_mul_i16(i16::MIN, i16::MIN), i16::MAX);
    assert_eq!(saturating_rounding_doubling_high_mul_i16(16384, 16384), 8192);
    assert_eq!(saturating_rounding_doubling_high_mul_i16(3, 16384), 2); // 1.5 -> 2
    assert_eq!(saturating_rounding_doubling_high_mul_i16(-3, 16384), -1); // -1.5 -> -1 (gemmlowp nudge)
    assert_eq!(saturating_doubling_high_mul_i16(3, 16384), 1); // truncates
    assert_eq!(saturating_doubling_high_mul_i16(-3, 16384), -1);
    assert_eq!(saturating_doubling_high_mul_i16(i16::MIN, i16::MIN), i16::MAX);
    assert_eq!(rounding_divide_by_pot_i16(5, 1), 3);
    assert_eq!(rounding_divide_by_pot_i16(-5, 1), -3);
    assert_eq!(rounding_divide_by_pot_i16(i16::MIN, 15), -1);
    assert_eq!(rounding_divide_by_pot_i16(100, 0), 100);
    assert_eq!(saturating_left_shift_i16(1000, 5), 32000);
    assert_eq!(saturating_left_shift_i16(1000, 6), i16::MAX);
    assert_eq!(saturating_left_shift_i16(-1000, 6), i16::MIN);
}

#[test]
fn multiply_by_quantized_multiplier_i64_matches_real() {
    // 0.75 * 2^-3, x up to 2^34.
    let m = (0.75 * Q31) as i32;
    for x in [0i64, 1, -1, 12345, -98765, 1 << 34, -(1 << 34)] {
        let got = multiply_by_quantized_multiplier_i64(x, m, -3);
        let want = (x as f64 * 0.75 / 8.0).round();
        assert!((got as f64 - want).abs() <= 1.0, "{x}: {got} vs {want}");
    }
}
