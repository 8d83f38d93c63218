//! The reference loop nest of FULLY_CONNECTED, written once for every numerics
//! ([`Numerics`]).

use super::FullyConnectedParams;
use crate::kernels::numerics::Numerics;

/// See [`super::fully_connected`].
pub fn fully_connected<N: Numerics>(
    p: &FullyConnectedParams<N>,
    input: &[N::Act],
    filter: &[N::Weight],
    bias: Option<&[N::Bias]>,
    output: &mut [N::Act],
) {
    let g = &p.geometry;
    let depth = g.input_depth;
    debug_assert!(N::channels(&p.quant) == 1 || N::channels(&p.quant) == g.output_depth);
    debug_assert!(p.clamp.min <= p.clamp.max);
    for b in 0..g.batches {
        let xs = &input[b * depth..(b + 1) * depth];
        let out_row = &mut output[b * g.output_depth..(b + 1) * g.output_depth];
        for (oc, out) in out_row.iter_mut().enumerate() {
            let ws = &filter[oc * depth..(oc + 1) * depth];
            let mut acc = N::ACC_ZERO;
            for (&x, &w) in xs.iter().zip(ws) {
                acc = N::mac(acc, x, w, p.weights_offset, &p.quant);
            }
            if let Some(bias) = bias {
                acc = N::add_bias(acc, bias[oc]);
            }
            *out = N::requantize(acc, &p.quant, oc, &p.clamp);
        }
    }
}
