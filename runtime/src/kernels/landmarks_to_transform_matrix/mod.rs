//! Landmarks2TransformMatrix (version 2), MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/landmarks_to_transform_matrix.cc`, `v2::
//! LandmarksToTransformMatrixV2`): from 3D landmarks, the 4x4 matrix that maps a crop of
//! `output_width x output_height` pixels, rotated so that the line from the left to the
//! right rotation landmark has `target_rotation_radians`, onto the landmarks' bounding box
//! in that rotated frame; float32. Version 2 is the one MediaPipe's resolvers register.
//!
//! MediaPipe's steps in its order and precision: the rotation from `std::atan2` on floats;
//! every landmark of the subset pairs (z set to 1) through a float 3x3 rotation
//! (`Mat3 * float3`: sums from 0, left to right), the box's minimum and maximum by strict
//! comparisons from the first point, its centre rotated back; then the 4x4 products
//! `I * shift * rotation * scale * shift2` (`Mat4::operator*=`, float sums from 0), the
//! scale `scale * size / output_size` in float, the second shift `-1.0 * (size / 2.0)` in
//! double. `sinf`, `cosf` and `atan2f` are the runtime's ([`crate::math`]), one rounding
//! from double precision: glibc's are correctly rounded on the values MediaPipe's models
//! produce, so the bits agree but for an occasional last-place difference there.

pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything Landmarks2TransformMatrix needs besides the tensors: its FlexBuffer options,
/// checked by the compiler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LandmarksToTransformMatrixParams<'a> {
    /// `subset_idxs` in pairs (an odd last index paired with itself): the landmarks whose
    /// bounding box the crop covers. At least one pair; every index a landmark.
    pub subset: &'a [[usize; 2]],
    /// `left_rotation_idx`: a landmark.
    pub left_rotation_idx: usize,
    /// `right_rotation_idx`: a landmark.
    pub right_rotation_idx: usize,
    /// `target_rotation_radians`.
    pub target_rotation_radians: f32,
    /// `output_height` (positive).
    pub output_height: i32,
    /// `output_width` (positive).
    pub output_width: i32,
    /// `scale_x` (positive).
    pub scale_x: f32,
    /// `scale_y` (positive).
    pub scale_y: f32,
}

/// Landmarks2TransformMatrix float32: `landmarks` x, y, z per landmark; `output` the 4x4
/// matrix, row-major.
pub fn landmarks_to_transform_matrix_f32(params: &LandmarksToTransformMatrixParams, landmarks: &[f32], output: &mut [f32]) {
    debug_assert!(!params.subset.is_empty());
    debug_assert_eq!(output.len(), 16);
    scalar::landmarks_to_transform_matrix_f32(params, landmarks, output)
}
