//! AVX-VNNI CONV_2D, the `Quad` variant: a micro-kernel of the one `Quad` driver
//! (`crate::kernels::conv_2d::quad::drive`; the layout and the exactness argument are in
//! that module's doc). Each pixel's window is gathered once as bytes `x ^ 0x80`; per quad of
//! taps a tile broadcasts each of four pixels' four bytes (`vpbroadcastd`) against one
//! packed block of sixteen channels (two 32-byte loads shared by the four pixels) and
//! accumulates with `_mm256_dpbusd_avx_epi32`: eight independent accumulators, started
//! from the folded biases, requantized eight channels at a time (`super::super::Requant8`).

use super::AvxVnni;
use crate::arch::x86_64::quad::xor_copy;
use crate::arch::x86_64::Requant8;
use crate::kernels::conv_2d::quad::{quad_entry, QuadMicro, QuadTable, BLOCK, MAX_PASS, ROW, SLACK};
use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// Output pixels gathered per pass (two tiles).
const PIXELS: usize = 8;
/// Output pixels per tile.
const TILE: usize = 4;
/// Channels per register.
const HALF: usize = BLOCK / 2;

/// `Conv2dVariant::Quad`, int8.
pub(crate) fn conv_2d_s8_quad(t: AvxVnni, p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let k = AvxVnniQuad { _t: t, rq: Requant8::new(&p.quant, &p.clamp) };
    let zp = (-p.quant.input_offset) as i8;
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-VNNI.
    unsafe { entry(&k, &p.geometry, zp, input, packed, output) }
}

quad_entry! {
    /// [`conv_2d_s8_quad`] under AVX-VNNI.
    fn entry(AvxVnniQuad<'_>) features "avx2,avxvnni" sizes [1024, 4096] else PIXELS * ROW + SLACK
}

/// The AVX-VNNI micro-kernel: the token and the requantization.
struct AvxVnniQuad<'a> {
    _t: AvxVnni,
    rq: Requant8<'a>,
}

impl QuadMicro for AvxVnniQuad<'_> {
    type Elem = u8;
    const PIXELS: usize = PIXELS;

    #[inline(always)]
    fn flip_copy(&self, src: &[i8], dst: &mut [u8]) {
        xor_copy(src, dst)
    }

    #[inline(always)]
    unsafe fn pass(&self, x: &[*const u8; MAX_PASS], n: usize, t: &QuadTable, output: &mut [i8]) {
        for blk in 0..t.n_blocks {
            let c0 = BLOCK * blk;
            let m = (t.out_d - c0).min(BLOCK);
            let mut p0 = 0;
            while p0 < n {
                let out = &mut output[p0 * t.out_d..];
                // SAFETY: AVX2/AVX-VNNI and the rows by the caller's guarantee (`p0 + 3 <
                // PIXELS <= MAX_PASS`); the driver checked that the table holds every block.
                // A short tile (the end of the output, or a narrow row band) computes only
                // its pixels.
                unsafe {
                    match (n - p0, m > HALF) {
                        (4.., true) => self.store(&tile::<2, 4>([x[p0], x[p0 + 1], x[p0 + 2], x[p0 + 3]], t, blk), c0, m, t.out_d, out),
                        (4.., false) => self.store(&tile::<1, 4>([x[p0], x[p0 + 1], x[p0 + 2], x[p0 + 3]], t, blk), c0, m, t.out_d, out),
                        (3, true) => self.store(&tile::<2, 3>([x[p0], x[p0 + 1], x[p0 + 2]], t, blk), c0, m, t.out_d, out),
                        (3, false) => self.store(&tile::<1, 3>([x[p0], x[p0 + 1], x[p0 + 2]], t, blk), c0, m, t.out_d, out),
                        (2, true) => self.store(&tile::<2, 2>([x[p0], x[p0 + 1]], t, blk), c0, m, t.out_d, out),
                        (2, false) => self.store(&tile::<1, 2>([x[p0], x[p0 + 1]], t, blk), c0, m, t.out_d, out),
                        (_, true) => self.store(&tile::<2, 1>([x[p0]], t, blk), c0, m, t.out_d, out),
                        (_, false) => self.store(&tile::<1, 1>([x[p0]], t, blk), c0, m, t.out_d, out),
                    }
                }
                p0 += TILE;
            }
        }
    }
}

impl AvxVnniQuad<'_> {
    /// The `P` pixels' accumulators of channels `c0..c0 + m`, requantized.
    ///
    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn store<const H: usize, const P: usize>(&self, acc: &[[__m256i; H]; P], c0: usize, m: usize, out_d: usize, output: &mut [i8]) {
        for (p, a) in acc.iter().enumerate() {
            for (h, &v) in a.iter().enumerate() {
                let c = c0 + HALF * h;
                let len = (c0 + m - c).min(HALF);
                // SAFETY: AVX2 by the caller's guarantee.
                unsafe { self.rq.store(c, v, &mut output[p * out_d + c..][..len]) };
            }
        }
    }
}

/// `P` pixels (rows `x`, `4 * n_quads` bytes each) times the first `8 * H` channels of block
/// `blk`: per pixel and register, the folded biases plus the sums `u . w`.
///
/// # Safety
/// AVX2 and AVX-VNNI; every `x[p]` points at `4 * t.n_quads` readable bytes; `t.rows` holds
/// block `blk` (checked by the slicing).
#[inline(always)]
unsafe fn tile<const H: usize, const P: usize>(x: [*const u8; P], t: &QuadTable, blk: usize) -> [[__m256i; H]; P] {
    let stride = BLOCK * t.n_quads;
    let w = &t.rows[blk * stride..][..stride];
    let bias = &t.biases[blk * BLOCK..][..BLOCK];
    // SAFETY: AVX2/AVX-VNNI by the caller's guarantee; the bias loads read 8 i32 of `bias`
    // at `8h`, the weight loads 8 i32 at `16q + 8h < stride`, the broadcasts bytes
    // `4q..4q + 4` of each row, `q < n_quads` (unaligned reads).
    unsafe {
        let mut acc = [[_mm256_setzero_si256(); H]; P];
        for h in 0..H {
            let b = _mm256_loadu_si256(bias.as_ptr().add(HALF * h).cast());
            for a in acc.iter_mut() {
                a[h] = b;
            }
        }
        for q in 0..t.n_quads {
            let mut wv = [_mm256_setzero_si256(); H];
            for (h, v) in wv.iter_mut().enumerate() {
                *v = _mm256_loadu_si256(w.as_ptr().add(BLOCK * q + HALF * h).cast());
            }
            for p in 0..P {
                let xv = _mm256_set1_epi32(x[p].add(4 * q).cast::<i32>().read_unaligned());
                for h in 0..H {
                    acc[p][h] = _mm256_dpbusd_avx_epi32(acc[p][h], xv, wv[h]);
                }
            }
        }
        acc
    }
}
