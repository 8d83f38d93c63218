//! Dot-product micro-kernels shared by the fast paths of CONV_2D, DEPTHWISE_CONV_2D and
//! FULLY_CONNECTED: int8 x int8 products summed into wrapping i32 accumulators.
//!
//! No zero-point offset is applied here: the callers fold `input_offset * sum(filter)` into
//! a per-channel bias at compile time (wrapping i32 arithmetic is a ring, so the sum is the
//! same modulo 2^32 in any order and grouping, which is exactly TFLite's int32 accumulator).
//!
//! `scalar` always compiles and is the reference; on Armv7E-M (`cfg(tflc_arm_dsp)`, set by
//! the runtime's build script for `thumbv7em-*` targets) `dsp` uses SXTB16/SMLAD.

// On Armv7E-M the DSP versions replace some of these; they stay compiled as the reference.
#[cfg_attr(tflc_arm_dsp, allow(dead_code))]
pub(crate) mod scalar;

#[cfg(tflc_arm_dsp)]
pub(crate) mod dsp;

#[cfg(not(tflc_arm_dsp))]
pub(crate) use scalar::{dot1, dot1_offset, dot4, dot4_offset, mac4, mac4_offset};

#[cfg(tflc_arm_dsp)]
pub(crate) use dsp::{dot1, dot1_offset, dot4, dot4_offset, mac4, mac4_offset};

#[cfg(test)]
mod tests {
    use super::scalar;
    use proptest::prelude::*;
    use std::vec::Vec;

    fn naive(x: &[i8], w: &[i8], acc: i32) -> i32 {
        x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add(x as i32 * w as i32))
    }

    fn naive_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
        x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add((x as i32 + offset) * w as i32))
    }

    proptest! {
        #[test]
        fn dot_offset_matches_naive(
            len in 0usize..40, seed in any::<u64>(), acc in any::<[i32; 4]>(),
            offset in prop_oneof![Just(-127i32), Just(128), Just(0), -127i32..=128],
        ) {
            let mut rng = crate::kernels::test_util::Rng(seed);
            let x = rng.i8s(len);
            let w: Vec<Vec<i8>> = (0..4).map(|_| rng.i8s(len)).collect();
            let want: [i32; 4] = core::array::from_fn(|j| naive_offset(&x, &w[j], offset, acc[j]));
            prop_assert_eq!(scalar::dot4_offset(&x, [&w[0], &w[1], &w[2], &w[3]], offset, acc), want);
            prop_assert_eq!(super::dot4_offset(&x, [&w[0], &w[1], &w[2], &w[3]], offset, acc), want);
            prop_assert_eq!(scalar::dot1_offset(&x, &w[0], offset, acc[0]), want[0]);
            prop_assert_eq!(super::dot1_offset(&x, &w[0], offset, acc[0]), want[0]);
            if len >= 4 {
                let want: [i32; 4] = core::array::from_fn(|j| acc[j].wrapping_add((x[j] as i32 + offset) * w[0][j] as i32));
                let (xa, wa) = ([x[0], x[1], x[2], x[3]], [w[0][0], w[0][1], w[0][2], w[0][3]]);
                prop_assert_eq!(scalar::mac4_offset(xa, wa, offset, acc), want);
                prop_assert_eq!(super::mac4_offset(xa, wa, offset, acc), want);
            }
        }
    }

    proptest! {
        #[test]
        fn dot_matches_naive(len in 0usize..40, seed in any::<u64>(), acc in any::<[i32; 4]>()) {
            let mut rng = crate::kernels::test_util::Rng(seed);
            let x = rng.i8s(len);
            let w: Vec<Vec<i8>> = (0..4).map(|_| rng.i8s(len)).collect();
            let want: [i32; 4] = core::array::from_fn(|j| naive(&x, &w[j], acc[j]));
            prop_assert_eq!(scalar::dot4(&x, [&w[0], &w[1], &w[2], &w[3]], acc), want);
            prop_assert_eq!(super::dot4(&x, [&w[0], &w[1], &w[2], &w[3]], acc), want);
            prop_assert_eq!(scalar::dot1(&x, &w[0], acc[0]), want[0]);
            prop_assert_eq!(super::dot1(&x, &w[0], acc[0]), want[0]);
            if len >= 4 {
                let want: [i32; 4] = core::array::from_fn(|j| acc[j].wrapping_add(x[j] as i32 * w[0][j] as i32));
                let (xa, wa) = ([x[0], x[1], x[2], x[3]], [w[0][0], w[0][1], w[0][2], w[0][3]]);
                prop_assert_eq!(scalar::mac4(xa, wa, acc), want);
                prop_assert_eq!(super::mac4(xa, wa, acc), want);
            }
        }
    }

    /// Extremes: -128 * -128 products everywhere, accumulators at the wrap point.
    #[test]
    fn extremes_wrap() {
        for &(xv, wv) in &[(-128i8, -128i8), (-128, 127), (127, 127)] {
            for len in [1usize, 3, 4, 5, 8, 17] {
                let x = std::vec![xv; len];
                let w = std::vec![wv; len];
                for acc in [i32::MAX, i32::MIN, 0] {
                    let want = naive(&x, &w, acc);
                    assert_eq!(super::dot1(&x, &w, acc), want);
                    assert_eq!(super::dot4(&x, [&w, &w, &w, &w], [acc; 4]), [want; 4]);
                    for offset in [-127, 128] {
                        let want = naive_offset(&x, &w, offset, acc);
                        assert_eq!(super::dot1_offset(&x, &w, offset, acc), want);
                        assert_eq!(super::dot4_offset(&x, [&w, &w, &w, &w], offset, [acc; 4]), [want; 4]);
                    }
                }
            }
        }
    }
}
