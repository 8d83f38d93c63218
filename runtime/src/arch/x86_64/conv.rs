//! AVX2 CONV_2D int8: the `Pointwise`, `Window` and `Im2col` variants, reading the model's
//! OHWI filter and the variants' folded bias (`Conv2dVariant::pack`) as they are.
//!
//! `Pointwise` multiplies pairs of input pixels with the filter ([`super::gemm::rows`]).
//! `Window` and `Im2col` gather each window (border ones included) into a contiguous row,
//! taps outside the image set to the input zero point: such a tap contributes
//! `w * (zp + input_offset) = 0` on top of the folded bias, exactly as the reference's
//! skipped tap, so every window is one row of the same matrix product. Windows longer than
//! [`GATHER_MAX`] take the portable variant.

use super::gemm::rows;
use super::{Avx2, Requant8};
use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::numerics::S8;
use crate::kernels::window::valid_taps;

/// Longest window (`filter_height * filter_width * depth` int8) gathered on the stack
/// (two of them: two output pixels per pass).
pub(crate) const GATHER_MAX: usize = 4608;

/// Largest filter (`output_depth * rows padded to 8`) copied with zero-padded rows.
const PADDED_MAX: usize = 8192;

/// `Conv2dVariant::Pointwise` (1x1, no padding, every window inside the input).
pub(crate) fn conv_2d_pointwise(_: Avx2, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { pointwise(p, input, filter, packed, output) }
}

/// `Conv2dVariant::Window`: any ungrouped window.
pub(crate) fn conv_2d_window(_: Avx2, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    let [_, f_h, f_w, f_d] = p.geometry.filter_shape;
    if f_h * f_w * f_d > GATHER_MAX {
        return crate::kernels::conv_2d::fast::conv_window::<crate::isa::Dot>(p, input, filter, bias, packed, output);
    }
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { gathered(p, input, filter, packed, output) }
}

#[target_feature(enable = "avx2")]
unsafe fn pointwise(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let out_d = g.filter_shape[0];
    let [_, out_h, out_w, _] = g.output_shape;
    let n_px = batches * out_h * out_w;
    if out_d == 0 || n_px == 0 {
        return;
    }
    let folded = &packed[..out_d];
    let filter = &filter[..out_d * in_d];
    let rq = Requant8::new(&p.quant, &p.clamp);
    let at = |i: usize| {
        let (ox, oy, b) = (i % out_w, (i / out_w) % out_h, i / (out_w * out_h));
        &input[((b * in_h + oy * g.stride_height) * in_w + ox * g.stride_width) * in_d..][..in_d]
    };
    let output = &mut output[..n_px * out_d];
    let mut pairs = output.chunks_exact_mut(2 * out_d);
    let mut i = 0;
    for pair in &mut pairs {
        let (o0, o1) = pair.split_at_mut(out_d);
        // SAFETY: AVX2 (this function's target feature).
        unsafe { rows::<2>([at(i), at(i + 1)], in_d, filter, folded, &rq, [o0, o1]) };
        i += 2;
    }
    let last = pairs.into_remainder();
    if !last.is_empty() {
        // SAFETY: as above.
        unsafe { rows::<1>([at(i)], in_d, filter, folded, &rq, [last]) };
    }
}

/// Copies the window of output pixel `(b, oy, ox)` into `col` (`f_h * f_w * f_d` int8, row
/// by row), taps outside the image set to the zero point.
#[inline(always)]
pub(crate) fn gather(p: &Conv2dParams<S8>, input: &[i8], [b, oy, ox]: [usize; 3], col: &mut [i8]) {
    let g = &p.geometry;
    let [_, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, f_d] = g.filter_shape;
    // -input_offset is the input zero point, an int8.
    let zero_point = (-p.quant.input_offset) as i8;
    let in_y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
    let ky_range = valid_taps(in_y0, g.dilation_height, f_h, in_h);
    let in_x0 = (ox * g.stride_width) as isize - g.pad_left as isize;
    let kx_range = valid_taps(in_x0, g.dilation_width, f_w, in_w);
    for (ky, col_row) in col.chunks_exact_mut(f_w * f_d).enumerate() {
        if !ky_range.contains(&ky) {
            col_row.fill(zero_point);
            continue;
        }
        let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
        let row = (b * in_h + iy) * in_w;
        if g.dilation_width == 1 && kx_range.len() == f_w {
            col_row.copy_from_slice(&input[(row + in_x0 as usize) * in_d..][..f_w * f_d]);
            continue;
        }
        for (kx, tap) in col_row.chunks_exact_mut(f_d).enumerate() {
            if kx_range.contains(&kx) {
                let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                tap.copy_from_slice(&input[(row + ix) * in_d..][..f_d]);
            } else {
                tap.fill(zero_point);
            }
        }
    }
}

/// Every window gathered, two output pixels per pass, then [`rows`].
#[target_feature(enable = "avx2")]
unsafe fn gathered(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, _, _, _] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let k = f_h * f_w * f_d;
    let n_px = batches * out_h * out_w;
    if out_d == 0 || n_px == 0 || k == 0 {
        return;
    }
    debug_assert!(k <= GATHER_MAX);
    let folded = &packed[..out_d];
    let filter = &filter[..out_d * k];
    let rq = Requant8::new(&p.quant, &p.clamp);
    let pixel = |i: usize| [i / (out_w * out_h), (i / out_w) % out_h, i % out_w];
    // Rows of a length that is not a multiple of 8 (first layers: 27 = 3x3x3) end in scalar
    // products; a small filter is copied once with its rows zero-padded to a multiple of 8
    // (the gathered rows get zeros there too), so the product has no scalar tail.
    let k8 = k.div_ceil(8) * 8;
    let mut padded = [0i8; PADDED_MAX];
    let (k, filter) = if k8 != k && out_d * k8 <= PADDED_MAX && k8 <= GATHER_MAX {
        for (dst, src) in padded.chunks_exact_mut(k8).zip(filter.chunks_exact(k)) {
            dst[..k].copy_from_slice(src);
        }
        (k8, &padded[..out_d * k8])
    } else {
        (k, filter)
    };
    let window = f_h * f_w * f_d;
    let (mut buf0, mut buf1) = ([0i8; GATHER_MAX], [0i8; GATHER_MAX]);
    let (col0, col1) = (&mut buf0[..k], &mut buf1[..k]);
    let output = &mut output[..n_px * out_d];
    let mut pairs = output.chunks_exact_mut(2 * out_d);
    let mut i = 0;
    for pair in &mut pairs {
        let (o0, o1) = pair.split_at_mut(out_d);
        gather(p, input, pixel(i), &mut col0[..window]);
        gather(p, input, pixel(i + 1), &mut col1[..window]);
        // SAFETY: AVX2 (this function's target feature).
        unsafe { rows::<2>([&*col0, &*col1], k, filter, folded, &rq, [o0, o1]) };
        i += 2;
    }
    let last = pairs.into_remainder();
    if !last.is_empty() {
        gather(p, input, pixel(i), &mut col0[..window]);
        // SAFETY: as above.
        unsafe { rows::<1>([&*col0], k, filter, folded, &rq, [last]) };
    }
}
