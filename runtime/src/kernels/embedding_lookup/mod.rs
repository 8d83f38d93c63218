//! EMBEDDING_LOOKUP, mirroring TFLite Micro `embedding_lookup.cc`: output row `i` is row
//! `lookup[i]` of the value table (flattened to `[rows, columns]`). `EvalSimple` copies
//! float32 or int8 rows as they are; `EvalHybrid` (int8 table, float32 output)
//! dequantizes them with the table's scale (zero point 0): `value * scale` in float. A
//! lookup outside `0..rows` makes TFLite Micro fail the invocation; here that row is
//! written as zeros.

/// EMBEDDING_LOOKUP parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EmbeddingLookupParams {
    /// Rows of the value table (its first dimension).
    pub rows: usize,
    /// Elements per row (the product of the other dimensions).
    pub columns: usize,
}

/// The row of `lookup[i]`, or `None` out of range.
#[inline]
fn row(p: &EmbeddingLookupParams, idx: i32) -> Option<usize> {
    usize::try_from(idx).ok().filter(|&r| r < p.rows).map(|r| r * p.columns)
}

/// EMBEDDING_LOOKUP copying rows (`EvalSimple`) of any `Copy` element.
pub fn embedding_lookup<T: Copy + Default>(p: &EmbeddingLookupParams, lookup: &[i32], value: &[T], output: &mut [T]) {
    let n = p.columns;
    debug_assert_eq!(value.len(), p.rows * n);
    debug_assert_eq!(output.len(), lookup.len() * n);
    for (i, &idx) in lookup.iter().enumerate() {
        let out = &mut output[i * n..(i + 1) * n];
        match row(p, idx) {
            Some(r) => out.copy_from_slice(&value[r..r + n]),
            None => out.fill(T::default()),
        }
    }
}

/// int8 EMBEDDING_LOOKUP (`EvalSimple`).
pub fn embedding_lookup_s8(p: &EmbeddingLookupParams, lookup: &[i32], value: &[i8], output: &mut [i8]) {
    embedding_lookup(p, lookup, value, output)
}

/// EMBEDDING_LOOKUP of an int8 table into float32 (`EvalHybrid`): TFLite Micro's
/// `Dequantize(values, n, scale, 0, out)`, `out = static_cast<float>(value - 0) * scale`.
pub fn embedding_lookup_hybrid(p: &EmbeddingLookupParams, scale: f32, lookup: &[i32], value: &[i8], output: &mut [f32]) {
    let n = p.columns;
    debug_assert_eq!(value.len(), p.rows * n);
    debug_assert_eq!(output.len(), lookup.len() * n);
    for (i, &idx) in lookup.iter().enumerate() {
        let out = &mut output[i * n..(i + 1) * n];
        match row(p, idx) {
            Some(r) => {
                for (o, &v) in out.iter_mut().zip(&value[r..r + n]) {
                    *o = f32::from(v) * scale;
                }
            }
            None => out.fill(0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_in_lookup_order() {
        let p = EmbeddingLookupParams { rows: 3, columns: 2 };
        let value = [1i8, 2, 3, 4, -128, 127];
        let mut out = [9i8; 8];
        embedding_lookup_s8(&p, &[2, 0, 3, -1], &value, &mut out);
        assert_eq!(out, [-128, 127, 1, 2, 0, 0, 0, 0]);
        let mut f = [9f32; 4];
        embedding_lookup_hybrid(&p, 0.5, &[1, 2], &value, &mut f);
        assert_eq!(f, [1.5, 2.0, -64.0, 63.5]);
    }
}
