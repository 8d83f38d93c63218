//! Fast path of [`super::fully_connected_s8`] with a compile-time folded bias
//! ([`super::FullyConnectedParams::folded_bias`], which already holds the bias): each row
//! accumulates `sum(w * x)` on top of `bias + input_offset * sum(w)`, four units at a time
//! sharing each input load. Identical to [`super::scalar`] (wrapping int32 accumulation).

use super::FullyConnectedParams;
use crate::kernels::dot::{dot1, dot4};
use crate::kernels::requant::Requant;

/// Whether [`fully_connected_s8`] can run these params: a folded bias per unit and no
/// filter offset (and a non-empty row).
#[inline]
pub fn applies(p: &FullyConnectedParams) -> bool {
    p.filter_offset == 0 && p.folded_bias.len() == p.output_depth && p.input_depth > 0
}

/// See [`super::fully_connected_s8`]; requires [`applies`]. The bias is in `folded_bias`.
pub fn fully_connected_s8(p: &FullyConnectedParams, input: &[i8], filter: &[i8], output: &mut [i8]) {
    let (depth, units) = (p.input_depth, p.output_depth);
    debug_assert!(applies(p));
    debug_assert!(p.output_multiplier.len() == 1 || p.output_multiplier.len() == units);
    debug_assert_eq!(p.output_multiplier.len(), p.output_shift.len());
    if units == 0 || p.batches == 0 {
        return;
    }
    let folded = &p.folded_bias[..units];
    let rq = Requant::new(p.output_multiplier, p.output_shift, p.output_offset, p.output_activation_min, p.output_activation_max);
    let filter = &filter[..units * depth];
    let blocks = units / 4;
    for (xs, out_row) in input.chunks_exact(depth).zip(output.chunks_exact_mut(units)).take(p.batches) {
        let xs = &xs[..depth];
        let (out_blocks, out_tail) = out_row.split_at_mut(blocks * 4);
        let (w_blocks, w_tail) = filter.split_at(blocks * 4 * depth);
        for (blk, (outs, ws)) in out_blocks.chunks_exact_mut(4).zip(w_blocks.chunks_exact(4 * depth)).enumerate() {
            let u = blk * 4;
            let (w0, rest) = ws.split_at(depth);
            let (w1, rest) = rest.split_at(depth);
            let (w2, w3) = rest.split_at(depth);
            let acc = dot4(xs, [w0, w1, w2, w3], [folded[u], folded[u + 1], folded[u + 2], folded[u + 3]]);
            rq.store(u, &acc, outs);
        }
        for (j, (o, w)) in out_tail.iter_mut().zip(w_tail.chunks_exact(depth)).enumerate() {
            let u = blocks * 4 + j;
            rq.store(u, &[dot1(xs, w, folded[u])], core::slice::from_mut(o));
        }
    }
}
