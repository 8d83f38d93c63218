//! HARD_SWISH tests: agreement with the real `x * relu6(x + 3) / 6`, the in-place entry
//! point, edge cases. Bit-exactness with TFLite Micro is checked on golden data in
//! `tests/golden_vectors.rs`.

use super::prepare_hard_swish_s8;
use proptest::prelude::*;
use std::vec::Vec;


fn all_inputs() -> Vec<i8> {
    (-128..=127).map(|x| x as i8).collect()
}

fn real_hard_swish(x: f64) -> f64 {
    x * (x + 3.0).clamp(0.0, 6.0) / 6.0
}

macro_rules! kernel_tests {
    ($name:ident, $kernel:path) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(300))]
                /// TFLite's int16 pipeline is accurate to about one output step (plus the
                /// 16-bit multipliers' relative error on large outputs).
                #[test]
                fn close_to_real(in_scale in 0.005f32..0.2, in_zp in -128i32..=127, out_ratio in 0.5f32..2.0, out_zp in -128i32..=127) {
                    // Keep the output scale large enough that the op's range fits (as a converter would).
                    let out_scale = in_scale * out_ratio;
                    let p = prepare_hard_swish_s8(in_scale, in_zp, out_scale, out_zp).unwrap();
                    let input = all_inputs();
                    let mut out = [0i8; 256];
                    $kernel(&p, &input, &mut out);
                    for (&x, &y) in input.iter().zip(&out) {
                        let real = real_hard_swish(in_scale as f64 * (x as f64 - in_zp as f64));
                        let want = (real / out_scale as f64 + out_zp as f64).clamp(-128.0, 127.0);
                        let tolerance = 1.5 + want.abs() / 256.0;
                        prop_assert!((y as f64 - want).abs() <= tolerance, "x={} got {} want {}", x, y, want);
                    }
                    let mut in_place = input.clone();
                    super::super::hard_swish_s8_in_place(&p, &mut in_place);
                    prop_assert_eq!(&in_place[..], &out[..]);
                }
            }

            #[test]
            fn zero_and_negative_region_map_to_zero() {
                // x <= -3 and x == 0 give 0 exactly.
                let p = prepare_hard_swish_s8(0.1, 0, 0.05, -20).unwrap();
                let mut out = [0i8; 3];
                $kernel(&p, &[0, -30, -128], &mut out);
                assert_eq!(out, [-20, -20, -20]);
            }
        }
    };
}

kernel_tests!(scalar, crate::kernels::hard_swish::scalar::hard_swish_s8);
kernel_tests!(public_api, crate::kernels::hard_swish::hard_swish_s8);
