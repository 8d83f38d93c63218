//! ARG_MAX and ARG_MIN along one axis, int32 indices. Mirrors TFLite Micro
//! `arg_min_max.cc`, which calls `reference_ops::ArgMinMax` with `GreaterFn` / `LessFn`
//! (plain `>` / `<`, not the NaN-aware comparison of TFLite's own kernel): the first
//! element starts as the best, a later one replaces it only when strictly greater (less),
//! so ties keep the lowest index and a NaN compares false either way.

/// The walk: `outer` blocks of `axis_size` values, `inner` apart; `max` for ARG_MAX.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgMinMaxParams {
    /// Product of the dimensions before the axis.
    pub outer: usize,
    /// Length of the searched axis (at least 1).
    pub axis_size: usize,
    /// Product of the dimensions after the axis: the stride, in elements, between two candidates.
    pub inner: usize,
    /// `true` for ARG_MAX, `false` for ARG_MIN.
    pub max: bool,
}

/// ARG_MAX / ARG_MIN of float32 or int8 values; `output` has `outer * inner` indices.
#[inline]
pub fn arg_min_max<T: Copy + PartialOrd>(params: &ArgMinMaxParams, input: &[T], output: &mut [i32]) {
    if params.max {
        scalar::arg_best(params, input, output, |a, b| a > b)
    } else {
        scalar::arg_best(params, input, output, |a, b| a < b)
    }
}

pub mod scalar {
    //! Scalar reference implementation.
    use super::*;

    #[inline(always)]
    /// Writes, for each of the `outer * inner` positions, the axis index of the best value, where `better(v, best)` says `v` replaces the best so far (strictly, so the first of equal values wins).
    pub fn arg_best<T: Copy>(p: &ArgMinMaxParams, input: &[T], output: &mut [i32], better: impl Fn(T, T) -> bool) {
        debug_assert!(p.axis_size >= 1);
        debug_assert_eq!(input.len(), p.outer * p.axis_size * p.inner);
        debug_assert_eq!(output.len(), p.outer * p.inner);
        for o in 0..p.outer {
            for i in 0..p.inner {
                let mut best = input[o * p.axis_size * p.inner + i];
                let mut index = 0usize;
                for a in 1..p.axis_size {
                    let v = input[(o * p.axis_size + a) * p.inner + i];
                    if better(v, best) {
                        best = v;
                        index = a;
                    }
                }
                output[o * p.inner + i] = index as i32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ties_and_nan() {
        let p = ArgMinMaxParams { outer: 1, axis_size: 4, inner: 1, max: true };
        let mut out = [9i32; 1];
        arg_min_max(&p, &[1i8, 3, 3, -1], &mut out);
        assert_eq!(out, [1]);
        arg_min_max(&p, &[f32::NAN, 3.0, 4.0, 1.0], &mut out);
        assert_eq!(out, [0]);
        arg_min_max(&p, &[1.0f32, f32::NAN, 4.0, 1.0], &mut out);
        assert_eq!(out, [2]);
        arg_min_max(&ArgMinMaxParams { max: false, ..p }, &[1.0f32, f32::NAN, -4.0, -4.0], &mut out);
        assert_eq!(out, [2]);
    }

    proptest! {
        /// Against the iterator definition (first index of the extreme) on a [2, 5, 3] input, axis 1.
        #[test]
        fn matches_iterators(x in proptest::collection::vec(any::<i8>(), 30)) {
            let p = ArgMinMaxParams { outer: 2, axis_size: 5, inner: 3, max: true };
            let (mut hi, mut lo) = ([0i32; 6], [0i32; 6]);
            arg_min_max(&p, &x, &mut hi);
            arg_min_max(&ArgMinMaxParams { max: false, ..p }, &x, &mut lo);
            for o in 0..2 {
                for i in 0..3 {
                    let line: std::vec::Vec<i8> = (0..5).map(|a| x[(o * 5 + a) * 3 + i]).collect();
                    let m = *line.iter().max().unwrap();
                    let n = *line.iter().min().unwrap();
                    prop_assert_eq!(hi[o * 3 + i], line.iter().position(|&v| v == m).unwrap() as i32);
                    prop_assert_eq!(lo[o * 3 + i], line.iter().position(|&v| v == n).unwrap() as i32);
                }
            }
        }
    }
}
