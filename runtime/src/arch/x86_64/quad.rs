//! AVX2 CONV_2D, the `Quad` variant: the compile-time packed int8 tap quads of
//! `crate::kernels::conv_2d::quad` (its module doc has the layout and the exactness
//! argument), read without `vpdpbusd`. (`vpmaddubsw` would multiply the unsigned bytes by
//! the weights directly, but it saturates its int16 pair sums, which reach `2 * 255 * 128`
//! here: not used.)
//!
//! A micro-kernel of the one `Quad` driver (`crate::kernels::conv_2d::quad::drive`): each
//! pixel's window is gathered once as unsigned values widened to int16 (`u` in `[0, 255]`,
//! [`QuadMicro::flip_copy`] widening sixteen bytes at a time); per quad of taps a tile of four pixels times eight channels
//! sign-extends the eight channels' 32 weight bytes to int16 (`vpmovsxbw`, two registers:
//! per channel the tap pairs `(4t, 4t + 1)`, `(4t + 2, 4t + 3)` in adjacent lanes, shared by
//! the four pixels), broadcasts each pixel's four activations (`vpbroadcastq`) and
//! multiplies (`vpmaddwd`: the pair sums `u * w` of at most `2 * 255 * 128`, exact). A
//! channel's accumulator is two adjacent lanes, summed once per pixel at the end
//! (`vphaddd`, then `vpermq` into channel order) before the folded bias and the
//! requantization ([`super::Requant8`]).

use super::{Avx2, Requant8};
use crate::kernels::conv_2d::quad::{quad_entry, QuadMicro, QuadTable, BLOCK, MAX_PASS, ROW, SLACK};
use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// Output pixels per pass (one tile).
const PIXELS: usize = 4;
/// Output channels per tile (half a packed block).
const HALF: usize = BLOCK / 2;

/// `Conv2dVariant::Quad`, int8.
pub(crate) fn conv_2d_s8_quad(t: Avx2, p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let k = Avx2Quad { _t: t, rq: Requant8::new(&p.quant, &p.clamp) };
    let zp = (-p.quant.input_offset) as i8;
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { entry(&k, &p.geometry, zp, input, packed, output) }
}

quad_entry! {
    /// [`conv_2d_s8_quad`] under AVX2.
    fn entry(Avx2Quad<'_>) features "avx2" sizes [512, 1536, 4096] else PIXELS * ROW + SLACK
}

/// The AVX2 micro-kernel: the token and the requantization.
struct Avx2Quad<'a> {
    _t: Avx2,
    rq: Requant8<'a>,
}

/// `src ^ 0x80` into `dst` (as long), sixteen bytes at a time (SSE2, the x86-64 baseline).
#[inline(always)]
pub(crate) fn xor_copy(src: &[i8], dst: &mut [u8]) {
    let n = src.len().min(dst.len());
    let mut c = 0;
    while c + 16 <= n {
        // SAFETY: SSE2 is part of x86-64; 16 bytes of `src` and `dst` at `c + 16 <= n`
        // (unaligned load and store).
        unsafe {
            let v = _mm_loadu_si128(src.as_ptr().add(c).cast());
            _mm_storeu_si128(dst.as_mut_ptr().add(c).cast(), _mm_xor_si128(v, _mm_set1_epi8(-128)));
        }
        c += 16;
    }
    for (d, &x) in dst[c..n].iter_mut().zip(&src[c..n]) {
        *d = x as u8 ^ 0x80;
    }
}

impl QuadMicro for Avx2Quad<'_> {
    type Elem = i16;
    const PIXELS: usize = PIXELS;

    /// `src ^ 0x80` widened to int16, sixteen at a time (`vpmovzxbw`).
    #[inline(always)]
    fn flip_copy(&self, src: &[i8], dst: &mut [i16]) {
        let n = src.len().min(dst.len());
        let mut c = 0;
        while c + 16 <= n {
            // SAFETY: the token proves AVX2; 16 bytes of `src` and 16 int16 of `dst` at
            // `c + 16 <= n` (unaligned load and store).
            unsafe {
                let v = _mm_xor_si128(_mm_loadu_si128(src.as_ptr().add(c).cast()), _mm_set1_epi8(-128));
                _mm256_storeu_si256(dst.as_mut_ptr().add(c).cast(), _mm256_cvtepu8_epi16(v));
            }
            c += 16;
        }
        for (d, &x) in dst[c..n].iter_mut().zip(&src[c..n]) {
            *d = (x as u8 ^ 0x80) as i16;
        }
    }

    #[inline(always)]
    unsafe fn pass(&self, x: &[*const i16; MAX_PASS], n: usize, t: &QuadTable, output: &mut [i8]) {
        let x = [x[0], x[1], x[2], x[3]];
        for blk in 0..t.n_blocks {
            for h in 0..2 {
                let c0 = BLOCK * blk + HALF * h;
                if c0 >= t.out_d {
                    break;
                }
                let m = (t.out_d - c0).min(HALF);
                // SAFETY: AVX2 and the rows by the caller's guarantee; the driver checked that
                // the table holds every block; the bias load reads 8 i32 of the padded biases.
                unsafe {
                    let sums = tile(x, t.rows, t.n_quads, blk, h);
                    let bias = _mm256_loadu_si256(t.biases[c0..][..HALF].as_ptr().cast());
                    for (p, &s) in sums.iter().enumerate().take(n) {
                        self.rq.store(c0, _mm256_add_epi32(s, bias), &mut output[p * t.out_d + c0..][..m]);
                    }
                }
            }
        }
    }
}

/// Four pixels (widened rows `x`, `4 * n_quads` int16 each) times channels `c0..c0 + 8`
/// (half `h` of block `blk`): per pixel the eight channels' sums `u . w` (no bias).
///
/// # Safety
/// AVX2; every `x[p]` points at `4 * n_quads` readable int16; `rows` holds block `blk`.
#[inline(always)]
unsafe fn tile(x: [*const i16; PIXELS], rows: &[i32], n_quads: usize, blk: usize, h: usize) -> [__m256i; PIXELS] {
    let stride = BLOCK * n_quads;
    let w = &rows[blk * stride..][..stride];
    // SAFETY: AVX2 by the caller's guarantee; the weight loads read 8 i32 (two of 16 bytes)
    // at `16 * t + 8 * h`, inside `w`; the broadcasts four int16 at `4t` of each row.
    unsafe {
        let mut acc = [[_mm256_setzero_si256(); 2]; PIXELS];
        for t in 0..n_quads {
            let wp = w.as_ptr().add(BLOCK * t + HALF * h).cast::<__m128i>();
            let w0 = _mm256_cvtepi8_epi16(_mm_loadu_si128(wp));
            let w1 = _mm256_cvtepi8_epi16(_mm_loadu_si128(wp.add(1)));
            for p in 0..PIXELS {
                let xv = _mm256_set1_epi64x(x[p].add(4 * t).cast::<i64>().read_unaligned());
                acc[p][0] = _mm256_add_epi32(acc[p][0], _mm256_madd_epi16(xv, w0));
                acc[p][1] = _mm256_add_epi32(acc[p][1], _mm256_madd_epi16(xv, w1));
            }
        }
        let mut sums = [_mm256_setzero_si256(); PIXELS];
        for p in 0..PIXELS {
            // Lanes (c0, c1, c4, c5 | c2, c3, c6, c7), then the 64-bit pairs in order.
            sums[p] = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_hadd_epi32(acc[p][0], acc[p][1]));
        }
        sums
    }
}
