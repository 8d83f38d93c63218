//! Int8 output requantization shared by the convolution and fully-connected fast paths:
//! TFLite's `MultiplyByQuantizedMultiplier`, output offset, activation clamp, per channel
//! or per tensor, over a run of output channels without per-element table lookups.

use crate::quant::multiply_by_quantized_multiplier;

pub(crate) struct Requant<'a> {
    multiplier: &'a [i32],
    shift: &'a [i32],
    offset: i32,
    min: i32,
    max: i32,
}

impl<'a> Requant<'a> {
    /// `multiplier` and `shift` of length 1 (per tensor) or one per output channel.
    #[inline(always)]
    pub(crate) fn new(multiplier: &'a [i32], shift: &'a [i32], offset: i32, min: i32, max: i32) -> Self {
        debug_assert_eq!(multiplier.len(), shift.len());
        Requant { multiplier, shift, offset, min, max }
    }

    #[inline(always)]
    fn one(&self, acc: i32, multiplier: i32, shift: i32) -> i8 {
        let v = multiply_by_quantized_multiplier(acc, multiplier, shift).wrapping_add(self.offset);
        v.max(self.min).min(self.max) as i8
    }

    /// `outs[j]` = the requantized `accs[j]` of output channel `c0 + j`.
    #[inline(always)]
    pub(crate) fn store(&self, c0: usize, accs: &[i32], outs: &mut [i8]) {
        if self.multiplier.len() == 1 {
            let (m, s) = (self.multiplier[0], self.shift[0]);
            for (o, &a) in outs.iter_mut().zip(accs) {
                *o = self.one(a, m, s);
            }
        } else {
            let n = outs.len();
            let (ms, ss) = (&self.multiplier[c0..][..n], &self.shift[c0..][..n]);
            for (((o, &a), &m), &s) in outs.iter_mut().zip(accs).zip(ms).zip(ss) {
                *o = self.one(a, m, s);
            }
        }
    }
}
