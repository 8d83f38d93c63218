//! MIRROR_PAD, any element type (TFLite Micro: int8 and float32). Mirrors TFLite Micro
//! `mirror_pad.cc`: output element `i` reads the input at the flat index whose coordinate
//! along each dimension is [`mirror_index`] of the output's. The index map is separable,
//! so the compiler tabulates it per dimension (pre-multiplied by the input's strides) and
//! the kernel adds one table entry per dimension.

#[cfg(test)]
mod tests;

/// MIRROR_PAD parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MirrorPadParams<'a> {
    /// The output's shape, rank `1..=MAX_RANK`.
    pub out_shape: &'a [usize],
    /// Per dimension `d`, `out_shape[d]` input offsets (coordinate times the input's stride
    /// along `d`), concatenated, outermost dimension first.
    pub offsets: &'a [usize],
}

/// TFLite Micro's `GetInputDimension`: the input coordinate of output coordinate `padded`
/// along a dimension of `size` with `left` padding before it; `offset` is 1 for REFLECT
/// (the edge is not repeated) and 0 for SYMMETRIC. Compile-time helper; the caller checks
/// the paddings (`left`, `right` at most `size - offset`).
pub fn mirror_index(padded: usize, left: usize, size: usize, offset: usize) -> usize {
    if padded < left {
        let original = left + offset - 1;
        return original - padded.min(original - offset);
    }
    let p = padded - left;
    if p >= size {
        let p = p - size;
        let original = size - (1 + offset);
        return original - p.min(original);
    }
    p
}

/// MIRROR_PAD of any `Copy` element.
pub fn mirror_pad<T: Copy>(p: &MirrorPadParams, input: &[T], output: &mut [T]) {
    let rank = p.out_shape.len();
    debug_assert!((1..=crate::kernels::nd::MAX_RANK).contains(&rank));
    debug_assert_eq!(output.len(), p.out_shape.iter().product::<usize>());
    debug_assert_eq!(p.offsets.len(), p.out_shape.iter().sum::<usize>());
    if output.is_empty() {
        return;
    }
    // `starts[d]`: where dimension `d`'s table begins in `offsets`.
    let mut starts = [0usize; crate::kernels::nd::MAX_RANK];
    for d in 1..rank {
        starts[d] = starts[d - 1] + p.out_shape[d - 1];
    }
    let inner = p.out_shape[rank - 1];
    let last = &p.offsets[starts[rank - 1]..starts[rank - 1] + inner];
    let mut idx = [0usize; crate::kernels::nd::MAX_RANK];
    for row in output.chunks_exact_mut(inner) {
        let base: usize = (0..rank - 1).map(|d| p.offsets[starts[d] + idx[d]]).sum();
        for (o, &off) in row.iter_mut().zip(last) {
            *o = input[base + off];
        }
        let mut d = rank - 1;
        while d > 0 {
            d -= 1;
            idx[d] += 1;
            if idx[d] < p.out_shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// int8 MIRROR_PAD.
pub fn mirror_pad_s8(p: &MirrorPadParams, input: &[i8], output: &mut [i8]) {
    mirror_pad(p, input, output)
}
