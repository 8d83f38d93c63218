//! Scalar reference implementation of PAD: walks the output row by row (last dim);
//! rows inside the input's box get `before | input row | after`, the rest `pad_value`.
//! Input rows are consumed in order, so no input index arithmetic is needed.

use super::PadParams;
use crate::kernels::nd::MAX_RANK;

/// PAD / PADV2: `output` is `input` placed at offset `before` in a tensor filled with `pad_value`.
pub fn pad<T: Copy>(p: &PadParams<T>, input: &[T], output: &mut [T]) {
    let rank = p.output_shape.len();
    debug_assert!((1..=MAX_RANK).contains(&rank));
    debug_assert_eq!(p.input_shape.len(), rank);
    debug_assert_eq!(p.before.len(), rank);
    debug_assert_eq!(output.len(), p.output_shape.iter().product::<usize>());
    debug_assert_eq!(input.len(), p.input_shape.iter().product::<usize>());
    let out_inner = p.output_shape[rank - 1];
    let in_inner = p.input_shape[rank - 1];
    let b = p.before[rank - 1];
    if out_inner == 0 || output.is_empty() {
        return;
    }
    let mut idx = [0usize; MAX_RANK];
    let mut in_row = 0usize;
    for row in output.chunks_exact_mut(out_inner) {
        let inside = (0..rank - 1).all(|d| idx[d] >= p.before[d] && idx[d] < p.before[d] + p.input_shape[d]);
        if inside && in_inner > 0 {
            row[..b].fill(p.pad_value);
            row[b..b + in_inner].copy_from_slice(&input[in_row * in_inner..(in_row + 1) * in_inner]);
            row[b + in_inner..].fill(p.pad_value);
            in_row += 1;
        } else {
            row.fill(p.pad_value);
        }
        let mut d = rank - 1;
        while d > 0 {
            d -= 1;
            idx[d] += 1;
            if idx[d] < p.output_shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}
