//! DIV, int32 and float32: TFLite Micro `div.cc` (`EvalDiv<T>`: `reference_ops::Div` /
//! `BroadcastDivSlow`, `input1 / input2` then `ActivationFunctionWithMinMax`).
//!
//! int32 division truncates toward zero as C's does. C leaves `x / 0` and `INT32_MIN / -1`
//! undefined; TFLite Micro's build for a Cortex-M4 executes `SDIV`, which gives 0 for a zero
//! divisor (division-by-zero trapping is off by default, `CCR.DIV_0_TRP = 0`) and
//! `INT32_MIN` for the overflow, and so does this kernel on every target. (On x86 the C
//! division traps instead.) int8 DIV (quantized) is not implemented.

#[cfg(test)]
mod tests;

use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place, clamp_min_max, PlainBinaryParams};

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
