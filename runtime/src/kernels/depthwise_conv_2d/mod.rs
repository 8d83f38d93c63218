//! DEPTHWISE_CONV_2D: int8 (int32 bias) and 16x8 (int16 activations, int64 bias), int8
//! weights, per-channel requantization, with depth multiplier.
//!
//! Bit-exact with TFLite Micro's `reference_integer_ops::DepthwiseConvPerChannel` (int8,
//! and int16 with a 64-bit accumulator).
//!
//! Variants ([`DepthwiseConv2dVariant`], chosen by the compiler per op): `Reference`
//! ([`depthwise_conv_2d_s8`], [`depthwise_conv_2d_s16`], one generic loop nest
//! [`depthwise_conv_2d`]) and `Window` ([`depthwise_conv_2d_s8_window`], int8, depth
//! multiplier up to 64, with the folded bias of [`DepthwiseConv2dVariant::pack`]) and `Mult1`
//! ([`depthwise_conv_2d_s8_mult1`], int8, depth multiplier 1 and a depth that is a multiple
//! of 4, four channels in registers over the whole window, the same folded bias).

pub mod fast;
pub mod scalar;
#[cfg(test)]
mod tests;

use crate::kernels::numerics::{Clamp, Numerics, F32, S16, S8, U8};
pub use crate::kernels::window::ConvGeometry;

/// Everything DEPTHWISE_CONV_2D needs besides the tensors; computed by the compiler. The
/// filter shape is `[1, H, W, C*M]`; the depth multiplier `M` is `output_depth /
/// input_depth`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthwiseConv2dParams<'a, N: Numerics> {
    pub geometry: ConvGeometry,
    pub quant: N::Quant<'a>,
    /// Fused-activation clamp.
    pub clamp: Clamp<N::Act>,
}

impl<N: Numerics> DepthwiseConv2dParams<'_, N> {
    /// Output channels per input channel.
    #[inline(always)]
    pub fn depth_multiplier(&self) -> usize {
        self.geometry.output_shape[3].checked_div(self.geometry.input_shape[3]).unwrap_or(0)
    }
}

/// The reference DEPTHWISE_CONV_2D for any numerics: `input` NHWC, `filter` `[1, H, W,
/// C*M]`, optional `bias` with `output_depth` entries, `output` NHWC.
pub fn depthwise_conv_2d<N: Numerics>(
    params: &DepthwiseConv2dParams<N>,
    input: &[N::Act],
    filter: &[N::Weight],
    bias: Option<&[N::Bias]>,
    output: &mut [N::Act],
) {
    let g = &params.geometry;
    debug_assert_eq!(input.len(), g.input_shape.iter().product::<usize>());
    debug_assert_eq!(filter.len(), g.filter_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), g.output_shape.iter().product::<usize>());
    scalar::depthwise_conv_2d(params, input, filter, bias, output)
}

/// DEPTHWISE_CONV_2D int8, reference variant.
pub fn depthwise_conv_2d_s8(params: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    depthwise_conv_2d(params, input, filter, bias, output)
}

/// DEPTHWISE_CONV_2D 16x8, reference variant (zero points are 0).
pub fn depthwise_conv_2d_s16(params: &DepthwiseConv2dParams<S16>, input: &[i16], filter: &[i8], bias: Option<&[i64]>, output: &mut [i16]) {
    depthwise_conv_2d(params, input, filter, bias, output)
}

/// DEPTHWISE_CONV_2D float32, reference variant: TFLite's `reference_ops::DepthwiseConv`
/// accumulation order (each channel over the window, rows then columns), so the same bits.
pub fn depthwise_conv_2d_f32(params: &DepthwiseConv2dParams<F32>, input: &[f32], filter: &[f32], bias: Option<&[f32]>, output: &mut [f32]) {
    depthwise_conv_2d(params, input, filter, bias, output)
}

/// DEPTHWISE_CONV_2D legacy uint8, reference variant ([`U8`]: TFLite's uint8
/// `reference_ops::DepthwiseConv`, whose reference rounding is `MultiplyByQuantizedMultiplier`).
pub fn depthwise_conv_2d_u8(params: &DepthwiseConv2dParams<U8>, input: &[u8], filter: &[u8], bias: Option<&[i32]>, output: &mut [u8]) {
    depthwise_conv_2d(params, input, filter, bias, output)
}

/// DEPTHWISE_CONV_2D int8, [`DepthwiseConv2dVariant::Window`]: interior windows start from
/// `packed` ([`DepthwiseConv2dVariant::pack`]), border windows from `bias`.
pub fn depthwise_conv_2d_s8_window(
    params: &DepthwiseConv2dParams<S8>,
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    packed: &[i32],
    output: &mut [i8],
) {
    debug_assert_eq!(DepthwiseConv2dVariant::select(&params.geometry), DepthwiseConv2dVariant::Window);
    fast::depthwise_window::<crate::isa::Dot>(params, input, filter, bias, packed, output)
}

/// DEPTHWISE_CONV_2D int8, [`DepthwiseConv2dVariant::Mult1`]: depth multiplier 1, depth a
/// multiple of 4; the filter is in `packed` ([`DepthwiseConv2dVariant::pack`]), interior
/// windows start from the folded bias there, border windows from `bias`.
pub fn depthwise_conv_2d_s8_mult1(
    params: &DepthwiseConv2dParams<S8>,
    input: &[i8],
    bias: Option<&[i32]>,
    packed: &[i32],
    output: &mut [i8],
) {
    debug_assert_eq!(DepthwiseConv2dVariant::select(&params.geometry), DepthwiseConv2dVariant::Mult1);
    fast::depthwise_mult1::<crate::isa::Dot>(params, input, bias, packed, output)
}

/// The implementations of int8 DEPTHWISE_CONV_2D (16x8 has only the reference).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthwiseConv2dVariant {
    /// [`depthwise_conv_2d_s8`]: any geometry.
    Reference,
    /// [`depthwise_conv_2d_s8_window`]: depth multiplier `1..=64`, a non-empty window.
    Window,
    /// [`depthwise_conv_2d_s8_mult1`]: depth multiplier 1, depth a multiple of 4, a
    /// non-empty window.
    Mult1,
}

impl DepthwiseConv2dVariant {
    /// The fastest variant for an int8 depthwise convolution of this geometry.
    pub fn select(g: &ConvGeometry) -> DepthwiseConv2dVariant {
        let [_, f_h, f_w, out_d] = g.filter_shape;
        let in_d = g.input_shape[3];
        let mult = out_d.checked_div(in_d).unwrap_or(0);
        if mult == 1 && in_d == out_d && out_d % fast::LANES == 0 && f_h * f_w > 0 {
            DepthwiseConv2dVariant::Mult1
        } else if (1..=fast::CHANNEL_BLOCK).contains(&mult) && in_d * mult == out_d && f_h * f_w > 0 {
            DepthwiseConv2dVariant::Window
        } else {
            DepthwiseConv2dVariant::Reference
        }
    }

    /// The length of [`DepthwiseConv2dVariant::pack`]'s table (0: none).
    pub fn packed_len(self, g: &ConvGeometry) -> usize {
        match self {
            DepthwiseConv2dVariant::Reference => 0,
            DepthwiseConv2dVariant::Window => g.filter_shape[3],
            DepthwiseConv2dVariant::Mult1 => g.filter_shape[3] + g.filter_shape.iter().product::<usize>() / fast::LANES,
        }
    }

    /// The compile-time packing of this variant: the filter as in the model, and per
    /// output channel `bias[c] + input_offset * sum over the window of filter[.., c]`
    /// (wrapping, [`crate::prepare::fold_input_offset`]). `Mult1` then appends the filter
    /// regrouped: for each group of four channels `4j..4j + 4`, for each tap `t` (row-major),
    /// the word of `filter[t * depth + 4j..][..4]` (little endian), so that one load feeds
    /// the four lanes and a group's taps are contiguous.
    pub fn pack(self, p: &DepthwiseConv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
        let out_d = p.geometry.filter_shape[3];
        debug_assert_eq!(packed.len(), self.packed_len(&p.geometry));
        let (folded, words) = packed.split_at_mut(out_d.min(packed.len()));
        for (c, v) in folded.iter_mut().enumerate() {
            let taps = filter.iter().skip(c).step_by(out_d.max(1)).copied();
            *v = crate::prepare::fold_input_offset(taps, bias.map_or(0, |b| b[c]), p.quant.input_offset);
        }
        if self == DepthwiseConv2dVariant::Mult1 {
            let taps = p.geometry.filter_shape[1] * p.geometry.filter_shape[2];
            for (j, group) in words.chunks_exact_mut(taps.max(1)).enumerate() {
                for (t, v) in group.iter_mut().enumerate() {
                    let w = &filter[t * out_d + j * fast::LANES..][..fast::LANES];
                    *v = i32::from_le_bytes([w[0] as u8, w[1] as u8, w[2] as u8, w[3] as u8]);
                }
            }
        }
    }
}
