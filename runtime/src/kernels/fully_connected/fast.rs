//! [`super::FullyConnectedVariant::Dot4`], int8, with the compile-time folded bias of
//! [`super::FullyConnectedVariant::pack`] (which already holds the bias): each row
//! accumulates `sum(w * x)` on top of `bias + input_offset * sum(w)`, four units at a time
//! sharing each input load. Identical to [`super::scalar`] (wrapping int32 accumulation).

use super::FullyConnectedParams;
use crate::kernels::dot::Dot;
use crate::kernels::numerics::S8;
use crate::kernels::requant::Requant;

/// See [`super::fully_connected_s8_dot4`]. Not inlined: one copy serves every layer of a
/// model (inlined into `run()` ten times, the autoencoder's layers ran 30% more
/// instructions on the Cortex-M4).
#[inline(never)]
pub(crate) fn fully_connected_dot4<D: Dot>(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let (depth, units, batches) = (p.geometry.input_depth, p.geometry.output_depth, p.geometry.batches);
    debug_assert!(p.quant.output_multiplier.len() == 1 || p.quant.output_multiplier.len() == units);
    if units == 0 || batches == 0 {
        return;
    }
    let folded = &packed[..units];
    let rq = Requant::new(&p.quant, &p.clamp);
    let filter = &filter[..units * depth];
    let blocks = units / 4;
    for (xs, out_row) in input.chunks_exact(depth).zip(output.chunks_exact_mut(units)).take(batches) {
        let xs = &xs[..depth];
        let (out_blocks, out_tail) = out_row.split_at_mut(blocks * 4);
        let (w_blocks, w_tail) = filter.split_at(blocks * 4 * depth);
        for (blk, (outs, ws)) in out_blocks.chunks_exact_mut(4).zip(w_blocks.chunks_exact(4 * depth)).enumerate() {
            let u = blk * 4;
            let (w0, rest) = ws.split_at(depth);
            let (w1, rest) = rest.split_at(depth);
            let (w2, w3) = rest.split_at(depth);
            let acc = D::dot4(xs, [w0, w1, w2, w3], [folded[u], folded[u + 1], folded[u + 2], folded[u + 3]]);
            rq.store(u, &acc, outs);
        }
        for (j, (o, w)) in out_tail.iter_mut().zip(w_tail.chunks_exact(depth)).enumerate() {
            let u = blocks * 4 + j;
            rq.store(u, &[D::dot1(xs, w, folded[u])], core::slice::from_mut(o));
        }
    }
}
