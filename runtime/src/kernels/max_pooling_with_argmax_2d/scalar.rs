//! The reference MaxPoolingWithArgmax2D: MediaPipe's `MaxPoolArgmax` loop nest.

use super::MaxPoolingWithArgmax2dParams;

/// See [`super::max_pooling_with_argmax_2d_f32`].
pub fn max_pooling_with_argmax_2d_f32(p: &MaxPoolingWithArgmax2dParams, input: &[f32], output: &mut [f32], indices: &mut [f32]) {
    let [batches, in_h, in_w, depth] = p.input_shape;
    let [_, out_h, out_w, _] = p.output_shape;
    let [f_h, f_w] = p.filter;
    let [stride_h, stride_w] = p.stride;
    let [pad_h, pad_w] = p.padding;
    for b in 0..batches {
        for out_y in 0..out_h {
            for out_x in 0..out_w {
                // The window in input coordinates offset by the padding (`in + pad`), clipped
                // to the input: MediaPipe's `filter_*_start` / `filter_*_end`.
                let (oy, ox) = (out_y * stride_h, out_x * stride_w);
                let fy_start = pad_h.saturating_sub(oy);
                let fy_end = f_h.min((in_h + pad_h).saturating_sub(oy));
                let fx_start = pad_w.saturating_sub(ox);
                let fx_end = f_w.min((in_w + pad_w).saturating_sub(ox));
                for c in 0..depth {
                    let mut max = f32::MIN;
                    let (mut max_x, mut max_y) = (0, 0);
                    for f_y in fy_start..fy_end {
                        let in_y = oy + f_y - pad_h;
                        for f_x in fx_start..fx_end {
                            let in_x = ox + f_x - pad_w;
                            let cur = input[((b * in_h + in_y) * in_w + in_x) * depth + c];
                            if cur > max {
                                max = cur;
                                max_x = f_x;
                                max_y = f_y;
                            }
                        }
                    }
                    let o = ((b * out_h + out_y) * out_w + out_x) * depth + c;
                    // ActivationFunctionWithMinMax: std::min(std::max(x, min), max).
                    let v = if max < p.activation_min { p.activation_min } else { max };
                    output[o] = if p.activation_max < v { p.activation_max } else { v };
                    // `max_y * filter_width + max_x` is a C int, converted to float for `+ 0.1f`.
                    indices[o] = (max_y * f_w + max_x) as f32 + 0.1f32;
                }
            }
        }
    }
}
