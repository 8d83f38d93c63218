//! AVX-512 int8 elementwise binary micro-kernels: ADD, SUB and MUL on sixteen int32 lanes,
//! the arithmetic of the AVX2 micro-kernels (`super::super::elementwise`, whose module doc
//! states why it is exact) with [`super::requant::requant_lanes`] and `vpmovsdb` narrowing
//! (exact after the clamp), for the one host loop nest (`crate::kernels::elementwise::lanes`).

use super::requant::requant_lanes;
use super::Avx512Vnni;
use crate::kernels::elementwise::lanes::{binary_entries, AddSub, Mul, Operand, PairMicro};
use core::arch::x86_64::*;

/// An [`Operand`] in registers.
#[derive(Clone, Copy)]
struct OperandV {
    offset: __m512i,
    high: __m512i,
    low: __m512i,
    round: __m512i,
    k: __m128i,
    e: __m128i,
    half: __m512i,
    neg: __m512i,
}

impl OperandV {
    /// # Safety
    /// AVX512F.
    #[inline(always)]
    unsafe fn new(o: &Operand) -> OperandV {
        // SAFETY: register-only AVX512F intrinsics, executable by the caller's guarantee.
        unsafe {
            OperandV {
                offset: _mm512_set1_epi32(o.offset),
                high: _mm512_set1_epi32(o.high),
                low: _mm512_set1_epi32(o.low),
                round: _mm512_set1_epi32(o.round),
                k: _mm_cvtsi32_si128(o.k),
                e: _mm_cvtsi32_si128(o.e),
                half: _mm512_set1_epi32(o.half),
                neg: _mm512_set1_epi32(o.neg),
            }
        }
    }

    /// `MultiplyByQuantizedMultiplierSmallerThanOneExp((x + offset) << L, m, shift)` of
    /// sixteen int8 widened to int32 lanes.
    ///
    /// # Safety
    /// AVX512F.
    #[inline(always)]
    unsafe fn scale(&self, x: __m512i) -> __m512i {
        // SAFETY: register-only AVX512F intrinsics, executable by the caller's guarantee.
        unsafe {
            let t = _mm512_add_epi32(x, self.offset);
            let lo = _mm512_sra_epi32(_mm512_add_epi32(_mm512_mullo_epi32(t, self.low), self.round), self.k);
            let h = _mm512_add_epi32(_mm512_mullo_epi32(t, self.high), lo);
            let sign = _mm512_and_si512(_mm512_srai_epi32::<31>(h), self.neg);
            _mm512_sra_epi32(_mm512_add_epi32(_mm512_add_epi32(h, sign), self.half), self.e)
        }
    }
}

/// Sixteen int8 as int32 lanes.
///
/// # Safety
/// AVX512F.
#[inline(always)]
unsafe fn widen16(x: &[i8; 16]) -> __m512i {
    // SAFETY: AVX512F; the load reads the 16 bytes of `x`.
    unsafe { _mm512_cvtepi8_epi32(_mm_loadu_si128(x.as_ptr().cast())) }
}

/// Sixteen int32 lanes, clamped inside int8, as int8.
///
/// # Safety
/// AVX512F.
#[inline(always)]
unsafe fn narrow16(v: __m512i) -> [i8; 16] {
    let mut out = [0i8; 16];
    // SAFETY: AVX512F; the store writes the 16 bytes of `out`.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), _mm512_cvtsepi32_epi8(v)) };
    out
}

/// ADD (`SUB = false`) or SUB of sixteen pairs.
///
/// # Safety
/// AVX512F.
#[inline(always)]
unsafe fn add_sub16<const SUB: bool>(f: &AddSub, a: &OperandV, b: &OperandV, x: &[i8; 16], y: &[i8; 16]) -> [i8; 16] {
    // SAFETY: AVX512F intrinsics (and the loads and store of three arrays), executable by
    // the caller's guarantee.
    unsafe {
        let fa = a.scale(widen16(x));
        let fb = b.scale(widen16(y));
        let raw = if SUB { _mm512_sub_epi32(fa, fb) } else { _mm512_add_epi32(fa, fb) };
        let (m, s) = (_mm512_set1_epi32(f.out_multiplier), _mm512_set1_epi32(f.out_shift));
        narrow16(requant_lanes(raw, m, s, f.out_offset, f.min, f.max))
    }
}

/// MUL of sixteen pairs.
///
/// # Safety
/// AVX512F.
#[inline(always)]
unsafe fn mul16(f: &Mul, x: &[i8; 16], y: &[i8; 16]) -> [i8; 16] {
    // SAFETY: AVX512F intrinsics (and the loads and store of three arrays), executable by
    // the caller's guarantee.
    unsafe {
        let ta = _mm512_add_epi32(widen16(x), _mm512_set1_epi32(f.a_offset));
        let tb = _mm512_add_epi32(widen16(y), _mm512_set1_epi32(f.b_offset));
        let p = _mm512_mullo_epi32(ta, tb);
        let (m, s) = (_mm512_set1_epi32(f.multiplier), _mm512_set1_epi32(f.shift));
        narrow16(requant_lanes(p, m, s, f.out_offset, f.min, f.max))
    }
}

/// ADD (`SUB = false`) or SUB on sixteen lanes: both operands' rescaling in registers.
struct AddSub16<'f, const SUB: bool> {
    f: &'f AddSub,
    a: OperandV,
    b: OperandV,
}

impl<'f, const SUB: bool> AddSub16<'f, SUB> {
    #[inline(always)]
    fn new(_: Avx512Vnni, f: &'f AddSub) -> Self {
        // SAFETY: the token proves AVX512F.
        let (a, b) = unsafe { (OperandV::new(&f.a), OperandV::new(&f.b)) };
        AddSub16 { f, a, b }
    }
}

impl<const SUB: bool> PairMicro<16> for AddSub16<'_, SUB> {
    #[inline(always)]
    fn apply(&self, x: &[i8; 16], y: &[i8; 16]) -> [i8; 16] {
        // SAFETY: made from the AVX-512 token (`new`).
        unsafe { add_sub16::<SUB>(self.f, &self.a, &self.b, x, y) }
    }
}

/// MUL on sixteen lanes (the token proves AVX-512).
struct Mul16<'f>(Avx512Vnni, &'f Mul);

impl<'f> Mul16<'f> {
    #[inline(always)]
    fn new(t: Avx512Vnni, f: &'f Mul) -> Self {
        Mul16(t, f)
    }
}

impl PairMicro<16> for Mul16<'_> {
    #[inline(always)]
    fn apply(&self, x: &[i8; 16], y: &[i8; 16]) -> [i8; 16] {
        // SAFETY: the token (`self.0`) proves AVX512F.
        unsafe { mul16(self.1, x, y) }
    }
}

binary_entries!(Avx512Vnni, "avx2,avx512f,avx512bw,avx512vl,avx512vnni", 16, AddSub16, Mul16);
