//! MAX_POOL_2D tests: naive reference (maximum over the window cells inside the input),
//! as the oracle of the int8 pool case AVERAGE_POOL_2D's tests define (random geometry,
//! fixed edge cases; [`PoolOp`] says what is MAX_POOL_2D's), one suite per implementation.

use super::{MaxPool2dParams, PoolGeometry};
use crate::kernels::numerics::{Clamp, S8};
use crate::kernels::average_pool_2d::tests::{Case, PoolCase, PoolOp};
use crate::kernels::test_util::{kernel_tests, Rng};
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

fn naive(p: &MaxPool2dParams<S8>, input: &[i8]) -> Vec<i8> {
    let [n, h, w, c] = p.geometry.input_shape;
    let mut out = vec![0i8; n * p.geometry.output_height * p.geometry.output_width * c];
    for b in 0..n {
        for oy in 0..p.geometry.output_height {
            for ox in 0..p.geometry.output_width {
                for ch in 0..c {
                    let mut cells = Vec::new();
                    for fy in 0..p.geometry.filter_height {
                        for fx in 0..p.geometry.filter_width {
                            let y = (oy * p.geometry.stride_height + fy) as i64 - p.geometry.pad_top as i64;
                            let x = (ox * p.geometry.stride_width + fx) as i64 - p.geometry.pad_left as i64;
                            if (0..h as i64).contains(&y) && (0..w as i64).contains(&x) {
                                cells.push(input[((b * h + y as usize) * w + x as usize) * c + ch] as i32);
                            }
                        }
                    }
                    let max = cells.into_iter().max().unwrap_or(-128);
                    out[((b * p.geometry.output_height + oy) * p.geometry.output_width + ox) * c + ch] =
                        max.clamp(p.clamp.min as i32, p.clamp.max as i32) as i8;
                }
            }
        }
    }
    out
}

/// MAX_POOL_2D int8, on AVERAGE_POOL_2D's int8 pool case.
#[derive(Debug, Clone)]
struct Max;

type Pool = crate::kernels::average_pool_2d::tests::Pool<Max>;

impl PoolOp for Max {
    type Params = MaxPool2dParams<S8>;
    const REFERENCE: fn(&Self::Params, &[i8], &mut [i8]) = super::scalar::max_pool_2d::<S8>;
    const EDGE_PADS: [usize; 3] = [0, 1, 3]; // 1: part of a window outside, 3: whole windows in the padding

    fn params(geometry: PoolGeometry, clamp: Clamp<i8>) -> Self::Params {
        MaxPool2dParams { geometry, clamp }
    }

    fn naive(p: &Self::Params, input: &[i8]) -> Vec<i8> {
        naive(p, input)
    }

    /// Max pooling tolerates windows entirely in the padding (-128 before the clamp).
    fn pads(pads: [usize; 4], _: [usize; 2]) -> [usize; 4] {
        pads
    }

    fn strategy() -> BoxedStrategy<Case> {
        ((1usize..3, 1usize..10, 1usize..10, prop_oneof![1usize..6, 14usize..40]).prop_map(|(n, h, w, c)| [n, h, w, c]), [1usize..5, 1usize..5], [1usize..4, 1usize..4], [0usize..4, 0usize..4, 0usize..4, 0usize..4], any::<u64>())
            .prop_map(|(dims, k, stride, pads, seed)| Case { dims, k, stride, pads, seed })
            .boxed()
    }

    fn own_edge_cases() -> Vec<PoolCase> {
        // Padding never wins, even over -128, and the clamp applies afterwards.
        let g = PoolGeometry { input_shape: [1, 1, 2, 1], output_height: 1, output_width: 2, filter_height: 1, filter_width: 2, stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 1 };
        vec![PoolCase::Fixed(g, (-128, 100), vec![-128, 127], Some(vec![-128, 100]))]
    }
}

kernel_tests!(scalar, Pool, crate::kernels::max_pool_2d::scalar::max_pool_2d::<S8>);
kernel_tests!(public_api, if true, Pool, crate::kernels::max_pool_2d::max_pool_2d_s8);

proptest! {
    /// int16 MAX_POOL_2D: the int8 naive definition through a monotone map
    /// (`v -> 256 v + 17`, which commutes with the maximum and the clamp), over random
    /// geometries with padding; a window with no cell inside gives the clamp's minimum.
    #[test]
    fn int16_through_a_monotone_map(seed: u64, n in 1usize..3, h in 1usize..7, w in 1usize..7, c in 1usize..5, k in proptest::array::uniform2(1usize..4), stride in proptest::array::uniform2(1usize..3), pads in proptest::array::uniform2(0usize..2), lo in -128i32..0, hi in 0i32..=127) {
        let oh = (h + 2 * pads[0]).saturating_sub(k[0]) / stride[0] + 1;
        let ow = (w + 2 * pads[1]).saturating_sub(k[1]) / stride[1] + 1;
        let geometry = PoolGeometry { input_shape: [n, h, w, c], output_height: oh, output_width: ow, filter_height: k[0], filter_width: k[1], stride_height: stride[0], stride_width: stride[1], pad_top: pads[0], pad_left: pads[1] };
        let p8 = MaxPool2dParams::<S8> { geometry, clamp: Clamp { min: lo as i8, max: hi as i8 } };
        let map = |v: i32| (v * 256 + 17) as i16;
        let p16 = MaxPool2dParams::<crate::kernels::numerics::S16> { geometry, clamp: Clamp { min: map(lo), max: map(hi) } };
        let mut rng = Rng(seed);
        let x8: Vec<i8> = (0..n * h * w * c).map(|_| rng.range(-128, 127) as i8).collect();
        let x16: Vec<i16> = x8.iter().map(|&v| map(v as i32)).collect();
        let mut y16 = vec![0i16; geometry.output_len()];
        super::max_pool_2d_s16(&p16, &x16, &mut y16);
        let want: Vec<i16> = naive(&p8, &x8).iter().map(|&v| map(v as i32)).collect();
        prop_assert_eq!(y16, want);
    }
}

/// float32 MAX_POOL_2D (`max_pool_2d_f32`) on the float32 pool case AVERAGE_POOL_2D's suite
/// defines ([`PoolF32`], whose module documentation states the oracle).
mod float32 {
    use super::super::{max_pool_2d_f32, MaxPool2dParams};
    use crate::kernels::average_pool_2d::tests::float32::PoolF32;
    use crate::kernels::numerics::F32;
    use crate::kernels::test_util::{clamp_f32, compare_f32, kernel_tests, KernelCase};
    use proptest::prelude::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    type Kernel = fn(&MaxPool2dParams<F32>, &[f32], &mut [f32]);

    #[derive(Clone, Debug)]
    struct MaxPool(PoolF32);

    impl KernelCase for MaxPool {
        type Kernel = Kernel;
        type Output = Vec<f32>;
        const REFERENCE: Kernel = max_pool_2d_f32;

        fn strategy() -> BoxedStrategy<Self> {
            PoolF32::strategy().prop_map(MaxPool).boxed()
        }

        fn edge_cases() -> Vec<Self> {
            PoolF32::edge_cases().into_iter().map(MaxPool).collect()
        }

        fn run(&self, kernel: Kernel) -> Result<Vec<f32>, String> {
            let g = self.0.geometry();
            let mut out = vec![f32::NAN; g.output_len()];
            kernel(&MaxPool2dParams { geometry: g, clamp: clamp_f32(self.0.clamp) }, &self.0.input(), &mut out);
            Ok(out)
        }

        fn check(&self, got: &Vec<f32>) -> Result<(), String> {
            let (exact, real, bound) = self.0.naive(false);
            compare_f32(got, &exact, &real, &bound, clamp_f32(self.0.clamp))
        }
    }

    kernel_tests!(reference, MaxPool, max_pool_2d_f32);
}
