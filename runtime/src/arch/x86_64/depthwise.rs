//! AVX2 DEPTHWISE_CONV_2D int8, the `Window` variant: depth multiplier 1 (the model's filter
//! as is; a depth that is a multiple of 16 in tap pairs, [`mult1_pairs`]; eight channels
//! two pixels per pass, [`depth8`]; else [`mult1`]) and multipliers that are multiples of 8
//! ([`mult8n_pairs`], tap pairs per window row; [`mult8n`] for windows wider than 16 or
//! too many pairs: eight output channels share one input channel, broadcast). Other
//! multipliers, and the `Mult1` / `OneChannel` variants (Cortex-M packed layouts with
//! packed requantization), take the portable code.
//!
//! Sixteen channels per pass, the accumulators in registers over the window. Every window
//! starts from the folded bias and multiplies in int16 (`vpmullw`: |x * w| <= 2^14 is
//! exact, widened to int32 per tap; or `vpmaddwd` on two taps' products, exact in int32);
//! in a border window the taps outside the image read the input zero point, which adds `w *
//! (zp + input_offset) = 0` to the folded bias: the reference's sum over the valid taps,
//! modulo 2^32.

use super::{Avx2, Requant8};
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::numerics::{S8, U8};
use crate::kernels::window::{valid_taps, Window};
use core::arch::x86_64::*;


/// `DepthwiseConv2dVariant::Window`.
pub(crate) fn depthwise_window(_: Avx2, p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    let depth = p.geometry.filter_shape[3];
    let mult = p.depth_multiplier();
    if mult == 1 && p.geometry.input_shape[3] == depth {
        let [_, f_h, f_w, _] = p.geometry.filter_shape;
        if depth == 8 && f_h * f_w <= DEPTH8_TAPS {
            // SAFETY: the token proves that the CPU executes AVX2.
            return unsafe { depth8(p, input, filter, &packed[..depth], output) };
        }
        // Three buffer sizes: every call fills its whole stack buffers first, and the row
        // driver calls a layer several times (kws: 40 registers, 3 calls per layer).
        if depth.is_multiple_of(16) && mult1_pairs_fit::<48>(p) {
            // SAFETY: the token proves that the CPU executes AVX2.
            return unsafe { mult1_pairs::<48>(p, input, filter, &packed[..depth], output) };
        }
        if depth.is_multiple_of(16) && mult1_pairs_fit::<128>(p) {
            // SAFETY: the token proves that the CPU executes AVX2.
            return unsafe { mult1_pairs::<128>(p, input, filter, &packed[..depth], output) };
        }
        if depth.is_multiple_of(16) && mult1_pairs_fit::<MULT1_REGS>(p) {
            // SAFETY: the token proves that the CPU executes AVX2.
            return unsafe { mult1_pairs::<MULT1_REGS>(p, input, filter, &packed[..depth], output) };
        }
        // SAFETY: the token proves that the CPU executes AVX2.
        return unsafe { mult1(p, input, filter, &packed[..depth], output) };
    }
    if mult.is_multiple_of(8) && mult > 0 && p.geometry.input_shape[3] * mult == depth {
        if pairs_fit(p) {
            // SAFETY: as above.
            return unsafe { mult8n_pairs(p, input, filter, &packed[..depth], output) };
        }
        // SAFETY: as above.
        return unsafe { mult8n(p, input, filter, bias, &packed[..depth], output) };
    }
    crate::kernels::depthwise_conv_2d::fast::depthwise_window::<crate::isa::Dot>(p, input, filter, bias, packed, output)
}

/// `acc[h]` (lanes `8h..8h + 8` of a block of `8 * H` channels) plus `x * w` over every tap
/// `(ky, kx)` of the `f_h x f_w` window, where `x_at`/`w_at` give the block's input and
/// filter slices at a tap; a tap outside `ky_range x kx_range` (outside the image) reads the
/// zero point `zp` instead, so that it contributes `w * (zp + input_offset) = 0` on top of the
/// folded bias, exactly as the reference's skipped tap.
///
/// # Safety
/// AVX2. (Slices are bounds-checked.)
#[inline(always)]
unsafe fn block<const H: usize>(
    mut acc: [__m256i; H],
    [f_h, f_w]: [usize; 2],
    (ky_range, kx_range): (core::ops::Range<usize>, core::ops::Range<usize>),
    x_at: impl Fn(usize, usize) -> usize,
    w_at: impl Fn(usize, usize) -> usize,
    (input, filter): (&[i8], &[i8]),
    zp: i8,
) -> [__m256i; H] {
    // SAFETY: AVX2 by the caller's guarantee; each load reads inside a slice of 8 * H int8.
    unsafe {
        for ky in 0..f_h {
            for kx in 0..f_w {
                let ws = &filter[w_at(ky, kx)..][..8 * H];
                let inside = ky_range.contains(&ky) && kx_range.contains(&kx);
                if H == 2 {
                    let xv = if inside {
                        _mm256_cvtepi8_epi16(_mm_loadu_si128(input[x_at(ky, kx)..][..16].as_ptr().cast()))
                    } else {
                        _mm256_set1_epi16(zp as i16)
                    };
                    let prod = _mm256_mullo_epi16(xv, _mm256_cvtepi8_epi16(_mm_loadu_si128(ws.as_ptr().cast())));
                    acc[0] = _mm256_add_epi32(acc[0], _mm256_cvtepi16_epi32(_mm256_castsi256_si128(prod)));
                    acc[H - 1] = _mm256_add_epi32(acc[H - 1], _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(prod)));
                } else {
                    let xv = if inside { _mm_cvtepi8_epi16(_mm_loadl_epi64(input[x_at(ky, kx)..][..8].as_ptr().cast())) } else { _mm_set1_epi16(zp as i16) };
                    let prod = _mm_mullo_epi16(xv, _mm_cvtepi8_epi16(_mm_loadl_epi64(ws.as_ptr().cast())));
                    acc[0] = _mm256_add_epi32(acc[0], _mm256_cvtepi16_epi32(prod));
                }
            }
        }
        acc
    }
}

/// Depth multiplier 1 with `filter` in `[tap][channel]` layout and `folded` the folded bias.
#[target_feature(enable = "avx2")]
unsafe fn mult1(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], folded: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    let [_, f_h, f_w, _] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    if depth == 0 || f_h * f_w == 0 {
        return;
    }
    let rq = Requant8::new(&p.quant, &p.clamp);
    // -input_offset is the input zero point, an int8.
    let zp = (-p.quant.input_offset) as i8;
    let folded = &folded[..depth];
    let mut pixels = output.chunks_exact_mut(depth);
    for b in 0..batches {
        for oy in 0..out_h {
            let Window { in_y0, ky: ky_range, .. } = g.window_row(b, oy);
            for ox in 0..out_w {
                let Some(out_px) = pixels.next() else { return };
                let (in_x0, kx_range) = g.window_cols(ox);
                let x_px = |ky: usize, kx: usize| {
                    let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                    let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                    ((b * in_h + iy) * in_w + ix) * depth
                };
                let w_tap = |ky: usize, kx: usize| (ky * f_w + kx) * depth;
                let taps = (ky_range.clone(), kx_range.clone());
                let mut c = 0;
                while c + 16 <= depth {
                    // SAFETY: AVX2 (this function's target feature); the loads read 8 i32.
                    let acc = unsafe { [_mm256_loadu_si256(folded[c..][..8].as_ptr().cast()), _mm256_loadu_si256(folded[c + 8..][..8].as_ptr().cast())] };
                    // SAFETY: AVX2, as above.
                    let acc = unsafe { block::<2>(acc, [f_h, f_w], taps.clone(), |y, x| x_px(y, x) + c, |y, x| w_tap(y, x) + c, (input, filter), zp) };
                    // SAFETY: AVX2, as above.
                    unsafe {
                        rq.store(c, acc[0], &mut out_px[c..][..8]);
                        rq.store(c + 8, acc[1], &mut out_px[c + 8..][..8]);
                    }
                    c += 16;
                }
                if c + 8 <= depth {
                    // SAFETY: as above.
                    let acc = unsafe { [_mm256_loadu_si256(folded[c..][..8].as_ptr().cast())] };
                    // SAFETY: as above.
                    let acc = unsafe { block::<1>(acc, [f_h, f_w], taps.clone(), |y, x| x_px(y, x) + c, |y, x| w_tap(y, x) + c, (input, filter), zp) };
                    // SAFETY: as above.
                    unsafe { rq.store(c, acc[0], &mut out_px[c..][..8]) };
                    c += 8;
                }
                for ch in c..depth {
                    let mut acc = folded[ch];
                    for ky in 0..f_h {
                        for kx in 0..f_w {
                            let inside = ky_range.contains(&ky) && kx_range.contains(&kx);
                            let x = if inside { input[x_px(ky, kx) + ch] } else { zp };
                            acc = acc.wrapping_add(x as i32 * filter[w_tap(ky, kx) + ch] as i32);
                        }
                    }
                    // SAFETY: as above (a register broadcast).
                    unsafe { rq.store(ch, _mm256_set1_epi32(acc), &mut out_px[ch..][..1]) };
                }
            }
        }
    }
}

/// The most registers of widened tap-pair weights [`mult1_pairs`] keeps on the stack (20
/// KiB: mobilenet_v2's 960 channels of a 3x3 window take 600).
const MULT1_REGS: usize = 640;

/// Whether [`mult1_pairs`] with `R` registers takes this geometry: a non-empty window whose
/// tap pairs, two registers per pair and block of sixteen channels, fit (then the window has
/// at most `R` taps).
fn mult1_pairs_fit<const R: usize>(p: &DepthwiseConv2dParams<S8>) -> bool {
    let [_, f_h, f_w, depth] = p.geometry.filter_shape;
    let taps = f_h * f_w;
    taps > 0 && taps <= R && (depth / 16).saturating_mul(2 * taps.div_ceil(2)) <= R
}

/// Depth multiplier 1, a depth that is a multiple of 16 (`filter` `[tap][channel]`, `folded`
/// the folded bias), in tap pairs: once per call each block of sixteen channels gets its
/// weights widened to int16 pairs `(w[2p][c], w[2p + 1][c])` (an odd last tap pairs with
/// weight 0), two registers per pair (channels `0..8`, `8..16`). Per output pixel and
/// block, each pair of taps loads sixteen inputs of both taps, interleaves them bytewise
/// (`vpunpcklbw`/`vpunpckhbw`), widens them to int16 and adds both taps' products with one
/// `vpmaddwd` per eight channels (`|x * w| <= 2^14`, two of them fit int32 exactly; the sum
/// wraps like the reference's, a ring). A tap outside the image reads the zero point, which
/// adds `w * (zp + input_offset) = 0` to the folded bias, the reference's skipped tap. Half
/// the multiplies and widenings of [`mult1`], whose weights are widened per pixel.
#[target_feature(enable = "avx2")]
unsafe fn mult1_pairs<const R: usize>(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], folded: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    let [_, f_h, f_w, _] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let taps = f_h * f_w;
    let pairs = taps.div_ceil(2);
    if depth == 0 || !depth.is_multiple_of(16) || g.output_shape[3] != depth || !mult1_pairs_fit::<R>(p) {
        return;
    }
    let per_block = 2 * pairs;
    let rq = Requant8::new(&p.quant, &p.clamp);
    // -input_offset is the input zero point, an int8.
    let zp = (-p.quant.input_offset) as i8;
    // SAFETY: AVX2 (this function's target feature); each load reads 16 int8 of a tap's
    // filter slice (`t * depth + c + 16 <= taps * depth`).
    let wbuf = unsafe {
        let mut wbuf = [_mm256_setzero_si256(); R];
        for k in 0..depth / 16 {
            for pr in 0..pairs {
                let tap = |t: usize| _mm_loadu_si128(filter[t * depth + 16 * k..][..16].as_ptr().cast());
                let (wa, wb) = (tap(2 * pr), if 2 * pr + 1 < taps { tap(2 * pr + 1) } else { _mm_setzero_si128() });
                wbuf[k * per_block + 2 * pr] = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(wa, wb));
                wbuf[k * per_block + 2 * pr + 1] = _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(wa, wb));
            }
        }
        wbuf
    };
    // Per tap: its row and column in the window, and its offset (elements) from tap (0, 0).
    let mut tk = [(0usize, 0usize, 0isize); R];
    for (t, v) in tk.iter_mut().enumerate().take(taps) {
        let (ky, kx) = (t / f_w, t % f_w);
        *v = (ky, kx, ((ky * g.dilation_height * in_w + kx * g.dilation_width) * depth) as isize);
    }
    let tk = &tk[..taps];
    let out = &mut output[..batches * out_h * out_w * depth];
    let mut pixels = out.chunks_exact_mut(depth);
    for b in 0..batches {
        for oy in 0..out_h {
            let Window { in_y0, ky: ky_range, .. } = g.window_row(b, oy);
            for ox in 0..out_w {
                let Some(out_px) = pixels.next() else { return };
                let (in_x0, kx_range) = g.window_cols(ox);
                let interior = ky_range.len() == f_h && kx_range.len() == f_w;
                // Tap (0, 0) of the window, possibly outside the image (then only taps inside
                // the image are read).
                let origin = (((b * in_h) as isize + in_y0) * in_w as isize + in_x0) * depth as isize;
                if interior {
                    // Every tap inside the image: one bounds check for the window (its last
                    // tap is the farthest), then loads at the taps' offsets.
                    let (first, last) = (origin, origin + tk[taps - 1].2 + depth as isize);
                    assert!(first >= 0 && last as usize <= input.len());
                    for k in 0..depth / 16 {
                        let c = 16 * k;
                        let w = &wbuf[k * per_block..][..per_block];
                        // SAFETY: AVX2 (this function's target feature); each load reads 16
                        // int8 at `origin + off + c` for a tap offset `off <= tk[taps - 1].2`
                        // and `c + 16 <= depth`, inside `input` (asserted above); the bias
                        // loads read 8 i32 of `folded` (`c + 16 <= depth`).
                        unsafe {
                            let at = input.as_ptr().offset(origin).add(c);
                            let x = |t: usize| _mm_loadu_si128(at.offset(tk[t].2).cast());
                            let mut acc = [_mm256_loadu_si256(folded[c..][..8].as_ptr().cast()), _mm256_loadu_si256(folded[c + 8..][..8].as_ptr().cast())];
                            for (pr, wp) in w.chunks_exact(2).enumerate() {
                                let (xa, xb) = (x(2 * pr), if 2 * pr + 1 < taps { x(2 * pr + 1) } else { _mm_set1_epi8(zp) });
                                acc[0] = _mm256_add_epi32(acc[0], _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_unpacklo_epi8(xa, xb)), wp[0]));
                                acc[1] = _mm256_add_epi32(acc[1], _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_unpackhi_epi8(xa, xb)), wp[1]));
                            }
                            rq.store(c, acc[0], &mut out_px[c..][..8]);
                            rq.store(c + 8, acc[1], &mut out_px[c + 8..][..8]);
                        }
                    }
                    continue;
                }
                for k in 0..depth / 16 {
                    let c = 16 * k;
                    let w = &wbuf[k * per_block..][..per_block];
                    // SAFETY: AVX2 (this function's target feature); the loads read 8 i32 of
                    // `folded` and 16 int8 of the input at a tap inside the image (`origin +
                    // offset` is that pixel's first channel, `c + 16 <= depth`).
                    unsafe {
                        let zpv = _mm_set1_epi8(zp);
                        let x = |t: usize| {
                            let (ky, kx, off) = tk[t];
                            if interior || (ky_range.contains(&ky) && kx_range.contains(&kx)) {
                                _mm_loadu_si128(input[(origin + off) as usize + c..][..16].as_ptr().cast())
                            } else {
                                zpv
                            }
                        };
                        let mut acc = [_mm256_loadu_si256(folded[c..][..8].as_ptr().cast()), _mm256_loadu_si256(folded[c + 8..][..8].as_ptr().cast())];
                        for (pr, wp) in w.chunks_exact(2).enumerate() {
                            let (xa, xb) = (x(2 * pr), if 2 * pr + 1 < taps { x(2 * pr + 1) } else { zpv });
                            acc[0] = _mm256_add_epi32(acc[0], _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_unpacklo_epi8(xa, xb)), wp[0]));
                            acc[1] = _mm256_add_epi32(acc[1], _mm256_madd_epi16(_mm256_cvtepi8_epi16(_mm_unpackhi_epi8(xa, xb)), wp[1]));
                        }
                        rq.store(c, acc[0], &mut out_px[c..][..8]);
                        rq.store(c + 8, acc[1], &mut out_px[c + 8..][..8]);
                    }
                }
            }
        }
    }
}

/// Longest window [`depth8`] takes (its widened weights live on the stack, one per tap).
const DEPTH8_TAPS: usize = 64;

/// Depth multiplier 1, eight channels (`filter` `[tap][channel]`, `folded` the folded bias):
/// two horizontally adjacent output pixels per pass, one 16-lane int16 product per tap (pixel
/// `ox` in the low eight lanes, `ox + 1` in the high eight), the taps' weights widened and
/// duplicated once per call. A pixel pair whose windows are not both inside the image
/// horizontally, and the last odd pixel, take one pixel per pass. Taps in rows outside the
/// image read the zero point (`w * (zp + input_offset) = 0` on the folded bias), as in
/// [`mult1`].
#[target_feature(enable = "avx2")]
unsafe fn depth8(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], folded: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    let [_, f_h, f_w, _] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let taps = f_h * f_w;
    if depth != 8 || taps == 0 || taps > DEPTH8_TAPS {
        return;
    }
    let rq = Requant8::new(&p.quant, &p.clamp);
    // -input_offset is the input zero point, an int8.
    let zp = (-p.quant.input_offset) as i8;
    // SAFETY: AVX2 (this function's target feature); each load reads 8 int8 of a tap's
    // filter slice, or the 8 i32 of `folded`.
    let (w2, w1, bias) = unsafe {
        let mut w2 = [_mm256_setzero_si256(); DEPTH8_TAPS];
        let mut w1 = [_mm_setzero_si128(); DEPTH8_TAPS];
        for (t, (a, b)) in w2.iter_mut().zip(w1.iter_mut()).enumerate().take(taps) {
            let w = _mm_loadl_epi64(filter[t * 8..][..8].as_ptr().cast());
            *a = _mm256_cvtepi8_epi16(_mm_unpacklo_epi64(w, w));
            *b = _mm_cvtepi8_epi16(w);
        }
        (w2, w1, _mm256_loadu_si256(folded[..8].as_ptr().cast()))
    };
    let out = &mut output[..batches * out_h * out_w * 8];
    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
            let ky_range = valid_taps(in_y0, g.dilation_height, f_h, in_h);
            let x_at = |ky: usize, ix: usize| {
                let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                ((b * in_h + iy) * in_w + ix) * 8
            };
            let row_out = &mut out[(b * out_h + oy) * out_w * 8..][..out_w * 8];
            let in_x0 = |ox: usize| (ox * g.stride_width) as isize - g.pad_left as isize;
            let full = |ox: usize| valid_taps(in_x0(ox), g.dilation_width, f_w, in_w).len() == f_w;
            let mut ox = 0;
            while ox < out_w {
                if ox + 1 < out_w && full(ox) && full(ox + 1) {
                    let (xa, xb) = (in_x0(ox) as usize, in_x0(ox + 1) as usize);
                    // SAFETY: AVX2 (this function's target feature); every input load reads
                    // 8 int8 of a slice inside the input (both windows are inside
                    // horizontally, `ky` inside vertically).
                    let (a0, a1) = unsafe {
                        let (mut a0, mut a1) = (bias, bias);
                        for ky in 0..f_h {
                            for kx in 0..f_w {
                                let w = w2[ky * f_w + kx];
                                let xv = if ky_range.contains(&ky) {
                                    let dx = g.dilation_width * kx;
                                    let lo = _mm_loadl_epi64(input[x_at(ky, xa + dx)..][..8].as_ptr().cast());
                                    let hi = _mm_loadl_epi64(input[x_at(ky, xb + dx)..][..8].as_ptr().cast());
                                    _mm256_cvtepi8_epi16(_mm_unpacklo_epi64(lo, hi))
                                } else {
                                    _mm256_set1_epi16(zp as i16)
                                };
                                let prod = _mm256_mullo_epi16(xv, w);
                                a0 = _mm256_add_epi32(a0, _mm256_cvtepi16_epi32(_mm256_castsi256_si128(prod)));
                                a1 = _mm256_add_epi32(a1, _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(prod)));
                            }
                        }
                        (a0, a1)
                    };
                    // SAFETY: AVX2, as above.
                    unsafe {
                        rq.store(0, a0, &mut row_out[ox * 8..][..8]);
                        rq.store(0, a1, &mut row_out[(ox + 1) * 8..][..8]);
                    }
                    ox += 2;
                    continue;
                }
                let x0 = in_x0(ox);
                let kx_range = valid_taps(x0, g.dilation_width, f_w, in_w);
                // SAFETY: AVX2, as above; a load reads 8 int8 of the input at a tap inside
                // the image in both directions.
                let acc = unsafe {
                    let mut acc = bias;
                    for ky in 0..f_h {
                        for kx in 0..f_w {
                            let xv = if ky_range.contains(&ky) && kx_range.contains(&kx) {
                                let ix = (x0 + (g.dilation_width * kx) as isize) as usize;
                                _mm_cvtepi8_epi16(_mm_loadl_epi64(input[x_at(ky, ix)..][..8].as_ptr().cast()))
                            } else {
                                _mm_set1_epi16(zp as i16)
                            };
                            let prod = _mm_mullo_epi16(xv, w1[ky * f_w + kx]);
                            acc = _mm256_add_epi32(acc, _mm256_cvtepi16_epi32(prod));
                        }
                    }
                    acc
                };
                // SAFETY: AVX2, as above.
                unsafe { rq.store(0, acc, &mut row_out[ox * 8..][..8]) };
                ox += 1;
            }
        }
    }
}

/// Registers of widened tap-pair weights [`mult8n_pairs`] keeps on the stack (4 KiB).
const PAIR_REGS: usize = 128;

/// Whether [`mult8n_pairs`] takes this geometry: a non-empty window at most 16 taps wide
/// whose tap pairs, for every block of eight output channels, fit [`PAIR_REGS`].
fn pairs_fit(p: &DepthwiseConv2dParams<S8>) -> bool {
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
    if mult == 0 || !mult.is_multiple_of(8) || in_d * mult != depth || !pairs_fit(p) {
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

/// `depthwise_conv_2d_u8_window` (legacy uint8): depth multiplier 1, eight channels per
/// pass in int32 lanes, `bias + sum (x + input_offset) * (w + weights_offset)` over the
/// valid taps, exactly the reference's sum (both factors lie in `[-255, 255]`, so each
/// product is exact in int32; the sum wraps like the reference's). Other multipliers, and
/// an `i32::MIN` multiplier, take the reference.
pub(crate) fn depthwise_conv_2d_u8_window(_: Avx2, p: &DepthwiseConv2dParams<U8>, input: &[u8], filter: &[u8], bias: Option<&[i32]>, output: &mut [u8]) {
    let depth = p.geometry.filter_shape[3];
    match Requant8::new_u8(&p.quant, &p.clamp) {
        Some(rq) if p.depth_multiplier() == 1 && p.geometry.input_shape[3] == depth => {
            // SAFETY: the token proves that the CPU executes AVX2.
            unsafe { u8_mult1(p, input, filter, bias, &rq, output) }
        }
        _ => crate::kernels::depthwise_conv_2d::depthwise_conv_2d_u8(p, input, filter, bias, output),
    }
}

#[target_feature(enable = "avx2")]
unsafe fn u8_mult1(p: &DepthwiseConv2dParams<U8>, input: &[u8], filter: &[u8], bias: Option<&[i32]>, rq: &Requant8, output: &mut [u8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    let [_, f_h, f_w, _] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    if depth == 0 || f_h * f_w == 0 {
        return;
    }
    let (in_off, w_off) = (p.quant.input_offset, p.quant.weights_offset);
    let zeros = [0i32; 8];
    let mut pixels = output.chunks_exact_mut(depth);
    for b in 0..batches {
        for oy in 0..out_h {
            let Window { in_y0, ky: ky_range, .. } = g.window_row(b, oy);
            for ox in 0..out_w {
                let Some(out_px) = pixels.next() else { return };
                let (in_x0, kx_range) = g.window_cols(ox);
                let x_px = |ky: usize, kx: usize| {
                    let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                    let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                    ((b * in_h + iy) * in_w + ix) * depth
                };
                let w_tap = |ky: usize, kx: usize| (ky * f_w + kx) * depth;
                let mut c = 0;
                while c + 8 <= depth {
                    let start = bias.map_or(&zeros[..], |t| &t[c..][..8]);
                    // SAFETY: AVX2 (this function's target feature); the loads read `start`
                    // (8 i32) and 8-byte slices of the input and the filter.
                    unsafe {
                        let (xo, wo) = (_mm256_set1_epi32(in_off), _mm256_set1_epi32(w_off));
                        let mut acc = _mm256_loadu_si256(start.as_ptr().cast());
                        for ky in ky_range.clone() {
                            for kx in kx_range.clone() {
                                let xs = &input[x_px(ky, kx) + c..][..8];
                                let ws = &filter[w_tap(ky, kx) + c..][..8];
                                let x = _mm256_add_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64(xs.as_ptr().cast())), xo);
                                let w = _mm256_add_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64(ws.as_ptr().cast())), wo);
                                acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(x, w));
                            }
                        }
                        rq.store_u8(c, acc, &mut out_px[c..][..8]);
                    }
                    c += 8;
                }
                for ch in c..depth {
                    let mut acc = bias.map_or(0, |t| t[ch]);
                    for ky in ky_range.clone() {
                        for kx in kx_range.clone() {
                            let x = input[x_px(ky, kx) + ch] as i32 + in_off;
                            acc = acc.wrapping_add(x * (filter[w_tap(ky, kx) + ch] as i32 + w_off));
                        }
                    }
                    // SAFETY: as above (a register broadcast).
                    unsafe { rq.store_u8(ch, _mm256_set1_epi32(acc), &mut out_px[ch..][..1]) };
                }
            }
        }
    }
}
