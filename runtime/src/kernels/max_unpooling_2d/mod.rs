//! MaxUnpooling2D, MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/max_unpooling.cc`): the inverse of
//! MaxPoolingWithArgmax2D, float32. The output (`filter` times the input's height and
//! width) is zeroed, then each input value is written where its index (a window position,
//! `y * filter_width + x`, as a float) says, in MediaPipe's loop order (a later write to the
//! same place wins).
//!
//! One divergence, data-dependent: MediaPipe converts the index with C's float-to-int
//! conversion and writes wherever it points, out of bounds too (undefined behaviour for a
//! NaN, an index beyond `int`'s range, or one pointing outside the output). Here the
//! conversion saturates (NaN is 0) and a value whose position is outside the output is
//! dropped.

pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything MaxUnpooling2D needs besides the tensors; computed by the compiler from the
/// options (`TfLitePoolParams`) and the input shape, as MediaPipe's Prepare does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaxUnpooling2dParams {
    /// Input (and indices) `[batches, height, width, depth]`.
    pub input_shape: [usize; 4],
    /// Output `[batches, height * filter_height, width * filter_width, depth]`.
    pub output_shape: [usize; 4],
    /// `filter_width` (at least 1): how an index splits into window row and column.
    pub filter_width: usize,
    /// `stride_height`, `stride_width` (at least 1).
    pub stride: [usize; 2],
    /// Padding at the top and left (`ComputePadding` with the output as the input size).
    pub padding: [usize; 2],
}

/// MaxUnpooling2D float32: `input` and `indices` NHWC of the input shape, `output` NHWC.
pub fn max_unpooling_2d_f32(params: &MaxUnpooling2dParams, input: &[f32], indices: &[f32], output: &mut [f32]) {
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert_eq!(indices.len(), input.len());
    debug_assert_eq!(output.len(), params.output_shape.iter().product::<usize>());
    scalar::max_unpooling_2d_f32(params, input, indices, output)
}
