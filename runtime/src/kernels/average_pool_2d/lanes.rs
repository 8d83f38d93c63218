//! The host SIMD loop nest of int8 AVERAGE_POOL_2D, generic over a micro-kernel
//! ([`PoolMicro`]: AVX2 eight channels per pass, AVX-512 sixteen), `#[inline(always)]` into
//! each instruction set's `#[target_feature]` entry in `crate::arch`.
//!
//! Per output pixel and block of channels the window's cells are summed in int32 lanes (the
//! order of an integer sum does not matter), then the micro-kernel's store divides by the
//! number of cells inside the input with TFLite's rounding, clamps and narrows: bit for bit
//! [`super::scalar::average_pool_2d`] on [`crate::kernels::numerics::S8`].

use super::AveragePool2dParams;
use crate::kernels::numerics::S8;

/// A host SIMD micro-kernel of [`drive`]: `LANES` channels' int32 sums per pass.
pub(crate) trait PoolMicro {
    /// Channels per pass.
    const LANES: usize;
    /// The int32 sums of one pass.
    type Acc: Copy;
    /// Sums of zero.
    fn zero(&self) -> Self::Acc;
    /// `acc` plus one cell's channels (`cells.len()`, at most `LANES`, in the first lanes).
    fn add(&self, acc: Self::Acc, cells: &[i8]) -> Self::Acc;
    /// The first `out.len()` lanes of `acc` divided by `count` (TFLite's rounding: `(sum ±
    /// count / 2) / count`, C's truncating division, `+` for a positive sum), clamped to
    /// `min..=max` inside int8, into `out`.
    fn store(&self, acc: Self::Acc, count: i32, min: i32, max: i32, out: &mut [i8]);
}

/// int8 AVERAGE_POOL_2D with `m`'s lanes. `false` (output incomplete, left to the scalar
/// reference) when a window has no cell inside the input (a precondition violation) or more
/// than `2^23` (the micro-kernels' exact division).
#[inline(always)]
pub(crate) fn drive<M: PoolMicro>(m: &M, p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) -> bool {
    let g = &p.geometry;
    let [_, in_h, in_w, depth] = g.input_shape;
    let (min, max) = (p.clamp.min as i32, p.clamp.max as i32);
    for (out_pixel, b, ys, xs) in g.windows() {
        let count = ys.len() * xs.len();
        if count == 0 || count > 1 << 23 {
            return false;
        }
        let mut c0 = 0;
        while c0 < depth {
            let n = (depth - c0).min(M::LANES);
            let mut acc = m.zero();
            for iy in ys.clone() {
                for ix in xs.clone() {
                    acc = m.add(acc, &input[((b * in_h + iy) * in_w + ix) * depth + c0..][..n]);
                }
            }
            m.store(acc, count as i32, min, max, &mut output[out_pixel + c0..][..n]);
            c0 += M::LANES;
        }
    }
    true
}
