//! The reference TransformLandmarks: MediaPipe's `TransformLandmarksV2`.

use super::TransformLandmarksParams;

/// See [`super::transform_landmarks_f32`].
pub fn transform_landmarks_f32(p: &TransformLandmarksParams, landmarks: &[f32], m: &[f32], output: &mut [f32]) {
    let d = p.dimensions;
    for l in 0..p.landmarks {
        let o = l * d;
        let (x, y) = (landmarks[o], landmarks[o + 1]);
        // DotProduct(row, (x, y, 0, 1)).
        output[o] = m[0] * x + m[1] * y + m[2] * 0.0 + m[3] * 1.0;
        output[o + 1] = m[4] * x + m[5] * y + m[6] * 0.0 + m[7] * 1.0;
        if d == 3 {
            output[o + 2] = landmarks[o + 2];
        }
    }
}
