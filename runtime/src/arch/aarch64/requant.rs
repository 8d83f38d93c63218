//! [`Requant8`]: the int8 (and legacy uint8) output requantization of the NEON variants,
//! eight channels at a time (two `int32x4_t`), bit-exact with
//! `crate::kernels::requant::Requant` (TFLite's `MultiplyByQuantizedMultiplier`, output
//! offset, clamp), as TFLite's and gemmlowp's NEON paths compute it:
//!
//! - the left shift `x << max(shift, 0)` (`sshl`, wrapping like TFLite's `x * (1 << s)`);
//! - `SaturatingRoundingDoublingHighMul` is exactly `sqrdmulh` (`vqrdmulhq_s32`), saturating
//!   case (`i32::MIN * i32::MIN`) included, so no multiplier needs a scalar fallback;
//! - `RoundingDivideByPOT(x, e)` (round half away from zero) is `srshl` by `-e` (round half
//!   up) after gemmlowp's fixup: `x + ((x & -e) >> 31)` with a saturating add, which
//!   subtracts 1 from negative `x` when `e > 0` (`-e` has its sign bit set) and nothing when
//!   `e == 0`. (`srshl` alone would round `-1.5` to `-1`; the reference gives `-2`. The
//!   saturating add leaves `i32::MIN` as is, and `srshl` of it equals the reference.)
//! - output offset, clamp, and saturating narrows (exact after the clamp).

use crate::kernels::numerics::{Clamp, QuantS8, QuantU8};
use core::arch::aarch64::*;

/// Per-tensor or per-channel multipliers and shifts, the output offset and the clamp.
pub(crate) struct Requant8<'a> {
    multiplier: &'a [i32],
    shift: &'a [i32],
    offset: i32,
    min: i32,
    max: i32,
}

impl<'a> Requant8<'a> {
    /// The requantization of `q` (one multiplier per tensor or per output channel), clamp `c`.
    #[inline(always)]
    pub(crate) fn new(q: &QuantS8<'a>, c: &Clamp<i8>) -> Self {
        debug_assert_eq!(q.output_multiplier.len(), q.output_shift.len());
        Requant8 { multiplier: q.output_multiplier, shift: q.output_shift, offset: q.output_offset, min: c.min as i32, max: c.max as i32 }
    }

    /// The legacy uint8 form (one multiplier).
    #[inline(always)]
    pub(crate) fn new_u8(q: &'a QuantU8, c: &Clamp<u8>) -> Self {
        Requant8 {
            multiplier: core::slice::from_ref(&q.output_multiplier),
            shift: core::slice::from_ref(&q.output_shift),
            offset: q.output_offset,
            min: c.min as i32,
            max: c.max as i32,
        }
    }

    /// Multipliers and shifts of channels `c0..c0 + n` (`n <= 8`; lanes past `n` are copies
    /// of channel `c0`'s).
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

    /// The eight lanes of `acc` (channels `c0..c0 + 8`, lanes past `n` of no concern)
    /// requantized and clamped, as int32.
    #[inline(always)]
    fn lanes(&self, c0: usize, n: usize, acc: [int32x4_t; 2]) -> [int32x4_t; 2] {
        let (m, s) = self.tables(c0, n);
        // SAFETY: NEON is enabled for this build (the module is compiled only then); the
        // loads read the 8-lane arrays `m` and `s`.
        unsafe {
            let (lo, hi) = (self.four(acc[0], vld1q_s32(m.as_ptr()), vld1q_s32(s.as_ptr())), self.four(acc[1], vld1q_s32(m.as_ptr().add(4)), vld1q_s32(s.as_ptr().add(4))));
            [lo, hi]
        }
    }

    /// Four lanes: `MultiplyByQuantizedMultiplier(acc, m, s) + offset`, clamped.
    #[inline(always)]
    fn four(&self, acc: int32x4_t, m: int32x4_t, s: int32x4_t) -> int32x4_t {
        // SAFETY: register-only NEON intrinsics; NEON is enabled for this build.
        unsafe {
            let zero = vdupq_n_s32(0);
            let left = vmaxq_s32(s, zero);
            // `-right_shift`: the shift when negative, else 0.
            let neg_right = vminq_s32(s, zero);
            let high = vqrdmulhq_s32(vshlq_s32(acc, left), m);
            let fixup = vshrq_n_s32::<31>(vandq_s32(high, neg_right));
            let rounded = vrshlq_s32(vqaddq_s32(high, fixup), neg_right);
            let v = vaddq_s32(rounded, vdupq_n_s32(self.offset));
            vminq_s32(vmaxq_s32(v, vdupq_n_s32(self.min)), vdupq_n_s32(self.max))
        }
    }

    /// `outs[j]` = lane `j` of `acc` (lanes 0..4 of `acc[0]`, then `acc[1]`), the
    /// accumulator of output channel `c0 + j`, requantized, for `j < outs.len() <= 8`.
    #[inline(always)]
    pub(crate) fn store(&self, c0: usize, acc: [int32x4_t; 2], outs: &mut [i8]) {
        let n = outs.len();
        debug_assert!(n <= 8);
        let [lo, hi] = self.lanes(c0, n, acc);
        let mut bytes = [0i8; 8];
        // SAFETY: register-only NEON intrinsics, then an 8-byte store into `bytes`.
        unsafe { vst1_s8(bytes.as_mut_ptr(), vqmovn_s16(vcombine_s16(vqmovn_s32(lo), vqmovn_s32(hi)))) };
        if let Ok(o) = <&mut [i8; 8]>::try_from(&mut *outs) {
            *o = bytes;
        } else {
            outs.copy_from_slice(&bytes[..n]);
        }
    }

    /// [`Requant8::store`] for uint8 outputs ([`Requant8::new_u8`]).
    #[inline(always)]
    pub(crate) fn store_u8(&self, c0: usize, acc: [int32x4_t; 2], outs: &mut [u8]) {
        let n = outs.len();
        debug_assert!(n <= 8);
        let [lo, hi] = self.lanes(c0, n, acc);
        let mut bytes = [0u8; 8];
        // SAFETY: register-only NEON intrinsics, then an 8-byte store into `bytes`. The
        // clamp keeps the lanes inside uint8, so the unsigned narrow is exact.
        unsafe { vst1_u8(bytes.as_mut_ptr(), vqmovun_s16(vcombine_s16(vqmovn_s32(lo), vqmovn_s32(hi)))) };
        outs.copy_from_slice(&bytes[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::Requant8;
    use crate::kernels::numerics::{Clamp, QuantS8, QuantU8};
    use crate::quant::multiply_by_quantized_multiplier;
    use core::arch::aarch64::vld1q_s32;
    use proptest::prelude::*;

    proptest! {
        /// Every lane count, per channel and per tensor, every multiplier (`i32::MIN` and
        /// negative ones included) and shift, and rounding ties of both signs, equals
        /// `MultiplyByQuantizedMultiplier` + offset + clamp.
        #[test]
        fn store_matches_reference(
            accs in proptest::array::uniform8(prop_oneof![any::<i32>(), Just(i32::MIN), Just(i32::MAX), -1000i32..1000, (-64i32..64).prop_map(|h| h * 2 + 1)]),
            m in prop_oneof![(1i32 << 30)..i32::MAX, Just(i32::MIN), Just(i32::MAX), Just(1 << 30), Just(0), any::<i32>()],
            s in -31i32..=30,
            offset in -128i32..=127,
            lo in -128i32..=0,
            hi in 0i32..=127,
            n in 0usize..=8,
        ) {
            let ms: std::vec::Vec<i32> = (0..9).map(|j| if j == 0 { m } else { m.wrapping_add(j * 7919) }).collect();
            let ss: std::vec::Vec<i32> = (0..9).map(|j| (s + j).clamp(-31, 30)).collect();
            for per_channel in [true, false] {
                let k = if per_channel { 9 } else { 1 };
                let q = QuantS8 { input_offset: 0, output_offset: offset, output_multiplier: &ms[..k], output_shift: &ss[..k] };
                let rq = Requant8::new(&q, &Clamp { min: lo as i8, max: hi as i8 });
                for c0 in [0usize, 1] {
                    let mut out = [0i8; 8];
                    // SAFETY: NEON is enabled for this build; `accs` has 8 lanes.
                    let acc = unsafe { [vld1q_s32(accs.as_ptr()), vld1q_s32(accs.as_ptr().add(4))] };
                    rq.store(c0, acc, &mut out[..n]);
                    for j in 0..n {
                        let c = if per_channel { c0 + j } else { 0 };
                        let want = multiply_by_quantized_multiplier(accs[j], ms[c], ss[c]).wrapping_add(offset).clamp(lo, hi) as i8;
                        prop_assert_eq!(out[j], want, "lane {} c0 {}", j, c0);
                    }
                }
            }
            let q = QuantU8 { input_offset: 0, weights_offset: 0, output_offset: offset + 128, output_multiplier: m, output_shift: s };
            let rq = Requant8::new_u8(&q, &Clamp { min: (lo + 128) as u8, max: (hi + 128) as u8 });
            let mut out = [0u8; 8];
            // SAFETY: as above.
            let acc = unsafe { [vld1q_s32(accs.as_ptr()), vld1q_s32(accs.as_ptr().add(4))] };
            rq.store_u8(0, acc, &mut out[..n]);
            for j in 0..n {
                let want = multiply_by_quantized_multiplier(accs[j], m, s).wrapping_add(offset + 128).clamp(lo + 128, hi + 128) as u8;
                prop_assert_eq!(out[j], want, "u8 lane {}", j);
            }
        }
    }

    /// Rounding ties of both signs at every right shift: `srshl` alone would round the
    /// negative ones up.
    #[test]
    fn ties_round_away_from_zero() {
        for shift in -31i32..=0 {
            let e = -shift;
            let mut accs = std::vec::Vec::new();
            if e > 0 {
                let half = 1i64 << (e - 1);
                for k in [-3i64, -2, -1, 0, 1, 2] {
                    for d in [-1i64, 0, 1] {
                        accs.push(((k << e) + half + d).clamp(i32::MIN as i64, i32::MAX as i64) as i32);
                    }
                }
            }
            accs.extend([i32::MIN, i32::MIN + 1, i32::MAX, -1, 0, 1]);
            // Multiplier 2^30 halves; i32::MAX is the identity up to rounding.
            for m in [1i32 << 30, i32::MAX, i32::MIN] {
                for chunk in accs.chunks(8) {
                    let mut a = [0i32; 8];
                    a[..chunk.len()].copy_from_slice(chunk);
                    let (ms, ss) = ([m], [shift]);
                    let q = QuantS8 { input_offset: 0, output_offset: 0, output_multiplier: &ms, output_shift: &ss };
                    let rq = Requant8::new(&q, &Clamp { min: -128, max: 127 });
                    let mut out = [0i8; 8];
                    // SAFETY: NEON is enabled for this build; `a` has 8 lanes.
                    let acc = unsafe { [vld1q_s32(a.as_ptr()), vld1q_s32(a.as_ptr().add(4))] };
                    rq.store(0, acc, &mut out);
                    for j in 0..8 {
                        let want = multiply_by_quantized_multiplier(a[j], m, shift).clamp(-128, 127) as i8;
                        assert_eq!(out[j], want, "acc {} m {} shift {}", a[j], m, shift);
                    }
                }
            }
        }
    }
}
