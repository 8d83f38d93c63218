//! SPACE_TO_BATCH_ND, any element type (TFLite Micro: int8 and float32), rank 3 (NHC,
//! walked as NH1C) or 4 (NHWC). Mirrors `reference_ops::SpaceToBatchND` loop for loop:
//! output batch `b` reads input batch `b % input_batch` at block offset
//! `b / input_batch` (row `offset / block_w`, column `offset % block_w`) of the padded
//! space; positions in the padding get `pad`.
//!
//! The pad value: `reference_ops::SpaceToBatchND` `memset`s padding with
//! `params.output_offset`. TFLite sets it to the output zero point for int8 and 0 for
//! float32; TFLite Micro never sets it (its `SpaceToBatchParams` is a fresh persistent
//! buffer), so its padding is whatever that arena memory held (0 bytes in one run, 0xF3 in
//! another of the pip interpreter). TFLite's value is the one defined, so the compiler
//! passes it: the output zero point for int8, 0.0 for float32.

#[cfg(test)]
mod tests;

/// SPACE_TO_BATCH_ND parameters (everything from the constant block shape and paddings).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpaceToBatchNdParams<T> {
    /// The input as `[batch, height, width, depth]` (width 1 for a rank-3 input).
    pub input: [usize; 4],
    /// The output's `[batch, height, width]` (its depth is the input's).
    pub output: [usize; 3],
    /// `[block_height, block_width]` (`block_width` 1 for rank 3).
    pub block: [usize; 2],
    /// `[padding_top, padding_left]` (`padding_left` 0 for rank 3).
    pub pad_before: [usize; 2],
    /// What padded positions hold.
    pub pad: T,
}

/// SPACE_TO_BATCH_ND of any `Copy` element.
pub fn space_to_batch_nd<T: Copy>(p: &SpaceToBatchNdParams<T>, input: &[T], output: &mut [T]) {
    let [ib, ih, iw, depth] = p.input;
    let [ob, oh, ow] = p.output;
    let [bh, bw] = p.block;
    let [pt, pl] = p.pad_before;
    debug_assert_eq!(input.len(), ib * ih * iw * depth);
    debug_assert_eq!(output.len(), ob * oh * ow * depth);
    if ib == 0 || bw == 0 {
        return;
    }
    for out_b in 0..ob {
        let in_b = out_b % ib;
        let shift_w = (out_b / ib) % bw;
        let shift_h = (out_b / ib) / bw;
        for out_h in 0..oh {
            let h = out_h * bh + shift_h;
            for out_w in 0..ow {
                let w = out_w * bw + shift_w;
                let o = ((out_b * oh + out_h) * ow + out_w) * depth;
                let out = &mut output[o..o + depth];
                if h < pt || h >= pt + ih || w < pl || w >= pl + iw {
                    out.fill(p.pad);
                } else {
                    let i = ((in_b * ih + h - pt) * iw + w - pl) * depth;
                    out.copy_from_slice(&input[i..i + depth]);
                }
            }
        }
    }
}

/// int8 SPACE_TO_BATCH_ND.
pub fn space_to_batch_nd_s8(p: &SpaceToBatchNdParams<i8>, input: &[i8], output: &mut [i8]) {
    space_to_batch_nd(p, input, output)
}
