//! [`super::FullyConnectedVariant::Dot4`], int8, with the compile-time folded bias of
//! [`super::FullyConnectedVariant::pack`] (which already holds the bias): each row
//! accumulates `sum(w * x)` on top of `bias + input_offset * sum(w)`, four units at a time
//! sharing each input load. Identical to [`super::scalar`] (wrapping int32 accumulation).

use super::FullyConnectedParams;
use crate::kernels::dot::Dot;
use crate::kernels::numerics::S8;
use crate::kernels::requant::{pack_requant4, Requant, Requant4, PACKED_REQUANT_WORDS};

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

/// Words per unit in [`fully_connected_rows`]'s packed table: the folded bias, the
/// multiplier and the right shift.
pub(crate) const ROW_WORDS: usize = 3;

/// See [`super::fully_connected_s8_rows`]: one unit at a time, `packed` from
/// [`super::FullyConnectedVariant::pack`] (per unit the folded bias, the multiplier and the
/// right shift, so the requantization is [`crate::kernels::dot::Dot::requant_lane`] with
/// no table lookup; exact: the variant is selected only where
/// [`crate::kernels::requant::packed_requant_ok`] holds), the weights as in the model. Made
/// for layers too small for the blocked variants' set-up to pay (hello_world's 1 -> 16 and
/// 16 -> 1): the loop nest is a plain walk of units, each one [`Dot::dot1`]. Not inlined, as
/// [`fully_connected_dot4`].
#[inline(never)]
pub(crate) fn fully_connected_rows<D: Dot>(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let (depth, units, batches) = (p.geometry.input_depth, p.geometry.output_depth, p.geometry.batches);
    if depth == 0 || units == 0 {
        return;
    }
    let k = 2 * p.quant.output_offset + 1;
    let (lo, hi) = (i32::from(p.clamp.min), i32::from(p.clamp.max.max(p.clamp.min)));
    for (xs, out_row) in input.chunks_exact(depth).zip(output.chunks_exact_mut(units)).take(batches) {
        let mut done = 0;
        if D::BYTE_LOADS {
            // A byte-load implementation (RV32): four units per pass, each input byte loaded
            // once for the four rows (a pass costs about 20 instructions of set-up, a unit
            // alone about 25).
            let blocks = out_row.chunks_exact_mut(4).zip(filter.chunks_exact(4 * depth)).zip(packed.chunks_exact(4 * ROW_WORDS));
            for ((o, w), c) in blocks {
                let (w0, w) = w.split_at(depth);
                let (w1, w) = w.split_at(depth);
                let (w2, w3) = w.split_at(depth);
                let mut a = [c[0], c[ROW_WORDS], c[2 * ROW_WORDS], c[3 * ROW_WORDS]];
                for ((((&x, &b0), &b1), &b2), &b3) in xs.iter().zip(w0).zip(w1).zip(w2).zip(w3) {
                    let x = i32::from(x);
                    a[0] = a[0].wrapping_add(x * i32::from(b0));
                    a[1] = a[1].wrapping_add(x * i32::from(b1));
                    a[2] = a[2].wrapping_add(x * i32::from(b2));
                    a[3] = a[3].wrapping_add(x * i32::from(b3));
                }
                for (j, (o, a)) in o.iter_mut().zip(a).enumerate() {
                    let c = &c[j * ROW_WORDS..];
                    *o = D::requant_lane(a, c[1], c[2] as u32, k).clamp(lo, hi) as i8;
                }
                done += 4;
            }
        }
        let rest = out_row.iter_mut().zip(filter.chunks_exact(depth)).zip(packed.chunks_exact(ROW_WORDS)).skip(done);
        for ((o, w), c) in rest {
            // A byte-load implementation runs a row as one plain loop: `Dot::dot1`'s
            // unrolled body and tail cost registers the unit loop needs.
            let acc = if D::BYTE_LOADS { xs.iter().zip(w).fold(c[0], |a, (&x, &w)| a.wrapping_add(i32::from(x) * i32::from(w))) } else { D::dot1(xs, w, c[0]) };
            *o = D::requant_lane(acc, c[1], c[2] as u32, k).clamp(lo, hi) as i8;
        }
    }
}

/// Rows per block of [`fully_connected_interleaved`] and bytes per weight word.
pub(crate) const ROWS: usize = 4;

/// See [`super::fully_connected_s8_interleaved`]: `packed` from
/// [`super::FullyConnectedVariant::pack`] (the folded bias per unit, then the weights of
/// each block of four units interleaved: word `4k + j` of a block is bytes `4k..4k + 4` of
/// unit `j`'s row). Each block walks its words once, against one load and two SXTB16 of the
/// input per four bytes ([`crate::kernels::dot::Dot::dot4x4_row`]), the four accumulators in
/// registers; requantized with [`crate::kernels::dot::Dot::requant_lane`] (exact: the
/// variant is selected only where [`crate::kernels::requant::packed_requant_ok`] holds).
/// Not inlined, as [`fully_connected_dot4`].
#[inline(never)]
pub(crate) fn fully_connected_interleaved<D: Dot>(p: &FullyConnectedParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let (depth, units, batches) = (p.geometry.input_depth, p.geometry.output_depth, p.geometry.batches);
    if units == 0 || batches == 0 || depth % ROWS != 0 || units % ROWS != 0 || packed.len() < units + units * depth / ROWS {
        return;
    }
    let (folded, weights) = packed.split_at(units);
    let rq = Requant4::new(&p.quant, &p.clamp);
    let q = &p.quant;
    let per_tensor = q.output_multiplier.len() == 1;
    let mut tensor_words = [0i32; PACKED_REQUANT_WORDS];
    pack_requant4(q, 0, &mut tensor_words);
    // The requantization words of block `u` (units 4u..4u + 4).
    let words = |u: usize| {
        if per_tensor {
            tensor_words
        } else {
            let mut w = [0i32; PACKED_REQUANT_WORDS];
            pack_requant4(q, u * ROWS, &mut w);
            w
        }
    };
    for (xs, out_row) in input.chunks_exact(depth).zip(output.chunks_exact_mut(units)).take(batches) {
        if D::FC_QUADS {
            // Four blocks at a time ([`Dot::dot16x4_row`]), the last one to three alone.
            let quads = out_row.chunks_exact_mut(4 * ROWS).zip(weights.chunks_exact(4 * depth)).zip(folded.chunks_exact(4 * ROWS));
            let mut done = 0;
            for ((outs, ws), init) in quads {
                let w: [&[i32]; 4] = core::array::from_fn(|b| &ws[b * depth..][..depth]);
                let acc = D::dot16x4_row(xs, w, core::array::from_fn(|b| core::array::from_fn(|j| init[4 * b + j])));
                for (b, (o, acc)) in outs.chunks_exact_mut(ROWS).zip(acc).enumerate() {
                    if let Some(o) = o.first_chunk_mut::<4>() {
                        *o = rq.apply::<D>(acc, &words(done + b));
                    }
                }
                done += 4;
            }
            let rest = out_row.chunks_exact_mut(ROWS).zip(weights.chunks_exact(depth)).zip(folded.chunks_exact(ROWS)).skip(done);
            for (u, ((outs, ws), init)) in rest.enumerate() {
                let acc = D::dot4x4_row(xs, ws, [init[0], init[1], init[2], init[3]]);
                if let Some(o) = outs.first_chunk_mut::<4>() {
                    *o = rq.apply::<D>(acc, &words(done + u));
                }
            }
            continue;
        }
        let blocks = out_row.chunks_exact_mut(ROWS).zip(weights.chunks_exact(depth)).zip(folded.chunks_exact(ROWS));
        for (u, ((outs, ws), init)) in blocks.enumerate() {
            let acc = D::dot4x4_row(xs, ws, [init[0], init[1], init[2], init[3]]);
            if let Some(o) = outs.first_chunk_mut::<4>() {
                *o = rq.apply::<D>(acc, &words(u));
            }
        }
    }
}

/// [`fully_connected_interleaved`] for int4 weights (`crate::kernels::int4::FullyConnectedInt4`):
/// `packed` holds the folded bias per unit, then per block of four units two words of
/// nibbles per four inputs ([`crate::kernels::dot::Dot::dot4x4_row_int4`]'s order), half
/// the int8 form's words. The same requantization.
#[inline(never)]
pub(crate) fn fully_connected_interleaved_int4<D: Dot>(p: &FullyConnectedParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let (depth, units, batches) = (p.geometry.input_depth, p.geometry.output_depth, p.geometry.batches);
    let block_words = depth / 2;
    if units == 0 || batches == 0 || depth % ROWS != 0 || units % ROWS != 0 || packed.len() < units + units / ROWS * block_words {
        return;
    }
    let (folded, weights) = packed.split_at(units);
    let weights: &[u32] = bytemuck::cast_slice(weights);
    let rq = Requant4::new(&p.quant, &p.clamp);
    let q = &p.quant;
    let per_tensor = q.output_multiplier.len() == 1;
    let mut tensor_words = [0i32; PACKED_REQUANT_WORDS];
    pack_requant4(q, 0, &mut tensor_words);
    for (xs, out_row) in input.chunks_exact(depth).zip(output.chunks_exact_mut(units)).take(batches) {
        let blocks = out_row.chunks_exact_mut(ROWS).zip(weights.chunks_exact(block_words)).zip(folded.chunks_exact(ROWS));
        for (u, ((outs, ws), init)) in blocks.enumerate() {
            let acc = D::dot4x4_row_int4(xs, ws, [init[0], init[1], init[2], init[3]]);
            let words = if per_tensor {
                tensor_words
            } else {
                let mut w = [0i32; PACKED_REQUANT_WORDS];
                pack_requant4(q, u * ROWS, &mut w);
                w
            };
            if let Some(o) = outs.first_chunk_mut::<4>() {
                *o = rq.apply::<D>(acc, &words);
            }
        }
    }
}
