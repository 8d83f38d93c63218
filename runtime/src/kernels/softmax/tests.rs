//! SOFTMAX tests: agreement with real softmax (the fixed-point pipeline is accurate to one
//! output step), exact shift invariance, and edge cases. Bit-exactness with TFLite Micro is
//! checked on golden data in `tests/tflm_vectors.rs`.

use super::SoftmaxParams;
use crate::kernels::test_util::{extremes, kernel_tests, scale, KernelCase, Rng, LANE_TAILS};
use crate::prepare::softmax_s8;
use proptest::prelude::*;
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;


fn params(input_scale: f32, beta: f32, depth: usize) -> SoftmaxParams {
    let q = softmax_s8(input_scale, beta).unwrap();
    SoftmaxParams { depth, input_multiplier: q.input_multiplier, input_left_shift: q.input_left_shift, diff_min: q.diff_min }
}

fn float_softmax(row: &[i8], input_scale: f32, beta: f32) -> Vec<f64> {
    let max = *row.iter().max().unwrap() as f64;
    let e: Vec<f64> = row.iter().map(|&x| ((x as f64 - max) * input_scale as f64 * beta as f64).exp()).collect();
    let s: f64 = e.iter().sum();
    e.iter().map(|v| v / s * 256.0 - 128.0).collect()
}

type Kernel = fn(&SoftmaxParams, &[i8], &mut [i8]);

/// `rows` rows of `depth` int8 logits (from `seed`, or given), input scale and beta.
#[derive(Clone, Debug)]
struct Softmax {
    depth: usize,
    scale: f32,
    beta: f32,
    input: Vec<i8>,
}

impl KernelCase for Softmax {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = crate::kernels::softmax::scalar::softmax_s8;

    fn strategy() -> BoxedStrategy<Self> {
        (1usize..4, 1usize..40, scale(0.005, 0.3), 0.5f32..2.0, any::<u64>())
            .prop_map(|(rows, depth, scale, beta, seed)| Softmax { depth, scale, beta, input: Rng(seed).i8s(rows * depth) })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = std::vec![
            Softmax { depth: 4, scale: 0.1, beta: 1.0, input: Vec::new() },
            // Input multipliers at both ends: tiny scale (all near uniform), large scale
            // times beta (diffs beyond diff_min).
            Softmax { depth: 16, scale: 0.005, beta: 0.5, input: extremes(64) },
            Softmax { depth: 16, scale: 0.3, beta: 2.0, input: extremes(64) },
        ];
        for n in LANE_TAILS {
            v.push(Softmax { depth: n, scale: 0.1, beta: 1.0, input: extremes(2 * n) });
            v.push(Softmax { depth: n, scale: 0.05, beta: 1.0, input: Rng(n as u64).i8s(n) });
        }
        v
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let p = params(self.scale, self.beta, self.depth);
        let mut out = vec![0i8; self.input.len()];
        kernel(&p, &self.input, &mut out);
        Ok(out)
    }

    /// The fixed-point pipeline is accurate to one output step.
    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        for (row, got) in self.input.chunks(self.depth).zip(out.chunks(self.depth)) {
            for (g, r) in got.iter().zip(float_softmax(row, self.scale, self.beta)) {
                if (*g as f64 - r.clamp(-128.0, 127.0)).abs() > 1.0 {
                    return Err(format!("row {row:?}: {g} vs real {r}"));
                }
            }
        }
        Ok(())
    }
}

kernel_tests!(impl_scalar, Softmax, crate::kernels::softmax::scalar::softmax_s8);
kernel_tests!(impl_dispatch, if true, Softmax, crate::kernels::softmax::softmax_s8);

proptest! {
    /// Only differences from the row maximum matter: shifting a row changes nothing.
    #[test]
    fn shift_invariant(depth in 1usize..30, scale in 0.005f32..0.3, shift in -60i32..60, seed in any::<u64>()) {
        let p = params(scale, 1.0, depth);
        let base: Vec<i8> = Rng(seed).i8s(depth).iter().map(|&x| (x as i32 / 2) as i8).collect();
        let shifted: Vec<i8> = base.iter().map(|&x| (x as i32 + shift) as i8).collect();
        let (mut a, mut b) = (vec![0i8; depth], vec![0i8; depth]);
        super::softmax_s8(&p, &base, &mut a);
        super::softmax_s8(&p, &shifted, &mut b);
        prop_assert_eq!(a, b);
    }
}

#[test]
fn uniform_rows_and_one_hot() {
    let p = params(0.1, 1.0, 4);
    let mut out = [0i8; 8];
    // Uniform: 1/4 -> 64 - 128 = -64. One dominant value (diff 255 * 0.1 = 25.5,
    // beyond diff_min): 1.0 -> 127 (saturated), the rest -128.
    super::softmax_s8(&p, &[7, 7, 7, 7, -128, 127, -128, -128], &mut out);
    assert_eq!(out, [-64, -64, -64, -64, -128, 127, -128, -128]);
    // A single-element row is always 1.0.
    let p1 = params(0.1, 1.0, 1);
    let mut one = [0i8; 3];
    super::softmax_s8(&p1, &[-128, 0, 127], &mut one);
    assert_eq!(one, [127, 127, 127]);
}

/// int8 -> int16: the same pipeline with 16 output bits.
mod s16 {
    use super::*;

    fn float_softmax_16(row: &[i8], input_scale: f32, beta: f32) -> Vec<f64> {
        let max = *row.iter().max().unwrap() as f64;
        let e: Vec<f64> = row.iter().map(|&x| ((x as f64 - max) * input_scale as f64 * beta as f64).exp()).collect();
        let s: f64 = e.iter().sum();
        e.iter().map(|v| v / s * 65536.0 - 32768.0).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Within a few 1/65536 steps of the real softmax (the Q0.31 exp and reciprocal are
        /// far more precise than 16 output bits; diff_min drops terms below exp(-~16)).
        #[test]
        fn close_to_real_softmax(rows in 1usize..4, depth in 1usize..40, scale in 0.005f32..0.3, beta in 0.5f32..2.0, seed in any::<u64>()) {
            let p = params(scale, beta, depth);
            let input = Rng(seed).i8s(rows * depth);
            let mut out = vec![0i16; rows * depth];
            crate::kernels::softmax::softmax_s8_s16(&p, &input, &mut out);
            for (row, got) in input.chunks(depth).zip(out.chunks(depth)) {
                for (g, r) in got.iter().zip(float_softmax_16(row, scale, beta)) {
                    prop_assert!((*g as f64 - r.clamp(-32768.0, 32767.0)).abs() <= 4.0, "{} vs {}", g, r);
                }
            }
        }

        /// The int8 output is the int16 one at 8 fewer bits (to within the one extra rounding).
        #[test]
        fn agrees_with_int8_output(depth in 1usize..30, scale in 0.005f32..0.3, seed in any::<u64>()) {
            let p = params(scale, 1.0, depth);
            let input = Rng(seed).i8s(depth);
            let (mut a, mut b) = (vec![0i8; depth], vec![0i16; depth]);
            crate::kernels::softmax::softmax_s8(&p, &input, &mut a);
            crate::kernels::softmax::softmax_s8_s16(&p, &input, &mut b);
            for (x, y) in a.iter().zip(&b) {
                let y8 = ((*y as f64 + 32768.0) / 256.0 - 128.0).clamp(-128.0, 127.0);
                prop_assert!((*x as f64 - y8).abs() <= 1.0, "{} vs {}", x, y);
            }
        }
    }

    #[test]
    fn uniform_rows_and_one_hot() {
        let p = params(0.1, 1.0, 4);
        let mut out = [0i16; 8];
        // Uniform: 1/4 -> 16384 - 32768. Dominant: 1.0 saturates at 32767, the rest -32768.
        crate::kernels::softmax::softmax_s8_s16(&p, &[7, 7, 7, 7, -128, 127, -128, -128], &mut out);
        assert_eq!(out, [-16384, -16384, -16384, -16384, -32768, 32767, -32768, -32768]);
        let p1 = params(0.1, 1.0, 1);
        let mut one = [0i16; 2];
        crate::kernels::softmax::softmax_s8_s16(&p1, &[-128, 127], &mut one);
        assert_eq!(one, [32767, 32767]);
    }
}

/// float32 SOFTMAX (`softmax_f32`): TFLite's `reference_ops::Softmax` steps with the host's
/// `expf` (within one ulp per output of ours, the `math::expf` difference carried through;
/// `math::expf` is tested on its own), and the real softmax within 1e-6.
mod float32 {
    use super::super::{softmax_f32, SoftmaxF32Params};
    use crate::kernels::test_util::{floats, kernel_tests, KernelCase, Rng, LANE_TAILS};
    use proptest::prelude::*;
    use std::format;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    #[derive(Clone, Debug)]
    struct Softmax {
        depth: usize,
        beta: f32,
        input: Vec<f32>,
    }

    type Kernel = fn(&SoftmaxF32Params, &[f32], &mut [f32]);

    impl KernelCase for Softmax {
        type Kernel = Kernel;
        type Output = Vec<f32>;
        const REFERENCE: Kernel = softmax_f32;

        fn strategy() -> BoxedStrategy<Self> {
            (0usize..4, 1usize..40, 0.1f32..3.0, 0.1f32..30.0, any::<u64>())
                .prop_map(|(rows, depth, beta, scale, seed)| Softmax { depth, beta, input: floats(&mut Rng(seed), rows * depth, scale) })
                .boxed()
        }

        fn edge_cases() -> Vec<Self> {
            let mut v = vec![
                // One huge logit (the others underflow to 0), all equal, +-1e30.
                Softmax { depth: 4, beta: 1.0, input: vec![1000.0, 0.0, -5.0, 3.0] },
                Softmax { depth: 5, beta: 1.0, input: vec![2.5; 5] },
                Softmax { depth: 3, beta: 1.0, input: vec![1e30, -1e30, 0.0] },
                Softmax { depth: 1, beta: 0.5, input: vec![-7.0, 7.0] },
            ];
            for n in LANE_TAILS {
                v.push(Softmax { depth: n, beta: 1.0, input: floats(&mut Rng(n as u64), 2 * n, 3.0) });
            }
            v
        }

        fn run(&self, kernel: Kernel) -> Result<Vec<f32>, String> {
            let mut out = vec![f32::NAN; self.input.len()];
            kernel(&SoftmaxF32Params { depth: self.depth, beta: self.beta }, &self.input, &mut out);
            Ok(out)
        }

        /// TFLite's steps with the host's `expf` (within one ulp per output of ours, the
        /// `math::expf` difference carried through), and the real softmax within 1e-6.
        fn check(&self, got: &Vec<f32>) -> Result<(), String> {
            for (r, (xs, ys)) in self.input.chunks(self.depth).zip(got.chunks(self.depth)).enumerate() {
                let max = xs.iter().fold(f32::MIN, |m, &x| if m < x { x } else { m });
                let e: Vec<f32> = xs.iter().map(|&x| ((x - max) * self.beta).exp()).collect();
                let sum: f32 = e.iter().sum();
                let real: Vec<f64> = xs.iter().map(|&x| ((x as f64 - max as f64) * self.beta as f64).exp()).collect();
                let real_sum: f64 = real.iter().sum();
                for c in 0..self.depth {
                    let want = e[c] / sum;
                    if (ys[c] - want).abs() > 4.0 * f32::EPSILON * want.max(f32::MIN_POSITIVE) {
                        return Err(format!("row {r} output {c}: {:e}, TFLite's steps give {want:e}", ys[c]));
                    }
                    if (ys[c] as f64 - real[c] / real_sum).abs() > 1e-6 {
                        return Err(format!("row {r} output {c}: {:e}, the real softmax is {:e}", ys[c], real[c] / real_sum));
                    }
                }
            }
            Ok(())
        }
    }

    kernel_tests!(reference, Softmax, softmax_f32);
}

/// Legacy uint8 SOFTMAX (`softmax_u8`): `softmax_s8` on the inputs minus 128, plus 128, is
/// the oracle (the kernel reads only differences from the row maximum; the output zero
/// point moves from -128 to 0), which is the claim that uint8 shares int8's arithmetic.
mod uint8 {
    use super::super::{softmax_s8, softmax_u8, SoftmaxParams};
    use crate::kernels::test_util::{check_output, kernel_tests, u8s, KernelCase, Rng, LANE_TAILS};
    use proptest::prelude::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    #[derive(Clone, Debug)]
    struct Softmax {
        depth: usize,
        params: (i32, i32, i32),
        input: Vec<u8>,
    }

    type Kernel = fn(&SoftmaxParams, &[u8], &mut [u8]);

    impl KernelCase for Softmax {
        type Kernel = Kernel;
        type Output = Vec<u8>;
        const REFERENCE: Kernel = softmax_u8;

        fn strategy() -> BoxedStrategy<Self> {
            (0usize..4, 1usize..40, 0.005f32..0.3, any::<u64>())
                .prop_map(|(rows, depth, scale, seed)| {
                    let q = crate::prepare::softmax_s8(scale, 1.0).unwrap();
                    Softmax { depth, params: (q.input_multiplier, q.input_left_shift, q.diff_min), input: u8s(&mut Rng(seed), rows * depth) }
                })
                .boxed()
        }

        fn edge_cases() -> Vec<Self> {
            let q = crate::prepare::softmax_s8(0.1, 1.0).unwrap();
            LANE_TAILS.map(|n| Softmax { depth: n, params: (q.input_multiplier, q.input_left_shift, q.diff_min), input: (0..2 * n).map(|i| [0u8, 255, 128, 1][i % 4]).collect() }).collect()
        }

        fn run(&self, kernel: Kernel) -> Result<Vec<u8>, String> {
            let (input_multiplier, input_left_shift, diff_min) = self.params;
            let mut out = vec![0x55; self.input.len()];
            kernel(&SoftmaxParams { depth: self.depth, input_multiplier, input_left_shift, diff_min }, &self.input, &mut out);
            Ok(out)
        }

        fn check(&self, got: &Vec<u8>) -> Result<(), String> {
            let (input_multiplier, input_left_shift, diff_min) = self.params;
            let x: Vec<i8> = self.input.iter().map(|&v| (v ^ 0x80) as i8).collect();
            let mut want = vec![0i8; x.len()];
            softmax_s8(&SoftmaxParams { depth: self.depth, input_multiplier, input_left_shift, diff_min }, &x, &mut want);
            let want: Vec<u8> = want.iter().map(|&v| (v as u8) ^ 0x80).collect();
            check_output(got, &want, None)
        }
    }

    kernel_tests!(reference, Softmax, softmax_u8);
}
