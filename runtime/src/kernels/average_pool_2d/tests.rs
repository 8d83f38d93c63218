//! AVERAGE_POOL_2D tests: naive reference (enumerate the window, count the cells inside,
//! round |sum| / count half up and restore the sign), as the oracle of
//! one [`KernelCase`] (random geometry, fixed edge cases), one suite per implementation.
//! The int8 case ([`Pool`], generic over the operator: [`PoolOp`]) is MAX_POOL_2D's too;
//! the naive definition is the int8, int16 and uint8 suites' one (generic over the
//! numerics); the float32 case ([`float32::PoolF32`]) is MAX_POOL_2D's too.

use super::{AveragePool2dParams, PoolGeometry};
use crate::kernels::numerics::{Clamp, S8};
use crate::kernels::test_util::{extremes, kernel_tests, out_size, IntAct, KernelCase, Rng, LANE_TAILS};
use core::fmt::Debug;
use core::marker::PhantomData;
use proptest::prelude::*;
use std::string::String;
use std::vec;
use std::vec::Vec;

/// AVERAGE_POOL_2D from the definition, in every integer numerics (the int8, int16 and
/// uint8 suites' oracle): the cells of the window inside the input, |sum| / count rounded
/// half up with the sign restored (TFLite's rounding half away from zero; uint8's `(sum +
/// count / 2) / count` is the same on its non-negative sums), clamped.
fn naive<N: IntAct>(p: &AveragePool2dParams<N>, input: &[N::Act]) -> Vec<N::Act> {
    let [n, h, w, c] = p.geometry.input_shape;
    let mut out = Vec::with_capacity(n * p.geometry.output_height * p.geometry.output_width * c);
    for b in 0..n {
        for oy in 0..p.geometry.output_height {
            for ox in 0..p.geometry.output_width {
                for ch in 0..c {
                    let (mut sum, mut count) = (0i64, 0i64);
                    for fy in 0..p.geometry.filter_height {
                        for fx in 0..p.geometry.filter_width {
                            let y = (oy * p.geometry.stride_height + fy) as i64 - p.geometry.pad_top as i64;
                            let x = (ox * p.geometry.stride_width + fx) as i64 - p.geometry.pad_left as i64;
                            if (0..h as i64).contains(&y) && (0..w as i64).contains(&x) {
                                sum += N::wide(input[((b * h + y as usize) * w + x as usize) * c + ch]);
                                count += 1;
                            }
                        }
                    }
                    assert!(count > 0, "test cases keep every window overlapping the input");
                    let magnitude = (2 * sum.abs() + count) / (2 * count);
                    let avg = if sum < 0 { -magnitude } else { magnitude };
                    out.push(N::narrow(avg.clamp(N::wide(p.clamp.min), N::wide(p.clamp.max))));
                }
            }
        }
    }
    out
}

/// A random pool: shapes, filter, strides and padding; data and clamp from `seed`.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    pub(crate) dims: [usize; 4],
    pub(crate) k: [usize; 2],
    pub(crate) stride: [usize; 2],
    pub(crate) pads: [usize; 4],
    pub(crate) seed: u64,
}

/// One int8 pool case: random, or fixed (geometry, clamp, input, hand-computed output if
/// any).
#[derive(Debug, Clone)]
pub(crate) enum PoolCase {
    Random(Case),
    Fixed(PoolGeometry, (i8, i8), Vec<i8>, Option<Vec<i8>>),
}

/// What the int8 pool suites (AVERAGE_POOL_2D's here, MAX_POOL_2D's) do not share: the
/// operator's parameters, its naive definition, its random cases and its own edge cases.
pub(crate) trait PoolOp: Debug + Clone + 'static {
    type Params;
    const REFERENCE: fn(&Self::Params, &[i8], &mut [i8]);
    fn params(geometry: PoolGeometry, clamp: Clamp<i8>) -> Self::Params;
    fn naive(p: &Self::Params, input: &[i8]) -> Vec<i8>;
    /// The padding a random case's `pads` become (the operator's constraint on windows).
    fn pads(pads: [usize; 4], k: [usize; 2]) -> [usize; 4];
    fn strategy() -> BoxedStrategy<Case>;
    /// The fixed cases of this operator alone; [`Pool::edge_cases`] adds the shared ones.
    fn own_edge_cases() -> Vec<PoolCase>;
    /// The padding values of the every-padding-edge cases (each side takes each).
    const EDGE_PADS: [usize; 3];
}

/// The int8 suite of a pool operator `O`.
#[derive(Debug, Clone)]
pub(crate) struct Pool<O>(pub(crate) PoolCase, PhantomData<O>);

impl<O: PoolOp> Pool<O> {
    pub(crate) fn random(dims: [usize; 4], k: [usize; 2], stride: [usize; 2], pads: [usize; 4], seed: u64) -> PoolCase {
        PoolCase::Random(Case { dims, k, stride, pads, seed })
    }

    /// The parameters and the input.
    pub(crate) fn problem(case: &PoolCase) -> (O::Params, PoolGeometry, Vec<i8>) {
        match case {
            PoolCase::Random(c) => {
                let Case { dims, k, stride, pads, seed } = *c;
                let mut rng = Rng(seed);
                let pads = O::pads(pads, k);
                let oh = out_size(dims[1], pads[0], pads[1], k[0], stride[0], 1);
                let ow = out_size(dims[2], pads[2], pads[3], k[1], stride[1], 1);
                let (act_min, act_max) = rng.activation_range();
                let geometry = PoolGeometry { input_shape: dims, output_height: oh, output_width: ow, filter_height: k[0], filter_width: k[1], stride_height: stride[0], stride_width: stride[1], pad_top: pads[0], pad_left: pads[2] };
                (O::params(geometry, Clamp { min: act_min as i8, max: act_max as i8 }), geometry, rng.i8s(dims.iter().product()))
            }
            PoolCase::Fixed(geometry, (min, max), input, _) => (O::params(*geometry, Clamp { min: *min, max: *max }), *geometry, input.clone()),
        }
    }
}

impl<O: PoolOp> KernelCase for Pool<O> {
    type Kernel = fn(&O::Params, &[i8], &mut [i8]);
    type Output = Vec<i8>;
    const REFERENCE: Self::Kernel = O::REFERENCE;
    const CASES: Option<u32> = Some(300);

    fn strategy() -> BoxedStrategy<Self> {
        O::strategy().prop_map(|c| Pool(PoolCase::Random(c), PhantomData)).boxed()
    }

    /// The operator's own cases, then the shared ones: lane tails of the channel loop (odd
    /// channel counts included); every padding edge (each side each of
    /// [`PoolOp::EDGE_PADS`]) at strides 1 and 2; ±127 / −128 in every window with the
    /// full clamp and clamps that cut both ends; zero-size (no batch, no channel, no window
    /// fits).
    fn edge_cases() -> Vec<Self> {
        let c = Self::random;
        let mut v = O::own_edge_cases();
        for n in LANE_TAILS {
            v.push(c([1, 3, 4, n], [2, 2], [1, 1], [0; 4], n as u64));
            v.push(c([2, 4, 3, n], [3, 3], [2, 2], [1; 4], n as u64));
        }
        for (i, pads) in (0..81).map(|i| [i % 3, i / 3 % 3, i / 9 % 3, i / 27].map(|p| O::EDGE_PADS[p])).enumerate() {
            for stride in [1, 2] {
                v.push(c([1, 4, 5, 3], [3, 3], [stride, stride], pads, i as u64));
            }
        }
        for (i, clamp) in [(-128, 127), (-127, 126), (0, 0)].into_iter().enumerate() {
            for (dims, k, pads) in [([1, 4, 5, 7], [2, 3], [1, 0, 1, 1]), ([2, 3, 3, 17], [3, 3], [1; 4]), ([1, 2, 8, 6], [1, 4], [0; 4])] {
                let (_, geometry, input) = Self::problem(&c(dims, k, [1, 1], pads, i as u64));
                v.push(PoolCase::Fixed(geometry, clamp, extremes(input.len()), None));
            }
        }
        v.push(c([0, 3, 3, 2], [2, 2], [1, 1], [0; 4], 0));
        v.push(c([1, 3, 3, 0], [2, 2], [1, 1], [0; 4], 0));
        v.push(c([1, 1, 2, 2], [3, 3], [1, 1], [0; 4], 0));
        v.into_iter().map(|c| Pool(c, PhantomData)).collect()
    }

    fn run(&self, kernel: Self::Kernel) -> Result<Vec<i8>, String> {
        let (p, g, input) = Self::problem(&self.0);
        let mut out = vec![0x55u8 as i8; g.input_shape[0] * g.output_height * g.output_width * g.input_shape[3]];
        kernel(&p, &input, &mut out);
        Ok(out)
    }

    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        let (p, _, input) = Self::problem(&self.0);
        let want = O::naive(&p, &input);
        let expected = match &self.0 {
            PoolCase::Fixed(.., Some(expected)) => Some(expected.as_slice()),
            _ => None,
        };
        crate::kernels::test_util::check_output(out, &want, expected)
    }
}

/// AVERAGE_POOL_2D int8.
#[derive(Debug, Clone)]
struct Average;

type Pool8 = Pool<Average>;

impl PoolOp for Average {
    type Params = AveragePool2dParams<S8>;
    const REFERENCE: fn(&Self::Params, &[i8], &mut [i8]) = super::scalar::average_pool_2d::<S8>;
    const EDGE_PADS: [usize; 3] = [0, 1, 2]; // 2: the most that keeps every window overlapping the input

    fn params(geometry: PoolGeometry, clamp: Clamp<i8>) -> Self::Params {
        AveragePool2dParams { geometry, clamp }
    }

    fn naive(p: &Self::Params, input: &[i8]) -> Vec<i8> {
        naive(p, input)
    }

    /// Every window overlaps the input (padding < filter), as TFLite's SAME/VALID guarantee.
    fn pads(pads: [usize; 4], k: [usize; 2]) -> [usize; 4] {
        [pads[0] % k[0], pads[1] % k[0], pads[2] % k[1], pads[3] % k[1]]
    }

    fn strategy() -> BoxedStrategy<Case> {
        ([1usize..3, 1usize..10, 1usize..10, 1usize..6], [1usize..5, 1usize..5], [1usize..4, 1usize..4], [0usize..6, 0usize..6, 0usize..6, 0usize..6], any::<u64>())
            .prop_map(|(dims, k, stride, pads, seed)| Case { dims, k, stride, pads, seed })
            .boxed()
    }

    fn own_edge_cases() -> Vec<PoolCase> {
        let mut v = Vec::new();
        // 3x3 SAME on 2x2: each window holds the 4 pixels, counted as 4 (not 9); negative
        // ties round away from zero. channel 0: 1 + 2 + 3 + 4 = 10 -> 2.5 -> 3; channel 1:
        // -10 -> -2.5 -> -3.
        let g = PoolGeometry { input_shape: [1, 2, 2, 2], output_height: 2, output_width: 2, filter_height: 3, filter_width: 3, stride_height: 1, stride_width: 1, pad_top: 1, pad_left: 1 };
        v.push(PoolCase::Fixed(g, (-128, 127), vec![1, -1, 2, -2, 3, -3, 4, -4], Some(vec![3, -3, 3, -3, 3, -3, 3, -3])));
        // Extremes and the clamp; -0.5 -> -1.
        let g = PoolGeometry { input_shape: [1, 1, 2, 1], output_height: 1, output_width: 1, filter_height: 1, filter_width: 2, stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0 };
        v.push(PoolCase::Fixed(g, (-100, 127), vec![-128, -128], Some(vec![-100])));
        v.push(PoolCase::Fixed(g, (-100, 127), vec![127, 127], Some(vec![127])));
        v.push(PoolCase::Fixed(g, (-100, 127), vec![127, -128], Some(vec![-1])));
        // Global pools (large counts: the vector forms divide in double precision), random
        // and extreme data, the clamp cutting both ends.
        for (dims, seed) in [([1, 40, 40, 21], 1u64), ([1, 7, 9, 35], 2)] {
            let k = [dims[1], dims[2]];
            v.push(Pool8::random(dims, k, [1, 1], [0; 4], seed));
            let (_, geometry, input) = Pool8::problem(&Pool8::random(dims, k, [1, 1], [0; 4], seed));
            v.push(PoolCase::Fixed(geometry, (-128, 127), extremes(input.len()), None));
            v.push(PoolCase::Fixed(geometry, (-3, 2), Rng(seed).i8s(input.len()), None));
        }
        v
    }
}

kernel_tests!(scalar, Pool8, crate::kernels::average_pool_2d::scalar::average_pool_2d::<S8>);
kernel_tests!(public_api, if true, Pool8, crate::kernels::average_pool_2d::average_pool_2d_s8);
// Helium's sixteen-channel path (`Dot::SUM16`), with the scalar micro-kernel.
kernel_tests!(sum16_scalar, if true, Pool8, crate::kernels::average_pool_2d::sum16::<crate::kernels::dot::scalar::ScalarBytes>);
#[cfg(target_arch = "x86_64")]
fn avx2(p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) {
    let token = crate::arch::x86_64::Avx2::detect().expect("the suite checked detection first");
    crate::arch::x86_64::average_pool_2d_s8(token, p, input, output)
}
#[cfg(target_arch = "x86_64")]
fn avx512vnni(p: &AveragePool2dParams<S8>, input: &[i8], output: &mut [i8]) {
    crate::arch::x86_64::vnni::average_pool_2d_s8(crate::arch::x86_64::vnni::tests::token(), p, input, output)
}
#[cfg(target_arch = "x86_64")]
kernel_tests!(impl_avx2, if crate::arch::x86_64::tests::detected(), Pool8, avx2);
#[cfg(target_arch = "x86_64")]
kernel_tests!(impl_avx512vnni, if crate::arch::x86_64::vnni::tests::detected(), Pool8, avx512vnni);

/// An integer AVERAGE_POOL_2D case in numerics `N` (the int16 and uint8 suites; int8's is
/// [`Pool`], which MAX_POOL_2D shares): its random and fixed cases and its parameters and
/// input. [`Integer`] is the one suite over them: run the kernel, check against [`naive`].
trait IntegerPool: Clone + Debug + 'static {
    type N: IntAct;
    const REFERENCE: IntegerKernel<Self::N>;
    const CASES: Option<u32> = None;
    /// What the output holds before the kernel runs (a value no output left unwritten
    /// would pass as).
    const FILL: Act<Self::N>;
    fn strategy() -> BoxedStrategy<Self>;
    fn edge_cases() -> Vec<Self>;
    fn problem(&self) -> (AveragePool2dParams<Self::N>, Vec<Act<Self::N>>);
}

type Act<N> = <N as crate::kernels::numerics::Numerics>::Act;
type IntegerKernel<N> = fn(&AveragePool2dParams<N>, &[Act<N>], &mut [Act<N>]);

/// The suite of an integer AVERAGE_POOL_2D case `C` ([`IntegerPool`]).
#[derive(Clone, Debug)]
struct Integer<C>(C);

impl<C: IntegerPool> KernelCase for Integer<C> {
    type Kernel = IntegerKernel<C::N>;
    type Output = Vec<Act<C::N>>;
    const REFERENCE: Self::Kernel = C::REFERENCE;
    const CASES: Option<u32> = C::CASES;

    fn strategy() -> BoxedStrategy<Self> {
        C::strategy().prop_map(Integer).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        C::edge_cases().into_iter().map(Integer).collect()
    }

    fn run(&self, kernel: Self::Kernel) -> Result<Self::Output, String> {
        let (p, x) = self.0.problem();
        let mut out = vec![C::FILL; p.geometry.output_len()];
        kernel(&p, &x, &mut out);
        Ok(out)
    }

    fn check(&self, got: &Self::Output) -> Result<(), String> {
        let (p, x) = self.0.problem();
        crate::kernels::test_util::check_output(got, &naive(&p, &x), None)
    }
}

/// float32 AVERAGE_POOL_2D (`average_pool_2d_f32`), and the float32 pool case MAX_POOL_2D's
/// suite shares ([`PoolF32`]). The oracle: TFLite's `reference_ops::AveragePool` / `MaxPool`
/// in `f32` (the kernel must match it bit for bit) and the real result in `f64` (within
/// `1e-5` of the mean magnitude).
pub(crate) mod float32 {
    use super::super::{average_pool_2d_f32, AveragePool2dParams};
    use crate::kernels::numerics::F32;
    use crate::kernels::test_util::{act_f32, clamp_f32, compare_f32, floats, kernel_tests, out_size, KernelCase, Rng, LANE_TAILS};
    use crate::kernels::window::PoolGeometry;
    use proptest::prelude::*;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    #[derive(Clone, Debug)]
    pub(crate) struct PoolF32 {
        batches: usize,
        hw: [usize; 2],
        depth: usize,
        k: [usize; 2],
        stride: [usize; 2],
        /// `[top, left]`, below the window size so every window overlaps the input.
        pad: [usize; 2],
        pub(crate) clamp: usize,
        seed: u64,
    }

    impl PoolF32 {
        pub(crate) fn strategy() -> BoxedStrategy<Self> {
            (1usize..3, [1usize..8, 1usize..8], 1usize..20, [1usize..4, 1usize..4], [1usize..3, 1usize..3], [0usize..3, 0usize..3], 0usize..4, any::<u64>())
                .prop_map(|(batches, hw, depth, k, stride, pad, clamp, seed)| PoolF32 { batches, hw, depth, k, stride, pad: [pad[0].min(k[0] - 1), pad[1].min(k[1] - 1)], clamp, seed })
                .boxed()
        }

        pub(crate) fn edge_cases() -> Vec<Self> {
            let mut v = Vec::new();
            for n in LANE_TAILS {
                v.push(PoolF32 { batches: 1, hw: [4, 5], depth: n, k: [2, 2], stride: [2, 2], pad: [0, 0], clamp: n, seed: n as u64 });
                v.push(PoolF32 { batches: 1, hw: [5, 5], depth: n, k: [3, 3], stride: [2, 2], pad: [1, 1], clamp: n + 1, seed: n as u64 });
            }
            for (i, pad) in [[0, 0], [1, 0], [0, 1], [2, 2], [1, 2]].into_iter().enumerate() {
                for stride in 1..=2 {
                    v.push(PoolF32 { batches: 2, hw: [4, 5], depth: 3, k: [3, 3], stride: [stride; 2], pad, clamp: i, seed: i as u64 });
                }
            }
            // A window over the whole input (global pooling).
            v.push(PoolF32 { batches: 1, hw: [8, 8], depth: 64, k: [8, 8], stride: [8, 8], pad: [0, 0], clamp: 0, seed: 7 });
            v
        }

        pub(crate) fn geometry(&self) -> PoolGeometry {
            let [h, w] = self.hw;
            PoolGeometry {
                input_shape: [self.batches, h, w, self.depth],
                output_height: out_size(h, self.pad[0], 0, self.k[0], self.stride[0], 1),
                output_width: out_size(w, self.pad[1], 0, self.k[1], self.stride[1], 1),
                filter_height: self.k[0],
                filter_width: self.k[1],
                stride_height: self.stride[0],
                stride_width: self.stride[1],
                pad_top: self.pad[0],
                pad_left: self.pad[1],
            }
        }

        pub(crate) fn input(&self) -> Vec<f32> {
            floats(&mut Rng(self.seed), self.geometry().input_shape.iter().product(), 4.0)
        }

        /// The naive pool: TFLite's order per channel (rows, then columns of the clipped
        /// window); `average` or max. The f32 result, the f64 one and the bound of the f32
        /// one's rounding errors.
        pub(crate) fn naive(&self, average: bool) -> (Vec<f32>, Vec<f64>, Vec<f64>) {
            let g = self.geometry();
            let x = self.input();
            let [batches, h, w, depth] = g.input_shape;
            let c = clamp_f32(self.clamp);
            let (mut exact, mut real, mut bound) = (Vec::new(), Vec::new(), Vec::new());
            for b in 0..batches { for oy in 0..g.output_height { for ox in 0..g.output_width { for ch in 0..depth {
                let y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
                let x0 = (ox * g.stride_width) as isize - g.pad_left as isize;
                let (mut t, mut mx, mut n, mut r, mut m) = (0f32, f32::MIN, 0f32, 0f64, 0f64);
                for ky in 0..g.filter_height as isize { for kx in 0..g.filter_width as isize {
                    let (iy, ix) = (y0 + ky, x0 + kx);
                    if iy < 0 || ix < 0 || iy >= h as isize || ix >= w as isize {
                        continue;
                    }
                    let v = x[((b * h + iy as usize) * w + ix as usize) * depth + ch];
                    t += v;
                    mx = if mx < v { v } else { mx };
                    n += 1.0;
                    r += v as f64;
                    m += (v as f64).abs();
                }}
                if average {
                    exact.push(act_f32(t / n, c));
                    real.push(r / n as f64);
                    bound.push(m / n as f64);
                } else {
                    exact.push(act_f32(mx, c));
                    real.push(mx as f64);
                    bound.push(0.0);
                }
            }}}}
            (exact, real, bound)
        }
    }

    type Kernel = fn(&AveragePool2dParams<F32>, &[f32], &mut [f32]);

    #[derive(Clone, Debug)]
    struct AveragePool(PoolF32);

    impl KernelCase for AveragePool {
        type Kernel = Kernel;
        type Output = Vec<f32>;
        const REFERENCE: Kernel = average_pool_2d_f32;

        fn strategy() -> BoxedStrategy<Self> {
            PoolF32::strategy().prop_map(AveragePool).boxed()
        }

        fn edge_cases() -> Vec<Self> {
            PoolF32::edge_cases().into_iter().map(AveragePool).collect()
        }

        fn run(&self, kernel: Kernel) -> Result<Vec<f32>, String> {
            let g = self.0.geometry();
            let mut out = vec![f32::NAN; g.output_len()];
            kernel(&AveragePool2dParams { geometry: g, clamp: clamp_f32(self.0.clamp) }, &self.0.input(), &mut out);
            Ok(out)
        }

        fn check(&self, got: &Vec<f32>) -> Result<(), String> {
            let (exact, real, bound) = self.0.naive(true);
            compare_f32(got, &exact, &real, &bound, clamp_f32(self.0.clamp))
        }
    }

    kernel_tests!(reference, AveragePool, average_pool_2d_f32);
}

/// int16 AVERAGE_POOL_2D (`average_pool_2d_s16`, the reference loop nest) against the
/// integer [`naive`] definition: SAME-like padding (below the window, so every window
/// overlaps the input), full-range data and clamps, the int16 extremes.
mod int16 {
    use super::super::{average_pool_2d_s16, AveragePool2dParams};
    use super::{Integer, IntegerPool};
    use crate::kernels::numerics::{Clamp, S16};
    use crate::kernels::test_util::{clamp16, extremes16, i16s, kernel_tests, Rng, LANE_TAILS};
    use crate::kernels::window::PoolGeometry;
    use proptest::prelude::*;
    use std::vec::Vec;

    #[derive(Clone, Debug)]
    struct AveragePoolS16 {
        hw: [usize; 2],
        depth: usize,
        f: [usize; 2],
        stride: [usize; 2],
        pad: [usize; 2],
        seed: u64,
        extreme: bool,
    }

    impl IntegerPool for AveragePoolS16 {
        type N = S16;
        const REFERENCE: fn(&AveragePool2dParams<S16>, &[i16], &mut [i16]) = average_pool_2d_s16;
        const CASES: Option<u32> = Some(120);
        const FILL: i16 = 0x5555;

        fn strategy() -> BoxedStrategy<Self> {
            ([1usize..9, 1usize..9], 1usize..5, [1usize..5, 1usize..5], [1usize..3, 1usize..3], [0usize..2, 0usize..2], any::<u64>())
                .prop_filter("the padding before is below the window", |(_, _, f, _, pad, _)| pad[0] < f[0] && pad[1] < f[1])
                .prop_map(|(hw, depth, f, stride, pad, seed)| AveragePoolS16 { hw, depth, f, stride, pad, seed, extreme: false })
                .boxed()
        }

        fn edge_cases() -> Vec<Self> {
            let c = |hw, depth, f, stride, pad, seed, extreme| AveragePoolS16 { hw, depth, f, stride, pad, seed, extreme };
            let mut v = Vec::new();
            for n in LANE_TAILS {
                v.push(c([3, 4], n, [2, 2], [1, 1], [0, 0], n as u64, false));
                v.push(c([4, 3], n, [3, 3], [2, 2], [1, 1], n as u64, false));
            }
            for (i, pad) in [[0, 0], [0, 1], [1, 0], [1, 1], [2, 2], [0, 2], [2, 0]].into_iter().enumerate() {
                for stride in [1, 2] {
                    v.push(c([4, 5], 3, [3, 3], [stride; 2], pad, i as u64, false));
                    v.push(c([4, 5], 3, [3, 3], [stride; 2], pad, i as u64, true));
                }
            }
            v
        }

        /// The parameters and the input.
        fn problem(&self) -> (AveragePool2dParams<S16>, Vec<i16>) {
            let AveragePoolS16 { hw: [h, w], depth, f: [fh, fw], stride: [sh, sw], pad: [pt, pl], seed, extreme } = self.clone();
            let mut rng = Rng(seed);
            let mut x = i16s(&mut rng, h * w * depth);
            let (mut lo, mut hi) = clamp16(&mut rng);
            if extreme {
                x = extremes16(x.len());
                (lo, hi) = (-32768, 32767);
            }
            let oh = (h + pt - 1) / sh + 1;
            let ow = (w + pl - 1) / sw + 1;
            let geometry = PoolGeometry { input_shape: [1, h, w, depth], output_height: oh, output_width: ow, filter_height: fh, filter_width: fw, stride_height: sh, stride_width: sw, pad_top: pt, pad_left: pl };
            (AveragePool2dParams { geometry, clamp: Clamp { min: lo as i16, max: hi as i16 } }, x)
        }
    }

    kernel_tests!(reference, Integer<AveragePoolS16>, average_pool_2d_s16);
}

/// Legacy uint8 AVERAGE_POOL_2D (`average_pool_2d_u8`) against the integer [`naive`]
/// definition (TFLite's uint8 `(sum + count / 2) / count`). Bit-exactness with TFLite is
/// checked on `coral_mobilenet_v1_025_128_uint8` (op conformance and e2e).
mod uint8 {
    use super::super::{average_pool_2d_u8, AveragePool2dParams};
    use super::{Integer, IntegerPool};
    use crate::kernels::numerics::{Clamp, U8};
    use crate::kernels::test_util::{kernel_tests, out_size, u8s, Rng, LANE_TAILS};
    use crate::kernels::window::PoolGeometry;
    use proptest::prelude::*;
    use std::vec::Vec;

    #[derive(Clone, Debug)]
    struct AveragePool {
        hw: [usize; 2],
        depth: usize,
        k: usize,
        stride: usize,
        pad: usize,
        clamp: (u8, u8),
        seed: u64,
    }

    impl IntegerPool for AveragePool {
        type N = U8;
        const REFERENCE: fn(&AveragePool2dParams<U8>, &[u8], &mut [u8]) = average_pool_2d_u8;
        const FILL: u8 = 0x55;

        fn strategy() -> BoxedStrategy<Self> {
            ([1usize..8, 1usize..8], 1usize..20, 1usize..4, 1usize..3, 0usize..2, any::<(u8, u8)>(), any::<u64>())
                .prop_map(|(hw, depth, k, stride, pad, (a, b), seed)| AveragePool { hw, depth, k, stride, pad: pad.min(k - 1), clamp: (a.min(b), a.max(b)), seed })
                .boxed()
        }

        fn edge_cases() -> Vec<Self> {
            LANE_TAILS.map(|n| AveragePool { hw: [4, 4], depth: n, k: 4, stride: 4, pad: 0, clamp: (0, 255), seed: n as u64 }).collect()
        }

        /// The parameters and the input.
        fn problem(&self) -> (AveragePool2dParams<U8>, Vec<u8>) {
            let [h, w] = self.hw;
            let geometry = PoolGeometry {
                input_shape: [1, h, w, self.depth],
                output_height: out_size(h, self.pad, 0, self.k, self.stride, 1),
                output_width: out_size(w, self.pad, 0, self.k, self.stride, 1),
                filter_height: self.k,
                filter_width: self.k,
                stride_height: self.stride,
                stride_width: self.stride,
                pad_top: self.pad,
                pad_left: self.pad,
            };
            let x = u8s(&mut Rng(self.seed), geometry.input_shape.iter().product());
            (AveragePool2dParams { geometry, clamp: Clamp { min: self.clamp.0, max: self.clamp.1 } }, x)
        }
    }

    kernel_tests!(reference, Integer<AveragePool>, average_pool_2d_u8);
}
