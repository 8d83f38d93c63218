//! The reference TransformTensorBilinear: MediaPipe's `TransformTensorBilinearV2`.

use super::TransformTensorBilinearParams;

/// MediaPipe's `DotProduct(l, r)` with `r = (x, y, 0, 1)`: float products summed left to
/// right (the `0` and `1` terms kept, for NaN and infinity).
fn dot(l: [f32; 4], x: f32, y: f32) -> f32 {
    l[0] * x + l[1] * y + l[2] * 0.0 + l[3] * 1.0
}

/// `(1.0 - t) * a + t * b` as C++ evaluates it with `t`, `a`, `b` floats: the left product in
/// `double`, the right one a float product widened, the sum rounded to float once.
fn blend(t: f32, a: f32, b: f32) -> f32 {
    ((1.0 - t as f64) * a as f64 + (t * b) as f64) as f32
}

/// See [`super::transform_tensor_bilinear_f32`].
pub fn transform_tensor_bilinear_f32(p: &TransformTensorBilinearParams, input: &[f32], m: &[f32], output: &mut [f32]) {
    let [_, in_h, in_w, in_c] = p.input_shape;
    let [_, out_h, out_w, out_c] = p.output_shape;
    let mut xt = [m[0], m[1], m[2], m[3]];
    let mut yt = [m[4], m[5], m[6], m[7]];
    // Align corners: `x_transform[3] += x_transform[0] * 0.5 + x_transform[1] * 0.5 - 0.5`.
    xt[3] = (xt[3] as f64 + (xt[0] as f64 * 0.5 + xt[1] as f64 * 0.5 - 0.5)) as f32;
    yt[3] = (yt[3] as f64 + (yt[0] as f64 * 0.5 + yt[1] as f64 * 0.5 - 0.5)) as f32;
    let read = |h: i32, w: i32, c: usize| -> f32 {
        if h < 0 || w < 0 || h as usize >= in_h || w as usize >= in_w {
            0.0
        } else {
            input[(h as usize * in_w + w as usize) * in_c + c]
        }
    };
    for out_y in 0..out_h {
        for out_x in 0..out_w {
            let (cx, cy) = (out_x as f32, out_y as f32);
            let (tx, ty) = (dot(xt, cx, cy), dot(yt, cx, cy));
            let out_of_bound = tx < 0.0 || tx > (in_w as i32 - 1) as f32 || ty < 0.0 || ty > (in_h as i32 - 1) as f32;
            let (fx, fy) = (crate::math::floorf(tx), crate::math::floorf(ty));
            // C's float-to-int conversion (saturating here; only a NaN gets this far).
            let (x0, y0) = (fx as i32, fy as i32);
            let (right, lower) = (tx - fx, ty - fy);
            let o = (out_y * out_w + out_x) * out_c;
            for z in 0..out_c {
                output[o + z] = if out_of_bound {
                    0.0
                } else {
                    let q11 = read(y0, x0, z);
                    let q21 = read(y0, x0.saturating_add(1), z);
                    let q12 = read(y0.saturating_add(1), x0, z);
                    let q22 = read(y0.saturating_add(1), x0.saturating_add(1), z);
                    let upper = blend(right, q11, q21);
                    let lower_row = blend(right, q12, q22);
                    // `lower_contrib * lower + (1.0 - lower_contrib) * upper`.
                    ((lower * lower_row) as f64 + (1.0 - lower as f64) * upper as f64) as f32
                };
            }
        }
    }
}
