//! TransformTensorBilinear (version 2), MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/transform_tensor_bilinear.cc`, `v2::
//! TransformTensorBilinearV2`): samples an NHWC image through an affine matrix with bilinear
//! interpolation, float32. Version 2 is the one MediaPipe's resolvers register.
//!
//! Bit-exact with MediaPipe's kernel compiled without floating-point contraction (no FMA),
//! its `double` steps included: the matrix's first two rows, their translations corrected
//! for aligned corners in `double` (`m[3] += m[0] * 0.5 + m[1] * 0.5 - 0.5`); each output
//! pixel's source point as float dot products; a point outside `[0, w - 1] x [0, h - 1]`
//! gives 0, otherwise the four neighbours (0 outside the image) blended as MediaPipe does,
//! `(1.0 - t) * a + t * b` with the left term in `double` and the right one a float product.
//!
//! One divergence, data-dependent: a NaN coordinate (a NaN in the matrix) is not out of
//! bounds for MediaPipe, which then converts `floor(NaN)` to `int` (undefined behaviour);
//! here it converts to 0.

pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything TransformTensorBilinear needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransformTensorBilinearParams {
    /// Input `[batches, height, width, channels]`: batch 0 is read.
    pub input_shape: [usize; 4],
    /// Output `[1, height, width, channels]` (channels at most the input's).
    pub output_shape: [usize; 4],
}

/// TransformTensorBilinear float32: `input` NHWC, `matrix` at least 8 floats (the first two
/// rows of a row-major 4x4 matrix mapping output `(x, y, 0, 1)` to input coordinates),
/// `output` NHWC.
pub fn transform_tensor_bilinear_f32(params: &TransformTensorBilinearParams, input: &[f32], matrix: &[f32], output: &mut [f32]) {
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert!(matrix.len() >= 8);
    debug_assert_eq!(output.len(), params.output_shape.iter().product::<usize>());
    scalar::transform_tensor_bilinear_f32(params, input, matrix, output)
}
