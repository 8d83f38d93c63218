//! Scalar reference implementation of [`super::mean_s8`].

use super::MeanParams;
use crate::quant::multiply_by_quantized_multiplier;

/// See [`super::mean_s8`].
pub fn mean_s8(p: &MeanParams, input: &[i8], output: &mut [i8]) {
    let d = p.input_shape;
    let r = p.reduce_axes;
    // Output extent per dimension, and the range of input indices summed into one output
    // index `o` along each dimension: all of it if reduced, `o..o + 1` otherwise.
    let out_dim = |k: usize| if r[k] { 1 } else { d[k] };
    let span = |k: usize, o: usize| if r[k] { 0..d[k] } else { o..o + 1 };
    let mut out_at = 0;
    for o0 in 0..out_dim(0) {
        for o1 in 0..out_dim(1) {
            for o2 in 0..out_dim(2) {
                for o3 in 0..out_dim(3) {
                    let mut sum: i32 = 0;
                    for i0 in span(0, o0) {
                        for i1 in span(1, o1) {
                            for i2 in span(2, o2) {
                                let row = ((i0 * d[1] + i1) * d[2] + i2) * d[3];
                                for i3 in span(3, o3) {
                                    sum = sum.wrapping_add(input[row + i3] as i32);
                                }
                            }
                        }
                    }
                    let shifted_sum = sum.wrapping_add(p.sum_offset);
                    let v = multiply_by_quantized_multiplier(shifted_sum, p.multiplier, p.shift)
                        .wrapping_add(p.output_offset);
                    output[out_at] = v.clamp(i8::MIN as i32, i8::MAX as i32) as i8;
                    out_at += 1;
                }
            }
        }
    }
}
