//! Hand-checked values; golden vectors from a NumPy transcription of MediaPipe's kernel are
//! in the compiler's tests (`lower/ops/mediapipe/vectors.json`).

use super::*;

#[test]
fn identity_with_aligned_corners_shifts_by_half_a_pixel() {
    // The identity: version 2's correction samples at (x - 0.5, y - 0.5) shifted by +0.5,
    // i.e. at (x, y): the image itself; a 2x scale-down samples between pixels.
    let input: [f32; 9] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0];
    let p = TransformTensorBilinearParams { input_shape: [1, 3, 3, 1], output_shape: [1, 3, 3, 1] };
    let id = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    let mut out = [0.0; 9];
    transform_tensor_bilinear_f32(&p, &input, &id, &mut out);
    assert_eq!(out, input);
    // x' = 0.5 x + 0.25 (after the correction: 0.5 x + 0.25 + 0.5*0.5 - 0.5 = 0.5 x), y' = y.
    let half = [0.5, 0.0, 0.0, 0.25, 0.0, 1.0, 0.0, 0.0];
    let p = TransformTensorBilinearParams { input_shape: [1, 3, 3, 1], output_shape: [1, 3, 2, 1] };
    let mut out = [0.0; 6];
    transform_tensor_bilinear_f32(&p, &input, &half, &mut out);
    assert_eq!(out, [1.0, 1.5, 4.0, 4.5, 7.0, 7.5]);
}

#[test]
fn points_outside_the_image_are_zero() {
    let input = [1.0f32; 4];
    let p = TransformTensorBilinearParams { input_shape: [1, 2, 2, 1], output_shape: [1, 2, 2, 1] };
    // Shift by +1.5 in x: only x' = 0 + 1.5 - ... lands outside.
    let shift = [1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0];
    let mut out = [9.0; 4];
    transform_tensor_bilinear_f32(&p, &input, &shift, &mut out);
    assert_eq!(out, [1.0, 0.0, 1.0, 0.0]);
    let nan = [f32::NAN, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    transform_tensor_bilinear_f32(&p, &input, &nan, &mut out);
    // A NaN point is not out of bounds (as in MediaPipe): it blends to NaN, and reads in bounds.
    assert!(out.iter().all(|v| v.is_nan()));
}
