//! HARD_SWISH tests: agreement with the real `x * relu6(x + 3) / 6`, the in-place entry
//! point, edge cases. Bit-exactness with TFLite Micro is checked on golden data in
//! `tests/tflm_vectors.rs`.

use super::{hard_swish_s8, hard_swish_s8_in_place, scalar, HardSwishParams};
use crate::kernels::test_util::{kernel_tests, scale, zero_point, Unary, UnaryKernel, UnaryS8Op};
use proptest::prelude::*;
use std::vec::Vec;

#[derive(Clone, Debug)]
struct HardSwish {
    in_scale: f32,
    in_zp: i32,
    /// Output scale over input scale; kept large enough that the op's range fits (as a
    /// converter would).
    out_ratio: f32,
    out_zp: i32,
}

impl UnaryS8Op for HardSwish {
    type Params = HardSwishParams;
    const REFERENCE: UnaryKernel<HardSwishParams> = (scalar::hard_swish_s8, scalar::hard_swish_s8_in_place);

    fn strategy() -> BoxedStrategy<Self> {
        (scale(0.005, 0.2), zero_point(), 0.5f32..2.0, zero_point())
            .prop_map(|(in_scale, in_zp, out_ratio, out_zp)| HardSwish { in_scale, in_zp, out_ratio, out_zp })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        for (in_scale, out_ratio) in [(0.005, 0.5), (0.2, 2.0), (0.1, 1.0), (0.2, 0.5)] {
            for (in_zp, out_zp) in [(0, 0), (-128, 127), (127, -128)] {
                v.push(HardSwish { in_scale, in_zp, out_ratio, out_zp });
            }
        }
        v
    }

    fn params(&self) -> Option<HardSwishParams> {
        crate::kernels::hard_swish::prepare_hard_swish_s8(self.in_scale, self.in_zp, self.in_scale * self.out_ratio, self.out_zp)
    }

    fn ideal(&self, x: i8) -> f64 {
        let r = self.in_scale as f64 * (x as f64 - self.in_zp as f64);
        let real = r * (r + 3.0).clamp(0.0, 6.0) / 6.0;
        (real / (self.in_scale * self.out_ratio) as f64 + self.out_zp as f64).clamp(-128.0, 127.0)
    }

    /// TFLite's int16 pipeline is accurate to about one output step (plus the 16-bit
    /// multipliers' relative error on large outputs).
    fn tolerance(&self, ideal: f64) -> f64 {
        1.5 + ideal.abs() / 256.0
    }
}

kernel_tests!(impl_scalar, Unary<HardSwish>, (scalar::hard_swish_s8, scalar::hard_swish_s8_in_place));
kernel_tests!(impl_dispatch, if true, Unary<HardSwish>, (hard_swish_s8, hard_swish_s8_in_place));
kernel_tests!(impl_table, if true, Unary<HardSwish>, (super::super::hard_swish_s8_table, super::super::hard_swish_s8_table_in_place));

#[test]
fn zero_and_negative_region_map_to_zero() {
    // x <= -3 and x == 0 give 0 exactly.
    let p = crate::kernels::hard_swish::prepare_hard_swish_s8(0.1, 0, 0.05, -20).unwrap();
    let mut out = [0i8; 3];
    hard_swish_s8(&p, &[0, -30, -128], &mut out);
    assert_eq!(out, [-20, -20, -20]);
}

proptest! {
    /// float32 HARD_SWISH in place gives the out-of-place bytes.
    #[test]
    fn f32_in_place_matches(n in 0usize..70, seed in any::<u64>()) {
        let x = crate::kernels::test_util::special_f32s(&mut crate::kernels::test_util::Rng(seed), n);
        crate::kernels::test_util::unary_in_place_matches(&x, crate::kernels::hard_swish::hard_swish_f32, crate::kernels::hard_swish::hard_swish_f32_in_place).map_err(proptest::test_runner::TestCaseError::fail)?;
    }
}
