//! The reference loop nest of TRANSPOSE_CONV, written once for every numerics: for each
//! output `(b, oy, ox, oc)`, the inputs `(iy, ix, ic)` that TFLite's scatter adds into it,
//! in the scatter's order.

use super::TransposeConvParams;
use crate::kernels::numerics::Numerics;

/// The input positions `i` in `0..size` whose window (`i * stride - pad .. + taps`) covers
/// output position `o`, ascending: `tap = o + pad - i * stride` in `0..taps`.
#[inline]
fn covering(o: usize, stride: usize, pad: usize, taps: usize, size: usize) -> core::ops::Range<usize> {
    let top = o + pad; // i * stride <= top, and i * stride > top - taps
    let hi = (top / stride + 1).min(size);
    let lo = if top + 1 > taps { (top + 1 - taps).div_ceil(stride) } else { 0 };
    lo..hi.max(lo)
}

/// See [`super::transpose_conv`].
pub fn transpose_conv<N: Numerics>(p: &TransposeConvParams<N>, input: &[N::Act], filter: &[N::Weight], bias: Option<&[N::Bias]>, output: &mut [N::Act]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let [out_batches, out_h, out_w, out_d2] = g.output_shape;
    debug_assert_eq!(batches, out_batches);
    debug_assert_eq!(out_d, out_d2);
    debug_assert_eq!(in_d, f_d);
    debug_assert!(g.stride_height > 0 && g.stride_width > 0);
    debug_assert!(p.clamp.min <= p.clamp.max);
    debug_assert!(N::channels(&p.quant) == 1 || N::channels(&p.quant) == out_d);

    for b in 0..batches {
        for oy in 0..out_h {
            let iys = covering(oy, g.stride_height, g.pad_top, f_h, in_h);
            for ox in 0..out_w {
                let ixs = covering(ox, g.stride_width, g.pad_left, f_w, in_w);
                let out_pixel = ((b * out_h + oy) * out_w + ox) * out_d;
                for oc in 0..out_d {
                    let mut acc = N::ACC_ZERO;
                    for iy in iys.clone() {
                        let ky = oy + g.pad_top - iy * g.stride_height;
                        for ix in ixs.clone() {
                            let kx = ox + g.pad_left - ix * g.stride_width;
                            let xs = &input[((b * in_h + iy) * in_w + ix) * in_d..][..in_d];
                            let ws = &filter[((oc * f_h + ky) * f_w + kx) * f_d..][..f_d];
                            for (&x, &w) in xs.iter().zip(ws) {
                                acc = N::mac(acc, x, w, 0, &p.quant);
                            }
                        }
                    }
                    if let Some(bias) = bias {
                        acc = N::add_bias(acc, bias[oc]);
                    }
                    output[out_pixel + oc] = N::requantize(acc, &p.quant, oc, &p.clamp);
                }
            }
        }
    }
}
