//! AVX2 FULLY_CONNECTED int8: the `Dot4` variant (the model's `[units, depth]` weights and
//! the folded bias, through the one row-product driver `crate::kernels::rows::dot4` with
//! the AVX2 micro-kernel [`super::gemm::Avx2Rows`]) and the `Quad` variant.

use super::gemm::{entries, Avx2Rows};
use super::{Avx2, Requant8};
use crate::kernels::conv_2d::quad::{QuadTable, BLOCK};
use crate::kernels::fully_connected::quad::{self, FcQuadMicro};
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// `FullyConnectedVariant::Dot4`.
pub(crate) fn fully_connected_dot4(t: Avx2, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    if !crate::kernels::rows::fits_dot4(p) {
        return crate::kernels::fully_connected::fast::fully_connected_dot4::<crate::isa::Dot>(p, input, filter, packed, output);
    }
    let k = Avx2Rows { _t: t, rq: Requant8::new(&p.quant, &p.clamp) };
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { entries::dot4(&k, p, input, filter, packed, output) }
}

/// `FullyConnectedVariant::Quad`: CONV_2D `Quad`'s table for the layer's 1x1 convolution
/// (`crate::kernels::fully_connected::as_conv`; the layout and the exactness argument are in
/// `crate::kernels::conv_2d::quad`), through the one row walk
/// (`crate::kernels::fully_connected::quad::rows`). Each quad of the row is made
/// unsigned and widened (`u = x + 128` as four int16, broadcast); per quad and
/// four units, one `vpmovsxbw` widens the sixteen weight bytes and one `vpmaddwd` adds two
/// tap pairs per unit, into accumulators of two partial sums per unit that are added
/// together once at the end of the row (`vphaddd`). Two blocks of sixteen units per group
/// (eight accumulators); eight units requantized together ([`Requant8`]).
pub(crate) fn fully_connected_s8_quad(t: Avx2, p: &FullyConnectedParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    if !quad::fits(p) {
        return crate::kernels::fully_connected::quad_portable(p, input, packed, output);
    }
    let k = Avx2FcQuad { _t: t, rq: Requant8::new(&p.quant, &p.clamp) };
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { quad_entry(&k, p, input, packed, output) }
}

#[target_feature(enable = "avx2")]
unsafe fn quad_entry(k: &Avx2FcQuad, p: &FullyConnectedParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    // SAFETY: this function's target feature.
    unsafe { quad::rows(k, p, input, packed, output) }
}

/// The AVX2 micro-kernel of the `Quad` row walk: the token and the requantization.
struct Avx2FcQuad<'a> {
    _t: Avx2,
    rq: Requant8<'a>,
}

impl FcQuadMicro for Avx2FcQuad<'_> {
    #[inline(always)]
    unsafe fn group(&self, blk: usize, left: usize, x: &[i8], t: &QuadTable, out: &mut [i8]) -> usize {
        // SAFETY: AVX2 by the caller's guarantee.
        unsafe {
            if left >= 2 {
                blocks::<2>(blk, x, t.n_quads, t.biases, t.rows, t.out_d, &self.rq, out)
            } else {
                blocks::<1>(blk, x, t.n_quads, t.biases, t.rows, t.out_d, &self.rq, out)
            }
        }
    }
}

/// Quad `t` of the row `x` as four int16 `x + 128` broadcast to every quarter (the taps
/// past the row's end 0, against zero weights).
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn widened_quad(x: &[i8], t: usize) -> __m256i {
    let u = crate::arch::x86_64::vnni::fc_quad::unsigned_quad(x, t);
    // SAFETY: register-only AVX2 intrinsics.
    unsafe { _mm256_broadcastq_epi64(_mm_cvtepu8_epi16(_mm_cvtsi32_si128(u))) }
}

/// Units `16 * blk..16 * (blk + B)` of the row `x`, from the folded
/// biases, requantized into `out`. Returns `B`.
///
/// # Safety
/// AVX2.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn blocks<const B: usize>(blk: usize, x: &[i8], n_quads: usize, biases: &[i32], rows: &[i32], units: usize, rq: &Requant8, out: &mut [i8]) -> usize {
    let stride = BLOCK * n_quads;
    assert!(biases.len() >= BLOCK * (blk + B) && rows.len() >= stride * (blk + B));
    // SAFETY: AVX2 by the caller's guarantee; each weight load reads sixteen bytes (four
    // units' quads) at word `16 * t + 4 * k` of block `blk + b`'s `stride` words (`t <
    // n_quads`, `k < 4`), each bias load eight i32 of the asserted biases.
    unsafe {
        // acc[b][k]: units 4k..4k + 4 of block blk + b, two partial sums per unit.
        let mut acc = [[_mm256_setzero_si256(); 4]; B];
        let w: [*const i32; B] = core::array::from_fn(|b| rows.as_ptr().add(stride * (blk + b)));
        let flip = i32::from_le_bytes([0x80; 4]);
        let full = x.len() / 4;
        for t in 0..n_quads {
            let xb = if t < full {
                let q = &x[4 * t..4 * t + 4];
                let u = i32::from_le_bytes([q[0] as u8, q[1] as u8, q[2] as u8, q[3] as u8]) ^ flip;
                _mm256_broadcastq_epi64(_mm_cvtepu8_epi16(_mm_cvtsi32_si128(u)))
            } else {
                widened_quad(x, t)
            };
            for (acc, w) in acc.iter_mut().zip(&w) {
                for (k, a) in acc.iter_mut().enumerate() {
                    let wv = _mm256_cvtepi8_epi16(_mm_loadu_si128(w.add(BLOCK * t + 4 * k).cast()));
                    *a = _mm256_add_epi32(*a, _mm256_madd_epi16(wv, xb));
                }
            }
        }
        for (b, a) in acc.iter().enumerate() {
            for half in 0..2 {
                // [u0, u1, u4, u5 | u2, u3, u6, u7] of the eight units, then in order.
                let s = _mm256_hadd_epi32(a[2 * half], a[2 * half + 1]);
                let s = _mm256_permute4x64_epi64::<0b11_01_10_00>(s);
                let c0 = BLOCK * (blk + b) + 8 * half;
                if c0 < units {
                    let s = _mm256_add_epi32(s, _mm256_loadu_si256(biases.as_ptr().add(c0).cast()));
                    let n = (units - c0).min(8);
                    rq.store(c0, s, &mut out[c0..c0 + n]);
                }
            }
        }
    }
    B
}
