//! Int8 output requantization shared by the fast convolution and fully-connected variants:
//! TFLite's `MultiplyByQuantizedMultiplier`, output offset, activation clamp, per channel
//! or per tensor, over a run of output channels without per-element table lookups.

use crate::kernels::numerics::{Clamp, QuantS8};
use crate::quant::{rounding_divide_by_pot, saturating_rounding_doubling_high_mul};

pub(crate) struct Requant<'a> {
    multiplier: &'a [i32],
    shift: &'a [i32],
    offset: i32,
    min: i32,
    max: i32,
    /// Whether some multiplier is `i32::MIN`, the only one for which SaturatingRounding-
    /// DoublingHighMul can saturate (compiler-made multipliers are never negative).
    any_min_multiplier: bool,
}

impl<'a> Requant<'a> {
    /// The requantization of `q` (multipliers of length 1, per tensor, or one per output
    /// channel) and the clamp `c`.
    #[inline(always)]
    pub(crate) fn new(q: &QuantS8<'a>, c: &Clamp<i8>) -> Self {
        Self::from_parts(q.output_multiplier, q.output_shift, q.output_offset, c.min as i32, c.max as i32)
    }

    #[inline(always)]
    fn from_parts(multiplier: &'a [i32], shift: &'a [i32], offset: i32, min: i32, max: i32) -> Self {
        debug_assert_eq!(multiplier.len(), shift.len());
        let any_min_multiplier = multiplier.contains(&i32::MIN);
        Requant { multiplier, shift, offset, min, max, any_min_multiplier }
    }

    /// TFLite `MultiplyByQuantizedMultiplier(acc, multiplier, shift)`, plus the offset and
    /// the clamp. Without a `MIN_MULTIPLIER` the high multiply needs no saturation check:
    /// `SaturatingRoundingDoublingHighMul(a, b)` saturates only for `a == b == i32::MIN`.
    #[inline(always)]
    fn one<const MIN_MULTIPLIER: bool>(&self, acc: i32, multiplier: i32, shift: i32) -> i8 {
        let left = shift.max(0);
        let right = left - shift;
        let x = acc.wrapping_shl(left as u32);
        let high = if MIN_MULTIPLIER {
            saturating_rounding_doubling_high_mul(x, multiplier)
        } else {
            // The same value (see `quant::saturating_rounding_doubling_high_mul`).
            ((x as i64 * multiplier as i64 + (1 << 30)) >> 31) as i32
        };
        let v = rounding_divide_by_pot(high, right).wrapping_add(self.offset);
        v.max(self.min).min(self.max) as i8
    }

    #[inline(always)]
    fn store_with<const MIN_MULTIPLIER: bool>(&self, c0: usize, accs: &[i32], outs: &mut [i8]) {
        if self.multiplier.len() == 1 {
            let (m, s) = (self.multiplier[0], self.shift[0]);
            for (o, &a) in outs.iter_mut().zip(accs) {
                *o = self.one::<MIN_MULTIPLIER>(a, m, s);
            }
        } else {
            let n = outs.len();
            let (ms, ss) = (&self.multiplier[c0..][..n], &self.shift[c0..][..n]);
            for (((o, &a), &m), &s) in outs.iter_mut().zip(accs).zip(ms).zip(ss) {
                *o = self.one::<MIN_MULTIPLIER>(a, m, s);
            }
        }
    }

    /// `outs[j]` = the requantized `accs[j]` of output channel `c0 + j`.
    #[inline(always)]
    pub(crate) fn store(&self, c0: usize, accs: &[i32], outs: &mut [i8]) {
        if self.any_min_multiplier {
            self.store_with::<true>(c0, accs, outs)
        } else {
            self.store_with::<false>(c0, accs, outs)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Requant;
    use crate::quant::multiply_by_quantized_multiplier;
    use proptest::prelude::*;

    fn reference(acc: i32, m: i32, s: i32, offset: i32, min: i32, max: i32) -> i8 {
        (multiply_by_quantized_multiplier(acc, m, s).wrapping_add(offset)).max(min).min(max) as i8
    }

    proptest! {
        /// Both forms (with and without an `i32::MIN` multiplier in the table) equal
        /// `MultiplyByQuantizedMultiplier` + offset + clamp, per channel and per tensor.
        #[test]
        fn store_matches_reference(
            accs in proptest::collection::vec(prop_oneof![any::<i32>(), Just(i32::MIN), Just(i32::MAX), -1000i32..1000], 1..9),
            m in prop_oneof![(1i32 << 30)..i32::MAX, Just(i32::MIN), Just(i32::MAX), Just(0), any::<i32>()],
            s in -31i32..=31,
            offset in -128i32..=127,
            lo in -128i32..=0,
            hi in 0i32..=127,
        ) {
            let n = accs.len();
            let ms: std::vec::Vec<i32> = (0..n).map(|j| if j == 0 { m } else { m.wrapping_add(j as i32 * 7919) }).collect();
            let ss: std::vec::Vec<i32> = (0..n).map(|j| (s + j as i32).clamp(-31, 30)).collect();
            let rq = Requant::from_parts(&ms, &ss, offset, lo, hi);
            let mut out = std::vec![0i8; n];
            rq.store(0, &accs, &mut out);
            for j in 0..n {
                prop_assert_eq!(out[j], reference(accs[j], ms[j], ss[j], offset, lo, hi));
            }
            let rq1 = Requant::from_parts(&ms[..1], &ss[..1], offset, lo, hi);
            rq1.store(0, &accs, &mut out);
            for j in 0..n {
                prop_assert_eq!(out[j], reference(accs[j], ms[0], ss[0], offset, lo, hi));
            }
        }
    }
}
