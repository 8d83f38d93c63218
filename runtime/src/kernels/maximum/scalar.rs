//! Scalar reference implementation (`std::max` semantics: `(a < b) ? b : a`).
use super::*;

pub fn maximum<T: Copy + PartialOrd>(p: &MaximumParams, input1: &[T], input2: &[T], output: &mut [T]) {
    broadcast_binary(&p.broadcast, input1, input2, output, |a, b| if a < b { b } else { a });
}
