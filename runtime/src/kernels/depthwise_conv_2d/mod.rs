//! DEPTHWISE_CONV_2D, int8 activations and weights, int32 bias, per-channel
//! requantization, with depth multiplier.
//!
//! Bit-exact with TFLite Micro's `reference_integer_ops::DepthwiseConvPerChannel` (int8).

pub mod fast;
pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything DEPTHWISE_CONV_2D needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug)]
pub struct DepthwiseConv2dParams<'a> {
    /// Input shape `[batches, height, width, input_depth]` (NHWC).
    pub input_shape: [usize; 4],
    /// Filter shape `[1, filter_height, filter_width, output_depth]` with
    /// `output_depth = input_depth * depth_multiplier`; output channel
    /// `ic * depth_multiplier + m` reads input channel `ic`.
    pub filter_shape: [usize; 4],
    /// Output shape `[batches, out_height, out_width, output_depth]`.
    pub output_shape: [usize; 4],
    pub depth_multiplier: usize,
    pub stride_height: usize,
    pub stride_width: usize,
    pub dilation_height: usize,
    pub dilation_width: usize,
    /// Padding before the first row / column (TFLite `padding_values.height/width`).
    pub pad_top: usize,
    pub pad_left: usize,
    /// `-input_zero_point`.
    pub input_offset: i32,
    /// `output_zero_point`.
    pub output_offset: i32,
    /// Per-output-channel multipliers ([`crate::prepare::conv_channel_multiplier`]),
    /// length `output_depth`, or length 1 for one multiplier on every channel.
    pub output_multiplier: &'a [i32],
    /// Shifts matching `output_multiplier` (positive = left).
    pub output_shift: &'a [i32],
    /// Fused-activation clamp, within `-128..=127`.
    pub output_activation_min: i32,
    pub output_activation_max: i32,
    /// Empty, or per output channel `bias[c] + input_offset * sum over the window of
    /// filter[.., c]` (wrapping, [`crate::prepare::fold_input_offset`]). When present (and
    /// `depth_multiplier` is at most 64) the kernel takes the fast path ([`fast`]): windows
    /// fully inside the input start from it; border windows stay exact either way.
    pub folded_bias: &'a [i32],
}

/// DEPTHWISE_CONV_2D int8. `input` NHWC, `filter` `[1, H, W, C*M]`, optional `bias` with
/// `output_depth` entries, `output` NHWC.
pub fn depthwise_conv_2d_s8(
    params: &DepthwiseConv2dParams,
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    output: &mut [i8],
) {
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert_eq!(filter.len(), params.filter_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), params.output_shape.iter().product::<usize>());
    if fast::applies(params) {
        fast::depthwise_conv_2d_s8(params, input, filter, bias, output)
    } else {
        scalar::depthwise_conv_2d_s8(params, input, filter, bias, output)
    }
}

/// DEPTHWISE_CONV_2D 16x8: int16 activations, int8 weights, int64 bias (TFLite's
/// `reference_integer_ops::DepthwiseConvPerChannel` for int16, 64-bit accumulator). Zero
/// points are 0, so the offsets are ignored; the clamp is within `-32768..=32767`.
/// There is no fast path: `folded_bias` is ignored (the compiler leaves it empty).
pub fn depthwise_conv_2d_s16(
    params: &DepthwiseConv2dParams,
    input: &[i16],
    filter: &[i8],
    bias: Option<&[i64]>,
    output: &mut [i16],
) {
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert_eq!(filter.len(), params.filter_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), params.output_shape.iter().product::<usize>());
    scalar::depthwise_conv_2d_s16(params, input, filter, bias, output)
}
