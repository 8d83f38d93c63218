//! MEAN (reduce mean over axes), int8 in and out, and int16 in and out (16x8).
//!
//! Bit-exact with TFLite Micro's int8 and int16 MEAN (the int16 one is the same
//! `QuantizedMeanOrSum<int16_t, int32_t>`, clamped to int16), which always takes reference
//! `QuantizedMeanOrSum` (via `QuantizedMeanOrSumExtraArgs`), whether input and output
//! quantization are equal or not: an int32 (wrapping) sum per output, plus
//! `-input_zero_point * n`, then one `MultiplyByQuantizedMultiplier` whose multiplier
//! already folds `input_scale / output_scale / n` ([`crate::prepare::mean_s8`]), plus the
//! output zero point, clamped to int8.
//!
//! Shapes are 4-D (the compiler pads lower ranks with leading 1s); `keep_dims` does not
//! change the memory layout of the output (the non-reduced dimensions in order).

pub mod scalar;
#[cfg(test)]
mod tests;

use crate::quant::multiply_by_quantized_multiplier;

/// Everything MEAN needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug)]
pub struct MeanParams {
    /// Input shape, padded to 4-D with leading 1s. No dimension may be 0.
    pub input_shape: [usize; 4],
    /// `reduce_axes[d]`: whether dimension `d` (of the padded shape) is reduced.
    pub reduce_axes: [bool; 4],
    /// Multiplier with `1/n` folded in ([`crate::prepare::MeanQuant`]).
    pub multiplier: i32,
    /// Exponent of `multiplier` (positive: a left shift).
    pub shift: i32,
    /// `-input_zero_point * n`, wrapped to int32.
    pub sum_offset: i32,
    /// `output_zero_point`.
    pub output_offset: i32,
}

/// MEAN int8. `output` has the product of the non-reduced dimensions.
pub fn mean_s8(params: &MeanParams, input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert_eq!(
        output.len(),
        params.input_shape.iter().zip(params.reduce_axes).map(|(&d, r)| if r { 1 } else { d }).product::<usize>()
    );
    if !params.reduce_axes[3] && params.input_shape[3] > 1 {
        return mean_s8_rows(params, input, output);
    }
    scalar::mean_s8(params, input, output)
}

/// MEAN int16 (16x8): the int8 arithmetic (int32 wrapping sums, one requantization) with
/// the int16 clamp. `output` has the product of the non-reduced dimensions.
pub fn mean_s16(params: &MeanParams, input: &[i16], output: &mut [i16]) {
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert_eq!(
        output.len(),
        params.input_shape.iter().zip(params.reduce_axes).map(|(&d, r)| if r { 1 } else { d }).product::<usize>()
    );
    scalar::mean_s16(params, input, output)
}

/// Channels summed together by [`mean_s8_rows`] (its int32 accumulators on the stack).
const CHUNK: usize = 64;

/// [`mean_s8`] when the innermost dimension is kept (the corpus' global average over H and
/// W of an NHWC tensor): the same int32 sums, taken a row of up to [`CHUNK`] channels at a
/// time over contiguous input (the reference walks each channel's elements with a stride
/// of the channel count), so the inner loop vectorises. Wrapping addition is associative
/// and commutative: the same sums as the reference's, whatever the order.
pub(crate) fn mean_s8_rows(p: &MeanParams, input: &[i8], output: &mut [i8]) {
    let d = p.input_shape;
    let r = p.reduce_axes;
    debug_assert!(!r[3]);
    let out_dim = |k: usize| if r[k] { 1 } else { d[k] };
    let span = |k: usize, o: usize| if r[k] { 0..d[k] } else { o..o + 1 };
    let mut outs = output.chunks_exact_mut(d[3]);
    for o0 in 0..out_dim(0) {
        for o1 in 0..out_dim(1) {
            for o2 in 0..out_dim(2) {
                let Some(out) = outs.next() else { return };
                for (c0, out) in (0..d[3]).step_by(CHUNK).zip(out.chunks_mut(CHUNK)) {
                    let mut acc = [0i32; CHUNK];
                    let acc = &mut acc[..out.len()];
                    for i0 in span(0, o0) {
                        for i1 in span(1, o1) {
                            for i2 in span(2, o2) {
                                let row = ((i0 * d[1] + i1) * d[2] + i2) * d[3] + c0;
                                for (a, &x) in acc.iter_mut().zip(&input[row..row + out.len()]) {
                                    *a = a.wrapping_add(x as i32);
                                }
                            }
                        }
                    }
                    for (y, &sum) in out.iter_mut().zip(acc.iter()) {
                        let v = multiply_by_quantized_multiplier(sum.wrapping_add(p.sum_offset), p.multiplier, p.shift).wrapping_add(p.output_offset);
                        *y = v.clamp(i8::MIN as i32, i8::MAX as i32) as i8;
                    }
                }
            }
        }
    }
}
