//! The reference Convolution2DTransposeBias: MediaPipe's `TransposeConvBias` loop nest.

use super::Convolution2dTransposeBiasParams;

/// See [`super::convolution_2d_transpose_bias_f32`].
pub fn convolution_2d_transpose_bias_f32(p: &Convolution2dTransposeBiasParams, input: &[f32], filter: &[f32], bias: &[f32], output: &mut [f32]) {
    let [batches, in_h, in_w, in_d] = p.input_shape;
    let [out_d, f_h, f_w, _] = p.filter_shape;
    let [_, out_h, out_w, _] = p.output_shape;
    let [stride_h, stride_w] = p.stride;
    let [pad_h, pad_w] = p.padding;
    for b in 0..batches {
        let out_batch = b * out_h * out_w * out_d;
        for pixel in 0..out_h * out_w {
            let o = out_batch + pixel * out_d;
            output[o..o + out_d].copy_from_slice(&bias[..out_d]);
        }
        for in_y in 0..in_h {
            for in_x in 0..in_w {
                for in_c in 0..in_d {
                    let x = input[((b * in_h + in_y) * in_w + in_x) * in_d + in_c];
                    // The output origin, `in * stride - pad`, may be negative: offset by the
                    // padding so every index stays unsigned.
                    let (oy0, ox0) = (in_y * stride_h, in_x * stride_w);
                    for f_y in 0..f_h {
                        let Some(out_y) = (oy0 + f_y).checked_sub(pad_h).filter(|&y| y < out_h) else { continue };
                        for f_x in 0..f_w {
                            let Some(out_x) = (ox0 + f_x).checked_sub(pad_w).filter(|&x| x < out_w) else { continue };
                            let o = out_batch + (out_y * out_w + out_x) * out_d;
                            for out_c in 0..out_d {
                                let w = filter[((out_c * f_h + f_y) * f_w + f_x) * in_d + in_c];
                                output[o + out_c] += x * w;
                            }
                        }
                    }
                }
            }
        }
    }
}
