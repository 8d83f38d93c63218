//! PAD and PADV2, any element type. Mirrors TFLite Micro `pad.cc` +
//! `reference_ops::Pad`: elements outside the input get `pad_value`, which for int8 is
//! the output zero point (PAD) or the raw value of PADV2's `constant_values` tensor (not
//! requantized; TFLite requires it to share the output's quantization).

pub mod scalar;
#[cfg(test)]
mod tests;

/// Precomputed PAD / PADV2 parameters. `input_shape`, `output_shape` and `before` have
/// the same length (1..=8); `output_shape[d] = before[d] + input_shape[d] + after[d]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PadParams<'a, T> {
    /// The input's shape.
    pub input_shape: &'a [usize],
    /// The output's shape: `before[d] + input_shape[d] + after[d]` per dimension.
    pub output_shape: &'a [usize],
    /// Leading padding per dim.
    pub before: &'a [usize],
    /// The value written outside the input's box (PADV2's constant; the zero point for int8 PAD).
    pub pad_value: T,
}

/// Compile-time: the output shape for `paddings[d] = (before, after)`; `None` on negative
/// paddings, a length mismatch, or a rank above 8.
pub fn pad_output_shape(input_shape: &[usize], paddings: &[(i64, i64)], output_shape: &mut [usize]) -> Option<()> {
    if paddings.len() != input_shape.len() || output_shape.len() != input_shape.len() || input_shape.len() > 8 {
        return None;
    }
    for ((o, &i), &(b, a)) in output_shape.iter_mut().zip(input_shape).zip(paddings) {
        if b < 0 || a < 0 {
            return None;
        }
        *o = i.checked_add(b as usize)?.checked_add(a as usize)?;
    }
    Some(())
}

/// PAD of any `Copy` element.
#[inline]
pub fn pad<T: Copy>(params: &PadParams<T>, input: &[T], output: &mut [T]) {
    #[cfg(not(target_arch = "arm"))]
    collapsed(params, input, output);
    #[cfg(target_arch = "arm")]
    scalar::pad(params, input, output);
}

/// int8 PAD / PADV2.
#[inline]
pub fn pad_s8(params: &PadParams<i8>, input: &[i8], output: &mut [i8]) {
    pad(params, input, output)
}

/// [`scalar::pad`] with the trailing dimensions that are not padded merged into the one
/// before them, so that its walk copies and fills longer rows (an NHWC image padded in H
/// and W: rows of `W * C` instead of `C` elements). The output is the same: along a
/// dimension `d` with `input_shape[d] == output_shape[d]`, every output row of `d - 1` is
/// `output_shape[d]` consecutive elements, inside or outside the input's box as a whole,
/// so merging `d` into `d - 1` multiplies that dimension's sizes and its `before` by
/// `output_shape[d]`. Hosts only: the Cortex-M firmware keeps the scalar walk unchanged.
#[cfg(any(not(target_arch = "arm"), test))]
pub(crate) fn collapsed<T: Copy>(p: &PadParams<T>, input: &[T], output: &mut [T]) {
    use crate::kernels::nd::MAX_RANK;
    let mut rank = p.output_shape.len();
    if rank > MAX_RANK || p.input_shape.len() != rank || p.before.len() != rank {
        return scalar::pad(p, input, output);
    }
    let (mut i, mut o, mut b) = ([0usize; MAX_RANK], [0usize; MAX_RANK], [0usize; MAX_RANK]);
    i[..rank].copy_from_slice(p.input_shape);
    o[..rank].copy_from_slice(p.output_shape);
    b[..rank].copy_from_slice(p.before);
    while rank >= 2 && i[rank - 1] == o[rank - 1] {
        let n = o[rank - 1];
        i[rank - 2] *= n;
        o[rank - 2] *= n;
        b[rank - 2] *= n;
        rank -= 1;
    }
    let merged = PadParams { input_shape: &i[..rank], output_shape: &o[..rank], before: &b[..rank], pad_value: p.pad_value };
    scalar::pad(&merged, input, output)
}
