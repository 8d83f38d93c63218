//! CONV_2D, int8 activations and weights, int32 bias, per-channel requantization.
//!
//! Bit-exact with TFLite Micro's `reference_integer_ops::ConvPerChannel` (int8), which
//! TFLite Micro uses for every int8 CONV_2D, per-tensor weights included (their scale is
//! broadcast to every output channel at prepare time).

pub mod fast;
pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything CONV_2D needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug)]
pub struct Conv2dParams<'a> {
    /// Input shape `[batches, height, width, depth]` (NHWC).
    pub input_shape: [usize; 4],
    /// Filter shape `[output_depth, filter_height, filter_width, filter_input_depth]`
    /// (OHWI). `input_depth` must be a multiple of `filter_input_depth` (grouped
    /// convolution, `groups = input_depth / filter_input_depth`, and `output_depth` a
    /// multiple of `groups`); usually they are equal.
    pub filter_shape: [usize; 4],
    /// Output shape `[batches, out_height, out_width, output_depth]`.
    pub output_shape: [usize; 4],
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
    /// Per-output-channel multipliers (`QuantizeMultiplier` of `in_scale * w_scale[c] /
    /// out_scale`, see [`crate::prepare::conv_channel_multiplier`]), length
    /// `output_depth`, or length 1 to apply one multiplier to every channel.
    pub output_multiplier: &'a [i32],
    /// Shifts matching `output_multiplier` (positive = left).
    pub output_shift: &'a [i32],
    /// Fused-activation clamp, within `-128..=127`
    /// ([`crate::prepare::activation_range_s8`]).
    pub output_activation_min: i32,
    pub output_activation_max: i32,
    /// Empty, or per output channel `bias[c] + input_offset * sum(filter[c])` (wrapping,
    /// [`crate::prepare::fold_input_offset`]; `bias[c]` is 0 without a bias). When present
    /// and the convolution is not grouped, windows fully inside the input take the fast
    /// path ([`fast`]); border windows stay exact either way.
    pub folded_bias: &'a [i32],
}

/// CONV_2D int8. `input` is NHWC, `filter` OHWI, `bias` (optional) has `output_depth`
/// entries, `output` is NHWC.
pub fn conv_2d_s8(params: &Conv2dParams, input: &[i8], filter: &[i8], bias: Option<&[i32]>, output: &mut [i8]) {
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert_eq!(filter.len(), params.filter_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), params.output_shape.iter().product::<usize>());
    if fast::applies(params) {
        fast::conv_2d_s8(params, input, filter, bias, output)
    } else {
        scalar::conv_2d_s8(params, input, filter, bias, output)
    }
}

/// CONV_2D 16x8: int16 activations, int8 weights, int64 bias (TFLite's
/// `reference_integer_ops::ConvPerChannel` for int16 with a 64-bit accumulator). Zero
/// points are 0 (TFLite requires it), so `input_offset` and `output_offset` are ignored;
/// the clamp is within `-32768..=32767`.
/// There is no fast path: `folded_bias` is ignored (the compiler leaves it empty).
pub fn conv_2d_s16(params: &Conv2dParams, input: &[i16], filter: &[i8], bias: Option<&[i64]>, output: &mut [i16]) {
    debug_assert_eq!(input.len(), params.input_shape.iter().product::<usize>());
    debug_assert_eq!(filter.len(), params.filter_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), params.output_shape.iter().product::<usize>());
    scalar::conv_2d_s16(params, input, filter, bias, output)
}
