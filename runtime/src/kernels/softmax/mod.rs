//! SOFTMAX, int8 in and int8 out (output scale 1/256, zero point -128) or int16 out
//! (output scale 1/65536, zero point -32768).
//!
//! Bit-exact with TFLite Micro, whose int8 -> int8 SOFTMAX is reference
//! `reference_ops::Softmax<int8_t, int8_t>` (gemmlowp fixed point: `exp_on_negative_values`
//! on Q5.26 input differences, a Q12.19 sum, `GetReciprocal`); TFLite Micro uses no
//! lookup table for int8 (its LUT is only for int16).

pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything SOFTMAX needs besides the tensors; computed by the compiler
/// ([`crate::prepare::softmax_s8`]).
#[derive(Clone, Copy, Debug)]
pub struct SoftmaxParams {
    /// The last dimension: softmax runs over each row of `depth` elements.
    pub depth: usize,
    /// `PreprocessSoftmaxScaling(beta, input_scale, 5)` multiplier ...
    pub input_multiplier: i32,
    /// ... and its (non-negative) left shift.
    pub input_left_shift: i32,
    /// Differences from the row maximum below this contribute nothing (output -128).
    pub diff_min: i32,
}

/// SOFTMAX int8 -> int8 over rows of `params.depth`.
pub fn softmax_s8(params: &SoftmaxParams, input: &[i8], output: &mut [i8]) {
    debug_assert!(params.depth > 0);
    debug_assert_eq!(input.len() % params.depth, 0);
    debug_assert_eq!(input.len(), output.len());
    scalar::softmax_s8(params, input, output)
}

/// SOFTMAX int8 -> int16 over rows of `params.depth` (TFLite's `Softmax<int8_t, int16_t>`:
/// the same parameters as [`softmax_s8`], 16 output bits, offset by -32768).
pub fn softmax_s8_s16(params: &SoftmaxParams, input: &[i8], output: &mut [i16]) {
    debug_assert!(params.depth > 0);
    debug_assert_eq!(input.len() % params.depth, 0);
    debug_assert_eq!(input.len(), output.len());
    scalar::softmax_s8_s16(params, input, output)
}
