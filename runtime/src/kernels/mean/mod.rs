//! MEAN (reduce mean over axes), int8 in and out.
//!
//! Bit-exact with TFLite Micro's int8 MEAN, which always takes reference
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
    scalar::mean_s8(params, input, output)
}
