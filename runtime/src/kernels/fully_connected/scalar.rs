//! Scalar reference implementation of [`super::fully_connected_s8`].

use super::FullyConnectedParams;
use crate::quant::{multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_i64};

/// See [`super::fully_connected_s8`].
pub fn fully_connected_s8(
    p: &FullyConnectedParams,
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    output: &mut [i8],
) {
    let depth = p.input_depth;
    let per_tensor = p.output_multiplier.len() == 1;
    debug_assert!(per_tensor || p.output_multiplier.len() == p.output_depth);
    debug_assert_eq!(p.output_multiplier.len(), p.output_shift.len());
    debug_assert!(p.output_activation_min <= p.output_activation_max);
    for b in 0..p.batches {
        let xs = &input[b * depth..(b + 1) * depth];
        let out_row = &mut output[b * p.output_depth..(b + 1) * p.output_depth];
        for (oc, out) in out_row.iter_mut().enumerate() {
            let ws = &filter[oc * depth..(oc + 1) * depth];
            let mut acc: i32 = 0;
            for (&x, &w) in xs.iter().zip(ws) {
                acc = acc.wrapping_add((w as i32 + p.filter_offset).wrapping_mul(x as i32 + p.input_offset));
            }
            if let Some(bias) = bias {
                acc = acc.wrapping_add(bias[oc]);
            }
            let q = if per_tensor { 0 } else { oc };
            let mut v = multiply_by_quantized_multiplier(acc, p.output_multiplier[q], p.output_shift[q]);
            v = v.wrapping_add(p.output_offset);
            v = v.max(p.output_activation_min).min(p.output_activation_max);
            *out = v as i8;
        }
    }
}

/// See [`super::fully_connected_s16`].
pub fn fully_connected_s16(
    p: &FullyConnectedParams,
    input: &[i16],
    filter: &[i8],
    bias: Option<&[i64]>,
    output: &mut [i16],
) {
    let depth = p.input_depth;
    let per_tensor = p.output_multiplier.len() == 1;
    for b in 0..p.batches {
        let xs = &input[b * depth..(b + 1) * depth];
        let out_row = &mut output[b * p.output_depth..(b + 1) * p.output_depth];
        for (oc, out) in out_row.iter_mut().enumerate() {
            let ws = &filter[oc * depth..(oc + 1) * depth];
            let mut acc: i64 = 0;
            for (&x, &w) in xs.iter().zip(ws) {
                // int32 product (as in C++), accumulated in int64.
                acc = acc.wrapping_add((w as i32 + p.filter_offset).wrapping_mul(x as i32 + p.input_offset) as i64);
            }
            if let Some(bias) = bias {
                acc = acc.wrapping_add(bias[oc]);
            }
            let q = if per_tensor { 0 } else { oc };
            let mut v = multiply_by_quantized_multiplier_i64(acc, p.output_multiplier[q], p.output_shift[q]);
            v = v.wrapping_add(p.output_offset);
            *out = v.max(p.output_activation_min).min(p.output_activation_max) as i16;
        }
    }
}
