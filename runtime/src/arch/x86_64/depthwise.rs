//! AVX2 DEPTHWISE_CONV_2D int8, depth multiplier 1: the `Mult1` variant (its packed filter
//! regrouped back to the model's `[tap][channel]` layout, once per call, on the stack) and
//! the `Window` variant with multiplier 1 (the model's filter as is). Other multipliers, and
//! filters larger than [`REGROUP_MAX`] for `Mult1`, take the portable variants.
//!
//! Sixteen channels per pass, the accumulators in registers over the window. Interior
//! windows start from the folded bias and multiply in int16 (`vpmullw`: |x * w| <= 2^14 is
//! exact), widened to int32 per tap; border windows start from the bias and accumulate
//! `(x + input_offset) * w` over their valid taps in int32 (that product needs 17 bits),
//! exactly as the reference.

use super::{Avx2, Requant8};
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::numerics::S8;
use crate::kernels::window::valid_taps;
use core::arch::x86_64::*;

/// Largest filter (`taps * depth` int8) that `Mult1` regroups on the stack.
pub(crate) const REGROUP_MAX: usize = 16384;

/// `DepthwiseConv2dVariant::Window`.
pub(crate) fn depthwise_window(_: Avx2, p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    let depth = p.geometry.filter_shape[3];
    if p.depth_multiplier() != 1 || p.geometry.input_shape[3] != depth {
        return crate::kernels::depthwise_conv_2d::fast::depthwise_window::<crate::isa::Dot>(p, input, filter, bias, packed, output);
    }
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { mult1(p, input, filter, bias, &packed[..depth], output) }
}

/// `DepthwiseConv2dVariant::Mult1`: `packed` is the folded bias, then per group of four
/// channels the words of its taps.
pub(crate) fn depthwise_mult1(_: Avx2, p: &DepthwiseConv2dParams<S8>, input: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    let [_, f_h, f_w, depth] = p.geometry.filter_shape;
    let taps = f_h * f_w;
    const LANES: usize = 4;
    if taps * depth > REGROUP_MAX || depth % LANES != 0 || taps == 0 || p.geometry.input_shape[3] != depth {
        return crate::kernels::depthwise_conv_2d::fast::depthwise_mult1::<crate::isa::Dot>(p, input, bias, packed, output);
    }
    let (folded, words) = packed.split_at(depth);
    let mut buf = [0i8; REGROUP_MAX];
    let filter = &mut buf[..taps * depth];
    for (j, group) in words.chunks_exact(taps).take(depth / LANES).enumerate() {
        for (t, &w) in group.iter().enumerate() {
            let bytes = w.to_le_bytes().map(|b| b as i8);
            filter[t * depth + j * LANES..][..LANES].copy_from_slice(&bytes);
        }
    }
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { mult1(p, input, filter, bias, folded, output) }
}

/// `acc[h]` (lanes `8h..8h + 8` of a block of `8 * H` channels) plus `x * w` over the taps
/// `(ky, kx)` of `ky_range x kx_range`, where `x_at`/`w_at` give the block's input and
/// filter slices at a tap; with the input offset added first when `offset` is `Some`.
///
/// # Safety
/// AVX2. (Slices are bounds-checked.)
#[inline(always)]
unsafe fn block<const H: usize>(
    mut acc: [__m256i; H],
    (ky_range, kx_range): (core::ops::Range<usize>, core::ops::Range<usize>),
    x_at: impl Fn(usize, usize) -> usize,
    w_at: impl Fn(usize, usize) -> usize,
    input: &[i8],
    filter: &[i8],
    offset: Option<i32>,
) -> [__m256i; H] {
    // SAFETY: AVX2 by the caller's guarantee; each load reads inside a slice of 8 * H int8.
    unsafe {
        for ky in ky_range {
            for kx in kx_range.clone() {
                let xs = &input[x_at(ky, kx)..][..8 * H];
                let ws = &filter[w_at(ky, kx)..][..8 * H];
                match offset {
                    None if H == 2 => {
                        let prod = _mm256_mullo_epi16(_mm256_cvtepi8_epi16(_mm_loadu_si128(xs.as_ptr().cast())), _mm256_cvtepi8_epi16(_mm_loadu_si128(ws.as_ptr().cast())));
                        acc[0] = _mm256_add_epi32(acc[0], _mm256_cvtepi16_epi32(_mm256_castsi256_si128(prod)));
                        acc[H - 1] = _mm256_add_epi32(acc[H - 1], _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(prod)));
                    }
                    None => {
                        for (h, a) in acc.iter_mut().enumerate() {
                            let prod = _mm_mullo_epi16(_mm_cvtepi8_epi16(_mm_loadl_epi64(xs.as_ptr().add(8 * h).cast())), _mm_cvtepi8_epi16(_mm_loadl_epi64(ws.as_ptr().add(8 * h).cast())));
                            *a = _mm256_add_epi32(*a, _mm256_cvtepi16_epi32(prod));
                        }
                    }
                    Some(off) => {
                        let off = _mm256_set1_epi32(off);
                        for (h, a) in acc.iter_mut().enumerate() {
                            let x = _mm256_add_epi32(_mm256_cvtepi8_epi32(_mm_loadl_epi64(xs.as_ptr().add(8 * h).cast())), off);
                            let w = _mm256_cvtepi8_epi32(_mm_loadl_epi64(ws.as_ptr().add(8 * h).cast()));
                            *a = _mm256_add_epi32(*a, _mm256_mullo_epi32(x, w));
                        }
                    }
                }
            }
        }
        acc
    }
}

/// Depth multiplier 1 with `filter` in `[tap][channel]` layout and `folded` the folded bias.
#[target_feature(enable = "avx2")]
unsafe fn mult1(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, folded: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    let [_, f_h, f_w, _] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    if depth == 0 || f_h * f_w == 0 {
        return;
    }
    let rq = Requant8::new(&p.quant, &p.clamp);
    let off = p.quant.input_offset;
    let zeros = [0i32; 8];
    let mut pixels = output.chunks_exact_mut(depth);
    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
            let ky_range = valid_taps(in_y0, g.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let Some(out_px) = pixels.next() else { return };
                let in_x0 = (ox * g.stride_width) as isize - g.pad_left as isize;
                let kx_range = valid_taps(in_x0, g.dilation_width, f_w, in_w);
                let interior = ky_range.len() == f_h && kx_range.len() == f_w;
                let x_px = |ky: usize, kx: usize| {
                    let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                    let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                    ((b * in_h + iy) * in_w + ix) * depth
                };
                let w_tap = |ky: usize, kx: usize| (ky * f_w + kx) * depth;
                let (init, offset) = if interior { (Some(folded), None) } else { (bias, Some(off)) };
                let start = |c: usize| init.map_or(&zeros[..], |t| &t[c..][..8]);
                let mut c = 0;
                while c + 16 <= depth {
                    // SAFETY: AVX2 (this function's target feature); the loads read
                    // `start(..)`, slices of 8 i32.
                    let acc = unsafe { [_mm256_loadu_si256(start(c).as_ptr().cast()), _mm256_loadu_si256(start(c + 8).as_ptr().cast())] };
                    // SAFETY: AVX2, as above.
                    let acc = unsafe { block::<2>(acc, (ky_range.clone(), kx_range.clone()), |y, x| x_px(y, x) + c, |y, x| w_tap(y, x) + c, input, filter, offset) };
                    // SAFETY: AVX2, as above.
                    unsafe {
                        rq.store(c, acc[0], &mut out_px[c..][..8]);
                        rq.store(c + 8, acc[1], &mut out_px[c + 8..][..8]);
                    }
                    c += 16;
                }
                if c + 8 <= depth {
                    // SAFETY: as above.
                    let acc = unsafe { [_mm256_loadu_si256(start(c).as_ptr().cast())] };
                    // SAFETY: as above.
                    let acc = unsafe { block::<1>(acc, (ky_range.clone(), kx_range.clone()), |y, x| x_px(y, x) + c, |y, x| w_tap(y, x) + c, input, filter, offset) };
                    // SAFETY: as above.
                    unsafe { rq.store(c, acc[0], &mut out_px[c..][..8]) };
                    c += 8;
                }
                for ch in c..depth {
                    let mut acc = init.map_or(0, |t| t[ch]);
                    for ky in ky_range.clone() {
                        for kx in kx_range.clone() {
                            let x = input[x_px(ky, kx) + ch] as i32 + offset.unwrap_or(0);
                            acc = acc.wrapping_add(x * filter[w_tap(ky, kx) + ch] as i32);
                        }
                    }
                    // SAFETY: as above (a register broadcast).
                    unsafe { rq.store(ch, _mm256_set1_epi32(acc), &mut out_px[ch..][..1]) };
                }
            }
        }
    }
}
