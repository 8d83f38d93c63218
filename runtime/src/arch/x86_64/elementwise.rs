//! AVX2 int8 elementwise binary micro-kernels: ADD and SUB (TFLite's left-shift scheme), MUL,
//! eight lanes, for the one host loop nest (`crate::kernels::elementwise::lanes`: the
//! parameter folding `AddSub` / `Mul`, the walk over the broadcast's rows, `drive` and the
//! entries `binary_entries!` writes), which the AVX-512 micro-kernels
//! (`super::vnni::elementwise`) share; both are bit-exact with the scalar references
//! (`kernels::add::scalar`, `kernels::sub::scalar`, `kernels::mul::scalar`), which the
//! entries call for parameters outside the bounds stated below.
//!
//! **ADD / SUB.** Per element TFLite computes, for each operand, with `t = x + offset`,
//! `f = RDBPOT(SRDHM(t << L, m), e)` (`L = left_shift`, `e = -shift`), then
//! `RDBPOT(SRDHM(f1 ± f2, mo), eo) + zero_point`, clamped. The operand term is exact in
//! int32 lanes without 64-bit products:
//! - `SRDHM(t << L, m) = floor((t m 2^L + 2^30) / 2^31) = floor((t m + 2^(k-1)) / 2^k)` with
//!   `k = 31 - L` (divide numerator and denominator by `2^L`);
//! - with `m = mh 2^k + ml` (`mh = m >> k` arithmetic, `ml = m & (2^k - 1)`), that is
//!   `t mh + ((t ml + 2^(k-1)) >> k)`: two `vpmulld` and a shift. For `|t| <= 256`
//!   (`|offset| <= 128`) and `L` in `9..=20` (`k <= 22`), `|t ml| + 2^(k-1) < 2^31` and
//!   `|t mh| <= 2^28`, so nothing wraps (and `t << L` is never `i32::MIN`: no saturation);
//! - `RDBPOT(h, e)` (ties away from zero) is `(h + (h >> 31) + 2^(e-1)) >> e` for `e >= 1`
//!   and `h` for `e = 0`; `|h| <= 2^28 + 2^9`, so the sum stays in int32.
//!
//! `|f1 ± f2| < 2^30` never wraps, and is never `i32::MIN`, so the output stage is
//! [`super::requant::requant_lanes`] (`MultiplyByQuantizedMultiplier`, exact for any
//! multiplier when its input is not `i32::MIN`), with the output shift `<= 0`.
//!
//! **MUL.** `MultiplyByQuantizedMultiplier((x + o1) (y + o2), m, s)` + offset, clamped:
//! the product is one `vpmulld` (`|product| <= 2^16`), the rest is `requant_lanes`, exact
//! unless `m = i32::MIN` (refused).
//!
//! **Broadcasting.** The kernels run on rows: the output's innermost dimension, along which
//! each operand is either a contiguous row or one repeated element (its stride there is 1
//! or 0, which `nd::plan_broadcast` always produces). Operands of the output's shape are
//! one row.


use super::requant::requant;
use super::Avx2;
use crate::kernels::elementwise::lanes::{binary_entries, AddSub, Mul, Operand, PairMicro};
use core::arch::x86_64::*;

/// An [`Operand`] in registers.
#[derive(Clone, Copy)]
struct OperandV {
    offset: __m256i,
    high: __m256i,
    low: __m256i,
    round: __m256i,
    k: __m128i,
    e: __m128i,
    half: __m256i,
    neg: __m256i,
}

impl OperandV {
    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn new(o: &Operand) -> OperandV {
        // SAFETY: register-only AVX2 intrinsics, executable by the caller's guarantee.
        unsafe {
            OperandV {
                offset: _mm256_set1_epi32(o.offset),
                high: _mm256_set1_epi32(o.high),
                low: _mm256_set1_epi32(o.low),
                round: _mm256_set1_epi32(o.round),
                k: _mm_cvtsi32_si128(o.k),
                e: _mm_cvtsi32_si128(o.e),
                half: _mm256_set1_epi32(o.half),
                neg: _mm256_set1_epi32(o.neg),
            }
        }
    }

    /// `MultiplyByQuantizedMultiplierSmallerThanOneExp((x + offset) << L, m, shift)` of
    /// eight int8 widened to int32 lanes.
    ///
    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn scale(&self, x: __m256i) -> __m256i {
        // SAFETY: register-only AVX2 intrinsics, executable by the caller's guarantee.
        unsafe {
            let t = _mm256_add_epi32(x, self.offset);
            let lo = _mm256_sra_epi32(_mm256_add_epi32(_mm256_mullo_epi32(t, self.low), self.round), self.k);
            let h = _mm256_add_epi32(_mm256_mullo_epi32(t, self.high), lo);
            let sign = _mm256_and_si256(_mm256_srai_epi32::<31>(h), self.neg);
            _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(h, sign), self.half), self.e)
        }
    }
}

/// Eight int8 as int32 lanes.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn widen8(x: &[i8; 8]) -> __m256i {
    // SAFETY: AVX2; the load reads the 8 bytes of `x`.
    unsafe { _mm256_cvtepi8_epi32(_mm_loadl_epi64(x.as_ptr().cast())) }
}

// ADD (`SUB = false`) or SUB of eight pairs.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn add_sub8<const SUB: bool>(f: &AddSub, a: &OperandV, b: &OperandV, x: &[i8; 8], y: &[i8; 8]) -> [i8; 8] {
    // SAFETY: register-only AVX2 intrinsics (and `widen8`'s loads of two arrays),
    // executable by the caller's guarantee.
    unsafe {
        let fa = a.scale(widen8(x));
        let fb = b.scale(widen8(y));
        let raw = if SUB { _mm256_sub_epi32(fa, fb) } else { _mm256_add_epi32(fa, fb) };
        let m = _mm256_set1_epi32(f.out_multiplier);
        let s = _mm256_set1_epi32(f.out_shift);
        requant(raw, m, s, f.out_offset, f.min, f.max, false).to_le_bytes().map(|v| v as i8)
    }
}

/// MUL of eight pairs.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn mul8(f: &Mul, x: &[i8; 8], y: &[i8; 8]) -> [i8; 8] {
    // SAFETY: register-only AVX2 intrinsics (and `widen8`'s loads of two arrays),
    // executable by the caller's guarantee.
    unsafe {
        let ta = _mm256_add_epi32(widen8(x), _mm256_set1_epi32(f.a_offset));
        let tb = _mm256_add_epi32(widen8(y), _mm256_set1_epi32(f.b_offset));
        let p = _mm256_mullo_epi32(ta, tb);
        let (m, s) = (_mm256_set1_epi32(f.multiplier), _mm256_set1_epi32(f.shift));
        requant(p, m, s, f.out_offset, f.min, f.max, false).to_le_bytes().map(|v| v as i8)
    }
}

/// ADD (`SUB = false`) or SUB on eight lanes: both operands' rescaling in registers.
struct AddSub8<'f, const SUB: bool> {
    f: &'f AddSub,
    a: OperandV,
    b: OperandV,
}

impl<'f, const SUB: bool> AddSub8<'f, SUB> {
    #[inline(always)]
    fn new(_: Avx2, f: &'f AddSub) -> Self {
        // SAFETY: the token proves AVX2.
        let (a, b) = unsafe { (OperandV::new(&f.a), OperandV::new(&f.b)) };
        AddSub8 { f, a, b }
    }
}

impl<const SUB: bool> PairMicro<8> for AddSub8<'_, SUB> {
    #[inline(always)]
    fn apply(&self, x: &[i8; 8], y: &[i8; 8]) -> [i8; 8] {
        // SAFETY: made from the AVX2 token (`new`).
        unsafe { add_sub8::<SUB>(self.f, &self.a, &self.b, x, y) }
    }
}

/// MUL on eight lanes (the token proves AVX2).
struct Mul8<'f>(Avx2, &'f Mul);

impl<'f> Mul8<'f> {
    #[inline(always)]
    fn new(t: Avx2, f: &'f Mul) -> Self {
        Mul8(t, f)
    }
}

impl PairMicro<8> for Mul8<'_> {
    #[inline(always)]
    fn apply(&self, x: &[i8; 8], y: &[i8; 8]) -> [i8; 8] {
        // SAFETY: the token (`self.0`) proves AVX2.
        unsafe { mul8(self.1, x, y) }
    }
}

binary_entries!(Avx2, "avx2", 8, AddSub8, Mul8);

#[cfg(test)]
pub(crate) mod tests {
    //! The AVX2 and AVX-512 entry points as `kernel_tests!` lines call them (the token made
    //! here, after the suite's detection test), and an exhaustive comparison with the
    //! scalar references: every pair of int8 operands for edge parameters.
    use super::{AddSub, Mul};
    use crate::arch::x86_64::vnni;
    use crate::kernels::add::AddParams;
    use crate::kernels::mul::MulParams;
    use crate::kernels::nd::plan_broadcast;
    use crate::quant::QuantParams;
    use std::vec::Vec;

    fn avx2() -> super::Avx2 {
        super::Avx2::detect().expect("the suite checked detection first")
    }

    fn avx512() -> vnni::Avx512Vnni {
        vnni::tests::token()
    }

    pub(crate) fn add_avx2(p: &AddParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        super::add_s8(avx2(), p, x, y, o)
    }
    pub(crate) fn add_in_place_avx2(p: &AddParams, x: &mut [i8], y: &[i8]) {
        super::add_s8_in_place(avx2(), p, x, y)
    }
    pub(crate) fn sub_avx2(p: &AddParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        super::sub_s8(avx2(), p, x, y, o)
    }
    pub(crate) fn sub_in_place_avx2(p: &AddParams, x: &mut [i8], y: &[i8]) {
        super::sub_s8_in_place(avx2(), p, x, y)
    }
    pub(crate) fn mul_avx2(p: &MulParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        super::mul_s8(avx2(), p, x, y, o)
    }
    pub(crate) fn mul_in_place_avx2(p: &MulParams, x: &mut [i8], y: &[i8]) {
        super::mul_s8_in_place(avx2(), p, x, y)
    }
    pub(crate) fn add_avx512(p: &AddParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        vnni::add_s8(avx512(), p, x, y, o)
    }
    pub(crate) fn add_in_place_avx512(p: &AddParams, x: &mut [i8], y: &[i8]) {
        vnni::add_s8_in_place(avx512(), p, x, y)
    }
    pub(crate) fn sub_avx512(p: &AddParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        vnni::sub_s8(avx512(), p, x, y, o)
    }
    pub(crate) fn sub_in_place_avx512(p: &AddParams, x: &mut [i8], y: &[i8]) {
        vnni::sub_s8_in_place(avx512(), p, x, y)
    }
    pub(crate) fn mul_avx512(p: &MulParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        vnni::mul_s8(avx512(), p, x, y, o)
    }
    pub(crate) fn mul_in_place_avx512(p: &MulParams, x: &mut [i8], y: &[i8]) {
        vnni::mul_s8_in_place(avx512(), p, x, y)
    }

    type Out<P> = fn(&P, &[i8], &[i8], &mut [i8]);
    type InPlace<P> = fn(&P, &mut [i8], &[i8]);
    /// One implementation's entry points.
    type Entries<P> = (Out<P>, InPlace<P>);

    /// The implementations this machine executes, with their names.
    fn impls<P>(avx2: Entries<P>, avx512: Entries<P>) -> Vec<(&'static str, Entries<P>)> {
        let mut v = Vec::new();
        if crate::kernels::test_util::available("avx2", crate::arch::x86_64::tests::detected()) {
            v.push(("avx2", avx2));
        }
        if crate::kernels::test_util::available("avx512vnni", vnni::tests::detected()) {
            v.push(("avx512vnni", avx512));
        }
        v
    }

    /// All 65,536 operand pairs (plus 3 tail elements), out of place and in place, against
    /// `reference`.
    fn all_pairs<P: core::fmt::Debug>(p: &P, reference: Out<P>, imps: &[(&str, Entries<P>)]) {
        let n = 256 * 256 + 3;
        let x: Vec<i8> = (0..n).map(|i| (i & 0xff) as u8 as i8).collect();
        let y: Vec<i8> = (0..n).map(|i| (i >> 8) as u8 as i8).collect();
        let mut want = std::vec![0i8; n];
        reference(p, &x, &y, &mut want);
        for (name, (out, in_place)) in imps {
            let mut got = std::vec![0i8; n];
            out(p, &x, &y, &mut got);
            assert!(got == want, "{name} differs from the reference for {p:?}");
            let mut inout = x.clone();
            in_place(p, &mut inout, &y);
            assert!(inout == want, "{name} in place differs from the reference for {p:?}");
        }
    }

    fn q(scale: f32, zero_point: i32) -> QuantParams {
        QuantParams { scale, zero_point }
    }

    #[test]
    fn add_sub_every_pair() {
        let n = 256 * 256 + 3;
        let plan = plan_broadcast(&[n], &[n]).unwrap();
        let add = impls::<AddParams>((add_avx2, add_in_place_avx2), (add_avx512, add_in_place_avx512));
        let sub = impls::<AddParams>((sub_avx2, sub_in_place_avx2), (sub_avx512, sub_in_place_avx512));
        use crate::prepare::FusedActivation as A;
        for scales in [[0.05, 0.05, 0.1], [0.1, 1e-4, 0.1], [0.1, 0.1, 1e-3], [1e-3, 1e-3, 0.5], [1.0, 1.0, 1.0], [0.5, 0.25, 0.125]] {
            for zps in [[0, 0, 0], [-128, 127, -128], [127, -128, 127], [3, -5, 7]] {
                for act in [A::None, A::Relu6] {
                    let (a, b, o) = (q(scales[0], zps[0]), q(scales[1], zps[1]), q(scales[2], zps[2]));
                    let p = crate::kernels::add::prepare_add(a, b, o, act, plan.as_broadcast()).unwrap();
                    assert!(AddSub::new(&p).is_some(), "not folded: {p:?}");
                    all_pairs(&p, crate::kernels::add::scalar::add_s8, &add);
                    let p = crate::kernels::sub::prepare_sub(a, b, o, act, plan.as_broadcast()).unwrap();
                    assert!(AddSub::new(&p).is_some(), "not folded: {p:?}");
                    all_pairs(&p, crate::kernels::sub::scalar::sub_s8, &sub);
                }
            }
        }
        let base = crate::kernels::add::prepare_add(q(0.1, 3), q(0.2, -7), q(0.3, 1), A::None, plan.as_broadcast()).unwrap();
        // An output stage close to the identity (multiplier 1 - 2^-31, no shift, offset 0),
        // so that the operand terms reach the output unrounded: `m = 2^30` with right
        // shifts 19 and 20 makes exact ties (`t 2^19 / 2^20`), which must round away from
        // zero as `RoundingDivideByPOT` does.
        for (s1, s2) in [(-20, -19), (-19, -20), (-20, -20), (-1, -20)] {
            let p = AddParams {
                input1_multiplier: 1 << 30,
                input2_multiplier: 1 << 30,
                output_multiplier: i32::MAX,
                input1_shift: s1,
                input2_shift: s2,
                output_shift: 0,
                output_offset: 0,
                ..base
            };
            all_pairs(&p, crate::kernels::add::scalar::add_s8, &add);
            all_pairs(&p, crate::kernels::sub::scalar::sub_s8, &sub);
        }
        // Parameters no prepare function makes, inside the folding's bounds: other left
        // shifts, negative and extreme multipliers, zero and extreme shifts.
        for left_shift in [9, 15, 20] {
            for (m1, m2, mo) in [(i32::MAX, 1 << 30, i32::MAX), (i32::MIN, -1, i32::MIN), (12345, -987654321, 1 << 30), (0, i32::MAX, 0x5555_5555)] {
                for (s1, s2, so) in [(0, 0, 0), (-31, -1, -31), (-3, -30, -12)] {
                    let p = AddParams {
                        left_shift,
                        input1_multiplier: m1,
                        input2_multiplier: m2,
                        output_multiplier: mo,
                        input1_shift: s1,
                        input2_shift: s2,
                        output_shift: so,
                        input1_offset: 128,
                        input2_offset: -128,
                        output_offset: -1000,
                        ..base
                    };
                    assert!(AddSub::new(&p).is_some(), "not folded: {p:?}");
                    all_pairs(&p, crate::kernels::add::scalar::add_s8, &add);
                    all_pairs(&p, crate::kernels::sub::scalar::sub_s8, &sub);
                }
            }
        }
    }

    #[test]
    fn mul_every_pair() {
        let n = 256 * 256 + 3;
        let plan = plan_broadcast(&[n], &[n]).unwrap();
        let mul = impls::<MulParams>((mul_avx2, mul_in_place_avx2), (mul_avx512, mul_in_place_avx512));
        use crate::prepare::FusedActivation as A;
        for scales in [[0.05, 0.05, 0.1], [0.1, 1e-4, 0.1], [0.1, 0.1, 1e-5], [1e-3, 1e-3, 0.5], [1.0, 1.0, 1e-3], [0.5, 0.25, 0.125]] {
            for zps in [[0, 0, 0], [-128, 127, -128], [127, -128, 127], [3, -5, 7]] {
                for act in [A::None, A::Relu6] {
                    let (a, b, o) = (q(scales[0], zps[0]), q(scales[1], zps[1]), q(scales[2], zps[2]));
                    let Some(p) = crate::kernels::mul::prepare_mul(a, b, o, act, plan.as_broadcast()) else { continue };
                    assert!(Mul::new(&p).is_some(), "not folded: {p:?}");
                    all_pairs(&p, crate::kernels::mul::scalar::mul_s8, &mul);
                }
            }
        }
        let base = crate::kernels::mul::prepare_mul(q(0.1, 3), q(0.2, -7), q(0.3, 1), A::None, plan.as_broadcast()).unwrap();
        for m in [i32::MAX, 1 << 30, -1, i32::MIN + 1, 0x5555_5555] {
            for s in [-31, -20, -1, 0, 1, 15, 30] {
                let p = MulParams { output_multiplier: m, output_shift: s, input1_offset: 128, input2_offset: -128, output_offset: 77, ..base };
                assert!(Mul::new(&p).is_some(), "not folded: {p:?}");
                all_pairs(&p, crate::kernels::mul::scalar::mul_s8, &mul);
            }
        }
    }

    #[test]
    fn refuses_what_it_cannot_fold() {
        let plan = plan_broadcast(&[3], &[3]).unwrap();
        use crate::prepare::FusedActivation as A;
        let p = crate::kernels::add::prepare_add(q(0.1, 0), q(0.1, 0), q(0.1, 0), A::None, plan.as_broadcast()).unwrap();
        assert!(AddSub::new(&p).is_some());
        assert!(AddSub::new(&AddParams { left_shift: 21, ..p }).is_none());
        assert!(AddSub::new(&AddParams { left_shift: 8, ..p }).is_none());
        assert!(AddSub::new(&AddParams { input1_offset: 129, ..p }).is_none());
        assert!(AddSub::new(&AddParams { input2_shift: 1, ..p }).is_none());
        assert!(AddSub::new(&AddParams { output_shift: 1, ..p }).is_none());
        assert!(AddSub::new(&AddParams { activation_min: 5, activation_max: 4, ..p }).is_none());
        let p = crate::kernels::mul::prepare_mul(q(0.1, 0), q(0.1, 0), q(0.1, 0), A::None, plan.as_broadcast()).unwrap();
        assert!(Mul::new(&p).is_some());
        assert!(Mul::new(&MulParams { output_multiplier: i32::MIN, ..p }).is_none());
        assert!(Mul::new(&MulParams { output_shift: 31, ..p }).is_none());
        assert!(Mul::new(&MulParams { input2_offset: -129, ..p }).is_none());
    }
}
