//! GATHER, any element type (TFLite Micro: int8 and float32, int32 coordinates). Mirrors
//! TFLite Micro `gather.cc`'s `Gather` loop for loop: for every batch, outer index and
//! coordinate, one `inner`-long slice of the input along `axis` at position
//! `coords[batch * coords_per_batch + coord]`.
//!
//! A coordinate outside `0..axis_size` (run-time data) is a `DCHECK` in TFLite Micro,
//! which then reads out of bounds; here its slice is written as zeros.

/// GATHER parameters (TFLite Micro's sizes around `axis` and `batch_dims`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatherParams {
    /// Product of the first `batch_dims` input dimensions.
    pub batch: usize,
    /// Product of the input dimensions from `batch_dims` to `axis`.
    pub outer: usize,
    /// The input's size along `axis`.
    pub axis_size: usize,
    /// Coordinates per batch (product of the coordinate dims after `batch_dims`).
    pub coords: usize,
    /// Product of the input dimensions after `axis`.
    pub inner: usize,
}

impl GatherParams {
    /// Input elements.
    pub fn input_len(&self) -> usize {
        self.batch * self.outer * self.axis_size * self.inner
    }

    /// Output elements.
    pub fn output_len(&self) -> usize {
        self.batch * self.outer * self.coords * self.inner
    }
}

/// GATHER of any `Copy` element.
pub fn gather<T: Copy + Default>(p: &GatherParams, input: &[T], coords: &[i32], output: &mut [T]) {
    debug_assert_eq!(input.len(), p.input_len());
    debug_assert_eq!(coords.len(), p.batch * p.coords);
    debug_assert_eq!(output.len(), p.output_len());
    let n = p.inner;
    for batch in 0..p.batch {
        for outer in 0..p.outer {
            for coord in 0..p.coords {
                let o = ((batch * p.outer + outer) * p.coords + coord) * n;
                let out = &mut output[o..o + n];
                match usize::try_from(coords[batch * p.coords + coord]).ok().filter(|&c| c < p.axis_size) {
                    Some(c) => {
                        let i = ((batch * p.outer + outer) * p.axis_size + c) * n;
                        out.copy_from_slice(&input[i..i + n]);
                    }
                    None => out.fill(T::default()),
                }
            }
        }
    }
}

/// int8 GATHER.
pub fn gather_s8(p: &GatherParams, input: &[i8], coords: &[i32], output: &mut [i8]) {
    gather(p, input, coords, output)
}

#[cfg(test)]
mod tests;
