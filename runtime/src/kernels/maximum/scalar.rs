//! Scalar reference implementation (`std::max` semantics: `(a < b) ? b : a`).
use super::*;

/// Elementwise maximum with broadcasting (the second operand wins only when strictly greater).
pub fn maximum<T: Copy + PartialOrd>(p: &MaximumParams, input1: &[T], input2: &[T], output: &mut [T]) {
    broadcast_binary(&p.broadcast, input1, input2, output, |a, b| if a < b { b } else { a });
}

/// [`maximum`] writing into the first operand, which has the output's shape.
pub fn maximum_in_place<T: Copy + PartialOrd>(p: &MaximumParams, inout: &mut [T], input2: &[T]) {
    broadcast_binary_in_place(&p.broadcast, inout, input2, |a, b| if a < b { b } else { a });
}
