//! ZEROS_LIKE, any element type (TFLite Micro: int8, int32, int64, float32). Mirrors
//! TFLite Micro `zeros_like.cc`: every output element is `static_cast<T>(0)` (raw zero,
//! whatever the quantization). The input's values are not read.

/// ZEROS_LIKE of a numeric element: `T::default()` is its zero.
#[inline]
pub fn zeros_like<T: Copy + Default>(output: &mut [T]) {
    output.fill(T::default());
}

/// int8 ZEROS_LIKE.
#[inline]
pub fn zeros_like_s8(output: &mut [i8]) {
    zeros_like(output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_element_is_zero() {
        for n in 0..40 {
            let mut out = std::vec![-7i8; n];
            zeros_like_s8(&mut out);
            assert!(out.iter().all(|&x| x == 0));
        }
        let mut out = [i64::MIN; 3];
        zeros_like(&mut out);
        assert_eq!(out, [0; 3]);
        let mut out = [f32::NAN; 2];
        zeros_like(&mut out);
        assert_eq!(out.map(f32::to_bits), [0; 2]);
    }
}
