//! Scalar reference implementation of int8 SUB.

use super::SubParams;
use crate::kernels::add::scalar::add_sub_one;
use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place};

/// int8 SUB with broadcasting: `output = input1 - input2` in the output's quantization (ADD's arithmetic with the second operand negated).
pub fn sub_s8(p: &SubParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    debug_assert!(p.activation_min <= p.activation_max);
    broadcast_binary(&p.broadcast, input1, input2, output, |x, y| add_sub_one::<true>(p, x, y));
}

/// [`sub_s8`] writing into the first operand, which has the output's shape.
pub fn sub_s8_in_place(p: &SubParams, inout: &mut [i8], input2: &[i8]) {
    debug_assert!(p.activation_min <= p.activation_max);
    broadcast_binary_in_place(&p.broadcast, inout, input2, |x, y| add_sub_one::<true>(p, x, y));
}
