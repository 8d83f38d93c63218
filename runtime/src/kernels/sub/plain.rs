//! float32 and int32 SUB (TFLite Micro's unquantized paths: `reference_ops::Sub` /
//! `BroadcastSubSlow` with `ActivationFunctionWithMinMax`). int32 wraps on overflow
//! (undefined behaviour in TFLite).
//!
//! Each has an `_in_place` form (the output over operand 1, which has the output's shape;
//! operand 2 may broadcast) running the same element function. SUB does not commute: there
//! is no form over operand 2.

use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place, clamp_min_max, PlainBinaryParams};

#[inline(always)]
fn sub_f32_one(p: &PlainBinaryParams<f32>) -> impl Fn(f32, f32) -> f32 {
    let (lo, hi) = (p.activation_min, p.activation_max);
    move |a, b| clamp_min_max(a - b, lo, hi)
}

#[inline(always)]
fn sub_i32_one(p: &PlainBinaryParams<i32>) -> impl Fn(i32, i32) -> i32 {
    let (lo, hi) = (p.activation_min, p.activation_max);
    move |a, b| clamp_min_max(a.wrapping_sub(b), lo, hi)
}

/// float32 SUB with broadcasting and the activation clamp.
pub fn sub_f32(p: &PlainBinaryParams<f32>, input1: &[f32], input2: &[f32], output: &mut [f32]) {
    broadcast_binary(&p.broadcast, input1, input2, output, sub_f32_one(p));
}

/// [`sub_f32`] with the output written over `input1_output` (operand 1, the output's shape).
pub fn sub_f32_in_place(p: &PlainBinaryParams<f32>, input1_output: &mut [f32], input2: &[f32]) {
    broadcast_binary_in_place(&p.broadcast, input1_output, input2, sub_f32_one(p));
}

/// int32 SUB with broadcasting and the activation clamp.
pub fn sub_i32(p: &PlainBinaryParams<i32>, input1: &[i32], input2: &[i32], output: &mut [i32]) {
    broadcast_binary(&p.broadcast, input1, input2, output, sub_i32_one(p));
}

/// [`sub_i32`] with the output written over `input1_output` (operand 1, the output's shape).
pub fn sub_i32_in_place(p: &PlainBinaryParams<i32>, input1_output: &mut [i32], input2: &[i32]) {
    broadcast_binary_in_place(&p.broadcast, input1_output, input2, sub_i32_one(p));
}
