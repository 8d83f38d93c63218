//! Scalar reference implementation of CONCATENATION / PACK.

use super::ConcatenationParams;

/// Copies input number `index` into its place in `output`: each of the outer blocks of `input` lands after the blocks of the inputs before it.
pub fn concatenation_one<T: Copy>(p: &ConcatenationParams, index: usize, input: &[T], output: &mut [T]) {
    let (offset, len) = (p.offsets[index], p.lens[index]);
    debug_assert_eq!(input.len(), p.outer * len);
    debug_assert_eq!(output.len(), p.outer * p.output_row);
    if len == 0 {
        return;
    }
    for (o, src) in input.chunks_exact(len).enumerate() {
        let start = o * p.output_row + offset;
        output[start..start + len].copy_from_slice(src);
    }
}
