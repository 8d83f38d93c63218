//! float32 and int32 ADD (TFLite Micro's unquantized paths: `reference_ops::Add` /
//! `BroadcastAdd4DSlow` with `ActivationFunctionWithMinMax`). int32 wraps on overflow
//! (undefined behaviour in TFLite).
//!
//! Each has an `_in_place` form (the output over operand 1, which has the output's shape;
//! operand 2 may broadcast) running the same element function. Both sums commute exactly
//! (IEEE 754 addition is commutative; which NaN payload comes out of NaN + NaN is fixed by
//! neither IEEE 754 nor Rust, and LLVM commutes `fadd` freely), so a compiler that wants the
//! output over operand 2 exchanges the operands (and the broadcast's strides).

use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place, clamp_min_max, PlainBinaryParams};

#[inline(always)]
fn add_f32_one(p: &PlainBinaryParams<f32>) -> impl Fn(f32, f32) -> f32 {
    let (lo, hi) = (p.activation_min, p.activation_max);
    move |a, b| clamp_min_max(a + b, lo, hi)
}

#[inline(always)]
fn add_i32_one(p: &PlainBinaryParams<i32>) -> impl Fn(i32, i32) -> i32 {
    let (lo, hi) = (p.activation_min, p.activation_max);
    move |a, b| clamp_min_max(a.wrapping_add(b), lo, hi)
}

/// float32 ADD with broadcasting and the activation clamp.
pub fn add_f32(p: &PlainBinaryParams<f32>, input1: &[f32], input2: &[f32], output: &mut [f32]) {
    broadcast_binary(&p.broadcast, input1, input2, output, add_f32_one(p));
}

/// [`add_f32`] with the output written over `input1_output` (operand 1, the output's shape).
pub fn add_f32_in_place(p: &PlainBinaryParams<f32>, input1_output: &mut [f32], input2: &[f32]) {
    broadcast_binary_in_place(&p.broadcast, input1_output, input2, add_f32_one(p));
}

/// int32 ADD with broadcasting and the activation clamp.
pub fn add_i32(p: &PlainBinaryParams<i32>, input1: &[i32], input2: &[i32], output: &mut [i32]) {
    broadcast_binary(&p.broadcast, input1, input2, output, add_i32_one(p));
}

/// [`add_i32`] with the output written over `input1_output` (operand 1, the output's shape).
pub fn add_i32_in_place(p: &PlainBinaryParams<i32>, input1_output: &mut [i32], input2: &[i32]) {
    broadcast_binary_in_place(&p.broadcast, input1_output, input2, add_i32_one(p));
}
