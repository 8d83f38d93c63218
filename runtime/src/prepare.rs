//! Compile-time parameter preparation: the op-agnostic arithmetic of TFLite's `Prepare`
//! functions (QuantizeMultiplier, padding, activation ranges, input radii, ...), as pure
//! functions the compiler (and tests) call to fill the `<Op>Params` structs of
//! [`crate::kernels`]. An op's own Prepare lives next to its kernel
//! (`kernels::<op>::prepare_<op>_s8`); nothing here imports a kernel.
//!
//! Every function names the TFLite function it mirrors and reproduces its floating-point
//! steps in the same order and precision (`float` stays `f32`, `double` stays `f64`),
//! because a multiplier that differs in its last bit changes outputs. Everything here is
//! `no_std` (no `f64::round`/`frexp` from std): rounding and `frexp` come from
//! [`crate::quant`], which implements them on the IEEE-754 bit patterns.
//!
//! Functions return `None` where TFLite's `Prepare` would fail (`TF_LITE_ENSURE`/`CHECK`),
//! so that the compiler can report an error instead of panicking.

use crate::quant::{frexp_f64 as frexp, round_f32, round_f64};

/// `2^n` as an `f64`, exact for `-1074 <= n <= 1023`.
pub fn exp2i(n: i32) -> f64 {
    if n > 1023 {
        f64::INFINITY
    } else if n >= -1022 {
        f64::from_bits(((n + 1023) as u64) << 52)
    } else if n >= -1074 {
        f64::from_bits(1u64 << (n + 1074))
    } else {
        0.0
    }
}

/// C `floor(double)`.
pub fn floor_f64(x: f64) -> f64 {
    // NaN, infinities and magnitudes >= 2^52 are already integral.
    if x.is_nan() || x.abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    let t = x as i64 as f64;
    if t > x {
        t - 1.0
    } else {
        t
    }
}

/// C++ `static_cast<int32_t>(double)` for the value range that occurs here, with x86's
/// out-of-range result (`cvttsd2si` gives `i32::MIN`), which is what the TFLite Micro
/// oracle computed on its host.
fn double_to_i32_x86(x: f64) -> i32 {
    if (-2_147_483_648.0..2_147_483_648.0).contains(&x) {
        x as i32
    } else {
        i32::MIN
    }
}

/// TFLite `QuantizeMultiplier(double, int32_t*, int*)` (quantization_util.cc), double
/// rounding build: returns `(quantized_multiplier, shift)` with `real ~=
/// quantized_multiplier * 2^(shift - 31)`. Includes the `q_fixed == 2^31` renormalization
/// and the flush to `(0, 0)` when `shift < -31`. `None` where TFLite `CHECK`-fails
/// (non-finite input).
pub fn quantize_multiplier(real_multiplier: f64) -> Option<(i32, i32)> {
    if real_multiplier == 0.0 {
        return Some((0, 0));
    }
    if !real_multiplier.is_finite() {
        return None;
    }
    let (q, mut shift) = frexp(real_multiplier);
    let mut q_fixed = round_f64(q * 2_147_483_648.0) as i64;
    if q_fixed > (1i64 << 31) {
        return None;
    }
    if q_fixed == (1i64 << 31) {
        q_fixed /= 2;
        shift += 1;
    }
    if q_fixed > i32::MAX as i64 {
        return None;
    }
    if shift < -31 {
        shift = 0;
        q_fixed = 0;
    }
    Some((q_fixed as i32, shift))
}

/// TFLite `QuantizeMultiplierGreaterThanOne`: [`quantize_multiplier`] for `real > 1`,
/// returning a non-negative left shift.
pub fn quantize_multiplier_greater_than_one(real_multiplier: f64) -> Option<(i32, i32)> {
    if real_multiplier.is_nan() || real_multiplier <= 1.0 {
        return None;
    }
    let (m, shift) = quantize_multiplier(real_multiplier)?;
    if shift < 0 {
        return None;
    }
    Some((m, shift))
}

/// TFLite `QuantizeMultiplierSmallerThanOneExp`: [`quantize_multiplier`] for
/// `0 < real < 1`, returning a non-positive left shift.
pub fn quantize_multiplier_smaller_than_one_exp(real_multiplier: f64) -> Option<(i32, i32)> {
    if real_multiplier.is_nan() || real_multiplier >= 1.0 || real_multiplier <= 0.0 {
        return None;
    }
    let (m, shift) = quantize_multiplier(real_multiplier)?;
    if shift > 0 {
        return None;
    }
    Some((m, shift))
}

/// The per-output-channel multiplier of CONV_2D / DEPTHWISE_CONV_2D (and per-channel
/// FULLY_CONNECTED): TFLite `PopulateConvolutionQuantizationParams` /
/// `CalculateOpDataFullyConnected` per-channel branch:
/// `QuantizeMultiplier(double(input_scale) * double(filter_scale) / double(output_scale))`.
/// For per-tensor conv weights TFLite broadcasts `filter_scales[0]` to every channel.
pub fn conv_channel_multiplier(input_scale: f32, filter_scale: f32, output_scale: f32) -> Option<(i32, i32)> {
    let effective = input_scale as f64 * filter_scale as f64 / output_scale as f64;
    quantize_multiplier(effective)
}

/// The fast-path bias of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED for one output
/// channel: `bias + input_offset * sum(taps)`, where `taps` are the channel's filter values
/// (the whole window). A window that lies fully inside the input then accumulates
/// `sum(w * x)` from this value instead of `sum(w * (x + input_offset))` from `bias`: the
/// same int32 value, because the accumulator wraps (arithmetic modulo 2^32 is a ring), so
/// this is computed wrapping too. No TFLite counterpart (CMSIS-NN precomputes the same sum).
pub fn fold_input_offset(taps: impl IntoIterator<Item = i8>, bias: i32, input_offset: i32) -> i32 {
    let sum = taps.into_iter().fold(0i32, |s, w| s.wrapping_add(w as i32));
    bias.wrapping_add(input_offset.wrapping_mul(sum))
}

/// The per-tensor multiplier of FULLY_CONNECTED: TFLite `GetQuantizedConvolutionMultipler`
/// (note: the input*filter product is taken in `float`, unlike the per-channel path),
/// then `QuantizeMultiplier`. `None` if the product is negative (TFLite's ENSURE).
pub fn fully_connected_tensor_multiplier(input_scale: f32, filter_scale: f32, output_scale: f32) -> Option<(i32, i32)> {
    let input_product_scale = (input_scale * filter_scale) as f64;
    if input_product_scale.is_nan() || input_product_scale < 0.0 {
        return None;
    }
    quantize_multiplier(input_product_scale / output_scale as f64)
}

/// A TFLite fused activation (`ActivationFunctionType`) as far as int8 kernels clamp it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FusedActivation {
    /// No clamp beyond the type's range.
    None,
    /// Clamp below at 0.
    Relu,
    /// Clamp to `[-1, 1]`.
    ReluN1To1,
    /// Clamp to `[0, 6]`.
    Relu6,
}

/// TFLite `Quantize(context, scale, zero_point, f, q)` (kernel_util.cc): `zero_point +
/// int(roundf(f / scale))`, in `float`. `None` on int32 overflow (TFLite's ENSURE).
pub fn quantize_f32(scale: f32, zero_point: i32, f: f32) -> Option<i32> {
    let tmp = round_f32(f / scale);
    if tmp.is_nan() || tmp < i32::MIN as f32 || tmp > i32::MAX as f32 {
        return None;
    }
    // `tmp <= 2^31` as float; 2^31 itself would be UB in C++ too.
    let tmp = tmp as i64;
    if tmp > i32::MAX as i64 {
        return None;
    }
    zero_point.checked_add(tmp as i32)
}

/// TFLite `CalculateActivationRangeQuantized` for an int8 output: the
/// `(activation_min, activation_max)` clamp of a fused activation.
pub fn activation_range_s8(activation: FusedActivation, output_scale: f32, output_zero_point: i32) -> Option<(i32, i32)> {
    let (qmin, qmax) = (i8::MIN as i32, i8::MAX as i32);
    let q = |f: f32| quantize_f32(output_scale, output_zero_point, f);
    Some(match activation {
        FusedActivation::None => (qmin, qmax),
        FusedActivation::Relu => (qmin.max(q(0.0)?), qmax),
        FusedActivation::Relu6 => (qmin.max(q(0.0)?), qmax.min(q(6.0)?)),
        FusedActivation::ReluN1To1 => (qmin.max(q(-1.0)?), qmax.min(q(1.0)?)),
    })
}

/// TFLite `CalculateActivationRangeQuantized` for an int16 output.
pub fn activation_range_s16(activation: FusedActivation, output_scale: f32, output_zero_point: i32) -> Option<(i32, i32)> {
    let (qmin, qmax) = (i16::MIN as i32, i16::MAX as i32);
    let q = |f: f32| quantize_f32(output_scale, output_zero_point, f);
    Some(match activation {
        FusedActivation::None => (qmin, qmax),
        FusedActivation::Relu => (qmin.max(q(0.0)?), qmax),
        FusedActivation::Relu6 => (qmin.max(q(0.0)?), qmax.min(q(6.0)?)),
        FusedActivation::ReluN1To1 => (qmin.max(q(-1.0)?), qmax.min(q(1.0)?)),
    })
}

/// TFLite `Padding`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Padding {
    /// Output size `ceil(in / stride)`, the window centred with zero padding.
    Same,
    /// No padding: output size `ceil((in - effective_filter + 1) / stride)`.
    Valid,
}

/// One spatial dimension of TFLite `ComputePaddingHeightWidth` (padding.h): returns
/// `(output_size, padding_before)`; TFLite's kernels use only the "before" (top/left)
/// amount, the rest follows from the output size. `None` where TFLite errors.
pub fn compute_padding(padding: Padding, in_size: usize, filter_size: usize, stride: usize, dilation: usize) -> Option<(usize, usize)> {
    if filter_size == 0 || stride == 0 || dilation == 0 {
        return None;
    }
    let (in_size, filter_size, stride, dilation) = (in_size as i64, filter_size as i64, stride as i64, dilation as i64);
    let effective_filter_size = (filter_size - 1) * dilation + 1;
    let out_size = match padding {
        Padding::Same => (in_size + stride - 1) / stride,
        Padding::Valid => (in_size + stride - effective_filter_size) / stride,
    };
    if out_size < 0 {
        return None;
    }
    let total_padding = ((out_size - 1) * stride + effective_filter_size - in_size).max(0);
    Some((out_size as usize, (total_padding / 2) as usize))
}

/// TFLite `CalculateInputRadius(input_integer_bits, input_left_shift, total_signed_bits)`
/// (quantization_util.cc, float build): `floor((2^ib - 1) * 2^(tsb - ib) / 2^shift)`.
pub fn calculate_input_radius(input_integer_bits: i32, input_left_shift: i32, total_signed_bits: i32) -> i32 {
    let max_input_rescaled = 1.0 * ((1i64 << input_integer_bits) - 1) as f64
        * (1i64 << (total_signed_bits - input_integer_bits)) as f64
        / exp2i(input_left_shift);
    double_to_i32_x86(floor_f64(max_input_rescaled))
}

/// The quantization part of [`crate::kernels::softmax::SoftmaxParams`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoftmaxQuant {
    /// Fixed-point multiplier scaling input differences (`beta * input_scale`) for the exp.
    pub input_multiplier: i32,
    /// Left shift applied with `input_multiplier`.
    pub input_left_shift: i32,
    /// Smallest `x - max` still included; differences below it contribute 0.
    pub diff_min: i32,
}

/// int8 -> int8 SOFTMAX: TFLite Micro `CalculateSoftmaxParams` (softmax_common.cc), i.e.
/// `PreprocessSoftmaxScaling(beta, input_scale, 5)` and
/// `diff_min = -CalculateInputRadius(5, input_left_shift, 31)`. TFLite Micro requires the
/// output to have scale 1/256 and zero point -128 (the kernel assumes it).
pub fn softmax_s8(input_scale: f32, beta: f32) -> Option<SoftmaxQuant> {
    const SCALED_DIFF_INTEGER_BITS: i32 = 5;
    let max_real_multiplier = ((1i64 << 31) - 1) as f64;
    let input_beta_real_multiplier =
        (beta as f64 * input_scale as f64 * (1i64 << (31 - SCALED_DIFF_INTEGER_BITS)) as f64).min(max_real_multiplier);
    let (input_multiplier, input_left_shift) = quantize_multiplier_greater_than_one(input_beta_real_multiplier)?;
    // TFLite: `diff_min = -1.0 * CalculateInputRadius(...)`, a double stored into an int.
    let diff_min = -calculate_input_radius(SCALED_DIFF_INTEGER_BITS, input_left_shift, 31);
    Some(SoftmaxQuant { input_multiplier, input_left_shift, diff_min })
}

/// The input rescaling shared by int8 LOGISTIC and TANH (TFLite Micro
/// `CalculateArithmeticOpDataLogistic` / tanh.cc `CalculateArithmeticOpData`):
/// `q, shift = frexp(input_scale * 2^27)`, `multiplier = int32(round(q * 2^31))` (no
/// `QuantizeMultiplier` renormalization: a `q` that rounds to 2^31 gives x86's
/// `i32::MIN`, as the oracle did), `radius = CalculateInputRadius(4, shift, 31)`.
/// Returns `(input_multiplier, input_left_shift, input_range_radius)`.
pub fn logistic_tanh_input_s8(input_scale: f32) -> (i32, i32, i32) {
    const INPUT_INTEGER_BITS: i32 = 4;
    let input_real_multiplier = input_scale as f64 * (1i64 << (31 - INPUT_INTEGER_BITS)) as f64;
    let (q, input_left_shift) = frexp(input_real_multiplier);
    let input_multiplier = double_to_i32_x86(round_f64(q * 2_147_483_648.0));
    let input_range_radius = calculate_input_radius(INPUT_INTEGER_BITS, input_left_shift, 31);
    (input_multiplier, input_left_shift, input_range_radius)
}

/// TFLite `DownScaleInt32ToInt16Multiplier` (common.h).
pub fn downscale_int32_to_int16_multiplier(multiplier: i32) -> i16 {
    const ROUNDING_OFFSET: i32 = 1 << 15;
    if multiplier >= i32::MAX - ROUNDING_OFFSET {
        return i16::MAX;
    }
    ((multiplier + ROUNDING_OFFSET) >> 16) as i16
}

/// The quantization part of [`crate::kernels::mean::MeanParams`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeanQuant {
    /// Multiplier of `input_scale / output_scale` with `1 / num_elements` folded in.
    pub multiplier: i32,
    /// Exponent of `multiplier` (positive: a left shift).
    pub shift: i32,
    /// `-input_zero_point * num_elements` (wrapping), added to each int32 sum.
    pub sum_offset: i32,
}

/// int8 MEAN: TFLite Micro `PrepareMeanOrSumHelper` (`QuantizeMultiplier(double(in_scale)
/// / double(out_scale))`) followed by the run-time part of reference
/// `QuantizedMeanOrSum` that depends only on shapes: the `1/num_elements_in_axis` folding
/// into the multiplier (`shift = min(floor(log2 n), 32, 31 + shift)`,
/// `multiplier = (int64(multiplier) << shift) / n`, `shift -= shift'`) and the
/// `-input_zero_point * n` offset (wrapped to int32, as the kernel's `int32` sum is).
/// TFLite Micro takes this path for every int8 MEAN, whether or not input and output
/// quantization are equal. `num_elements_in_axis` must be positive.
pub fn mean_s8(input_scale: f32, input_zero_point: i32, output_scale: f32, num_elements_in_axis: usize) -> Option<MeanQuant> {
    if num_elements_in_axis == 0 {
        return None;
    }
    let (multiplier, shift) = quantize_multiplier(input_scale as f64 / output_scale as f64)?;
    let n = num_elements_in_axis as i64;
    let mut s = 63 - (n as u64).leading_zeros() as i32;
    s = s.min(32);
    s = s.min(31 + shift);
    // C++ `int64 << s` with s possibly negative would be UB; TFLite never gets there for
    // shift >= -31 (QuantizeMultiplier flushes smaller shifts to 0).
    if s < 0 {
        return None;
    }
    let multiplier = (((multiplier as i64) << s) / n) as i32;
    let shift = shift - s;
    let sum_offset = (-(input_zero_point as i64) * n) as i32;
    Some(MeanQuant { multiplier, shift, sum_offset })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frexp_matches_definition() {
        for &x in &[1.0, 0.5, 0.75, 3.0, 1e-300, -2.5, 123456.789, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308] {
            let (f, e) = frexp(x);
            assert!((0.5..1.0).contains(&f.abs()), "{x}: {f}");
            // f * 2^e == x exactly (split the scaling to stay in range).
            let back = f * exp2i(e / 2) * exp2i(e - e / 2);
            assert_eq!(back, x, "{x}");
        }
        assert_eq!(frexp(0.0), (0.0, 0));
        assert_eq!(frexp(1.0), (0.5, 1));
        assert_eq!(frexp(0.25), (0.5, -1));
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(round_f64(0.5), 1.0);
        assert_eq!(round_f64(-0.5), -1.0);
        assert_eq!(round_f64(1.4999999999999998), 1.0);
        assert_eq!(round_f64(2.5), 3.0);
        assert_eq!(round_f64(-2.5), -3.0);
        assert_eq!(round_f64(1e300), 1e300);
        assert_eq!(round_f32(0.5), 1.0);
        assert_eq!(round_f32(-1.5), -2.0);
        assert_eq!(round_f32(0.49999997), 0.0);
        assert_eq!(floor_f64(-0.5), -1.0);
        assert_eq!(floor_f64(2.0), 2.0);
        assert_eq!(floor_f64(2.9), 2.0);
    }

    #[test]
    fn quantize_multiplier_edges() {
        assert_eq!(quantize_multiplier(0.0), Some((0, 0)));
        assert_eq!(quantize_multiplier(0.5), Some((1 << 30, 0)));
        assert_eq!(quantize_multiplier(1.0), Some((1 << 30, 1)));
        assert_eq!(quantize_multiplier(0.75), Some((3 << 29, 0)));
        // q rounds to 2^31: renormalized to 2^30 with shift + 1.
        let almost_one = 1.0 - 1e-12;
        assert_eq!(quantize_multiplier(almost_one), Some((1 << 30, 1)));
        // Tiny multipliers flush to zero.
        assert_eq!(quantize_multiplier(1e-12), Some((0, 0)));
        assert_eq!(quantize_multiplier(exp2i(-33)), Some((0, 0)));
        assert_eq!(quantize_multiplier(exp2i(-32)), Some((1 << 30, -31)));
        assert_eq!(quantize_multiplier(f64::NAN), None);
        // Negative multipliers keep their sign (TFLite allows them in double rounding).
        assert_eq!(quantize_multiplier(-0.5), Some((-(1 << 30), 0)));
    }

    #[test]
    fn quantize_multiplier_round_trip() {
        let mut x = 1.234e-9f64;
        while x < 1e6 {
            let (m, s) = quantize_multiplier(x).unwrap();
            assert!((1 << 30..=i32::MAX).contains(&m), "{x}");
            let back = m as f64 * exp2i(s - 31);
            assert!(((back - x) / x).abs() < 1e-9, "{x} {back}");
            x *= 1.37;
        }
    }

    #[test]
    fn padding_same_and_valid() {
        // 9 wide, 3 filter, stride 1, SAME -> 9, pad 1.
        assert_eq!(compute_padding(Padding::Same, 9, 3, 1, 1), Some((9, 1)));
        // 8 wide, 3 filter, stride 2, SAME -> 4, total pad 1 -> before 0.
        assert_eq!(compute_padding(Padding::Same, 8, 3, 2, 1), Some((4, 0)));
        assert_eq!(compute_padding(Padding::Same, 9, 3, 2, 1), Some((5, 1)));
        assert_eq!(compute_padding(Padding::Valid, 12, 3, 2, 1), Some((5, 0)));
        // Dilation 2: effective filter 5.
        assert_eq!(compute_padding(Padding::Same, 10, 3, 1, 2), Some((10, 2)));
        assert_eq!(compute_padding(Padding::Valid, 10, 3, 1, 2), Some((6, 0)));
        assert_eq!(compute_padding(Padding::Valid, 2, 3, 1, 1), Some((0, 0)));
        assert_eq!(compute_padding(Padding::Valid, 2, 3, 1, 0), None);
    }

    #[test]
    fn activation_ranges() {
        assert_eq!(activation_range_s8(FusedActivation::None, 0.1, 3), Some((-128, 127)));
        assert_eq!(activation_range_s8(FusedActivation::Relu, 0.1, 3), Some((3, 127)));
        assert_eq!(activation_range_s8(FusedActivation::Relu6, 0.1, -128), Some((-128, -68)));
        assert_eq!(activation_range_s8(FusedActivation::Relu6, 0.01, -128), Some((-128, 127)));
        assert_eq!(activation_range_s8(FusedActivation::ReluN1To1, 0.01, 0), Some((-100, 100)));
    }

    #[test]
    fn softmax_params_typical() {
        // scale 1/16, beta 1: real = 2^-4 * 2^26 = 2^22 -> multiplier 2^30, shift 23.
        let q = softmax_s8(1.0 / 16.0, 1.0).unwrap();
        assert_eq!((q.input_multiplier, q.input_left_shift), (1 << 30, 23));
        // radius = floor(31 * 2^26 / 2^23) = 248.
        assert_eq!(q.diff_min, -248);
    }

    #[test]
    fn mean_folds_count() {
        // Same scales, 35 elements: multiplier 2^30 shift 1; floor(log2 35) = 5.
        let q = mean_s8(0.5, -3, 0.5, 35).unwrap();
        assert_eq!(q.shift, 1 - 5);
        assert_eq!(q.multiplier, (((1i64 << 30) << 5) / 35) as i32);
        assert_eq!(q.sum_offset, 105);
    }
}
