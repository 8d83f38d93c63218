//! RESHAPE (also SQUEEZE / EXPAND_DIMS): the data is unchanged, so the compiler normally
//! aliases input and output. When it cannot (e.g. the input is a graph input that must
//! stay intact, or lifetimes forbid sharing), it emits this plain copy.

/// Copies `input` to `output` (same length).
#[inline]
pub fn reshape<T: Copy>(input: &[T], output: &mut [T]) {
    debug_assert_eq!(input.len(), output.len());
    output.copy_from_slice(input);
}

/// int8 RESHAPE copy.
#[inline]
pub fn reshape_s8(input: &[i8], output: &mut [i8]) {
    reshape(input, output)
}

#[cfg(test)]
mod tests {
    #[test]
    fn copies() {
        let mut out = [0i8; 3];
        super::reshape_s8(&[1, -2, 3], &mut out);
        assert_eq!(out, [1, -2, 3]);
    }
}
