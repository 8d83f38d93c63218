//! The reference loop nest of CONV_2D, written once for every numerics ([`Numerics`]):
//! TFLite's `ConvPerChannel` order (batch, output row, output column, group, output
//! channel, window), taps outside the image skipped.

use super::Conv2dParams;
use crate::kernels::numerics::Numerics;

/// See [`super::conv_2d`].
pub fn conv_2d<N: Numerics>(p: &Conv2dParams<N>, input: &[N::Act], filter: &[N::Weight], bias: Option<&[N::Bias]>, output: &mut [N::Act]) {
    let g = &p.geometry;
    let [batches, _, _, in_d] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let [out_batches, _, _, out_d2] = g.output_shape;
    debug_assert_eq!(batches, out_batches);
    debug_assert_eq!(out_d, out_d2);
    debug_assert!(f_d > 0 && in_d % f_d == 0);
    debug_assert!(p.clamp.min <= p.clamp.max);
    let groups = in_d / f_d;
    debug_assert!(groups > 0 && out_d % groups == 0);
    let filters_per_group = out_d / groups;
    debug_assert!(N::channels(&p.quant) == 1 || N::channels(&p.quant) == out_d);

    // Taps outside the image are skipped (they contribute nothing, not the zero point).
    for win in g.windows() {
        let out_pixel = win.output_pixel(g) * out_d;
        for grp in 0..groups {
            let in_c0 = grp * f_d;
            for oc in grp * filters_per_group..(grp + 1) * filters_per_group {
                let mut acc = N::ACC_ZERO;
                for ky in win.ky.clone() {
                    for kx in win.kx.clone() {
                        let xs = &input[win.input_pixel(g, ky, kx) * in_d + in_c0..][..f_d];
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
