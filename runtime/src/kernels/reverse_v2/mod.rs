//! REVERSE_V2, any element type. Mirrors TFLite Micro `reverse.cc` /
//! `reference_ops::Reverse`: the axes (sorted, contiguous: TFLite Micro refuses others)
//! are walked backwards, so output element `i` reads input element `i` with the index
//! along every reversed axis mirrored. The compiler folds this into a strided copy with
//! negative strides ([`prepare_reverse_v2`]); the kernel walks it.

use crate::kernels::nd::{strided_copy, StridedCopyParams};
#[cfg(feature = "prepare")]
use crate::kernels::nd::{row_major_strides, GatherPlan, MAX_RANK};

#[cfg(test)]
mod tests;

/// REVERSE_V2 parameters: a strided copy.
pub type ReverseV2Params<'a> = StridedCopyParams<'a>;

/// Compile-time: the strided copy reversing `axes` (each `< rank`, any order, no repeats)
/// of `input_shape`. `None` for a repeated or out-of-range axis or a rank above
/// [`MAX_RANK`].
#[cfg(feature = "prepare")]
pub fn prepare_reverse_v2(input_shape: &[usize], axes: &[usize]) -> Option<GatherPlan> {
    let rank = input_shape.len();
    if rank > MAX_RANK {
        return None;
    }
    let mut reversed = [false; MAX_RANK];
    for &a in axes {
        if a >= rank || reversed[a] {
            return None;
        }
        reversed[a] = true;
    }
    if rank == 0 {
        return GatherPlan::simplified(0, &[(1, 1)]);
    }
    let strides = row_major_strides(input_shape);
    let mut dims = [(0usize, 0isize); MAX_RANK];
    let mut base = 0usize;
    for d in 0..rank {
        let (n, s) = (input_shape[d], isize::try_from(strides[d]).ok()?);
        if reversed[d] && n > 0 {
            base += (n - 1) * strides[d];
            dims[d] = (n, -s);
        } else {
            dims[d] = (n, s);
        }
    }
    if input_shape.contains(&0) {
        base = 0;
    }
    GatherPlan::simplified(base, &dims[..rank])
}

/// REVERSE_V2 of any `Copy` element.
#[inline]
pub fn reverse_v2<T: Copy>(params: &ReverseV2Params, input: &[T], output: &mut [T]) {
    strided_copy(params, input, output)
}

/// int8 REVERSE_V2.
#[inline]
pub fn reverse_v2_s8(params: &ReverseV2Params, input: &[i8], output: &mut [i8]) {
    strided_copy(params, input, output)
}
