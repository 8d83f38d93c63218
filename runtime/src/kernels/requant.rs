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
            rounding_high_mul(x, multiplier)
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

/// `(x * m + 2^30) >> 31` (floor), the 64-bit product's rounded high part. On RV32 a
/// multiplier `m >= 0` (every compiler-made one) takes the 32-bit-word form
/// (`dot::rv32::high_round` of `2m`: `mulhsu` and the low word's top bit, the same value
/// scaled by two), where LLVM's 64-bit add and shift take about twice the instructions.
#[inline(always)]
fn rounding_high_mul(x: i32, m: i32) -> i32 {
    #[cfg(target_arch = "riscv32")]
    if m >= 0 {
        return crate::kernels::dot::rv32::high_round(x, (m as u32) << 1);
    }
    ((x as i64 * m as i64 + (1 << 30)) >> 31) as i32
}

/// Requantization constants that a fast variant keeps in its packed table next to the
/// weights, per group of four output channels: the four multipliers, then one word of the
/// four right shifts as bytes (lane `j` in bits `8j..8j + 8`). The kernel then needs
/// neither the params' multiplier and shift tables nor a table lookup per channel, and
/// [`Requant4::apply`] is [`crate::kernels::dot::Dot::requant_lane`]: no left shift, no
/// saturation test, the rounding and the output offset in the multiply's accumulate.
///
/// It is exact (TFLite's `MultiplyByQuantizedMultiplier`, offset, clamp) for a channel
/// whose multiplier is not negative, whose shift is a right shift of 1..=22, and whose
/// accumulator stays below 2^30 in magnitude: [`packed_requant_ok`], which the variants'
/// `select` checks at compile time from the weights and the bias ([`acc_bound`]).
pub(crate) const PACKED_REQUANT_WORDS: usize = 5;

/// Whether [`Requant4::apply`] is exact for a channel with this multiplier and shift whose
/// accumulator magnitude is at most `acc_bound`.
#[cfg(feature = "prepare")]
pub(crate) fn packed_requant_ok(multiplier: i32, shift: i32, acc_bound: u64) -> bool {
    multiplier >= 0 && (-22..=-1).contains(&shift) && acc_bound < 1 << 30
}

/// A bound on `|bias + sum_t w[t] * (x[t] + input_offset)|` over every int8 input `x`: the
/// accumulator of a channel with weights `w` (the true sum; no int32 wrap below 2^31).
#[cfg(feature = "prepare")]
pub(crate) fn acc_bound(bias: i32, weights: impl Iterator<Item = i8>, input_offset: i32) -> u64 {
    let x_max = (input_offset as i64 - 128).unsigned_abs().max((input_offset as i64 + 127).unsigned_abs());
    weights.fold(bias.unsigned_abs() as u64, |a, w| a + w.unsigned_abs() as u64 * x_max)
}

/// Writes [`PACKED_REQUANT_WORDS`] words for the four channels `c0..c0 + 4` of `q` (one
/// multiplier for all when the table has one entry).
pub(crate) fn pack_requant4(q: &QuantS8, c0: usize, out: &mut [i32]) {
    let at = |t: &[i32], c: usize| t.get(c).or(t.first()).copied().unwrap_or(0);
    let mut shifts = [0u8; 4];
    for j in 0..4 {
        out[j] = at(q.output_multiplier, c0 + j);
        shifts[j] = at(q.output_shift, c0 + j).unsigned_abs().min(31) as u8;
    }
    out[4] = i32::from_le_bytes(shifts);
}

/// The output side of [`PACKED_REQUANT_WORDS`]: `k = 2 * output_offset + 1` and the clamp.
#[derive(Clone, Copy)]
pub(crate) struct Requant4 {
    /// `2 * output_offset + 1`.
    pub(crate) k: i32,
    /// The clamp, `lo <= hi`.
    pub(crate) lo: i8,
    pub(crate) hi: i8,
}

impl Requant4 {
    #[inline(always)]
    pub(crate) fn new(q: &QuantS8, c: &Clamp<i8>) -> Self {
        Requant4 { k: 2 * q.output_offset + 1, lo: c.min, hi: c.max.max(c.min) }
    }

    /// The four outputs of accumulators `acc`, `words` the group's
    /// [`PACKED_REQUANT_WORDS`].
    #[inline(always)]
    pub(crate) fn apply<D: crate::kernels::dot::Dot>(&self, acc: [i32; 4], words: &[i32; PACKED_REQUANT_WORDS]) -> [i8; 4] {
        let e = words[4] as u32;
        let v = [
            D::requant_lane(acc[0], words[0], e, self.k),
            D::requant_lane(acc[1], words[1], e >> 8, self.k),
            D::requant_lane(acc[2], words[2], e >> 16, self.k),
            D::requant_lane(acc[3], words[3], e >> 24, self.k),
        ];
        D::clamp4(v, self.lo, self.hi)
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

    /// [`super::Requant4::apply`] with the dot implementation `D`, for one channel
    /// repeated four times with its neighbours.
    fn packed<D: crate::kernels::dot::Dot>(accs: [i32; 4], ms: [i32; 4], ss: [i32; 4], offset: i32, lo: i8, hi: i8) -> [i8; 4] {
        let q = crate::kernels::numerics::QuantS8 { input_offset: 0, output_offset: offset, output_multiplier: &ms, output_shift: &ss };
        let mut words = [0i32; super::PACKED_REQUANT_WORDS];
        super::pack_requant4(&q, 0, &mut words);
        super::Requant4::new(&q, &crate::kernels::numerics::Clamp { min: lo, max: hi }).apply::<D>(accs, &words)
    }

    proptest! {
        /// The packed requantization equals `MultiplyByQuantizedMultiplier` + offset +
        /// clamp wherever `packed_requant_ok` admits it (accumulators below 2^30, right
        /// shifts 1..=22, multipliers not negative), with every implementation.
        #[test]
        fn packed_matches_reference(
            accs in proptest::array::uniform4(prop_oneof![Just((1 << 30) - 1), Just(-(1 << 30) + 1), Just(0), Just(-1), -1000i32..1000, -(1i32 << 30) + 1..1 << 30]),
            ms in proptest::array::uniform4(prop_oneof![Just(i32::MAX), Just(1 << 30), Just(0), 0..=i32::MAX]),
            ss in proptest::array::uniform4(prop_oneof![Just(-1i32), Just(-22), -22i32..=-1]),
            offset in prop_oneof![Just(-128i32), Just(127), -128i32..=127],
            lo in -128i32..=0,
            hi in 0i32..=127,
        ) {
            for j in 0..4 {
                prop_assert!(super::packed_requant_ok(ms[j], ss[j], accs[j].unsigned_abs() as u64));
            }
            let want: [i8; 4] = core::array::from_fn(|j| reference(accs[j], ms[j], ss[j], offset, lo, hi));
            prop_assert_eq!(packed::<crate::kernels::dot::scalar::Scalar>(accs, ms, ss, offset, lo as i8, hi as i8), want);
            #[cfg(tflc_arm_dsp)]
            prop_assert_eq!(packed::<crate::kernels::dot::dsp::ArmDsp>(accs, ms, ss, offset, lo as i8, hi as i8), want);
            prop_assert_eq!(packed::<crate::kernels::dot::rv32::Rv32>(accs, ms, ss, offset, lo as i8, hi as i8), want);
        }
    }

    /// What `packed_requant_ok` refuses: left shifts, shift 0, shifts past 22, negative
    /// multipliers, accumulators that may reach 2^30.
    #[test]
    fn packed_requant_limits() {
        assert!(super::packed_requant_ok(1 << 30, -1, (1 << 30) - 1));
        assert!(!super::packed_requant_ok(1 << 30, -1, 1 << 30));
        assert!(!super::packed_requant_ok(1 << 30, 0, 0));
        assert!(!super::packed_requant_ok(1 << 30, 1, 0));
        assert!(!super::packed_requant_ok(1 << 30, -23, 0));
        assert!(!super::packed_requant_ok(-1, -5, 0));
        assert_eq!(super::acc_bound(-7, [1i8, -128].into_iter(), 128), 7 + 129 * 255);
        assert_eq!(super::acc_bound(0, [2i8].into_iter(), -128), 2 * 256);
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
