//! DIV, int32 and float32: TFLite Micro `div.cc` (`EvalDiv<T>`: `reference_ops::Div` /
//! `BroadcastDivSlow`, `input1 / input2` then `ActivationFunctionWithMinMax`); int8
//! (`EvalQuantized`: `reference/div.h` `DivElementwise` / `BroadcastDivSlowQuantized`, see
//! [`div_s8_elem`]).
//!
//! int32 division truncates toward zero as C's does. C leaves `x / 0` and `INT32_MIN / -1`
//! undefined; TFLite Micro's build for a Cortex-M4 executes `SDIV`, which gives 0 for a zero
//! divisor (division-by-zero trapping is off by default, `CCR.DIV_0_TRP = 0`) and
//! `INT32_MIN` for the overflow, and so does this kernel on every target. (On x86 the C
//! division traps instead.)

#[cfg(test)]
mod tests;

use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place, clamp_min_max, Broadcast, PlainBinaryParams};
use crate::quant::{
    get_reciprocal_or_zero, multiply_by_quantized_multiplier_greater_than_one, rounding_divide_by_pot,
    saturating_rounding_doubling_high_mul,
};
#[cfg(feature = "prepare")]
use crate::quant::QuantParams;

/// One int32 quotient with Cortex-M `SDIV` semantics (see the module docs).
#[inline]
pub fn div_i32_elem(a: i32, b: i32) -> i32 {
    if b == 0 {
        0
    } else {
        a.wrapping_div(b)
    }
}

#[inline(always)]
fn div_i32_one(p: &PlainBinaryParams<i32>) -> impl Fn(i32, i32) -> i32 {
    let (lo, hi) = (p.activation_min, p.activation_max);
    move |a, b| clamp_min_max(div_i32_elem(a, b), lo, hi)
}

#[inline(always)]
fn div_f32_one(p: &PlainBinaryParams<f32>) -> impl Fn(f32, f32) -> f32 {
    let (lo, hi) = (p.activation_min, p.activation_max);
    move |a, b| clamp_min_max(a / b, lo, hi)
}

/// int32 DIV with broadcasting and the activation clamp.
pub fn div_i32(p: &PlainBinaryParams<i32>, input1: &[i32], input2: &[i32], output: &mut [i32]) {
    broadcast_binary(&p.broadcast, input1, input2, output, div_i32_one(p));
}

/// [`div_i32`] with the output written over `input1_output` (the dividend, which must have
/// the output's shape; the divisor may broadcast).
pub fn div_i32_in_place(p: &PlainBinaryParams<i32>, input1_output: &mut [i32], input2: &[i32]) {
    broadcast_binary_in_place(&p.broadcast, input1_output, input2, div_i32_one(p));
}

/// float32 DIV with broadcasting and the activation clamp (IEEE division).
pub fn div_f32(p: &PlainBinaryParams<f32>, input1: &[f32], input2: &[f32], output: &mut [f32]) {
    broadcast_binary(&p.broadcast, input1, input2, output, div_f32_one(p));
}

/// [`div_f32`] with the output written over `input1_output` (the dividend, which must have
/// the output's shape; the divisor may broadcast).
pub fn div_f32_in_place(p: &PlainBinaryParams<f32>, input1_output: &mut [f32], input2: &[f32]) {
    broadcast_binary_in_place(&p.broadcast, input1_output, input2, div_f32_one(p));
}

/// Precomputed parameters of an int8 DIV (TFLite Micro `CalculateOpDataDiv`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DivS8Params<'a> {
    /// `-input1.zero_point`.
    pub input1_offset: i32,
    /// `-input2.zero_point`.
    pub input2_offset: i32,
    /// `output.zero_point`.
    pub output_offset: i32,
    /// `QuantizeMultiplier(s1 / (s2 * s_out))` (the quotient in float, as TFLite Micro).
    pub output_multiplier: i32,
    /// Its exponent (positive: a left shift).
    pub output_shift: i32,
    /// The fused activation's clamp (`CalculateActivationRangeQuantized`).
    pub activation_min: i32,
    /// See [`DivS8Params::activation_min`].
    pub activation_max: i32,
    /// Operand 1 is the dividend, operand 2 the divisor.
    pub broadcast: Broadcast<'a>,
}

/// TFLite Micro `CalculateOpDataDiv` for int8: `real = s1 / (s2 * s_out)` computed in
/// float32 and widened, as its `static_cast<double>(input1->params.scale /
/// (input2->params.scale * output->params.scale))` does. `None` when the multiplier cannot
/// be quantized.
#[cfg(feature = "prepare")]
pub fn prepare_div_s8<'a>(
    input1: QuantParams,
    input2: QuantParams,
    output: QuantParams,
    (activation_min, activation_max): (i32, i32),
    broadcast: Broadcast<'a>,
) -> Option<DivS8Params<'a>> {
    let real = (input1.scale / (input2.scale * output.scale)) as f64;
    let (output_multiplier, output_shift) = crate::prepare::quantize_multiplier(real)?;
    Some(DivS8Params {
        input1_offset: -input1.zero_point,
        input2_offset: -input2.zero_point,
        output_offset: output.zero_point,
        output_multiplier,
        output_shift,
        activation_min,
        activation_max,
        broadcast,
    })
}

/// TFLite `CountLeadingSignBits(int32)`: the redundant sign bits (31 for 0 and -1).
#[inline(always)]
fn count_leading_sign_bits(x: i32) -> i32 {
    (x ^ (x >> 31)).leading_zeros() as i32 - 1
}

/// The quotient before the output offset and clamp: `(x, e)` such that the result is
/// gemmlowp's `RoundingDivideByPOT(x, e)`, exactly as `DivElementwise` computes them
/// (signs flipped for a negative divisor, `GetReciprocal(input2_val, 31)`, the dividend
/// normalised by its `CountLeadingSignBits` headroom).
#[inline(always)]
fn div_s8_parts(p: &DivS8Params, a: i8, b: i8) -> (i32, i32) {
    let mut v1 = p.input1_offset + a as i32;
    let mut v2 = p.input2_offset + b as i32;
    if v2 < 0 {
        v1 = -v1;
        v2 = -v2;
    }
    let (inv, recip_shift) = get_reciprocal_or_zero(v2, 31);
    let headroom = count_leading_sign_bits(v1);
    let unscaled = multiply_by_quantized_multiplier_greater_than_one(v1, inv, headroom);
    let total_shift = p.output_shift - recip_shift - headroom;
    (saturating_rounding_doubling_high_mul(unscaled, p.output_multiplier), -total_shift)
}

/// gemmlowp `RoundingDivideByPOT(x, e)` as TFLite Micro computes it on Arm, where C
/// leaves it undefined too. For `0 <= e <= 31` it is the definition. For `e >= 32` (a
/// quotient far below one output step, which `DivElementwise` reaches for small dividends
/// and large divisors when the output multiplier is below 2^7) C's shifts are undefined:
/// TFLite Micro built for a Cortex-M (GCC, `-O2`) computes the mask `(1ll << e) - 1` as a
/// 64-bit shift, all ones as an int32, and `x >> e` with `ASR` by register, which fills
/// the sign for counts of 32 or more; so the threshold is `-1 + (x < 0)` and the result 1
/// for `x >= 0`, -1 below. x86 builds (TFLite Micro's PyPI package) shift by `e mod 32`
/// instead and give other values for those pairs. The Cortex-M result is the one tflc
/// computes on every target (checked against TFLite's `DivElementwise` compiled with
/// `arm-none-eabi-g++` for a Cortex-M4 and run under QEMU:
/// `tools/div_s8_arm_vectors.sh`). [`div_s8_defined`] refuses the parameters that would
/// reach a negative `e`.
#[inline(always)]
fn rounding_divide_by_pot_div(x: i32, e: i32) -> i32 {
    if e <= 31 {
        rounding_divide_by_pot(x, e)
    } else if x >= 0 {
        1
    } else {
        -1
    }
}

/// One int8 quotient: TFLite's `DivElementwise` element (`reference/div.h`): `input1_val
/// = input1 - zp1`, `input2_val = input2 - zp2`; both negated when the divisor is
/// negative; the divisor's reciprocal `GetReciprocal(input2_val, 31)`; the dividend
/// shifted up by its headroom and multiplied by it; then
/// `MultiplyByQuantizedMultiplierSmallerThanOneExp` by the output multiplier with the
/// shift `output_shift - recip_shift - headroom`, plus the output zero point, clamped.
/// A zero divisor (which TFLite only `DCHECK`s) goes through the same arithmetic:
/// `GetReciprocal(0)` shifts 0 by 32, which is 0 on every platform. Where TFLite's shifts
/// are undefined in C, the result is TFLite Micro's on a Cortex-M
/// ([`rounding_divide_by_pot_div`]).
#[inline(always)]
pub fn div_s8_elem(p: &DivS8Params, a: i8, b: i8) -> i8 {
    let (x, e) = div_s8_parts(p, a, b);
    let v = p.output_offset.wrapping_add(rounding_divide_by_pot_div(x, e));
    v.clamp(p.activation_min, p.activation_max) as i8
}

/// Whether [`div_s8_elem`] computes TFLite Micro's result for every pair of int8
/// operands: its final `RoundingDivideByPOT` exponent must not be negative (a left shift
/// of the mask by a negative count, which no platform defines alike); exponents of 32 and
/// more follow TFLite Micro on Arm (see [`rounding_divide_by_pot_div`]).
/// `Err((input1, input2, exponent))` names the first pair that breaks it. Checked at
/// compile time over the 65,536 pairs.
pub fn div_s8_defined(p: &DivS8Params) -> Result<(), (i8, i8, i32)> {
    for a in i8::MIN..=i8::MAX {
        for b in i8::MIN..=i8::MAX {
            let (_, e) = div_s8_parts(p, a, b);
            if e < 0 {
                return Err((a, b, e));
            }
        }
    }
    Ok(())
}

/// int8 DIV with broadcasting (operand 2 the divisor) and the activation clamp.
pub fn div_s8(p: &DivS8Params, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    broadcast_binary(&p.broadcast, input1, input2, output, |a, b| div_s8_elem(p, a, b));
}

/// [`div_s8`] with the output written over `input1_output` (the dividend, which must have
/// the output's shape; the divisor may broadcast).
pub fn div_s8_in_place(p: &DivS8Params, input1_output: &mut [i8], input2: &[i8]) {
    broadcast_binary_in_place(&p.broadcast, input1_output, input2, |a, b| div_s8_elem(p, a, b));
}

