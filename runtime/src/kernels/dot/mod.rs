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
//! them with every implementation the test machine can execute (the shared `kernel_tests!`,
//! here and in the kernels).

// On DSP targets the scalar implementation is only the tests' reference.
#[cfg_attr(any(tflc_arm_dsp, all(target_arch = "aarch64", target_feature = "neon")), allow(dead_code))]
pub(crate) mod scalar;

#[cfg(tflc_arm_dsp)]
pub(crate) mod dsp;

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
#[cfg_attr(tflc_runtime_scalar, allow(dead_code))]
pub(crate) mod neon;

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
    //! One [`KernelCase`] for all six micro-kernels (random lengths, data, offsets and
    //! accumulators; lane tails 0..=17 with ±127 / −128 everywhere, accumulators at the
    //! wrap point, offsets −127, 0 and 128), the naive wrapping sums as oracle, and one
    //! suite per implementation.
    use super::scalar::Scalar;
    use super::Dot;
    use crate::kernels::test_util::{kernel_tests, KernelCase, Rng};
    use proptest::prelude::*;
    use std::format;
    use std::string::String;
    use std::vec::Vec;

    type Dot4 = fn(&[i8], [&[i8]; 4], [i32; 4]) -> [i32; 4];
    type Dot4Offset = fn(&[i8], [&[i8]; 4], i32, [i32; 4]) -> [i32; 4];
    type Mac4Offset = fn([i8; 4], [i8; 4], i32, [i32; 4]) -> [i32; 4];

    /// The micro-kernels of one implementation.
    #[derive(Clone, Copy)]
    struct DotFns {
        dot4: Dot4,
        dot1: fn(&[i8], &[i8], i32) -> i32,
        mac4: fn([i8; 4], [i8; 4], [i32; 4]) -> [i32; 4],
        dot4_offset: Dot4Offset,
        dot1_offset: fn(&[i8], &[i8], i32, i32) -> i32,
        mac4_offset: Mac4Offset,
    }

    impl DotFns {
        const fn of<D: Dot>() -> DotFns {
            DotFns { dot4: D::dot4, dot1: D::dot1, mac4: D::mac4, dot4_offset: D::dot4_offset, dot1_offset: D::dot1_offset, mac4_offset: D::mac4_offset }
        }
    }

    fn naive(x: &[i8], w: &[i8], acc: i32) -> i32 {
        x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add(x as i32 * w as i32))
    }

    fn naive_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
        x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add((x as i32 + offset) * w as i32))
    }

    /// `x` and four rows `w` of length `len`: random from `seed`, or filled with `fill`.
    #[derive(Clone, Debug)]
    struct DotCase {
        len: usize,
        fill: Option<(i8, i8)>,
        seed: u64,
        offset: i32,
        acc: [i32; 4],
    }

    impl DotCase {
        fn data(&self) -> (Vec<i8>, Vec<Vec<i8>>) {
            match self.fill {
                Some((xv, wv)) => (std::vec![xv; self.len], (0..4).map(|_| std::vec![wv; self.len]).collect()),
                None => {
                    let mut rng = Rng(self.seed);
                    let x = rng.i8s(self.len);
                    (x, (0..4).map(|_| rng.i8s(self.len)).collect())
                }
            }
        }

        /// What every micro-kernel should return, in [`KernelCase::run`]'s order.
        fn want(&self) -> Vec<(&'static str, i32)> {
            let (x, w) = self.data();
            let (offset, acc) = (self.offset, self.acc);
            let mut v = Vec::new();
            v.extend((0..4).map(|j| ("dot4", naive(&x, &w[j], acc[j]))));
            v.push(("dot1", naive(&x, &w[0], acc[0])));
            v.extend((0..4).map(|j| ("dot4_offset", naive_offset(&x, &w[j], offset, acc[j]))));
            v.push(("dot1_offset", naive_offset(&x, &w[0], offset, acc[0])));
            if x.len() >= 4 {
                v.extend((0..4).map(|j| ("mac4", acc[j].wrapping_add(x[j] as i32 * w[0][j] as i32))));
                v.extend((0..4).map(|j| ("mac4_offset", acc[j].wrapping_add((x[j] as i32 + offset) * w[0][j] as i32))));
            }
            v
        }
    }

    impl KernelCase for DotCase {
        type Kernel = DotFns;
        type Output = Vec<i32>;
        const REFERENCE: DotFns = DotFns::of::<Scalar>();

        fn strategy() -> BoxedStrategy<Self> {
            (0usize..40, any::<u64>(), any::<[i32; 4]>(), prop_oneof![Just(-127i32), Just(128), Just(0), -127i32..=128])
                .prop_map(|(len, seed, acc, offset)| DotCase { len, fill: None, seed, offset, acc })
                .boxed()
        }

        fn edge_cases() -> Vec<Self> {
            let mut v = Vec::new();
            for fill in [(-128i8, -128i8), (-128, 127), (127, 127), (127, -128)] {
                for len in 0usize..=17 {
                    for acc in [i32::MAX, i32::MIN, 0, -1] {
                        for offset in [-127, 0, 128] {
                            v.push(DotCase { len, fill: Some(fill), seed: 0, offset, acc: [acc; 4] });
                        }
                    }
                }
            }
            v
        }

        fn run(&self, k: DotFns) -> Result<Vec<i32>, String> {
            let (x, w) = self.data();
            let rows = [&w[0][..], &w[1][..], &w[2][..], &w[3][..]];
            let (offset, acc) = (self.offset, self.acc);
            let mut v = Vec::new();
            v.extend((k.dot4)(&x, rows, acc));
            v.push((k.dot1)(&x, &w[0], acc[0]));
            v.extend((k.dot4_offset)(&x, rows, offset, acc));
            v.push((k.dot1_offset)(&x, &w[0], offset, acc[0]));
            if x.len() >= 4 {
                let (xa, wa) = ([x[0], x[1], x[2], x[3]], [w[0][0], w[0][1], w[0][2], w[0][3]]);
                v.extend((k.mac4)(xa, wa, acc));
                v.extend((k.mac4_offset)(xa, wa, offset, acc));
            }
            Ok(v)
        }

        fn check(&self, out: &Vec<i32>) -> Result<(), String> {
            let want = self.want();
            if out.len() != want.len() {
                return Err(format!("{} results, {} expected", out.len(), want.len()));
            }
            for (&got, &(what, want)) in out.iter().zip(&want) {
                if got != want {
                    return Err(format!("{what} at len {}: got {got}, want {want}", self.len));
                }
            }
            Ok(())
        }
    }

    kernel_tests!(scalar, DotCase, DotFns::of::<Scalar>());
    // The DSP implementation runs wherever it is compiled (Armv7E-M firmware under QEMU,
    // ARMv7-A Linux under qemu-arm); elsewhere it is not compiled and not tested, which
    // `crate::isa::tests::report` prints.
    #[cfg(tflc_arm_dsp)]
    kernel_tests!(arm_dsp, if true, DotCase, DotFns::of::<crate::kernels::dot::dsp::ArmDsp>());
    // NEON is part of the aarch64 base ISA: compiled and run on every aarch64 build
    // (`tools/test-runtime-aarch64.sh` runs it under qemu-aarch64).
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    kernel_tests!(neon, if true, DotCase, DotFns::of::<crate::kernels::dot::neon::Neon>());
}
