//! Test-only support shared by every kernel test (HOUSE_STYLE 18): one deterministic data
//! generator ([`Rng`]), proptest strategies for quantization and broadcasting, naive N-d
//! references, and one suite per kernel implementation, [`kernel_tests!`].
//!
//! The convention:
//!
//! - Test data comes from `Rng(seed)` with the seed drawn by proptest, so that proptest
//!   shrinks shapes and parameters rather than megabytes of data, and a failure reproduces
//!   from its printed case.
//! - A kernel's `tests.rs` describes its operator once, as a [`KernelCase`]: a random case
//!   (shapes, zero points, scales, saturation), fixed edge cases (zero-size, lane-tail
//!   lengths, ±127 / −128, multiplier overflow), how to run one implementation, and the
//!   independent oracle every implementation must satisfy (the real-number result within a
//!   stated tolerance, or a naive definition, never the kernel itself). The int8
//!   elementwise and broadcasting binary kernels get their `KernelCase` from [`Unary`] and
//!   [`Binary`] and only say what is op-specific ([`UnaryS8Op`], [`BinaryS8Op`]).
//! - Each implementation gets one line: the scalar one (the reference) and the public entry
//!   point, and each SIMD variant behind its detection test, which adds a bit-exact
//!   comparison with [`KernelCase::REFERENCE`]:
//!
//!   ```text
//!   kernel_tests!(impl_scalar, Unary<Relu>, (scalar::relu_s8, scalar::relu_s8_in_place));
//!   kernel_tests!(impl_dispatch, if true, Unary<Relu>, (relu_s8, relu_s8_in_place));
//!   kernel_tests!(impl_neon, if std::arch::is_aarch64_feature_detected!("neon"), Unary<Relu>, (neon::relu_s8, neon::relu_s8_in_place));
//!   ```
//!
//!   A variant the host cannot execute prints `UNTESTED` and is not exercised; with
//!   `TFLC_TEST_FEATURE=<name>` (HOUSE_STYLE 19) it fails instead, so a CI job that forces
//!   one path cannot pass without running it.

use crate::kernels::nd::{plan_broadcast, Broadcast, GatherPlan, StridedCopyParams};
use crate::kernels::numerics::Clamp;
use crate::prepare::{quantize_multiplier, FusedActivation};
use core::fmt::Debug;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::format;
use std::string::String;
use std::vec::Vec;

// ---------------------------------------------------------------------------------------
// Data.

/// SplitMix64: the one deterministic generator for test data. `Rng(seed)`. The compiler's
/// tests have the same generator, same sequence, as `tflc::testing::Rng` (the runtime cannot
/// depend on the compiler, and test code stays out of the shipped runtime).
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// `len` int8 values over the full range, with the extremes over-represented.
    pub fn i8s(&mut self, len: usize) -> Vec<i8> {
        (0..len)
            .map(|_| match self.next_u64() % 8 {
                0 => i8::MIN,
                1 => i8::MAX,
                _ => self.next_u64() as i8,
            })
            .collect()
    }

    /// `len` values uniform in `lo..=hi`.
    pub fn i32s(&mut self, len: usize, lo: i32, hi: i32) -> Vec<i32> {
        (0..len).map(|_| self.range(lo as i64, hi as i64) as i32).collect()
    }

    /// A random permutation of `0..n` (Fisher-Yates).
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            p.swap(i, self.below(i + 1));
        }
        p
    }

    /// A `QuantizeMultiplier` result for a log-uniform real multiplier in
    /// `[2^lo_exp, 2^hi_exp)`.
    pub fn multiplier(&mut self, lo_exp: i32, hi_exp: i32) -> (i32, i32) {
        let e = self.range(lo_exp as i64, hi_exp as i64 - 1) as i32;
        let frac = 1.0 + (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let real = frac * crate::prepare::exp2i(e);
        quantize_multiplier(real).unwrap()
    }

    /// An ordered activation clamp inside int8, the full range half of the time.
    pub fn activation_range(&mut self) -> (i32, i32) {
        if self.next_u64().is_multiple_of(2) {
            (-128, 127)
        } else {
            let a = self.range(-128, 127) as i32;
            let b = self.range(-128, 127) as i32;
            (a.min(b), a.max(b))
        }
    }
}

/// Per-channel (or, one time in four, per-tensor: length 1) multipliers and shifts.
/// A kernel's output `out` against the naive definition's `want` and, for a hand-computed
/// case, its `expected` output: the check every kernel suite's [`KernelCase::check`] makes.
pub fn check_output<T: PartialEq + Debug>(out: &[T], want: &[T], expected: Option<&[T]>) -> Result<(), String> {
    if out != want {
        return Err(format!("differs from the naive definition:\n  got  {out:?}\n  want {want:?}"));
    }
    if let Some(expected) = expected {
        if out != expected {
            return Err(format!("differs from the hand-computed output:\n  got  {out:?}\n  want {expected:?}"));
        }
    }
    Ok(())
}

pub fn multipliers(rng: &mut Rng, channels: usize, lo_exp: i32, hi_exp: i32) -> (Vec<i32>, Vec<i32>) {
    let n = if rng.next_u64().is_multiple_of(4) { 1 } else { channels };
    (0..n).map(|_| rng.multiplier(lo_exp, hi_exp)).unzip()
}

/// Any zero point of an int8 tensor, the extremes and 0 over-represented.
pub fn zero_point() -> impl Strategy<Value = i32> {
    prop_oneof![Just(0), Just(-128), Just(127), -128i32..=127]
}

/// A tensor scale, log-uniform over `[lo, hi)`.
pub fn scale(lo: f32, hi: f32) -> impl Strategy<Value = f32> {
    let (a, b) = (lo.ln(), hi.ln());
    (0.0f32..1.0).prop_map(move |t| (a + t * (b - a)).exp().clamp(lo, hi))
}

/// Any fused activation.
pub fn fused_activation() -> impl Strategy<Value = FusedActivation> {
    prop_oneof![
        Just(FusedActivation::None),
        Just(FusedActivation::Relu),
        Just(FusedActivation::Relu6),
        Just(FusedActivation::ReluN1To1)
    ]
}

/// The real-number interval a fused activation clamps to.
pub fn real_activation_range(activation: FusedActivation) -> (f64, f64) {
    match activation {
        FusedActivation::None => (f64::NEG_INFINITY, f64::INFINITY),
        FusedActivation::Relu => (0.0, f64::INFINITY),
        FusedActivation::Relu6 => (0.0, 6.0),
        FusedActivation::ReluN1To1 => (-1.0, 1.0),
    }
}

/// The real number `r` in the units of `q`, clamped to int8 (before rounding).
pub fn to_s8_units(r: f64, q: crate::quant::QuantParams) -> f64 {
    (r / q.scale as f64 + q.zero_point as f64).clamp(-128.0, 127.0)
}

/// The real value of int8 `x` in quantization `q`.
pub fn real(x: i8, q: crate::quant::QuantParams) -> f64 {
    q.scale as f64 * (x as i32 - q.zero_point) as f64
}

/// Every int8 value, in order.
pub fn all_i8() -> Vec<i8> {
    (-128..=127).map(|v| v as i8).collect()
}

/// Lengths that exercise every lane tail of kernels working on up to 32 lanes.
pub const LANE_TAILS: core::ops::RangeInclusive<usize> = 1..=33;

/// `len` values cycling through the int8 extremes and their neighbours.
pub fn extremes(len: usize) -> Vec<i8> {
    const E: [i8; 6] = [-128, 127, -127, 0, 1, -1];
    (0..len).map(|i| E[i % E.len()]).collect()
}

// ---------------------------------------------------------------------------------------
// Broadcasting.

/// For every output element of broadcasting `s1` with `s2` (row-major), the flat
/// indices into operand 1 and 2. Straight from the definition, no stride tricks.
pub fn naive_broadcast_pairs(s1: &[usize], s2: &[usize]) -> (Vec<usize>, Vec<(usize, usize)>) {
    let r = s1.len().max(s2.len());
    let ext = |s: &[usize]| -> Vec<usize> {
        let mut v = std::vec![1; r - s.len()];
        v.extend_from_slice(s);
        v
    };
    let (e1, e2) = (ext(s1), ext(s2));
    let out: Vec<usize> = e1.iter().zip(&e2).map(|(&a, &b)| if a == 1 { b } else { a }).collect();
    let total: usize = out.iter().product();
    let mut pairs = Vec::with_capacity(total);
    for flat in 0..total {
        let mut rem = flat;
        let mut idx = std::vec![0; r];
        for d in (0..r).rev() {
            idx[d] = rem % out[d];
            rem /= out[d];
        }
        let off = |e: &[usize]| {
            let mut o = 0;
            for d in 0..r {
                o = o * e[d] + if e[d] == 1 { 0 } else { idx[d] };
            }
            o
        };
        pairs.push((off(&e1), off(&e2)));
    }
    (out, pairs)
}

/// Strategy for pairs of broadcast-compatible shapes (rank 0..=6, dims 1..=4, with
/// size-1 dims on either side and different ranks).
pub fn broadcast_shapes() -> impl Strategy<Value = (Vec<usize>, Vec<usize>)> {
    proptest::collection::vec((1usize..5, 0u8..4), 0..7).prop_flat_map(|dims| {
        let s1: Vec<usize> = dims.iter().map(|&(n, m)| if m == 1 { 1 } else { n }).collect();
        let s2: Vec<usize> = dims.iter().map(|&(n, m)| if m == 2 { 1 } else { n }).collect();
        (0..=s1.len(), 0..=s2.len()).prop_map(move |(c1, c2)| (s1[c1..].to_vec(), s2[c2..].to_vec()))
    })
}

// ---------------------------------------------------------------------------------------
// The suite.

/// One operator under test, as the suite [`kernel_tests!`] sees it.
pub trait KernelCase: Clone + Debug + 'static {
    /// One implementation: its entry point(s), e.g. `(out_of_place, in_place)` fn pointers.
    type Kernel: Copy;
    /// What running an implementation yields; compared bit for bit between implementations.
    type Output: PartialEq + Debug;
    /// The scalar implementation, which every other one must match bit for bit.
    const REFERENCE: Self::Kernel;
    /// Random cases: shapes, zero points, scales, options, saturating data.
    fn strategy() -> BoxedStrategy<Self>;
    /// Fixed cases: zero-size, lane-tail lengths, ±127 / −128, multiplier overflow.
    fn edge_cases() -> Vec<Self>;
    /// Runs `kernel`. `Err` when its entry points disagree with each other (e.g. in place
    /// against out of place).
    fn run(&self, kernel: Self::Kernel) -> Result<Self::Output, String>;
    /// The independent oracle: `Err` says which element is wrong and why.
    fn check(&self, output: &Self::Output) -> Result<(), String>;
    /// False when the op's prepare function refuses the case (TFLite would fail to
    /// prepare), so there is nothing to run: random cases may be refused, edge cases may not
    /// (they would pass without testing anything).
    fn prepares(&self) -> bool {
        true
    }
    /// Proptest cases per property, when the op needs other than proptest's default (which
    /// `PROPTEST_CASES` sets): an op whose strategy unites several shape families.
    const CASES: Option<u32> = None;
}

/// An operator whose filter can be narrowed to int4 (`-8..=7`), for the suites of the
/// kernels that read int4 filters kept packed ([`crate::kernels::int4`]).
pub trait NarrowInt4: Sized {
    /// The same case with every filter weight in `-8..=7`: a random filter's weights shifted
    /// right by four (uniform over the int4 range), a fixed case's clamped (hand-computed
    /// filters are small; the extremes become -8 and 7), dropping a hand-computed output the
    /// change would invalidate.
    fn narrow_int4(self) -> Self;
}

/// `C` with int4 filters ([`NarrowInt4`]): the same cases, strategy and oracle, so an int4
/// kernel's suite is one `kernel_tests!` line like any other implementation's.
#[derive(Clone, Debug)]
pub struct Int4<C>(pub C);

impl<C: KernelCase + NarrowInt4> KernelCase for Int4<C> {
    type Kernel = C::Kernel;
    type Output = C::Output;
    const REFERENCE: Self::Kernel = C::REFERENCE;
    const CASES: Option<u32> = C::CASES;

    fn strategy() -> BoxedStrategy<Self> {
        C::strategy().prop_map(|c| Int4(c.narrow_int4())).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        C::edge_cases().into_iter().map(|c| Int4(c.narrow_int4())).collect()
    }

    fn run(&self, kernel: Self::Kernel) -> Result<Self::Output, String> {
        self.0.run(kernel)
    }

    fn check(&self, output: &Self::Output) -> Result<(), String> {
        self.0.check(output)
    }

    fn prepares(&self) -> bool {
        self.0.prepares()
    }
}

/// [`NarrowInt4`] on one filter: `random` shifts right by four, otherwise clamps; true when a
/// weight changed.
pub fn narrow_filter_int4(filter: &mut [i8], random: bool) -> bool {
    let mut changed = false;
    for w in filter {
        let n = if random { *w >> 4 } else { (*w).clamp(-8, 7) };
        changed |= n != *w;
        *w = n;
    }
    changed
}

/// The proptest configuration of `C`'s properties ([`KernelCase::CASES`]).
pub fn config<C: KernelCase>() -> proptest::test_runner::Config {
    let mut config = proptest::test_runner::Config::default();
    if let Some(cases) = C::CASES {
        config.cases = cases;
    }
    config
}

/// Runs `kernel` on `case` and checks the result against the oracle.
pub fn check_oracle<C: KernelCase>(case: &C, kernel: C::Kernel) -> Result<(), TestCaseError> {
    let out = case.run(kernel).map_err(TestCaseError::fail)?;
    case.check(&out).map_err(TestCaseError::fail)
}

/// Runs `kernel` and the reference on `case`; they must agree bit for bit.
pub fn check_reference<C: KernelCase>(case: &C, kernel: C::Kernel) -> Result<(), TestCaseError> {
    let got = case.run(kernel).map_err(TestCaseError::fail)?;
    let want = case.run(C::REFERENCE).map_err(TestCaseError::fail)?;
    if got == want {
        Ok(())
    } else {
        Err(TestCaseError::fail(format!("differs from the scalar reference:\n  got  {got:?}\n  want {want:?}")))
    }
}

/// Whether the implementation `name` can run here (`detected`). When it cannot, says so on
/// stderr, or fails when `TFLC_TEST_FEATURE=name` demands that this very path be tested.
pub fn available(name: &str, detected: bool) -> bool {
    if !detected {
        let forced = std::env::var("TFLC_TEST_FEATURE").is_ok_and(|f| f == name);
        assert!(!forced, "TFLC_TEST_FEATURE={name}, but this host cannot execute the {name} implementation");
        std::eprintln!("UNTESTED {name}: this host cannot execute it");
    }
    detected
}

/// `kernel_tests!(name, Case, kernel)` instantiates the suite for the scalar (reference)
/// implementation or an entry point that must satisfy the oracle; `kernel_tests!(name, if
/// detected, Case, kernel)` for a variant, which must in addition match
/// [`KernelCase::REFERENCE`] bit for bit; `kernel_tests!(name, if detected, oracle, Case,
/// kernel)` for a variant that must satisfy only the oracle (the packed float32 variants,
/// whose order is not the reference's). `kernel` is a [`KernelCase::Kernel`] value.
macro_rules! kernel_tests {
    (@suite $name:ident, $detected:expr, $case:ty, $kernel:expr $(, $matches_reference:ident)?) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use $crate::kernels::test_util::{available, check_oracle, check_reference, config, KernelCase};

            fn here() -> bool {
                available(stringify!($name), $detected)
            }

            proptest::proptest! {
                #![proptest_config(config::<$case>())]
                #[test]
                fn oracle(case in <$case as KernelCase>::strategy()) {
                    if here() {
                        check_oracle(&case, $kernel)?;
                    }
                }
                $(
                #[test]
                fn $matches_reference(case in <$case as KernelCase>::strategy()) {
                    if here() {
                        check_reference(&case, $kernel)?;
                    }
                }
                )?
            }

            #[test]
            fn edge_cases() {
                if !here() {
                    return;
                }
                let cases = <$case as KernelCase>::edge_cases();
                assert!(!cases.is_empty());
                for case in cases {
                    assert!(case.prepares(), "edge case refused by prepare: {case:?}");
                    let checked = check_oracle(&case, $kernel);
                    $(
                    let _ = stringify!($matches_reference);
                    let checked = checked.and_then(|()| check_reference(&case, $kernel));
                    )?
                    if let Err(e) = checked {
                        panic!("{case:?}: {e}");
                    }
                }
            }
        }
    };
    ($name:ident, $case:ty, $kernel:expr) => {
        $crate::kernels::test_util::kernel_tests!(@suite $name, true, $case, $kernel);
    };
    ($name:ident, if $detected:expr, oracle, $case:ty, $kernel:expr) => {
        $crate::kernels::test_util::kernel_tests!(@suite $name, $detected, $case, $kernel);
    };
    ($name:ident, if $detected:expr, $case:ty, $kernel:expr) => {
        $crate::kernels::test_util::kernel_tests!(@suite $name, $detected, $case, $kernel, matches_reference);
    };
}
pub(crate) use kernel_tests;

/// `every_dot!(name, Case, driver)`: the [`kernel_tests!`] suite of `driver::<D>` (a kernel
/// generic over the dot micro-kernels `D`) once for every implementation this host can
/// compile, in `mod name`: the scalar reference, RV32's (portable Rust, run natively), the
/// Armv7E-M DSP one where `tflc_arm_dsp`, NEON's on aarch64. The one list of the dot
/// implementations a generic driver's suite runs.
macro_rules! every_dot {
    ($name:ident, $case:ty, $driver:ident) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            use $crate::kernels::dot;
            use $crate::kernels::test_util::kernel_tests;
            kernel_tests!(scalar, if true, $case, $driver::<dot::scalar::Scalar>);
            kernel_tests!(rv32, if true, $case, $driver::<dot::rv32::Rv32>);
            #[cfg(tflc_arm_dsp)]
            kernel_tests!(arm_dsp, if true, $case, $driver::<dot::dsp::ArmDsp>);
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            kernel_tests!(neon_micro, if true, $case, $driver::<dot::neon::Neon>);
        }
    };
}
pub(crate) use every_dot;

/// [`NarrowInt4`] for a suite's case enum `C` (`C::Random(_)` or `C::Fixed(problem)`, with
/// `C::problem()` giving a problem whose `filter` and `expected` fields the narrowing edits).
macro_rules! narrow_int4 {
    ($case:ident) => {
        impl $crate::kernels::test_util::NarrowInt4 for $case {
            fn narrow_int4(self) -> Self {
                let random = matches!(self, $case::Random(_));
                let mut p = self.problem();
                if $crate::kernels::test_util::narrow_filter_int4(&mut p.filter, random) {
                    p.expected = None;
                }
                $case::Fixed(p)
            }
        }
    };
}
pub(crate) use narrow_int4;

/// The suites of an unquantized elementwise binary op in one element type, in `mod name`:
/// `plain_binary_tests!(name, T, (reference, reference_in_place), (dispatch,
/// dispatch_in_place), |a, b| expr)` runs the reference and the dispatching entry points
/// (out of place and in place) against `expr`, TFLite's arithmetic on one pair.
macro_rules! plain_binary_tests {
    ($name:ident, $t:ty, $reference:expr, $dispatch:expr, |$a:ident, $b:ident| $apply:expr) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            use $crate::kernels::test_util::{kernel_tests, Plain, PlainBinaryOp, PlainKernel};

            #[derive(Clone, Debug)]
            struct Op;

            impl PlainBinaryOp for Op {
                type T = $t;
                const REFERENCE: PlainKernel<$t> = $reference;
                fn apply($a: $t, $b: $t) -> $t {
                    $apply
                }
            }

            kernel_tests!(scalar, Plain<Op>, $reference);
            kernel_tests!(dispatch, if true, Plain<Op>, $dispatch);
        }
    };
}
pub(crate) use plain_binary_tests;

/// The int16 (16x8) form of a quantized binary op in place (output over operand 1, operand
/// 2 broadcasting) gives the out-of-place bytes, on every broadcasting pattern, every fused
/// activation and full-range data: `s16_in_place_test!(prepare, kernel, kernel_in_place,
/// Params)`, `prepare(input1, input2, output, activation, broadcast)` as the ops' own.
macro_rules! s16_in_place_test {
    ($prepare:path, $kernel:path, $in_place:path, $params:ident) => {
        proptest::proptest! {
            #[test]
            fn s16_in_place_matches(
                (s1, s2) in $crate::kernels::test_util::broadcast_shapes(),
                scales in ($crate::kernels::test_util::scale(1e-5, 1e-2), $crate::kernels::test_util::scale(1e-5, 1e-2), $crate::kernels::test_util::scale(1e-5, 2e-2)),
                activation in $crate::kernels::test_util::fused_activation(),
                seed in proptest::prelude::any::<u64>(),
            ) {
                use $crate::kernels::nd::Broadcast;
                use $crate::quant::QuantParams;
                let q = |scale: f32| QuantParams { scale, zero_point: 0 };
                let plan = $crate::kernels::nd::plan_broadcast(&s1, &s2).unwrap();
                let Some(p) = $prepare(q(scales.0), q(scales.1), q(scales.2), activation, plan.as_broadcast()) else { return Ok(()) };
                let mut rng = $crate::kernels::test_util::Rng(seed);
                let x = $crate::kernels::test_util::random_i16s(&mut rng, s1.iter().product());
                let y = $crate::kernels::test_util::random_i16s(&mut rng, s2.iter().product());
                let run = |b: &Broadcast, x: &[i16], y: &[i16], out: &mut [i16]| $kernel(&$params { broadcast: *b, ..p }, x, y, out);
                let run_in_place = |b: &Broadcast, x: &mut [i16], y: &[i16]| $in_place(&$params { broadcast: *b, ..p }, x, y);
                $crate::kernels::test_util::binary_in_place_matches((&s1, &x), (&s2, &y), run, run_in_place).map_err(proptest::test_runner::TestCaseError::fail)?;
            }
        }
    };
}
pub(crate) use s16_in_place_test;

/// The AVX2 and AVX-512 (VNNI) forms of a quantized int8 binary op (`Binary<Op>`, the
/// `arch::x86_64::elementwise::tests` entry points out of place and in place) on x86-64,
/// each where the host executes it.
macro_rules! x86_binary_tests {
    ($case:ty, ($avx2:ident, $avx2_in_place:ident), ($avx512:ident, $avx512_in_place:ident)) => {
        #[cfg(target_arch = "x86_64")]
        mod x86 {
            #[allow(unused_imports)]
            use super::*;
            use $crate::arch::x86_64::elementwise::tests::{$avx2, $avx2_in_place, $avx512, $avx512_in_place};
            use $crate::kernels::test_util::kernel_tests;
            kernel_tests!(avx2, if $crate::arch::x86_64::tests::detected(), $case, ($avx2, $avx2_in_place));
            kernel_tests!(avx512vnni, if $crate::arch::x86_64::vnni::tests::detected(), $case, ($avx512, $avx512_in_place));
        }
    };
}
pub(crate) use x86_binary_tests;

/// `|got - want| <= tolerance`, with a message naming the element.
fn within(what: &str, got: i8, want: f64, tolerance: f64) -> Result<(), String> {
    if (got as f64 - want).abs() <= tolerance {
        Ok(())
    } else {
        Err(format!("{what}: got {got}, ideal {want:.3} (tolerance {tolerance})"))
    }
}

// ---------------------------------------------------------------------------------------
// int8 elementwise kernels: `f(params, input, output)` and `f_in_place(params, data)`.

/// The entry points of one implementation of an int8 elementwise kernel.
pub type UnaryKernel<P> = (fn(&P, &[i8], &mut [i8]), fn(&P, &mut [i8]));

/// What is specific to one int8 elementwise operator.
pub trait UnaryS8Op: Clone + Debug + 'static {
    type Params;
    const REFERENCE: UnaryKernel<Self::Params>;
    /// Quantization and options.
    fn strategy() -> BoxedStrategy<Self>;
    /// Fixed quantizations at the edges (multiplier overflow, scale ratios far from 1).
    fn edge_cases() -> Vec<Self>;
    /// The kernel parameters, through the op's prepare function (`None`: TFLite refuses).
    fn params(&self) -> Option<Self::Params>;
    /// The exact real-number result for input `x`, in output units, clamped to the output
    /// range (before rounding).
    fn ideal(&self, x: i8) -> f64;
    /// How far from `ideal` the integer pipeline may land.
    fn tolerance(&self, _ideal: f64) -> f64 {
        1.01
    }
}

/// An int8 elementwise case: an operator and its input.
#[derive(Clone, Debug)]
pub struct Unary<O> {
    pub op: O,
    pub input: Vec<i8>,
}

impl<O: UnaryS8Op> KernelCase for Unary<O> {
    type Kernel = UnaryKernel<O::Params>;
    type Output = Vec<i8>;
    const REFERENCE: Self::Kernel = O::REFERENCE;

    fn strategy() -> BoxedStrategy<Self> {
        let input = prop_oneof![Just(all_i8()), (0usize..=70, any::<u64>()).prop_map(|(n, seed)| Rng(seed).i8s(n))];
        (O::strategy(), input).prop_map(|(op, input)| Unary { op, input }).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        for op in O::edge_cases() {
            v.push(Unary { op: op.clone(), input: Vec::new() });
            v.push(Unary { op: op.clone(), input: all_i8() });
            for n in LANE_TAILS {
                v.push(Unary { op: op.clone(), input: extremes(n) });
            }
        }
        v
    }

    fn run(&self, (kernel, in_place): Self::Kernel) -> Result<Vec<i8>, String> {
        let Some(p) = self.op.params() else { return Ok(Vec::new()) };
        let mut out = std::vec![0i8; self.input.len()];
        kernel(&p, &self.input, &mut out);
        let mut data = self.input.clone();
        in_place(&p, &mut data);
        if data != out {
            return Err(format!("in place {data:?} differs from out of place {out:?}"));
        }
        Ok(out)
    }

    fn prepares(&self) -> bool {
        self.op.params().is_some()
    }

    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        if !self.prepares() {
            return Ok(());
        }
        for (&x, &y) in self.input.iter().zip(out) {
            let want = self.op.ideal(x);
            within(&format!("x = {x}"), y, want, self.op.tolerance(want))?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// int8 broadcasting binary kernels: `f(params, input1, input2, output)` and
// `f_in_place(params, input1_output, input2)`, the broadcast inside the params.

/// The entry points of one implementation of the int8 broadcasting binary kernel of `O`.
#[allow(type_alias_bounds)]
pub type BinaryKernel<O: BinaryS8Op> =
    (for<'a, 'b> fn(&'b O::Params<'a>, &[i8], &[i8], &mut [i8]), for<'a, 'b> fn(&'b O::Params<'a>, &mut [i8], &[i8]));

/// What is specific to one int8 broadcasting binary operator.
pub trait BinaryS8Op: Clone + Debug + 'static {
    type Params<'a>;
    const REFERENCE: BinaryKernel<Self>;
    /// Operand 1 must have the output's shape (PRELU: alpha broadcasts onto the input).
    const FIRST_IS_FULL: bool = false;
    /// Quantization and options.
    fn strategy() -> BoxedStrategy<Self>;
    /// Fixed quantizations at the edges (multiplier overflow, scale ratios far from 1).
    fn edge_cases() -> Vec<Self>;
    /// The kernel parameters, through the op's prepare function (`None`: TFLite refuses).
    fn params<'a>(&self, broadcast: Broadcast<'a>) -> Option<Self::Params<'a>>;
    /// The exact real-number result for `(x, y)`, in output units, clamped to the output
    /// range (before rounding).
    fn ideal(&self, x: i8, y: i8) -> f64;
    /// How far from `ideal` the integer pipeline may land.
    fn tolerance(&self) -> f64 {
        1.01
    }
}

/// An int8 broadcasting binary case: an operator, the two shapes and the operands.
#[derive(Clone, Debug)]
pub struct Binary<O> {
    pub op: O,
    pub shape1: Vec<usize>,
    pub shape2: Vec<usize>,
    pub input1: Vec<i8>,
    pub input2: Vec<i8>,
}

impl<O: BinaryS8Op> Binary<O> {
    fn new(op: O, shape1: Vec<usize>, shape2: Vec<usize>, rng: &mut Rng) -> Self {
        let input1 = rng.i8s(shape1.iter().product());
        let input2 = rng.i8s(shape2.iter().product());
        Binary { op, shape1, shape2, input1, input2 }
    }
}

impl<O: BinaryS8Op> KernelCase for Binary<O> {
    type Kernel = BinaryKernel<O>;
    type Output = Vec<i8>;
    const REFERENCE: Self::Kernel = O::REFERENCE;

    fn strategy() -> BoxedStrategy<Self> {
        (O::strategy(), broadcast_shapes(), any::<u64>())
            .prop_filter("operand 1 has the output's shape", |(_, (s1, s2), _)| {
                !O::FIRST_IS_FULL || naive_broadcast_pairs(s1, s2).0.iter().product::<usize>() == s1.iter().product()
            })
            .prop_map(|(op, (s1, s2), seed)| Binary::new(op, s1, s2, &mut Rng(seed)))
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        let mut rng = Rng(0x5eed);
        for op in O::edge_cases() {
            for n in LANE_TAILS {
                let mut same = Binary::new(op.clone(), std::vec![n], std::vec![n], &mut rng);
                same.input1 = extremes(n);
                v.push(same);
                v.push(Binary::new(op.clone(), std::vec![n], std::vec![1], &mut rng));
                v.push(Binary::new(op.clone(), std::vec![2, n], std::vec![n], &mut rng));
            }
            if !O::FIRST_IS_FULL {
                v.push(Binary::new(op.clone(), std::vec![1], std::vec![3, 7], &mut rng));
            }
            // Rank 0 and a zero-size operand (the output is empty).
            v.push(Binary::new(op.clone(), std::vec![], std::vec![], &mut rng));
            v.push(Binary::new(op.clone(), std::vec![0, 3], std::vec![3], &mut rng));
        }
        v
    }

    fn run(&self, (kernel, in_place): Self::Kernel) -> Result<Vec<i8>, String> {
        let plan = plan_broadcast(&self.shape1, &self.shape2).ok_or("shapes do not broadcast")?;
        let Some(p) = self.op.params(plan.as_broadcast()) else { return Ok(Vec::new()) };
        let n = plan.as_broadcast().out_len();
        let mut out = std::vec![0i8; n];
        kernel(&p, &self.input1, &self.input2, &mut out);
        if self.input1.len() == n {
            let mut data = self.input1.clone();
            in_place(&p, &mut data, &self.input2);
            if data != out {
                return Err(format!("in place {data:?} differs from out of place {out:?}"));
            }
        }
        Ok(out)
    }

    fn prepares(&self) -> bool {
        plan_broadcast(&self.shape1, &self.shape2).is_some_and(|plan| self.op.params(plan.as_broadcast()).is_some())
    }

    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        if !self.prepares() {
            return Ok(());
        }
        let (_, pairs) = naive_broadcast_pairs(&self.shape1, &self.shape2);
        if out.len() != pairs.len() {
            return Err(format!("{} outputs for {} elements", out.len(), pairs.len()));
        }
        for (k, &(i, j)) in pairs.iter().enumerate() {
            let (x, y) = (self.input1[i], self.input2[j]);
            within(&format!("out[{k}] = f({x}, {y})"), out[k], self.op.ideal(x, y), self.op.tolerance())?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Data movement: TRANSPOSE, SLICE, STRIDED_SLICE, SPLIT, SPLIT_V and UNPACK resolve to one
// strided copy at compile time (`nd::GatherPlan`), run by `f(params, input, output)`.

/// One implementation of the strided copy, on int8.
pub type GatherKernel = fn(&StridedCopyParams, &[i8], &mut [i8]);

/// What is specific to one data-movement operator: its shapes and options, the plan its
/// prepare function resolves, and, from the op's definition, which input element each
/// output element is.
pub trait GatherOp: Clone + Debug + 'static {
    fn strategy() -> BoxedStrategy<Self>;
    /// Zero-size, rank 0 / the largest rank, lane-tail lengths.
    fn edge_cases() -> Vec<Self>;
    fn input_shape(&self) -> Vec<usize>;
    /// The op's prepare function (`None`: TFLite refuses).
    fn plan(&self) -> Option<GatherPlan>;
    /// The flat input index of every output element, from the definition.
    fn naive_indices(&self) -> Vec<usize>;
}

/// A data-movement case. The input element at flat index `i` is [`tag`]`(i)`.
#[derive(Clone, Debug)]
pub struct Gather<O>(pub O);

/// A pseudo-random int8 label of flat index `i`: a wrong index shows as a wrong value
/// (except with probability 1/256 per element).
pub fn tag(i: usize) -> i8 {
    ((i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as i8
}

impl<O: GatherOp> KernelCase for Gather<O> {
    type Kernel = GatherKernel;
    type Output = Vec<i8>;
    const REFERENCE: GatherKernel = crate::kernels::nd::strided_copy::<i8>;

    fn strategy() -> BoxedStrategy<Self> {
        O::strategy().prop_map(Gather).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        O::edge_cases().into_iter().map(Gather).collect()
    }

    fn prepares(&self) -> bool {
        self.0.plan().is_some()
    }

    fn run(&self, kernel: GatherKernel) -> Result<Vec<i8>, String> {
        let Some(plan) = self.0.plan() else { return Ok(Vec::new()) };
        let p = plan.as_params();
        let input: Vec<i8> = (0..self.0.input_shape().iter().product()).map(tag).collect();
        let mut out = std::vec![0i8; p.out_len()];
        kernel(&p, &input, &mut out);
        Ok(out)
    }

    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        if !self.prepares() {
            return Ok(());
        }
        let want: Vec<i8> = self.0.naive_indices().into_iter().map(tag).collect();
        if *out == want {
            Ok(())
        } else {
            let k = out.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(out.len().min(want.len()));
            Err(format!("{} outputs, {} expected; first difference at {k}", out.len(), want.len()))
        }
    }
}

/// Row-major flat index of `idx` in `shape`.
pub fn flat_index(shape: &[usize], idx: &[usize]) -> usize {
    shape.iter().zip(idx).fold(0, |off, (&n, &i)| off * n + i)
}

/// Every multi-index of `shape`, row-major.
pub fn multi_indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let total: usize = shape.iter().product();
    (0..total)
        .map(|mut rem| {
            let mut idx = std::vec![0; shape.len()];
            for d in (0..shape.len()).rev() {
                idx[d] = rem % shape[d];
                rem /= shape[d];
            }
            idx
        })
        .collect()
}

#[test]
fn rng_is_splitmix64() {
    // SplitMix64's first output for seed 0; `tflc::testing::Rng` pins the same value.
    assert_eq!(Rng(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    let mut r = Rng(3);
    assert!((0..1000).map(|_| r.range(-2, 2)).all(|x| (-2..=2).contains(&x)));
    let mut p = Rng(5).permutation(9);
    p.sort();
    assert_eq!(p, (0..9).collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------------------
// Unquantized broadcasting binary kernels (float32, int32): `f(params, input1, input2,
// output)` and `f_in_place(params, input1_output, input2)` with `nd::PlainBinaryParams`
// (activation clamp and broadcast).

/// An element of the unquantized kernels, compared by its bits.
pub trait PlainElem: Copy + Debug + PartialOrd + 'static {
    fn bits(self) -> u64;
    /// Random values, the type's extremes over-represented (finite for float32).
    fn random(rng: &mut Rng) -> Self;
    /// The clamp of every fused activation (`nd::activation_range_*`).
    fn activation_range(activation: FusedActivation) -> (Self, Self);
}

impl PlainElem for f32 {
    fn bits(self) -> u64 {
        self.to_bits() as u64
    }
    fn random(rng: &mut Rng) -> f32 {
        match rng.next_u64() % 8 {
            0 => [f32::MAX, f32::MIN, 0.0, -0.0, f32::MIN_POSITIVE, 1.0][rng.below(6)],
            1 => rng.range(-7, 7) as f32,
            _ => (rng.next_u64() >> 40) as f32 / (1u64 << 20) as f32 * if rng.next_u64().is_multiple_of(2) { 1.0 } else { -1.0 },
        }
    }
    fn activation_range(activation: FusedActivation) -> (f32, f32) {
        crate::kernels::nd::activation_range_f32(activation)
    }
}

impl PlainElem for i32 {
    fn bits(self) -> u64 {
        self as u32 as u64
    }
    fn random(rng: &mut Rng) -> i32 {
        match rng.next_u64() % 8 {
            0 => [i32::MAX, i32::MIN, 0, -1, 1, 7][rng.below(6)],
            1 => rng.range(-70_000, 70_000) as i32,
            _ => rng.next_u64() as i32,
        }
    }
    fn activation_range(activation: FusedActivation) -> (i32, i32) {
        crate::kernels::nd::activation_range_i32(activation)
    }
}

/// The entry points of one implementation of an unquantized binary kernel on `T`: out of
/// place and with the output over operand 1.
pub type PlainKernel<T> = (
    for<'a, 'b> fn(&'b crate::kernels::nd::PlainBinaryParams<'a, T>, &[T], &[T], &mut [T]),
    for<'a, 'b> fn(&'b crate::kernels::nd::PlainBinaryParams<'a, T>, &mut [T], &[T]),
);

/// What is specific to one unquantized binary operator on one element type.
pub trait PlainBinaryOp: Clone + Debug + 'static {
    type T: PlainElem;
    const REFERENCE: PlainKernel<Self::T>;
    /// The op's definition on one pair (int32 wraps, TFLite leaves overflow undefined).
    fn apply(a: Self::T, b: Self::T) -> Self::T;
}

/// An unquantized binary case: the fused activation, the shapes and operands (the operator
/// is the type `O`).
#[derive(Clone, Debug)]
pub struct Plain<O: PlainBinaryOp> {
    pub op: core::marker::PhantomData<O>,
    pub activation: FusedActivation,
    pub shape1: Vec<usize>,
    pub shape2: Vec<usize>,
    pub input1: Vec<O::T>,
    pub input2: Vec<O::T>,
}

impl<O: PlainBinaryOp> Plain<O> {
    fn new(activation: FusedActivation, shape1: Vec<usize>, shape2: Vec<usize>, rng: &mut Rng) -> Self {
        let input1 = (0..shape1.iter().product()).map(|_| O::T::random(rng)).collect();
        let input2 = (0..shape2.iter().product()).map(|_| O::T::random(rng)).collect();
        Plain { op: core::marker::PhantomData, activation, shape1, shape2, input1, input2 }
    }
}

/// TFLite's `ActivationFunctionWithMinMax`: `std::min(std::max(x, lo), hi)`.
fn std_clamp<T: PartialOrd>(x: T, lo: T, hi: T) -> T {
    let x = if x < lo { lo } else { x };
    if hi < x {
        hi
    } else {
        x
    }
}

impl<O: PlainBinaryOp> KernelCase for Plain<O> {
    type Kernel = PlainKernel<O::T>;
    type Output = Vec<u64>;
    const REFERENCE: Self::Kernel = O::REFERENCE;

    fn strategy() -> BoxedStrategy<Self> {
        (fused_activation(), broadcast_shapes(), any::<u64>())
            .prop_map(|(act, (s1, s2), seed)| Plain::new(act, s1, s2, &mut Rng(seed)))
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        let mut rng = Rng(0x5eed);
        for act in [FusedActivation::None, FusedActivation::Relu, FusedActivation::Relu6, FusedActivation::ReluN1To1] {
            for n in LANE_TAILS {
                v.push(Plain::new(act, std::vec![n], std::vec![n], &mut rng));
                v.push(Plain::new(act, std::vec![n], std::vec![1], &mut rng));
                v.push(Plain::new(act, std::vec![1], std::vec![2, n], &mut rng));
            }
            v.push(Plain::new(act, std::vec![], std::vec![], &mut rng));
            v.push(Plain::new(act, std::vec![0, 3], std::vec![3], &mut rng));
        }
        v
    }

    fn run(&self, (kernel, in_place): Self::Kernel) -> Result<Vec<u64>, String> {
        let plan = plan_broadcast(&self.shape1, &self.shape2).ok_or("shapes do not broadcast")?;
        let (activation_min, activation_max) = O::T::activation_range(self.activation);
        let p = crate::kernels::nd::PlainBinaryParams { activation_min, activation_max, broadcast: plan.as_broadcast() };
        let mut out = std::vec![activation_min; plan.as_broadcast().out_len()];
        kernel(&p, &self.input1, &self.input2, &mut out);
        let out: Vec<u64> = out.into_iter().map(PlainElem::bits).collect();
        if self.input1.len() == out.len() {
            let mut data = self.input1.clone();
            in_place(&p, &mut data, &self.input2);
            let data: Vec<u64> = data.into_iter().map(PlainElem::bits).collect();
            if data != out {
                return Err(format!("in place {data:x?} differs from out of place {out:x?}"));
            }
        }
        Ok(out)
    }

    fn check(&self, out: &Vec<u64>) -> Result<(), String> {
        let (lo, hi) = O::T::activation_range(self.activation);
        let (_, pairs) = naive_broadcast_pairs(&self.shape1, &self.shape2);
        if out.len() != pairs.len() {
            return Err(format!("{} outputs for {} elements", out.len(), pairs.len()));
        }
        for (k, &(i, j)) in pairs.iter().enumerate() {
            let (x, y) = (self.input1[i], self.input2[j]);
            let want = std_clamp(O::apply(x, y), lo, hi);
            if out[k] != want.bits() {
                return Err(format!("out[{k}] = f({x:?}, {y:?}): got bits {:#x}, want {want:?}", out[k]));
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// In place against out of place, for the kernels without a `KernelCase` of their own (the
// float32 and int16 elementwise forms): the `_in_place` form must give the out-of-place
// form's bytes exactly.

/// An element compared by its bits (float32 NaNs and signed zeros included).
pub trait Bits: Copy + Debug {
    fn to_bits_u64(self) -> u64;
}

impl Bits for f32 {
    fn to_bits_u64(self) -> u64 {
        self.to_bits() as u64
    }
}

impl Bits for i16 {
    fn to_bits_u64(self) -> u64 {
        self as u16 as u64
    }
}

impl Bits for i32 {
    fn to_bits_u64(self) -> u64 {
        self as u32 as u64
    }
}

impl Bits for i8 {
    fn to_bits_u64(self) -> u64 {
        self as u8 as u64
    }
}

fn same_bits<T: Bits>(in_place: &[T], out_of_place: &[T]) -> Result<(), String> {
    let a: Vec<u64> = in_place.iter().map(|v| v.to_bits_u64()).collect();
    let b: Vec<u64> = out_of_place.iter().map(|v| v.to_bits_u64()).collect();
    if a == b {
        Ok(())
    } else {
        Err(format!("in place {in_place:?} differs from out of place {out_of_place:?}"))
    }
}

/// Runs an elementwise kernel on `input` out of place (`kernel`) and in place (`in_place`,
/// over a copy of `input`); the two must agree bit for bit. Returns the output.
pub fn unary_in_place_matches<T: Bits + Default>(input: &[T], kernel: impl Fn(&[T], &mut [T]), in_place: impl Fn(&mut [T])) -> Result<Vec<T>, String> {
    let mut out = std::vec![T::default(); input.len()];
    kernel(input, &mut out);
    let mut data = input.to_vec();
    in_place(&mut data);
    same_bits(&data, &out)?;
    Ok(out)
}

/// Runs a broadcasting binary kernel on operands of `shape1` and `shape2` out of place
/// (`kernel(broadcast, x, y, out)`) and, when operand 1 has the output's shape, in place
/// over a copy of it (`in_place(broadcast, x_out, y)`); the two must agree bit for bit.
/// Returns the output.
pub fn binary_in_place_matches<T: Bits + Default>(
    (shape1, x): (&[usize], &[T]),
    (shape2, y): (&[usize], &[T]),
    kernel: impl Fn(&Broadcast, &[T], &[T], &mut [T]),
    in_place: impl Fn(&Broadcast, &mut [T], &[T]),
) -> Result<Vec<T>, String> {
    let plan = plan_broadcast(shape1, shape2).ok_or("shapes do not broadcast")?;
    let b = plan.as_broadcast();
    let mut out = std::vec![T::default(); b.out_len()];
    kernel(&b, x, y, &mut out);
    if x.len() == out.len() {
        let mut data = x.to_vec();
        in_place(&b, &mut data, y);
        same_bits(&data, &out)?;
    }
    Ok(out)
}

/// Floats for the in-place checks: the specials (NaN, infinities, signed zeros, subnormals,
/// extremes) mixed with ordinary magnitudes.
pub fn special_f32s(rng: &mut Rng, n: usize) -> Vec<f32> {
    const S: [f32; 10] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, 1e-40, -1e-40, f32::MAX, f32::MIN, 6.0];
    (0..n)
        .map(|_| match rng.next_u64() % 4 {
            0 => S[rng.below(S.len())],
            _ => (rng.range(-2_000_000, 2_000_000) as f32) * 1e-5,
        })
        .collect()
}

/// Full-range int16 values, the extremes over-represented.
pub fn random_i16s(rng: &mut Rng, n: usize) -> Vec<i16> {
    (0..n)
        .map(|_| match rng.next_u64() % 4 {
            0 => [i16::MIN, i16::MAX, 0, -1, 1][rng.below(5)],
            _ => rng.next_u64() as i16,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// The float32, 16x8 and uint8 suites' data and checks (the convolutions, FULLY_CONNECTED,
// the pools and SOFTMAX; each suite lives with its operator).

/// The output extent of a window of `k` taps at dilation `dil` sliding by `stride` over
/// `input` cells padded with `before` and `after` more: 0 when no window fits.
pub fn out_size(input: usize, before: usize, after: usize, k: usize, stride: usize, dil: usize) -> usize {
    let eff = (k - 1) * dil + 1;
    (input + before + after).checked_sub(eff).map_or(0, |t| t / stride + 1)
}

/// `n` floats: standard-normal-ish (sum of uniforms), scaled by `scale`, with exact zeros
/// and sign changes mixed in.
pub fn floats(rng: &mut Rng, n: usize, scale: f32) -> Vec<f32> {
    (0..n)
        .map(|_| {
            let u: f32 = (0..4).map(|_| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32).sum::<f32>() - 2.0;
            match rng.next_u64() % 16 {
                0 => 0.0,
                1 => -u * scale * 1000.0,
                _ => u * scale,
            }
        })
        .collect()
}

/// The fused activations' float clamps (TFLite `CalculateActivationRange`).
const CLAMPS_F32: [(f32, f32); 4] = [(f32::MIN, f32::MAX), (0.0, f32::MAX), (0.0, 6.0), (-1.0, 1.0)];

/// The `i`-th fused activation's float clamp (cycling).
pub fn clamp_f32(i: usize) -> Clamp<f32> {
    let (min, max) = CLAMPS_F32[i % CLAMPS_F32.len()];
    Clamp { min, max }
}

/// `std::min(std::max(x, lo), hi)`.
pub fn act_f32(x: f32, c: Clamp<f32>) -> f32 {
    let v = if x < c.min { c.min } else { x };
    if c.max < v {
        c.max
    } else {
        v
    }
}

/// The float32 suites' check: bit-for-bit equality with the f32 oracle (TFLite's order),
/// and closeness to the f64 one (`bound[i]`: the sum of magnitudes the output's rounding
/// errors scale with).
pub fn compare_f32(got: &[f32], exact: &[f32], real: &[f64], bound: &[f64], c: Clamp<f32>) -> Result<(), String> {
    if got.len() != exact.len() {
        return Err(format!("{} outputs, expected {}", got.len(), exact.len()));
    }
    for i in 0..got.len() {
        if got[i].to_bits() != exact[i].to_bits() && !(got[i] == 0.0 && exact[i] == 0.0) {
            return Err(format!("output {i}: {:e}, TFLite's order gives {:e}", got[i], exact[i]));
        }
        let r = real[i].clamp(c.min as f64, c.max as f64);
        if (got[i] as f64 - r).abs() > 1e-5 * bound[i] + 1e-30 {
            return Err(format!("output {i}: {:e}, the real result is {r:e} (bound {:e})", got[i], bound[i]));
        }
    }
    Ok(())
}

/// The check of a packed float32 variant (`kernels::f32x8`), whose order is not TFLite's:
/// each output starts from its bias and accumulates its taps in the packed order, fused
/// where the ISA has it. A sum of `n` terms in any order (fused or not) is within `γ_n = n *
/// 2^-24 / (1 - n * 2^-24)` times the sum of the terms' magnitudes of the real sum, and so
/// is the reference, so the packed result must be within `2 * (n + 1) * 2^-24 * (sum |x *
/// w| + |b|)` of the real (f64) result, `n = taps` the accumulation length per output (+1:
/// the bias), and within twice that of the reference.
pub fn compare_packed(got: &[f32], reference: &[f32], real: &[f64], bound: &[f64], taps: usize, c: Clamp<f32>) -> Result<(), String> {
    if got.len() != real.len() {
        return Err(format!("{} outputs, expected {}", got.len(), real.len()));
    }
    let gamma = 2.0 * (taps as f64 + 1.0) * (-24f64).exp2();
    for i in 0..got.len() {
        let r = real[i].clamp(c.min as f64, c.max as f64);
        let tol = gamma * bound[i] + 1e-38;
        if (got[i] as f64 - r).abs() > tol {
            return Err(format!("output {i}: {:e}, the real result is {r:e} (tolerance {tol:e}, {taps} taps)", got[i]));
        }
        if (got[i] as f64 - reference[i] as f64).abs() > 2.0 * tol {
            return Err(format!("output {i}: {:e}, the reference gives {:e} (tolerance {:e})", got[i], reference[i], 2.0 * tol));
        }
    }
    Ok(())
}

/// `got` and `want` the same floats, bit for bit (NaN bits included); `what` names the two.
pub fn same_f32_bits(got: &[f32], want: &[f32], what: (&str, &str)) -> Result<(), String> {
    match got.iter().zip(want).position(|(a, b)| a.to_bits() != b.to_bits()) {
        Some(i) => Err(format!("output {i}: {:e} {}, {:e} {}", got[i], what.0, want[i], what.1)),
        None if got.len() == want.len() => Ok(()),
        None => Err(format!("{} outputs {}, {} {}", got.len(), what.0, want.len(), what.1)),
    }
}

/// The half nearest below `v` in magnitude (truncated; 65504 above the range, 0 below
/// 2^-24), as bits; `subnormal` first scales `v` into the subnormal halves.
fn half_bits(v: f32, subnormal: bool) -> u16 {
    let v = if subnormal { v * (-18f32).exp2() } else { v };
    let sign = if v.is_sign_negative() { 0x8000u16 } else { 0 };
    let a = v.abs();
    let mag = if a >= 65504.0 {
        0x7bff
    } else if a < (-14f32).exp2() {
        (a * 16_777_216.0) as u16 // m * 2^-24, truncated
    } else {
        let bits = a.to_bits();
        let e = (bits >> 23) as i32 - 127 + 15;
        ((e as u16) << 10) | ((bits >> 13) & 0x3ff) as u16
    };
    sign | mag
}

/// float16 weights (`F32H`): `f` as halves (bits; one value in eight scaled into the
/// subnormal halves) and those halves widened.
pub fn halves(f: &[f32], seed: u64) -> (Vec<u16>, Vec<f32>) {
    let mut rng = Rng(seed ^ 0x5eed);
    let bits: Vec<u16> = f.iter().map(|&v| half_bits(v, rng.next_u64().is_multiple_of(8))).collect();
    let wide = bits.iter().map(|&h| crate::math::f16_to_f32(h)).collect();
    (bits, wide)
}


/// `same_bits_tests!(name, Case, avx2 kernel, avx512 kernel)`: AVX-512 computes every output
/// of a packed float32 variant with the same fused multiply-adds in the same order as
/// AVX2+FMA (more pixels or lanes per pass, one 16-lane vector instead of two 8-lane ones),
/// so the two must give the same bits, on random cases and on the edge cases.
macro_rules! same_bits_tests {
    ($name:ident, $case:ty, $avx2:expr, $avx512:expr) => {
        #[cfg(target_arch = "x86_64")]
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            use $crate::kernels::test_util::{available, config, f32_isa, same_f32_bits, KernelCase};

            fn same_bits(case: &$case) -> Result<(), String> {
                let a = case.run($avx2)?;
                let b = case.run($avx512)?;
                same_f32_bits(&b, &a, ("AVX-512", "AVX2+FMA"))
            }

            fn here() -> bool {
                available(stringify!($name), f32_isa::avx512::detected() && f32_isa::avx2_fma::detected())
            }

            proptest::proptest! {
                #![proptest_config(config::<$case>())]
                #[test]
                fn random(case in <$case as KernelCase>::strategy()) {
                    if here() {
                        same_bits(&case).map_err(proptest::test_runner::TestCaseError::fail)?;
                    }
                }
            }

            #[test]
            fn edge_cases() {
                if !here() {
                    return;
                }
                for case in <$case as KernelCase>::edge_cases() {
                    if let Err(e) = same_bits(&case) {
                        panic!("{case:?}: {e}");
                    }
                }
            }
        }
    };
}
pub(crate) use same_bits_tests;

/// The float32 instruction sets the packed variants' suites call directly: each one's
/// detection and token.
pub mod f32_isa {
    /// AVX2+FMA (only where detected).
    #[cfg(target_arch = "x86_64")]
    pub mod avx2_fma {
        use crate::arch::x86_64::f32::Avx2Fma;

        pub fn detected() -> bool {
            crate::arch::x86_64::tests::detected()
        }
        pub fn token() -> Avx2Fma {
            Avx2Fma::with(crate::arch::x86_64::Avx2::detect().expect("the suite checked detection first"))
        }
    }

    /// AVX-512F (only where detected).
    #[cfg(target_arch = "x86_64")]
    pub mod avx512 {
        use crate::arch::x86_64::f32::Avx512F32;

        pub fn detected() -> bool {
            let std_says = crate::arch::x86_64::tests::detected()
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512dq")
                && std::is_x86_feature_detected!("avx512vl");
            assert_eq!(std_says, Avx512F32::detect().is_some());
            std_says
        }
        pub fn token() -> Avx512F32 {
            Avx512F32::detect().expect("the suite checked detection first")
        }
    }

    /// NEON (aarch64 builds always have it).
    #[cfg(tflc_neon)]
    pub fn neon() -> crate::arch::aarch64::f32::Neon {
        crate::arch::aarch64::f32::Neon::selected().expect("NEON builds always have it")
    }
}

/// Full-range int16 values with the extremes over-represented (one in four), the 16x8
/// suites' activations.
pub fn i16s(rng: &mut Rng, n: usize) -> Vec<i16> {
    (0..n)
        .map(|_| match rng.next_u64() % 8 {
            0 => i16::MIN,
            1 => i16::MAX,
            _ => rng.next_u64() as i16,
        })
        .collect()
}

/// The 16x8 suites' int64 biases.
pub fn i64s(rng: &mut Rng, n: usize) -> Vec<i64> {
    (0..n).map(|_| rng.range(-(1 << 36), 1 << 36)).collect()
}

/// An ordered int16 clamp, the full range half of the time.
pub fn clamp16(rng: &mut Rng) -> (i32, i32) {
    if rng.next_u64().is_multiple_of(2) {
        (-32768, 32767)
    } else {
        let a = rng.range(-32768, 32767) as i32;
        let b = rng.range(-32768, 32767) as i32;
        (a.min(b), a.max(b))
    }
}

/// `len` values cycling through the int16 extremes and their neighbours.
pub fn extremes16(len: usize) -> Vec<i16> {
    const E: [i16; 6] = [i16::MIN, i16::MAX, -32767, 0, 1, -1];
    (0..len).map(|i| E[i % E.len()]).collect()
}

/// Random uint8 values (int8's, offset by 128).
pub fn u8s(rng: &mut Rng, n: usize) -> Vec<u8> {
    rng.i8s(n).into_iter().map(|v| (v as u8) ^ 0x80).collect()
}

/// `acc` requantized as 16x8 output channel `c` (`m`, `s` per tensor when of length 1) and
/// clamped to `lo..=hi`.
pub fn requant_s16(acc: i128, m: &[i32], s: &[i32], c: usize, lo: i32, hi: i32) -> i16 {
    let q = if m.len() == 1 { 0 } else { c };
    let acc = i64::try_from(acc).expect("test accumulators fit i64");
    crate::quant::multiply_by_quantized_multiplier_i64(acc, m[q], s[q]).clamp(lo, hi) as i16
}

/// `x` (NHWC, `[n, h, w, c]`) in a `ph` x `pw` image filled with `fill` (its first row at
/// `top`, its first column at `left`), widened: the explicit padding of the naive
/// convolution definitions.
pub fn pad_image<T: Copy + Into<i64>>(x: &[T], [n, h, w, c]: [usize; 4], [top, left]: [usize; 2], [ph, pw]: [usize; 2], fill: i64) -> Vec<i64> {
    let mut out = std::vec![fill; n * ph * pw * c];
    for b in 0..n {
        for y in 0..h {
            for xx in 0..w {
                for ch in 0..c {
                    out[((b * ph + y + top) * pw + xx + left) * c + ch] = x[((b * h + y) * w + xx) * c + ch].into();
                }
            }
        }
    }
    out
}

/// The int8 requantization of the naive CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED
/// definitions: the int32 accumulator wraps (no saturation), as TFLite's does; then output
/// channel `channel`'s multiplier (the one multiplier when per tensor), the output offset,
/// the clamp.
pub fn requantize_s8(acc: i64, q: &crate::kernels::numerics::QuantS8, channel: usize, clamp: Clamp<i8>) -> i8 {
    let acc = acc as i32;
    let c = if q.output_multiplier.len() == 1 { 0 } else { channel };
    let v = crate::quant::multiply_by_quantized_multiplier(acc, q.output_multiplier[c], q.output_shift[c]) as i64 + q.output_offset as i64;
    v.clamp(clamp.min as i64, clamp.max as i64) as i8
}

/// The multiplier extremes of the 64-bit requantization (`shift` in `-31..8`).
pub const MULTIPLIER_EXTREMES_S16: [(i32, i32); 5] = [(i32::MAX, 0), (0x7FFF_0000 - 1, 0), (1 << 30, -31), (i32::MAX, 7), (1 << 30, -24)];

/// What every 16x8 convolution and FULLY_CONNECTED case shares: data from `seed`, or
/// (`extreme`) the extremes everywhere, and optionally one multiplier for every channel.
#[derive(Clone, Copy, Debug)]
pub struct DataS16 {
    pub with_bias: bool,
    pub seed: u64,
    pub extreme: bool,
    pub multiplier: Option<(i32, i32)>,
}

impl DataS16 {
    pub fn random(with_bias: bool, seed: u64) -> DataS16 {
        DataS16 { with_bias, seed, extreme: false, multiplier: None }
    }

    /// Input, filter, bias, multipliers and shifts, clamp.
    #[allow(clippy::type_complexity)]
    pub fn draw(&self, inputs: usize, weights: usize, channels: usize, lo_exp: i32) -> (Vec<i16>, Vec<i8>, Vec<i64>, (Vec<i32>, Vec<i32>), (i32, i32)) {
        let mut rng = Rng(self.seed);
        let mut x = i16s(&mut rng, inputs);
        let mut filter = rng.i8s(weights);
        let mut bias = i64s(&mut rng, channels);
        let (mut m, mut s) = multipliers(&mut rng, channels, lo_exp, 0);
        let mut clamp = clamp16(&mut rng);
        if self.extreme {
            x = extremes16(inputs);
            filter = extremes(weights).into_iter().rev().collect();
            bias = (0..channels).map(|c| [1i64 << 36, -(1 << 36), 0][c % 3]).collect();
            clamp = (-32768, 32767);
        }
        if let Some((mult, shift)) = self.multiplier {
            m = std::vec![mult; m.len()];
            s = std::vec![shift; s.len()];
            clamp = (-32768, 32767);
        }
        (x, filter, bias, (m, s), clamp)
    }
}

/// The integer numerics ([`S8`](crate::kernels::numerics::S8), `S16`, `U8`) as the naive
/// definitions compute with their activations: widened to i64, and back (in range).
pub trait IntAct: crate::kernels::numerics::Numerics {
    fn wide(x: Self::Act) -> i64;
    fn narrow(v: i64) -> Self::Act;
}

macro_rules! int_act {
    ($($n:ident: $t:ty),*) => {$(
        impl IntAct for crate::kernels::numerics::$n {
            fn wide(x: $t) -> i64 {
                x as i64
            }
            fn narrow(v: i64) -> $t {
                <$t>::try_from(v).expect("the naive definitions clamp to the element type")
            }
        }
    )*};
}
int_act!(S8: i8, S16: i16, U8: u8);

/// `packed_suites!(Case, Params, select, f32x8_fn, public_fn, arch_fn)`: the suites of one
/// packed float32 variant (`kernels::f32x8`), one per implementation, each satisfying the
/// oracle of `Case` ([`compare_packed`]'s tolerance, not the reference's bits):
/// `packed_portable` (the portable eight-lane form, `f32x8::f32x8_fn`), `packed_public_api`
/// (`public_fn`, as generated code calls it: whatever `crate::isa` selected),
/// `packed_avx2_fma` and `packed_avx512` (`arch::x86_64::f32::arch_fn`, `…::avx512::arch_fn`,
/// called directly where detected), `packed_avx512_bits` (AVX-512 gives AVX2+FMA's bits,
/// [`same_bits_tests!`]) and `packed_neon` (`arch::aarch64::f32::arch_fn`, aarch64 builds).
/// `select(imp, p, x, f, b, out)` selects the variant for `TargetClass::Host`, packs as the
/// compiler does and runs `imp`'s loop nest on the packed weights.
macro_rules! packed_suites {
    ($case:ty, $params:ty, $select:ident, $portable:ident, $public:path, $arch:ident) => {
        mod packed {
            use super::*;
            #[allow(unused_imports)]
            use $crate::kernels::test_util::f32_isa;

            pub(super) fn portable(p: &$params, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
                $select(|p, x, k, o| $crate::kernels::f32x8::$portable($crate::kernels::f32x8::Portable, p, x, k, o), p, x, f, b, out)
            }

            pub(super) fn public_api(p: &$params, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
                $select($public, p, x, f, b, out)
            }

            #[cfg(target_arch = "x86_64")]
            pub(super) fn avx2_fma(p: &$params, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
                $select(|p, x, k, o| $crate::arch::x86_64::f32::$arch(f32_isa::avx2_fma::token(), p, x, k, o), p, x, f, b, out)
            }

            #[cfg(target_arch = "x86_64")]
            pub(super) fn avx512(p: &$params, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
                $select(|p, x, k, o| $crate::arch::x86_64::f32::avx512::$arch(f32_isa::avx512::token(), p, x, k, o), p, x, f, b, out)
            }

            #[cfg(tflc_neon)]
            pub(super) fn neon(p: &$params, x: &[f32], f: &[f32], b: Option<&[f32]>, out: &mut [f32]) {
                $select(|p, x, k, o| $crate::arch::aarch64::f32::$arch(f32_isa::neon(), p, x, k, o), p, x, f, b, out)
            }
        }

        $crate::kernels::test_util::kernel_tests!(packed_portable, if true, oracle, $case, packed::portable);
        $crate::kernels::test_util::kernel_tests!(packed_public_api, if true, oracle, $case, packed::public_api);
        #[cfg(target_arch = "x86_64")]
        $crate::kernels::test_util::kernel_tests!(packed_avx2_fma, if $crate::kernels::test_util::f32_isa::avx2_fma::detected(), oracle, $case, packed::avx2_fma);
        #[cfg(target_arch = "x86_64")]
        $crate::kernels::test_util::kernel_tests!(packed_avx512, if $crate::kernels::test_util::f32_isa::avx512::detected(), oracle, $case, packed::avx512);
        $crate::kernels::test_util::same_bits_tests!(packed_avx512_bits, $case, packed::avx2_fma, packed::avx512);
        #[cfg(tflc_neon)]
        $crate::kernels::test_util::kernel_tests!(packed_neon, if true, oracle, $case, packed::neon);
    };
}
pub(crate) use packed_suites;

/// `QuantParams { scale, zero_point }`.
pub fn qp(scale: f32, zero_point: i32) -> crate::quant::QuantParams {
    crate::quant::QuantParams { scale, zero_point }
}

/// ADD, SUB and MUL int8 as one [`BinaryS8Op`]: the operands' and the output's
/// quantization and the fused activation, random (scales log-uniform, any zero points, any
/// activation) or at the edges; [`ArithOp`] says what is each operator's.
#[derive(Clone, Debug)]
pub struct Arith<K> {
    pub a: crate::quant::QuantParams,
    pub b: crate::quant::QuantParams,
    pub out: crate::quant::QuantParams,
    pub activation: FusedActivation,
    pub kind: core::marker::PhantomData<K>,
}

/// What ADD, SUB and MUL int8 do not share.
pub trait ArithOp: Clone + Debug + 'static {
    type Params<'a>;
    /// The scalar kernels, out of place and in place.
    #[allow(clippy::type_complexity)]
    const REFERENCE: (for<'a, 'b> fn(&'b Self::Params<'a>, &[i8], &[i8], &mut [i8]), for<'a, 'b> fn(&'b Self::Params<'a>, &mut [i8], &[i8]));
    /// The range of the random cases' output scale.
    const OUT_SCALE: (f32, f32);
    /// The edge cases' scales (operand 1, operand 2, output), each under the zero points
    /// `(0, 0, 0)`, `(-128, 127, -128)`, `(127, -128, 127)` with no activation and
    /// `(3, -5, 7)` with [`ArithOp::EDGE_ACTIVATION`].
    const EDGE_SCALES: &'static [(f32, f32, f32)];
    const EDGE_ACTIVATION: FusedActivation;
    /// The operator's prepare function.
    fn prepare<'a>(a: crate::quant::QuantParams, b: crate::quant::QuantParams, out: crate::quant::QuantParams, activation: FusedActivation, broadcast: Broadcast<'a>) -> Option<Self::Params<'a>>;
    /// The real-number operation.
    fn apply(x: f64, y: f64) -> f64;
}

impl<K: ArithOp> Arith<K> {
    fn new((sa, za): (f32, i32), (sb, zb): (f32, i32), (so, zo): (f32, i32), activation: FusedActivation) -> Self {
        Arith { a: qp(sa, za), b: qp(sb, zb), out: qp(so, zo), activation, kind: core::marker::PhantomData }
    }
}

impl<K: ArithOp> BinaryS8Op for Arith<K> {
    type Params<'a> = K::Params<'a>;
    const REFERENCE: BinaryKernel<Self> = K::REFERENCE;

    fn strategy() -> BoxedStrategy<Self> {
        (scale(0.001, 0.1), scale(0.001, 0.1), scale(K::OUT_SCALE.0, K::OUT_SCALE.1), zero_point(), zero_point(), zero_point(), fused_activation())
            .prop_map(|(sa, sb, so, za, zb, zo, activation)| Arith::new((sa, za), (sb, zb), (so, zo), activation))
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut v = Vec::new();
        for &(sa, sb, so) in K::EDGE_SCALES {
            for (za, zb, zo) in [(0, 0, 0), (-128, 127, -128), (127, -128, 127)] {
                v.push(Arith::new((sa, za), (sb, zb), (so, zo), FusedActivation::None));
            }
            v.push(Arith::new((sa, 3), (sb, -5), (so, 7), K::EDGE_ACTIVATION));
        }
        v
    }

    fn params<'a>(&self, broadcast: Broadcast<'a>) -> Option<K::Params<'a>> {
        K::prepare(self.a, self.b, self.out, self.activation, broadcast)
    }

    fn ideal(&self, x: i8, y: i8) -> f64 {
        let (lo, hi) = real_activation_range(self.activation);
        to_s8_units(K::apply(real(x, self.a), real(y, self.b)).clamp(lo, hi), self.out)
    }
}
