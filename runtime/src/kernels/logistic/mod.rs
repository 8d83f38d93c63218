//! LOGISTIC (sigmoid), int8 in and out (output scale 1/256, zero point -128).
//!
//! Bit-exact with TFLite Micro's `reference_integer_ops::Logistic` (int8): inputs beyond
//! `±input_range_radius` saturate, the rest are rescaled to Q4.27 and go through gemmlowp
//! `logistic`.
//!
//! float32: TFLite's `reference_ops::Logistic` (TFLite Micro's float path), bit for bit
//! where [`crate::math::expf`] equals the C library's `expf` (see `math`): `1` above
//! 16.619047, `exp(x)` below -9, else `1 / (1 + exp(-x))`, each step rounded in `f32`.

pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything LOGISTIC needs; computed by the compiler ([`prepare_logistic_s8`]).
#[derive(Clone, Copy, Debug)]
pub struct LogisticParams {
    /// The input's zero point.
    pub input_zero_point: i32,
    /// Inputs further than this from the zero point saturate the output (to 0 or 1 in real terms).
    pub input_range_radius: i32,
    /// Fixed-point multiplier scaling `input - zero_point` into the Q4.27 input of the fixed-point sigmoid.
    pub input_multiplier: i32,
    /// Left shift applied with `input_multiplier`.
    pub input_left_shift: i32,
}

/// LOGISTIC int8, element-wise.
pub fn logistic_s8(params: &LogisticParams, input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(input.len(), output.len());
    if crate::arch::lut::takes(input.len()) {
        return logistic_s8_table(params, input, output);
    }
    scalar::logistic_s8(params, input, output)
}

/// LOGISTIC float32, element-wise.
pub fn logistic_f32(input: &[f32], output: &mut [f32]) {
    crate::kernels::nd::map(input, output, scalar::logistic_one_f32)
}

/// [`logistic_f32`] in place (`data` is both input and output).
pub fn logistic_f32_in_place(data: &mut [f32]) {
    crate::kernels::nd::map_in_place(data, scalar::logistic_one_f32)
}

/// LOGISTIC int8 in place (`data` is both input and output).
pub fn logistic_s8_in_place(params: &LogisticParams, data: &mut [i8]) {
    if crate::arch::lut::takes(data.len()) {
        return logistic_s8_table_in_place(params, data);
    }
    scalar::logistic_s8_in_place(params, data)
}

/// The host form of [`logistic_s8`] for long tensors: a 256-entry table of
/// [`scalar::logistic_one`] (`crate::arch::lut`), any length.
pub(crate) fn logistic_s8_table(params: &LogisticParams, input: &[i8], output: &mut [i8]) {
    crate::arch::lut::map(|x| scalar::logistic_one(params, x), input, output)
}

/// [`logistic_s8_table`] in place.
pub(crate) fn logistic_s8_table_in_place(params: &LogisticParams, data: &mut [i8]) {
    crate::arch::lut::map_in_place(|x| scalar::logistic_one(params, x), data)
}

/// int8 LOGISTIC parameters (TFLite Micro `CalculateArithmeticOpDataLogistic`). TFLite
/// Micro requires the output zero point to be -128 (and the converter makes the scale
/// 1/256); `None` otherwise.
pub fn prepare_logistic_s8(input_scale: f32, input_zero_point: i32, output_zero_point: i32) -> Option<LogisticParams> {
    if output_zero_point != -128 {
        return None;
    }
    let (input_multiplier, input_left_shift, input_range_radius) = crate::prepare::logistic_tanh_input_s8(input_scale);
    Some(LogisticParams { input_zero_point, input_range_radius, input_multiplier, input_left_shift })
}
