//! MAX_POOL_2D, int8, int16 ([`max_pool_2d_s16`]) and float32 ([`max_pool_2d_f32`]).
//!
//! Bit-exact with TFLite Micro's `reference_integer_ops::MaxPool` (int8, and its int16
//! overload, the same loop from `numeric_limits<int16_t>::lowest()`): the maximum
//! over the window clipped to the input (padding cells are ignored, the lowest value if
//! none is inside), then clamped. Input and output quantization are equal (TFLite Micro
//! checks). One loop nest ([`max_pool_2d`]) for every numerics.

pub mod scalar;
#[cfg(test)]
mod tests;

use crate::kernels::numerics::{Clamp, Numerics, F32, S16, S8};
pub use crate::kernels::window::PoolGeometry;

/// Everything MAX_POOL_2D needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaxPool2dParams<N: Numerics> {
    /// Window, stride, padding and tensor sizes.
    pub geometry: PoolGeometry,
    /// Fused-activation clamp.
    pub clamp: Clamp<N::Act>,
}

/// MAX_POOL_2D for any numerics, NHWC in and out.
pub fn max_pool_2d<N: Numerics>(params: &MaxPool2dParams<N>, input: &[N::Act], output: &mut [N::Act]) {
    debug_assert_eq!(input.len(), params.geometry.input_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), params.geometry.output_len());
    scalar::max_pool_2d(params, input, output)
}

/// MAX_POOL_2D float32 (TFLite's `reference_ops::MaxPool`: from `lowest()`, `std::max`).
pub fn max_pool_2d_f32(params: &MaxPool2dParams<F32>, input: &[f32], output: &mut [f32]) {
    max_pool_2d(params, input, output)
}

/// MAX_POOL_2D int8.
pub fn max_pool_2d_s8(params: &MaxPool2dParams<S8>, input: &[i8], output: &mut [i8]) {
    max_pool_2d(params, input, output)
}

/// MAX_POOL_2D int16 (16x8).
pub fn max_pool_2d_s16(params: &MaxPool2dParams<S16>, input: &[i16], output: &mut [i16]) {
    max_pool_2d(params, input, output)
}
