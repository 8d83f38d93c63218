//! MUL, int8, with broadcasting. Mirrors TFLite Micro `mul_common.cc` and
//! `reference/integer_ops/mul.h` (`MulElementwise`, `BroadcastMul6DSlow`).

use crate::kernels::nd::Broadcast;
#[cfg(feature = "prepare")]
use crate::prepare::{activation_range_s8, quantize_multiplier, FusedActivation};
#[cfg(feature = "prepare")]
use crate::quant::QuantParams;

pub mod plain;
pub mod s16;
pub mod scalar;
#[cfg(test)]
mod tests;

/// Precomputed parameters of an int8 MUL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MulParams<'a> {
    /// `-input1.zero_point`.
    pub input1_offset: i32,
    /// `-input2.zero_point`.
    pub input2_offset: i32,
    /// `output.zero_point`.
    pub output_offset: i32,
    /// `QuantizeMultiplier(s1 * s2 / so)`.
    pub output_multiplier: i32,
    /// Exponent of `output_multiplier` (positive: a left shift).
    pub output_shift: i32,
    /// Fused-activation clamp.
    pub activation_min: i32,
    /// Upper end of the fused-activation clamp, `>= activation_min`.
    pub activation_max: i32,
    /// Output shape and input strides; see [`crate::kernels::nd::plan_broadcast`].
    pub broadcast: Broadcast<'a>,
}

/// TFLite Micro `CalculateOpDataMul` for int8 (f64 math).
#[cfg(feature = "prepare")]
pub fn prepare_mul<'a>(
    input1: QuantParams,
    input2: QuantParams,
    output: QuantParams,
    activation: FusedActivation,
    broadcast: Broadcast<'a>,
) -> Option<MulParams<'a>> {
    let real_multiplier = input1.scale as f64 * input2.scale as f64 / output.scale as f64;
    let (output_multiplier, output_shift) = quantize_multiplier(real_multiplier)?;
    let (activation_min, activation_max) = activation_range_s8(activation, output.scale, output.zero_point)?;
    Some(MulParams {
        input1_offset: -input1.zero_point,
        input2_offset: -input2.zero_point,
        output_offset: output.zero_point,
        output_multiplier,
        output_shift,
        activation_min,
        activation_max,
        broadcast,
    })
}

/// int8 MUL with broadcasting.
#[inline]
pub fn mul_s8(params: &MulParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    crate::isa::host_simd!(vnni mul_s8(params, input1, input2, output));
    scalar::mul_s8(params, input1, input2, output)
}

/// [`mul_s8`] with the output written over `input1` (which must have the output's
/// shape). MUL is symmetric: swap operands to write over operand 2.
#[inline]
pub fn mul_s8_in_place(params: &MulParams, input1_output: &mut [i8], input2: &[i8]) {
    crate::isa::host_simd!(vnni mul_s8_in_place(params, input1_output, input2));
    scalar::mul_s8_in_place(params, input1_output, input2)
}

/// float32 MUL (`params` from [`crate::kernels::nd::activation_range_f32`]).
#[inline]
pub fn mul_f32(params: &crate::kernels::nd::PlainBinaryParams<f32>, input1: &[f32], input2: &[f32], output: &mut [f32]) {
    plain::mul_f32(params, input1, input2, output)
}

/// [`mul_f32`] with the output written over `input1_output` (operand 1, which must have the
/// output's shape: `nd::is_dense(out_shape, in1_strides)`; operand 2 may broadcast). MUL commutes exactly: swap operands (and strides) to write over operand 2.
#[inline]
pub fn mul_f32_in_place(params: &crate::kernels::nd::PlainBinaryParams<f32>, input1_output: &mut [f32], input2: &[f32]) {
    plain::mul_f32_in_place(params, input1_output, input2)
}

/// int32 MUL (`params` from [`crate::kernels::nd::activation_range_i32`]).
#[inline]
pub fn mul_i32(params: &crate::kernels::nd::PlainBinaryParams<i32>, input1: &[i32], input2: &[i32], output: &mut [i32]) {
    plain::mul_i32(params, input1, input2, output)
}

/// [`mul_i32`] with the output written over `input1_output` (operand 1, which must have the
/// output's shape: `nd::is_dense(out_shape, in1_strides)`; operand 2 may broadcast). MUL commutes exactly: swap operands (and strides) to write over operand 2.
#[inline]
pub fn mul_i32_in_place(params: &crate::kernels::nd::PlainBinaryParams<i32>, input1_output: &mut [i32], input2: &[i32]) {
    plain::mul_i32_in_place(params, input1_output, input2)
}

pub use s16::{mul_s16, mul_s16_in_place};
#[cfg(feature = "prepare")]
pub use s16::prepare_mul_s16;
