//! Scalar reference implementation of int8 SUB.

use super::SubParams;
use crate::kernels::add::scalar::add_sub_one;
use crate::kernels::nd::broadcast_binary;

pub fn sub_s8(p: &SubParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    debug_assert!(p.activation_min <= p.activation_max);
    broadcast_binary(&p.broadcast, input1, input2, output, |x, y| add_sub_one::<true>(p, x, y));
}
