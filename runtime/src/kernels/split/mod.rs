//! SPLIT (and the shared machinery of SPLIT_V and UNPACK), any element type. Each output
//! is a contiguous range `[start, start + len)` of the input along `axis`, which is a
//! strided copy (`reference_ops::Split` semantics in TFLite Micro `split.cc`). The API
//! works one output at a time ([`split`]) or on all outputs ([`split_all`]); the scalar
//! implementation is [`crate::kernels::nd::strided_copy`].

use crate::kernels::nd::{strided_copy, StridedCopyParams};
#[cfg(feature = "prepare")]
use crate::kernels::nd::{GatherPlan, MAX_RANK};

#[cfg(test)]
mod tests;

/// Parameters of ONE output of SPLIT / SPLIT_V / UNPACK: a strided copy.
pub type SplitParams<'a> = StridedCopyParams<'a>;

/// Compile-time: TFLite's negative-axis convention (`axis < 0` counts from the end).
pub fn resolve_axis(axis: i64, rank: usize) -> Option<usize> {
    let a = if axis < 0 { axis + rank as i64 } else { axis };
    if a < 0 || a as usize >= rank.max(1) {
        return None;
    }
    Some(a as usize)
}

/// Compile-time: SPLIT's equal part size, `None` unless `num_splits` divides the axis.
pub fn split_size(axis_dim: usize, num_splits: usize) -> Option<usize> {
    if num_splits == 0 || !axis_dim.is_multiple_of(num_splits) {
        return None;
    }
    Some(axis_dim / num_splits)
}

/// Compile-time: the strided copy producing the output that holds
/// `input[.., start..start + len, ..]` along `axis` (0-based, already resolved).
#[cfg(feature = "prepare")]
pub fn prepare_split_output(input_shape: &[usize], axis: usize, start: usize, len: usize) -> Option<GatherPlan> {
    if axis >= input_shape.len() || input_shape.len() > MAX_RANK || start.checked_add(len)? > input_shape[axis] {
        return None;
    }
    let outer: usize = input_shape[..axis].iter().product();
    let inner: usize = input_shape[axis + 1..].iter().product();
    let axis_dim = input_shape[axis];
    GatherPlan::simplified(start * inner, &[(outer, (axis_dim * inner) as isize), (len * inner, 1)])
}

/// Writes one output of a SPLIT / SPLIT_V / UNPACK.
#[inline]
pub fn split<T: Copy>(params: &SplitParams, input: &[T], output: &mut [T]) {
    strided_copy(params, input, output)
}

/// int8 form of [`split`].
#[inline]
pub fn split_s8(params: &SplitParams, input: &[i8], output: &mut [i8]) {
    strided_copy(params, input, output)
}

/// Writes all outputs: `outputs[k]` from `params[k]`.
#[inline]
pub fn split_all<T: Copy>(params: &[SplitParams], input: &[T], outputs: &mut [&mut [T]]) {
    debug_assert_eq!(params.len(), outputs.len());
    for (p, out) in params.iter().zip(outputs.iter_mut()) {
        strided_copy(p, input, out)
    }
}
