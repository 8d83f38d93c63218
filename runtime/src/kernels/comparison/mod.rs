//! The comparison family: EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS and LESS_EQUAL with
//! broadcasting, bool output (one byte per element, 0 or 1, as TFLite stores `bool`).
//!
//! Mirrors TFLite Micro `comparisons.cc` and `reference_ops` `comparisons.h`:
//! - unquantized operands (bool, int32, int64, float32) compare their raw values
//!   (`ComparisonImpl` / `BroadcastComparison4DSlowImpl`), [`compare`];
//! - int8 operands are first brought to a common scale (`ComparisonWithScaling`): each value
//!   `(q + offset) << left_shift` is multiplied by its input's `QuantizeMultiplierSmallerThanOneExp`
//!   of the scale (`MultiplyByQuantizedMultiplierSmallerThanOneExp`), and the two int32 results
//!   are compared, [`compare_s8`].
//!
//! The operator is a parameter ([`Comparison`]) matched once per call, outside the loop.

use crate::kernels::nd::{broadcast_binary, Broadcast};
use crate::quant::multiply_by_quantized_multiplier_smaller_than_one_exp;

/// Which comparison (TFLite's `EqualFn`, `NotEqualFn`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// `a == b`.
    Equal,
    /// `a != b`.
    NotEqual,
    /// `a > b`.
    Greater,
    /// `a >= b`.
    GreaterEqual,
    /// `a < b`.
    Less,
    /// `a <= b`.
    LessEqual,
}

impl Comparison {
    /// `a <op> b`.
    #[inline(always)]
    pub fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Comparison::Equal => a == b,
            Comparison::NotEqual => a != b,
            Comparison::Greater => a > b,
            Comparison::GreaterEqual => a >= b,
            Comparison::Less => a < b,
            Comparison::LessEqual => a <= b,
        }
    }
}

/// Parameters of an unquantized comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComparisonParams<'a> {
    /// Which comparison.
    pub op: Comparison,
    /// Output shape and input strides; see [`crate::kernels::nd::plan_broadcast`].
    pub broadcast: Broadcast<'a>,
}

/// Parameters of an int8 comparison: TFLite's `ComparisonParams` as `ComparisonsPrepare`
/// fills it (`left_shift` 8, offsets `-zero_point`, shifts <= 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuantizedComparisonParams<'a> {
    /// Which comparison.
    pub op: Comparison,
    /// Output shape and input strides; see [`crate::kernels::nd::plan_broadcast`].
    pub broadcast: Broadcast<'a>,
    /// Bits each offset input is shifted left before rescaling (8).
    pub left_shift: i32,
    /// `-input1.zero_point`.
    pub input1_offset: i32,
    /// `input1_scale` as a fixed-point multiplier (below 1).
    pub input1_multiplier: i32,
    /// Exponent of `input1_multiplier`, `<= 0` (a right shift).
    pub input1_shift: i32,
    /// `-input2.zero_point`.
    pub input2_offset: i32,
    /// `input2_scale` as a fixed-point multiplier (below 1).
    pub input2_multiplier: i32,
    /// Exponent of `input2_multiplier`, `<= 0` (a right shift).
    pub input2_shift: i32,
}

/// `input1 <op> input2` elementwise with broadcasting (bool operands as bytes 0/1), 1 for
/// true and 0 for false.
#[inline]
pub fn compare<T: Copy + PartialOrd>(
    params: &ComparisonParams,
    input1: &[T],
    input2: &[T],
    output: &mut [u8],
) {
    scalar::compare(params, input1, input2, output)
}

/// int8 `input1 <op> input2` after rescaling both operands to a common scale.
#[inline]
pub fn compare_s8(
    params: &QuantizedComparisonParams,
    input1: &[i8],
    input2: &[i8],
    output: &mut [u8],
) {
    scalar::compare_s8(params, input1, input2, output)
}

pub mod scalar {
    //! Scalar reference implementation.
    use super::*;

    /// Runs the walk with `op` fixed (one monomorphic loop per comparison).
    #[inline(always)]
    fn walk<A: Copy, K: PartialOrd>(
        op: Comparison,
        b: &Broadcast,
        x: &[A],
        y: &[A],
        out: &mut [u8],
        key1: impl Fn(A) -> K,
        key2: impl Fn(A) -> K,
    ) {
        match op {
            Comparison::Equal => {
                broadcast_binary(b, x, y, out, |a, c| u8::from(key1(a) == key2(c)))
            }
            Comparison::NotEqual => {
                broadcast_binary(b, x, y, out, |a, c| u8::from(key1(a) != key2(c)))
            }
            Comparison::Greater => {
                broadcast_binary(b, x, y, out, |a, c| u8::from(key1(a) > key2(c)))
            }
            Comparison::GreaterEqual => {
                broadcast_binary(b, x, y, out, |a, c| u8::from(key1(a) >= key2(c)))
            }
            Comparison::Less => broadcast_binary(b, x, y, out, |a, c| u8::from(key1(a) < key2(c))),
            Comparison::LessEqual => {
                broadcast_binary(b, x, y, out, |a, c| u8::from(key1(a) <= key2(c)))
            }
        }
    }

    /// Unquantized comparison with broadcasting: `output[i]` is 1 where the comparison holds, else 0.
    pub fn compare<T: Copy + PartialOrd>(
        p: &ComparisonParams,
        input1: &[T],
        input2: &[T],
        output: &mut [u8],
    ) {
        walk(p.op, &p.broadcast, input1, input2, output, |a| a, |c| c);
    }

    /// TFLite `ComparisonWithScaling`'s per-operand value: `(q + offset) * 2^left_shift`
    /// times the multiplier (no overflow: |q + offset| <= 255 and `left_shift` is 8).
    #[inline(always)]
    pub fn scaled(q: i8, offset: i32, left_shift: i32, multiplier: i32, shift: i32) -> i32 {
        let shifted = (offset + i32::from(q)).wrapping_mul(1i32 << left_shift);
        multiply_by_quantized_multiplier_smaller_than_one_exp(shifted, multiplier, shift)
    }

    /// int8 comparison with broadcasting: both operands rescaled to a common scale ([`scaled`]) and compared; `output[i]` is 1 or 0.
    pub fn compare_s8(
        p: &QuantizedComparisonParams,
        input1: &[i8],
        input2: &[i8],
        output: &mut [u8],
    ) {
        let k1 = |q: i8| {
            scaled(
                q,
                p.input1_offset,
                p.left_shift,
                p.input1_multiplier,
                p.input1_shift,
            )
        };
        let k2 = |q: i8| {
            scaled(
                q,
                p.input2_offset,
                p.left_shift,
                p.input2_multiplier,
                p.input2_shift,
            )
        };
        walk(p.op, &p.broadcast, input1, input2, output, k1, k2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::nd::plan_broadcast;
    use crate::prepare::quantize_multiplier_smaller_than_one_exp;
    use proptest::prelude::*;
    use std::vec::Vec;

    const ALL: [Comparison; 6] = [
        Comparison::Equal,
        Comparison::NotEqual,
        Comparison::Greater,
        Comparison::GreaterEqual,
        Comparison::Less,
        Comparison::LessEqual,
    ];

    #[test]
    fn hand_computed() {
        let plan = plan_broadcast(&[4], &[1]).unwrap();
        let x = [-1i32, 0, 1, i32::MIN];
        let want: [[u8; 4]; 6] = [
            [0, 1, 0, 0],
            [1, 0, 1, 1],
            [0, 0, 1, 0],
            [0, 1, 1, 0],
            [1, 0, 0, 1],
            [1, 1, 0, 1],
        ];
        for (op, want) in ALL.iter().zip(want) {
            let mut out = [9u8; 4];
            compare(
                &ComparisonParams {
                    op: *op,
                    broadcast: plan.as_broadcast(),
                },
                &x,
                &[0],
                &mut out,
            );
            assert_eq!(out, want, "{op:?}");
        }
        // NaN compares unequal to everything, -0.0 equals 0.0.
        let plan = plan_broadcast(&[3], &[3]).unwrap();
        let mut out = [9u8; 3];
        compare(
            &ComparisonParams {
                op: Comparison::NotEqual,
                broadcast: plan.as_broadcast(),
            },
            &[1.0f32, f32::NAN, -0.0],
            &[1.0, f32::NAN, 0.0],
            &mut out,
        );
        assert_eq!(out, [0, 1, 0]);
    }

    /// The int8 form compares the dequantized values whenever they differ by more than the
    /// rescaling's rounding (2^-8 of the larger scale's step, roughly), and is exactly the
    /// raw comparison when both operands share one quantization.
    fn quantized<'a>(
        op: Comparison,
        s1: f64,
        z1: i32,
        s2: f64,
        z2: i32,
        b: &Broadcast<'a>,
    ) -> QuantizedComparisonParams<'a> {
        let (m1, sh1) = quantize_multiplier_smaller_than_one_exp(s1).unwrap();
        let (m2, sh2) = quantize_multiplier_smaller_than_one_exp(s2).unwrap();
        QuantizedComparisonParams {
            op,
            broadcast: *b,
            left_shift: 8,
            input1_offset: -z1,
            input1_multiplier: m1,
            input1_shift: sh1,
            input2_offset: -z2,
            input2_multiplier: m2,
            input2_shift: sh2,
        }
    }

    proptest! {
        /// Every element is `a <op> b` of the broadcast operands (checked against a naive index walk).
        #[test]
        fn matches_naive(a in proptest::collection::vec(any::<i32>(), 6), b in proptest::collection::vec(any::<i32>(), 3), k in 0usize..6) {
            let plan = plan_broadcast(&[2, 3], &[3]).unwrap();
            let mut out = [0u8; 6];
            compare(&ComparisonParams { op: ALL[k], broadcast: plan.as_broadcast() }, &a, &b, &mut out);
            let want: Vec<u8> = (0..6).map(|i| u8::from(ALL[k].holds(a[i], b[i % 3]))).collect();
            prop_assert_eq!(out.to_vec(), want);
        }

        /// With equal quantization the rescaled comparison is the raw one, as long as the
        /// rescaling keeps distinct values apart: `(x - z) << 8` times a multiplier of `s`
        /// moves adjacent values by `256 s`, so from `s >= 1/128` on (two steps per value)
        /// rounding cannot merge them. Below that TFLite Micro's scheme itself merges close
        /// values (e.g. s = 1.1e-4, z = 28: -75 and -60 both rescale to -3 and compare equal),
        /// which `int8_against_real_values` and the TFLite Micro vectors cover.
        #[test]
        fn int8_same_quantization_is_raw(a in proptest::collection::vec(any::<i8>(), 8), b in proptest::collection::vec(any::<i8>(), 8), k in 0usize..6, s in (1.0 / 128.0)..0.99f64, z in -128i32..=127) {
            let plan = plan_broadcast(&[8], &[8]).unwrap();
            let bc = plan.as_broadcast();
            let p = quantized(ALL[k], s, z, s, z, &bc);
            let mut out = [0u8; 8];
            compare_s8(&p, &a, &b, &mut out);
            let want: Vec<u8> = (0..8).map(|i| u8::from(ALL[k].holds(a[i], b[i]))).collect();
            prop_assert_eq!(out.to_vec(), want);
        }

        #[test]
        fn int8_against_real_values(a in any::<i8>(), b in any::<i8>(), k in 0usize..6, s1 in 1e-3f64..0.99, s2 in 1e-3f64..0.99, z1 in -128i32..=127, z2 in -128i32..=127) {
            let plan = plan_broadcast(&[1], &[1]).unwrap();
            let bc = plan.as_broadcast();
            let p = quantized(ALL[k], s1, z1, s2, z2, &bc);
            let mut out = [0u8; 1];
            compare_s8(&p, &[a], &[b], &mut out);
            let (ra, rb) = ((i32::from(a) - z1) as f64 * s1, (i32::from(b) - z2) as f64 * s2);
            // Each scaled value is within one unit (2^-8 in real terms) of the real value.
            if (ra - rb).abs() > 2.0 / 256.0 {
                prop_assert_eq!(out[0], u8::from(ALL[k].holds(ra, rb)));
            }
        }
    }
}
