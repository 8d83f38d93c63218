//! TRANSPOSE_CONV: int8 (int8 activations and weights, int32 bias), 16x8 (int16
//! activations, int8 weights, int64 bias) and float32, per-channel requantization.
//!
//! Bit-exact with TFLite Micro's `transpose_conv.cc`, which runs
//! `reference_integer_ops::TransposeConv` (int8, and int16 with an int64 accumulator) and
//! `reference_ops::TransposeConv` (float32). Those scatter every input element into an
//! output-sized scratch buffer of accumulators, then add the bias and requantize. Here each
//! output is gathered instead, which needs no scratch: the integer sums are the same
//! (wrapping two's-complement addition does not depend on the order), and the float sum
//! adds the same products in the same order (the scatter reaches output `(oy, ox, oc)` in
//! input order `(iy, ix, ic)`, which is the gather's loop order), starting from `0.0`.
//!
//! The output's requantization and clamp are CONV_2D's ([`Numerics::requantize`]), so the
//! loop nest is written once for every numerics, as the convolution family's are.

pub mod scalar;
#[cfg(test)]
mod tests;

use crate::kernels::numerics::{Clamp, Numerics, F32, S16, S8};
pub use crate::kernels::window::ConvGeometry;

/// Everything TRANSPOSE_CONV needs besides the tensors; computed by the compiler.
///
/// `geometry` uses CONV_2D's struct with TRANSPOSE_CONV's meaning: `input_shape` NHWC,
/// `filter_shape` `[output_depth, filter_height, filter_width, input_depth]` (OHWI),
/// `output_shape` NHWC, the strides, the dilations 1 (TRANSPOSE_CONV has none), and the
/// padding TFLite computes from the *output* size (`ComputePaddingHeightWidth` with the
/// output's height and width as its input size).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TransposeConvParams<'a, N: Numerics> {
    /// Kernel, stride, padding and tensor sizes (padding from the output size).
    pub geometry: ConvGeometry,
    /// The numerics' per-channel requantization, offsets and clamp (`N::Quant`).
    pub quant: N::Quant<'a>,
    /// Fused-activation clamp.
    pub clamp: Clamp<N::Act>,
}

/// The reference TRANSPOSE_CONV for any numerics: `input` NHWC, `filter` OHWI, `bias`
/// (optional) one per output channel, `output` NHWC.
pub fn transpose_conv<N: Numerics>(params: &TransposeConvParams<N>, input: &[N::Act], filter: &[N::Weight], bias: Option<&[N::Bias]>, output: &mut [N::Act]) {
    let g = &params.geometry;
    debug_assert_eq!(input.len(), g.input_shape.iter().product::<usize>());
    debug_assert_eq!(filter.len(), g.filter_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), g.output_shape.iter().product::<usize>());
    debug_assert!(bias.is_none_or(|b| b.len() == g.filter_shape[0]));
    scalar::transpose_conv(params, input, filter, bias, output)
}

/// TRANSPOSE_CONV int8 ([`transpose_conv`]).
pub fn transpose_conv_s8(params: &TransposeConvParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    transpose_conv(params, input, filter, bias, output)
}

/// TRANSPOSE_CONV 16x8 ([`transpose_conv`]; zero points are 0). An int16 bias is widened
/// to int64 by the compiler, as TFLite Micro widens it per call.
pub fn transpose_conv_s16(params: &TransposeConvParams<S16>, input: &[i16], filter: &[i8], bias: Option<&[i64]>, output: &mut [i16]) {
    transpose_conv(params, input, filter, bias, output)
}

/// TRANSPOSE_CONV float32 ([`transpose_conv`]): `reference_ops::TransposeConv`'s order of
/// additions, so the same bits.
pub fn transpose_conv_f32(params: &TransposeConvParams<F32>, input: &[f32], filter: &[f32], bias: Option<&[f32]>, output: &mut [f32]) {
    transpose_conv(params, input, filter, bias, output)
}
