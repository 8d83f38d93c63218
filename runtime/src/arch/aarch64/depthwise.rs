//! NEON DEPTHWISE_CONV_2D int8, the `Window` variant with depth multiplier 1 (the model's
//! filter as is, `[tap][channel]`, and the folded bias). Other multipliers take the portable
//! variant (with the NEON dot micro-kernels).
//!
//! Sixteen channels per pass (then eight, then a scalar tail), the accumulators in registers
//! over the window: every window starts from the folded bias; per tap `smull` / `smull2`
//! multiply into int16 (|x * w| <= 2^14 is exact) and `saddw` / `saddw2` widen-add into the
//! four int32 accumulators. In a border window the taps outside the image read the input
//! zero point, which adds `w * (zp + input_offset) = 0` to the folded bias: the reference's
//! sum over the valid taps, modulo 2^32. Eight channels are requantized together
//! ([`super::Requant8`]).

use super::{Neon, Requant8};
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::numerics::S8;
use crate::kernels::window::Window;
use core::arch::aarch64::*;

/// `DepthwiseConv2dVariant::Window`.
pub(crate) fn depthwise_window(_: Neon, p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    let depth = p.geometry.filter_shape[3];
    if p.depth_multiplier() == 1 && p.geometry.input_shape[3] == depth {
        return mult1(p, input, filter, &packed[..depth], output);
    }
    crate::kernels::depthwise_conv_2d::fast::depthwise_window::<crate::isa::Dot>(p, input, filter, bias, packed, output)
}

/// `acc + x * w` for sixteen channels: `acc[h]` holds channels `4h..4h + 4`.
#[inline(always)]
fn mac16(acc: [int32x4_t; 4], x: int8x16_t, w: int8x16_t) -> [int32x4_t; 4] {
    // SAFETY: register-only NEON intrinsics (NEON is enabled for this build).
    unsafe {
        let lo = vmull_s8(vget_low_s8(x), vget_low_s8(w));
        let hi = vmull_high_s8(x, w);
        [vaddw_s16(acc[0], vget_low_s16(lo)), vaddw_high_s16(acc[1], lo), vaddw_s16(acc[2], vget_low_s16(hi)), vaddw_high_s16(acc[3], hi)]
    }
}

/// `acc + x * w` for eight channels: `acc[h]` holds channels `4h..4h + 4`.
#[inline(always)]
fn mac8(acc: [int32x4_t; 2], x: int8x8_t, w: int8x8_t) -> [int32x4_t; 2] {
    // SAFETY: register-only NEON intrinsics.
    unsafe {
        let prod = vmull_s8(x, w);
        [vaddw_s16(acc[0], vget_low_s16(prod)), vaddw_high_s16(acc[1], prod)]
    }
}

/// Depth multiplier 1 with `filter` in `[tap][channel]` layout and `folded` the folded bias.
fn mult1(p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], folded: &[i32], output: &mut [i8]) {
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
    let filter = &filter[..f_h * f_w * depth];
    // SAFETY: register-only NEON intrinsics.
    let (zp16, zp8) = unsafe { (vdupq_n_s8(zp), vdup_n_s8(zp)) };
    // Channels `c..c + n` of the folded bias (`n` 8 or 16), four per vector.
    let bias = |c: usize, n: usize| -> [int32x4_t; 4] {
        let mut v = [0i32; 16];
        v[..n].copy_from_slice(&folded[c..][..n]);
        // SAFETY: NEON; the loads read the 16 i32 of `v`.
        unsafe { [vld1q_s32(v.as_ptr()), vld1q_s32(v.as_ptr().add(4)), vld1q_s32(v.as_ptr().add(8)), vld1q_s32(v.as_ptr().add(12))] }
    };
    let mut pixels = output.chunks_exact_mut(depth);
    for b in 0..batches {
        for oy in 0..out_h {
            let Window { in_y0, ky: ky_range, .. } = g.window_row(b, oy);
            for ox in 0..out_w {
                let Some(out_px) = pixels.next() else { return };
                let (in_x0, kx_range) = g.window_cols(ox);
                // The input pixel of tap (ky, kx), `None` outside the image.
                let x_px = |ky: usize, kx: usize| -> Option<usize> {
                    if !(ky_range.contains(&ky) && kx_range.contains(&kx)) {
                        return None;
                    }
                    let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                    let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                    Some(((b * in_h + iy) * in_w + ix) * depth)
                };
                let mut c = 0;
                while c + 16 <= depth {
                    let mut acc = bias(c, 16);
                    for ky in 0..f_h {
                        for kx in 0..f_w {
                            let w = &filter[(ky * f_w + kx) * depth + c..][..16];
                            // SAFETY: NEON; each load reads the 16 int8 of a slice.
                            let (xv, wv) = unsafe { (x_px(ky, kx).map_or(zp16, |i| vld1q_s8(input[i + c..][..16].as_ptr())), vld1q_s8(w.as_ptr())) };
                            acc = mac16(acc, xv, wv);
                        }
                    }
                    rq.store(c, [acc[0], acc[1]], &mut out_px[c..][..8]);
                    rq.store(c + 8, [acc[2], acc[3]], &mut out_px[c + 8..][..8]);
                    c += 16;
                }
                if c + 8 <= depth {
                    let [a0, a1, ..] = bias(c, 8);
                    let mut acc = [a0, a1];
                    for ky in 0..f_h {
                        for kx in 0..f_w {
                            let w = &filter[(ky * f_w + kx) * depth + c..][..8];
                            // SAFETY: NEON; each load reads the 8 int8 of a slice.
                            let (xv, wv) = unsafe { (x_px(ky, kx).map_or(zp8, |i| vld1_s8(input[i + c..][..8].as_ptr())), vld1_s8(w.as_ptr())) };
                            acc = mac8(acc, xv, wv);
                        }
                    }
                    rq.store(c, acc, &mut out_px[c..][..8]);
                    c += 8;
                }
                if c < depth {
                    let n = depth - c;
                    let mut accs = [0i32; 8];
                    for (j, a) in accs.iter_mut().enumerate().take(n) {
                        let ch = c + j;
                        let mut s = folded[ch];
                        for ky in 0..f_h {
                            for kx in 0..f_w {
                                let x = x_px(ky, kx).map_or(zp, |i| input[i + ch]);
                                s = s.wrapping_add(x as i32 * filter[(ky * f_w + kx) * depth + ch] as i32);
                            }
                        }
                        *a = s;
                    }
                    // SAFETY: NEON; the loads read the 8 i32 of `accs`.
                    let acc = unsafe { [vld1q_s32(accs.as_ptr()), vld1q_s32(accs.as_ptr().add(4))] };
                    rq.store(c, acc, &mut out_px[c..][..n]);
                }
            }
        }
    }
}
