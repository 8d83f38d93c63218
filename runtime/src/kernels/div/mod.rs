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

use crate::kernels::nd::{broadcast_binary, clamp_min_max, PlainBinaryParams};

/// One int32 quotient with Cortex-M `SDIV` semantics (see the module docs).
#[inline]
pub fn div_i32_elem(a: i32, b: i32) -> i32 {
    if b == 0 {
        0
    } else {
        a.wrapping_div(b)
    }
}

/// int32 DIV with broadcasting and the activation clamp.
pub fn div_i32(p: &PlainBinaryParams<i32>, input1: &[i32], input2: &[i32], output: &mut [i32]) {
    let (lo, hi) = (p.activation_min, p.activation_max);
    broadcast_binary(&p.broadcast, input1, input2, output, |a, b| clamp_min_max(div_i32_elem(a, b), lo, hi));
}

/// float32 DIV with broadcasting and the activation clamp (IEEE division).
pub fn div_f32(p: &PlainBinaryParams<f32>, input1: &[f32], input2: &[f32], output: &mut [f32]) {
    let (lo, hi) = (p.activation_min, p.activation_max);
    broadcast_binary(&p.broadcast, input1, input2, output, |a, b| clamp_min_max(a / b, lo, hi));
}
