//! int8 ADD of two operands of the output's shape (no broadcasting), with TFLite Micro's
//! three `MultiplyByQuantizedMultiplierSmallerThanOneExp` calls per element refolded into
//! 32-bit multiply-adds and one 32x32->64 multiply. Bit for bit the scalar reference
//! ([`super::scalar::add_sub_one`]); selected on Arm (`add_s8` / `add_s8_in_place`), run
//! by the test suite on every machine (it is portable Rust).
//!
//! Per operand, TFLite computes `f(x) = RDBPOT(SRDHM((x + offset) << L, m), e)` with
//! `L = left_shift`, `e = -shift`. With `t = x + offset` (`|t| <= 255`):
//! - `SRDHM(a, m) = floor((a*m + 2^30) / 2^31)` for every `a, m` but `a = m = i32::MIN`
//!   (see [`crate::quant::saturating_rounding_doubling_high_mul`]); with `a = t * 2^L` and
//!   `k = 31 - L` that is `q = floor((t*m + 2^(k-1)) / 2^k)`, and splitting
//!   `m = mh * 2^k + ml` (`0 <= ml < 2^k`) gives `q = t*mh + ((t*ml + 2^(k-1)) >> k)`, two
//!   products that fit in 32 bits for `8 <= L <= 20`.
//! - `RDBPOT(q, e)` (ties away from zero) is `(q + 2^(e-1) - [q < 0]) >> e` for `e >= 1`.
//!   With `m >= 0`, `q < 0` implies `t < 0` and `q > 0` implies `t > 0`; when `q = 0` both
//!   `2^(e-1)` and `2^(e-1) - 1` shift to 0. So `[q < 0]` may be read off `t`: `t >> 31`.
//! - The operand with the larger scale has multiplier exactly 1/2 (`m = 2^30`, `e = 0`):
//!   `f = t * 2^(L-1)` exactly, which is the form above with `mh = 2^L`, `ml = 0`, `e = 1`.
//!
//! The output, `RDBPOT(SRDHM(raw, m), e) + zero_point` with `raw = f1 + f2`, is one floor
//! of a 64-bit sum: `floor(floor(a / 2^31) + n) / 2^e) = floor((a + n * 2^31) / 2^(31+e))`
//! for integer `n`, so it is the high word of `raw*m + 2^30 + (2^(e-1) - [raw < 0]) * 2^31`
//! shifted right by `e - 1` (the sign again read off `raw`, as above).
//!
//! Bounds: `|f1|, |f2| <= 255 * 2^(L-1) < 2^27`, so `raw` never wraps (the reference's
//! `wrapping_add` does not either) and the 64-bit sum stays below `2^61`.

use super::AddParams;
use crate::kernels::nd::is_dense;

/// One operand's folded rescaling.
#[derive(Clone, Copy, Debug)]
struct Operand {
    offset: i32,
    /// `m >> k`.
    m_hi: i32,
    /// `m mod 2^k`.
    m_lo: i32,
    /// `2^(k-1)`.
    half_k: i32,
    /// `2^(e-1)`.
    half_e: i32,
    k: u32,
    e: u32,
}

impl Operand {
    #[inline(always)]
    fn new(offset: i32, left_shift: i32, multiplier: i32, shift: i32) -> Option<Operand> {
        if !(-128..=128).contains(&offset) || !(8..=20).contains(&left_shift) {
            return None;
        }
        let k = (31 - left_shift) as u32;
        if shift == 0 && multiplier == 1 << 30 {
            // The operand with the larger scale (multiplier exactly 1/2): `f = t * 2^(L-1)`,
            // written as `(t * 2^L + 1 - [t < 0]) >> 1` to share the general form.
            return Some(Operand { offset, m_hi: 1 << left_shift, m_lo: 0, half_k: 1 << (k - 1), half_e: 1, k, e: 1 });
        }
        if multiplier < 0 || !(-31..=-1).contains(&shift) {
            return None;
        }
        let e = (-shift) as u32;
        Some(Operand {
            offset,
            m_hi: multiplier >> k,
            m_lo: multiplier & ((1 << k) - 1),
            half_k: 1 << (k - 1),
            half_e: 1 << (e - 1),
            k,
            e,
        })
    }

    /// `MultiplyByQuantizedMultiplierSmallerThanOneExp((x + offset) << L, m, shift)`.
    #[inline(always)]
    fn scale(&self, x: i8) -> i32 {
        let t = x as i32 + self.offset;
        let lo = t * self.m_lo + self.half_k;
        let q = t * self.m_hi + self.half_e + (lo >> self.k) + (t >> 31);
        q >> self.e
    }
}

/// [`AddParams`] refolded for this kernel; `None` when the parameters fall outside the
/// bounds the refolding is exact for (then the caller runs the scalar reference).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Folded {
    a: Operand,
    b: Operand,
    out_multiplier: i64,
    /// `2^30 + 2^(30+e)`.
    out_bias: i64,
    /// `e - 1`.
    out_shift: u32,
    out_offset: i32,
    min: i32,
    max: i32,
}

impl Folded {
    /// The folded parameters, when both operands are dense with the output's shape and the
    /// parameters are within bounds (every `prepare_add` result for int8, with the
    /// multipliers' shifts at least 1).
    #[inline(always)]
    pub(crate) fn new(p: &AddParams) -> Option<Folded> {
        let b = &p.broadcast;
        if !is_dense(b.out_shape, b.in1_strides) || !is_dense(b.out_shape, b.in2_strides) {
            return None;
        }
        Self::from_params(p)
    }

    #[inline(always)]
    fn from_params(p: &AddParams) -> Option<Folded> {
        let a = Operand::new(p.input1_offset, p.left_shift, p.input1_multiplier, p.input1_shift)?;
        let b = Operand::new(p.input2_offset, p.left_shift, p.input2_multiplier, p.input2_shift)?;
        if p.output_multiplier < 0 || !(-31..=-1).contains(&p.output_shift) || p.activation_min > p.activation_max {
            return None;
        }
        let e = (-p.output_shift) as u32;
        Some(Folded {
            a,
            b,
            out_multiplier: p.output_multiplier as i64,
            out_bias: (1i64 << 30) + (1i64 << (30 + e)),
            out_shift: e - 1,
            out_offset: p.output_offset,
            min: p.activation_min,
            max: p.activation_max,
        })
    }

    #[inline(always)]
    fn one(&self, x: i8, y: i8) -> i8 {
        let raw = self.a.scale(x) + self.b.scale(y);
        let sign = ((raw >> 31) as i64) << 31;
        let acc = raw as i64 * self.out_multiplier + self.out_bias + sign;
        let v = (((acc >> 32) as i32) >> self.out_shift) + self.out_offset;
        v.max(self.min).min(self.max) as i8
    }
}

/// `output[i] = add(input1[i], input2[i])`; all three of one length.
#[inline(never)]
pub(crate) fn add_s8(f: &Folded, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    for ((o, &x), &y) in output.iter_mut().zip(input1).zip(input2) {
        *o = f.one(x, y);
    }
}

/// `inout[i] = add(inout[i], input2[i])`.
#[inline(never)]
pub(crate) fn add_s8_in_place(f: &Folded, inout: &mut [i8], input2: &[i8]) {
    for (o, &y) in inout.iter_mut().zip(input2) {
        *o = f.one(*o, y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::add::{prepare_add, scalar};
    use crate::kernels::nd::plan_broadcast;
    use crate::prepare::FusedActivation;
    use crate::quant::QuantParams;
    use proptest::prelude::*;
    use std::vec::Vec;

    fn activation() -> impl Strategy<Value = FusedActivation> {
        prop_oneof![
            Just(FusedActivation::None),
            Just(FusedActivation::Relu),
            Just(FusedActivation::Relu6),
            Just(FusedActivation::ReluN1To1)
        ]
    }

    /// Every element of both operands' ranges, for one set of parameters: the dense kernel
    /// (out of place and in place) against the scalar reference, all 65,536 pairs.
    fn check_all_pairs(scales: [f32; 3], zps: [i32; 3], act: FusedActivation) -> Result<(), TestCaseError> {
        let q = |i: usize| QuantParams { scale: scales[i], zero_point: zps[i] };
        let n = 256 * 256;
        let plan = plan_broadcast(&[n], &[n]).unwrap();
        let Some(p) = prepare_add(q(0), q(1), q(2), act, plan.as_broadcast()) else { return Ok(()) };
        let f = Folded::new(&p);
        // Every multiplier `prepare_add` gives is foldable (inputs: 1/2 exactly or a right
        // shift >= 1; output: below 2^-11 for scale ratios within 2^8): the kernel applies.
        prop_assert!(f.is_some(), "not folded: {:?}", p);
        let f = f.unwrap();
        let x: Vec<i8> = (0..n).map(|i| (i & 0xff) as u8 as i8).collect();
        let y: Vec<i8> = (0..n).map(|i| (i >> 8) as u8 as i8).collect();
        let mut want = std::vec![0i8; n];
        scalar::add_s8(&p, &x, &y, &mut want);
        let mut got = std::vec![0i8; n];
        add_s8(&f, &x, &y, &mut got);
        prop_assert_eq!(&got, &want);
        let mut inout = x.clone();
        add_s8_in_place(&f, &mut inout, &y);
        prop_assert_eq!(&inout, &want);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        #[test]
        fn matches_reference_on_every_pair(
            sa in 1e-3f32..0.2, sb in 1e-3f32..0.2, so in 1e-3f32..0.4,
            za in -128i32..=127, zb in -128i32..=127, zo in -128i32..=127, act in activation(),
        ) {
            check_all_pairs([sa, sb, so], [za, zb, zo], act)?;
        }
    }

    #[test]
    fn edge_quantizations() {
        for scales in [[0.05, 0.05, 0.1], [0.1, 1e-4, 0.1], [0.1, 0.1, 1e-3], [1e-3, 1e-3, 0.5], [1.0, 1.0, 1.0], [0.5, 0.25, 0.125]] {
            for zps in [[0, 0, 0], [-128, 127, -128], [127, -128, 127], [3, -5, 7]] {
                for act in [FusedActivation::None, FusedActivation::Relu, FusedActivation::Relu6] {
                    check_all_pairs(scales, zps, act).unwrap();
                }
            }
        }
    }

    #[test]
    fn refuses_what_it_cannot_fold() {
        let q = QuantParams { scale: 0.1, zero_point: 0 };
        let plan = plan_broadcast(&[4, 3], &[3]).unwrap();
        let p = prepare_add(q, q, q, FusedActivation::None, plan.as_broadcast()).unwrap();
        assert!(Folded::new(&p).is_none(), "broadcast operand");
        let plan = plan_broadcast(&[3], &[3]).unwrap();
        let p = prepare_add(q, q, q, FusedActivation::None, plan.as_broadcast()).unwrap();
        assert!(Folded::new(&p).is_some());
        assert!(Folded::new(&AddParams { left_shift: 22, ..p }).is_none());
        assert!(Folded::new(&AddParams { input2_shift: 0, input2_multiplier: (1 << 30) + 1, ..p }).is_none());
        assert!(Folded::new(&AddParams { output_shift: 0, ..p }).is_none());
    }
}
