//! TANH tests: agreement with the real tanh (within one output step), monotonicity,
//! saturation, the in-place entry point. Bit-exactness with TFLite Micro is checked on
//! golden data in `tests/tflm_vectors.rs`.

use super::{scalar, tanh_s8, tanh_s8_in_place, TanhParams};
use crate::kernels::test_util::{all_i8, kernel_tests, scale, zero_point, Unary, UnaryKernel, UnaryS8Op};
use proptest::prelude::*;
use std::vec::Vec;

/// The output is implicitly scale 1/128, zero point 0.
#[derive(Clone, Debug)]
struct Tanh {
    scale: f32,
    zp: i32,
}

impl UnaryS8Op for Tanh {
    type Params = TanhParams;
    const REFERENCE: UnaryKernel<TanhParams> = (scalar::tanh_s8, scalar::tanh_s8_in_place);

    fn strategy() -> BoxedStrategy<Self> {
        (scale(0.001, 0.5), zero_point()).prop_map(|(scale, zp)| Tanh { scale, zp }).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        for scale in [1e-3, 0.1, 0.5, 1.0] {
            for zp in [0, -128, 127] {
                v.push(Tanh { scale, zp });
            }
        }
        v
    }

    fn params(&self) -> Option<TanhParams> {
        Some(crate::kernels::tanh::prepare_tanh_s8(self.scale, self.zp))
    }

    fn ideal(&self, x: i8) -> f64 {
        ((self.scale as f64 * (x as f64 - self.zp as f64)).tanh() * 128.0).clamp(-128.0, 127.0)
    }

    fn tolerance(&self, _ideal: f64) -> f64 {
        1.0
    }
}

kernel_tests!(impl_scalar, Unary<Tanh>, (scalar::tanh_s8, scalar::tanh_s8_in_place));
kernel_tests!(impl_dispatch, if true, Unary<Tanh>, (tanh_s8, tanh_s8_in_place));
kernel_tests!(impl_table, if true, Unary<Tanh>, (super::super::tanh_s8_table, super::super::tanh_s8_table_in_place));

proptest! {
    #[test]
    fn monotonic(scale in 0.001f32..0.5, zp in -128i32..=127) {
        let p = crate::kernels::tanh::prepare_tanh_s8(scale, zp);
        let mut out = [0i8; 256];
        tanh_s8(&p, &all_i8(), &mut out);
        prop_assert!(out.windows(2).all(|w| w[0] <= w[1]), "{:?}", out);
    }
}

#[test]
fn zero_and_extremes() {
    let p = crate::kernels::tanh::prepare_tanh_s8(0.1, -5);
    let mut out = [0i8; 3];
    tanh_s8(&p, &[-5, -128, 127], &mut out);
    assert_eq!(out, [0, -128, 127]);
}

proptest! {
    /// float32 TANH in place gives the out-of-place bytes.
    #[test]
    fn f32_in_place_matches(n in 0usize..70, seed in any::<u64>()) {
        let x = crate::kernels::test_util::special_f32s(&mut crate::kernels::test_util::Rng(seed), n);
        crate::kernels::test_util::unary_in_place_matches(&x, crate::kernels::tanh::tanh_f32, crate::kernels::tanh::tanh_f32_in_place).map_err(proptest::test_runner::TestCaseError::fail)?;
    }
}
