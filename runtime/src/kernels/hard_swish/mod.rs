//! HARD_SWISH, int8 in and out.
//!
//! Bit-exact with TFLite Micro's int8 HARD_SWISH, reference
//! `reference_ops::HardSwish<int8_t>(HardSwishParams, ...)`: int16 fixed point with a
//! "relu-ish" multiplier in [0, 1] and an output multiplier.

pub mod scalar;
#[cfg(test)]
mod tests;

/// TFLite `HardSwishParams`; computed by the compiler ([`crate::prepare::hard_swish_s8`]).
#[derive(Clone, Copy, Debug)]
pub struct HardSwishParams {
    pub input_zero_point: i16,
    pub output_zero_point: i16,
    /// 16-bit multiplier from the "hires" input scale (`input_scale / 128`) to the
    /// relu-ish scale (`3 / 32768`) ...
    pub reluish_multiplier_fixedpoint_int16: i16,
    /// ... and its exponent (positive = left shift), in `-31..=31`.
    pub reluish_multiplier_exponent: i32,
    /// 16-bit multiplier from the hires input scale to the output scale ...
    pub output_multiplier_fixedpoint_int16: i16,
    /// ... and its exponent, `<= 0`.
    pub output_multiplier_exponent: i32,
}

/// HARD_SWISH int8, element-wise.
pub fn hard_swish_s8(params: &HardSwishParams, input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(input.len(), output.len());
    scalar::hard_swish_s8(params, input, output)
}

/// HARD_SWISH int8 in place (`data` is both input and output).
pub fn hard_swish_s8_in_place(params: &HardSwishParams, data: &mut [i8]) {
    scalar::hard_swish_s8_in_place(params, data)
}
