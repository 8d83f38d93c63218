//! Scalar reference implementation (`std::min` semantics: `(b < a) ? b : a`).
use super::*;

/// Elementwise minimum with broadcasting (the second operand wins only when strictly smaller).
pub fn minimum<T: Copy + PartialOrd>(p: &MinimumParams, input1: &[T], input2: &[T], output: &mut [T]) {
    broadcast_binary(&p.broadcast, input1, input2, output, |a, b| if b < a { b } else { a });
}

/// [`minimum`] writing into the first operand, which has the output's shape.
pub fn minimum_in_place<T: Copy + PartialOrd>(p: &MinimumParams, inout: &mut [T], input2: &[T]) {
    broadcast_binary_in_place(&p.broadcast, inout, input2, |a, b| if b < a { b } else { a });
}
