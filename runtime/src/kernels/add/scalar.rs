//! Scalar reference implementation of int8 ADD.

use super::AddParams;
use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place};
use crate::quant::multiply_by_quantized_multiplier_smaller_than_one_exp as mbqm_lt1;

/// One element: TFLite `AddFunc` (and, with `SUB = true`, the int8 lambda of
/// `BroadcastQuantSubSlow` / `SubElementwise`).
#[inline(always)]
pub(crate) fn add_sub_one<const SUB: bool>(p: &AddParams, x: i8, y: i8) -> i8 {
    let input1_val = p.input1_offset + x as i32;
    let input2_val = p.input2_offset + y as i32;
    let shifted_input1_val = input1_val * (1 << p.left_shift);
    let shifted_input2_val = input2_val * (1 << p.left_shift);
    let scaled_input1_val = mbqm_lt1(shifted_input1_val, p.input1_multiplier, p.input1_shift);
    let scaled_input2_val = mbqm_lt1(shifted_input2_val, p.input2_multiplier, p.input2_shift);
    let raw = if SUB {
        scaled_input1_val.wrapping_sub(scaled_input2_val)
    } else {
        scaled_input1_val.wrapping_add(scaled_input2_val)
    };
    let raw_output = mbqm_lt1(raw, p.output_multiplier, p.output_shift).wrapping_add(p.output_offset);
    raw_output.max(p.activation_min).min(p.activation_max) as i8
}

/// int8 ADD (or SUB, through the same parameters) with broadcasting: `output = input1 + input2` in the output's quantization.
pub fn add_s8(p: &AddParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    debug_assert!(p.activation_min <= p.activation_max);
    broadcast_binary(&p.broadcast, input1, input2, output, |x, y| add_sub_one::<false>(p, x, y));
}

/// [`add_s8`] writing into the first operand, which has the output's shape (`input2` may broadcast).
pub fn add_s8_in_place(p: &AddParams, inout: &mut [i8], input2: &[i8]) {
    debug_assert!(p.activation_min <= p.activation_max);
    broadcast_binary_in_place(&p.broadcast, inout, input2, |x, y| add_sub_one::<false>(p, x, y));
}
