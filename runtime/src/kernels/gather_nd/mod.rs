//! GATHER_ND, any element type (TFLite Micro: int8 and float32, int32 indices). Mirrors
//! TFLite Micro `gather_nd.cc`'s `GatherNd`: slice `i` of the output is the `slice_size`
//! elements of the params starting at `sum_j indices[i * nd + j] * strides[j]`. As in
//! TFLite Micro only the flat start is bounds-checked (an index past its own dimension
//! that stays inside the tensor reads the next row); a slice out of bounds makes TFLite
//! Micro fail the invocation, here that slice is written as zeros.

/// GATHER_ND parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatherNdParams<'a> {
    /// Number of index tuples (product of all index dims but the last).
    pub slices: usize,
    /// Elements per slice (product of the params dims after the first `nd`).
    pub slice_size: usize,
    /// TFLite Micro's `dims_to_count`: the params' row-major strides of the first `nd`
    /// dims (`nd = strides.len()`, at most 5).
    pub strides: &'a [usize],
    /// Params elements.
    pub params_len: usize,
}

/// GATHER_ND of any `Copy` element.
pub fn gather_nd<T: Copy + Default>(p: &GatherNdParams, params: &[T], indices: &[i32], output: &mut [T]) {
    let nd = p.strides.len();
    debug_assert_eq!(params.len(), p.params_len);
    debug_assert_eq!(indices.len(), p.slices * nd);
    debug_assert_eq!(output.len(), p.slices * p.slice_size);
    let n = p.slice_size;
    for i in 0..p.slices {
        let from: i64 = (0..nd).map(|j| i64::from(indices[i * nd + j]) * p.strides[j] as i64).sum();
        let out = &mut output[i * n..(i + 1) * n];
        match usize::try_from(from).ok().filter(|&f| f + n <= p.params_len) {
            Some(f) => out.copy_from_slice(&params[f..f + n]),
            None => out.fill(T::default()),
        }
    }
}

/// int8 GATHER_ND.
pub fn gather_nd_s8(p: &GatherNdParams, params: &[i8], indices: &[i32], output: &mut [i8]) {
    gather_nd(p, params, indices, output)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::test_util::tag;
    use std::vec::Vec;

    /// Against the definition on a [3, 4, 2] tensor: full tuples, row tuples, the flat-only
    /// bounds check, an out-of-bounds slice.
    #[test]
    fn matches_the_definition() {
        let params: Vec<i8> = (0..24).map(tag).collect();
        // nd = 2: slices of 2.
        let p = GatherNdParams { slices: 4, slice_size: 2, strides: &[8, 2], params_len: 24 };
        let mut out = [0x55i8; 8];
        gather_nd(&p, &params, &[2, 3, 0, 0, 0, 5, 3, 0], &mut out);
        assert_eq!(out, [tag(22), tag(23), tag(0), tag(1), tag(10), tag(11), 0, 0]);
        // nd = 3: single elements.
        let p = GatherNdParams { slices: 2, slice_size: 1, strides: &[8, 2, 1], params_len: 24 };
        let mut out = [0i8; 2];
        gather_nd_s8(&p, &params, &[1, 2, 1, -1, 0, 0], &mut out);
        assert_eq!(out, [tag(13), 0]);
        // nd = 1 on an empty slice list.
        let p = GatherNdParams { slices: 0, slice_size: 8, strides: &[8], params_len: 24 };
        gather_nd(&p, &params, &[], &mut []);
    }
}
