//! Hand-checked values; golden vectors from a NumPy transcription of MediaPipe's kernel are
//! in the compiler's tests (`lower/ops/mediapipe/vectors.json`).

use super::*;

#[test]
fn rotation_and_shift_in_2d_and_3d() {
    // A quarter turn and a shift by (10, 20): (x, y) -> (-y + 10, x + 20).
    let m = [0.0, -1.0, 0.0, 10.0, 1.0, 0.0, 0.0, 20.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
    let mut out = [0.0; 4];
    transform_landmarks_f32(&TransformLandmarksParams { landmarks: 2, dimensions: 2 }, &[1.0, 2.0, -3.0, 0.5], &m, &mut out);
    assert_eq!(out, [8.0, 21.0, 9.5, 17.0]);
    let mut out = [0.0; 6];
    transform_landmarks_f32(&TransformLandmarksParams { landmarks: 2, dimensions: 3 }, &[1.0, 2.0, 7.0, -3.0, 0.5, -1.0], &m, &mut out);
    assert_eq!(out, [8.0, 21.0, 7.0, 9.5, 17.0, -1.0]);
}
