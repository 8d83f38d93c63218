//! TransformLandmarks (version 2), MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/transform_landmarks.cc`, `v2::TransformLandmarksV2`):
//! maps 2D or 3D landmarks through the first two rows of an affine matrix, float32. Version
//! 2 is the one MediaPipe's resolvers register.
//!
//! Bit-exact with MediaPipe's kernel compiled without floating-point contraction: per
//! landmark, `x' = m0 * x + m1 * y + m2 * 0 + m3 * 1` and `y'` likewise from `m4..m7`, float
//! products summed left to right; a third coordinate (3D landmarks) is copied.

pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything TransformLandmarks needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransformLandmarksParams {
    /// Landmarks.
    pub landmarks: usize,
    /// Coordinates per landmark: 2 or 3 (the landmarks' last dimension).
    pub dimensions: usize,
}

/// TransformLandmarks float32: `landmarks` and `output` `landmarks * dimensions` floats,
/// `matrix` at least 8 floats (the first two rows of a row-major 4x4 matrix).
pub fn transform_landmarks_f32(params: &TransformLandmarksParams, landmarks: &[f32], matrix: &[f32], output: &mut [f32]) {
    debug_assert_eq!(landmarks.len(), params.landmarks * params.dimensions);
    debug_assert!(matrix.len() >= 8);
    debug_assert_eq!(output.len(), landmarks.len());
    scalar::transform_landmarks_f32(params, landmarks, matrix, output)
}
