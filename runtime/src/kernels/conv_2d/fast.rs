//! [`super::Conv2dVariant::Pointwise`] and [`super::Conv2dVariant::Window`], the fast int8
//! variants of CONV_2D for the non-grouped convolutions that [`super::gemm`] does not take
//! (windows of more taps than its stack buffer holds), with the compile-time folded bias of
//! [`super::Conv2dVariant::pack`].
//! Generic over the dot micro-kernels `D` (the ISA seam, `crate::kernels::dot::Dot`).
//!
//! A window fully inside the input accumulates `sum(w * x)` on top of the folded bias
//! (`bias + input_offset * sum(w)`), four output channels at a time over contiguous input
//! runs: a filter row `ky` with dilation 1 is one run of `filter_width * depth` int8 in both
//! the input and the OHWI filter. Border windows accumulate `sum(w * (x + input_offset))`
//! over their valid taps from the bias, as the reference, with the same run structure.
//! Results are identical to [`super::scalar`] (wrapping int32 accumulation).

use super::Conv2dParams;
use crate::kernels::dot::Dot;
use crate::kernels::numerics::S8;
use crate::kernels::requant::Requant;
use crate::kernels::window::Window;

/// [`super::Conv2dVariant::Window`]: interior windows from the folded bias, border
/// windows from `bias` with the offset per tap (exact, as the reference).
pub(crate) fn conv_window<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [_, _, in_w, in_d] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    if out_d == 0 {
        return;
    }
    // Contiguous runs per filter row: one of `f_w * f_d` with dilation 1, else one per tap.
    let (runs, run_len) = if g.dilation_width == 1 { (1, f_w * f_d) } else { (f_w, f_d) };
    let folded = &packed[..out_d];
    let rq = Requant::new(&p.quant, &p.clamp);
    for win in g.windows() {
        let out_px = &mut output[win.output_pixel(g) * out_d..][..out_d];
        if !win.interior(g) {
            border_pixel::<D>(p, input, filter, bias, out_px, &win);
            continue;
        }
        // Interior: every tap is in the image.
        let w = Runs {
            origin: win.input_pixel(g, 0, 0) * in_d,
            row_stride: g.dilation_height * in_w * in_d,
            tap_stride: g.dilation_width * in_d,
            f_h,
            w_row: f_w * f_d,
            runs,
            run_len,
            run_w: if runs == 1 { 0 } else { f_d },
        };
        interior_pixel::<D>(&w, input, filter, folded, &rq, out_px);
    }
}

/// Where one interior window's runs are: run `r` of filter row `ky` starts at
/// `origin + ky * row_stride + r * tap_stride` in the input and `ky * w_row + r * run_w` in a
/// filter row.
struct Runs {
    origin: usize,
    row_stride: usize,
    tap_stride: usize,
    f_h: usize,
    w_row: usize,
    runs: usize,
    run_len: usize,
    run_w: usize,
}

/// One output pixel whose window lies inside the input: every channel from its folded bias,
/// four at a time. A function of its own so that the dot product's values stay in registers.
#[inline(never)]
fn interior_pixel<D: Dot>(g: &Runs, input: &[i8], filter: &[i8], folded: &[i32], rq: &Requant, out_px: &mut [i8]) {
    let out_d = out_px.len();
    let row_len = g.f_h * g.w_row;
    let blocks = out_d / 4;
    let (out_blocks, out_tail) = out_px.split_at_mut(blocks * 4);
    let (w_blocks, w_tail) = filter[..out_d * row_len].split_at(blocks * 4 * row_len);
    let (f_blocks, f_tail) = folded[..out_d].split_at(blocks * 4);
    let mut oc = 0;
    for ((outs, ws), fb) in out_blocks.chunks_exact_mut(4).zip(w_blocks.chunks_exact(4 * row_len)).zip(f_blocks.chunks_exact(4)) {
        let (w0, rest) = ws.split_at(row_len);
        let (w1, rest) = rest.split_at(row_len);
        let (w2, w3) = rest.split_at(row_len);
        let mut acc = [fb[0], fb[1], fb[2], fb[3]];
        for ky in 0..g.f_h {
            for r in 0..g.runs {
                let xs = &input[g.origin + ky * g.row_stride + r * g.tap_stride..][..g.run_len];
                let wo = ky * g.w_row + r * g.run_w;
                acc = D::dot4(xs, [&w0[wo..], &w1[wo..], &w2[wo..], &w3[wo..]], acc);
            }
        }
        rq.store(oc, &acc, outs);
        oc += 4;
    }
    for ((o, w), &f) in out_tail.iter_mut().zip(w_tail.chunks_exact(row_len)).zip(f_tail) {
        let mut acc = f;
        for ky in 0..g.f_h {
            for r in 0..g.runs {
                let xs = &input[g.origin + ky * g.row_stride + r * g.tap_stride..][..g.run_len];
                acc = D::dot1(xs, &w[ky * g.w_row + r * g.run_w..], acc);
            }
        }
        rq.store(oc, &[acc], core::slice::from_mut(o));
        oc += 1;
    }
}

/// One output pixel whose window is clipped by the image, exact: `bias + sum(w * (x +
/// input_offset))` over the valid taps only (as the reference), four output channels at a
/// time over the contiguous runs of valid taps.
#[inline(never)]
fn border_pixel<D: Dot>(
    p: &Conv2dParams<S8>,
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    out_px: &mut [i8],
    win: &Window,
) {
    let in_d = p.geometry.input_shape[3];
    let [out_d, f_h, f_w, f_d] = p.geometry.filter_shape;
    let row_len = f_h * f_w * f_d;
    let rq = Requant::new(&p.quant, &p.clamp);
    let bias_at = |c: usize| bias.map_or(0, |bs| bs[c]);
    let off = p.quant.input_offset;
    // Runs of valid taps per filter row: all valid columns at once with dilation 1.
    let (kx0, n_kx) = (win.kx.start, win.kx.len());
    let (runs, run_len) = if p.geometry.dilation_width == 1 { (1, n_kx * f_d) } else { (n_kx, f_d) };
    let x_at = |ky: usize, r: usize| win.input_pixel(&p.geometry, ky, kx0 + r) * in_d;
    let w_at = |ky: usize, r: usize| (ky * f_w + kx0 + r) * f_d;
    let blocks = out_d / 4;
    let (out_blocks, out_tail) = out_px.split_at_mut(blocks * 4);
    for (blk, (outs, ws)) in out_blocks.chunks_exact_mut(4).zip(filter.chunks_exact(4 * row_len)).enumerate() {
        let oc = blk * 4;
        let (w0, rest) = ws.split_at(row_len);
        let (w1, rest) = rest.split_at(row_len);
        let (w2, w3) = rest.split_at(row_len);
        let mut acc = [bias_at(oc), bias_at(oc + 1), bias_at(oc + 2), bias_at(oc + 3)];
        if n_kx > 0 {
            for ky in win.ky.clone() {
                for r in 0..runs {
                    let xs = &input[x_at(ky, r)..][..run_len];
                    let wo = w_at(ky, r);
                    acc = D::dot4_offset(xs, [&w0[wo..], &w1[wo..], &w2[wo..], &w3[wo..]], off, acc);
                }
            }
        }
        rq.store(oc, &acc, outs);
    }
    for (j, o) in out_tail.iter_mut().enumerate() {
        let oc = blocks * 4 + j;
        let w = &filter[oc * row_len..][..row_len];
        let mut acc = bias_at(oc);
        if n_kx > 0 {
            for ky in win.ky.clone() {
                for r in 0..runs {
                    acc = D::dot1_offset(&input[x_at(ky, r)..][..run_len], &w[w_at(ky, r)..], off, acc);
                }
            }
        }
        rq.store(oc, &[acc], core::slice::from_mut(o));
    }
}

/// [`super::Conv2dVariant::Pointwise`] (1x1 filter, no padding, every window inside the
/// input): each output pixel is
/// `out_d` dot products with one contiguous input pixel, four channels at a time. A
/// function of its own so that its few live values stay in registers.
#[inline(never)]
pub(crate) fn conv_1x1<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let [batches, in_h, in_w, in_d] = p.geometry.input_shape;
    let out_d = p.geometry.filter_shape[0];
    let [_, out_h, out_w, _] = p.geometry.output_shape;
    let folded = &packed[..out_d];
    let rq = Requant::new(&p.quant, &p.clamp);
    let blocks = out_d / 4;
    let (w_blocks, w_tail) = filter[..out_d * in_d].split_at(blocks * 4 * in_d);
    let (f_blocks, f_tail) = folded.split_at(blocks * 4);
    for b in 0..batches {
        for oy in 0..out_h {
            let row = (b * in_h + oy * p.geometry.stride_height) * in_w;
            for ox in 0..out_w {
                let xs = &input[(row + ox * p.geometry.stride_width) * in_d..][..in_d];
                let out_px = &mut output[((b * out_h + oy) * out_w + ox) * out_d..][..out_d];
                let (out_blocks, out_tail) = out_px.split_at_mut(blocks * 4);
                let mut oc = 0;
                for ((outs, ws), fb) in out_blocks.chunks_exact_mut(4).zip(w_blocks.chunks_exact(4 * in_d)).zip(f_blocks.chunks_exact(4)) {
                    let (w0, rest) = ws.split_at(in_d);
                    let (w1, rest) = rest.split_at(in_d);
                    let (w2, w3) = rest.split_at(in_d);
                    let acc = D::dot4(xs, [w0, w1, w2, w3], [fb[0], fb[1], fb[2], fb[3]]);
                    rq.store(oc, &acc, outs);
                    oc += 4;
                }
                for ((o, w), &f) in out_tail.iter_mut().zip(w_tail.chunks_exact(in_d)).zip(f_tail) {
                    rq.store(oc, &[D::dot1(xs, w, f)], core::slice::from_mut(o));
                    oc += 1;
                }
            }
        }
    }
}
