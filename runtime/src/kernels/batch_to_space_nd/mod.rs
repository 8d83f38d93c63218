//! BATCH_TO_SPACE_ND, any element type (TFLite Micro: int8 and float32), rank 3 (NHC,
//! walked as NH1C) or 4 (NHWC). Mirrors `reference_ops::BatchToSpaceND` loop for loop:
//! input batch `b` goes to output batch `b % output_batch` at block offset
//! `b / output_batch` (row `offset / block_w`, column `offset % block_w`), shifted up and
//! left by the crops; rows and columns cropped away are skipped.

#[cfg(test)]
mod tests;

/// BATCH_TO_SPACE_ND parameters (everything from the constant block shape and crops).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchToSpaceNdParams {
    /// The input as `[batch, height, width, depth]` (width 1 for a rank-3 input).
    pub input: [usize; 4],
    /// The output's `[batch, height, width]` (its depth is the input's).
    pub output: [usize; 3],
    /// `[block_height, block_width]` (`block_width` 1 for rank 3).
    pub block: [usize; 2],
    /// `[crops_top, crops_left]` (`crops_left` 0 for rank 3).
    pub crop: [usize; 2],
}

/// BATCH_TO_SPACE_ND of any `Copy` element.
pub fn batch_to_space_nd<T: Copy>(p: &BatchToSpaceNdParams, input: &[T], output: &mut [T]) {
    let [ib, ih, iw, depth] = p.input;
    let [ob, oh, ow] = p.output;
    let [bh, bw] = p.block;
    debug_assert_eq!(input.len(), ib * ih * iw * depth);
    debug_assert_eq!(output.len(), ob * oh * ow * depth);
    if ob == 0 || bw == 0 {
        return;
    }
    for in_b in 0..ib {
        let out_b = in_b % ob;
        let offset = in_b / ob;
        for in_h in 0..ih {
            // `in_h * bh + offset / bw - crops_top`, skipped when outside the output.
            let Some(out_h) = (in_h * bh + offset / bw).checked_sub(p.crop[0]).filter(|&h| h < oh) else { continue };
            for in_w in 0..iw {
                let Some(out_w) = (in_w * bw + offset % bw).checked_sub(p.crop[1]).filter(|&w| w < ow) else { continue };
                let o = ((out_b * oh + out_h) * ow + out_w) * depth;
                let i = ((in_b * ih + in_h) * iw + in_w) * depth;
                output[o..o + depth].copy_from_slice(&input[i..i + depth]);
            }
        }
    }
}

/// int8 BATCH_TO_SPACE_ND.
pub fn batch_to_space_nd_s8(p: &BatchToSpaceNdParams, input: &[i8], output: &mut [i8]) {
    batch_to_space_nd(p, input, output)
}
