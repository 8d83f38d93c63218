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
#[cfg(feature = "prepare")]
pub fn prepare_logistic_s8(input_scale: f32, input_zero_point: i32, output_zero_point: i32) -> Option<LogisticParams> {
    if output_zero_point != -128 {
        return None;
    }
    let (input_multiplier, input_left_shift, input_range_radius) = crate::prepare::logistic_tanh_input_s8(input_scale);
    Some(LogisticParams { input_zero_point, input_range_radius, input_multiplier, input_left_shift })
}

/// The input scaling of TFLite's int16 LUT LOGISTIC and TANH (16x8: zero points 0, output
/// scale 2^-15): `input = (x * multiplier + round) >> shift`
/// ([`crate::kernels::unidirectional_sequence_lstm::lut_input_scaling`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LutS16Params {
    /// The input multiplier (below 2^16).
    pub multiplier: i32,
    /// The right shift after it.
    pub shift: i32,
}

/// TFLite `CheckedLog2` in `f32`: the rounded base-2 logarithm of `x` and whether `x` is
/// within 1e-3 of that power of two in the exponent.
#[cfg(feature = "prepare")]
fn checked_log2(x: f32) -> (i32, bool) {
    let x_log2 = crate::math::logf(x) * (1.0f32 / crate::math::logf(2.0));
    let rounded = crate::quant::round_f32(x_log2);
    (rounded as i32, (x_log2 - rounded).abs() < 1e-3)
}

/// TFLite Micro's int16 Prepare of LOGISTIC (`CalculateArithmeticOpDataLogistic`) and TANH
/// (`CalculateArithmeticOpData`): a power-of-two input scale `2^(k - 12)` with `k == 0` (TANH:
/// also 1) takes the multiplier `3 << k`; any other scale `multiplier = scale * 4096 * 3`
/// doubled up to 31 times while at most 32767 / 2, the shift counting the doublings. `None`
/// where TFLite Micro fails (output scale not 2^-15) or its arithmetic would overflow.
#[cfg(feature = "prepare")]
pub fn prepare_lut_s16(input_scale: f32, output_scale: f32, tanh: bool) -> Option<LutS16Params> {
    let (in_log2, in_pot) = checked_log2(input_scale);
    let mut left_shift = 12 + in_log2;
    let pot = in_pot && (left_shift == 0 || (tanh && left_shift == 1));
    let multiplier = if pot {
        0
    } else {
        let mut m = input_scale as f64 * 4096.0 * 3.0;
        left_shift = 0;
        while m <= 32767.0 / 2.0 && left_shift <= 30 {
            left_shift += 1;
            m *= 2.0;
        }
        m as i32
    };
    if multiplier > 32767 {
        return None;
    }
    let (out_log2, out_pot) = checked_log2(output_scale);
    if !out_pot || out_log2 != -15 {
        return None;
    }
    let (multiplier, shift) = crate::kernels::unidirectional_sequence_lstm::lut_input_scaling(multiplier, left_shift)?;
    Some(LutS16Params { multiplier, shift })
}

/// LOGISTIC int16 (16x8): TFLite `reference_integer_ops::Logistic` on int16, the sigmoid in
/// Q0.15 interpolated in `sigmoid_table_uint16`.
pub fn logistic_s16(params: &LutS16Params, input: &[i16], output: &mut [i16]) {
    debug_assert_eq!(input.len(), output.len());
    for (y, &x) in output.iter_mut().zip(input) {
        *y = crate::kernels::unidirectional_sequence_lstm::sigmoid_s16(x, params.multiplier, params.shift);
    }
}

/// [`logistic_s16`] in place.
pub fn logistic_s16_in_place(params: &LutS16Params, data: &mut [i16]) {
    for v in data {
        *v = crate::kernels::unidirectional_sequence_lstm::sigmoid_s16(*v, params.multiplier, params.shift);
    }
}
