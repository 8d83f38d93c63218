//! AVX-VNNI FULLY_CONNECTED, the `Quad` variant: a micro-kernel of the one row walk
//! (`crate::kernels::fully_connected::quad::rows`) over CONV_2D `Quad`'s table for the
//! layer's 1x1 convolution. Each quad of the row is made unsigned (`x ^ 0x80` on one word,
//! the last quad's padding 0 against zero weights) and broadcast (`vpbroadcastd`) against
//! up to four packed blocks of sixteen units (two registers each), accumulated with
//! `_mm256_dpbusd_avx_epi32` from the folded biases. With one or two blocks (a classifier's
//! last layer) the quads alternate between two sets of accumulators, added at the end, so
//! that `vpdpbusd`'s latency is hidden by independent chains. Eight units are requantized
//! together (`super::super::Requant8`).

use super::AvxVnni;
use crate::arch::x86_64::vnni::fc_quad::unsigned_quad;
use crate::arch::x86_64::Requant8;
use crate::kernels::conv_2d::quad::{QuadTable, BLOCK};
use crate::kernels::fully_connected::quad::{self, FcQuadMicro};
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// `FullyConnectedVariant::Quad`, int8.
pub(crate) fn fully_connected_s8_quad(t: AvxVnni, p: &FullyConnectedParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    if !quad::fits(p) {
        return crate::kernels::fully_connected::quad_portable(p, input, packed, output);
    }
    let k = AvxVnniFcQuad { _t: t, rq: Requant8::new(&p.quant, &p.clamp) };
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-VNNI.
    unsafe { entry(&k, p, input, packed, output) }
}

#[target_feature(enable = "avx2,avxvnni")]
unsafe fn entry(k: &AvxVnniFcQuad, p: &FullyConnectedParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    // SAFETY: this function's target features.
    unsafe { quad::rows(k, p, input, packed, output) }
}

/// The AVX-VNNI micro-kernel: the token and the requantization.
struct AvxVnniFcQuad<'a> {
    _t: AvxVnni,
    rq: Requant8<'a>,
}

impl FcQuadMicro for AvxVnniFcQuad<'_> {
    #[inline(always)]
    unsafe fn group(&self, blk: usize, left: usize, x: &[i8], t: &QuadTable, out: &mut [i8]) -> usize {
        // SAFETY: AVX2/AVX-VNNI by the caller's guarantee; `group` checks its slices.
        unsafe {
            match left {
                1 => group::<1, 2>(blk, x, t, &self.rq, out),
                2..=3 => group::<2, 2>(blk, x, t, &self.rq, out),
                _ => group::<4, 1>(blk, x, t, &self.rq, out),
            }
        }
    }
}

/// Units `16 * blk..16 * (blk + G)` of the row `x`, the quads dealt round-robin to `S` sets
/// of accumulators (the first started from the folded biases), requantized into `out`.
/// Returns `G`.
///
/// # Safety
/// AVX2 and AVX-VNNI.
#[inline(always)]
unsafe fn group<const G: usize, const S: usize>(blk: usize, x: &[i8], t: &QuadTable, rq: &Requant8, out: &mut [i8]) -> usize {
    let stride = BLOCK * t.n_quads;
    assert!(x.len().div_ceil(4) == t.n_quads && t.biases.len() >= BLOCK * (blk + G) && t.rows.len() >= stride * (blk + G));
    // SAFETY: AVX2/AVX-VNNI by the caller's guarantee; the bias loads read 8 i32 at `8h` of
    // block `blk + j`'s biases, the weight loads 8 i32 at `16q + 8h` of block `blk + j`'s
    // `stride` words, `q < n_quads` (asserted above).
    unsafe {
        let mut acc = [[[_mm256_setzero_si256(); 2]; G]; S];
        for (j, a) in acc[0].iter_mut().enumerate() {
            for (h, v) in a.iter_mut().enumerate() {
                *v = _mm256_loadu_si256(t.biases.as_ptr().add(BLOCK * (blk + j) + 8 * h).cast());
            }
        }
        let w: [*const i32; G] = core::array::from_fn(|j| t.rows.as_ptr().add(stride * (blk + j)));
        let flip = i32::from_le_bytes([0x80; 4]);
        let full = x.len() / 4;
        for q in 0..t.n_quads {
            let u = if q < full {
                let b = &x[4 * q..4 * q + 4];
                i32::from_le_bytes([b[0] as u8, b[1] as u8, b[2] as u8, b[3] as u8]) ^ flip
            } else {
                unsigned_quad(x, q)
            };
            let xv = _mm256_set1_epi32(u);
            let s = q % S;
            for (a, wj) in acc[s].iter_mut().zip(&w) {
                for (h, v) in a.iter_mut().enumerate() {
                    *v = _mm256_dpbusd_avx_epi32(*v, xv, _mm256_loadu_si256(wj.add(BLOCK * q + 8 * h).cast()));
                }
            }
        }
        for j in 0..G {
            for h in 0..2 {
                let mut v = acc[0][j][h];
                for part in acc.iter().skip(1) {
                    v = _mm256_add_epi32(v, part[j][h]);
                }
                let c0 = BLOCK * (blk + j) + 8 * h;
                if c0 < t.out_d {
                    let n = (t.out_d - c0).min(8);
                    rq.store(c0, v, &mut out[c0..c0 + n]);
                }
            }
        }
    }
    G
}
