//! FILL, any element type (TFLite Micro: int8, int32, float32). Mirrors
//! `reference_ops::Fill`: every output element is the scalar `value[0]`.

/// FILL of any `Copy` element: `value` holds the one scalar.
#[inline]
pub fn fill<T: Copy>(value: &[T], output: &mut [T]) {
    debug_assert_eq!(value.len(), 1);
    if let Some(&v) = value.first() {
        output.fill(v);
    }
}

/// int8 FILL.
#[inline]
pub fn fill_s8(value: &[i8], output: &mut [i8]) {
    fill(value, output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_element_is_the_value() {
        for n in 0..40 {
            let mut out = std::vec![0i8; n];
            fill_s8(&[-128], &mut out);
            assert!(out.iter().all(|&x| x == -128));
        }
        let mut out = [0f32; 3];
        fill(&[f32::NEG_INFINITY], &mut out);
        assert_eq!(out, [f32::NEG_INFINITY; 3]);
    }
}
