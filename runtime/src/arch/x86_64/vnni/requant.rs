//! [`Requant16`]: the int8 / uint8 output requantization of the AVX-512 kernels, sixteen
//! lanes at a time, bit-exact with `crate::kernels::requant::Requant` (TFLite's
//! `MultiplyByQuantizedMultiplier`, output offset, clamp): the arithmetic of
//! `super::super::Requant8` on `__m512i`.

use crate::kernels::numerics::{Clamp, QuantS8, QuantU8};
use crate::kernels::requant::Requant;
use core::arch::x86_64::*;

/// Per-tensor or per-channel multipliers and shifts, the output offset and the clamp.
pub(crate) struct Requant16<'a> {
    multiplier: &'a [i32],
    shift: &'a [i32],
    offset: i32,
    min: i32,
    max: i32,
    /// An `i32::MIN` multiplier (the only one for which the high multiply saturates) sends
    /// every store to the scalar form.
    scalar: Option<Requant<'a>>,
    /// Outputs are uint8 (legacy): narrowed with unsigned saturation (exact after the clamp).
    unsigned: bool,
}

/// The mask of the first `n <= 16` lanes.
#[inline(always)]
fn first(n: usize) -> u16 {
    debug_assert!(n <= 16);
    ((1u32 << n) - 1) as u16
}

impl<'a> Requant16<'a> {
    #[inline(always)]
    pub(crate) fn new(q: &QuantS8<'a>, c: &Clamp<i8>) -> Self {
        debug_assert_eq!(q.output_multiplier.len(), q.output_shift.len());
        let scalar = q.output_multiplier.contains(&i32::MIN).then(|| Requant::new(q, c));
        Requant16 { multiplier: q.output_multiplier, shift: q.output_shift, offset: q.output_offset, min: c.min as i32, max: c.max as i32, scalar, unsigned: false }
    }

    /// The legacy uint8 form (one multiplier): `None` for an `i32::MIN` multiplier, which
    /// only the scalar form handles.
    #[inline(always)]
    pub(crate) fn new_u8(q: &'a QuantU8, c: &Clamp<u8>) -> Option<Self> {
        (q.output_multiplier != i32::MIN).then(|| Requant16 {
            multiplier: core::slice::from_ref(&q.output_multiplier),
            shift: core::slice::from_ref(&q.output_shift),
            offset: q.output_offset,
            min: c.min as i32,
            max: c.max as i32,
            scalar: None,
            unsigned: true,
        })
    }

    /// Multipliers and shifts of channels `c0..c0 + n` in lanes `0..n` (`n <= 16`; the other
    /// lanes are 0, whose results are not stored).
    ///
    /// # Safety
    /// AVX512F.
    #[inline(always)]
    unsafe fn tables16(&self, c0: usize, n: usize) -> (__m512i, __m512i) {
        if self.multiplier.len() == 1 {
            // SAFETY: register-only AVX512F.
            return unsafe { (_mm512_set1_epi32(self.multiplier[0]), _mm512_set1_epi32(self.shift[0])) };
        }
        let (m, s) = (&self.multiplier[c0..][..n], &self.shift[c0..][..n]);
        // SAFETY: AVX512F; the masked loads read the first `n` i32 of `m` and `s`, which
        // have `n` (the slices above; masked-off lanes are not read).
        unsafe { (_mm512_maskz_loadu_epi32(first(n), m.as_ptr()), _mm512_maskz_loadu_epi32(first(n), s.as_ptr())) }
    }

    /// Multipliers and shifts of channels `c0..c0 + n` (`n <= 8`) in lanes `0..n` and again
    /// in lanes `8..8 + n`: one block of channels for two pixels.
    ///
    /// # Safety
    /// AVX512F and AVX512VL.
    #[inline(always)]
    unsafe fn tables8x2(&self, c0: usize, n: usize) -> (__m512i, __m512i) {
        if self.multiplier.len() == 1 {
            // SAFETY: register-only AVX512F.
            return unsafe { (_mm512_set1_epi32(self.multiplier[0]), _mm512_set1_epi32(self.shift[0])) };
        }
        let (m, s) = (&self.multiplier[c0..][..n], &self.shift[c0..][..n]);
        let k = first(n) as u8;
        // SAFETY: AVX512F/VL; the masked loads read the first `n <= 8` i32 of `m` and `s`.
        unsafe {
            let m = _mm256_maskz_loadu_epi32(k, m.as_ptr());
            let s = _mm256_maskz_loadu_epi32(k, s.as_ptr());
            (_mm512_broadcast_i64x4(m), _mm512_broadcast_i64x4(s))
        }
    }

    /// The sixteen lanes of `acc`, requantized with per-lane multiplier `m` and shift `s`,
    /// as sixteen bytes (int8, or uint8 for [`Requant16::new_u8`]).
    ///
    /// # Safety
    /// AVX512F.
    #[inline(always)]
    unsafe fn requant(&self, acc: __m512i, m: __m512i, s: __m512i) -> __m128i {
        // SAFETY: register-only AVX512F intrinsics, executable by the caller's guarantee.
        unsafe {
            let v = requant_lanes(acc, m, s, self.offset, self.min, self.max);
            if self.unsigned {
                _mm512_cvtusepi32_epi8(v)
            } else {
                _mm512_cvtsepi32_epi8(v)
            }
        }
    }

    /// The scalar form for the `i32::MIN` multiplier: lanes `lanes` of `acc` as channels
    /// `c0..`, into `out`.
    ///
    /// # Safety
    /// AVX512F.
    #[inline(always)]
    unsafe fn store_scalar(rq: &Requant, c0: usize, acc: __m512i, lanes: core::ops::Range<usize>, out: &mut [i8]) {
        let mut accs = [0i32; 16];
        // SAFETY: AVX512F; `accs` is 64 bytes (unaligned store).
        unsafe { _mm512_storeu_si512(accs.as_mut_ptr().cast(), acc) };
        rq.store(c0, &accs[lanes], out);
    }

    /// `out[j]` = lane `j` of `acc` requantized as output channel `c0 + j`, for
    /// `j < out.len() <= 16`. `A` is `i8` (from [`Requant16::new`]) or `u8` (from
    /// [`Requant16::new_u8`]).
    ///
    /// # Safety
    /// AVX512F, AVX512BW and AVX512VL (callers hold an [`super::Avx512Vnni`] token).
    #[inline(always)]
    pub(crate) unsafe fn store<A: Byte>(&self, c0: usize, acc: __m512i, out: &mut [A]) {
        let n = out.len();
        debug_assert!(n <= 16);
        if let Some(rq) = &self.scalar {
            // SAFETY: AVX512F by the caller's guarantee; `scalar` is only set for int8.
            return unsafe { Self::store_scalar(rq, c0, acc, 0..n, A::as_i8(out)) };
        }
        // SAFETY: AVX512F/BW/VL by the caller's guarantee; the masked store writes the first
        // `n` bytes of `out` (masked-off lanes are not written).
        unsafe {
            let (m, s) = self.tables16(c0, n);
            let bytes = self.requant(acc, m, s);
            _mm_mask_storeu_epi8(out.as_mut_ptr().cast(), first(n), bytes);
        }
    }

    /// Lanes `0..n` of `acc` requantized as channels `c0..c0 + n` into `out0`, lanes
    /// `8..8 + n` as the same channels into `out1` (`n = out0.len() = out1.len() <= 8`): one
    /// block of channels for two pixels. `out1` may be `None` (the second pixel is not
    /// stored).
    ///
    /// # Safety
    /// AVX512F, AVX512BW and AVX512VL.
    #[inline(always)]
    pub(crate) unsafe fn store_x2<A: Byte>(&self, c0: usize, acc: __m512i, out0: &mut [A], out1: Option<&mut [A]>) {
        let n = out0.len();
        debug_assert!(n <= 8 && out1.as_ref().is_none_or(|o| o.len() == n));
        if let Some(rq) = &self.scalar {
            // SAFETY: AVX512F by the caller's guarantee; `scalar` is only set for int8.
            unsafe {
                Self::store_scalar(rq, c0, acc, 0..n, A::as_i8(out0));
                if let Some(out1) = out1 {
                    Self::store_scalar(rq, c0, acc, 8..8 + n, A::as_i8(out1));
                }
            }
            return;
        }
        // SAFETY: AVX512F/BW/VL by the caller's guarantee; each masked store writes the first
        // `n` bytes of its output.
        unsafe {
            let (m, s) = self.tables8x2(c0, n);
            let bytes = self.requant(acc, m, s);
            let k = first(n);
            _mm_mask_storeu_epi8(out0.as_mut_ptr().cast(), k, bytes);
            if let Some(out1) = out1 {
                _mm_mask_storeu_epi8(out1.as_mut_ptr().cast(), k, _mm_srli_si128::<8>(bytes));
            }
        }
    }
}

/// `MultiplyByQuantizedMultiplier(acc, m, s) + offset`, clamped to `min..=max`, on sixteen
/// int32 lanes (per-lane `m` and `s`, `s` in `-31..=31`): `super::super::requant::requant_lanes`
/// on `__m512i`, with the same one inexact case (an `i32::MIN` multiplier times an
/// `acc << max(s, 0)` of `i32::MIN`), which callers rule out.
///
/// # Safety
/// AVX512F.
#[inline(always)]
pub(crate) unsafe fn requant_lanes(acc: __m512i, m: __m512i, s: __m512i, offset: i32, min: i32, max: i32) -> __m512i {
    // SAFETY: register-only AVX512F intrinsics, executable by the caller's guarantee.
    unsafe {
        let zero = _mm512_setzero_si512();
        let left = _mm512_max_epi32(s, zero);
        let right = _mm512_max_epi32(_mm512_sub_epi32(zero, s), zero);
        // x = acc << left (wrapping, as TFLite's `x * (1 << left_shift)`).
        let x = _mm512_sllv_epi32(acc, left);
        // SaturatingRoundingDoublingHighMul without the saturating case: (x*m + 2^30) >> 31,
        // bits 31..62 of the 64-bit sum; even lanes from vpmuldq directly, odd lanes from
        // the high halves.
        let nudge = _mm512_set1_epi64(1 << 30);
        let even = _mm512_add_epi64(_mm512_mul_epi32(x, m), nudge);
        let odd = _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64::<32>(x), _mm512_srli_epi64::<32>(m)), nudge);
        let high = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64::<31>(even), _mm512_slli_epi64::<1>(odd));
        // RoundingDivideByPOT(high, right): the arithmetic shift, plus one where the
        // remainder exceeds the threshold.
        let one = _mm512_set1_epi32(1);
        let mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, right), one);
        let remainder = _mm512_and_si512(high, mask);
        let threshold = _mm512_sub_epi32(_mm512_srai_epi32::<1>(mask), _mm512_srai_epi32::<31>(high));
        let shifted = _mm512_srav_epi32(high, right);
        let rounded = _mm512_mask_add_epi32(shifted, _mm512_cmpgt_epi32_mask(remainder, threshold), shifted, one);
        // Offset, clamp (inside int8 or uint8, so the saturating narrowing is exact).
        let v = _mm512_add_epi32(rounded, _mm512_set1_epi32(offset));
        _mm512_min_epi32(_mm512_max_epi32(v, _mm512_set1_epi32(min)), _mm512_set1_epi32(max))
    }
}

/// An output byte type: `i8` or `u8`.
pub(crate) trait Byte: Copy + 'static {
    /// The scalar fallback's view (only reached for `i8`: the uint8 form has no scalar
    /// fallback, [`Requant16::new_u8`]).
    fn as_i8(out: &mut [Self]) -> &mut [i8];
}

impl Byte for i8 {
    #[inline(always)]
    fn as_i8(out: &mut [i8]) -> &mut [i8] {
        out
    }
}

impl Byte for u8 {
    #[inline(always)]
    fn as_i8(_: &mut [u8]) -> &mut [i8] {
        unreachable!("the uint8 requantization has no scalar fallback (Requant16::new_u8)")
    }
}

#[cfg(test)]
mod tests {
    use super::Requant16;
    use crate::kernels::numerics::{Clamp, QuantS8, QuantU8};
    use crate::quant::multiply_by_quantized_multiplier;
    use core::arch::x86_64::_mm512_loadu_si512;
    use proptest::prelude::*;

    proptest! {
        /// Every lane count, per channel and per tensor, both store forms, at the multiplier
        /// and shift extremes, equals `MultiplyByQuantizedMultiplier` + offset + clamp.
        #[test]
        fn store_matches_reference(
            accs in proptest::array::uniform16(prop_oneof![any::<i32>(), Just(i32::MIN), Just(i32::MAX), -1000i32..1000]),
            m in prop_oneof![(1i32 << 30)..i32::MAX, Just(i32::MIN), Just(i32::MAX), Just(0), any::<i32>()],
            s in -31i32..=31,
            offset in -128i32..=127,
            lo in -128i32..=0,
            hi in 0i32..=127,
            n in 0usize..=16,
        ) {
            if !crate::kernels::test_util::available("avx512vnni", super::super::tests::detected()) {
                return Ok(());
            }
            let ms: std::vec::Vec<i32> = (0..17).map(|j| if j == 0 { m } else { m.wrapping_add(j * 7919) }).collect();
            let ss: std::vec::Vec<i32> = (0..17).map(|j| (s + j).clamp(-31, 30)).collect();
            for per_channel in [true, false] {
                let k = if per_channel { 17 } else { 1 };
                let q = QuantS8 { input_offset: 0, output_offset: offset, output_multiplier: &ms[..k], output_shift: &ss[..k] };
                let rq = Requant16::new(&q, &Clamp { min: lo as i8, max: hi as i8 });
                let want = |lane: usize, c: usize| {
                    let c = if per_channel { c } else { 0 };
                    multiply_by_quantized_multiplier(accs[lane], ms[c], ss[c]).wrapping_add(offset).clamp(lo, hi) as i8
                };
                for c0 in [0usize, 1] {
                    let mut out = [0x55i8; 16];
                    // SAFETY: AVX-512 VNNI was detected above.
                    unsafe { rq.store(c0, _mm512_loadu_si512(accs.as_ptr().cast()), &mut out[..n]) };
                    for (j, &o) in out.iter().enumerate() {
                        let w = if j < n { want(j, c0 + j) } else { 0x55 };
                        prop_assert_eq!(o, w, "lane {} c0 {}", j, c0);
                    }
                    let n8 = n.min(8);
                    let (mut o0, mut o1) = ([0x55i8; 8], [0x55i8; 8]);
                    // SAFETY: as above.
                    unsafe { rq.store_x2(c0, _mm512_loadu_si512(accs.as_ptr().cast()), &mut o0[..n8], Some(&mut o1[..n8])) };
                    for j in 0..8 {
                        prop_assert_eq!(o0[j], if j < n8 { want(j, c0 + j) } else { 0x55 }, "x2 low lane {} c0 {}", j, c0);
                        prop_assert_eq!(o1[j], if j < n8 { want(8 + j, c0 + j) } else { 0x55 }, "x2 high lane {} c0 {}", j, c0);
                    }
                }
            }
            if m != i32::MIN {
                let q = QuantU8 { input_offset: 0, weights_offset: 0, output_offset: offset + 128, output_multiplier: m, output_shift: s.clamp(-31, 30) };
                let (lo, hi) = ((lo + 128) as u8, (hi + 128) as u8);
                let rq = Requant16::new_u8(&q, &Clamp { min: lo, max: hi }).expect("not i32::MIN");
                let mut out = [0x55u8; 16];
                // SAFETY: as above.
                unsafe { rq.store(0, _mm512_loadu_si512(accs.as_ptr().cast()), &mut out[..n]) };
                for j in 0..n {
                    let want = multiply_by_quantized_multiplier(accs[j], m, s.clamp(-31, 30)).wrapping_add(offset + 128).clamp(lo as i32, hi as i32) as u8;
                    prop_assert_eq!(out[j], want, "u8 lane {}", j);
                }
            }
        }
    }
}
