//! The elementwise math family: TFLite Micro `elementwise.cc` (ABS, SQRT, RSQRT, SQUARE,
//! LOG, SIN, COS), `neg.cc`, `ceil.cc`, `floor.cc`, `round.cc`, `exp.cc`, `elu.cc`,
//! `squared_difference.cc`, `floor_div.cc` and `floor_mod.cc`.
//!
//! - float32 unaries: one loop ([`map_f32`]) over the op's element function, one `pub fn`
//!   per op (`abs_f32`, `floor_f32`, ...) plus its `_in_place` form, so firmware links only
//!   what it calls. Each element function is TFLite's expression in TFLite's operation order:
//!   ABS, NEG, SQUARE, CEIL, FLOOR, ROUND, SQRT and RSQRT (`1 / sqrt(x)`, two roundings) give
//!   TFLite's bits exactly; EXP, LOG, SIN, COS and ELU (`expm1`) use [`crate::math`], within
//!   one ulp of the C library's functions TFLite calls (equal on almost every input).
//! - int8 / int16 ABS and int8 RSQRT: `AbsEvalQuantized` / `RsqrtEvalQuantized` with the
//!   multipliers of `PrepareAbsRsqrt` ([`prepare_abs`], [`prepare_rsqrt`]).
//! - int8 ELU: the 256-entry table of `PopulateLookupTable`, computed by the compiler, and
//!   [`lut_s8`].
//! - SQUARED_DIFFERENCE (float32, int32, int8, int16), FLOOR_DIV and FLOOR_MOD (float32):
//!   broadcasting binaries over [`Broadcast`].

#[cfg(target_arch = "x86_64")]
pub(crate) mod lanes;
#[cfg(test)]
mod tests;

use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place, Broadcast};
use crate::math::{cosf, expf, expm1f, logf, sinf, sqrtf};
#[cfg(feature = "prepare")]
use crate::prepare::{quantize_multiplier, quantize_multiplier_smaller_than_one_exp};
use crate::quant::{
    ceil_f32, exp_on_negative_values, fixedpoint_rescale, floor_f32, get_inv_sqrt_quantized_multiplier_exp,
    log_x_for_x_greater_than_or_equal_to_1, multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_smaller_than_one_exp,
    rounding_divide_by_pot,
};

// ---------------------------------------------------------------------------------------
// float32 unaries.

/// `output[i] = f(input[i])`.
#[inline(always)]
pub fn map_f32(input: &[f32], output: &mut [f32], f: impl Fn(f32) -> f32) {
    debug_assert_eq!(input.len(), output.len());
    for (y, &x) in output.iter_mut().zip(input) {
        *y = f(x);
    }
}

/// `data[i] = f(data[i])`.
#[inline(always)]
pub fn map_f32_in_place(data: &mut [f32], f: impl Fn(f32) -> f32) {
    for v in data {
        *v = f(*v);
    }
}

/// `std::abs` (clears the sign bit, NaN included).
#[inline]
pub fn abs_f32_elem(x: f32) -> f32 {
    x.abs()
}

/// `-x` (flips the sign bit).
#[inline]
pub fn neg_f32_elem(x: f32) -> f32 {
    -x
}

/// `f * f`.
#[inline]
pub fn square_f32_elem(x: f32) -> f32 {
    x * x
}

/// `1.f / std::sqrt(f)`.
#[inline]
pub fn rsqrt_f32_elem(x: f32) -> f32 {
    1.0 / sqrtf(x)
}

/// TFLite's `RoundToNearest` (`reference/round.h`): `floor(x)`, then up when the fraction
/// exceeds one half or is one half and the floor is odd (ties to even). NaN and infinities
/// come out unchanged (`floor + 1`).
#[inline]
pub fn round_f32_elem(x: f32) -> f32 {
    let floor_val = floor_f32(x);
    let diff = x - floor_val;
    // A fraction of exactly 0.5 implies |x| < 2^23, so the int conversion is exact.
    if diff < 0.5 || (diff == 0.5 && (floor_val as i32) % 2 == 0) {
        floor_val
    } else {
        floor_val + 1.0
    }
}

/// `reference_ops::Elu`: `x < 0 ? expm1(x) : x`.
#[inline]
pub fn elu_f32_elem(x: f32) -> f32 {
    if x < 0.0 {
        expm1f(x)
    } else {
        x
    }
}

macro_rules! unary_f32 {
    ($($(#[$doc:meta])* $name:ident, $in_place:ident => $f:path;)*) => {$(
        $(#[$doc])*
        pub fn $name(input: &[f32], output: &mut [f32]) {
            map_f32(input, output, $f)
        }

        /// The in-place form: `data[i] = f(data[i])`.
        pub fn $in_place(data: &mut [f32]) {
            map_f32_in_place(data, $f)
        }
    )*};
}

unary_f32! {
    /// float32 ABS.
    abs_f32, abs_f32_in_place => abs_f32_elem;
    /// float32 NEG (`reference_ops::Negate`).
    neg_f32, neg_f32_in_place => neg_f32_elem;
    /// float32 CEIL (`std::ceil`).
    ceil_f32_op, ceil_f32_op_in_place => ceil_f32;
    /// float32 FLOOR (`std::floor`).
    floor_f32_op, floor_f32_op_in_place => floor_f32;
    /// float32 ROUND (ties to even, [`round_f32_elem`]).
    round_f32, round_f32_in_place => round_f32_elem;
    /// float32 SQRT (IEEE).
    sqrt_f32, sqrt_f32_in_place => sqrtf;
    /// float32 RSQRT.
    rsqrt_f32, rsqrt_f32_in_place => rsqrt_f32_elem;
    /// float32 SQUARE.
    square_f32, square_f32_in_place => square_f32_elem;
    /// float32 LOG.
    log_f32, log_f32_in_place => logf;
    /// float32 EXP.
    exp_f32, exp_f32_in_place => expf;
    /// float32 ELU.
    elu_f32, elu_f32_in_place => elu_f32_elem;
    /// float32 SIN (`std::sin`).
    sin_f32, sin_f32_in_place => sinf;
    /// float32 COS (`std::cos`).
    cos_f32, cos_f32_in_place => cosf;
}

// ---------------------------------------------------------------------------------------
// Quantized ABS and RSQRT.

/// `OpDataAbsRsqrt`: the input and output zero points and the output multiplier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbsRsqrtParams {
    /// `-input.zero_point`.
    pub input_offset: i32,
    /// `output.zero_point`.
    pub output_offset: i32,
    /// ABS: `QuantizeMultiplier(input_scale / output_scale)` (unused without rescale);
    /// RSQRT: `QuantizeMultiplier(1 / (sqrt(input_scale) * output_scale))`.
    pub multiplier: i32,
    /// Exponent of `multiplier` (positive: a left shift).
    pub shift: i32,
    /// ABS only: the scales differ.
    pub needs_rescale: bool,
}

/// `PrepareAbsRsqrt` for ABS (`SetAbsOutputMultiplier`: the scales divided in float, then
/// `QuantizeMultiplier` in double). `None` where TFLite's `QuantizeMultiplier` fails.
#[cfg(feature = "prepare")]
pub fn prepare_abs(input_scale: f32, input_zero_point: i32, output_scale: f32, output_zero_point: i32) -> Option<AbsRsqrtParams> {
    let needs_rescale = input_scale != output_scale;
    let (multiplier, shift) = if needs_rescale { quantize_multiplier((input_scale / output_scale) as f64)? } else { (0, 0) };
    Some(AbsRsqrtParams { input_offset: input_zero_point, output_offset: output_zero_point, multiplier, shift, needs_rescale })
}

/// `PrepareAbsRsqrt` for RSQRT (`SetRsqrtOutputMultiplier`: `1. / double(sqrtf(input_scale)
/// * output_scale)`).
#[cfg(feature = "prepare")]
pub fn prepare_rsqrt(input_scale: f32, input_zero_point: i32, output_scale: f32, output_zero_point: i32) -> Option<AbsRsqrtParams> {
    let scale = 1.0 / (sqrtf(input_scale) * output_scale) as f64;
    let (multiplier, shift) = quantize_multiplier(scale)?;
    Some(AbsRsqrtParams {
        input_offset: input_zero_point,
        output_offset: output_zero_point,
        multiplier,
        shift,
        needs_rescale: input_scale != output_scale,
    })
}

/// `AbsEvalQuantized` on one value, clamped to `lo..=hi`.
#[inline]
fn abs_q(p: &AbsRsqrtParams, x: i32, lo: i32, hi: i32) -> i32 {
    let value = (x - p.input_offset).abs();
    let out = if p.needs_rescale {
        multiply_by_quantized_multiplier(value, p.multiplier, p.shift) + p.output_offset
    } else {
        value + p.output_offset
    };
    out.clamp(lo, hi)
}

/// `RsqrtEvalQuantized` on one value, clamped to `lo..=hi`. TFLite Micro's Invoke fails on
/// an input below the zero point ("Rsqrt is only defined for positive values"); this kernel
/// cannot fail, and gives what the arithmetic without that check gives (the value of one
/// quantization step, `GetInvSqrtQuantizedMultiplierExp` treating every input <= 1 alike).
#[inline]
fn rsqrt_q(p: &AbsRsqrtParams, x: i32, lo: i32, hi: i32) -> i32 {
    const K_SHIFT: i32 = 20;
    let value = x - p.input_offset;
    if value == 0 {
        return hi;
    }
    let (inv_sqrt_multiplier, inv_sqrt_shift) = get_inv_sqrt_quantized_multiplier_exp(value, -1);
    let data = multiply_by_quantized_multiplier(1, inv_sqrt_multiplier, inv_sqrt_shift + K_SHIFT);
    let out = multiply_by_quantized_multiplier(data, p.multiplier, p.shift - K_SHIFT) + p.output_offset;
    out.clamp(lo, hi)
}

/// int8 ABS.
pub fn abs_s8(p: &AbsRsqrtParams, input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(input.len(), output.len());
    for (y, &x) in output.iter_mut().zip(input) {
        *y = abs_q(p, x as i32, -128, 127) as i8;
    }
}

/// In-place int8 ABS.
pub fn abs_s8_in_place(p: &AbsRsqrtParams, data: &mut [i8]) {
    for v in data {
        *v = abs_q(p, *v as i32, -128, 127) as i8;
    }
}

/// Quantized int16 ABS (zero points 0).
pub fn abs_s16(p: &AbsRsqrtParams, input: &[i16], output: &mut [i16]) {
    debug_assert_eq!(input.len(), output.len());
    for (y, &x) in output.iter_mut().zip(input) {
        *y = abs_q(p, x as i32, -32768, 32767) as i16;
    }
}

/// In-place quantized int16 ABS.
pub fn abs_s16_in_place(p: &AbsRsqrtParams, data: &mut [i16]) {
    for v in data {
        *v = abs_q(p, *v as i32, -32768, 32767) as i16;
    }
}

/// Unquantized int16 ABS (`AbsHelper`: `std::abs` in int, narrowed: -32768 stays -32768).
pub fn abs_i16(input: &[i16], output: &mut [i16]) {
    debug_assert_eq!(input.len(), output.len());
    for (y, &x) in output.iter_mut().zip(input) {
        *y = x.wrapping_abs();
    }
}

/// In-place unquantized int16 ABS.
pub fn abs_i16_in_place(data: &mut [i16]) {
    for v in data {
        *v = v.wrapping_abs();
    }
}

/// int8 RSQRT.
pub fn rsqrt_s8(p: &AbsRsqrtParams, input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(input.len(), output.len());
    for (y, &x) in output.iter_mut().zip(input) {
        *y = rsqrt_q(p, x as i32, -128, 127) as i8;
    }
}

/// In-place int8 RSQRT.
pub fn rsqrt_s8_in_place(p: &AbsRsqrtParams, data: &mut [i8]) {
    for v in data {
        *v = rsqrt_q(p, *v as i32, -128, 127) as i8;
    }
}

/// Quantized int16 RSQRT (zero points 0): `RsqrtEvalQuantized<int16_t>`, the int8
/// arithmetic clamped to int16 (TFLite Micro's PyPI release accepts int16 RSQRT; the pinned
/// commit's Prepare refused it, its Eval already had this case).
pub fn rsqrt_s16(p: &AbsRsqrtParams, input: &[i16], output: &mut [i16]) {
    debug_assert_eq!(input.len(), output.len());
    for (y, &x) in output.iter_mut().zip(input) {
        *y = rsqrt_q(p, x as i32, -32768, 32767) as i16;
    }
}

/// In-place quantized int16 RSQRT.
pub fn rsqrt_s16_in_place(p: &AbsRsqrtParams, data: &mut [i16]) {
    for v in data {
        *v = rsqrt_q(p, *v as i32, -32768, 32767) as i16;
    }
}

// ---------------------------------------------------------------------------------------
// int8 lookup tables (ELU).

/// `output[i] = table[input[i] as u8]` (`EvalUsingLookupTable`).
pub fn lut_s8(table: &[i8], input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(table.len(), 256);
    debug_assert_eq!(input.len(), output.len());
    for (y, &x) in output.iter_mut().zip(input) {
        *y = table[x as u8 as usize];
    }
}

/// In-place [`lut_s8`].
pub fn lut_s8_in_place(table: &[i8], data: &mut [i8]) {
    debug_assert_eq!(table.len(), 256);
    for v in data {
        *v = table[*v as u8 as usize];
    }
}

// ---------------------------------------------------------------------------------------
// Broadcasting binaries.

/// float32 FLOOR_DIV (`reference_ops::FloorDiv`: `std::floor(x / y)`). TFLite Micro's Invoke
/// fails on a zero divisor; here it gives the IEEE quotient's floor (inf or NaN).
pub fn floor_div_f32(b: &Broadcast, input1: &[f32], input2: &[f32], output: &mut [f32]) {
    broadcast_binary(b, input1, input2, output, floor_div_f32_elem);
}

/// In-place float32 FLOOR_DIV (output over operand 1, the dividend).
pub fn floor_div_f32_in_place(b: &Broadcast, inout: &mut [f32], input2: &[f32]) {
    broadcast_binary_in_place(b, inout, input2, floor_div_f32_elem);
}

/// `std::floor(x / y)`.
#[inline]
pub fn floor_div_f32_elem(x: f32, y: f32) -> f32 {
    floor_f32(x / y)
}

/// `reference_ops::FloorMod` for float: `fmod`, then the divisor added when the remainder is
/// non-zero and its sign differs from the divisor's.
#[inline]
pub fn floor_mod_f32_elem(x: f32, y: f32) -> f32 {
    let trunc_mod = x % y; // C `fmod`
    if trunc_mod != 0.0 && ((y < 0.0) != (trunc_mod < 0.0)) {
        trunc_mod + y
    } else {
        trunc_mod
    }
}

/// float32 FLOOR_MOD.
pub fn floor_mod_f32(b: &Broadcast, input1: &[f32], input2: &[f32], output: &mut [f32]) {
    broadcast_binary(b, input1, input2, output, floor_mod_f32_elem);
}

/// In-place float32 FLOOR_MOD (output over operand 1, the dividend).
pub fn floor_mod_f32_in_place(b: &Broadcast, inout: &mut [f32], input2: &[f32]) {
    broadcast_binary_in_place(b, inout, input2, floor_mod_f32_elem);
}

/// One float32 SQUARED_DIFFERENCE element: `d = x - y; d * d`.
#[inline]
pub fn squared_difference_f32_elem(x: f32, y: f32) -> f32 {
    let d = x - y;
    d * d
}

/// float32 SQUARED_DIFFERENCE: `d = x - y; d * d`.
pub fn squared_difference_f32(b: &Broadcast, input1: &[f32], input2: &[f32], output: &mut [f32]) {
    broadcast_binary(b, input1, input2, output, squared_difference_f32_elem);
}

/// In-place float32 SQUARED_DIFFERENCE (output over operand 1).
pub fn squared_difference_f32_in_place(b: &Broadcast, inout: &mut [f32], input2: &[f32]) {
    broadcast_binary_in_place(b, inout, input2, squared_difference_f32_elem);
}

/// One int32 SQUARED_DIFFERENCE element (C's int32 arithmetic, wrapping where C overflows).
#[inline]
pub fn squared_difference_i32_elem(x: i32, y: i32) -> i32 {
    let d = x.wrapping_sub(y);
    d.wrapping_mul(d)
}

/// int32 SQUARED_DIFFERENCE (C's int32 arithmetic, wrapping where C overflows).
pub fn squared_difference_i32(b: &Broadcast, input1: &[i32], input2: &[i32], output: &mut [i32]) {
    broadcast_binary(b, input1, input2, output, squared_difference_i32_elem);
}

/// In-place int32 SQUARED_DIFFERENCE (output over operand 1).
pub fn squared_difference_i32_in_place(b: &Broadcast, inout: &mut [i32], input2: &[i32]) {
    broadcast_binary_in_place(b, inout, input2, squared_difference_i32_elem);
}

/// The `ArithmeticParams` of quantized SQUARED_DIFFERENCE (`PrepareQuantized`): ADD's
/// fields ([`crate::kernels::add::AddParams`]), with left shift 7 for int8 and 0 for int16
/// and the output multiplier above one allowed.
pub type SquaredDifferenceParams<'a> = crate::kernels::add::AddParams<'a>;

/// `PrepareQuantized` of `squared_difference.cc` (double arithmetic as there). `int16`
/// selects left shift 0 and the int16 range. `None` where a multiplier does not quantize.
#[allow(clippy::too_many_arguments)]
#[cfg(feature = "prepare")]
pub fn prepare_squared_difference<'a>(
    input1: (f32, i32),
    input2: (f32, i32),
    output: (f32, i32),
    int16: bool,
    broadcast: Broadcast<'a>,
) -> Option<SquaredDifferenceParams<'a>> {
    let left_shift = if int16 { 0 } else { 7 };
    let (activation_min, activation_max) = if int16 { (-32768, 32767) } else { (-128, 127) };
    let twice_max_input_scale = 2.0 * (input1.0.max(input2.0) as f64);
    let real_input1_multiplier = input1.0 as f64 / twice_max_input_scale;
    let real_input2_multiplier = input2.0 as f64 / twice_max_input_scale;
    // `(1 << left_shift * 2)` is an int, then multiplied by the float scale (in float).
    let denom = ((1i32 << (left_shift * 2)) as f32 * output.0) as f64;
    let real_output_multiplier = (twice_max_input_scale * twice_max_input_scale) / denom;
    let (input1_multiplier, input1_shift) = quantize_multiplier_smaller_than_one_exp(real_input1_multiplier)?;
    let (input2_multiplier, input2_shift) = quantize_multiplier_smaller_than_one_exp(real_input2_multiplier)?;
    let (output_multiplier, output_shift) = quantize_multiplier(real_output_multiplier)?;
    Some(SquaredDifferenceParams {
        input1_offset: -input1.1,
        input2_offset: -input2.1,
        output_offset: output.1,
        left_shift,
        input1_multiplier,
        input1_shift,
        input2_multiplier,
        input2_shift,
        output_multiplier,
        output_shift,
        activation_min,
        activation_max,
        broadcast,
    })
}

/// The quantized `SquaredDifference(x, y, params)` of `squared_difference.cc`.
#[inline]
pub fn squared_difference_q(p: &SquaredDifferenceParams, x: i32, y: i32) -> i32 {
    let input1_val = p.input1_offset + x;
    let input2_val = p.input2_offset + y;
    let shifted_input1_val = input1_val.wrapping_mul(1 << p.left_shift);
    let shifted_input2_val = input2_val.wrapping_mul(1 << p.left_shift);
    let scaled_input1_val = multiply_by_quantized_multiplier_smaller_than_one_exp(shifted_input1_val, p.input1_multiplier, p.input1_shift);
    let scaled_input2_val = multiply_by_quantized_multiplier_smaller_than_one_exp(shifted_input2_val, p.input2_multiplier, p.input2_shift);
    let raw_diff = scaled_input1_val.wrapping_sub(scaled_input2_val);
    let squared_raw_diff = raw_diff.wrapping_mul(raw_diff);
    let raw_output = multiply_by_quantized_multiplier(squared_raw_diff, p.output_multiplier, p.output_shift).wrapping_add(p.output_offset);
    raw_output.max(p.activation_min).min(p.activation_max)
}

/// int8 SQUARED_DIFFERENCE.
pub fn squared_difference_s8(p: &SquaredDifferenceParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    broadcast_binary(&p.broadcast, input1, input2, output, |x, y| squared_difference_q(p, x as i32, y as i32) as i8);
}

/// In-place int8 SQUARED_DIFFERENCE (output over operand 1).
pub fn squared_difference_s8_in_place(p: &SquaredDifferenceParams, inout: &mut [i8], input2: &[i8]) {
    broadcast_binary_in_place(&p.broadcast, inout, input2, |x, y| squared_difference_q(p, x as i32, y as i32) as i8);
}

/// int16 SQUARED_DIFFERENCE.
pub fn squared_difference_s16(p: &SquaredDifferenceParams, input1: &[i16], input2: &[i16], output: &mut [i16]) {
    broadcast_binary(&p.broadcast, input1, input2, output, |x, y| squared_difference_q(p, x as i32, y as i32) as i16);
}

/// In-place int16 SQUARED_DIFFERENCE (output over operand 1).
pub fn squared_difference_s16_in_place(p: &SquaredDifferenceParams, inout: &mut [i16], input2: &[i16]) {
    broadcast_binary_in_place(&p.broadcast, inout, input2, |x, y| squared_difference_q(p, x as i32, y as i32) as i16);
}

// ---------------------------------------------------------------------------------------
// L2_NORMALIZATION (TFLite Micro `l2norm.cc`): each row of the last dimension divided by
// its L2 norm.

/// The row length and (int8) the input zero point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2NormalizationParams {
    /// The size of the last dimension.
    pub depth: usize,
    /// The int8 input's zero point (unused for float32).
    pub input_zero_point: i32,
}

/// float32 (`reference_ops::L2Normalization`): the squares summed in float in row order,
/// `std::sqrt`, `std::max(norm, 1e-6f)` (a NaN norm stays), then each value divided by it.
pub fn l2_normalization_f32(p: &L2NormalizationParams, input: &[f32], output: &mut [f32]) {
    debug_assert_eq!(input.len(), output.len());
    if p.depth == 0 {
        return;
    }
    for (x, y) in input.chunks_exact(p.depth).zip(output.chunks_exact_mut(p.depth)) {
        let mut squared_l2_norm = 0.0f32;
        for &v in x {
            squared_l2_norm += v * v;
        }
        let mut l2_norm = sqrtf(squared_l2_norm);
        if l2_norm < 1e-6 {
            l2_norm = 1e-6;
        }
        for (o, &v) in y.iter_mut().zip(x) {
            *o = v / l2_norm;
        }
    }
}

/// int8 (`reference_integer_ops::L2Normalization`): the int32 sum of squared differences
/// from the zero point (wrapping as C's would only past 2^16 full-range elements), its
/// `GetInvSqrtQuantizedMultiplierExp`, then `MultiplyByQuantizedMultiplier(x - zp, m,
/// shift + 7)` clamped: the output is in units of 1/128, whatever the output tensor says
/// (TFLite Micro does not check it).
pub fn l2_normalization_s8(p: &L2NormalizationParams, input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(input.len(), output.len());
    if p.depth == 0 {
        return;
    }
    for (x, y) in input.chunks_exact(p.depth).zip(output.chunks_exact_mut(p.depth)) {
        let mut acc = 0i32;
        for &v in x {
            let d = v as i32 - p.input_zero_point;
            acc = acc.wrapping_add(d * d);
        }
        let (multiplier, shift) = get_inv_sqrt_quantized_multiplier_exp(acc, -1);
        for (o, &v) in y.iter_mut().zip(x) {
            let d = v as i32 - p.input_zero_point;
            *o = multiply_by_quantized_multiplier(d, multiplier, shift + 7).clamp(-128, 127) as i8;
        }
    }
}

// ---------------------------------------------------------------------------------------
// LOG_SOFTMAX (TFLite Micro `log_softmax.cc`), float32: rows of the last dimension.

/// The row length of LOG_SOFTMAX.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogSoftmaxParams {
    /// The size of the last dimension: each row of `depth` values is normalised on its own.
    pub depth: usize,
}

/// float32 `reference_ops::LogSoftmax`: the row maximum from `lowest()` (`std::max`, so a
/// NaN is never taken), the sum of `exp(x - max)` in row order, `log` of it, and `x - max -
/// log_sum` (two roundings, left to right). `exp` and `log` are [`crate::math`]'s.
pub fn log_softmax_f32(p: &LogSoftmaxParams, input: &[f32], output: &mut [f32]) {
    debug_assert_eq!(input.len(), output.len());
    if p.depth == 0 {
        return;
    }
    for (x, y) in input.chunks_exact(p.depth).zip(output.chunks_exact_mut(p.depth)) {
        let mut max = f32::MIN;
        for &v in x {
            if max < v {
                max = v;
            }
        }
        let mut sum = 0.0f32;
        for &v in x {
            sum += expf(v - max);
        }
        let log_sum = logf(sum);
        for (o, &v) in y.iter_mut().zip(x) {
            *o = v - max - log_sum;
        }
    }
}

/// int8 LOG_SOFTMAX's quantities from `log_softmax.cc`'s `CalculateOpData` (output scale
/// 16/256 and zero point 127 are required, as TFLite Micro's Prepare checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogSoftmaxS8Params {
    /// The size of the last dimension (the row length).
    pub depth: usize,
    /// Fixed-point multiplier scaling input differences into the Q5.26 domain of `exp`.
    pub input_multiplier: i32,
    /// Left shift applied with `input_multiplier`.
    pub input_left_shift: i32,
    /// Multiplier turning the log of the sum back into input units (`reverse_scaling_divisor` of TFLite).
    pub reverse_scaling_divisor: i32,
    /// Right shift applied with `reverse_scaling_divisor`.
    pub reverse_scaling_right_shift: i32,
    /// Smallest `x - max` still included; differences below it contribute 0 (and give the minimum output).
    pub diff_min: i32,
}

/// `CalculateOpData` for int8: `PreprocessLogSoftmaxScalingExp(beta = 1, input_scale, 5)`
/// (the softmax input scaling of [`crate::prepare::softmax_s8`], then
/// `QuantizeMultiplierSmallerThanOneExp(2^(31 - left_shift) / input_multiplier)`) and
/// `diff_min = -CalculateInputRadius(5, left_shift)`. `None` where TFLite's
/// `TFLITE_CHECK`s fail (a reverse scaling of 1 or more: an input scale whose multiplier
/// rounds to exactly a power of two times 2^-26).
#[cfg(feature = "prepare")]
pub fn prepare_log_softmax_s8(input_scale: f32, depth: usize) -> Option<LogSoftmaxS8Params> {
    let q = crate::prepare::softmax_s8(input_scale, 1.0)?;
    let real_reverse_scaling_divisor = (1i64 << (31 - q.input_left_shift)) as f64 / q.input_multiplier as f64;
    let (reverse_scaling_divisor, reverse_scaling_left_shift) = quantize_multiplier_smaller_than_one_exp(real_reverse_scaling_divisor)?;
    Some(LogSoftmaxS8Params {
        depth,
        input_multiplier: q.input_multiplier,
        input_left_shift: q.input_left_shift,
        reverse_scaling_divisor,
        reverse_scaling_right_shift: -reverse_scaling_left_shift,
        diff_min: q.diff_min,
    })
}

/// int8 `reference_ops::LogSoftmaxQuantized` (log_softmax.h), per row of `depth`: the row
/// maximum; the sum over the differences `>= diff_min` of `exp` of the difference scaled to
/// Q5.26, each rescaled to Q12.19; its log in Q5.26; then each difference above
/// `max(diff_min - 1, (log_sum + i32::MIN) * reverse scaling)` becomes
/// `RoundingDivideByPOT(diff_q5 - log_sum, 22) + 127`, clamped, and every other -128.
pub fn log_softmax_s8(p: &LogSoftmaxS8Params, input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(input.len(), output.len());
    const INPUT_INTEGER_BITS: i32 = 5;
    const ACCUMULATION_INTEGER_BITS: i32 = 12;
    const OUTPUT_INTEGER_BITS: i32 = 4;
    if p.depth == 0 {
        return;
    }
    for (x, y) in input.chunks_exact(p.depth).zip(output.chunks_exact_mut(p.depth)) {
        let max_in_row = x.iter().copied().max().unwrap_or(i8::MIN) as i32;
        let mut sum_of_exps_in_q12 = 0i32;
        for &v in x {
            let input_diff = v as i32 - max_in_row;
            if input_diff >= p.diff_min {
                let input_diff_in_q5 = multiply_by_quantized_multiplier(input_diff, p.input_multiplier, p.input_left_shift);
                let e = exp_on_negative_values(input_diff_in_q5, INPUT_INTEGER_BITS);
                sum_of_exps_in_q12 = sum_of_exps_in_q12.wrapping_add(fixedpoint_rescale(e, 0, ACCUMULATION_INTEGER_BITS));
            }
        }
        let log_sum_of_exps_in_q5 = log_x_for_x_greater_than_or_equal_to_1(sum_of_exps_in_q12, ACCUMULATION_INTEGER_BITS, INPUT_INTEGER_BITS);
        let shifted_log_sum_of_exps_in_q5 = log_sum_of_exps_in_q5.wrapping_add(i32::MIN);
        let adjusted_diff_min = (p.diff_min - 1).max(multiply_by_quantized_multiplier(
            shifted_log_sum_of_exps_in_q5,
            p.reverse_scaling_divisor,
            -p.reverse_scaling_right_shift,
        ));
        for (o, &v) in y.iter_mut().zip(x) {
            let input_diff = v as i32 - max_in_row;
            *o = if input_diff > adjusted_diff_min {
                let input_diff_in_q5 = multiply_by_quantized_multiplier(input_diff, p.input_multiplier, p.input_left_shift);
                let out = rounding_divide_by_pot(
                    input_diff_in_q5.wrapping_sub(log_sum_of_exps_in_q5),
                    31 - INPUT_INTEGER_BITS - OUTPUT_INTEGER_BITS,
                ) + 127;
                out.clamp(-128, 127) as i8
            } else {
                i8::MIN
            };
        }
    }
}
