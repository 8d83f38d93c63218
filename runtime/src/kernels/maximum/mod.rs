//! MAXIMUM with broadcasting. Mirrors TFLite Micro `maximum_minimum.cc` /
//! `reference/maximum_minimum.h`: a plain elementwise max of the raw values (TFLite
//! requires both inputs and the output to share one quantization, so int8 needs no
//! rescaling). Generic over the element type.

use crate::kernels::nd::{broadcast_binary, broadcast_binary_in_place, Broadcast};

#[cfg(test)]
mod tests;

/// Precomputed parameters of MAXIMUM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaximumParams<'a> {
    /// Output shape and input strides; see [`crate::kernels::nd::plan_broadcast`].
    pub broadcast: Broadcast<'a>,
}

/// Elementwise max with broadcasting, any ordered element type.
#[inline]
pub fn maximum<T: Copy + PartialOrd>(params: &MaximumParams, input1: &[T], input2: &[T], output: &mut [T]) {
    scalar::maximum(params, input1, input2, output)
}

/// MAXIMUM with the output written over `input1` (which must have the output's shape).
#[inline]
pub fn maximum_in_place<T: Copy + PartialOrd>(params: &MaximumParams, input1_output: &mut [T], input2: &[T]) {
    scalar::maximum_in_place(params, input1_output, input2)
}

/// int8 MAXIMUM.
#[inline]
pub fn maximum_s8(params: &MaximumParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    scalar::maximum(params, input1, input2, output)
}

pub mod scalar;
