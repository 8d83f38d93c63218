//! float32 SOFTMAX: TFLite's `reference_ops::Softmax` (float), which TFLite Micro runs for
//! float tensors: per row, the maximum from `lowest()`, `exp((x - max) * beta)` written to
//! the output and summed in order, then each divided by the sum. `exp` is
//! [`crate::math::expf`] (within one ulp of the C library's `std::exp`, almost always equal).

use crate::kernels::numerics::{Numerics, F32};
use crate::math::expf;

/// Everything float32 SOFTMAX needs besides the tensors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoftmaxF32Params {
    /// The last dimension: softmax runs over each row of `depth` elements.
    pub depth: usize,
    /// The inverse temperature: softmax of `beta * x`.
    pub beta: f32,
}

/// See [`super::softmax_f32`].
pub fn softmax_f32(p: &SoftmaxF32Params, input: &[f32], output: &mut [f32]) {
    for (xs, ys) in input.chunks_exact(p.depth).zip(output.chunks_exact_mut(p.depth)) {
        let max = xs.iter().fold(F32::LOWEST, |m, &x| F32::max(m, x));
        let mut sum = 0.0f32;
        for (y, &x) in ys.iter_mut().zip(xs) {
            let e = expf((x - max) * p.beta);
            *y = e;
            sum += e;
        }
        for y in ys.iter_mut() {
            *y /= sum;
        }
    }
}
