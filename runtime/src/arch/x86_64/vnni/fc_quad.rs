//! AVX-512 VNNI FULLY_CONNECTED, the `Quad` variant: the layer's weights packed at compile
//! time as CONV_2D `Quad`'s table for the 1x1 convolution it is
//! (`crate::kernels::fully_connected::as_conv`; `crate::kernels::conv_2d::quad`'s module doc
//! has the layout and the exactness argument), read one input row at a time.
//!
//! The convolution kernel's tiles are made for many pixels; a FULLY_CONNECTED usually has
//! one row. Here each quad of the row is made unsigned (`x ^ 0x80` on one word, the
//! padding of the last quad 0 against zero weights; no row buffer to zero per call), and
//! one broadcast (`vpbroadcastd`) feeds `vpdpbusd` against up to eight packed blocks of
//! sixteen units: eight independent accumulators, no horizontal sums (the `Dot4` form sums
//! each unit's lanes at the end). Sixteen units are requantized together
//! ([`Requant16`]).

use super::{Avx512Vnni, Requant16};
use crate::kernels::conv_2d::quad::{QuadTable, BLOCK};
use crate::kernels::fully_connected::quad::{self, FcQuadMicro};
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// `FullyConnectedVariant::Quad`, int8.
pub(crate) fn fully_connected_s8_quad(_: Avx512Vnni, p: &FullyConnectedParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    if !quad::fits(p) {
        return crate::kernels::fully_connected::quad_portable(p, input, packed, output);
    }
    let k = VnniFcQuad { rq: Requant16::new(&p.quant, &p.clamp) };
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
    unsafe { entry(&k, p, input, packed, output) }
}

#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
unsafe fn entry(k: &VnniFcQuad, p: &FullyConnectedParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    // SAFETY: this function's target features.
    unsafe { quad::rows(k, p, input, packed, output) }
}

/// The AVX-512 VNNI micro-kernel of the `Quad` row walk: the requantization (the token was
/// checked by the entry's caller).
struct VnniFcQuad<'a> {
    rq: Requant16<'a>,
}

impl FcQuadMicro for VnniFcQuad<'_> {
    #[inline(always)]
    unsafe fn group(&self, blk: usize, left: usize, x: &[i8], t: &QuadTable, out: &mut [i8]) -> usize {
        let (b, r, q, u, rq) = (t.biases, t.rows, t.n_quads, t.out_d, &self.rq);
        // SAFETY: AVX-512 VNNI by the caller's guarantee; `group` checks its slices.
        unsafe {
            match left {
                1 => group::<1>(blk, x, b, r, q, u, rq, out),
                2 => group::<2>(blk, x, b, r, q, u, rq, out),
                3 => group::<3>(blk, x, b, r, q, u, rq, out),
                4..=7 => group::<4>(blk, x, b, r, q, u, rq, out),
                _ => group::<8>(blk, x, b, r, q, u, rq, out),
            }
        }
    }
}

/// Quad `t` of the row `x` as unsigned bytes `x ^ 0x80` in one little-endian word; the
/// taps past the row's end (the last quad's padding) 0, against zero weights.
#[inline(always)]
pub(crate) fn unsigned_quad(x: &[i8], t: usize) -> i32 {
    let mut b = [0u8; 4];
    for (k, v) in b.iter_mut().enumerate() {
        if let Some(&x) = x.get(4 * t + k) {
            *v = x as u8 ^ 0x80;
        }
    }
    i32::from_le_bytes(b)
}

/// Units `16 * blk..16 * (blk + G)` of the row `x`: `G` independent accumulators from the
/// folded biases, one `vpdpbusd` per quad and block, requantized into `out`. Returns `G`.
///
/// # Safety
/// AVX512F/BW/VL/VNNI.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn group<const G: usize>(blk: usize, x: &[i8], biases: &[i32], rows: &[i32], n_quads: usize, units: usize, rq: &Requant16, out: &mut [i8]) -> usize {
    let stride = BLOCK * n_quads;
    assert!(x.len().div_ceil(4) == n_quads && biases.len() >= BLOCK * (blk + G) && rows.len() >= stride * (blk + G));
    // SAFETY: AVX512F/VNNI by the caller's guarantee; the bias loads read sixteen i32 of
    // block `blk + j` (asserted above), the weight loads sixteen i32 at `16 * t` of block
    // `blk + j`'s `stride` words (`t < n_quads`).
    unsafe {
        let mut acc: [__m512i; G] = core::array::from_fn(|j| _mm512_loadu_si512(biases.as_ptr().add(BLOCK * (blk + j)).cast()));
        let w: [*const i32; G] = core::array::from_fn(|j| rows.as_ptr().add(stride * (blk + j)));
        let flip = i32::from_le_bytes([0x80; 4]);
        let full = x.len() / 4;
        let unsigned = |q: &[i8]| i32::from_le_bytes([q[0] as u8, q[1] as u8, q[2] as u8, q[3] as u8]) ^ flip;
        // Fewer than four blocks (few units, e.g. a classifier's last layer): four quads at
        // a time into four partial sums per block, so that `vpdpbusd`'s latency is hidden
        // by independent chains, added together at the end.
        let mut t0 = 0;
        if G < 4 {
            let mut part = [[_mm512_setzero_si512(); 3]; G];
            let mut quads = x.chunks_exact(16);
            for q in &mut quads {
                let xb: [__m512i; 4] = core::array::from_fn(|k| _mm512_set1_epi32(unsigned(&q[4 * k..4 * k + 4])));
                for j in 0..G {
                    let at = w[j].add(BLOCK * t0);
                    acc[j] = _mm512_dpbusd_epi32(acc[j], xb[0], _mm512_loadu_si512(at.cast()));
                    for k in 0..3 {
                        part[j][k] = _mm512_dpbusd_epi32(part[j][k], xb[k + 1], _mm512_loadu_si512(at.add(BLOCK * (k + 1)).cast()));
                    }
                }
                t0 += 4;
            }
            for (a, p) in acc.iter_mut().zip(&part) {
                *a = _mm512_add_epi32(_mm512_add_epi32(*a, p[0]), _mm512_add_epi32(p[1], p[2]));
            }
        }
        for (t, q) in x.chunks_exact(4).enumerate().skip(t0) {
            let xb = _mm512_set1_epi32(unsigned(q));
            for j in 0..G {
                acc[j] = _mm512_dpbusd_epi32(acc[j], xb, _mm512_loadu_si512(w[j].add(BLOCK * t).cast()));
            }
        }
        if full < n_quads {
            let xb = _mm512_set1_epi32(unsigned_quad(x, full));
            for j in 0..G {
                acc[j] = _mm512_dpbusd_epi32(acc[j], xb, _mm512_loadu_si512(w[j].add(BLOCK * full).cast()));
            }
        }
        for (j, &a) in acc.iter().enumerate() {
            let c0 = BLOCK * (blk + j);
            if c0 < units {
                let n = (units - c0).min(BLOCK);
                rq.store(c0, a, &mut out[c0..c0 + n]);
            }
        }
    }
    G
}
