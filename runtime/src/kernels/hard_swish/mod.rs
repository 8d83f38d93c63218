//! HARD_SWISH, int8 in and out.
//!
//! Bit-exact with TFLite Micro's int8 HARD_SWISH, reference
//! `reference_ops::HardSwish<int8_t>(HardSwishParams, ...)`: int16 fixed point with a
//! "relu-ish" multiplier in [0, 1] and an output multiplier.
//!
//! float32: TFLite's `reference_ops::HardSwish<float>`, bit for bit:
//! `x * std::min(6, std::max(0, x + 3)) / 6`, each step rounded in `f32` (no fused
//! multiply-add), with `std::min`/`std::max`'s NaN behaviour.

pub mod scalar;
#[cfg(test)]
mod tests;

/// TFLite `HardSwishParams`; computed by the compiler ([`prepare_hard_swish_s8`]).
#[derive(Clone, Copy, Debug)]
pub struct HardSwishParams {
    /// The input's zero point.
    pub input_zero_point: i16,
    /// The output's zero point.
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
    if crate::arch::lut::takes(input.len()) {
        return hard_swish_s8_table(params, input, output);
    }
    scalar::hard_swish_s8(params, input, output)
}

/// HARD_SWISH float32, element-wise.
pub fn hard_swish_f32(input: &[f32], output: &mut [f32]) {
    crate::kernels::nd::map(input, output, scalar::hard_swish_one_f32)
}

/// [`hard_swish_f32`] in place (`data` is both input and output).
pub fn hard_swish_f32_in_place(data: &mut [f32]) {
    crate::kernels::nd::map_in_place(data, scalar::hard_swish_one_f32)
}

/// HARD_SWISH int8 in place (`data` is both input and output).
pub fn hard_swish_s8_in_place(params: &HardSwishParams, data: &mut [i8]) {
    if crate::arch::lut::takes(data.len()) {
        return hard_swish_s8_table_in_place(params, data);
    }
    scalar::hard_swish_s8_in_place(params, data)
}

/// The host form of [`hard_swish_s8`] for long tensors: a 256-entry table of
/// [`scalar::hard_swish_one`] (`crate::arch::lut`), any length.
pub(crate) fn hard_swish_s8_table(params: &HardSwishParams, input: &[i8], output: &mut [i8]) {
    crate::arch::lut::map(|x| scalar::hard_swish_one(params, x), input, output)
}

/// [`hard_swish_s8_table`] in place.
pub(crate) fn hard_swish_s8_table_in_place(params: &HardSwishParams, data: &mut [i8]) {
    crate::arch::lut::map_in_place(|x| scalar::hard_swish_one(params, x), data)
}

/// int8 HARD_SWISH parameters: TFLite Micro `HardSwishPrepare` (hard_swish_common.cc).
/// `None` where it fails (output multiplier exponent > 0) or a zero point is not int8.
#[cfg(feature = "prepare")]
pub fn prepare_hard_swish_s8(input_scale: f32, input_zero_point: i32, output_scale: f32, output_zero_point: i32) -> Option<HardSwishParams> {
    let hires_input_scale = (1.0f32 / 128.0f32) * input_scale;
    let reluish_scale = 3.0f32 / 32768.0f32;
    let output_multiplier = (hires_input_scale / output_scale) as f64;
    let (output_fixedpoint_int32, output_multiplier_exponent) = crate::prepare::quantize_multiplier(output_multiplier)?;
    if output_multiplier_exponent > 0 || output_fixedpoint_int32 < 0 {
        return None;
    }
    let reluish_multiplier = (hires_input_scale / reluish_scale) as f64;
    let (reluish_fixedpoint_int32, reluish_multiplier_exponent) = crate::prepare::quantize_multiplier(reluish_multiplier)?;
    if reluish_fixedpoint_int32 < 0 || !(-31..=31).contains(&reluish_multiplier_exponent) {
        return None;
    }
    Some(HardSwishParams {
        input_zero_point: i8::try_from(input_zero_point).ok()? as i16,
        output_zero_point: i8::try_from(output_zero_point).ok()? as i16,
        reluish_multiplier_fixedpoint_int16: crate::prepare::downscale_int32_to_int16_multiplier(reluish_fixedpoint_int32),
        reluish_multiplier_exponent,
        output_multiplier_fixedpoint_int16: crate::prepare::downscale_int32_to_int16_multiplier(output_fixedpoint_int32),
        output_multiplier_exponent,
    })
}
