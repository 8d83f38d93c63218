//! Scalar reference implementation of [`super::depthwise_conv_2d_s8`].

use super::DepthwiseConv2dParams;
use crate::quant::multiply_by_quantized_multiplier;

/// See [`super::depthwise_conv_2d_s8`].
pub fn depthwise_conv_2d_s8(
    p: &DepthwiseConv2dParams,
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    output: &mut [i8],
) {
    let [batches, in_h, in_w, in_d] = p.input_shape;
    let [_, f_h, f_w, out_d] = p.filter_shape;
    let [out_batches, out_h, out_w, out_d2] = p.output_shape;
    let mult = p.depth_multiplier;
    debug_assert_eq!(batches, out_batches);
    debug_assert_eq!(out_d, out_d2);
    debug_assert_eq!(out_d, in_d * mult);
    debug_assert!(p.output_activation_min <= p.output_activation_max);
    let per_tensor = p.output_multiplier.len() == 1;
    debug_assert!(per_tensor || p.output_multiplier.len() == out_d);
    debug_assert_eq!(p.output_multiplier.len(), p.output_shift.len());

    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            for ox in 0..out_w {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let out_pixel = ((b * out_h + oy) * out_w + ox) * out_d;
                for ic in 0..in_d {
                    for m in 0..mult {
                        let oc = ic * mult + m;
                        let mut acc: i32 = 0;
                        for ky in 0..f_h {
                            let iy = in_y0 + (p.dilation_height * ky) as isize;
                            if iy < 0 || iy >= in_h as isize {
                                continue;
                            }
                            let in_row = (b * in_h + iy as usize) * in_w;
                            for kx in 0..f_w {
                                let ix = in_x0 + (p.dilation_width * kx) as isize;
                                if ix < 0 || ix >= in_w as isize {
                                    continue;
                                }
                                let x = input[(in_row + ix as usize) * in_d + ic] as i32;
                                let w = filter[(ky * f_w + kx) * out_d + oc] as i32;
                                acc = acc.wrapping_add(w * (x + p.input_offset));
                            }
                        }
                        if let Some(bias) = bias {
                            acc = acc.wrapping_add(bias[oc]);
                        }
                        let q = if per_tensor { 0 } else { oc };
                        let mut v = multiply_by_quantized_multiplier(acc, p.output_multiplier[q], p.output_shift[q]);
                        v = v.wrapping_add(p.output_offset);
                        v = v.max(p.output_activation_min).min(p.output_activation_max);
                        output[out_pixel + oc] = v as i8;
                    }
                }
            }
        }
    }
}
