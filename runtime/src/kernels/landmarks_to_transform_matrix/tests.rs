//! Hand-checked: with no rotation the matrix maps the crop's pixel grid onto the landmarks'
//! box. Golden vectors from a NumPy transcription of MediaPipe's kernel (with glibc's
//! `sinf`, `cosf`, `atan2f`) are in the compiler's tests (`lower/ops/mediapipe/vectors.json`).

use super::*;

#[test]
fn an_unrotated_box_maps_the_crop_onto_it() {
    // Landmarks (0, 0), (4, 0), (4, 2), (0, 2): left 0 and right 1 are horizontal, target 0.
    let data = [0.0, 0.0, 9.0, 4.0, 0.0, 9.0, 4.0, 2.0, 9.0, 0.0, 2.0, 9.0];
    let p = LandmarksToTransformMatrixParams {
        subset: &[[0, 1], [2, 3]],
        left_rotation_idx: 0,
        right_rotation_idx: 1,
        target_rotation_radians: 0.0,
        output_height: 4,
        output_width: 8,
        scale_x: 1.0,
        scale_y: 1.0,
    };
    let mut out = [0.0; 16];
    landmarks_to_transform_matrix_f32(&p, &data, &mut out);
    // scale 4 / 8 = 0.5 and 2 / 4 = 0.5; x' = 0.5 (x - 4) + 2 = 0.5 x; y' = 0.5 (y - 2) + 1 = 0.5 y.
    assert_eq!(out, [0.5, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
}
