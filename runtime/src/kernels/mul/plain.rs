//! float32 and int32 MUL (TFLite Micro's unquantized paths: `reference_ops::Mul` /
//! `BroadcastMul4DSlow` with `ActivationFunctionWithMinMax`). int32 wraps on overflow
//! (undefined behaviour in TFLite).

use crate::kernels::nd::{broadcast_binary, clamp_min_max, PlainBinaryParams};

/// float32 MUL with broadcasting and the activation clamp.
pub fn mul_f32(p: &PlainBinaryParams<f32>, input1: &[f32], input2: &[f32], output: &mut [f32]) {
    let (lo, hi) = (p.activation_min, p.activation_max);
    broadcast_binary(&p.broadcast, input1, input2, output, |a, b| clamp_min_max(a * b, lo, hi));
}

/// int32 MUL with broadcasting and the activation clamp.
pub fn mul_i32(p: &PlainBinaryParams<i32>, input1: &[i32], input2: &[i32], output: &mut [i32]) {
    let (lo, hi) = (p.activation_min, p.activation_max);
    broadcast_binary(&p.broadcast, input1, input2, output, |a, b| clamp_min_max(a.wrapping_mul(b), lo, hi));
}
