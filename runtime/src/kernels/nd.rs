//! N-dimensional iteration shared by the broadcasting elementwise kernels (ADD, SUB, MUL,
//! MAXIMUM, MINIMUM, PRELU) and the strided data-movement kernels (TRANSPOSE, SLICE,
//! STRIDED_SLICE, SPLIT, UNPACK).
//!
//! Shapes and strides are computed by the compiler ([`plan_broadcast`] is the pure helper
//! for binary broadcasting); the kernels only walk them. Ranks are at most [`MAX_RANK`].

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
    pub out_shape: &'a [usize],
    pub in1_strides: &'a [usize],
    pub in2_strides: &'a [usize],
}

impl Broadcast<'_> {
    /// Number of output elements.
    pub fn out_len(&self) -> usize {
        self.out_shape.iter().product()
    }
}

/// Owned result of [`plan_broadcast`]; the compiler turns it into a const [`Broadcast`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BroadcastPlan {
    pub rank: usize,
    pub out_shape: [usize; MAX_RANK],
    pub in1_strides: [usize; MAX_RANK],
    pub in2_strides: [usize; MAX_RANK],
}

impl BroadcastPlan {
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

/// Strided gather: writes, in row-major order over `shape`, the elements
/// `input[base + sum(idx[d] * strides[d])]` to `out` (`out.len()` = product of `shape`).
/// Strides may be negative (reversed strided slices). `shape.len()` is `1..=MAX_RANK`.
#[inline]
pub(crate) fn gather<T: Copy>(input: &[T], base: usize, shape: &[usize], strides: &[isize], out: &mut [T]) {
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
