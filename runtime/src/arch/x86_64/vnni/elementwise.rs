//! AVX-512 int8 elementwise binary kernels: ADD, SUB and MUL on sixteen int32 lanes, the
//! arithmetic of the AVX2 forms (`super::super::elementwise`, whose module doc states why it
//! is exact) with [`super::requant::requant_lanes`] and `vpmovsdb` narrowing (exact after
//! the clamp). The parameter folding and the walk over the broadcast's rows are the AVX2
//! module's.

use super::requant::requant_lanes;
use super::Avx512Vnni;
use crate::arch::x86_64::elementwise::{binary, binary_in_place, row, row_in_place, AddSub, Mul, Operand};
use crate::kernels::add::AddParams;
use crate::kernels::mul::MulParams;
use crate::kernels::nd::Broadcast;
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

#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
fn add_sub_rows<const SUB: bool>(f: &AddSub, b: &Broadcast, x: &[i8], y: &[i8], out: &mut [i8]) -> bool {
    let Some(rows) = binary(b, x, y) else { return false };
    let out = &mut out[..b.out_len()];
    // SAFETY: AVX512F (this function's target features).
    let (va, vb) = unsafe { (OperandV::new(&f.a), OperandV::new(&f.b)) };
    for (x, y, r) in rows {
        row::<16>(x, y, &mut out[r], |x, y| {
            // SAFETY: as above.
            unsafe { add_sub16::<SUB>(f, &va, &vb, x, y) }
        });
    }
    true
}

#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
fn add_sub_rows_in_place<const SUB: bool>(f: &AddSub, b: &Broadcast, inout: &mut [i8], y: &[i8]) -> bool {
    let Some(rows) = binary_in_place(b, y) else { return false };
    let inout = &mut inout[..b.out_len()];
    // SAFETY: AVX512F (this function's target features).
    let (va, vb) = unsafe { (OperandV::new(&f.a), OperandV::new(&f.b)) };
    for (y, r) in rows {
        row_in_place::<16>(&mut inout[r], y, |x, y| {
            // SAFETY: as above.
            unsafe { add_sub16::<SUB>(f, &va, &vb, x, y) }
        });
    }
    true
}

#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
fn mul_rows(f: &Mul, b: &Broadcast, x: &[i8], y: &[i8], out: &mut [i8]) -> bool {
    let Some(rows) = binary(b, x, y) else { return false };
    let out = &mut out[..b.out_len()];
    for (x, y, r) in rows {
        row::<16>(x, y, &mut out[r], |x, y| {
            // SAFETY: AVX512F (this function's target features).
            unsafe { mul16(f, x, y) }
        });
    }
    true
}

#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
fn mul_rows_in_place(f: &Mul, b: &Broadcast, inout: &mut [i8], y: &[i8]) -> bool {
    let Some(rows) = binary_in_place(b, y) else { return false };
    let inout = &mut inout[..b.out_len()];
    for (y, r) in rows {
        row_in_place::<16>(&mut inout[r], y, |x, y| {
            // SAFETY: AVX512F (this function's target features).
            unsafe { mul16(f, x, y) }
        });
    }
    true
}

/// `kernels::add::add_s8` on AVX-512.
pub(crate) fn add_s8(_: Avx512Vnni, p: &AddParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    if let Some(f) = AddSub::new(p) {
        // SAFETY: the token proves that the CPU executes AVX-512 VNNI.
        if unsafe { add_sub_rows::<false>(&f, &p.broadcast, input1, input2, output) } {
            return;
        }
    }
    crate::kernels::add::scalar::add_s8(p, input1, input2, output)
}

/// `kernels::add::add_s8_in_place` on AVX-512.
pub(crate) fn add_s8_in_place(_: Avx512Vnni, p: &AddParams, input1_output: &mut [i8], input2: &[i8]) {
    if let Some(f) = AddSub::new(p) {
        // SAFETY: the token proves that the CPU executes AVX-512 VNNI.
        if unsafe { add_sub_rows_in_place::<false>(&f, &p.broadcast, input1_output, input2) } {
            return;
        }
    }
    crate::kernels::add::scalar::add_s8_in_place(p, input1_output, input2)
}

/// `kernels::sub::sub_s8` on AVX-512.
pub(crate) fn sub_s8(_: Avx512Vnni, p: &AddParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    if let Some(f) = AddSub::new(p) {
        // SAFETY: the token proves that the CPU executes AVX-512 VNNI.
        if unsafe { add_sub_rows::<true>(&f, &p.broadcast, input1, input2, output) } {
            return;
        }
    }
    crate::kernels::sub::scalar::sub_s8(p, input1, input2, output)
}

/// `kernels::sub::sub_s8_in_place` on AVX-512.
pub(crate) fn sub_s8_in_place(_: Avx512Vnni, p: &AddParams, input1_output: &mut [i8], input2: &[i8]) {
    if let Some(f) = AddSub::new(p) {
        // SAFETY: the token proves that the CPU executes AVX-512 VNNI.
        if unsafe { add_sub_rows_in_place::<true>(&f, &p.broadcast, input1_output, input2) } {
            return;
        }
    }
    crate::kernels::sub::scalar::sub_s8_in_place(p, input1_output, input2)
}

/// `kernels::mul::mul_s8` on AVX-512.
pub(crate) fn mul_s8(_: Avx512Vnni, p: &MulParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    if let Some(f) = Mul::new(p) {
        // SAFETY: the token proves that the CPU executes AVX-512 VNNI.
        if unsafe { mul_rows(&f, &p.broadcast, input1, input2, output) } {
            return;
        }
    }
    crate::kernels::mul::scalar::mul_s8(p, input1, input2, output)
}

/// `kernels::mul::mul_s8_in_place` on AVX-512.
pub(crate) fn mul_s8_in_place(_: Avx512Vnni, p: &MulParams, input1_output: &mut [i8], input2: &[i8]) {
    if let Some(f) = Mul::new(p) {
        // SAFETY: the token proves that the CPU executes AVX-512 VNNI.
        if unsafe { mul_rows_in_place(&f, &p.broadcast, input1_output, input2) } {
            return;
        }
    }
    crate::kernels::mul::scalar::mul_s8_in_place(p, input1_output, input2)
}
