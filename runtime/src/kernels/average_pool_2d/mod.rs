//! AVERAGE_POOL_2D, int8.
//!
//! Bit-exact with TFLite Micro's `reference_integer_ops::AveragePool` (int8): the window
//! is clipped to the input (padding cells are not counted), the sum is divided by the
//! number of cells actually inside, rounding half away from zero, and clamped. TFLite
//! Micro requires equal input and output quantization, so there is no requantization.

pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything AVERAGE_POOL_2D needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug)]
pub struct AveragePool2dParams {
    /// Input shape `[batches, height, width, depth]` (NHWC); the output has the same
    /// batches and depth.
    pub input_shape: [usize; 4],
    pub output_height: usize,
    pub output_width: usize,
    pub filter_height: usize,
    pub filter_width: usize,
    pub stride_height: usize,
    pub stride_width: usize,
    /// Padding before the first row / column ([`crate::prepare::compute_padding`]).
    pub pad_top: usize,
    pub pad_left: usize,
    /// Fused-activation clamp, within `-128..=127`.
    pub output_activation_min: i32,
    pub output_activation_max: i32,
}

/// AVERAGE_POOL_2D int8, NHWC in and out. Precondition (TFLite Micro fails the op
/// otherwise): every window overlaps the input.
pub fn average_pool_2d_s8(params: &AveragePool2dParams, input: &[i8], output: &mut [i8]) {
    let [n, _, _, c] = params.input_shape;
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), n * params.output_height * params.output_width * c);
    scalar::average_pool_2d_s8(params, input, output)
}

/// AVERAGE_POOL_2D int16 (TFLite's `reference_integer_ops::AveragePool` for int16: an
/// int32 sum, rounded half away from zero); the clamp is within `-32768..=32767`. Same
/// precondition as [`average_pool_2d_s8`].
pub fn average_pool_2d_s16(params: &AveragePool2dParams, input: &[i16], output: &mut [i16]) {
    let [n, _, _, c] = params.input_shape;
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), n * params.output_height * params.output_width * c);
    scalar::average_pool_2d_s16(params, input, output)
}
