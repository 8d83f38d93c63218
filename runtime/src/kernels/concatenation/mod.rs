//! CONCATENATION, any element type. Mirrors TFLite Micro `concatenation.cc` +
//! `reference_ops::Concatenation`: TFLM requires every int8 input to have the output's
//! scale and zero point (it fails to prepare otherwise), so it is a pure copy: for each
//! of the `outer` rows (product of the dims before `axis`), the inputs' rows are laid
//! side by side. One input at a time ([`concatenation_one`]) or all ([`concatenation`]).

pub mod scalar;
#[cfg(test)]
mod tests;

/// Precomputed CONCATENATION (and PACK) geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConcatenationParams<'a> {
    /// Product of the output dims before `axis`.
    pub outer: usize,
    /// Elements per outer row of the output (`output.shape[axis] * inner`).
    pub output_row: usize,
    /// Per input: where its row starts inside each output row.
    pub offsets: &'a [usize],
    /// Per input: its row length (`input.shape[axis] * inner`); input `k` has
    /// `outer * lens[k]` elements.
    pub lens: &'a [usize],
}

/// Compile-time: fills `offsets`/`lens` (one entry per input) and returns
/// `(outer, output_row)` for concatenating `input_shapes` along `axis` (resolved,
/// 0-based). `None` if ranks or the non-axis dims disagree.
#[cfg(feature = "prepare")]
pub fn prepare_concatenation(
    input_shapes: &[&[usize]],
    axis: usize,
    offsets: &mut [usize],
    lens: &mut [usize],
) -> Option<(usize, usize)> {
    let first = input_shapes.first()?;
    if axis >= first.len() || offsets.len() != input_shapes.len() || lens.len() != input_shapes.len() {
        return None;
    }
    let outer: usize = first[..axis].iter().product();
    let inner: usize = first[axis + 1..].iter().product();
    let mut row = 0usize;
    for (k, s) in input_shapes.iter().enumerate() {
        if s.len() != first.len() || s[..axis] != first[..axis] || s[axis + 1..] != first[axis + 1..] {
            return None;
        }
        offsets[k] = row;
        lens[k] = s[axis] * inner;
        row += lens[k];
    }
    Some((outer, row))
}

/// Copies input `index` into its place in `output`.
#[inline]
pub fn concatenation_one<T: Copy>(params: &ConcatenationParams, index: usize, input: &[T], output: &mut [T]) {
    scalar::concatenation_one(params, index, input, output)
}

/// Concatenates all inputs (`inputs[k]` is input `k`).
#[inline]
pub fn concatenation<T: Copy>(params: &ConcatenationParams, inputs: &[&[T]], output: &mut [T]) {
    debug_assert_eq!(inputs.len(), params.offsets.len());
    for (k, input) in inputs.iter().enumerate() {
        scalar::concatenation_one(params, k, input, output)
    }
}

/// int8 CONCATENATION of all inputs.
#[inline]
pub fn concatenation_s8(params: &ConcatenationParams, inputs: &[&[i8]], output: &mut [i8]) {
    concatenation(params, inputs, output)
}
