//! MINIMUM with broadcasting. Mirrors TFLite Micro `maximum_minimum.cc` /
//! `reference/maximum_minimum.h`: a plain elementwise min of the raw values (TFLite
//! requires both inputs and the output to share one quantization, so int8 needs no
//! rescaling). Generic over the element type.

use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place, Broadcast};

#[cfg(test)]
mod tests;

/// Precomputed parameters of MINIMUM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinimumParams<'a> {
    /// Output shape and input strides; see [`crate::kernels::nd::plan_broadcast`].
    pub broadcast: Broadcast<'a>,
}

/// Elementwise min with broadcasting, any ordered element type.
#[inline]
pub fn minimum<T: Copy + PartialOrd>(params: &MinimumParams, input1: &[T], input2: &[T], output: &mut [T]) {
    scalar::minimum(params, input1, input2, output)
}

/// MINIMUM with the output written over `input1` (which must have the output's shape).
#[inline]
pub fn minimum_in_place<T: Copy + PartialOrd>(params: &MinimumParams, input1_output: &mut [T], input2: &[T]) {
    scalar::minimum_in_place(params, input1_output, input2)
}

/// int8 MINIMUM.
#[inline]
pub fn minimum_s8(params: &MinimumParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    scalar::minimum(params, input1, input2, output)
}

pub mod scalar;
