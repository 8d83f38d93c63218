//! AVX2 DEPTHWISE_CONV_2D int8, the `Window` variant: depth multiplier 1 through the one
//! driver (`crate::kernels::depthwise_conv_2d::window_driver`) with three micro-kernels (a
//! depth that is a multiple of 16 in tap pairs, [`Pairs`]; eight channels two pixels per
//! pass, [`Depth8`]; else one tap at a time, [`Taps`]), and multipliers that are multiples
//! of 8 ([`mult8n_pairs`], tap pairs per window row; [`mult8n`] for windows wider than 16 or
//! too many pairs: eight output channels share one input channel, broadcast). Other
//! multipliers, and the `Mult1` / `OneChannel` variants (Cortex-M packed layouts with
//! packed requantization), take the portable code.
//!
//! Sixteen channels per block, the accumulators in registers over the window. Every window
//! starts from the folded bias and multiplies in int16 (`vpmullw`: |x * w| <= 2^14 is
//! exact, widened to int32 per tap; or `vpmaddwd` on two taps' products, exact in int32);
//! in a border window the taps outside the image read the input zero point, which adds `w *
//! (zp + input_offset) = 0` to the folded bias: the reference's sum over the valid taps,
//! modulo 2^32.

use super::{Avx2, Requant8};
use crate::kernels::depthwise_conv_2d::window_driver::{drive, Activations, DepthwiseMicro};
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::numerics::{S8, U8};
use crate::kernels::window::Window;
use core::arch::x86_64::*;


/// `DepthwiseConv2dVariant::Window`.
pub(crate) fn depthwise_window(_: Avx2, p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    let depth = p.geometry.filter_shape[3];
    let mult = p.depth_multiplier();
    if mult == 1 && p.geometry.input_shape[3] == depth {
        let [_, f_h, f_w, _] = p.geometry.filter_shape;
        let taps = f_h * f_w;
        let folded = &packed[..depth];
        if depth == 8 && taps <= DEPTH8_TAPS {
            // SAFETY: the token proves that the CPU executes AVX2.
            return unsafe { depth8(p, input, filter, folded, output) };
        }
        // Three buffer sizes: every call fills its whole stack buffers first, and the row
        // driver calls a layer several times (kws: 40 registers, 3 calls per layer).
        if depth.is_multiple_of(16) && pairs_fit::<48>(p) {
            // SAFETY: the token proves that the CPU executes AVX2.
            return unsafe { mult1_pairs::<48>(p, input, filter, folded, output) };
        }
        if depth.is_multiple_of(16) && pairs_fit::<128>(p) {
            // SAFETY: the token proves that the CPU executes AVX2.
            return unsafe { mult1_pairs::<128>(p, input, filter, folded, output) };
        }
        if depth.is_multiple_of(16) && pairs_fit::<MULT1_REGS>(p) {
            // SAFETY: the token proves that the CPU executes AVX2.
            return unsafe { mult1_pairs::<MULT1_REGS>(p, input, filter, folded, output) };
        }
        if taps <= 64 {
            // SAFETY: the token proves that the CPU executes AVX2.
            return unsafe { mult1::<64>(p, input, filter, folded, output) };
        }
        if taps <= MAX_TAPS {
            // SAFETY: the token proves that the CPU executes AVX2.
            return unsafe { mult1::<MAX_TAPS>(p, input, filter, folded, output) };
        }
    }
    if mult.is_multiple_of(8) && mult > 0 && p.geometry.input_shape[3] * mult == depth {
        if mult8n_pairs_fit(p) {
            // SAFETY: as above.
            return unsafe { mult8n_pairs(p, input, filter, &packed[..depth], output) };
        }
        // SAFETY: as above.
        return unsafe { mult8n(p, input, filter, bias, &packed[..depth], output) };
    }
    crate::kernels::depthwise_conv_2d::fast::depthwise_window::<crate::isa::Dot>(p, input, filter, bias, packed, output)
}

/// The longest window [`Taps`] takes (the driver's table of tap offsets, 24 KiB); a longer
/// one (more than 32x32 taps with depth multiplier 1) takes the portable code.
const MAX_TAPS: usize = 1024;

/// Depth multiplier 1, one tap at a time ([`Taps`]), with a table of `T` taps.
///
/// # Safety
/// AVX2.
#[target_feature(enable = "avx2")]
unsafe fn mult1<const T: usize>(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], folded: &[i32], output: &mut [i8]) {
    let mut k = Taps { rq: Requant8::new(&p.quant, &p.clamp), zp: (-p.quant.input_offset) as i8, filter, folded, depth: p.geometry.input_shape[3] };
    // SAFETY: this function's target feature.
    unsafe { drive::<_, T>(&mut k, &p.geometry, input, output) }
}

/// Depth multiplier 1, a depth that is a multiple of 16, in tap pairs ([`Pairs`]) with `R`
/// registers of weights.
///
/// # Safety
/// AVX2.
#[target_feature(enable = "avx2")]
unsafe fn mult1_pairs<const R: usize>(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], folded: &[i32], output: &mut [i8]) {
    let depth = p.geometry.input_shape[3];
    let taps = p.geometry.filter_shape[1] * p.geometry.filter_shape[2];
    let mut w = [_mm256_setzero_si256(); R];
    let mut k = Pairs::<R> { rq: Requant8::new(&p.quant, &p.clamp), zp: (-p.quant.input_offset) as i8, filter, folded, depth, taps, w: &mut w };
    // SAFETY: this function's target feature.
    unsafe { drive::<_, R>(&mut k, &p.geometry, input, output) }
}

/// Depth multiplier 1, eight channels, two pixels per pass ([`Depth8`]).
///
/// # Safety
/// AVX2.
#[target_feature(enable = "avx2")]
unsafe fn depth8(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], folded: &[i32], output: &mut [i8]) {
    let taps = p.geometry.filter_shape[1] * p.geometry.filter_shape[2];
    if p.geometry.input_shape[3] != 8 || taps > DEPTH8_TAPS {
        return;
    }
    let zero = _mm256_setzero_si256();
    let (mut w2, mut w1) = ([zero; DEPTH8_TAPS], [_mm_setzero_si128(); DEPTH8_TAPS]);
    let mut k = Depth8 { rq: Requant8::new(&p.quant, &p.clamp), zp: (-p.quant.input_offset) as i8, filter, folded, taps, w2: &mut w2, w1: &mut w1, bias: zero };
    // SAFETY: this function's target feature.
    unsafe { drive::<_, DEPTH8_TAPS>(&mut k, &p.geometry, input, output) }
}

/// Sixteen int8 at `at`, or the first `n < 16` of them (the other lanes 0).
///
/// # Safety
/// `n` int8 at `at` are readable.
#[inline(always)]
unsafe fn load16(at: *const i8, n: usize) -> __m128i {
    // SAFETY: the caller's bounds; SSE2 is part of x86-64.
    unsafe {
        if n >= 16 {
            return _mm_loadu_si128(at.cast());
        }
        let mut v = [0i8; 16];
        v[..n].copy_from_slice(core::slice::from_raw_parts(at, n));
        _mm_loadu_si128(v.as_ptr().cast())
    }
}

/// Channels `c..c + n` of the folded bias, eight per register (`n <= 16`; lanes past `n`
/// are 0).
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn bias16(folded: &[i32], c: usize, n: usize) -> [__m256i; 2] {
    // SAFETY: AVX2 by the caller's guarantee; the loads read 8 i32 of a slice.
    unsafe {
        if n == 16 {
            return [_mm256_loadu_si256(folded[c..][..8].as_ptr().cast()), _mm256_loadu_si256(folded[c + 8..][..8].as_ptr().cast())];
        }
        if n == 8 {
            return [_mm256_loadu_si256(folded[c..][..8].as_ptr().cast()), _mm256_setzero_si256()];
        }
        let mut v = [0i32; 16];
        v[..n].copy_from_slice(&folded[c..][..n]);
        [_mm256_loadu_si256(v.as_ptr().cast()), _mm256_loadu_si256(v[8..].as_ptr().cast())]
    }
}

/// Requantizes channels `c..c + n` (`n <= 16`) of the two registers into `out`.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn store16(rq: &Requant8, acc: [__m256i; 2], c: usize, n: usize, out: &mut [i8]) {
    // SAFETY: AVX2 by the caller's guarantee.
    unsafe {
        rq.store(c, acc[0], &mut out[c..][..n.min(8)]);
        if n > 8 {
            rq.store(c + 8, acc[1], &mut out[c + 8..][..n - 8]);
        }
    }
}

/// Depth multiplier 1 with `filter` in `[tap][channel]` layout and `folded` the folded bias,
/// one tap at a time: sixteen channels per block (eight when fewer are left) multiplied in
/// int16 (`vpmullw`) and widened to int32 per tap, the weights read from the model's filter
/// at every pixel.
struct Taps<'a> {
    rq: Requant8<'a>,
    zp: i8,
    filter: &'a [i8],
    folded: &'a [i32],
    depth: usize,
}

impl DepthwiseMicro for Taps<'_> {
    type Act = i8;
    type X = __m128i;
    type Acc = [__m256i; 2];
    const BLOCK: usize = 16;
    const HALF: usize = 8;

    #[inline(always)]
    unsafe fn load(&self, at: *const i8, n: usize) -> __m128i {
        // SAFETY: the caller's bounds (8 int8 when `n == 8`).
        unsafe { if n == 8 { _mm_loadl_epi64(at.cast()) } else { load16(at, n) } }
    }

    #[inline(always)]
    unsafe fn zero(&self) -> __m128i {
        // SAFETY: SSE2, part of x86-64.
        unsafe { _mm_set1_epi8(self.zp) }
    }

    #[inline(always)]
    unsafe fn window<S: Activations<__m128i>, const P: usize>(&self, _: usize, c: usize, n: usize, x: &S) -> [[__m256i; 2]; P] {
        // SAFETY: AVX2 by the caller's guarantee; each weight load reads `min(n, 16)` int8 of
        // a tap's slice of the filter (`t * depth + c + n <= taps * depth`).
        unsafe {
            let mut out = [bias16(self.folded, c, n); P];
            for (q, acc) in out.iter_mut().enumerate() {
                for t in 0..x.taps() {
                    let ws = &self.filter[t * self.depth + c..][..n];
                    if n > 8 {
                        let prod = _mm256_mullo_epi16(_mm256_cvtepi8_epi16(x.tap(q, t, n)), _mm256_cvtepi8_epi16(load16(ws.as_ptr(), n)));
                        acc[0] = _mm256_add_epi32(acc[0], _mm256_cvtepi16_epi32(_mm256_castsi256_si128(prod)));
                        acc[1] = _mm256_add_epi32(acc[1], _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(prod)));
                    } else {
                        let w = if n == 8 { _mm_loadl_epi64(ws.as_ptr().cast()) } else { load16(ws.as_ptr(), n) };
                        let prod = _mm_mullo_epi16(_mm_cvtepi8_epi16(x.tap(q, t, n)), _mm_cvtepi8_epi16(w));
                        acc[0] = _mm256_add_epi32(acc[0], _mm256_cvtepi16_epi32(prod));
                    }
                }
            }
            out
        }
    }

    #[inline(always)]
    unsafe fn store(&self, acc: [__m256i; 2], c: usize, n: usize, out: &mut [i8]) {
        // SAFETY: AVX2 by the caller's guarantee.
        unsafe { store16(&self.rq, acc, c, n, out) }
    }
}

/// The most registers of widened tap-pair weights [`Pairs`] keeps on the stack (20 KiB:
/// mobilenet_v2's 960 channels of a 3x3 window take 600).
const MULT1_REGS: usize = 640;

/// Whether [`Pairs`] with `R` registers takes this geometry: a non-empty window whose tap
/// pairs, two registers per pair and block of sixteen channels, fit (then the window has at
/// most `R` taps).
fn pairs_fit<const R: usize>(p: &DepthwiseConv2dParams<S8>) -> bool {
    let [_, f_h, f_w, depth] = p.geometry.filter_shape;
    let taps = f_h * f_w;
    taps > 0 && taps <= R && depth.div_ceil(16).saturating_mul(2 * taps.div_ceil(2)) <= R
}

/// Depth multiplier 1 (`filter` `[tap][channel]`, `folded` the folded bias), in tap pairs:
/// once per call each block of sixteen channels gets its weights widened to int16 pairs
/// `(w[2p][c], w[2p + 1][c])` (an odd last tap pairs with weight 0), two registers per pair
/// (channels `0..8`, `8..16`). Per output pixel and block, each pair of taps loads sixteen
/// inputs of both taps, interleaves them bytewise (`vpunpcklbw`/`vpunpckhbw`), widens them
/// to int16 and adds both taps' products with one `vpmaddwd` per eight channels (`|x * w|
/// <= 2^14`, two of them fit int32 exactly; the sum wraps like the reference's, a ring).
/// Half the multiplies and widenings of [`Taps`], whose weights are widened per pixel.
struct Pairs<'a, const R: usize> {
    rq: Requant8<'a>,
    zp: i8,
    filter: &'a [i8],
    folded: &'a [i32],
    depth: usize,
    taps: usize,
    w: &'a mut [__m256i; R],
}

impl<const R: usize> DepthwiseMicro for Pairs<'_, R> {
    type Act = i8;
    type X = __m128i;
    type Acc = [__m256i; 2];
    const BLOCK: usize = 16;
    const TAILS: bool = false;

    /// Every block at once ([`pairs_fit`], checked).
    #[inline(always)]
    unsafe fn prepare(&mut self, b0: usize, left: usize) -> usize {
        let (depth, taps) = (self.depth, self.taps);
        let per = 2 * taps.div_ceil(2);
        // (The driver checked that the depth is a multiple of 16: no tails.)
        assert!(b0 == 0 && left * per <= R && left * 16 == depth);
        // SAFETY: AVX2 by the caller's guarantee; each load reads 16 int8 of a tap's slice of
        // the filter.
        unsafe {
            for k in 0..left {
                let c = 16 * k;
                for (pr, wp) in self.w[k * per..][..per].chunks_exact_mut(2).enumerate() {
                    let tap = |t: usize| _mm_loadu_si128(self.filter[t * depth + c..][..16].as_ptr().cast());
                    let (wa, wb) = (tap(2 * pr), if 2 * pr + 1 < taps { tap(2 * pr + 1) } else { _mm_setzero_si128() });
                    wp[0] = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(wa, wb));
                    wp[1] = _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(wa, wb));
                }
            }
        }
        left
    }

    #[inline(always)]
    unsafe fn load(&self, at: *const i8, n: usize) -> __m128i {
        // SAFETY: the caller's bounds.
        unsafe { load16(at, n) }
    }

    #[inline(always)]
    unsafe fn zero(&self) -> __m128i {
        // SAFETY: SSE2, part of x86-64.
        unsafe { _mm_set1_epi8(self.zp) }
    }

    #[inline(always)]
    unsafe fn window<S: Activations<__m128i>, const P: usize>(&self, j: usize, c: usize, n: usize, x: &S) -> [[__m256i; 2]; P] {
        let per = 2 * self.taps.div_ceil(2);
        let w = &self.w[j * per..][..per];
        // SAFETY: AVX2 by the caller's guarantee (register-only but for the bias loads).
        unsafe {
            let mut out = [bias16(self.folded, c, n); P];
            let zpv = self.zero();
            for (pr, wp) in w.chunks_exact(2).enumerate() {
                for (q, acc) in out.iter_mut().enumerate() {
                    let (xa, xb) = (x.tap(q, 2 * pr, n), if 2 * pr + 1 < x.taps() { x.tap(q, 2 * pr + 1, n) } else { zpv });
                    acc[0] = _mm256_add_epi32(acc[0], _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_unpacklo_epi8(xa, xb)), wp[0]));
                    acc[1] = _mm256_add_epi32(acc[1], _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_unpackhi_epi8(xa, xb)), wp[1]));
                }
            }
            out
        }
    }

    #[inline(always)]
    unsafe fn store(&self, acc: [__m256i; 2], c: usize, n: usize, out: &mut [i8]) {
        // SAFETY: AVX2 by the caller's guarantee.
        unsafe { store16(&self.rq, acc, c, n, out) }
    }
}

/// Longest window [`Depth8`] takes (its widened weights live on the stack, one per tap).
const DEPTH8_TAPS: usize = 64;

/// Depth multiplier 1, eight channels (`filter` `[tap][channel]`, `folded` the folded bias):
/// two horizontally adjacent output pixels per pass, one 16-lane int16 product per tap (pixel
/// `ox` in the low eight lanes, `ox + 1` in the high eight), the taps' weights widened and
/// duplicated once per call. A pixel whose window is not inside the image horizontally,
/// and the last odd pixel, take one pixel per pass.
struct Depth8<'a> {
    rq: Requant8<'a>,
    zp: i8,
    filter: &'a [i8],
    folded: &'a [i32],
    taps: usize,
    w2: &'a mut [__m256i; DEPTH8_TAPS],
    w1: &'a mut [__m128i; DEPTH8_TAPS],
    bias: __m256i,
}

impl DepthwiseMicro for Depth8<'_> {
    type Act = i8;
    type X = __m128i;
    type Acc = __m256i;
    const BLOCK: usize = 8;
    const TAILS: bool = false;
    const PIXELS: usize = 2;

    #[inline(always)]
    unsafe fn prepare(&mut self, _: usize, _: usize) -> usize {
        // SAFETY: AVX2 by the caller's guarantee; each load reads 8 int8 of a tap's filter
        // slice, or the 8 i32 of `folded`.
        unsafe {
            for (t, (a, b)) in self.w2.iter_mut().zip(self.w1.iter_mut()).enumerate().take(self.taps) {
                let w = _mm_loadl_epi64(self.filter[t * 8..][..8].as_ptr().cast());
                *a = _mm256_cvtepi8_epi16(_mm_unpacklo_epi64(w, w));
                *b = _mm_cvtepi8_epi16(w);
            }
            self.bias = _mm256_loadu_si256(self.folded[..8].as_ptr().cast());
        }
        1
    }

    #[inline(always)]
    unsafe fn load(&self, at: *const i8, _: usize) -> __m128i {
        // SAFETY: the caller's bounds (the depth is 8).
        unsafe { _mm_loadl_epi64(at.cast()) }
    }

    #[inline(always)]
    unsafe fn zero(&self) -> __m128i {
        // SAFETY: SSE2, part of x86-64.
        unsafe { _mm_set1_epi8(self.zp) }
    }

    #[inline(always)]
    unsafe fn window<S: Activations<__m128i>, const P: usize>(&self, _: usize, _: usize, _: usize, x: &S) -> [__m256i; P] {
        let mut out = [self.bias; P];
        let (w2, w1) = (&self.w2[..self.taps], &self.w1[..self.taps]);
        // SAFETY: AVX2 by the caller's guarantee (register-only).
        unsafe {
            if P == 2 {
                let (mut a0, mut a1) = (self.bias, self.bias);
                for (t, &w) in w2.iter().enumerate() {
                    let xv = _mm256_cvtepi8_epi16(_mm_unpacklo_epi64(x.tap(0, t, 8), x.tap(1, t, 8)));
                    let prod = _mm256_mullo_epi16(xv, w);
                    a0 = _mm256_add_epi32(a0, _mm256_cvtepi16_epi32(_mm256_castsi256_si128(prod)));
                    a1 = _mm256_add_epi32(a1, _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(prod)));
                }
                out[0] = a0;
                if let Some(o) = out.get_mut(1) {
                    *o = a1;
                }
            } else {
                let mut acc = self.bias;
                for (t, &w) in w1.iter().enumerate() {
                    let prod = _mm_mullo_epi16(_mm_cvtepi8_epi16(x.tap(0, t, 8)), w);
                    acc = _mm256_add_epi32(acc, _mm256_cvtepi16_epi32(prod));
                }
                out[0] = acc;
            }
        }
        out
    }

    #[inline(always)]
    unsafe fn store(&self, acc: __m256i, c: usize, n: usize, out: &mut [i8]) {
        // SAFETY: AVX2 by the caller's guarantee.
        unsafe { self.rq.store(c, acc, &mut out[c..][..n]) }
    }
}

/// Registers of widened tap-pair weights [`mult8n_pairs`] keeps on the stack (4 KiB).
const PAIR_REGS: usize = 128;

/// Whether [`mult8n_pairs`] takes this geometry: a non-empty window at most 16 taps wide
/// whose tap pairs, for every block of eight output channels, fit [`PAIR_REGS`].
fn mult8n_pairs_fit(p: &DepthwiseConv2dParams<S8>) -> bool {
    let [_, f_h, f_w, depth] = p.geometry.filter_shape;
    f_h * f_w > 0 && f_w <= 16 && depth.is_multiple_of(8) && (depth / 8).saturating_mul(f_h * f_w.div_ceil(2)) <= PAIR_REGS
}

/// Depth multiplier a multiple of 8 (`filter` `[tap][channel]`, the model's; `folded` the
/// folded bias), in tap pairs: once per call each block of eight output channels gets its
/// weights widened to int16 pairs `(w[ky][2j][c], w[ky][2j + 1][c])` per window row, one
/// register per pair (an odd row's last tap pairs with weight 0). Per output pixel, block
/// and window row, the row of the block's input channel is one register of sixteen int16
/// (one load when the channel is the only one and the row is inside the image, else
/// gathered; a tap outside the image reads the zero point, which adds `w * (zp +
/// input_offset) = 0` to the folded bias, the reference's skipped tap); each pair is
/// broadcast from it (`vpermd`) and multiplied by the pair of weights with one `vpmaddwd`
/// (`|x * w| <= 2^14`, two of them fit int32 exactly; the sum wraps like the reference's, a
/// ring). micro_speech's 1 -> 8 channels, 10x8 window.
#[target_feature(enable = "avx2")]
unsafe fn mult8n_pairs(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], folded: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, depth] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let mult = p.depth_multiplier();
    let per_row = f_w.div_ceil(2);
    if mult == 0 || !mult.is_multiple_of(8) || in_d * mult != depth || !mult8n_pairs_fit(p) {
        return;
    }
    let per_block = f_h * per_row;
    let rq = Requant8::new(&p.quant, &p.clamp);
    // -input_offset is the input zero point, an int8.
    let zp = (-p.quant.input_offset) as i8;
    // SAFETY: AVX2 (this function's target feature); each load reads 8 int8 of a tap's
    // filter slice (`t * depth + 8k + 8 <= taps * depth`).
    let (wbuf, sel) = unsafe {
        let mut wbuf = [_mm256_setzero_si256(); PAIR_REGS];
        for k in 0..depth / 8 {
            for ky in 0..f_h {
                for j in 0..per_row {
                    let tap = |kx: usize| _mm_loadl_epi64(filter[(ky * f_w + kx) * depth + 8 * k..][..8].as_ptr().cast());
                    let wb = if 2 * j + 1 < f_w { tap(2 * j + 1) } else { _mm_setzero_si128() };
                    wbuf[k * per_block + ky * per_row + j] = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(tap(2 * j), wb));
                }
            }
        }
        let mut sel = [_mm256_setzero_si256(); 8];
        for (j, s) in sel.iter_mut().enumerate() {
            *s = _mm256_set1_epi32(j as i32);
        }
        (wbuf, sel)
    };
    let contiguous = in_d == 1 && g.dilation_width == 1;
    let out = &mut output[..batches * out_h * out_w * depth];
    let mut pixels = out.chunks_exact_mut(depth);
    for b in 0..batches {
        for oy in 0..out_h {
            let Window { in_y0, ky: ky_range, .. } = g.window_row(b, oy);
            for ox in 0..out_w {
                let Some(out_px) = pixels.next() else { return };
                let (in_x0, kx_range) = g.window_cols(ox);
                let full = kx_range.len() == f_w;
                for k in 0..depth / 8 {
                    let ic = 8 * k / mult;
                    let w = &wbuf[k * per_block..][..per_block];
                    // SAFETY: AVX2 (this function's target feature); the loads read 8 i32 of
                    // `folded`, 16 int8 of `src` or 16 int16 of `xs`.
                    unsafe {
                        let mut acc = [_mm256_loadu_si256(folded[8 * k..][..8].as_ptr().cast()), _mm256_setzero_si256()];
                        for (ky, w) in w.chunks_exact(per_row).enumerate() {
                            let row = if !ky_range.contains(&ky) {
                                _mm256_set1_epi16(zp as i16)
                            } else {
                                let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                                let at = |kx: usize| ((b * in_h + iy) * in_w + (in_x0 + (g.dilation_width * kx) as isize) as usize) * in_d + ic;
                                // (`at(0)` only when tap 0 is inside the image.)
                                match if contiguous && full { input.get(at(0)..at(0) + 16) } else { None } {
                                    Some(src) => _mm256_cvtepi8_epi16(_mm_loadu_si128(src.as_ptr().cast())),
                                    None => {
                                        let mut xs = [zp as i16; 16];
                                        for kx in kx_range.clone() {
                                            xs[kx] = input[at(kx)] as i16;
                                        }
                                        _mm256_loadu_si256(xs.as_ptr().cast())
                                    }
                                }
                            };
                            for (j, wv) in w.iter().enumerate() {
                                let x = _mm256_permutevar8x32_epi32(row, sel[j]);
                                acc[j & 1] = _mm256_add_epi32(acc[j & 1], _mm256_madd_epi16(x, *wv));
                            }
                        }
                        rq.store(8 * k, _mm256_add_epi32(acc[0], acc[1]), &mut out_px[8 * k..][..8]);
                    }
                }
            }
        }
    }
}

/// Depth multiplier a multiple of 8 (`filter` `[tap][channel]`, the model's): each block of
/// eight output channels reads one input channel, broadcast, times eight int8 weights in
/// int32, from the folded bias (interior) or the bias with the input offset (border).
#[target_feature(enable = "avx2")]
unsafe fn mult8n(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, folded: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, depth] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let mult = p.depth_multiplier();
    if depth == 0 || f_h * f_w == 0 || mult == 0 {
        return;
    }
    let rq = Requant8::new(&p.quant, &p.clamp);
    let zeros = [0i32; 8];
    let mut pixels = output.chunks_exact_mut(depth);
    for b in 0..batches {
        for oy in 0..out_h {
            let Window { in_y0, ky: ky_range, .. } = g.window_row(b, oy);
            for ox in 0..out_w {
                let Some(out_px) = pixels.next() else { return };
                let (in_x0, kx_range) = g.window_cols(ox);
                let interior = ky_range.len() == f_h && kx_range.len() == f_w;
                let (init, off) = if interior { (Some(folded), 0) } else { (bias, p.quant.input_offset) };
                for (blk, outs) in out_px.chunks_exact_mut(8).enumerate() {
                    let c = blk * 8;
                    let ic = c / mult;
                    let start = init.map_or(&zeros[..], |t| &t[c..][..8]);
                    // SAFETY: AVX2 (this function's target feature); the loads read `start`
                    // and `ws`, 8 i32 and 8 int8 slices.
                    unsafe {
                        let mut acc = _mm256_loadu_si256(start.as_ptr().cast());
                        for ky in ky_range.clone() {
                            let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                            for kx in kx_range.clone() {
                                let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                                let x = input[((b * in_h + iy) * in_w + ix) * in_d + ic] as i32 + off;
                                let ws = &filter[(ky * f_w + kx) * depth + c..][..8];
                                let w = _mm256_cvtepi8_epi32(_mm_loadl_epi64(ws.as_ptr().cast()));
                                acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(_mm256_set1_epi32(x), w));
                            }
                        }
                        rq.store(c, acc, outs);
                    }
                }
            }
        }
    }
}

/// `depthwise_conv_2d_u8_window` (legacy uint8): depth multiplier 1 through the driver with
/// [`U8Taps`]. Other multipliers, a window of more than [`MAX_TAPS`] taps and an `i32::MIN`
/// multiplier take the reference.
pub(crate) fn depthwise_conv_2d_u8_window(_: Avx2, p: &DepthwiseConv2dParams<U8>, input: &[u8], filter: &[u8], bias: Option<&[i32]>, output: &mut [u8]) {
    let depth = p.geometry.filter_shape[3];
    let taps = p.geometry.filter_shape[1] * p.geometry.filter_shape[2];
    match Requant8::new_u8(&p.quant, &p.clamp) {
        Some(rq) if p.depth_multiplier() == 1 && p.geometry.input_shape[3] == depth && taps <= MAX_TAPS => {
            let k = U8Taps { rq, filter, bias, in_off: p.quant.input_offset, w_off: p.quant.weights_offset, depth };
            // SAFETY: the token proves that the CPU executes AVX2.
            unsafe {
                if taps <= 64 {
                    u8_mult1::<64>(k, &p.geometry, input, output)
                } else {
                    u8_mult1::<MAX_TAPS>(k, &p.geometry, input, output)
                }
            }
        }
        _ => crate::kernels::depthwise_conv_2d::depthwise_conv_2d_u8(p, input, filter, bias, output),
    }
}

/// [`U8Taps`] through the driver with a table of `T` taps.
///
/// # Safety
/// AVX2.
#[target_feature(enable = "avx2")]
unsafe fn u8_mult1<const T: usize>(mut k: U8Taps, g: &crate::kernels::window::ConvGeometry, input: &[u8], output: &mut [u8]) {
    // SAFETY: this function's target feature.
    unsafe { drive::<_, T>(&mut k, g, input, output) }
}

/// Legacy uint8, depth multiplier 1: eight channels per block in int32 lanes, `bias + sum
/// (x + input_offset) * (w + weights_offset)` over the taps, exactly the reference's sum
/// (both factors lie in `[-255, 255]`, so each product is exact in int32; the sum wraps
/// like the reference's). A tap outside the image reads the zero point `-input_offset`,
/// whose factor `x + input_offset` is 0: the reference's skipped tap.
struct U8Taps<'a> {
    rq: Requant8<'a>,
    filter: &'a [u8],
    bias: Option<&'a [i32]>,
    in_off: i32,
    w_off: i32,
    depth: usize,
}

/// Eight uint8 at `at`, or the first `n < 8` of them (the other lanes 0), in the low half.
///
/// # Safety
/// `n` uint8 at `at` are readable.
#[inline(always)]
unsafe fn load8_u8(at: *const u8, n: usize) -> __m128i {
    // SAFETY: the caller's bounds; SSE2 is part of x86-64.
    unsafe {
        if n >= 8 {
            return _mm_loadl_epi64(at.cast());
        }
        let mut v = [0u8; 8];
        v[..n].copy_from_slice(core::slice::from_raw_parts(at, n));
        _mm_loadl_epi64(v.as_ptr().cast())
    }
}

impl DepthwiseMicro for U8Taps<'_> {
    type Act = u8;
    type X = __m128i;
    type Acc = __m256i;
    const BLOCK: usize = 8;

    #[inline(always)]
    unsafe fn load(&self, at: *const u8, n: usize) -> __m128i {
        // SAFETY: the caller's bounds.
        unsafe { load8_u8(at, n) }
    }

    #[inline(always)]
    unsafe fn zero(&self) -> __m128i {
        // SAFETY: SSE2, part of x86-64. (`-input_offset` is the zero point, a uint8.)
        unsafe { _mm_set1_epi8((-self.in_off) as u8 as i8) }
    }

    #[inline(always)]
    unsafe fn window<S: Activations<__m128i>, const P: usize>(&self, _: usize, c: usize, n: usize, x: &S) -> [__m256i; P] {
        // SAFETY: AVX2 by the caller's guarantee; the loads read 8 i32 of a slice and `n`
        // uint8 of a tap's slice of the filter; the caller's bounds for `x.tap`.
        unsafe {
            let start = match self.bias {
                Some(b) if n == 8 => _mm256_loadu_si256(b[c..][..8].as_ptr().cast()),
                Some(b) => {
                    let mut v = [0i32; 8];
                    v[..n].copy_from_slice(&b[c..][..n]);
                    _mm256_loadu_si256(v.as_ptr().cast())
                }
                None => _mm256_setzero_si256(),
            };
            let (xo, wo) = (_mm256_set1_epi32(self.in_off), _mm256_set1_epi32(self.w_off));
            let mut out = [start; P];
            for (q, acc) in out.iter_mut().enumerate() {
                for t in 0..x.taps() {
                    let ws = &self.filter[t * self.depth + c..][..n];
                    let xv = _mm256_add_epi32(_mm256_cvtepu8_epi32(x.tap(q, t, n)), xo);
                    let w = _mm256_add_epi32(_mm256_cvtepu8_epi32(load8_u8(ws.as_ptr(), n)), wo);
                    *acc = _mm256_add_epi32(*acc, _mm256_mullo_epi32(xv, w));
                }
            }
            out
        }
    }

    #[inline(always)]
    unsafe fn store(&self, acc: __m256i, c: usize, n: usize, out: &mut [u8]) {
        // SAFETY: AVX2 by the caller's guarantee.
        unsafe { self.rq.store_u8(c, acc, &mut out[c..][..n]) }
    }
}
