//! MaxPoolingWithArgmax2D, MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/max_pool_argmax.cc`): float32 max pooling that also
//! writes, per output, where in its window the maximum was.
//!
//! Bit-exact with MediaPipe's `MaxPoolArgmax`: the window clipped to the input, the maximum
//! from `numeric_limits<float>::lowest()` replaced only by a strictly greater value (the
//! first of equal maxima wins; NaN never does), clamped to the fused activation's range
//! (`ActivationFunctionWithMinMax`), and the index `max_y * filter_width + max_x + 0.1f` as
//! a float (window coordinates, not input ones; `0.1` so that truncating it back to an int,
//! as MaxUnpooling2D does, is exact).

pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything MaxPoolingWithArgmax2D needs besides the tensors; computed by the compiler
/// from the options (`TfLitePoolParams`) and the input shape, as MediaPipe's Prepare does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaxPoolingWithArgmax2dParams {
    /// Input `[batches, height, width, depth]`.
    pub input_shape: [usize; 4],
    /// Output (and indices) `[batches, height, width, depth]`.
    pub output_shape: [usize; 4],
    /// `filter_height`, `filter_width` (at least 1).
    pub filter: [usize; 2],
    /// `stride_height`, `stride_width` (at least 1).
    pub stride: [usize; 2],
    /// Padding at the top and left (`ComputePadding`).
    pub padding: [usize; 2],
    /// The fused activation's range (`CalculateActivationRange`).
    pub activation_min: f32,
    /// See `activation_min`.
    pub activation_max: f32,
}

/// MaxPoolingWithArgmax2D float32: `input` NHWC; `output` and `indices` NHWC of the output
/// shape.
pub fn max_pooling_with_argmax_2d_f32(params: &MaxPoolingWithArgmax2dParams, input: &[f32], output: &mut [f32], indices: &mut [f32]) {
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), params.output_shape.iter().product::<usize>());
    debug_assert_eq!(indices.len(), output.len());
    scalar::max_pooling_with_argmax_2d_f32(params, input, output, indices)
}
