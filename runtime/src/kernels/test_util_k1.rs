//! Test-only helpers for the conv / pooling / reduction / activation kernel tests:
//! deterministic data from a seed (so proptest shrinks shapes, not megabytes of data) and
//! strategies for quantization parameters.

use crate::prepare::quantize_multiplier;
use proptest::prelude::*;
use std::vec::Vec;

/// SplitMix64: a tiny deterministic generator for test data.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// `len` int8 values over the full range, with the extremes over-represented.
    pub fn i8s(&mut self, len: usize) -> Vec<i8> {
        (0..len)
            .map(|_| match self.next_u64() % 8 {
                0 => i8::MIN,
                1 => i8::MAX,
                _ => self.next_u64() as i8,
            })
            .collect()
    }

    pub fn i32s(&mut self, len: usize, lo: i32, hi: i32) -> Vec<i32> {
        (0..len).map(|_| self.range(lo as i64, hi as i64) as i32).collect()
    }

    /// A `QuantizeMultiplier` result for a log-uniform real multiplier in
    /// `[2^lo_exp, 2^hi_exp)`.
    pub fn multiplier(&mut self, lo_exp: i32, hi_exp: i32) -> (i32, i32) {
        let e = self.range(lo_exp as i64, hi_exp as i64 - 1) as i32;
        let frac = 1.0 + (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let real = frac * crate::prepare::exp2i(e);
        quantize_multiplier(real).unwrap()
    }

    /// An ordered activation clamp inside int8, the full range half of the time.
    pub fn activation_range(&mut self) -> (i32, i32) {
        if self.next_u64().is_multiple_of(2) {
            (-128, 127)
        } else {
            let a = self.range(-128, 127) as i32;
            let b = self.range(-128, 127) as i32;
            (a.min(b), a.max(b))
        }
    }
}

/// Per-channel (or, one time in four, per-tensor: length 1) multipliers and shifts.
pub fn multipliers(rng: &mut Rng, channels: usize, lo_exp: i32, hi_exp: i32) -> (Vec<i32>, Vec<i32>) {
    let n = if rng.next_u64().is_multiple_of(4) { 1 } else { channels };
    (0..n).map(|_| rng.multiplier(lo_exp, hi_exp)).unzip()
}

/// Any zero point of an int8 tensor.
pub fn zero_point() -> impl Strategy<Value = i32> {
    prop_oneof![Just(0), Just(-128), Just(127), -128i32..=127]
}
