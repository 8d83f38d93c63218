//! FULLY_CONNECTED, int8 activations and weights, optional int32 bias.
//!
//! Bit-exact with TFLite Micro's int8 paths: `reference_integer_ops::FullyConnected`
//! (per-tensor weights: one multiplier, `weights_offset = -filter_zero_point`) and
//! `FullyConnectedPerChannel` (per-channel weights, which TFLite Micro supports for int8;
//! it ignores the filter zero point). Both are this kernel: per-channel is
//! `filter_offset = 0` with one multiplier per unit. `keep_num_dims` only affects shapes.

pub mod fast;
pub mod scalar;
#[cfg(test)]
mod tests;

/// Everything FULLY_CONNECTED needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug)]
pub struct FullyConnectedParams<'a> {
    /// Rows of the input (`output` flat size / `output_depth`).
    pub batches: usize,
    /// Input depth: the weights' last dimension (`accum_depth`).
    pub input_depth: usize,
    /// Units: the output's last dimension.
    pub output_depth: usize,
    /// `-input_zero_point`.
    pub input_offset: i32,
    /// `-filter_zero_point` for per-tensor weights (0 in practice: TFLite requires
    /// symmetric int8 weights); must be 0 for per-channel weights.
    pub filter_offset: i32,
    /// `output_zero_point`.
    pub output_offset: i32,
    /// Length 1 (per-tensor: [`crate::prepare::fully_connected_tensor_multiplier`]) or
    /// `output_depth` (per-channel: [`crate::prepare::conv_channel_multiplier`]).
    pub output_multiplier: &'a [i32],
    /// Shifts matching `output_multiplier` (positive = left).
    pub output_shift: &'a [i32],
    /// Fused-activation clamp, within `-128..=127`.
    pub output_activation_min: i32,
    pub output_activation_max: i32,
    /// Empty, or per unit `bias[u] + input_offset * sum(filter[u])` (wrapping,
    /// [`crate::prepare::fold_input_offset`]), only with `filter_offset == 0`. When
    /// present the kernel takes the fast path ([`fast`]).
    pub folded_bias: &'a [i32],
}

/// FULLY_CONNECTED int8: `input` is `[batches, input_depth]`, `filter` is
/// `[output_depth, input_depth]` (row-major), optional `bias` has `output_depth` entries,
/// `output` is `[batches, output_depth]`.
pub fn fully_connected_s8(
    params: &FullyConnectedParams,
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    output: &mut [i8],
) {
    debug_assert_eq!(input.len(), params.batches * params.input_depth);
    debug_assert!(filter.len() >= params.output_depth * params.input_depth);
    debug_assert_eq!(output.len(), params.batches * params.output_depth);
    if fast::applies(params) {
        fast::fully_connected_s8(params, input, filter, output)
    } else {
        scalar::fully_connected_s8(params, input, filter, bias, output)
    }
}

/// FULLY_CONNECTED 16x8: int16 activations, int8 weights, int64 bias (TFLite's
/// `reference_integer_ops::FullyConnected` / `FullyConnectedPerChannel` with a 64-bit
/// accumulator and the 64-bit `MultiplyByQuantizedMultiplier`); the clamp is within
/// `-32768..=32767`. Shapes as [`fully_connected_s8`].
/// There is no fast path: `folded_bias` is ignored (the compiler leaves it empty).
pub fn fully_connected_s16(
    params: &FullyConnectedParams,
    input: &[i16],
    filter: &[i8],
    bias: Option<&[i64]>,
    output: &mut [i16],
) {
    debug_assert_eq!(input.len(), params.batches * params.input_depth);
    debug_assert!(filter.len() >= params.output_depth * params.input_depth);
    debug_assert_eq!(output.len(), params.batches * params.output_depth);
    scalar::fully_connected_s16(params, input, filter, bias, output)
}
