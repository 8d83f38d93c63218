//! TRANSPOSE, any element type, rank <= 8 (TFLite Micro allows 6). Mirrors
//! `reference_ops::Transpose`: `output[i_0..i_n] = input[i_perm^-1...]`, i.e. output
//! dim `d` walks input dim `perm[d]`. The compiler folds the permutation into a strided
//! copy ([`prepare_transpose`]); the kernel just walks it.

use crate::kernels::nd::{strided_copy, StridedCopyParams};
#[cfg(feature = "prepare")]
use crate::kernels::nd::{row_major_strides, GatherPlan, MAX_RANK};

#[cfg(test)]
mod tests;

/// TRANSPOSE parameters: a strided copy with `base = 0`.
pub type TransposeParams<'a> = StridedCopyParams<'a>;

/// Compile-time: the strided copy for `perm` applied to `input_shape`. `None` if `perm`
/// is not a permutation of `0..rank` or the rank exceeds the maximum.
#[cfg(feature = "prepare")]
pub fn prepare_transpose(input_shape: &[usize], perm: &[usize]) -> Option<GatherPlan> {
    let rank = input_shape.len();
    if perm.len() != rank || rank > MAX_RANK {
        return None;
    }
    let mut seen = [false; MAX_RANK];
    for &p in perm {
        if p >= rank || seen[p] {
            return None;
        }
        seen[p] = true;
    }
    let in_strides = row_major_strides(input_shape);
    let mut dims = [(0usize, 0isize); MAX_RANK];
    for (d, &p) in perm.iter().enumerate() {
        dims[d] = (input_shape[p], in_strides[p] as isize);
    }
    if rank == 0 {
        return GatherPlan::simplified(0, &[(1, 1)]);
    }
    GatherPlan::simplified(0, &dims[..rank])
}

/// TRANSPOSE of any `Copy` element.
#[inline]
pub fn transpose<T: Copy>(params: &TransposeParams, input: &[T], output: &mut [T]) {
    strided_copy(params, input, output)
}

/// int8 TRANSPOSE.
#[inline]
pub fn transpose_s8(params: &TransposeParams, input: &[i8], output: &mut [i8]) {
    strided_copy(params, input, output)
}
