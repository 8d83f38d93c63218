//! N-dimensional iteration shared by the broadcasting elementwise kernels (ADD, SUB, MUL,
//! MAXIMUM, MINIMUM, PRELU) and the strided data-movement kernels (TRANSPOSE, SLICE,
//! STRIDED_SLICE, SPLIT, SPLIT_V, UNPACK).
//!
//! Conventions of these kernels (for the code generator):
//! - Every shape/stride/offset is computed at compile time. Broadcasting binary ops take a
//!   [`Broadcast`] (from [`plan_broadcast`], dims fused); data-movement ops that are pure
//!   index maps take a [`StridedCopyParams`] (from the op's `prepare_*` resolver returning a
//!   [`GatherPlan`]); the generated code writes the plan's slices as `const` arrays.
//! - Quantized ops have a `prepare_*` function taking [`crate::quant::QuantParams`] (f32
//!   scale as stored in the model, zero point) that reproduces TFLite Micro's `Prepare`
//!   arithmetic exactly (f32 vs f64 matters: SUB and RELU divide in f32, ADD in f64) and
//!   returns `None` where TFLite would fail to prepare.
//! - Elementwise ops also have `_in_place` variants (output over operand 1) for planners
//!   that alias the output to an input; data-movement kernels are generic over `T: Copy`.
//! - Kernels rely on preconditions (slice lengths match the params) that the compiler
//!   guarantees; they are `debug_assert`ed, and out-of-bounds indexing panics rather than
//!   reading out of bounds.

/// Largest rank the N-d walkers accept (TFLite's `BroadcastBinaryOpSimple` allows 8).
pub const MAX_RANK: usize = 8;

/// Precomputed broadcasting of two operands onto a dense row-major output.
///
/// `out_shape` is the (possibly dimension-fused) output shape, `in1_strides[d]` /
/// `in2_strides[d]` the element stride of each operand along output dimension `d`
/// (0 where the operand is broadcast). All three slices have the same length `1..=MAX_RANK`.
/// For two operands of identical shape this is `{ out_shape: &[n], in1_strides: &[1],
/// in2_strides: &[1] }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Broadcast<'a> {
    /// The output's shape (`1..=MAX_RANK` dimensions).
    pub out_shape: &'a [usize],
    /// Per output dimension, the step in `input1` elements (0 where `input1` broadcasts along it).
    pub in1_strides: &'a [usize],
    /// Per output dimension, the step in `input2` elements (0 where `input2` broadcasts along it).
    pub in2_strides: &'a [usize],
}

impl Broadcast<'_> {
    /// Number of output elements.
    pub fn out_len(&self) -> usize {
        self.out_shape.iter().product()
    }
}

/// Parameters of the plain (unquantized) float32 / int32 binary kernels (`add_f32`,
/// `sub_i32`, `mul_f32`, ...): TFLite's `ActivationFunctionWithMinMax` clamp
/// `min(max(x, activation_min), activation_max)` and the broadcast.
/// Use [`activation_range_f32`] / [`activation_range_i32`] for the clamp; note TFLite Micro's
/// int32 ADD ignores the fused activation (it clamps to the full int32 range).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlainBinaryParams<'a, T> {
    /// Lower end of the fused-activation clamp.
    pub activation_min: T,
    /// Upper end of the fused-activation clamp, `>= activation_min`.
    pub activation_max: T,
    /// Output shape and input strides; see [`plan_broadcast`].
    pub broadcast: Broadcast<'a>,
}

/// TFLite `CalculateActivationRange` for float: `(lowest, max)`, `(0, max)`, `(-1, 1)`,
/// `(0, 6)`.
#[cfg(feature = "prepare")]
pub fn activation_range_f32(activation: crate::prepare::FusedActivation) -> (f32, f32) {
    use crate::prepare::FusedActivation as A;
    match activation {
        A::None => (f32::MIN, f32::MAX),
        A::Relu => (0.0, f32::MAX),
        A::ReluN1To1 => (-1.0, 1.0),
        A::Relu6 => (0.0, 6.0),
    }
}

/// TFLite `CalculateActivationRange` for int32.
#[cfg(feature = "prepare")]
pub fn activation_range_i32(activation: crate::prepare::FusedActivation) -> (i32, i32) {
    use crate::prepare::FusedActivation as A;
    match activation {
        A::None => (i32::MIN, i32::MAX),
        A::Relu => (0, i32::MAX),
        A::ReluN1To1 => (-1, 1),
        A::Relu6 => (0, 6),
    }
}

/// TFLite `ActivationFunctionWithMinMax`: `std::min(std::max(x, lo), hi)`, with the
/// std semantics (`max(a, b) = a < b ? b : a`), so a NaN `x` passes through.
#[inline(always)]
pub(crate) fn clamp_min_max<T: PartialOrd + Copy>(x: T, lo: T, hi: T) -> T {
    let v = if x < lo { lo } else { x };
    if hi < v {
        hi
    } else {
        v
    }
}

/// Owned result of [`plan_broadcast`]; the compiler turns it into a const [`Broadcast`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BroadcastPlan {
    /// Number of leading entries of the arrays in use.
    pub rank: usize,
    /// The output's shape in `out_shape[..rank]`.
    pub out_shape: [usize; MAX_RANK],
    /// `input1`'s strides in `in1_strides[..rank]` (0 where it broadcasts).
    pub in1_strides: [usize; MAX_RANK],
    /// `input2`'s strides in `in2_strides[..rank]` (0 where it broadcasts).
    pub in2_strides: [usize; MAX_RANK],
}

impl BroadcastPlan {
    /// The plan as the borrowed form the kernels take (the first `rank` entries).
    pub fn as_broadcast(&self) -> Broadcast<'_> {
        Broadcast {
            out_shape: &self.out_shape[..self.rank],
            in1_strides: &self.in1_strides[..self.rank],
            in2_strides: &self.in2_strides[..self.rank],
        }
    }
}

/// Numpy/TFLite broadcasting of `shape1` against `shape2` (right-aligned, size-1 dims
/// stretch). Size-1 output dims are dropped and adjacent dims with the same
/// broadcast pattern are fused, so the result has as few dims as possible (at least 1).
/// Returns `None` if the shapes are incompatible or the rank exceeds [`MAX_RANK`].
pub fn plan_broadcast(shape1: &[usize], shape2: &[usize]) -> Option<BroadcastPlan> {
    let rank = shape1.len().max(shape2.len());
    if rank > MAX_RANK {
        return None;
    }
    // (size, operand1 is full, operand2 is full), outermost first.
    let mut dims: [(usize, bool, bool); MAX_RANK] = [(1, true, true); MAX_RANK];
    let mut n = 0;
    for i in 0..rank {
        let d1 = if i + shape1.len() >= rank { shape1[i + shape1.len() - rank] } else { 1 };
        let d2 = if i + shape2.len() >= rank { shape2[i + shape2.len() - rank] } else { 1 };
        let out = if d1 == d2 {
            d1
        } else if d1 == 1 {
            d2
        } else if d2 == 1 {
            d1
        } else {
            return None;
        };
        if out == 1 {
            continue;
        }
        let (f1, f2) = (d1 == out, d2 == out);
        if n > 0 && dims[n - 1].1 == f1 && dims[n - 1].2 == f2 {
            dims[n - 1].0 *= out;
        } else {
            dims[n] = (out, f1, f2);
            n += 1;
        }
    }
    if n == 0 {
        n = 1;
        dims[0] = (1, true, true);
    }
    let mut plan = BroadcastPlan {
        rank: n,
        out_shape: [0; MAX_RANK],
        in1_strides: [0; MAX_RANK],
        in2_strides: [0; MAX_RANK],
    };
    let (mut acc1, mut acc2) = (1usize, 1usize);
    for d in (0..n).rev() {
        let (size, f1, f2) = dims[d];
        plan.out_shape[d] = size;
        if f1 {
            plan.in1_strides[d] = acc1;
            acc1 *= size;
        }
        if f2 {
            plan.in2_strides[d] = acc2;
            acc2 *= size;
        }
    }
    Some(plan)
}

/// Walks `b`'s output in row-major order, writing `op(in1[i1], in2[i2])`.
#[inline(always)]
pub(crate) fn broadcast_binary<A: Copy, B: Copy, O>(
    b: &Broadcast,
    in1: &[A],
    in2: &[B],
    out: &mut [O],
    op: impl Fn(A, B) -> O,
) {
    let rank = b.out_shape.len();
    debug_assert!((1..=MAX_RANK).contains(&rank));
    debug_assert_eq!(b.in1_strides.len(), rank);
    debug_assert_eq!(b.in2_strides.len(), rank);
    debug_assert_eq!(out.len(), b.out_len());
    let inner = b.out_shape[rank - 1];
    if inner == 0 || out.is_empty() {
        return;
    }
    let (s1, s2) = (b.in1_strides[rank - 1], b.in2_strides[rank - 1]);
    let mut idx = [0usize; MAX_RANK];
    let (mut o1, mut o2) = (0usize, 0usize);
    for row in out.chunks_exact_mut(inner) {
        match (s1, s2) {
            (1, 1) => {
                for ((o, &a), &c) in row.iter_mut().zip(&in1[o1..o1 + inner]).zip(&in2[o2..o2 + inner]) {
                    *o = op(a, c);
                }
            }
            (0, 1) => {
                let a = in1[o1];
                for (o, &c) in row.iter_mut().zip(&in2[o2..o2 + inner]) {
                    *o = op(a, c);
                }
            }
            (1, 0) => {
                let c = in2[o2];
                for (o, &a) in row.iter_mut().zip(&in1[o1..o1 + inner]) {
                    *o = op(a, c);
                }
            }
            _ => {
                for (j, o) in row.iter_mut().enumerate() {
                    *o = op(in1[o1 + j * s1], in2[o2 + j * s2]);
                }
            }
        }
        // Advance the odometer over the outer dims.
        let mut d = rank - 1;
        while d > 0 {
            d -= 1;
            idx[d] += 1;
            o1 += b.in1_strides[d];
            o2 += b.in2_strides[d];
            if idx[d] < b.out_shape[d] {
                break;
            }
            o1 -= b.in1_strides[d] * b.out_shape[d];
            o2 -= b.in2_strides[d] * b.out_shape[d];
            idx[d] = 0;
        }
    }
}

/// In-place form of [`broadcast_binary`]: the output overwrites operand 1, which must
/// have the output's shape (`b.in1_strides` dense row-major), so element `k` of the
/// output depends on element `k` of operand 1 only and overwriting it is safe.
#[inline(always)]
pub(crate) fn broadcast_binary_in_place<A: Copy, B: Copy>(
    b: &Broadcast,
    inout: &mut [A],
    in2: &[B],
    op: impl Fn(A, B) -> A,
) {
    let rank = b.out_shape.len();
    debug_assert!((1..=MAX_RANK).contains(&rank));
    debug_assert_eq!(inout.len(), b.out_len());
    debug_assert!(is_dense(b.out_shape, b.in1_strides), "operand 1 must have the output's shape");
    let inner = b.out_shape[rank - 1];
    if inner == 0 || inout.is_empty() {
        return;
    }
    let s2 = b.in2_strides[rank - 1];
    let mut idx = [0usize; MAX_RANK];
    let mut o2 = 0usize;
    for row in inout.chunks_exact_mut(inner) {
        match s2 {
            1 => {
                for (o, &c) in row.iter_mut().zip(&in2[o2..o2 + inner]) {
                    *o = op(*o, c);
                }
            }
            0 => {
                let c = in2[o2];
                for o in row.iter_mut() {
                    *o = op(*o, c);
                }
            }
            _ => {
                for (j, o) in row.iter_mut().enumerate() {
                    *o = op(*o, in2[o2 + j * s2]);
                }
            }
        }
        let mut d = rank - 1;
        while d > 0 {
            d -= 1;
            idx[d] += 1;
            o2 += b.in2_strides[d];
            if idx[d] < b.out_shape[d] {
                break;
            }
            o2 -= b.in2_strides[d] * b.out_shape[d];
            idx[d] = 0;
        }
    }
}

/// `output[i] = f(input[i])`: the loop of the elementwise kernels that have an `_in_place`
/// form ([`map_in_place`]), so that both forms run one element function.
#[inline(always)]
pub(crate) fn map<A: Copy, O>(input: &[A], output: &mut [O], f: impl Fn(A) -> O) {
    debug_assert_eq!(input.len(), output.len());
    for (o, &x) in output.iter_mut().zip(input) {
        *o = f(x);
    }
}

/// [`map`] with the output written over the input: element `i` is read before it is
/// written, and nothing else reads it.
#[inline(always)]
pub(crate) fn map_in_place<A: Copy>(data: &mut [A], f: impl Fn(A) -> A) {
    for v in data {
        *v = f(*v);
    }
}

/// Whether `strides` are the dense row-major strides of `shape` (ignoring size-1 dims).
pub fn is_dense(shape: &[usize], strides: &[usize]) -> bool {
    let mut acc = 1;
    for (&n, &s) in shape.iter().zip(strides).rev() {
        if n != 1 && s != acc {
            return false;
        }
        acc *= n;
    }
    true
}

/// Strided gather: writes, in row-major order over `shape`, the elements
/// `input[base + sum(idx[d] * strides[d])]` to `out` (`out.len()` = product of `shape`).
/// Strides may be negative (reversed strided slices). `shape.len()` is `1..=MAX_RANK`.
#[inline]
fn gather<T: Copy>(input: &[T], base: usize, shape: &[usize], strides: &[isize], out: &mut [T]) {
    let rank = shape.len();
    debug_assert!((1..=MAX_RANK).contains(&rank));
    debug_assert_eq!(strides.len(), rank);
    debug_assert_eq!(out.len(), shape.iter().product::<usize>());
    let inner = shape[rank - 1];
    if inner == 0 || out.is_empty() {
        return;
    }
    let s = strides[rank - 1];
    let mut idx = [0usize; MAX_RANK];
    let mut off = base as isize;
    for row in out.chunks_exact_mut(inner) {
        if s == 1 {
            let start = off as usize;
            row.copy_from_slice(&input[start..start + inner]);
        } else {
            for (j, o) in row.iter_mut().enumerate() {
                *o = input[(off + j as isize * s) as usize];
            }
        }
        let mut d = rank - 1;
        while d > 0 {
            d -= 1;
            idx[d] += 1;
            off += strides[d];
            if idx[d] < shape[d] {
                break;
            }
            off -= strides[d] * shape[d] as isize;
            idx[d] = 0;
        }
    }
}

/// A precomputed strided copy ("gather"): output element `i` (row-major over `shape`) is
/// `input[base + sum(idx[d] * strides[d])]`. Used by TRANSPOSE, SLICE, STRIDED_SLICE,
/// SPLIT, SPLIT_V and UNPACK (each output of a multi-output op is its own copy).
/// `shape` and `strides` have the same length `1..=MAX_RANK`; strides may be negative.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StridedCopyParams<'a> {
    /// Input index of the first output element.
    pub base: usize,
    /// The output's shape.
    pub shape: &'a [usize],
    /// Per output dimension, the step in input elements (negative walks backwards).
    pub strides: &'a [isize],
}

impl StridedCopyParams<'_> {
    /// Number of elements written.
    pub fn out_len(&self) -> usize {
        self.shape.iter().product()
    }
}

/// Owned form of [`StridedCopyParams`], produced by the compile-time resolvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatherPlan {
    /// Number of leading entries of `shape` and `strides` in use.
    pub rank: usize,
    /// Input index of the first output element.
    pub base: usize,
    /// The output's shape in `shape[..rank]`.
    pub shape: [usize; MAX_RANK],
    /// Input steps per output dimension in `strides[..rank]`.
    pub strides: [isize; MAX_RANK],
}

impl GatherPlan {
    /// The plan as the borrowed form the kernels take (the first `rank` entries).
    pub fn as_params(&self) -> StridedCopyParams<'_> {
        StridedCopyParams { base: self.base, shape: &self.shape[..self.rank], strides: &self.strides[..self.rank] }
    }

    /// Builds a plan from per-dim `(count, stride)` pairs (outermost first), dropping
    /// size-1 dims and fusing dims that are contiguous with their inner neighbour. An
    /// empty output becomes shape `[0]`. `None` if more than [`MAX_RANK`] dims.
    pub fn simplified(base: usize, dims: &[(usize, isize)]) -> Option<GatherPlan> {
        if dims.len() > MAX_RANK {
            return None;
        }
        let mut plan = GatherPlan { rank: 0, base, shape: [0; MAX_RANK], strides: [0; MAX_RANK] };
        if dims.iter().any(|&(n, _)| n == 0) {
            plan.rank = 1;
            return Some(plan);
        }
        // Build innermost-first, then reverse.
        let mut tmp: [(usize, isize); MAX_RANK] = [(0, 0); MAX_RANK];
        let mut n = 0;
        for &(count, stride) in dims.iter().rev() {
            if count == 1 {
                continue;
            }
            if n > 0 && stride == tmp[n - 1].1 * tmp[n - 1].0 as isize {
                tmp[n - 1].0 *= count;
            } else {
                tmp[n] = (count, stride);
                n += 1;
            }
        }
        if n == 0 {
            tmp[0] = (1, 1);
            n = 1;
        }
        plan.rank = n;
        for i in 0..n {
            plan.shape[i] = tmp[n - 1 - i].0;
            plan.strides[i] = tmp[n - 1 - i].1;
        }
        Some(plan)
    }
}

/// Runs a [`StridedCopyParams`]: `output.len()` must be `params.out_len()`.
#[inline]
pub fn strided_copy<T: Copy>(params: &StridedCopyParams, input: &[T], output: &mut [T]) {
    gather(input, params.base, params.shape, params.strides, output)
}

/// Row-major element strides of `shape` (`out[d]` = product of `shape[d+1..]`).
/// Compile-time helper.
pub fn row_major_strides(shape: &[usize]) -> [usize; MAX_RANK] {
    let mut s = [0usize; MAX_RANK];
    let mut acc = 1;
    for d in (0..shape.len().min(MAX_RANK)).rev() {
        s[d] = acc;
        acc *= shape[d];
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::vec::Vec;

    /// Independent reference: full index arithmetic on the unfused, right-aligned shapes.
    fn naive_broadcast(s1: &[usize], s2: &[usize]) -> (Vec<usize>, Vec<(usize, usize)>) {
        let r = s1.len().max(s2.len());
        let ext = |s: &[usize]| -> Vec<usize> {
            let mut v = std::vec![1; r - s.len()];
            v.extend_from_slice(s);
            v
        };
        let (e1, e2) = (ext(s1), ext(s2));
        let out: Vec<usize> = e1.iter().zip(&e2).map(|(&a, &b)| a.max(b)).collect();
        let total: usize = out.iter().product();
        let mut pairs = Vec::new();
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

    fn shapes() -> impl Strategy<Value = (Vec<usize>, Vec<usize>)> {
        proptest::collection::vec((1usize..4, 0u8..3), 0..6).prop_flat_map(|dims| {
            let s1: Vec<usize> = dims.iter().map(|&(n, m)| if m == 1 { 1 } else { n }).collect();
            let s2: Vec<usize> = dims.iter().map(|&(n, m)| if m == 2 { 1 } else { n }).collect();
            (0..=s1.len(), 0..=s2.len()).prop_map(move |(c1, c2)| (s1[c1..].to_vec(), s2[c2..].to_vec()))
        })
    }

    proptest! {
        #[test]
        fn broadcast_matches_naive((s1, s2) in shapes()) {
            let plan = plan_broadcast(&s1, &s2).unwrap();
            let b = plan.as_broadcast();
            let (_, pairs) = naive_broadcast(&s1, &s2);
            prop_assert_eq!(b.out_len(), pairs.len());
            let n1: usize = s1.iter().product();
            let n2: usize = s2.iter().product();
            let in1: Vec<usize> = (0..n1).collect();
            let in2: Vec<usize> = (0..n2).collect();
            let mut out = std::vec![(0, 0); pairs.len()];
            broadcast_binary(&b, &in1, &in2, &mut out, |a, c| (a, c));
            prop_assert_eq!(out, pairs);
        }
    }

    #[test]
    fn plan_fuses_and_rejects() {
        let p = plan_broadcast(&[1, 4, 6, 3], &[1, 1, 1, 3]).unwrap();
        assert_eq!(p.as_broadcast(), Broadcast { out_shape: &[24, 3], in1_strides: &[3, 1], in2_strides: &[0, 1] });
        let p = plan_broadcast(&[2, 3], &[2, 3]).unwrap();
        assert_eq!(p.as_broadcast(), Broadcast { out_shape: &[6], in1_strides: &[1], in2_strides: &[1] });
        let p = plan_broadcast(&[], &[]).unwrap();
        assert_eq!(p.as_broadcast().out_len(), 1);
        assert!(plan_broadcast(&[2, 3], &[3, 3]).is_none());
        assert!(plan_broadcast(&[1; 9], &[1]).is_none());
    }

    #[test]
    fn simplified_fuses() {
        // A [2, 3, 4] contiguous copy fuses to one dim.
        let p = GatherPlan::simplified(5, &[(2, 12), (3, 4), (4, 1)]).unwrap();
        assert_eq!(p.as_params(), StridedCopyParams { base: 5, shape: &[24], strides: &[1] });
        let p = GatherPlan::simplified(0, &[(1, 99), (3, 2), (1, 7)]).unwrap();
        assert_eq!(p.as_params(), StridedCopyParams { base: 0, shape: &[3], strides: &[2] });
        let p = GatherPlan::simplified(0, &[(2, 1), (0, 1)]).unwrap();
        assert_eq!(p.as_params().out_len(), 0);
        let p = GatherPlan::simplified(3, &[(1, 1)]).unwrap();
        assert_eq!(p.as_params(), StridedCopyParams { base: 3, shape: &[1], strides: &[1] });
    }

    #[test]
    fn gather_transposes() {
        // 2x3 -> transpose 3x2
        let input = [0, 1, 2, 3, 4, 5];
        let mut out = [0; 6];
        gather(&input, 0, &[3, 2], &[1, 3], &mut out);
        assert_eq!(out, [0, 3, 1, 4, 2, 5]);
        // reversed rows
        gather(&input, 3, &[2, 3], &[-3, 1], &mut out);
        assert_eq!(out, [3, 4, 5, 0, 1, 2]);
    }
}
