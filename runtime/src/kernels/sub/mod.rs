//! SUB, int8, with broadcasting. Mirrors TFLite Micro `sub.cc` / `sub_common.cc` and
//! `reference/sub.h` (`SubElementwise`, `BroadcastQuantSubSlow`): ADD's left-shift scheme
//! with a difference. Note `CalculateOpDataSub` computes its real multipliers in f32
//! (unlike ADD's f64), which [`prepare_sub`] reproduces.

#[cfg(feature = "prepare")]
use crate::kernels::nd::Broadcast;
#[cfg(feature = "prepare")]
use crate::prepare::{activation_range_s8, FusedActivation};
#[cfg(feature = "prepare")]
use crate::quant::QuantParams;

pub mod plain;
pub mod s16;
pub mod scalar;
#[cfg(test)]
mod tests;

/// SUB takes exactly ADD's parameters.
pub type SubParams<'a> = crate::kernels::add::AddParams<'a>;

/// `CalculateOpDataSub`'s multipliers for `left_shift` (20 for int8, 15 for int16): the
/// scale ratios in f32, then f64, with the output's activation range `(min, max)`. `None` when a
/// multiplier falls outside `(0, 1)` (TFLite would fail to prepare).
#[cfg(feature = "prepare")]
pub(crate) fn sub_params<'a>(
    left_shift: i32,
    (activation_min, activation_max): (i32, i32),
    input1: QuantParams,
    input2: QuantParams,
    output: QuantParams,
    broadcast: Broadcast<'a>,
) -> Option<SubParams<'a>> {
    let twice_max_input_scale: f32 = 2.0 * input1.scale.max(input2.scale);
    let real_input1_multiplier = (input1.scale / twice_max_input_scale) as f64;
    let real_input2_multiplier = (input2.scale / twice_max_input_scale) as f64;
    let real_output_multiplier = (twice_max_input_scale / ((1i32 << left_shift) as f32 * output.scale)) as f64;
    SubParams::from_real(left_shift, (activation_min, activation_max), [input1, input2, output], [real_input1_multiplier, real_input2_multiplier, real_output_multiplier], broadcast)
}

/// TFLite Micro `CalculateOpDataSub` for int8 (f32 multiplier math, then f64).
#[cfg(feature = "prepare")]
pub fn prepare_sub<'a>(
    input1: QuantParams,
    input2: QuantParams,
    output: QuantParams,
    activation: FusedActivation,
    broadcast: Broadcast<'a>,
) -> Option<SubParams<'a>> {
    let activation = activation_range_s8(activation, output.scale, output.zero_point)?;
    sub_params(20, activation, input1, input2, output, broadcast)
}

/// int8 SUB: `output = clamp(requant(input1) - requant(input2))`, broadcasting per
/// `params.broadcast`.
#[inline]
pub fn sub_s8(params: &SubParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    crate::isa::host_simd!(vnni sub_s8(params, input1, input2, output));
    scalar::sub_s8(params, input1, input2, output)
}

/// [`sub_s8`] with the output written over `input1` (which must have the output's shape).
#[inline]
pub fn sub_s8_in_place(params: &SubParams, input1_output: &mut [i8], input2: &[i8]) {
    crate::isa::host_simd!(vnni sub_s8_in_place(params, input1_output, input2));
    scalar::sub_s8_in_place(params, input1_output, input2)
}

/// float32 SUB (`params` from [`crate::kernels::nd::activation_range_f32`]).
#[inline]
pub fn sub_f32(params: &crate::kernels::nd::PlainBinaryParams<f32>, input1: &[f32], input2: &[f32], output: &mut [f32]) {
    plain::sub_f32(params, input1, input2, output)
}

/// [`sub_f32`] with the output written over `input1_output` (operand 1, which must have the
/// output's shape: `nd::is_dense(out_shape, in1_strides)`; operand 2 may broadcast).
#[inline]
pub fn sub_f32_in_place(params: &crate::kernels::nd::PlainBinaryParams<f32>, input1_output: &mut [f32], input2: &[f32]) {
    plain::sub_f32_in_place(params, input1_output, input2)
}

/// int32 SUB (`params` from [`crate::kernels::nd::activation_range_i32`]).
#[inline]
pub fn sub_i32(params: &crate::kernels::nd::PlainBinaryParams<i32>, input1: &[i32], input2: &[i32], output: &mut [i32]) {
    plain::sub_i32(params, input1, input2, output)
}

/// [`sub_i32`] with the output written over `input1_output` (operand 1, which must have the
/// output's shape: `nd::is_dense(out_shape, in1_strides)`; operand 2 may broadcast).
#[inline]
pub fn sub_i32_in_place(params: &crate::kernels::nd::PlainBinaryParams<i32>, input1_output: &mut [i32], input2: &[i32]) {
    plain::sub_i32_in_place(params, input1_output, input2)
}

pub use s16::{sub_s16, sub_s16_in_place};
#[cfg(feature = "prepare")]
pub use s16::prepare_sub_s16;
