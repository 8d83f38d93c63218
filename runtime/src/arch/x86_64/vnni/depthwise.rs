//! AVX-512 DEPTHWISE_CONV_2D int8, the `Window` variant with depth multiplier 1 and at
//! least sixteen channels (the model's `[tap][channel]` filter and the folded bias, as the
//! AVX2 form reads them); other shapes take the AVX2 form.
//!
//! Thirty-two channels per pass: per tap, 32 int8 inputs and weights sign-extended to int16
//! (`vpmovsxbw`), multiplied in int16 (`vpmullw`: |x * w| <= 2^14 is exact) and widened to
//! int32 into two sixteen-lane accumulators; then sixteen, then a masked tail of fewer
//! channels (masked loads read zeros, which add nothing, and masked stores write only the
//! tail), so no channel takes a scalar path. As in the AVX2 form, every window starts from
//! the folded bias and a tap outside the image reads the input zero point, adding
//! `w * (zp + input_offset) = 0`: the reference's sum over the valid taps, modulo 2^32.

use super::{Avx512Vnni, Requant16};
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::numerics::S8;
use crate::kernels::window::valid_taps;
use core::arch::x86_64::*;

/// `DepthwiseConv2dVariant::Window`.
pub(crate) fn depthwise_window(t: Avx512Vnni, p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    let depth = p.geometry.filter_shape[3];
    if p.depth_multiplier() == 1 && p.geometry.input_shape[3] == depth && depth >= 16 {
        // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
        return unsafe { mult1(p, input, filter, &packed[..depth], output) };
    }
    crate::arch::x86_64::depthwise_window(t.avx2(), p, input, filter, bias, packed, output)
}

/// The mask of the first `n <= 32` lanes.
#[inline(always)]
fn first(n: usize) -> u32 {
    debug_assert!(n <= 32);
    if n == 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Channels `c..c + n` (`n <= 32`) of one output pixel: the folded bias plus `x * w` over
/// every tap of the window, taps outside `ky_range x kx_range` reading `zp`; two sixteen-lane
/// accumulators (channels `c..c + 16`, `c + 16..c + 32`).
///
/// # Safety
/// AVX512F/BW. `x_at(ky, kx) + n <= input.len()` for every tap inside the ranges,
/// `w_at(ky, kx) + n <= filter.len()` for every tap, `folded.len() >= n` (checked by the
/// slicing).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn channels(
    n: usize,
    [f_h, f_w]: [usize; 2],
    (ky_range, kx_range): (&core::ops::Range<usize>, &core::ops::Range<usize>),
    x_at: impl Fn(usize, usize) -> usize,
    w_at: impl Fn(usize, usize) -> usize,
    (input, filter, folded): (&[i8], &[i8], &[i32]),
    zp: i8,
) -> [__m512i; 2] {
    let m = first(n);
    let folded = &folded[..n];
    // SAFETY: AVX512F/BW by the caller's guarantee; every masked load reads the first `n`
    // elements of a slice that has them (masked-off lanes are not read).
    unsafe {
        let lo = n.min(16);
        let mut acc = [
            _mm512_maskz_loadu_epi32(first(lo) as __mmask16, folded.as_ptr()),
            if n > 16 { _mm512_maskz_loadu_epi32(first(n - 16) as __mmask16, folded[16..].as_ptr()) } else { _mm512_setzero_si512() },
        ];
        let zpv = _mm512_set1_epi16(zp as i16);
        for ky in 0..f_h {
            for kx in 0..f_w {
                let ws = &filter[w_at(ky, kx)..][..n];
                let wv = _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, ws.as_ptr()));
                let xv = if ky_range.contains(&ky) && kx_range.contains(&kx) {
                    _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, input[x_at(ky, kx)..][..n].as_ptr()))
                } else {
                    zpv
                };
                let prod = _mm512_mullo_epi16(xv, wv);
                acc[0] = _mm512_add_epi32(acc[0], _mm512_cvtepi16_epi32(_mm512_castsi512_si256(prod)));
                if n > 16 {
                    acc[1] = _mm512_add_epi32(acc[1], _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64::<1>(prod)));
                }
            }
        }
        acc
    }
}

/// Depth multiplier 1 with `filter` in `[tap][channel]` layout and `folded` the folded bias.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
unsafe fn mult1(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], folded: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, depth] = g.input_shape;
    let [_, f_h, f_w, _] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    if depth == 0 || f_h * f_w == 0 {
        return;
    }
    let rq = Requant16::new(&p.quant, &p.clamp);
    // -input_offset is the input zero point, an int8.
    let zp = (-p.quant.input_offset) as i8;
    let folded = &folded[..depth];
    let mut pixels = output.chunks_exact_mut(depth);
    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
            let ky_range = valid_taps(in_y0, g.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let Some(out_px) = pixels.next() else { return };
                let in_x0 = (ox * g.stride_width) as isize - g.pad_left as isize;
                let kx_range = valid_taps(in_x0, g.dilation_width, f_w, in_w);
                let x_px = |ky: usize, kx: usize| {
                    let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                    let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                    ((b * in_h + iy) * in_w + ix) * depth
                };
                let w_tap = |ky: usize, kx: usize| (ky * f_w + kx) * depth;
                let mut c = 0;
                while c < depth {
                    let n = (depth - c).min(32);
                    // SAFETY: this function's target features; the window's taps inside the
                    // ranges are inside the input, each with `depth >= c + n` channels.
                    unsafe {
                        let acc = channels(n, [f_h, f_w], (&ky_range, &kx_range), |y, x| x_px(y, x) + c, |y, x| w_tap(y, x) + c, (input, filter, &folded[c..]), zp);
                        let lo = n.min(16);
                        rq.store(c, acc[0], &mut out_px[c..][..lo]);
                        if n > 16 {
                            rq.store(c + 16, acc[1], &mut out_px[c + 16..][..n - 16]);
                        }
                    }
                    c += n;
                }
            }
        }
    }
}
