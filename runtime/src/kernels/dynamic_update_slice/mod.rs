//! DYNAMIC_UPDATE_SLICE, any element type (TFLite Micro: int8, int16, int32, float32;
//! int32 or int64 start indices, read at run time). Mirrors TFLite Micro
//! `dynamic_update_slice.cc`'s `EvalImpl`: when the update has the operand's size the
//! output is the update; otherwise the output is the operand with the update written at
//! the start indices, each clamped to `0..=dim - update_dim`
//! (`CalculateClampedStartIndices`).

/// DYNAMIC_UPDATE_SLICE parameters: the operand's (and output's) shape and the update's,
/// of one rank `0..=MAX_RANK`, each update dim at most the operand's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DynamicUpdateSliceParams<'a> {
    /// The operand's (and output's) shape.
    pub shape: &'a [usize],
    /// The update's shape, of the same rank, each dimension at most the operand's.
    pub update_shape: &'a [usize],
}

/// DYNAMIC_UPDATE_SLICE of any `Copy` element, start indices of `I` (`i32` or `i64`).
pub fn dynamic_update_slice<T: Copy, I: Copy + Into<i64>>(p: &DynamicUpdateSliceParams, operand: &[T], update: &[T], indices: &[I], output: &mut [T]) {
    use crate::kernels::nd::MAX_RANK;
    let rank = p.shape.len();
    debug_assert!(rank <= MAX_RANK && p.update_shape.len() == rank && indices.len() == rank);
    debug_assert_eq!(operand.len(), output.len());
    if operand.len() == update.len() {
        output.copy_from_slice(update);
        return;
    }
    output.copy_from_slice(operand);
    if update.is_empty() || rank == 0 {
        return;
    }
    let mut start = [0usize; MAX_RANK];
    let mut strides = [1usize; MAX_RANK];
    for d in (0..rank).rev() {
        let hi = (p.shape[d] - p.update_shape[d]) as i64;
        start[d] = indices[d].into().clamp(0, hi) as usize;
        if d + 1 < rank {
            strides[d] = strides[d + 1] * p.shape[d + 1];
        }
    }
    let inner = p.update_shape[rank - 1];
    let mut idx = [0usize; MAX_RANK];
    for row in update.chunks_exact(inner) {
        let o: usize = (0..rank).map(|d| (start[d] + idx[d]) * strides[d]).sum();
        output[o..o + inner].copy_from_slice(row);
        let mut d = rank - 1;
        while d > 0 {
            d -= 1;
            idx[d] += 1;
            if idx[d] < p.update_shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// int8 DYNAMIC_UPDATE_SLICE.
pub fn dynamic_update_slice_s8<I: Copy + Into<i64>>(p: &DynamicUpdateSliceParams, operand: &[i8], update: &[i8], indices: &[I], output: &mut [i8]) {
    dynamic_update_slice(p, operand, update, indices, output)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::test_util::{flat_index, multi_indices, Rng};
    use proptest::prelude::*;
    use std::vec::Vec;

    proptest! {
        /// Against the definition: output[i] is update[i - start] inside the clamped box,
        /// operand[i] outside.
        #[test]
        fn matches_the_definition(shape in proptest::collection::vec(1usize..5, 1..5), seed in any::<u64>()) {
            let mut r = Rng(seed);
            let update_shape: Vec<usize> = shape.iter().map(|&n| r.range(0, n as i64) as usize).collect();
            let indices: Vec<i64> = shape.iter().map(|&n| r.range(-2, n as i64 + 2)).collect();
            let n: usize = shape.iter().product();
            let operand: Vec<i16> = (0..n as i16).collect();
            let update: Vec<i16> = (0..update_shape.iter().product::<usize>() as i16).map(|v| -1 - v).collect();
            let mut out = std::vec![0i16; n];
            dynamic_update_slice(&DynamicUpdateSliceParams { shape: &shape, update_shape: &update_shape }, &operand, &update, &indices, &mut out);
            let start: Vec<usize> = (0..shape.len()).map(|d| indices[d].clamp(0, (shape[d] - update_shape[d]) as i64) as usize).collect();
            for (k, i) in multi_indices(&shape).into_iter().enumerate() {
                let inside = (0..shape.len()).all(|d| i[d] >= start[d] && i[d] < start[d] + update_shape[d]);
                let want = if update.len() == n {
                    update[k]
                } else if inside {
                    let u: Vec<usize> = (0..shape.len()).map(|d| i[d] - start[d]).collect();
                    update[flat_index(&update_shape, &u)]
                } else {
                    operand[k]
                };
                prop_assert_eq!(out[k], want, "at {:?}", i);
            }
        }
    }

    #[test]
    fn int32_indices_and_rank_zero() {
        let mut out = [0i8; 4];
        dynamic_update_slice_s8(&DynamicUpdateSliceParams { shape: &[4], update_shape: &[2] }, &[1, 2, 3, 4], &[9, 8], &[i32::MAX], &mut out);
        assert_eq!(out, [1, 2, 9, 8]);
        let mut out = [0f32; 1];
        dynamic_update_slice::<f32, i32>(&DynamicUpdateSliceParams { shape: &[], update_shape: &[] }, &[1.0], &[2.0], &[], &mut out);
        assert_eq!(out, [2.0]);
    }
}
