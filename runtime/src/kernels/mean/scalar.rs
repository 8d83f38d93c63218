//! Scalar reference implementation of [`super::mean_s8`] and [`super::mean_s16`].

use super::MeanParams;
use crate::quant::multiply_by_quantized_multiplier;

/// See [`super::mean_s8`].
pub fn mean_s8(p: &MeanParams, input: &[i8], output: &mut [i8]) {
    mean_q(p, input, output, i32::from, |v| v.clamp(i8::MIN as i32, i8::MAX as i32) as i8);
}

/// See [`super::mean_s16`].
pub fn mean_s16(p: &MeanParams, input: &[i16], output: &mut [i16]) {
    mean_q(p, input, output, i32::from, |v| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16);
}

/// Reference `QuantizedMeanOrSum<T, int32_t>` (mean): the wrapping int32 sum per output, the
/// offset, one requantization, the output zero point, clamped by `narrow`.
fn mean_q<T: Copy>(p: &MeanParams, input: &[T], output: &mut [T], widen: impl Fn(T) -> i32, narrow: impl Fn(i32) -> T) {
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
                                    sum = sum.wrapping_add(widen(input[row + i3]));
                                }
                            }
                        }
                    }
                    let shifted_sum = sum.wrapping_add(p.sum_offset);
                    let v = multiply_by_quantized_multiplier(shifted_sum, p.multiplier, p.shift)
                        .wrapping_add(p.output_offset);
                    output[out_at] = narrow(v);
                    out_at += 1;
                }
            }
        }
    }
}
