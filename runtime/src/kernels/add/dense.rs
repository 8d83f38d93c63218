//! int8 ADD of two operands of the output's shape (no broadcasting), with TFLite Micro's
//! three `MultiplyByQuantizedMultiplierSmallerThanOneExp` calls per element as three
//! [`Dot::doubling_high_mul`] (one SMMLAR on Armv7E-M) and rounding shifts, the offsets
//! folded. Bit for bit the scalar reference ([`super::scalar::add_sub_one`]); selected on
//! Arm and RV32 (`add_s8` / `add_s8_in_place`; on RV32 the high multiply is `mul` +
//! `mulhsu`) and inlined there, so that the parameters (constants
//! in generated code) become immediates and the loop keeps everything in registers. The
//! test suite runs it with every [`Dot`] the machine can execute.
//!
//! Per element, with `t = x + offset` (`|t| <= 255`), TFLite computes for each operand
//! `f = RDBPOT(SRDHM(t << L, m), e)` (`L = left_shift`, `e = -shift`), then
//! `RDBPOT(SRDHM(f1 + f2, mo), eo) + zero_point`, clamped:
//! - `t << L` is `(x << L) + (offset << L)`, one add with a shifted operand;
//! - `SRDHM(v, m)` for `m` in `[2^30, 2^31)` is [`Dot::doubling_high_mul`]`(v, 2m - 2^32)`
//!   (it saturates only for `v = m = i32::MIN`, which `|v| < 2^28` rules out);
//! - `RDBPOT(h, e)` (ties away from zero) is `(h + (h >> 31) + 2^(e-1)) >> e` for
//!   `e >= 1` (the floor form of [`crate::quant::rounding_divide_by_pot`]), `h` for `e = 0`.
//!
//! Bounds: `|f1|, |f2| <= |t << L| / 2 < 2^27` (`L <= 20`), so `f1 + f2` never wraps (the
//! reference's `wrapping_add` does not either) and no step overflows.

use super::AddParams;
use crate::kernels::dot::{AddConsts, Dot};
use crate::kernels::nd::is_dense;

/// `m` in `[2^30, 2^31)` as [`Dot::doubling_high_mul`]'s `2m - 2^32`.
#[inline(always)]
fn m2(m: i32) -> Option<i32> {
    (m >= 1 << 30).then(|| (m as u32).wrapping_mul(2) as i32)
}

/// `-shift` for a shift in `-31..=0`.
#[inline(always)]
fn right_shift(shift: i32) -> Option<u32> {
    (-31..=0).contains(&shift).then_some((-shift) as u32)
}

/// `RDBPOT(h, e)`, `e` in `0..=31`.
#[inline(always)]
fn rdbpot(h: i32, e: u32) -> i32 {
    if e == 0 {
        return h;
    }
    (h + (h >> 31) + (1 << (e - 1))) >> e
}

/// One operand's folded rescaling.
#[derive(Clone, Copy, Debug)]
struct Operand {
    /// `offset << L`.
    offset: i32,
    m2: i32,
    e: u32,
}

impl Operand {
    #[inline(always)]
    fn new(offset: i32, left_shift: i32, multiplier: i32, shift: i32) -> Option<Operand> {
        if !(-128..=128).contains(&offset) || !(0..=20).contains(&left_shift) {
            return None;
        }
        Some(Operand { offset: offset << left_shift, m2: m2(multiplier)?, e: right_shift(shift)? })
    }

    /// `MultiplyByQuantizedMultiplierSmallerThanOneExp((x + offset) << L, m, shift)`.
    #[inline(always)]
    fn scale<D: Dot>(&self, x: i8, left_shift: u32) -> i32 {
        let v = ((x as i32) << left_shift) + self.offset;
        rdbpot(D::doubling_high_mul(v, self.m2), self.e)
    }
}

/// [`AddParams`] refolded for this kernel; `None` when the parameters fall outside the
/// bounds the refolding is exact for (then the caller runs the scalar reference).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Folded {
    a: Operand,
    b: Operand,
    left_shift: u32,
    out_m2: i32,
    out_e: u32,
    out_offset: i32,
    min: i32,
    max: i32,
}

impl Folded {
    /// The folded parameters, when both operands are dense with the output's shape and the
    /// parameters are within bounds (every `prepare_add` result for int8: multipliers from
    /// `QuantizeMultiplierSmallerThanOneExp` are in `[2^30, 2^31)`, left shift 20).
    #[inline(always)]
    pub(crate) fn new(p: &AddParams) -> Option<Folded> {
        let b = &p.broadcast;
        if !is_dense(b.out_shape, b.in1_strides) || !is_dense(b.out_shape, b.in2_strides) {
            return None;
        }
        if !(-128..=127).contains(&p.output_offset) || p.activation_min > p.activation_max {
            return None;
        }
        Some(Folded {
            a: Operand::new(p.input1_offset, p.left_shift, p.input1_multiplier, p.input1_shift)?,
            b: Operand::new(p.input2_offset, p.left_shift, p.input2_multiplier, p.input2_shift)?,
            left_shift: p.left_shift as u32,
            out_m2: m2(p.output_multiplier)?,
            out_e: right_shift(p.output_shift)?,
            out_offset: p.output_offset,
            min: p.activation_min,
            max: p.activation_max,
        })
    }

    /// The constants as [`Dot::add_s8_lanes`] reads them.
    #[inline(always)]
    fn lanes(&self) -> AddConsts {
        // m2 = 2m - 2^32 for m in [2^30, 2^31): as u32 it is 2m.
        let m = |m2: i32| ((m2 as u32) >> 1) as i32;
        AddConsts {
            left_shift: self.left_shift,
            offset: [self.a.offset, self.b.offset],
            m: [m(self.a.m2), m(self.b.m2), m(self.out_m2)],
            e: [self.a.e, self.b.e, self.out_e],
            out_offset: self.out_offset,
            min: self.min,
            max: self.max,
        }
    }

    #[inline(always)]
    fn one<D: Dot>(&self, x: i8, y: i8) -> i8 {
        let raw = self.a.scale::<D>(x, self.left_shift) + self.b.scale::<D>(y, self.left_shift);
        let v = rdbpot(D::doubling_high_mul(raw, self.out_m2), self.out_e) + self.out_offset;
        v.max(self.min).min(self.max) as i8
    }
}

/// `output[i] = add(input1[i], input2[i])`; all three of one length.
#[inline(always)]
pub(crate) fn add_s8<D: Dot>(f: &Folded, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    if D::ADD_LANES && input1.len() >= output.len() && input2.len() >= output.len() && D::add_s8_lanes(&f.lanes(), input1, input2, output) {
        return;
    }
    for ((o, &x), &y) in output.iter_mut().zip(input1).zip(input2) {
        *o = f.one::<D>(x, y);
    }
}

/// `inout[i] = add(inout[i], input2[i])`.
#[inline(always)]
pub(crate) fn add_s8_in_place<D: Dot>(f: &Folded, inout: &mut [i8], input2: &[i8]) {
    if D::ADD_LANES && input2.len() >= inout.len() && D::add_s8_lanes_in_place(&f.lanes(), inout, input2) {
        return;
    }
    for (o, &y) in inout.iter_mut().zip(input2) {
        *o = f.one::<D>(*o, y);
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
        check_all_pairs_with::<crate::kernels::dot::scalar::Scalar>(scales, zps, act)?;
        #[cfg(tflc_arm_dsp)]
        check_all_pairs_with::<crate::kernels::dot::dsp::ArmDsp>(scales, zps, act)?;
        check_all_pairs_with::<crate::kernels::dot::rv32::Rv32>(scales, zps, act)?;
        Ok(())
    }

    fn check_all_pairs_with<D: Dot>(scales: [f32; 3], zps: [i32; 3], act: FusedActivation) -> Result<(), TestCaseError> {
        let q = |i: usize| QuantParams { scale: scales[i], zero_point: zps[i] };
        let n = 256 * 256;
        let plan = plan_broadcast(&[n], &[n]).unwrap();
        let Some(p) = prepare_add(q(0), q(1), q(2), act, plan.as_broadcast()) else { return Ok(()) };
        let f = Folded::new(&p);
        // Every `prepare_add` result is foldable: the kernel must apply.
        prop_assert!(f.is_some(), "not folded: {:?}", p);
        let f = f.unwrap();
        let x: Vec<i8> = (0..n).map(|i| (i & 0xff) as u8 as i8).collect();
        let y: Vec<i8> = (0..n).map(|i| (i >> 8) as u8 as i8).collect();
        let mut want = std::vec![0i8; n];
        scalar::add_s8(&p, &x, &y, &mut want);
        let mut got = std::vec![0i8; n];
        add_s8::<D>(&f, &x, &y, &mut got);
        prop_assert_eq!(&got, &want);
        let mut inout = x.clone();
        add_s8_in_place::<D>(&f, &mut inout, &y);
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
        assert!(Folded::new(&AddParams { input2_multiplier: (1 << 30) - 1, ..p }).is_none());
        assert!(Folded::new(&AddParams { output_shift: 1, ..p }).is_none());
    }
}
