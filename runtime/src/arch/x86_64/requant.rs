//! [`Requant8`]: the int8 output requantization of the AVX2 variants, eight channels at a
//! time, bit-exact with `crate::kernels::requant::Requant` (TFLite's
//! `MultiplyByQuantizedMultiplier`, output offset, clamp).

use crate::kernels::numerics::{Clamp, QuantS8, QuantU8};
use crate::kernels::requant::Requant;
use core::arch::x86_64::*;

/// Per-tensor or per-channel multipliers and shifts, the output offset and the clamp.
pub(crate) struct Requant8<'a> {
    multiplier: &'a [i32],
    shift: &'a [i32],
    offset: i32,
    min: i32,
    max: i32,
    /// An `i32::MIN` multiplier (the only one for which the high multiply saturates) sends
    /// every store to the scalar form.
    scalar: Option<Requant<'a>>,
    /// Outputs are uint8 (legacy): packed with unsigned saturation (exact after the clamp).
    unsigned: bool,
}

impl<'a> Requant8<'a> {
    #[inline(always)]
    pub(crate) fn new(q: &QuantS8<'a>, c: &Clamp<i8>) -> Self {
        debug_assert_eq!(q.output_multiplier.len(), q.output_shift.len());
        let scalar = q.output_multiplier.contains(&i32::MIN).then(|| Requant::new(q, c));
        Requant8 { multiplier: q.output_multiplier, shift: q.output_shift, offset: q.output_offset, min: c.min as i32, max: c.max as i32, scalar, unsigned: false }
    }

    /// The legacy uint8 form (one multiplier): `None` for an `i32::MIN` multiplier, which
    /// only the scalar form handles.
    #[inline(always)]
    pub(crate) fn new_u8(q: &'a QuantU8, c: &Clamp<u8>) -> Option<Self> {
        (q.output_multiplier != i32::MIN).then(|| Requant8 {
            multiplier: core::slice::from_ref(&q.output_multiplier),
            shift: core::slice::from_ref(&q.output_shift),
            offset: q.output_offset,
            min: c.min as i32,
            max: c.max as i32,
            scalar: None,
            unsigned: true,
        })
    }

    /// [`Requant8::store`] for uint8 outputs ([`Requant8::new_u8`]).
    ///
    /// # Safety
    /// The CPU executes AVX2.
    #[inline(always)]
    pub(crate) unsafe fn store_u8(&self, c0: usize, acc: __m256i, outs: &mut [u8]) {
        debug_assert!(self.unsigned && self.scalar.is_none() && outs.len() <= 8);
        let (m, s) = self.tables(c0, outs.len());
        // SAFETY: AVX2 by the caller's guarantee; the loads read the two 8-lane arrays.
        let bytes = unsafe {
            let m = _mm256_loadu_si256(m.as_ptr().cast());
            let s = _mm256_loadu_si256(s.as_ptr().cast());
            requant(acc, m, s, self.offset, self.min, self.max, true)
        };
        let bytes = bytes.to_le_bytes();
        if let Ok(o) = <&mut [u8; 8]>::try_from(&mut *outs) {
            *o = bytes;
        } else {
            let n = outs.len();
            outs.copy_from_slice(&bytes[..n]);
        }
    }

    /// Multipliers and shifts of channels `c0..c0 + n` (`n <= 8`; lanes past `n` are
    /// copies of the first).
    #[inline(always)]
    fn tables(&self, c0: usize, n: usize) -> ([i32; 8], [i32; 8]) {
        if self.multiplier.len() == 1 {
            return ([self.multiplier[0]; 8], [self.shift[0]; 8]);
        }
        let (mut m, mut s) = ([self.multiplier[c0]; 8], [self.shift[c0]; 8]);
        m[..n].copy_from_slice(&self.multiplier[c0..][..n]);
        s[..n].copy_from_slice(&self.shift[c0..][..n]);
        (m, s)
    }

    /// `outs[j]` = the requantized lane `j` of `acc`, the accumulator of output channel
    /// `c0 + j`, for `j < outs.len() <= 8`.
    ///
    /// # Safety
    /// The CPU executes AVX2 (callers hold an [`super::Avx2`] token).
    #[inline(always)]
    pub(crate) unsafe fn store(&self, c0: usize, acc: __m256i, outs: &mut [i8]) {
        let n = outs.len();
        debug_assert!(n <= 8);
        let mut accs = [0i32; 8];
        // SAFETY: `accs` is 32 bytes; the unaligned store has no alignment requirement.
        unsafe { _mm256_storeu_si256(accs.as_mut_ptr().cast(), acc) };
        if let Some(rq) = &self.scalar {
            rq.store(c0, &accs[..n], outs);
            return;
        }
        let (m, s) = if self.multiplier.len() > 1 && n == 8 {
            (&self.multiplier[c0..][..8], &self.shift[c0..][..8])
        } else {
            let (m, s) = self.tables(c0, n);
            return self.store_staged(acc, m, s, outs);
        };
        // SAFETY: AVX2 by the caller's guarantee; the loads read two 8-lane slices.
        let bytes = unsafe {
            let m = _mm256_loadu_si256(m.as_ptr().cast());
            let s = _mm256_loadu_si256(s.as_ptr().cast());
            requant(acc, m, s, self.offset, self.min, self.max, self.unsigned)
        };
        let bytes: [i8; 8] = bytes.to_le_bytes().map(|b| b as i8);
        outs.copy_from_slice(&bytes);
    }

    /// [`Requant8::store`] with the tables already in arrays (a tail, or per tensor).
    #[inline(always)]
    fn store_staged(&self, acc: __m256i, m: [i32; 8], s: [i32; 8], outs: &mut [i8]) {
        // SAFETY: AVX2 by [`Requant8::store`]'s caller; the loads read the two 8-lane arrays.
        let bytes = unsafe {
            let m = _mm256_loadu_si256(m.as_ptr().cast());
            let s = _mm256_loadu_si256(s.as_ptr().cast());
            requant(acc, m, s, self.offset, self.min, self.max, self.unsigned)
        };
        let bytes: [i8; 8] = bytes.to_le_bytes().map(|b| b as i8);
        if let Ok(o) = <&mut [i8; 8]>::try_from(&mut *outs) {
            *o = bytes;
        } else {
            for (o, b) in outs.iter_mut().zip(bytes) {
                *o = b;
            }
        }
    }
}

/// The eight lanes of `acc` requantized with per-lane multiplier `m` and shift `s`, as the
/// eight int8 bytes of the result (little endian).
///
/// # Safety
/// The CPU executes AVX2.
#[inline(always)]
pub(crate) unsafe fn requant(acc: __m256i, m: __m256i, s: __m256i, offset: i32, min: i32, max: i32, unsigned: bool) -> u64 {
    // SAFETY: register-only AVX2 intrinsics, executable by the caller's guarantee.
    unsafe {
        let v = requant_lanes(acc, m, s, offset, min, max);
        let w = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let b = if unsigned { _mm_packus_epi16(w, w) } else { _mm_packs_epi16(w, w) };
        _mm_cvtsi128_si64(b) as u64
    }
}

/// `MultiplyByQuantizedMultiplier(acc, m, s) + offset`, clamped to `min..=max`, on eight int32
/// lanes (per-lane `m` and `s`, `s` in `-31..=31`). Exact for every lane except an `i32::MIN`
/// multiplier times an `acc << max(s, 0)` of `i32::MIN` (the one saturating case of
/// `SaturatingRoundingDoublingHighMul`); callers rule that out.
///
/// # Safety
/// The CPU executes AVX2.
#[inline(always)]
pub(crate) unsafe fn requant_lanes(acc: __m256i, m: __m256i, s: __m256i, offset: i32, min: i32, max: i32) -> __m256i {
    // SAFETY: register-only AVX2 intrinsics, executable by the caller's guarantee.
    unsafe {
        let zero = _mm256_setzero_si256();
        let left = _mm256_max_epi32(s, zero);
        let right = _mm256_max_epi32(_mm256_sub_epi32(zero, s), zero);
        // x = acc << left (wrapping, as TFLite's `x * (1 << left_shift)`).
        let x = _mm256_sllv_epi32(acc, left);
        // SaturatingRoundingDoublingHighMul without the saturating case: (x*m + 2^30) >> 31,
        // bits 31..62 of the 64-bit sum. Even lanes from vpmuldq directly, odd lanes from
        // the high halves.
        let nudge = _mm256_set1_epi64x(1 << 30);
        let even = _mm256_add_epi64(_mm256_mul_epi32(x, m), nudge);
        let odd = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64::<32>(x), _mm256_srli_epi64::<32>(m)), nudge);
        let high = _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<31>(even), _mm256_slli_epi64::<1>(odd));
        // RoundingDivideByPOT(high, right).
        let one = _mm256_set1_epi32(1);
        let mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, right), one);
        let remainder = _mm256_and_si256(high, mask);
        let threshold = _mm256_sub_epi32(_mm256_srai_epi32::<1>(mask), _mm256_srai_epi32::<31>(high));
        let rounded = _mm256_sub_epi32(_mm256_srav_epi32(high, right), _mm256_cmpgt_epi32(remainder, threshold));
        // Offset, clamp (inside int8 or uint8, so the saturating packs are exact).
        let v = _mm256_add_epi32(rounded, _mm256_set1_epi32(offset));
        _mm256_min_epi32(_mm256_max_epi32(v, _mm256_set1_epi32(min)), _mm256_set1_epi32(max))
    }
}

#[cfg(test)]
mod tests {
    use super::Requant8;
    use crate::kernels::numerics::{Clamp, QuantS8};
    use crate::quant::multiply_by_quantized_multiplier;
    use core::arch::x86_64::_mm256_loadu_si256;
    use proptest::prelude::*;

    proptest! {
        /// Every lane count, per channel and per tensor, at the multiplier and shift
        /// extremes, equals `MultiplyByQuantizedMultiplier` + offset + clamp.
        #[test]
        fn store_matches_reference(
            accs in proptest::array::uniform8(prop_oneof![any::<i32>(), Just(i32::MIN), Just(i32::MAX), -1000i32..1000]),
            m in prop_oneof![(1i32 << 30)..i32::MAX, Just(i32::MIN), Just(i32::MAX), Just(0), any::<i32>()],
            s in -31i32..=31,
            offset in -128i32..=127,
            lo in -128i32..=0,
            hi in 0i32..=127,
            n in 0usize..=8,
        ) {
            if !crate::kernels::test_util::available("avx2", super::super::tests::detected()) {
                return Ok(());
            }
            let avx2 = super::super::Avx2::detect().expect("detected");
            let _ = avx2;
            let ms: std::vec::Vec<i32> = (0..9).map(|j| if j == 0 { m } else { m.wrapping_add(j * 7919) }).collect();
            let ss: std::vec::Vec<i32> = (0..9).map(|j| (s + j).clamp(-31, 30)).collect();
            for per_channel in [true, false] {
                let k = if per_channel { 9 } else { 1 };
                let q = QuantS8 { input_offset: 0, output_offset: offset, output_multiplier: &ms[..k], output_shift: &ss[..k] };
                let rq = Requant8::new(&q, &Clamp { min: lo as i8, max: hi as i8 });
                for c0 in [0usize, 1] {
                    let mut out = [0i8; 8];
                    // SAFETY: AVX2 was detected above.
                    unsafe { rq.store(c0, _mm256_loadu_si256(accs.as_ptr().cast()), &mut out[..n]) };
                    for j in 0..n {
                        let c = if per_channel { c0 + j } else { 0 };
                        let want = multiply_by_quantized_multiplier(accs[j], ms[c], ss[c]).wrapping_add(offset).clamp(lo, hi) as i8;
                        prop_assert_eq!(out[j], want, "lane {} c0 {}", j, c0);
                    }
                }
            }
        }
    }
}
