//! AVX-512 VNNI CONV_2D, the `Quad` variant: the compile-time packed int8 tap quads of
//! `crate::kernels::conv_2d::quad` (its module doc has the layout and the exactness
//! argument) times the activations as unsigned bytes, `vpdpbusd` (four u8 x i8 products
//! summed into each int32 lane, never saturating; not `vpdpbusds`).
//!
//! A micro-kernel of the one `Quad` driver (`crate::kernels::conv_2d::quad::drive`): each
//! pixel's window is gathered once as a row of bytes `x ^ 0x80` (a window inside the input in
//! 16-byte blocks; a 1x1 stride-1 layer's rows as one contiguous copy), sixteen pixels at a
//! time; per quad of taps a tile broadcasts each pixel's four bytes
//! (`vpbroadcastd`) against the sixteen channels of a packed block (one 64-byte load,
//! shared by the tile's pixels):
//!
//! - blocks of sixteen channels two at a time for eight pixels (sixteen independent
//!   accumulators, enough to hide `vpdpbusd`'s latency), a single block for sixteen pixels;
//! - a last block of at most eight channels (layers with eight outputs) two pixels per
//!   register: the block's eight words in both halves, one pixel's quad broadcast to each
//!   half, sixteen pixels in eight registers;
//! - fewer pixels (the end of the output, a row band of the overlap driver) in tiles of
//!   eight or four, the missing pixels repeating the last one and not stored.
//!
//! The requantization (`super::requant::requant_lanes`, `MultiplyByQuantizedMultiplier` on
//! sixteen lanes) loads each block's multipliers and shifts once per tile, not per pixel. A
//! layer with an `i32::MIN` multiplier takes the portable form.

use super::requant::requant_lanes;
use super::Avx512Vnni;
use crate::arch::x86_64::quad::xor_copy;
use crate::kernels::conv_2d::quad::{conv_quad, quad_entry, QuadMicro, QuadTable, BLOCK, MAX_PASS, ROW, SLACK};
use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// Output pixels gathered per pass.
const PIXELS: usize = 16;

/// `Conv2dVariant::Quad`, int8.
pub(crate) fn conv_2d_s8_quad(_: Avx512Vnni, p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let q = &p.quant;
    if q.output_multiplier.contains(&i32::MIN) {
        return conv_quad(p, input, packed, output);
    }
    let out = Out { mult: q.output_multiplier, shift: q.output_shift, offset: q.output_offset, min: p.clamp.min as i32, max: p.clamp.max as i32 };
    let zp = (-q.input_offset) as i8;
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
    unsafe { entry(&VnniQuad { out }, &p.geometry, zp, input, packed, output) }
}

quad_entry! {
    /// [`conv_2d_s8_quad`] under AVX-512 VNNI.
    fn entry(VnniQuad<'_>) features "avx2,avx512f,avx512bw,avx512vl,avx512vnni" sizes [1024, 4096, 8192] else PIXELS * ROW + SLACK
}

/// The AVX-512 VNNI micro-kernel: the requantization (the token was checked by the entry's
/// caller).
struct VnniQuad<'a> {
    out: Out<'a>,
}

impl QuadMicro for VnniQuad<'_> {
    type Elem = u8;
    const PIXELS: usize = PIXELS;

    #[inline(always)]
    fn flip_copy(&self, src: &[i8], dst: &mut [u8]) {
        xor_copy(src, dst)
    }

    #[inline(always)]
    unsafe fn pass(&self, x: &[*const u8; MAX_PASS], n: usize, t: &QuadTable, output: &mut [i8]) {
        let mut pass = Pass { x: *x, n, biases: t.biases, rows: t.rows, n_quads: t.n_quads, out_d: t.out_d, output, out: &self.out };
        // SAFETY: the caller's guarantee.
        unsafe { pass.run(t.n_blocks) }
    }
}

/// The requantization: per-tensor or per-channel multipliers and shifts (none
/// `i32::MIN`), the output offset and the clamp.
struct Out<'a> {
    mult: &'a [i32],
    shift: &'a [i32],
    offset: i32,
    min: i32,
    max: i32,
}

/// The mask of the first `n <= 16` lanes.
#[inline(always)]
fn first(n: usize) -> u16 {
    ((1u32 << n) - 1) as u16
}

impl Out<'_> {
    /// Multipliers and shifts of channels `c0..c0 + n` (`n <= 16`) in lanes `0..n`.
    ///
    /// # Safety
    /// AVX512F.
    #[inline(always)]
    unsafe fn tables16(&self, c0: usize, n: usize) -> (__m512i, __m512i) {
        if self.mult.len() == 1 {
            // SAFETY: register-only AVX512F.
            return unsafe { (_mm512_set1_epi32(self.mult[0]), _mm512_set1_epi32(self.shift[0])) };
        }
        let (m, s) = (&self.mult[c0..][..n], &self.shift[c0..][..n]);
        // SAFETY: AVX512F; the masked loads read the first `n` i32 of `m` and `s`.
        unsafe { (_mm512_maskz_loadu_epi32(first(n), m.as_ptr()), _mm512_maskz_loadu_epi32(first(n), s.as_ptr())) }
    }

    /// Multipliers and shifts of channels `c0..c0 + n` (`n <= 8`) in lanes `0..n` and again
    /// in lanes `8..8 + n`.
    ///
    /// # Safety
    /// AVX512F and AVX512VL.
    #[inline(always)]
    unsafe fn tables8x2(&self, c0: usize, n: usize) -> (__m512i, __m512i) {
        if self.mult.len() == 1 {
            // SAFETY: register-only AVX512F.
            return unsafe { (_mm512_set1_epi32(self.mult[0]), _mm512_set1_epi32(self.shift[0])) };
        }
        let (m, s) = (&self.mult[c0..][..n], &self.shift[c0..][..n]);
        let k = first(n) as u8;
        // SAFETY: AVX512F/VL; the masked loads read the first `n <= 8` i32 of `m` and `s`.
        unsafe { (_mm512_broadcast_i64x4(_mm256_maskz_loadu_epi32(k, m.as_ptr())), _mm512_broadcast_i64x4(_mm256_maskz_loadu_epi32(k, s.as_ptr()))) }
    }

    /// The sixteen lanes of `acc` requantized with `m`, `s` as sixteen int8.
    ///
    /// # Safety
    /// AVX512F.
    #[inline(always)]
    unsafe fn bytes(&self, acc: __m512i, m: __m512i, s: __m512i) -> __m128i {
        // SAFETY: register-only AVX512F, by the caller's guarantee (the multipliers are not
        // `i32::MIN`: `conv_2d_s8_quad` checked).
        unsafe { _mm512_cvtsepi32_epi8(requant_lanes(acc, m, s, self.offset, self.min, self.max)) }
    }
}

/// `P` pixels (rows `x`, [`quads`] x 4 bytes each) times `Z` blocks of sixteen channels from
/// block `blk`: `biases[c] + sum_t u[p][t] . w[c][t]` per lane.
///
/// # Safety
/// AVX512F/VNNI; every `x[p]` points at `4 * n_quads` readable bytes; `rows` holds the
/// packed blocks `blk..blk + Z` and `biases` their biases (checked by the slicing).
#[inline(always)]
unsafe fn tile<const P: usize, const Z: usize>(x: [*const u8; P], biases: &[i32], rows: &[i32], n_quads: usize, blk: usize) -> [[__m512i; Z]; P] {
    let stride = BLOCK * n_quads;
    let w: [&[i32]; Z] = core::array::from_fn(|z| &rows[(blk + z) * stride..][..stride]);
    let bias: [&[i32]; Z] = core::array::from_fn(|z| &biases[(blk + z) * BLOCK..][..BLOCK]);
    // SAFETY: AVX512F/VNNI by the caller's guarantee; the bias loads read 16 i32 of the
    // slices above, the weight loads 16 i32 at `16 * t < stride`, the broadcasts bytes
    // `4t..4t + 4` of each row, `t < n_quads` (the caller's guarantee; unaligned reads).
    unsafe {
        let mut acc = [[_mm512_setzero_si512(); Z]; P];
        for z in 0..Z {
            let v = _mm512_loadu_si512(bias[z].as_ptr().cast());
            for a in acc.iter_mut() {
                a[z] = v;
            }
        }
        for t in 0..n_quads {
            // (A loop, not `from_fn`: a closure does not inherit the target features.)
            let mut wv = [_mm512_setzero_si512(); Z];
            for z in 0..Z {
                wv[z] = _mm512_loadu_si512(w[z].as_ptr().add(BLOCK * t).cast());
            }
            for p in 0..P {
                let xv = _mm512_set1_epi32(x[p].add(4 * t).cast::<i32>().read_unaligned());
                for z in 0..Z {
                    acc[p][z] = _mm512_dpbusd_epi32(acc[p][z], xv, wv[z]);
                }
            }
        }
        acc
    }
}

/// The first eight channels of block `blk` for `Q` pairs of pixels: lanes `0..8` pixel
/// `x[q][0]`, lanes `8..16` pixel `x[q][1]`.
///
/// # Safety
/// As [`tile`], for block `blk` only.
#[inline(always)]
unsafe fn tile8x2<const Q: usize>(x: [[*const u8; 2]; Q], biases: &[i32], rows: &[i32], n_quads: usize, blk: usize) -> [__m512i; Q] {
    let stride = BLOCK * n_quads;
    let w = &rows[blk * stride..][..stride];
    let bias = &biases[blk * BLOCK..][..BLOCK / 2];
    // SAFETY: as in `tile`: 8 i32 of `bias`, 8 i32 of `w` at `16 * t < stride`, bytes
    // `4t..4t + 4` of each row.
    unsafe {
        let b = _mm512_broadcast_i64x4(_mm256_loadu_si256(bias.as_ptr().cast()));
        let mut acc = [b; Q];
        for t in 0..n_quads {
            let wv = _mm512_broadcast_i64x4(_mm256_loadu_si256(w.as_ptr().add(BLOCK * t).cast()));
            for q in 0..Q {
                let lo = x[q][0].add(4 * t).cast::<i32>().read_unaligned();
                let hi = x[q][1].add(4 * t).cast::<i32>().read_unaligned();
                let xv = _mm512_mask_set1_epi32(_mm512_set1_epi32(lo), 0xFF00, hi);
                acc[q] = _mm512_dpbusd_epi32(acc[q], xv, wv);
            }
        }
        acc
    }
}

/// What the tiles of one pass share: the rows' start pointers (sixteen, the missing pixels
/// repeating the last one), the packed table split, the geometry's sizes and the output.
struct Pass<'a, 'o> {
    x: [*const u8; PIXELS],
    n: usize,
    biases: &'a [i32],
    rows: &'a [i32],
    n_quads: usize,
    out_d: usize,
    output: &'o mut [i8],
    out: &'a Out<'a>,
}

impl Pass<'_, '_> {
    /// [`tile`] for pixels `p0..p0 + P` (those below `n` stored) and blocks `blk..blk + Z`.
    ///
    /// # Safety
    /// AVX512F/BW/VL/VNNI; the rows hold `4 * n_quads` bytes; `p0 + P <= PIXELS`.
    #[inline(always)]
    unsafe fn group<const P: usize, const Z: usize>(&mut self, p0: usize, blk: usize) {
        let xs: [*const u8; P] = core::array::from_fn(|k| self.x[p0 + k]);
        // SAFETY: by the caller's guarantee.
        let acc = unsafe { tile::<P, Z>(xs, self.biases, self.rows, self.n_quads, blk) };
        for z in 0..Z {
            let c0 = BLOCK * (blk + z);
            let len = (self.out_d - c0).min(BLOCK);
            // SAFETY: AVX512F/BW/VL by the caller's guarantee; each masked store writes the
            // first `len` bytes of its pixel's channels `c0..c0 + len`.
            unsafe {
                let (m, s) = self.out.tables16(c0, len);
                for (p, a) in acc.iter().enumerate().take(self.n.saturating_sub(p0).min(P)) {
                    let dst = &mut self.output[(p0 + p) * self.out_d + c0..][..len];
                    _mm_mask_storeu_epi8(dst.as_mut_ptr().cast(), first(len), self.out.bytes(a[z], m, s));
                }
            }
        }
    }

    /// [`tile8x2`] for pixels `0..2 * Q` (those below `n` stored), block `blk`.
    ///
    /// # Safety
    /// As [`Pass::group`]; `2 * Q <= PIXELS`, at most eight channels from `blk`.
    #[inline(always)]
    unsafe fn group8x2<const Q: usize>(&mut self, blk: usize) {
        let xs: [[*const u8; 2]; Q] = core::array::from_fn(|k| [self.x[2 * k], self.x[2 * k + 1]]);
        // SAFETY: by the caller's guarantee.
        let acc = unsafe { tile8x2::<Q>(xs, self.biases, self.rows, self.n_quads, blk) };
        let c0 = BLOCK * blk;
        let len = self.out_d - c0;
        // SAFETY: AVX512F/BW/VL by the caller's guarantee; each masked store writes the first
        // `len <= 8` bytes of its pixel's channels `c0..`.
        unsafe {
            let (m, s) = self.out.tables8x2(c0, len);
            for (k, &a) in acc.iter().enumerate() {
                let bytes = self.out.bytes(a, m, s);
                for (half, v) in [(0, bytes), (1, _mm_srli_si128::<8>(bytes))] {
                    let p = 2 * k + half;
                    if p < self.n {
                        let dst = &mut self.output[p * self.out_d + c0..][..len];
                        _mm_mask_storeu_epi8(dst.as_mut_ptr().cast(), first(len), v);
                    }
                }
            }
        }
    }

    /// Every channel of the pass's `n` pixels.
    ///
    /// # Safety
    /// As [`Pass::group`].
    #[inline(always)]
    unsafe fn run(&mut self, n_blocks: usize) {
        let n = self.n;
        let rem = self.out_d % BLOCK;
        let halves = rem > 0 && rem <= BLOCK / 2;
        let full = if halves { n_blocks - 1 } else { n_blocks };
        let mut blk = 0;
        // SAFETY: by the caller's guarantee; every group stays within the sixteen rows.
        unsafe {
            while blk + 2 <= full {
                let mut p0 = 0;
                while p0 < n {
                    if n - p0 > 4 {
                        self.group::<8, 2>(p0, blk);
                    } else {
                        self.group::<4, 2>(p0, blk);
                    }
                    p0 += 8;
                }
                blk += 2;
            }
            if blk < full {
                if n > 8 {
                    self.group::<16, 1>(0, blk);
                } else if n > 4 {
                    self.group::<8, 1>(0, blk);
                } else {
                    self.group::<4, 1>(0, blk);
                }
            }
            if halves {
                if n > 8 {
                    self.group8x2::<8>(n_blocks - 1);
                } else if n > 4 {
                    self.group8x2::<4>(n_blocks - 1);
                } else {
                    self.group8x2::<2>(n_blocks - 1);
                }
            }
        }
    }
}
