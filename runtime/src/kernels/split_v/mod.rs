//! SPLIT_V, any element type: SPLIT with explicit sizes (one may be -1, "the rest").
//! Mirrors TFLite Micro `split_v.cc`. Each output is one [`SplitParams`] strided copy
//! built with [`crate::kernels::split::prepare_split_output`].

pub use crate::kernels::split::{split, split_all, split_s8, SplitParams};
#[cfg(feature = "prepare")]
pub use crate::kernels::split::prepare_split_output;

/// Compile-time: resolve `size_splits` (at most one `-1`) against the axis size into
/// `sizes` (same length). `None` if invalid (more than one -1, negative sizes, or sizes
/// that do not add up).
pub fn split_v_sizes(axis_dim: usize, size_splits: &[i64], sizes: &mut [usize]) -> Option<()> {
    if sizes.len() != size_splits.len() {
        return None;
    }
    let mut minus_one = None;
    let mut sum: i64 = 0;
    for (i, &s) in size_splits.iter().enumerate() {
        if s == -1 {
            if minus_one.is_some() {
                return None;
            }
            minus_one = Some(i);
        } else if s < 0 {
            return None;
        } else {
            sum = sum.checked_add(s)?;
        }
    }
    for (d, &s) in sizes.iter_mut().zip(size_splits) {
        *d = if s == -1 { 0 } else { s as usize };
    }
    let dim = axis_dim as i64;
    match minus_one {
        Some(i) if sum <= dim => sizes[i] = (dim - sum) as usize,
        None if sum == dim => {}
        _ => return None,
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        let mut s = [0usize; 3];
        assert_eq!(split_v_sizes(10, &[2, -1, 3], &mut s), Some(()));
        assert_eq!(s, [2, 5, 3]);
        assert_eq!(split_v_sizes(10, &[2, 8, 0], &mut s), Some(()));
        assert_eq!(split_v_sizes(10, &[2, 7, 0], &mut s), None);
        assert_eq!(split_v_sizes(10, &[-1, -1, 0], &mut s), None);
        assert_eq!(split_v_sizes(10, &[11, -1, 0], &mut s), None);
    }
}
