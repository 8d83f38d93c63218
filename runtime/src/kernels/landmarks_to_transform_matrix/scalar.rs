//! The reference Landmarks2TransformMatrix: MediaPipe's `LandmarksToTransformMatrixV2`.

use super::LandmarksToTransformMatrixParams;
use crate::math::{atan2f, cosf, sinf};

type Mat3 = [f32; 9];
type Mat4 = [f32; 16];

/// `Mat3 * float3`: each row's sum from 0, left to right.
fn mat3_vec(m: &Mat3, v: [f32; 3]) -> [f32; 3] {
    let mut out = [0.0; 3];
    for (r, o) in out.iter_mut().enumerate() {
        let mut sum = 0.0f32;
        for (k, vk) in v.iter().enumerate() {
            sum += m[r * 3 + k] * vk;
        }
        *o = sum;
    }
    out
}

/// `Mat4::operator*=`: `t = t * other`, each entry's sum from 0, left to right.
fn mat4_mul(t: &mut Mat4, other: &Mat4) {
    let mut result = [0.0f32; 16];
    for r in 0..4 {
        for c in 0..4 {
            let mut sum = 0.0f32;
            for k in 0..4 {
                sum += t[r * 4 + k] * other[k * 4 + c];
            }
            result[r * 4 + c] = sum;
        }
    }
    *t = result;
}

/// The rotation `Mat3(cos r, -sin r, 0, sin r, cos r, 0, 0, 0, 1)`.
fn rotation3(r: f32) -> Mat3 {
    [cosf(r), -sinf(r), 0.0, sinf(r), cosf(r), 0.0, 0.0, 0.0, 1.0]
}

/// Landmark `i`'s x, y, z (`Read3DLandmarkXYZ`: a stride of 3 whatever the tensor's shape).
fn landmark(data: &[f32], i: usize) -> [f32; 3] {
    [data[i * 3], data[i * 3 + 1], data[i * 3 + 2]]
}

/// See [`super::landmarks_to_transform_matrix_f32`].
pub fn landmarks_to_transform_matrix_f32(p: &LandmarksToTransformMatrixParams, data: &[f32], output: &mut [f32]) {
    // EstimateRotationRadians.
    let (left, right) = (landmark(data, p.left_rotation_idx), landmark(data, p.right_rotation_idx));
    let rotation = p.target_rotation_radians - atan2f(right[1] - left[1], right[0] - left[0]);
    // EstimateCenterAndSize: the subset pairs, z = 1, rotated; their box; its centre back.
    let t_rotation = rotation3(rotation);
    let t_rotation_inverse = rotation3(-rotation);
    let mut max = [0.0f32; 3];
    let mut min = [0.0f32; 3];
    let mut first = true;
    for pair in p.subset {
        for &i in pair {
            let [x, y, _] = landmark(data, i);
            let v = mat3_vec(&t_rotation, [x, y, 1.0]);
            if first {
                (max, min, first) = (v, v, false);
                continue;
            }
            if max[0] < v[0] {
                max[0] = v[0];
            }
            if max[1] < v[1] {
                max[1] = v[1];
            }
            if min[0] > v[0] {
                min[0] = v[0];
            }
            if min[1] > v[1] {
                min[1] = v[1];
            }
        }
    }
    let crop_width = max[0] - min[0];
    let crop_height = max[1] - min[1];
    let mut centre = min;
    centre[0] += max[0];
    centre[1] += max[1];
    centre[0] /= 2.0;
    centre[1] /= 2.0;
    let centre = mat3_vec(&t_rotation_inverse, centre);
    // LandmarksToTransformMatrixV2: I * shift * rotation(-r) * scale * shift2.
    let mut t: Mat4 = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
    mat4_mul(&mut t, &[1.0, 0.0, 0.0, centre[0], 0.0, 1.0, 0.0, centre[1], 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    let r = -rotation;
    mat4_mul(&mut t, &[cosf(r), -sinf(r), 0.0, 0.0, sinf(r), cosf(r), 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    let scale_x = p.scale_x * crop_width / p.output_width as f32;
    let scale_y = p.scale_y * crop_height / p.output_height as f32;
    mat4_mul(&mut t, &[scale_x, 0.0, 0.0, 0.0, 0.0, scale_y, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    // `-1.0 * (size / 2.0)` in double: the multiplication by -1 is an exact negation.
    let shift_x = (-(p.output_width as f64 / 2.0)) as f32;
    let shift_y = (-(p.output_height as f64 / 2.0)) as f32;
    mat4_mul(&mut t, &[1.0, 0.0, 0.0, shift_x, 0.0, 1.0, 0.0, shift_y, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    output[..16].copy_from_slice(&t);
}
