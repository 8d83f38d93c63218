//! The reduction family: SUM, REDUCE_MAX, REDUCE_MIN and REDUCE_ALL over a set of axes.
//!
//! Mirrors TFLite Micro `reduce_common.cc` and `reference_ops` `reduce.h`. The walk is
//! TFLite's `Reduce`: the input in row-major order, each element folded into the output
//! element it reduces to (`ReducedOutputOffset`), so a float32 sum adds in exactly TFLite's
//! order. The output starts at the reducer's initial value (`InitTensorDataForReduce`):
//! 0 for SUM, `numeric_limits::lowest()` for MAX (for float32 `-f32::MAX`, not `-inf`),
//! `max()` for MIN, `true` for ALL; the reducer is TFLite's lambda (`in > current ? in :
//! current` for MAX, so NaN never wins). An input with a zero dimension leaves the
//! initialised output (TFLite returns early).
//!
//! Quantized SUM (int8, int16) is `QuantizedMeanOrSum` with `compute_sum`: int32 sums in a
//! scratch buffer (wrapping, `AddTensorValuesWithExpectedOverflow`), then each output is
//! `MultiplyByQuantizedMultiplier(sum - zp_in * n, multiplier, shift) + zp_out` clamped to
//! the type, with `n` the number of elements reduced into it; a zero dimension leaves every
//! output 0.

use crate::kernels::nd::MAX_RANK;
use crate::quant::multiply_by_quantized_multiplier;

/// The walk: the input shape and, per input dimension, the stride of the output element it
/// reduces to (0 for a reduced dimension). Both slices have the same length
/// `0..=MAX_RANK`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReduceParams<'a> {
    /// The input's shape.
    pub input_shape: &'a [usize],
    /// Per input dimension, the stride of the output element it reduces to (0 where reduced).
    pub output_strides: &'a [usize],
}

/// Quantized SUM: the walk, the requantization (`QuantizeMultiplier(in_scale /
/// out_scale)`), the zero points and the number of elements reduced into each output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuantizedSumParams<'a> {
    /// The walk from input to output elements.
    pub reduce: ReduceParams<'a>,
    /// Fixed-point multiplier of `input_scale / output_scale`.
    pub multiplier: i32,
    /// Exponent of `multiplier` (positive: a left shift).
    pub shift: i32,
    /// The input's zero point (`zero_point * reduced_count` is subtracted from each sum).
    pub input_zero_point: i32,
    /// The output's zero point (added).
    pub output_zero_point: i32,
    /// Number of input elements summed into each output.
    pub reduced_count: i32,
}

/// The initial value and reducer of REDUCE_MAX / REDUCE_MIN on a type.
pub trait MinMax: Copy + PartialOrd {
    /// The type's smallest value: REDUCE_MAX starts from it.
    const LOWEST: Self;
    /// The type's largest value: REDUCE_MIN starts from it.
    const HIGHEST: Self;
}
impl MinMax for f32 {
    const LOWEST: f32 = -f32::MAX;
    const HIGHEST: f32 = f32::MAX;
}
impl MinMax for i8 {
    const LOWEST: i8 = i8::MIN;
    const HIGHEST: i8 = i8::MAX;
}

/// float32 SUM.
#[inline]
pub fn sum_f32(p: &ReduceParams, input: &[f32], output: &mut [f32]) {
    scalar::reduce(p, input, output, 0.0, |current, x| x + current)
}

/// float32 MEAN: TFLite's `reference_ops::Mean<float, float>`, the sum in TFLite's order
/// (as [`sum_f32`]) then each output divided by `count`, the number of elements reduced
/// into it, as a float (`temp_sum[i] / static_cast<float>(num_elements_in_axis)`, skipped
/// when it is 0). TFLite Micro's 4-D `keep_dims` path over height and width
/// (`Mean(MeanParams, ...)`) adds the same elements in the same order from 0 and divides
/// by the same float, so it gives the same bits.
#[inline]
pub fn mean_f32(p: &ReduceParams, count: f32, input: &[f32], output: &mut [f32]) {
    sum_f32(p, input, output);
    if count > 0.0 {
        for y in output.iter_mut() {
            *y /= count;
        }
    }
}

/// REDUCE_MAX (float32; int8 with equal input and output quantization).
#[inline]
pub fn reduce_max<T: MinMax>(p: &ReduceParams, input: &[T], output: &mut [T]) {
    scalar::reduce(p, input, output, T::LOWEST, |current, x| {
        if x > current {
            x
        } else {
            current
        }
    })
}

/// REDUCE_MIN (float32; int8 with equal input and output quantization).
#[inline]
pub fn reduce_min<T: MinMax>(p: &ReduceParams, input: &[T], output: &mut [T]) {
    scalar::reduce(p, input, output, T::HIGHEST, |current, x| {
        if x < current {
            x
        } else {
            current
        }
    })
}

/// REDUCE_ALL on bool bytes.
#[inline]
pub fn reduce_all(p: &ReduceParams, input: &[u8], output: &mut [u8]) {
    scalar::reduce(p, input, output, 1, |current, x| {
        u8::from(x != 0 && current != 0)
    })
}

/// int8 SUM; `scratch` holds one int32 per output element.
#[inline]
pub fn sum_s8(p: &QuantizedSumParams, input: &[i8], output: &mut [i8], scratch: &mut [i32]) {
    scalar::quantized_sum(p, input, output, scratch)
}

/// int16 SUM; `scratch` holds one int32 per output element.
#[inline]
pub fn sum_s16(p: &QuantizedSumParams, input: &[i16], output: &mut [i16], scratch: &mut [i32]) {
    scalar::quantized_sum(p, input, output, scratch)
}

pub mod scalar {
    //! Scalar reference implementation.
    use super::*;

    /// TFLite `Reduce`: `output[o] = f(output[o], input[i])` over the input in row-major
    /// order, `output` first set to `init`; nothing more when the input is empty.
    #[inline(always)]
    pub fn reduce<T: Copy, A: Copy>(
        p: &ReduceParams,
        input: &[T],
        output: &mut [A],
        init: A,
        f: impl Fn(A, T) -> A,
    ) {
        let rank = p.input_shape.len();
        debug_assert!(rank <= MAX_RANK);
        debug_assert_eq!(p.output_strides.len(), rank);
        output.fill(init);
        if input.is_empty() {
            return;
        }
        if rank == 0 {
            output[0] = f(output[0], input[0]);
            return;
        }
        let inner = p.input_shape[rank - 1];
        let s = p.output_strides[rank - 1];
        let mut idx = [0usize; MAX_RANK];
        let mut o = 0usize;
        for row in input.chunks_exact(inner) {
            if s == 0 {
                let mut acc = output[o];
                for &x in row {
                    acc = f(acc, x);
                }
                output[o] = acc;
            } else {
                for (j, &x) in row.iter().enumerate() {
                    output[o + j * s] = f(output[o + j * s], x);
                }
            }
            let mut d = rank - 1;
            while d > 0 {
                d -= 1;
                idx[d] += 1;
                o += p.output_strides[d];
                if idx[d] < p.input_shape[d] {
                    break;
                }
                o -= p.output_strides[d] * p.input_shape[d];
                idx[d] = 0;
            }
        }
    }

    /// The quantized integer types of SUM.
    pub trait Quantized: Copy + Into<i32> {
        /// The type's smallest value, as `i32`.
        const MIN: i32;
        /// The type's largest value, as `i32`.
        const MAX: i32;
        /// Narrows `v`, already clamped to `MIN..=MAX`.
        fn from_clamped(v: i32) -> Self;
    }
    impl Quantized for i8 {
        const MIN: i32 = i8::MIN as i32;
        const MAX: i32 = i8::MAX as i32;
        fn from_clamped(v: i32) -> Self {
            v as i8
        }
    }
    impl Quantized for i16 {
        const MIN: i32 = i16::MIN as i32;
        const MAX: i32 = i16::MAX as i32;
        fn from_clamped(v: i32) -> Self {
            v as i16
        }
    }

    /// TFLite `QuantizedMeanOrSum` with `compute_sum`.
    pub fn quantized_sum<T: Quantized>(
        p: &QuantizedSumParams,
        input: &[T],
        output: &mut [T],
        scratch: &mut [i32],
    ) {
        debug_assert!(scratch.len() >= output.len());
        let sums = &mut scratch[..output.len()];
        if input.is_empty() {
            output.fill(T::from_clamped(0));
            return;
        }
        reduce(&p.reduce, input, sums, 0i32, |current, x| {
            current.wrapping_add(x.into())
        });
        let offset = p.input_zero_point.wrapping_mul(p.reduced_count);
        for (o, &s) in output.iter_mut().zip(sums.iter()) {
            let v = multiply_by_quantized_multiplier(s.wrapping_sub(offset), p.multiplier, p.shift)
                .wrapping_add(p.output_zero_point);
            *o = T::from_clamped(v.clamp(T::MIN, T::MAX));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::vec::Vec;

    /// Input [2, 3, 4] reduced over axis 1 (output strides [4, 0, 1]) and over axes 0 and 2
    /// (output strides [0, 1, 0]), against the naive sums.
    #[test]
    fn sums_over_axes() {
        let x: Vec<f32> = (0..24).map(|v| v as f32).collect();
        let mut out = [0f32; 8];
        sum_f32(
            &ReduceParams {
                input_shape: &[2, 3, 4],
                output_strides: &[4, 0, 1],
            },
            &x,
            &mut out,
        );
        let want: Vec<f32> = (0..8)
            .map(|o| (0..3).map(|j| x[(o / 4) * 12 + j * 4 + o % 4]).sum())
            .collect();
        assert_eq!(out.to_vec(), want);
        let mut out = [0f32; 3];
        sum_f32(
            &ReduceParams {
                input_shape: &[2, 3, 4],
                output_strides: &[0, 1, 0],
            },
            &x,
            &mut out,
        );
        let want: Vec<f32> = (0..3)
            .map(|j| (0..24).filter(|i| (i / 4) % 3 == j).map(|i| x[i]).sum())
            .collect();
        assert_eq!(out.to_vec(), want);
    }

    #[test]
    fn min_max_all_edges() {
        let p = ReduceParams {
            input_shape: &[4],
            output_strides: &[0],
        };
        let mut out = [0f32; 1];
        reduce_max(&p, &[f32::NEG_INFINITY; 4], &mut out);
        assert_eq!(out, [-f32::MAX]);
        reduce_max(&p, &[f32::NAN, 1.0, f32::NAN, -2.0], &mut out);
        assert_eq!(out, [1.0]);
        reduce_min(&p, &[f32::NAN, 1.0, f32::INFINITY, -2.0], &mut out);
        assert_eq!(out, [-2.0]);
        let mut out = [0u8; 1];
        reduce_all(&p, &[1, 1, 0, 1], &mut out);
        assert_eq!(out, [0]);
        reduce_all(&p, &[1, 1, 1, 1], &mut out);
        assert_eq!(out, [1]);
        // Empty input: the initial value.
        let p = ReduceParams {
            input_shape: &[0, 3],
            output_strides: &[0, 1],
        };
        let mut out = [0i8; 3];
        reduce_min::<i8>(&p, &[], &mut out);
        assert_eq!(out, [127; 3]);
        let q = QuantizedSumParams {
            reduce: p,
            multiplier: 1 << 30,
            shift: 1,
            input_zero_point: 3,
            output_zero_point: 5,
            reduced_count: 0,
        };
        let mut out = [9i8; 3];
        sum_s8(&q, &[], &mut out, &mut [0; 3]);
        assert_eq!(out, [0; 3]);
    }

    proptest! {
        /// int8 SUM with a unit multiplier is the saturated sum of `q - zp_in` plus `zp_out`.
        #[test]
        fn quantized_sum_unit_scale(x in proptest::collection::vec(any::<i8>(), 12), zi in -128i32..=127, zo in -128i32..=127) {
            let q = QuantizedSumParams {
                reduce: ReduceParams { input_shape: &[3, 4], output_strides: &[1, 0] },
                multiplier: 1 << 30, shift: 1, input_zero_point: zi, output_zero_point: zo, reduced_count: 4,
            };
            let mut out = [0i8; 3];
            sum_s8(&q, &x, &mut out, &mut [0; 3]);
            let want: Vec<i8> = (0..3).map(|r| {
                let s: i32 = x[r * 4..r * 4 + 4].iter().map(|&v| i32::from(v) - zi).sum();
                (s + zo).clamp(-128, 127) as i8
            }).collect();
            prop_assert_eq!(out.to_vec(), want);
        }

        #[test]
        fn max_min_match_iterators(x in proptest::collection::vec(any::<i8>(), 12)) {
            let p = ReduceParams { input_shape: &[3, 4], output_strides: &[0, 1] };
            let (mut hi, mut lo) = ([0i8; 4], [0i8; 4]);
            reduce_max(&p, &x, &mut hi);
            reduce_min(&p, &x, &mut lo);
            for c in 0..4 {
                prop_assert_eq!(hi[c], (0..3).map(|r| x[r * 4 + c]).max().unwrap());
                prop_assert_eq!(lo[c], (0..3).map(|r| x[r * 4 + c]).min().unwrap());
            }
        }
    }
}
