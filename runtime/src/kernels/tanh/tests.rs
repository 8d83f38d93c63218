//! TANH tests: agreement with the real tanh (within one output step), monotonicity,
//! saturation, the in-place entry point. Bit-exactness with TFLite Micro is checked on
//! golden data in `tests/golden_vectors.rs`.

use super::prepare_tanh_s8;
use proptest::prelude::*;
use std::vec::Vec;


fn all_inputs() -> Vec<i8> {
    (-128..=127).map(|x| x as i8).collect()
}

macro_rules! kernel_tests {
    ($name:ident, $kernel:path) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(300))]
                #[test]
                fn close_to_tanh_and_monotonic(scale in 0.001f32..0.5, zp in -128i32..=127) {
                    let p = prepare_tanh_s8(scale, zp);
                    let input = all_inputs();
                    let mut out = [0i8; 256];
                    $kernel(&p, &input, &mut out);
                    for (i, (&x, &y)) in input.iter().zip(&out).enumerate() {
                        let want = ((scale as f64 * (x as f64 - zp as f64)).tanh() * 128.0).clamp(-128.0, 127.0);
                        prop_assert!((y as f64 - want).abs() <= 1.0, "x={} got {} want {}", x, y, want);
                        if i > 0 {
                            prop_assert!(out[i - 1] <= y);
                        }
                    }
                    let mut in_place = input.clone();
                    super::super::tanh_s8_in_place(&p, &mut in_place);
                    prop_assert_eq!(&in_place[..], &out[..]);
                }
            }

            #[test]
            fn zero_and_extremes() {
                let p = prepare_tanh_s8(0.1, -5);
                let mut out = [0i8; 3];
                $kernel(&p, &[-5, -128, 127], &mut out);
                assert_eq!(out, [0, -128, 127]);
            }
        }
    };
}

kernel_tests!(scalar, crate::kernels::tanh::scalar::tanh_s8);
kernel_tests!(public_api, crate::kernels::tanh::tanh_s8);
