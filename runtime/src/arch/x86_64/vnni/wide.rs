//! AVX-512 VNNI CONV_2D, the `Wide` variant (int8 and legacy uint8): the compile-time packed
//! int16 tap pairs of `crate::kernels::conv_2d::wide` (its module doc has the layout and the
//! exactness argument), read as the AVX2 form reads them.
//!
//! Each pixel's window is gathered and widened to int16 once (as the AVX2 form does), eight
//! pixels at a time, then read by every group of channels. One `vpdpwssd` multiplies a
//! broadcast tap pair of one pixel with a tap pair of sixteen channels and accumulates:
//!
//! - two packed blocks of eight channels per register (the two 256-bit rows of one tap
//!   pair joined), eight pixels times one or two registers per tile (8 or 16 independent
//!   accumulators, enough to hide `vpdpwssd`'s latency), a tail of pixels four at a time;
//! - a last single block for two pixels per register (the block's row in both halves, one
//!   pixel's tap pair broadcast to each half), up to eight pixels per tile.
//!
//! Sixteen lanes are requantized together ([`Requant16`]).

use super::requant::Byte;
use super::{Avx512Vnni, Requant16};
use crate::arch::x86_64::wide::{Avx2Widen, Widen};
use crate::kernels::conv_2d::wide::{blocks, pairs, wide_entry, WideMicro, BLOCK, COL, SLACK};
use crate::kernels::conv_2d::{Conv2dParams, ConvGeometry};
use crate::kernels::numerics::{S8, U8};
use core::arch::x86_64::*;

/// Output pixels gathered per pass.
const PIXELS: usize = 8;

/// `Conv2dVariant::Wide`, int8.
pub(crate) fn conv_2d_s8_wide(_: Avx512Vnni, p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let rq = Requant16::new(&p.quant, &p.clamp);
    let zp = (-p.quant.input_offset) as i8;
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
    unsafe { entry(&VnniWide { rq }, &p.geometry, zp, input, packed, output) }
}

/// `Conv2dVariant::Wide`, legacy uint8.
pub(crate) fn conv_2d_u8_wide(_: Avx512Vnni, p: &Conv2dParams<U8>, input: &[u8], packed: &[i32], output: &mut [u8]) {
    let Some(rq) = Requant16::new_u8(&p.quant, &p.clamp) else {
        return crate::kernels::conv_2d::wide::conv_wide_u8(p, input, packed, output);
    };
    let zp = (-p.quant.input_offset) as u8;
    // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
    unsafe { entry(&VnniWide { rq }, &p.geometry, zp, input, packed, output) }
}

wide_entry! {
    /// `Wide` under AVX-512 VNNI.
    fn entry<'r>(VnniWide<'r>) features "avx2,avx512f,avx512bw,avx512vl,avx512vnni" sizes [512, 4096] else PIXELS * COL + SLACK
}

/// The AVX-512 VNNI micro-kernel of the one `Wide` driver: the requantization (the token was
/// checked by the entry's caller).
struct VnniWide<'a> {
    rq: Requant16<'a>,
}

impl<A: Widen + Byte> WideMicro<A> for VnniWide<'_> {
    type Widen = Avx2Widen;
    const PIXELS: usize = PIXELS;

    #[inline(always)]
    fn widener(&self) -> Avx2Widen {
        // SAFETY: a `VnniWide` is made only with an `Avx512Vnni` token, which implies AVX2.
        unsafe { Avx2Widen::new() }
    }

    #[inline(always)]
    unsafe fn pass(&self, g: &ConvGeometry, cols: &[&[i16]], packed: &[i32], output: &mut [A]) {
        // SAFETY: the caller's guarantee.
        unsafe { pixels(g, cols, packed, output, 0, &self.rq) }
    }
}

/// Two adjacent blocks (sixteen channels from block `blk`), `P` pixels, `Z` registers per
/// pixel (blocks `blk..blk + 2 * Z`): `biases[c] + sum_t x[p][t] . w[c][t]` per lane.
///
/// # Safety
/// AVX512F/VNNI; every `x[p]` points at `n_pairs` readable tap pairs; `rows` holds the
/// packed blocks `blk..blk + 2 * Z` and `biases` their biases (checked by the slicing).
#[inline(always)]
unsafe fn tile16<const P: usize, const Z: usize>(x: [*const i32; P], biases: &[i32], rows: &[i32], n_pairs: usize, blk: usize) -> [[__m512i; Z]; P] {
    let stride = BLOCK * n_pairs;
    let w: [[&[i32]; 2]; Z] = core::array::from_fn(|z| [&rows[(blk + 2 * z) * stride..][..stride], &rows[(blk + 2 * z + 1) * stride..][..stride]]);
    let bias: [&[i32]; Z] = core::array::from_fn(|z| &biases[(blk + 2 * z) * BLOCK..][..2 * BLOCK]);
    // SAFETY: AVX512F/VNNI by the caller's guarantee; the bias loads read 16 i32 of the
    // slices above, the weight loads 8 i32 at `8 * t < stride`, the broadcasts tap pair
    // `t < n_pairs` of each pixel (the caller's guarantee; unaligned reads).
    unsafe {
        let mut acc = [[_mm512_setzero_si512(); Z]; P];
        for z in 0..Z {
            let v = _mm512_loadu_si512(bias[z].as_ptr().cast());
            for a in acc.iter_mut() {
                a[z] = v;
            }
        }
        for t in 0..n_pairs {
            // (A loop, not `from_fn`: a closure does not inherit the target features.)
            let mut wv = [_mm512_setzero_si512(); Z];
            for z in 0..Z {
                let lo = _mm256_loadu_si256(w[z][0].as_ptr().add(BLOCK * t).cast());
                let hi = _mm256_loadu_si256(w[z][1].as_ptr().add(BLOCK * t).cast());
                wv[z] = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi);
            }
            for p in 0..P {
                let xv = _mm512_set1_epi32(x[p].add(t).read_unaligned());
                for z in 0..Z {
                    acc[p][z] = _mm512_dpwssd_epi32(acc[p][z], xv, wv[z]);
                }
            }
        }
        acc
    }
}

/// One block `blk` for `Q` pairs of pixels: lanes `0..8` pixel `x[q][0]`, lanes `8..16`
/// pixel `x[q][1]`.
///
/// # Safety
/// As [`tile16`], for block `blk` only.
#[inline(always)]
unsafe fn tile8x2<const Q: usize>(x: [[*const i32; 2]; Q], biases: &[i32], rows: &[i32], n_pairs: usize, blk: usize) -> [__m512i; Q] {
    let stride = BLOCK * n_pairs;
    let w = &rows[blk * stride..][..stride];
    let bias = &biases[blk * BLOCK..][..BLOCK];
    // SAFETY: as in `tile16`: 8 i32 of `bias`, 8 i32 of `w` at `8 * t < stride`, tap pair
    // `t < n_pairs` of each pixel.
    unsafe {
        let b = _mm512_broadcast_i64x4(_mm256_loadu_si256(bias.as_ptr().cast()));
        let mut acc = [b; Q];
        for t in 0..n_pairs {
            let wv = _mm512_broadcast_i64x4(_mm256_loadu_si256(w.as_ptr().add(BLOCK * t).cast()));
            for q in 0..Q {
                let xv = _mm512_mask_set1_epi32(_mm512_set1_epi32(x[q][0].add(t).read_unaligned()), 0xFF00, x[q][1].add(t).read_unaligned());
                acc[q] = _mm512_dpwssd_epi32(acc[q], xv, wv);
            }
        }
        acc
    }
}

/// Pixels `px0..px0 + cols.len()` (their widened windows `cols`, each `2 * n_pairs` long):
/// every channel.
///
/// # Safety
/// AVX2 and AVX512F/BW/VL/VNNI.
#[inline(always)]
unsafe fn pixels<A: Widen + Byte>(g: &ConvGeometry, cols: &[&[i16]], packed: &[i32], output: &mut [A], px0: usize, rq: &Requant16) {
    let out_d = g.filter_shape[0];
    let n_pairs = pairs(g);
    let n_blocks = blocks(g);
    let (biases, rows) = packed.split_at(BLOCK * n_blocks);
    let n = cols.len();
    assert!(n <= PIXELS && cols.iter().all(|c| c.len() >= 2 * n_pairs));
    let x: [*const i32; PIXELS] = core::array::from_fn(|p| cols[p.min(n - 1)].as_ptr().cast::<i32>());
    let mut blk = 0;
    // Four blocks (32 channels), then two, for eight pixels at a time (eight or sixteen
    // independent accumulators: `vpdpwssd`'s latency is hidden), a tail four at a time.
    while blk + 2 <= n_blocks {
        let z2 = blk + 4 <= n_blocks;
        let mut p0 = 0;
        if n == PIXELS {
            // SAFETY: as below, for eight pixels.
            unsafe {
                if z2 {
                    let acc = tile16::<PIXELS, 2>(x, biases, rows, n_pairs, blk);
                    for (p, a) in acc.iter().enumerate() {
                        for (z, &v) in a.iter().enumerate() {
                            let c0 = BLOCK * (blk + 2 * z);
                            let len = (out_d - c0).min(2 * BLOCK);
                            rq.store(c0, v, &mut output[(px0 + p) * out_d + c0..][..len]);
                        }
                    }
                } else {
                    let acc = tile16::<PIXELS, 1>(x, biases, rows, n_pairs, blk);
                    let c0 = BLOCK * blk;
                    let len = (out_d - c0).min(2 * BLOCK);
                    for (p, a) in acc.iter().enumerate() {
                        rq.store(c0, a[0], &mut output[(px0 + p) * out_d + c0..][..len]);
                    }
                }
            }
            p0 = n;
        }
        while p0 < n {
            let m = (n - p0).min(4);
            let xs: [*const i32; 4] = core::array::from_fn(|p| x[p0 + p.min(m - 1)]);
            // SAFETY: AVX512F/VNNI by the caller's guarantee; the columns are `2 * n_pairs`
            // long (asserted); blocks `blk..blk + 4` (or `+ 2`) exist.
            unsafe {
                if z2 {
                    let acc = match m {
                        4 => tile16::<4, 2>(xs, biases, rows, n_pairs, blk),
                        3 => pad(tile16::<3, 2>([xs[0], xs[1], xs[2]], biases, rows, n_pairs, blk)),
                        2 => pad(tile16::<2, 2>([xs[0], xs[1]], biases, rows, n_pairs, blk)),
                        _ => pad(tile16::<1, 2>([xs[0]], biases, rows, n_pairs, blk)),
                    };
                    for (p, a) in acc.iter().enumerate().take(m) {
                        for (z, &v) in a.iter().enumerate() {
                            let c0 = BLOCK * (blk + 2 * z);
                            let len = (out_d - c0).min(2 * BLOCK);
                            rq.store(c0, v, &mut output[(px0 + p0 + p) * out_d + c0..][..len]);
                        }
                    }
                } else {
                    let acc = match m {
                        4 => tile16::<4, 1>(xs, biases, rows, n_pairs, blk),
                        3 => pad(tile16::<3, 1>([xs[0], xs[1], xs[2]], biases, rows, n_pairs, blk)),
                        2 => pad(tile16::<2, 1>([xs[0], xs[1]], biases, rows, n_pairs, blk)),
                        _ => pad(tile16::<1, 1>([xs[0]], biases, rows, n_pairs, blk)),
                    };
                    let c0 = BLOCK * blk;
                    let len = (out_d - c0).min(2 * BLOCK);
                    for (p, a) in acc.iter().enumerate().take(m) {
                        rq.store(c0, a[0], &mut output[(px0 + p0 + p) * out_d + c0..][..len]);
                    }
                }
            }
            p0 += m;
        }
        blk += if z2 { 4 } else { 2 };
    }
    if blk < n_blocks {
        // The last single block, two pixels per register: pixel pairs (2q, 2q + 1).
        let q = n.div_ceil(2);
        let xs: [[*const i32; 2]; 4] = core::array::from_fn(|k| [x[2 * k], x[2 * k + 1]]);
        // SAFETY: as above; block `blk` exists.
        let acc = unsafe {
            match q {
                4 => tile8x2::<4>(xs, biases, rows, n_pairs, blk),
                3 => pad(tile8x2::<3>([xs[0], xs[1], xs[2]], biases, rows, n_pairs, blk)),
                2 => pad(tile8x2::<2>([xs[0], xs[1]], biases, rows, n_pairs, blk)),
                _ => pad(tile8x2::<1>([xs[0]], biases, rows, n_pairs, blk)),
            }
        };
        let c0 = BLOCK * blk;
        let len = out_d - c0;
        for (k, &a) in acc.iter().enumerate().take(q) {
            let p = 2 * k;
            let (first, rest) = output[(px0 + p) * out_d..].split_at_mut(out_d);
            let second = (p + 1 < n).then(|| &mut rest[c0..][..len]);
            // SAFETY: AVX512F/BW/VL by the caller's guarantee.
            unsafe { rq.store_x2(c0, a, &mut first[c0..][..len], second) };
        }
    }
}

/// `M` results padded to four (the rest are copies of the first; callers take `m` of them).
/// (A loop, not `from_fn`: the values are vectors, and a closure would not inline them.)
#[inline(always)]
fn pad<T: Copy, const M: usize>(a: [T; M]) -> [T; 4] {
    let mut out = [a[0]; 4];
    for (o, &v) in out.iter_mut().zip(&a) {
        *o = v;
    }
    out
}
