//! L2_POOL_2D, float32 (the only type TFLite Micro's `l2_pool_2d.cc` runs).
//!
//! Bit-exact with TFLite's `reference_ops::L2Pool`: per output and channel, the squares of
//! the window's cells inside the input summed in row-major window order from `0.0` (one
//! rounding per multiply and per add), divided by the number of those cells, the IEEE
//! square root (correctly rounded, [`crate::math::sqrtf`], since `core` has no `f32::sqrt`), then the
//! fused-activation clamp as `ActivationFunctionWithMinMax` (NaN passes through).

pub mod scalar;
#[cfg(test)]
mod tests;

use crate::kernels::numerics::Clamp;
pub use crate::kernels::window::PoolGeometry;

/// Everything L2_POOL_2D needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct L2Pool2dParams {
    /// Window, stride, padding and tensor sizes.
    pub geometry: PoolGeometry,
    /// Fused-activation clamp.
    pub clamp: Clamp<f32>,
}

/// L2_POOL_2D float32, NHWC in and out.
pub fn l2_pool_2d_f32(params: &L2Pool2dParams, input: &[f32], output: &mut [f32]) {
    debug_assert_eq!(input.len(), params.geometry.input_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), params.geometry.output_len());
    scalar::l2_pool_2d_f32(params, input, output)
}
