//! SELECT_V2: `output[i] = condition[i] ? x[i] : y[i]` with three-way broadcasting (the
//! condition is bool, one byte per element). Mirrors TFLite Micro `select.cc`
//! (`reference_ops::Select` on equal shapes, `BroadcastSelect5DSlow` otherwise). The values
//! are copied raw: TFLite Micro ignores the quantization of int8/int16 operands.

use crate::kernels::nd::MAX_RANK;

/// The walk of SELECT_V2: the output shape and each operand's element strides over it (0
/// where the operand is broadcast). All four slices have the same length `1..=MAX_RANK`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelectParams<'a> {
    /// The output's shape.
    pub out_shape: &'a [usize],
    /// Per output dimension, the step in `condition` elements (0 where it broadcasts).
    pub condition_strides: &'a [usize],
    /// Per output dimension, the step in `x` elements (0 where it broadcasts).
    pub x_strides: &'a [usize],
    /// Per output dimension, the step in `y` elements (0 where it broadcasts).
    pub y_strides: &'a [usize],
}

impl SelectParams<'_> {
    /// Number of output elements (the product of `out_shape`).
    pub fn out_len(&self) -> usize {
        self.out_shape.iter().product()
    }
}

/// SELECT_V2 on elements of `T` (int8, int16, float32).
#[inline]
pub fn select<T: Copy>(
    params: &SelectParams,
    condition: &[u8],
    x: &[T],
    y: &[T],
    output: &mut [T],
) {
    scalar::select(params, condition, x, y, output)
}

pub mod scalar {
    //! Scalar reference implementation: an odometer over the output.
    use super::*;

    /// SELECT_V2: `output[i]` is `x`'s element where the condition byte is nonzero, else `y`'s, each operand broadcast by its strides.
    pub fn select<T: Copy>(p: &SelectParams, condition: &[u8], x: &[T], y: &[T], output: &mut [T]) {
        let rank = p.out_shape.len();
        debug_assert!((1..=MAX_RANK).contains(&rank));
        debug_assert_eq!(output.len(), p.out_len());
        if output.is_empty() {
            return;
        }
        let mut idx = [0usize; MAX_RANK];
        let (mut oc, mut ox, mut oy) = (0usize, 0usize, 0usize);
        for o in output.iter_mut() {
            *o = if condition[oc] != 0 { x[ox] } else { y[oy] };
            let mut d = rank;
            while d > 0 {
                d -= 1;
                idx[d] += 1;
                oc += p.condition_strides[d];
                ox += p.x_strides[d];
                oy += p.y_strides[d];
                if idx[d] < p.out_shape[d] {
                    break;
                }
                oc -= p.condition_strides[d] * p.out_shape[d];
                ox -= p.x_strides[d] * p.out_shape[d];
                oy -= p.y_strides[d] * p.out_shape[d];
                idx[d] = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::vec::Vec;

    /// Condition [2, 1], x [3], y scalar -> [2, 3].
    #[test]
    fn broadcast_three_ways() {
        let p = SelectParams {
            out_shape: &[2, 3],
            condition_strides: &[1, 0],
            x_strides: &[0, 1],
            y_strides: &[0, 0],
        };
        let mut out = [0i8; 6];
        select(&p, &[1, 0], &[1, 2, 3], &[-7], &mut out);
        assert_eq!(out, [1, 2, 3, -7, -7, -7]);
    }

    proptest! {
        /// Against the naive index computation for [2, 3, 4] with each operand broadcast on one axis.
        #[test]
        fn matches_naive(c in proptest::collection::vec(0u8..2, 2 * 4), x in proptest::collection::vec(any::<i16>(), 3 * 4), y in proptest::collection::vec(any::<i16>(), 2 * 3)) {
            // condition [2, 1, 4], x [3, 4], y [2, 3, 1].
            let p = SelectParams { out_shape: &[2, 3, 4], condition_strides: &[4, 0, 1], x_strides: &[0, 4, 1], y_strides: &[3, 1, 0] };
            let mut out = [0i16; 24];
            select(&p, &c, &x, &y, &mut out);
            let want: Vec<i16> = (0..24).map(|i| {
                let (a, b, d) = (i / 12, (i / 4) % 3, i % 4);
                if c[a * 4 + d] != 0 { x[b * 4 + d] } else { y[a * 3 + b] }
            }).collect();
            prop_assert_eq!(out.to_vec(), want);
        }
    }
}
