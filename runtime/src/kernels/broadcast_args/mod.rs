//! BROADCAST_ARGS (int32 or int64 shape tensors). Mirrors `reference_ops::BroadcastArgs`:
//! right-aligned, a missing dimension counts as 1; a 1 takes the other side's dimension;
//! otherwise the two must be equal. TFLite Micro aborts (`TFLITE_CHECK_EQ`) on unequal
//! dimensions; the compiler refuses them for constant shapes (which it folds), and for
//! shapes computed at run time this kernel writes 0 there.

/// BROADCAST_ARGS: `output[i]` from the right-aligned `shape1` and `shape2`.
pub fn broadcast_args<T: Copy + PartialEq + From<i8>>(shape1: &[T], shape2: &[T], output: &mut [T]) {
    let n = output.len();
    let one = T::from(1);
    let at = |s: &[T], back: usize| if back < s.len() { s[s.len() - 1 - back] } else { one };
    for back in 0..n {
        let (a, b) = (at(shape1, back), at(shape2, back));
        output[n - 1 - back] = if a == one {
            b
        } else if b == one || a == b {
            a
        } else {
            T::from(0)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn right_aligned_with_ones() {
        let mut out = [0i32; 4];
        broadcast_args(&[2, 1, 3], &[5, 1, 4, 1], &mut out);
        assert_eq!(out, [5, 2, 4, 3]);
        let mut out = [0i64; 2];
        broadcast_args(&[], &[7, 1], &mut out);
        assert_eq!(out, [7, 1]);
        let mut out = [9i32; 1];
        broadcast_args(&[2], &[3], &mut out);
        assert_eq!(out, [0]);
    }
}
