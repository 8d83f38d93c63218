//! LOGISTIC tests: agreement with the real sigmoid (within one output step), monotonicity,
//! saturation, the in-place entry point. Bit-exactness with TFLite Micro is checked on
//! golden data in `tests/tflm_vectors.rs`.

use super::{logistic_s8, logistic_s8_in_place, scalar, LogisticParams};
use crate::kernels::test_util::{all_i8, kernel_tests, scale, zero_point, Unary, UnaryKernel, UnaryS8Op};
use proptest::prelude::*;
use std::vec::Vec;

/// The output is implicitly scale 1/256, zero point -128.
#[derive(Clone, Debug)]
struct Logistic {
    scale: f32,
    zp: i32,
}

impl UnaryS8Op for Logistic {
    type Params = LogisticParams;
    const REFERENCE: UnaryKernel<LogisticParams> = (scalar::logistic_s8, scalar::logistic_s8_in_place);

    fn strategy() -> BoxedStrategy<Self> {
        (scale(0.001, 0.5), zero_point()).prop_map(|(scale, zp)| Logistic { scale, zp }).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        // The input multiplier's extremes: tiny scales (everything near 1/2) and large ones
        // (everything saturated but a few codes around the zero point).
        for scale in [1e-3, 0.1, 0.5, 1.0] {
            for zp in [0, -128, 127] {
                v.push(Logistic { scale, zp });
            }
        }
        v
    }

    fn params(&self) -> Option<LogisticParams> {
        crate::kernels::logistic::prepare_logistic_s8(self.scale, self.zp, -128)
    }

    fn ideal(&self, x: i8) -> f64 {
        let real = 1.0 / (1.0 + (-(self.scale as f64) * (x as f64 - self.zp as f64)).exp());
        (real * 256.0 - 128.0).clamp(-128.0, 127.0)
    }

    fn tolerance(&self, _ideal: f64) -> f64 {
        1.0
    }
}

kernel_tests!(impl_scalar, Unary<Logistic>, (scalar::logistic_s8, scalar::logistic_s8_in_place));
kernel_tests!(impl_dispatch, if true, Unary<Logistic>, (logistic_s8, logistic_s8_in_place));
kernel_tests!(impl_table, if true, Unary<Logistic>, (super::super::logistic_s8_table, super::super::logistic_s8_table_in_place));

proptest! {
    #[test]
    fn monotonic(scale in 0.001f32..0.5, zp in -128i32..=127) {
        let p = crate::kernels::logistic::prepare_logistic_s8(scale, zp, -128).unwrap();
        let mut out = [0i8; 256];
        logistic_s8(&p, &all_i8(), &mut out);
        prop_assert!(out.windows(2).all(|w| w[0] <= w[1]), "{:?}", out);
    }
}

#[test]
fn zero_is_one_half_and_extremes_saturate() {
    let p = crate::kernels::logistic::prepare_logistic_s8(0.1, 3, -128).unwrap();
    let mut out = [0i8; 3];
    logistic_s8(&p, &[3, -128, 127], &mut out);
    // 0.5 * 256 - 128 = 0; sigmoid(-13.1) -> -128; sigmoid(12.4) -> 127.
    assert_eq!(out, [0, -128, 127]);
}

proptest! {
    /// float32 LOGISTIC in place gives the out-of-place bytes.
    #[test]
    fn f32_in_place_matches(n in 0usize..70, seed in any::<u64>()) {
        let x = crate::kernels::test_util::special_f32s(&mut crate::kernels::test_util::Rng(seed), n);
        crate::kernels::test_util::unary_in_place_matches(&x, crate::kernels::logistic::logistic_f32, crate::kernels::logistic::logistic_f32_in_place).map_err(proptest::test_runner::TestCaseError::fail)?;
    }
}

/// int16 LOGISTIC and TANH (16x8): within 2 steps of 2^-15 of the real functions over the
/// int16 range, for power-of-two and general input scales; the power-of-two cases take the
/// `3 << k` multiplier; in place the same; an output scale other than 2^-15 is refused.
#[test]
fn lut_s16_follows_the_real_functions() {
    use super::{logistic_s16, logistic_s16_in_place, prepare_lut_s16};
    use crate::kernels::tanh::{tanh_s16, tanh_s16_in_place};
    assert_eq!(prepare_lut_s16(1.0 / 4096.0, 1.0 / 32768.0, false).map(|p| (p.multiplier, p.shift)), Some((3, 0)));
    assert_eq!(prepare_lut_s16(1.0 / 2048.0, 1.0 / 32768.0, true).map(|p| (p.multiplier, p.shift)), Some((6, 0)));
    assert!(prepare_lut_s16(1.0 / 4096.0, 1.0 / 256.0, false).is_none());
    let x: Vec<i16> = (-32768i32..=32767).step_by(7).map(|v| v as i16).collect();
    for scale in [1.0f32 / 4096.0, 1.0 / 2048.0, 0.0003, 0.00002, 0.001] {
        for tanh in [false, true] {
            let p = prepare_lut_s16(scale, 1.0 / 32768.0, tanh).unwrap();
            let mut y = std::vec![0i16; x.len()];
            let mut z = x.clone();
            if tanh {
                tanh_s16(&p, &x, &mut y);
                tanh_s16_in_place(&p, &mut z);
            } else {
                logistic_s16(&p, &x, &mut y);
                logistic_s16_in_place(&p, &mut z);
            }
            assert_eq!(y, z);
            for (&v, &g) in x.iter().zip(&y) {
                let r = v as f64 * scale as f64;
                let real = if tanh { r.tanh() } else { 1.0 / (1.0 + (-r).exp()) } * 32768.0;
                let want = real.round().clamp(-32768.0, 32767.0);
                assert!((g as f64 - want).abs() <= 2.0, "scale {scale} tanh {tanh}: {v} -> {g}, want {want}");
            }
        }
    }
}
