//! Compile-time helpers (pure, `no_std`, f64 math) shared by the elementwise and
//! data-movement kernels' `prepare_*` functions: TFLite's `QuantizeMultiplier` family and
//! `CalculateActivationRangeQuantized`.
//!
//! NOTE: a sibling `prepare.rs` carries the same `QuantizeMultiplier` for the conv/fc
//! kernels; both mirror `tensorflow/lite/kernels/internal/quantization_util.cc` and are to
//! be deduplicated.

use crate::quant::{frexp_f64, round_f32, round_f64};

/// TFLite `QuantizeMultiplier(double, int32*, int*)` (double-rounding build): returns
/// `(multiplier, shift)` with `real ~= multiplier * 2^(shift - 31)`, `|multiplier|` in
/// `[2^30, 2^31)`, or `(0, 0)` for zero and for values below about `2^-31`.
/// Negative inputs give negative multipliers, as in TFLite (LEAKY_RELU relies on it).
pub fn quantize_multiplier(real: f64) -> (i32, i32) {
    if real == 0.0 {
        return (0, 0);
    }
    let (q, mut shift) = frexp_f64(real);
    let mut q_fixed = round_f64(q * (1u64 << 31) as f64) as i64;
    debug_assert!(q_fixed <= 1i64 << 31);
    if q_fixed == 1i64 << 31 {
        q_fixed /= 2;
        shift += 1;
    }
    if shift < -31 {
        shift = 0;
        q_fixed = 0;
    }
    (q_fixed as i32, shift)
}

/// TFLite `QuantizeMultiplierSmallerThanOneExp`: as [`quantize_multiplier`] for
/// `0 < real < 1`; the returned shift is `<= 0`. Returns `None` outside that range (TFLite
/// would `TFLITE_CHECK`-fail).
pub fn quantize_multiplier_smaller_than_one_exp(real: f64) -> Option<(i32, i32)> {
    if !(real > 0.0 && real < 1.0) {
        return None;
    }
    let (m, s) = quantize_multiplier(real);
    if s > 0 {
        return None;
    }
    Some((m, s))
}

/// Quantization parameters of one per-tensor-quantized tensor, as the `prepare_*`
/// helpers take them (`scale` exactly as stored in the model, f32).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuantParams {
    pub scale: f32,
    pub zero_point: i32,
}

/// A fused activation function (`TfLiteFusedActivation`) as far as quantized clamps care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FusedActivation {
    None,
    Relu,
    ReluN1To1,
    Relu6,
}

/// TFLite's `Quantize(scale, zero_point, f)` inside `CalculateActivationRangeQuantized`:
/// `zero_point + (int32)roundf(f / scale)` in f32. `None` on int32 overflow.
pub fn quantize_activation_bound(scale: f32, zero_point: i32, f: f32) -> Option<i32> {
    let tmp = round_f32(f / scale);
    if !(tmp >= i32::MIN as f32 && tmp <= i32::MAX as f32) {
        return None;
    }
    zero_point.checked_add(tmp as i32)
}

/// TFLite `CalculateActivationRangeQuantized` for an output of range `[qmin, qmax]`
/// (`-128..=127` for int8): the `(act_min, act_max)` clamp.
pub fn activation_range_quantized(
    activation: FusedActivation,
    scale: f32,
    zero_point: i32,
    qmin: i32,
    qmax: i32,
) -> Option<(i32, i32)> {
    let q = |f: f32| quantize_activation_bound(scale, zero_point, f);
    Some(match activation {
        FusedActivation::None => (qmin, qmax),
        FusedActivation::Relu => (qmin.max(q(0.0)?), qmax),
        FusedActivation::Relu6 => (qmin.max(q(0.0)?), qmax.min(q(6.0)?)),
        FusedActivation::ReluN1To1 => (qmin.max(q(-1.0)?), qmax.min(q(1.0)?)),
    })
}

/// [`activation_range_quantized`] for int8 outputs.
pub fn activation_range_s8(activation: FusedActivation, scale: f32, zero_point: i32) -> Option<(i32, i32)> {
    activation_range_quantized(activation, scale, zero_point, i8::MIN as i32, i8::MAX as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent check: the multiplier must reproduce `real` to within Q31 rounding.
    fn check(real: f64) {
        let (m, s) = quantize_multiplier(real);
        let back = m as f64 * 2f64.powi(s - 31);
        assert!((back - real).abs() <= real.abs() * 2f64.powi(-30), "{real}: {m} {s}");
        assert!(m.unsigned_abs() >= 1 << 30);
    }

    #[test]
    fn quantize_multiplier_cases() {
        assert_eq!(quantize_multiplier(0.0), (0, 0));
        assert_eq!(quantize_multiplier(0.5), (1 << 30, 0));
        assert_eq!(quantize_multiplier(1.0), (1 << 30, 1));
        assert_eq!(quantize_multiplier(0.25), (1 << 30, -1));
        // Rounds up to 2^31: renormalised.
        assert_eq!(quantize_multiplier(1.0 - 1e-12), (1 << 30, 1));
        assert_eq!(quantize_multiplier(1e-12), (0, 0));
        assert_eq!(quantize_multiplier(-0.5), (-(1 << 30), 0));
        for r in [0.0039215686, 0.3, 1.7, 123.456, 1.0 / 3.0, 2e-9] {
            check(r);
        }
        assert_eq!(quantize_multiplier_smaller_than_one_exp(1.0), None);
        assert_eq!(quantize_multiplier_smaller_than_one_exp(0.5), Some((1 << 30, 0)));
    }

    #[test]
    fn activation_ranges() {
        assert_eq!(activation_range_s8(FusedActivation::None, 0.1, 3), Some((-128, 127)));
        assert_eq!(activation_range_s8(FusedActivation::Relu, 0.1, 3), Some((3, 127)));
        assert_eq!(activation_range_s8(FusedActivation::Relu6, 0.1, -128), Some((-128, -68)));
        assert_eq!(activation_range_s8(FusedActivation::Relu6, 0.01, -10), Some((-10, 127)));
        assert_eq!(activation_range_s8(FusedActivation::ReluN1To1, 0.01, 0), Some((-100, 100)));
    }
}
