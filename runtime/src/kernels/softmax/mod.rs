//! SOFTMAX, int8 in and int8 out (output scale 1/256, zero point -128) or int16 out
//! (output scale 1/65536, zero point -32768); int16; float32 ([`softmax_f32`]).
//!
//! Bit-exact with TFLite Micro, whose int8 -> int8 SOFTMAX is reference
//! `reference_ops::Softmax<int8_t, int8_t>` (gemmlowp fixed point: `exp_on_negative_values`
//! on Q5.26 input differences, a Q12.19 sum, `GetReciprocal`); TFLite Micro uses no
//! lookup table for int8 (its LUT is only for int16).

pub mod float;
pub mod scalar;
#[cfg(test)]
mod tests;

pub use float::SoftmaxF32Params;

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

/// Everything int16 SOFTMAX needs besides the tensors; computed by the compiler (TFLite
/// Micro's `CalculateSoftmaxParams` int16 branch, its two `LUTPopulate<int16_t>` tables).
#[derive(Clone, Copy, Debug)]
pub struct SoftmaxS16Params<'a> {
    /// The last dimension: softmax runs over each row of `depth` elements.
    pub depth: usize,
    /// `QuantizeMultiplier(input_scale * beta / (10 / 65535))`: maps input differences to
    /// the exp table's [-10, 0] range.
    pub input_multiplier: i32,
    /// Left shift applied with `input_multiplier`.
    pub input_left_shift: i32,
    /// `exp(x)` on [-10, 0], 513 entries.
    pub exp_lut: &'a [i16],
    /// `1 / (1 + x)` on [0, 1], 513 entries.
    pub one_over_one_plus_x_lut: &'a [i16],
}

/// SOFTMAX int16 -> int16 (input zero point 0, output scale 1/32768, zero point 0) over
/// rows of `params.depth`: TFLite's `SoftmaxInt16`, with lookup tables.
pub fn softmax_s16(params: &SoftmaxS16Params, input: &[i16], output: &mut [i16]) {
    debug_assert!(params.depth > 0);
    debug_assert_eq!(input.len() % params.depth, 0);
    debug_assert_eq!(input.len(), output.len());
    debug_assert_eq!(params.exp_lut.len(), 513);
    debug_assert_eq!(params.one_over_one_plus_x_lut.len(), 513);
    scalar::softmax_s16(params, input, output)
}

/// SOFTMAX int8 -> int16 over rows of `params.depth` (TFLite's `Softmax<int8_t, int16_t>`:
/// the same parameters as [`softmax_s8`], 16 output bits, offset by -32768).
pub fn softmax_s8_s16(params: &SoftmaxParams, input: &[i8], output: &mut [i16]) {
    debug_assert!(params.depth > 0);
    debug_assert_eq!(input.len() % params.depth, 0);
    debug_assert_eq!(input.len(), output.len());
    scalar::softmax_s8_s16(params, input, output)
}

/// SOFTMAX float32 over rows of `params.depth` ([`float::softmax_f32`]).
pub fn softmax_f32(params: &SoftmaxF32Params, input: &[f32], output: &mut [f32]) {
    debug_assert!(params.depth > 0);
    debug_assert_eq!(input.len() % params.depth, 0);
    debug_assert_eq!(input.len(), output.len());
    float::softmax_f32(params, input, output)
}

/// SOFTMAX legacy uint8 -> uint8 (output scale 1/256, zero point 0) over rows of
/// `params.depth`: TFLite's `Softmax<uint8_t, uint8_t>`, the int8 kernel's body (same
/// [`SoftmaxParams`], [`crate::prepare::softmax_s8`]).
pub fn softmax_u8(params: &SoftmaxParams, input: &[u8], output: &mut [u8]) {
    debug_assert!(params.depth > 0);
    debug_assert_eq!(input.len() % params.depth, 0);
    debug_assert_eq!(input.len(), output.len());
    scalar::softmax_u8(params, input, output)
}
