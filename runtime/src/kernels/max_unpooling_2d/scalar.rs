//! The reference MaxUnpooling2D: MediaPipe's `MaxUnpooling` loop nest.

use super::MaxUnpooling2dParams;

/// See [`super::max_unpooling_2d_f32`].
pub fn max_unpooling_2d_f32(p: &MaxUnpooling2dParams, input: &[f32], indices: &[f32], output: &mut [f32]) {
    let [batches, in_h, in_w, depth] = p.input_shape;
    let [_, out_h, out_w, _] = p.output_shape;
    let f_w = p.filter_width as i64;
    let [stride_h, stride_w] = p.stride;
    let [pad_h, pad_w] = p.padding;
    output.fill(0.0);
    for b in 0..batches {
        for in_y in 0..in_h {
            for in_x in 0..in_w {
                for c in 0..depth {
                    let i = ((b * in_h + in_y) * in_w + in_x) * depth + c;
                    // `int idx = indices_data[i]` (saturating here), then C's truncating
                    // division and remainder, which i64's are.
                    let idx = indices[i] as i32 as i64;
                    let (max_x, max_y) = (idx % f_w, idx / f_w);
                    // In i64: the stride is not bounded by the output's size (any stride fits
                    // the C++), so `in * stride` may exceed a 32-bit usize.
                    let out_x = in_x as i64 * stride_w as i64 - pad_w as i64 + max_x;
                    let out_y = in_y as i64 * stride_h as i64 - pad_h as i64 + max_y;
                    if (0..out_w as i64).contains(&out_x) && (0..out_h as i64).contains(&out_y) {
                        output[((b * out_h + out_y as usize) * out_w + out_x as usize) * depth + c] = input[i];
                    }
                }
            }
        }
    }
}
