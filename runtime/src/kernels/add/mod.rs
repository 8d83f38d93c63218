//! ADD, int8, with broadcasting. Mirrors TFLite Micro `add.cc` / `add_common.cc` and
//! `reference/integer_ops/add.h` (`AddFunc`): both inputs are shifted left by
//! `left_shift` (20), rescaled to a common scale, summed, rescaled to the output, offset
//! and clamped.

use crate::kernels::nd::Broadcast;
#[cfg(feature = "prepare")]
use crate::prepare::{activation_range_s8, quantize_multiplier_smaller_than_one_exp, FusedActivation};
#[cfg(feature = "prepare")]
use crate::quant::QuantParams;

// Selected on Arm and RV32; tested everywhere (portable Rust over `Dot`).
#[cfg(any(target_arch = "arm", target_arch = "riscv32", test))]
pub(crate) mod dense;
pub mod plain;
pub mod s16;
pub mod scalar;
#[cfg(test)]
mod tests;

/// Precomputed parameters of an int8 ADD or SUB (`ArithmeticParams` in TFLite).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddParams<'a> {
    /// `-input1.zero_point`.
    pub input1_offset: i32,
    /// `-input2.zero_point`.
    pub input2_offset: i32,
    /// `output.zero_point`.
    pub output_offset: i32,
    /// 20 for int8.
    pub left_shift: i32,
    /// Fixed-point multiplier of `input1_scale / (2 * max(input1_scale, input2_scale))`.
    pub input1_multiplier: i32,
    /// `<= 0` (a right shift).
    pub input1_shift: i32,
    /// Fixed-point multiplier of `input2_scale / (2 * max(input1_scale, input2_scale))`.
    pub input2_multiplier: i32,
    /// Exponent of `input2_multiplier`, `<= 0` (a right shift).
    pub input2_shift: i32,
    /// Fixed-point multiplier of `2 * max(input scales) / (2^left_shift * output_scale)`.
    pub output_multiplier: i32,
    /// Exponent of `output_multiplier`, `<= 0` (a right shift).
    pub output_shift: i32,
    /// Fused-activation clamp, within `-128..=127`.
    pub activation_min: i32,
    /// Upper end of the fused-activation clamp, `>= activation_min`.
    pub activation_max: i32,
    /// Output shape and input strides; see [`crate::kernels::nd::plan_broadcast`].
    pub broadcast: Broadcast<'a>,
}

/// `CalculateOpDataAdd`'s multipliers for `left_shift` (20 for int8, 15 for int16), in f64
/// from the f32 scales, with the output's activation range `(min, max)`. `None` when a
/// multiplier falls outside `(0, 1)` (TFLite would fail to prepare).
#[cfg(feature = "prepare")]
pub(crate) fn add_params<'a>(
    left_shift: i32,
    (activation_min, activation_max): (i32, i32),
    input1: QuantParams,
    input2: QuantParams,
    output: QuantParams,
    broadcast: Broadcast<'a>,
) -> Option<AddParams<'a>> {
    let twice_max_input_scale = 2.0 * (input1.scale.max(input2.scale) as f64);
    let real_input1_multiplier = input1.scale as f64 / twice_max_input_scale;
    let real_input2_multiplier = input2.scale as f64 / twice_max_input_scale;
    let real_output_multiplier = twice_max_input_scale / ((1i64 << left_shift) as f64 * output.scale as f64);
    AddParams::from_real(left_shift, (activation_min, activation_max), [input1, input2, output], [real_input1_multiplier, real_input2_multiplier, real_output_multiplier], broadcast)
}

impl<'a> AddParams<'a> {
    /// ADD's and SUB's parameters from their three real multipliers (input 1, input 2,
    /// output; each must quantize below one) and the zero points of `quant` (input 1, input
    /// 2, output). `None` when a multiplier falls outside `(0, 1)`.
    #[cfg(feature = "prepare")]
    pub(crate) fn from_real(
        left_shift: i32,
        (activation_min, activation_max): (i32, i32),
        [input1, input2, output]: [QuantParams; 3],
        reals: [f64; 3],
        broadcast: Broadcast<'a>,
    ) -> Option<AddParams<'a>> {
        let [(input1_multiplier, input1_shift), (input2_multiplier, input2_shift), (output_multiplier, output_shift)] =
            [quantize_multiplier_smaller_than_one_exp(reals[0])?, quantize_multiplier_smaller_than_one_exp(reals[1])?, quantize_multiplier_smaller_than_one_exp(reals[2])?];
        Some(AddParams {
            input1_offset: -input1.zero_point,
            input2_offset: -input2.zero_point,
            output_offset: output.zero_point,
            left_shift,
            input1_multiplier,
            input1_shift,
            input2_multiplier,
            input2_shift,
            output_multiplier,
            output_shift,
            activation_min,
            activation_max,
            broadcast,
        })
    }
}

/// TFLite Micro `CalculateOpDataAdd` for int8: the left_shift = 20 scheme, all
/// multiplier math in f64 from the f32 scales (exactly as `add_common.cc` does it).
/// `None` when a multiplier falls outside `(0, 1)` (TFLite would fail to prepare).
#[cfg(feature = "prepare")]
pub fn prepare_add<'a>(
    input1: QuantParams,
    input2: QuantParams,
    output: QuantParams,
    activation: FusedActivation,
    broadcast: Broadcast<'a>,
) -> Option<AddParams<'a>> {
    let activation = activation_range_s8(activation, output.scale, output.zero_point)?;
    add_params(20, activation, input1, input2, output, broadcast)
}

/// int8 ADD: `output = clamp(requant(input1) + requant(input2))`, broadcasting per
/// `params.broadcast`. `input1`/`input2` hold the operands' full (unbroadcast) data,
/// `output` has `params.broadcast.out_len()` elements.
#[inline(always)]
pub fn add_s8(params: &AddParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    crate::isa::host_simd!(vnni add_s8(params, input1, input2, output));
    // Arm and RV32: operands of the output's shape run the refolded kernel ([`dense`]),
    // inlined: `params` is a constant in generated code, so the check folds away at compile
    // time and its fields become immediates.
    #[cfg(any(target_arch = "arm", target_arch = "riscv32"))]
    if let Some(f) = dense::Folded::new(params) {
        return dense::add_s8::<crate::isa::Dot>(&f, input1, input2, output);
    }
    scalar::add_s8(params, input1, input2, output)
}

/// [`add_s8`] with the output written over `input1`, which must have the output's shape
/// (`nd::is_dense(out_shape, in1_strides)`). ADD is symmetric, so a compiler that wants
/// the output in operand 2's buffer swaps the operands (and their params).
#[inline(always)]
pub fn add_s8_in_place(params: &AddParams, input1_output: &mut [i8], input2: &[i8]) {
    crate::isa::host_simd!(vnni add_s8_in_place(params, input1_output, input2));
    #[cfg(any(target_arch = "arm", target_arch = "riscv32"))]
    if let Some(f) = dense::Folded::new(params) {
        return dense::add_s8_in_place::<crate::isa::Dot>(&f, input1_output, input2);
    }
    scalar::add_s8_in_place(params, input1_output, input2)
}

/// float32 ADD (`params` from [`crate::kernels::nd::activation_range_f32`]).
#[inline]
pub fn add_f32(params: &crate::kernels::nd::PlainBinaryParams<f32>, input1: &[f32], input2: &[f32], output: &mut [f32]) {
    plain::add_f32(params, input1, input2, output)
}

/// [`add_f32`] with the output written over `input1_output` (operand 1, which must have the
/// output's shape: `nd::is_dense(out_shape, in1_strides)`; operand 2 may broadcast). ADD commutes exactly: swap operands (and strides) to write over operand 2.
#[inline]
pub fn add_f32_in_place(params: &crate::kernels::nd::PlainBinaryParams<f32>, input1_output: &mut [f32], input2: &[f32]) {
    plain::add_f32_in_place(params, input1_output, input2)
}

/// int32 ADD (`params` from [`crate::kernels::nd::activation_range_i32`]; TFLite Micro ignores the fused activation of an int32 ADD, so use the full range).
#[inline]
pub fn add_i32(params: &crate::kernels::nd::PlainBinaryParams<i32>, input1: &[i32], input2: &[i32], output: &mut [i32]) {
    plain::add_i32(params, input1, input2, output)
}

/// [`add_i32`] with the output written over `input1_output` (operand 1, which must have the
/// output's shape: `nd::is_dense(out_shape, in1_strides)`; operand 2 may broadcast). ADD commutes exactly: swap operands (and strides) to write over operand 2.
#[inline]
pub fn add_i32_in_place(params: &crate::kernels::nd::PlainBinaryParams<i32>, input1_output: &mut [i32], input2: &[i32]) {
    plain::add_i32_in_place(params, input1_output, input2)
}

pub use s16::{add_s16, add_s16_in_place};
#[cfg(feature = "prepare")]
pub use s16::prepare_add_s16;
