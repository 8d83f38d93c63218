//! AVX2 CONV_2D, the `Wide` variant (int8 and legacy uint8): the compile-time packed int16
//! weights of `crate::kernels::conv_2d::wide` (its module doc has the layout and the
//! exactness argument), four output pixels times sixteen output channels per block.
//!
//! Each pixel's window is gathered and widened to int16 once (`vpmovsxbw` / `vpmovzxbw`
//! per run of sixteen, taps outside the image set to the zero point), then read by every
//! block of channels. Per pair of taps the block loads two registers of packed weights
//! (eight channels x two taps each), broadcasts each pixel's tap pair (`vpbroadcastd`) and
//! multiplies (`vpmaddwd`, exact): eight int32 accumulators, one output channel per lane,
//! so no horizontal sums; eight channels are requantized together ([`super::Requant8`]).

use super::{Avx2, Requant8};
use crate::kernels::conv_2d::wide::{blocks, pairs, wide_entry, WideAct, WideMicro, WidenRun, BLOCK, COL, SLACK};
use crate::kernels::conv_2d::{Conv2dParams, ConvGeometry};
use crate::kernels::numerics::{S8, U8};
use core::arch::x86_64::*;

/// Output pixels per block.
const PIXELS: usize = 4;

/// `Conv2dVariant::Wide`, int8. (The requantization is called inside the kernel's target
/// feature: a closure made out here would not inline the AVX2 intrinsics.)
pub(crate) fn conv_2d_s8_wide(t: Avx2, p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let k = Avx2Wide { _t: t, rq: Requant8::new(&p.quant, &p.clamp) };
    let zp = (-p.quant.input_offset) as i8;
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { entry(&k, &p.geometry, zp, input, packed, output) }
}

/// `Conv2dVariant::Wide`, legacy uint8.
pub(crate) fn conv_2d_u8_wide(t: Avx2, p: &Conv2dParams<U8>, input: &[u8], packed: &[i32], output: &mut [u8]) {
    let Some(rq) = Requant8::new_u8(&p.quant, &p.clamp) else {
        return crate::kernels::conv_2d::wide::conv_wide_u8(p, input, packed, output);
    };
    let zp = (-p.quant.input_offset) as u8;
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { entry(&Avx2Wide { _t: t, rq }, &p.geometry, zp, input, packed, output) }
}

wide_entry! {
    /// `Wide` under AVX2.
    fn entry<'r>(Avx2Wide<'r>) features "avx2" sizes [256, 2048] else PIXELS * COL + SLACK
}

/// The AVX2 micro-kernel of the one `Wide` driver: the token and the requantization.
struct Avx2Wide<'a> {
    _t: Avx2,
    rq: Requant8<'a>,
}

impl<A: Widen> WideMicro<A> for Avx2Wide<'_> {
    type Widen = Avx2Widen;
    const PIXELS: usize = PIXELS;

    #[inline(always)]
    fn widener(&self) -> Avx2Widen {
        // SAFETY: the token proves AVX2.
        unsafe { Avx2Widen::new() }
    }

    #[inline(always)]
    unsafe fn pass(&self, g: &ConvGeometry, cols: &[&[i16]], packed: &[i32], output: &mut [A]) {
        let rq = &self.rq;
        // SAFETY: AVX2 by the caller's guarantee.
        unsafe {
            match *cols {
                [c0, c1, c2, c3] => pixels::<4, A>(g, &[c0, c1, c2, c3], packed, output, 0, rq),
                [c0, c1, c2] => pixels::<3, A>(g, &[c0, c1, c2], packed, output, 0, rq),
                [c0, c1] => pixels::<2, A>(g, &[c0, c1], packed, output, 0, rq),
                [c0, ..] => pixels::<1, A>(g, &[c0], packed, output, 0, rq),
                [] => {}
            }
        }
    }
}

/// The activations' widening (sign extension for int8, zero extension for uint8) and
/// requantized store.
pub(crate) trait Widen: WideAct {
    /// 16 elements at `p` to 16 int16.
    ///
    /// # Safety
    /// AVX2; 16 readable elements at `p`.
    unsafe fn widen16(p: *const Self) -> __m256i;

    /// 8 elements at `p` to 8 int16.
    ///
    /// # Safety
    /// AVX2; 8 readable elements at `p`.
    unsafe fn widen8(p: *const Self) -> __m128i;

    /// `outs[j]` = lane `j` of `acc` requantized as output channel `c0 + j`.
    ///
    /// # Safety
    /// AVX2; for uint8, `rq` from [`Requant8::new_u8`].
    unsafe fn store(rq: &Requant8, c0: usize, acc: __m256i, outs: &mut [Self]);
}

impl Widen for i8 {
    #[inline(always)]
    unsafe fn widen16(p: *const i8) -> __m256i {
        // SAFETY: by the caller's guarantee (unaligned load).
        unsafe { _mm256_cvtepi8_epi16(_mm_loadu_si128(p.cast())) }
    }

    #[inline(always)]
    unsafe fn widen8(p: *const i8) -> __m128i {
        // SAFETY: by the caller's guarantee (`movq` reads 8 elements).
        unsafe { _mm_cvtepi8_epi16(_mm_loadl_epi64(p.cast())) }
    }

    #[inline(always)]
    unsafe fn store(rq: &Requant8, c0: usize, acc: __m256i, outs: &mut [i8]) {
        // SAFETY: by the caller's guarantee.
        unsafe { rq.store(c0, acc, outs) }
    }
}

impl Widen for u8 {
    #[inline(always)]
    unsafe fn widen16(p: *const u8) -> __m256i {
        // SAFETY: by the caller's guarantee (unaligned load).
        unsafe { _mm256_cvtepu8_epi16(_mm_loadu_si128(p.cast())) }
    }

    #[inline(always)]
    unsafe fn widen8(p: *const u8) -> __m128i {
        // SAFETY: by the caller's guarantee (`movq` reads 8 elements).
        unsafe { _mm_cvtepu8_epi16(_mm_loadl_epi64(p.cast())) }
    }

    #[inline(always)]
    unsafe fn store(rq: &Requant8, c0: usize, acc: __m256i, outs: &mut [u8]) {
        // SAFETY: by the caller's guarantee.
        unsafe { rq.store_u8(c0, acc, outs) }
    }
}

/// Widens `src` into `dst` (as long), sixteen at a time, then eight, the last `len % 8` scalar.
///
/// # Safety
/// AVX2.
#[inline(always)]
pub(crate) unsafe fn copy_widen<A: Widen>(src: &[A], dst: &mut [i16]) {
    let n = src.len();
    let mut i = 0;
    while i + 16 <= n && i + 16 <= dst.len() {
        // SAFETY: AVX2 by the caller's guarantee; reads 16 elements of `src` and writes 16
        // int16 of `dst`, both in bounds (checked above).
        unsafe { _mm256_storeu_si256(dst[i..][..16].as_mut_ptr().cast(), A::widen16(src[i..][..16].as_ptr())) };
        i += 16;
    }
    if i + 8 <= n && i + 8 <= dst.len() {
        // SAFETY: as above, 8 elements of each (checked).
        unsafe { _mm_storeu_si128(dst[i..][..8].as_mut_ptr().cast(), A::widen8(src[i..][..8].as_ptr())) };
        i += 8;
    }
    for (d, &s) in dst[i..n].iter_mut().zip(&src[i..]) {
        *d = s.widen();
    }
}

/// [`copy_widen`] as [`gather`]'s widening; it inlines into the AVX2 (or AVX-512) kernel
/// that holds it.
#[derive(Clone, Copy)]
pub(crate) struct Avx2Widen {
    _private: (),
}

impl Avx2Widen {
    /// # Safety
    /// The CPU executes AVX2.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Self {
        Avx2Widen { _private: () }
    }
}

impl<A: Widen> WidenRun<A> for Avx2Widen {
    const BLOCK: usize = 16;

    #[inline(always)]
    fn widen_run(&self, src: &[A], dst: &mut [i16]) {
        // SAFETY: an `Avx2Widen` is made only where the CPU executes AVX2 (`new`).
        unsafe { copy_widen(src, &mut dst[..src.len()]) }
    }

    #[inline(always)]
    fn widen_over(&self, src: &[A], dst: &mut [i16]) {
        assert!(src.len().is_multiple_of(16) && dst.len() == src.len());
        for (s, d) in src.chunks_exact(16).zip(dst.chunks_exact_mut(16)) {
            // SAFETY: AVX2 (`new`); reads 16 elements of `s` and writes 16 int16 of `d`.
            unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), A::widen16(s.as_ptr())) };
        }
    }
}

/// `P` pixels' accumulators for `B` blocks of channels starting at block `blk`:
/// `biases[8 * (blk + b) + j] + sum_t x[p][t] . w[blk + b][t][j]` per lane `j`.
///
/// # Safety
/// AVX2; `cols[p]` hold `2 * n_pairs` int16, `rows` the packed blocks (checked).
#[inline(always)]
unsafe fn tile<const P: usize, const B: usize>(cols: &[&[i16]; P], biases: &[i32], rows: &[i32], n_pairs: usize, blk: usize) -> [[__m256i; B]; P] {
    let stride = BLOCK * n_pairs;
    let w: [&[i32]; B] = core::array::from_fn(|b| &rows[(blk + b) * stride..][..stride]);
    let bias: [&[i32]; B] = core::array::from_fn(|b| &biases[(blk + b) * BLOCK..][..BLOCK]);
    assert!(cols.iter().all(|c| c.len() >= 2 * n_pairs));
    let x: [*const i32; P] = core::array::from_fn(|p| cols[p].as_ptr().cast::<i32>());
    // SAFETY: AVX2 by the caller's guarantee; the bias and weight loads read 8 i32 inside
    // the slices above (`8 * t + 8 <= stride`), the broadcasts read tap pair `t < n_pairs`
    // of each column (asserted length; unaligned reads).
    unsafe {
        let mut acc = [[_mm256_setzero_si256(); B]; P];
        for b in 0..B {
            let v = _mm256_loadu_si256(bias[b].as_ptr().cast());
            for a in acc.iter_mut() {
                a[b] = v;
            }
        }
        for t in 0..n_pairs {
            let wv: [__m256i; B] = core::array::from_fn(|b| _mm256_loadu_si256(w[b].as_ptr().add(BLOCK * t).cast()));
            for p in 0..P {
                let xv = _mm256_set1_epi32(x[p].add(t).read_unaligned());
                for b in 0..B {
                    acc[p][b] = _mm256_add_epi32(acc[p][b], _mm256_madd_epi16(xv, wv[b]));
                }
            }
        }
        acc
    }
}

/// `P` pixels starting at pixel `px0`: every block of channels, two at a time.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn pixels<const P: usize, A: Widen>(g: &ConvGeometry, cols: &[&[i16]; P], packed: &[i32], output: &mut [A], px0: usize, rq: &Requant8) {
    let out_d = g.filter_shape[0];
    let n_pairs = pairs(g);
    let n_blocks = blocks(g);
    let (biases, rows) = packed.split_at(BLOCK * n_blocks);
    let mut blk = 0;
    while blk < n_blocks {
        let two = blk + 1 < n_blocks;
        if two {
            // SAFETY: AVX2 by the caller's guarantee.
            let acc = unsafe { tile::<P, 2>(cols, biases, rows, n_pairs, blk) };
            for (p, a) in acc.iter().enumerate() {
                let out = &mut output[(px0 + p) * out_d..][..out_d];
                let c0 = BLOCK * blk;
                let n1 = (out_d - c0 - BLOCK).min(BLOCK);
                // SAFETY: AVX2 by the caller's guarantee; `rq` is the caller's.
                unsafe {
                    A::store(rq, c0, a[0], &mut out[c0..][..BLOCK]);
                    A::store(rq, c0 + BLOCK, a[1], &mut out[c0 + BLOCK..][..n1]);
                }
            }
            blk += 2;
        } else {
            // SAFETY: as above.
            let acc = unsafe { tile::<P, 1>(cols, biases, rows, n_pairs, blk) };
            for (p, a) in acc.iter().enumerate() {
                let out = &mut output[(px0 + p) * out_d..][..out_d];
                let c0 = BLOCK * blk;
                let n = (out_d - c0).min(BLOCK);
                // SAFETY: as above.
                unsafe { A::store(rq, c0, a[0], &mut out[c0..][..n]) };
            }
            blk += 1;
        }
    }
}
