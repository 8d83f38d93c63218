//! PACK, any element type: stacks `values_count` same-shape inputs along a new `axis`.
//! Mirrors TFLite Micro `pack.cc`; it is CONCATENATION with every input contributing
//! `inner = product(input.shape[axis..])` elements per outer row.

use crate::kernels::concatenation::ConcatenationParams;
pub use crate::kernels::concatenation::{concatenation as pack, concatenation_one as pack_one, concatenation_s8 as pack_s8};

/// PACK parameters: CONCATENATION's, with `offsets[k] = k * inner`, `lens[k] = inner`.
pub type PackParams<'a> = ConcatenationParams<'a>;

/// Compile-time: `(outer, output_row, inner)` for packing inputs of `input_shape` along
/// the new output axis `axis` (0..=rank); fill `offsets[k] = k * inner`, `lens[k] = inner`.
pub fn prepare_pack(input_shape: &[usize], axis: usize, values_count: usize) -> Option<(usize, usize, usize)> {
    if axis > input_shape.len() {
        return None;
    }
    let outer: usize = input_shape[..axis].iter().product();
    let inner: usize = input_shape[axis..].iter().product();
    Some((outer, values_count.checked_mul(inner)?, inner))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_axis1() {
        // three [2] vectors packed on axis 1 -> [2, 3]
        let (outer, row, inner) = prepare_pack(&[2], 1, 3).unwrap();
        assert_eq!((outer, row, inner), (2, 3, 1));
        let p = PackParams { outer, output_row: row, offsets: &[0, 1, 2], lens: &[1, 1, 1] };
        let mut out = [0u8; 6];
        pack(&p, &[&[1, 2], &[3, 4], &[5, 6]], &mut out);
        assert_eq!(out, [1, 3, 5, 2, 4, 6]);
        // axis 0 -> [3, 2]
        let (outer, row, inner) = prepare_pack(&[2], 0, 3).unwrap();
        let p = PackParams { outer, output_row: row, offsets: &[0, 2, 4], lens: &[inner; 3] };
        pack(&p, &[&[1, 2], &[3, 4], &[5, 6]], &mut out);
        assert_eq!(out, [1, 2, 3, 4, 5, 6]);
    }
}
