//! The reference loop nest of CONV_2D, written once for every numerics ([`Numerics`]):
//! TFLite's `ConvPerChannel` order (batch, output row, output column, group, output
//! channel, window), taps outside the image skipped.

use super::Conv2dParams;
use crate::kernels::numerics::Numerics;
use crate::kernels::window::valid_taps;

/// See [`super::conv_2d`].
pub fn conv_2d<N: Numerics>(p: &Conv2dParams<N>, input: &[N::Act], filter: &[N::Weight], bias: Option<&[N::Bias]>, output: &mut [N::Act]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let [out_batches, out_h, out_w, out_d2] = g.output_shape;
    debug_assert_eq!(batches, out_batches);
    debug_assert_eq!(out_d, out_d2);
    debug_assert!(f_d > 0 && in_d % f_d == 0);
    debug_assert!(p.clamp.min <= p.clamp.max);
    let groups = in_d / f_d;
    debug_assert!(groups > 0 && out_d % groups == 0);
    let filters_per_group = out_d / groups;
    debug_assert!(N::channels(&p.quant) == 1 || N::channels(&p.quant) == out_d);

    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
            // Taps outside the image are skipped (they contribute nothing, not the zero point).
            let ky_range = valid_taps(in_y0, g.dilation_height, f_h, in_h);
            for ox in 0..out_w {
                let in_x0 = (ox * g.stride_width) as isize - g.pad_left as isize;
                let kx_range = valid_taps(in_x0, g.dilation_width, f_w, in_w);
                let out_pixel = ((b * out_h + oy) * out_w + ox) * out_d;
                for grp in 0..groups {
                    let in_c0 = grp * f_d;
                    for oc in grp * filters_per_group..(grp + 1) * filters_per_group {
                        let mut acc = N::ACC_ZERO;
                        for ky in ky_range.clone() {
                            let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                            for kx in kx_range.clone() {
                                let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                                let xs = &input[((b * in_h + iy) * in_w + ix) * in_d + in_c0..][..f_d];
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
}
