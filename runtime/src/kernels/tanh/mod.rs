//! TANH, int8 in and out (output scale 1/128, zero point 0).
//!
//! Bit-exact with TFLite Micro's `reference_integer_ops::Tanh` (int8): inputs beyond
//! `±input_range_radius` saturate, the rest are rescaled to Q4.27 and go through gemmlowp
//! `tanh`.
//!
//! float32: TFLite's `reference_ops::Tanh` (`std::tanh` per element), through
//! [`crate::math::tanhf`] (correctly rounded but for rare near-ties).

pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything TANH needs; computed by the compiler ([`prepare_tanh_s8`]).
#[derive(Clone, Copy, Debug)]
pub struct TanhParams {
    /// The input's zero point.
    pub input_zero_point: i32,
    /// Inputs further than this from the zero point saturate the output (to -1 or 1 in real terms).
    pub input_range_radius: i32,
    /// Fixed-point multiplier scaling `input - zero_point` into the fixed-point tanh's input.
    pub input_multiplier: i32,
    /// Left shift applied with `input_multiplier`.
    pub input_left_shift: i32,
}

/// TANH int8, element-wise.
pub fn tanh_s8(params: &TanhParams, input: &[i8], output: &mut [i8]) {
    debug_assert_eq!(input.len(), output.len());
    if crate::arch::lut::takes(input.len()) {
        return tanh_s8_table(params, input, output);
    }
    scalar::tanh_s8(params, input, output)
}

/// TANH float32, element-wise.
pub fn tanh_f32(input: &[f32], output: &mut [f32]) {
    crate::kernels::nd::map(input, output, crate::math::tanhf)
}

/// [`tanh_f32`] in place (`data` is both input and output).
pub fn tanh_f32_in_place(data: &mut [f32]) {
    crate::kernels::nd::map_in_place(data, crate::math::tanhf)
}

/// TANH int8 in place (`data` is both input and output).
pub fn tanh_s8_in_place(params: &TanhParams, data: &mut [i8]) {
    if crate::arch::lut::takes(data.len()) {
        return tanh_s8_table_in_place(params, data);
    }
    scalar::tanh_s8_in_place(params, data)
}

/// The host form of [`tanh_s8`] for long tensors: a 256-entry table of
/// [`scalar::tanh_one`] (`crate::arch::lut`), any length.
pub(crate) fn tanh_s8_table(params: &TanhParams, input: &[i8], output: &mut [i8]) {
    crate::arch::lut::map(|x| scalar::tanh_one(params, x), input, output)
}

/// [`tanh_s8_table`] in place.
pub(crate) fn tanh_s8_table_in_place(params: &TanhParams, data: &mut [i8]) {
    crate::arch::lut::map_in_place(|x| scalar::tanh_one(params, x), data)
}

/// int8 TANH parameters (TFLite Micro tanh.cc `CalculateArithmeticOpData`; the output is
/// implicitly scale 1/128, zero point 0).
#[cfg(feature = "prepare")]
pub fn prepare_tanh_s8(input_scale: f32, input_zero_point: i32) -> TanhParams {
    let (input_multiplier, input_left_shift, input_range_radius) = crate::prepare::logistic_tanh_input_s8(input_scale);
    TanhParams { input_zero_point, input_range_radius, input_multiplier, input_left_shift }
}

/// TANH int16 (16x8): TFLite `reference_integer_ops::Tanh` on int16 (`2 sigmoid(2x) - 1`
/// from `sigmoid_table_uint16`), with the scaling of
/// [`crate::kernels::logistic::prepare_lut_s16`] (`tanh: true`).
pub fn tanh_s16(params: &crate::kernels::logistic::LutS16Params, input: &[i16], output: &mut [i16]) {
    debug_assert_eq!(input.len(), output.len());
    for (y, &x) in output.iter_mut().zip(input) {
        *y = crate::kernels::unidirectional_sequence_lstm::tanh_s16(x, params.multiplier, params.shift);
    }
}

/// [`tanh_s16`] in place.
pub fn tanh_s16_in_place(params: &crate::kernels::logistic::LutS16Params, data: &mut [i16]) {
    for v in data {
        *v = crate::kernels::unidirectional_sequence_lstm::tanh_s16(*v, params.multiplier, params.shift);
    }
}
