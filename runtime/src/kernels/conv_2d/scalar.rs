//! Scalar reference implementations of [`super::conv_2d_s8`] and [`super::conv_2d_s16`].

use super::Conv2dParams;
use crate::kernels::window::valid_taps;
use crate::quant::{multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_i64};

/// See [`super::conv_2d_s8`].
pub fn conv_2d_s8(p: &Conv2dParams, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    let [batches, in_h, in_w, in_d] = p.input_shape;
    let [out_d, f_h, f_w, f_d] = p.filter_shape;
    let [out_batches, out_h, out_w, out_d2] = p.output_shape;
    debug_assert_eq!(batches, out_batches);
    debug_assert_eq!(out_d, out_d2);
    debug_assert!(f_d > 0 && in_d % f_d == 0);
    debug_assert!(p.output_activation_min <= p.output_activation_max);
    let groups = in_d / f_d;
    debug_assert!(groups > 0 && out_d % groups == 0);
    let filters_per_group = out_d / groups;
    let per_tensor = p.output_multiplier.len() == 1;
    debug_assert!(per_tensor || p.output_multiplier.len() == out_d);
    debug_assert_eq!(p.output_multiplier.len(), p.output_shift.len());

    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            // Taps outside the image are skipped (they contribute nothing, not the zero point).
            let ky_range = valid_taps(in_y0, p.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let kx_range = valid_taps(in_x0, p.dilation_width, f_w, in_w);
                let out_pixel = ((b * out_h + oy) * out_w + ox) * out_d;
                for g in 0..groups {
                    let in_c0 = g * f_d;
                    for oc in g * filters_per_group..(g + 1) * filters_per_group {
                        let mut acc: i32 = 0;
                        for ky in ky_range.clone() {
                            let iy = (in_y0 + (p.dilation_height * ky) as isize) as usize;
                            for kx in kx_range.clone() {
                                let ix = (in_x0 + (p.dilation_width * kx) as isize) as usize;
                                let xs = &input[((b * in_h + iy) * in_w + ix) * in_d + in_c0..][..f_d];
                                let ws = &filter[((oc * f_h + ky) * f_w + kx) * f_d..][..f_d];
                                for (&x, &w) in xs.iter().zip(ws) {
                                    acc = acc.wrapping_add(w as i32 * (x as i32 + p.input_offset));
                                }
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

/// See [`super::conv_2d_s16`].
pub fn conv_2d_s16(p: &Conv2dParams, input: &[i16], filter: &[i8], bias: Option<&[i64]>, output: &mut [i16]) {
    let [batches, in_h, in_w, in_d] = p.input_shape;
    let [out_d, f_h, f_w, f_d] = p.filter_shape;
    let [_, out_h, out_w, _] = p.output_shape;
    debug_assert!(f_d > 0 && in_d % f_d == 0);
    let groups = in_d / f_d;
    let filters_per_group = out_d / groups;
    let per_tensor = p.output_multiplier.len() == 1;

    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            let ky_range = valid_taps(in_y0, p.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let kx_range = valid_taps(in_x0, p.dilation_width, f_w, in_w);
                let out_pixel = ((b * out_h + oy) * out_w + ox) * out_d;
                for g in 0..groups {
                    let in_c0 = g * f_d;
                    for oc in g * filters_per_group..(g + 1) * filters_per_group {
                        let mut acc: i64 = 0;
                        for ky in ky_range.clone() {
                            let iy = (in_y0 + (p.dilation_height * ky) as isize) as usize;
                            for kx in kx_range.clone() {
                                let ix = (in_x0 + (p.dilation_width * kx) as isize) as usize;
                                let xs = &input[((b * in_h + iy) * in_w + ix) * in_d + in_c0..][..f_d];
                                let ws = &filter[((oc * f_h + ky) * f_w + kx) * f_d..][..f_d];
                                for (&x, &w) in xs.iter().zip(ws) {
                                    acc = acc.wrapping_add(w as i64 * x as i64);
                                }
                            }
                        }
                        if let Some(bias) = bias {
                            acc = acc.wrapping_add(bias[oc]);
                        }
                        let q = if per_tensor { 0 } else { oc };
                        let v = multiply_by_quantized_multiplier_i64(acc, p.output_multiplier[q], p.output_shift[q]);
                        output[out_pixel + oc] = v.max(p.output_activation_min).min(p.output_activation_max) as i16;
                    }
                }
            }
        }
    }
}
