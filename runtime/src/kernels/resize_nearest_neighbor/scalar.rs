//! Scalar reference implementation of RESIZE_NEAREST_NEIGHBOR.

use super::ResizeNearestNeighborParams;

/// RESIZE_NEAREST_NEIGHBOR: each output pixel copies the input pixel at its precomputed row and column offsets.
pub fn resize_nearest_neighbor<T: Copy>(p: &ResizeNearestNeighborParams, input: &[T], output: &mut [T]) {
    let depth = p.depth;
    debug_assert_eq!(output.len(), p.batches * p.row_offsets.len() * p.col_offsets.len() * depth);
    if depth == 0 {
        return;
    }
    let mut out = output.chunks_exact_mut(depth);
    for b in 0..p.batches {
        let batch = &input[b * p.input_batch_stride..(b + 1) * p.input_batch_stride];
        for &ro in p.row_offsets {
            for &co in p.col_offsets {
                if let Some(px) = out.next() {
                    px.copy_from_slice(&batch[ro + co..ro + co + depth]);
                }
            }
        }
    }
}
