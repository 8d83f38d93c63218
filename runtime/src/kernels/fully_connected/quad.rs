//! The one row walk of the SIMD forms of [`super::FullyConnectedVariant::Quad`]: the layer's
//! weights packed as CONV_2D `Quad`'s table for the 1x1 convolution it is
//! ([`super::as_conv`]; `crate::kernels::conv_2d::quad` has the layout), read one input row
//! at a time by a micro-kernel ([`FcQuadMicro`]: AVX2, AVX-VNNI, AVX-512 VNNI) that takes a
//! group of blocks of sixteen units per call. The portable form is CONV_2D's portable `Quad`
//! (`super::quad_portable`).

use super::FullyConnectedParams;
use crate::kernels::conv_2d::quad::{QuadTable, BLOCK, MAX_TAPS};
use crate::kernels::numerics::S8;

/// A SIMD micro-kernel of the FULLY_CONNECTED `Quad` row walk ([`rows`]).
pub(crate) trait FcQuadMicro {
    /// Units `16 * blk..` of the row `x` (`x.len()` taps, `t.n_quads` quads; the last quad's
    /// padding taps are 0 against zero weights), a group of at most `left` blocks chosen by
    /// the micro-kernel, requantized into `out` (the row's `t.out_d` outputs). Returns the
    /// number of blocks done (at least 1).
    ///
    /// # Safety
    /// The instruction set the implementation names (its entry's `#[target_feature]`).
    unsafe fn group(&self, blk: usize, left: usize, x: &[i8], t: &QuadTable, out: &mut [i8]) -> usize;
}

/// Whether the SIMD forms take the layer (the convolution's bounds: a depth of 1 to
/// [`MAX_TAPS`]); `select` never gives `Quad` another, and the forms run the portable one if
/// it did.
#[inline(always)]
pub(crate) fn fits(p: &FullyConnectedParams<S8>) -> bool {
    (1..=MAX_TAPS).contains(&p.geometry.input_depth)
}

/// Every batch row through `k`, group by group. [`fits`] holds.
///
/// # Safety
/// What `K::group` requires of the CPU.
#[inline(always)]
pub(crate) unsafe fn rows<K: FcQuadMicro>(k: &K, p: &FullyConnectedParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let (depth, units, batches) = (p.geometry.input_depth, p.geometry.output_depth, p.geometry.batches);
    if units == 0 || depth == 0 {
        return;
    }
    let n_quads = depth.div_ceil(4);
    let n_blocks = units.div_ceil(BLOCK);
    let (biases, rows) = packed.split_at(BLOCK * n_blocks);
    let t = QuadTable { biases, rows: &rows[..n_blocks * n_quads * BLOCK], n_quads, n_blocks, out_d: units };
    for (x, out) in input.chunks_exact(depth).zip(output.chunks_exact_mut(units)).take(batches) {
        let mut blk = 0;
        while blk < n_blocks {
            // SAFETY: the caller's guarantee.
            blk += unsafe { k.group(blk, n_blocks - blk, x, &t, out) }.max(1);
        }
    }
}
