//! Scalar reference implementation of [`super::max_pool_2d_s8`].

use super::MaxPool2dParams;

/// See [`super::max_pool_2d_s8`].
pub fn max_pool_2d_s8(p: &MaxPool2dParams, input: &[i8], output: &mut [i8]) {
    let [batches, in_h, in_w, depth] = p.input_shape;
    debug_assert!(p.output_activation_min <= p.output_activation_max);
    debug_assert!(p.output_activation_min >= -128 && p.output_activation_max <= 127);
    let (lo, hi) = (p.output_activation_min as i8, p.output_activation_max as i8);
    for b in 0..batches {
        for oy in 0..p.output_height {
            let in_y0 = (oy * p.stride_height) as isize - p.pad_top as isize;
            let y_start = in_y0.max(0) as usize;
            let y_end = (in_y0 + p.filter_height as isize).min(in_h as isize).max(0) as usize;
            for ox in 0..p.output_width {
                let in_x0 = (ox * p.stride_width) as isize - p.pad_left as isize;
                let x_start = in_x0.max(0) as usize;
                let x_end = (in_x0 + p.filter_width as isize).min(in_w as isize).max(0) as usize;
                let out_pixel = ((b * p.output_height + oy) * p.output_width + ox) * depth;
                let out = &mut output[out_pixel..out_pixel + depth];
                out.fill(i8::MIN);
                for iy in y_start..y_end {
                    let row = (b * in_h + iy) * in_w;
                    for ix in x_start..x_end {
                        let at = (row + ix) * depth;
                        for (o, &x) in out.iter_mut().zip(&input[at..at + depth]) {
                            *o = (*o).max(x);
                        }
                    }
                }
                for o in out.iter_mut() {
                    *o = (*o).max(lo).min(hi);
                }
            }
        }
    }
}
