//! Dot-product micro-kernels shared by the fast variants of CONV_2D, DEPTHWISE_CONV_2D and
//! FULLY_CONNECTED: int8 x int8 products summed into wrapping i32 accumulators.
//!
//! No zero-point offset is applied by the plain forms: the callers fold
//! `input_offset * sum(filter)` into a per-channel bias at compile time (wrapping i32
//! arithmetic is a ring, so the sum is the same modulo 2^32 in any order and grouping, which
//! is exactly TFLite's int32 accumulator); the `_offset` forms add it per element (border
//! windows).
//!
//! The ISA seam: [`Dot`] is the interface, one type per implementation ([`scalar::Scalar`],
//! always compiled, the reference; [`dsp::ArmDsp`], SXTB16/SMLAD, compiled where the
//! target has the Armv7E-M DSP instructions). [`crate::isa`] selects the one the public
//! kernels use. The fast kernels are generic over `D: Dot`, so the same test suite runs
//! them with every implementation the test machine can execute (`dot_tests!` here and the
//! kernels' `kernel_tests!`).

// On DSP targets the scalar implementation is only the tests' reference.
#[cfg_attr(tflc_arm_dsp, allow(dead_code))]
pub(crate) mod scalar;

#[cfg(tflc_arm_dsp)]
pub(crate) mod dsp;

/// One implementation of the micro-kernels. Every method equals the [`scalar::Scalar`]
/// definition bit for bit (wrapping i32 accumulation); rows `w[j]` are at least `x.len()`
/// long.
pub(crate) trait Dot {
    /// Name for test reports.
    const NAME: &'static str;
    /// `acc[j] + sum_i x[i] * w[j][i]` for the four rows `w[j]`.
    fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4];
    /// `acc + sum_i x[i] * w[i]`.
    fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32;
    /// Four independent lanes: `acc[j] + x[j] * w[j]`.
    fn mac4(x: [i8; 4], w: [i8; 4], acc: [i32; 4]) -> [i32; 4];
    /// [`Dot::dot4`] with `offset` (`-128..=128`) added to every `x` first.
    fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4];
    /// [`Dot::dot1`] with `offset` added to every `x` first.
    fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32;
    /// [`Dot::mac4`] with `offset` added to every `x` first.
    fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4];
}

#[cfg(test)]
mod tests {
    use super::Dot;
    use proptest::prelude::*;
    use std::vec::Vec;

    fn naive(x: &[i8], w: &[i8], acc: i32) -> i32 {
        x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add(x as i32 * w as i32))
    }

    fn naive_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
        x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add((x as i32 + offset) * w as i32))
    }

    /// Every micro-kernel of `D` against the naive definition at one length.
    fn check<D: Dot>(x: &[i8], w: &[Vec<i8>], offset: i32, acc: [i32; 4]) {
        let rows = [&w[0][..], &w[1][..], &w[2][..], &w[3][..]];
        let want: [i32; 4] = core::array::from_fn(|j| naive(x, &w[j], acc[j]));
        assert_eq!(D::dot4(x, rows, acc), want, "{} dot4 len {}", D::NAME, x.len());
        assert_eq!(D::dot1(x, &w[0], acc[0]), want[0], "{} dot1 len {}", D::NAME, x.len());
        let want: [i32; 4] = core::array::from_fn(|j| naive_offset(x, &w[j], offset, acc[j]));
        assert_eq!(D::dot4_offset(x, rows, offset, acc), want, "{} dot4_offset len {}", D::NAME, x.len());
        assert_eq!(D::dot1_offset(x, &w[0], offset, acc[0]), want[0], "{} dot1_offset len {}", D::NAME, x.len());
        if x.len() >= 4 {
            let (xa, wa) = ([x[0], x[1], x[2], x[3]], [w[0][0], w[0][1], w[0][2], w[0][3]]);
            let want: [i32; 4] = core::array::from_fn(|j| acc[j].wrapping_add(x[j] as i32 * w[0][j] as i32));
            assert_eq!(D::mac4(xa, wa, acc), want, "{} mac4", D::NAME);
            let want: [i32; 4] = core::array::from_fn(|j| acc[j].wrapping_add((x[j] as i32 + offset) * w[0][j] as i32));
            assert_eq!(D::mac4_offset(xa, wa, offset, acc), want, "{} mac4_offset", D::NAME);
        }
    }

    /// The suite of one implementation: proptests against the naive definition, lane-tail
    /// lengths 0..=17, and the extremes (-128 * -128 everywhere, accumulators at the wrap
    /// point, offsets -127 and 128).
    macro_rules! dot_tests {
        ($name:ident, $imp:ty) => {
            mod $name {
                use super::*;

                proptest! {
                    #[test]
                    fn matches_naive(
                        len in 0usize..40, seed in any::<u64>(), acc in any::<[i32; 4]>(),
                        offset in prop_oneof![Just(-127i32), Just(128), Just(0), -127i32..=128],
                    ) {
                        let mut rng = crate::kernels::test_util::Rng(seed);
                        let x = rng.i8s(len);
                        let w: Vec<Vec<i8>> = (0..4).map(|_| rng.i8s(len)).collect();
                        check::<$imp>(&x, &w, offset, acc);
                    }
                }

                #[test]
                fn lane_tails_and_extremes() {
                    for &(xv, wv) in &[(-128i8, -128i8), (-128, 127), (127, 127), (127, -128)] {
                        for len in 0usize..=17 {
                            let x = std::vec![xv; len];
                            let w: Vec<Vec<i8>> = (0..4).map(|_| std::vec![wv; len]).collect();
                            for acc in [i32::MAX, i32::MIN, 0, -1] {
                                for offset in [-127, 0, 128] {
                                    check::<$imp>(&x, &w, offset, [acc; 4]);
                                }
                            }
                        }
                    }
                }
            }
        };
    }

    dot_tests!(scalar, super::super::scalar::Scalar);
    // The DSP implementation runs wherever it is compiled (Armv7E-M firmware under QEMU,
    // ARMv7-A Linux under qemu-arm); elsewhere it is not compiled and not tested, which
    // `crate::isa::tests::report` prints.
    #[cfg(tflc_arm_dsp)]
    dot_tests!(arm_dsp, super::super::dsp::ArmDsp);
}
