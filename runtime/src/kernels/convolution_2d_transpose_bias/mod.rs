//! Convolution2DTransposeBias, MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/transpose_conv_bias.cc`): TFLite's reference
//! TRANSPOSE_CONV with a bias, float32.
//!
//! Bit-exact with MediaPipe's `TransposeConvBias`: every output starts at its channel's
//! bias, then each input element is scattered into the outputs its window reaches, in
//! MediaPipe's loop order (batch, input row, input column, input channel, filter row,
//! filter column, output channel), so every output adds the same products in the same
//! order. The output is the accumulator: no scratch.

pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything Convolution2DTransposeBias needs besides the tensors; computed by the
/// compiler from the options (`TfLiteTransposeConvParams`) and the shapes, as MediaPipe's
/// Prepare and Eval do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Convolution2dTransposeBiasParams {
    /// Input `[batches, height, width, input_depth]`.
    pub input_shape: [usize; 4],
    /// Filter `[output_depth, filter_height, filter_width, input_depth]` (OHWI).
    pub filter_shape: [usize; 4],
    /// Output `[batches, height, width, output_depth]`.
    pub output_shape: [usize; 4],
    /// `stride_height`, `stride_width` (at least 1).
    pub stride: [usize; 2],
    /// Padding at the top and left: half (rounded down) of SAME's total padding, 0 for VALID
    /// (MediaPipe's `padding_size / 2`).
    pub padding: [usize; 2],
}

/// Convolution2DTransposeBias float32: `input` NHWC, `filter` OHWI, `bias` one per output
/// channel, `output` NHWC.
pub fn convolution_2d_transpose_bias_f32(params: &Convolution2dTransposeBiasParams, input: &[f32], filter: &[f32], bias: &[f32], output: &mut [f32]) {
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert_eq!(filter.len(), params.filter_shape.iter().product::<usize>());
    debug_assert_eq!(bias.len(), params.filter_shape[0]);
    debug_assert_eq!(output.len(), params.output_shape.iter().product::<usize>());
    scalar::convolution_2d_transpose_bias_f32(params, input, filter, bias, output)
}
