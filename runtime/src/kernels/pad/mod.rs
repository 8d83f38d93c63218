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
    scalar::pad(params, input, output)
}

/// int8 PAD / PADV2.
#[inline]
pub fn pad_s8(params: &PadParams<i8>, input: &[i8], output: &mut [i8]) {
    scalar::pad(params, input, output)
}
