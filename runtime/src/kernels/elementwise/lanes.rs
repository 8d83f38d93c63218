//! The host SIMD loop nest of the int8 elementwise binary kernels (ADD, SUB, MUL, out of
//! place and in place), generic over a micro-kernel ([`PairMicro`]: `N` int8 pairs to `N`
//! int8 results), `#[inline(always)]` into each instruction set's `#[target_feature]`
//! entries, which [`binary_entries!`] writes in `crate::arch` (AVX2 eight lanes, AVX-512
//! sixteen). Here too: the walk over the broadcast's rows ([`binary`], [`binary_in_place`])
//! and the parameters refolded for the lanes ([`AddSub`], [`Mul`]); the arithmetic and why
//! it is exact are in `arch/x86_64/elementwise.rs`'s module doc.

use crate::kernels::add::AddParams;
use crate::kernels::mul::MulParams;
use crate::kernels::nd::{is_dense, Broadcast};
use core::ops::Range;

/// One operand of a row: contiguous elements, or one element repeated.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Src<'a> {
    /// `row[j]` is element `j`.
    Row(&'a [i8]),
    /// Every element is this one.
    Splat(i8),
}

impl Src<'_> {
    /// Elements `i..i + N`, with zeros past the end of a row (a tail).
    #[inline(always)]
    pub(crate) fn chunk<const N: usize>(&self, i: usize) -> [i8; N] {
        match *self {
            Src::Row(r) => {
                if let Some(Ok(a)) = r.get(i..i + N).map(<[i8; N]>::try_from) {
                    return a;
                }
                let mut a = [0i8; N];
                let r = r.get(i..).unwrap_or(&[]);
                let n = r.len().min(N);
                a[..n].copy_from_slice(&r[..n]);
                a
            }
            Src::Splat(v) => [v; N],
        }
    }
}

/// The operand for inner stride `s` (0 or 1) at offset `o`.
#[inline(always)]
fn src(data: &[i8], o: usize, s: usize, n: usize) -> Src<'_> {
    if s == 0 {
        Src::Splat(data[o])
    } else {
        Src::Row(&data[o..o + n])
    }
}

/// `b`'s output rows in order, as `(first output element, operand 1's first element,
/// operand 2's first element, length)`. Operands of the output's shape make one row of the
/// whole output.
struct Rows<'r, 'a> {
    b: &'r Broadcast<'a>,
    idx: [usize; crate::kernels::nd::MAX_RANK],
    o1: usize,
    o2: usize,
    start: usize,
    total: usize,
    inner: usize,
}

impl<'r, 'a> Rows<'r, 'a> {
    #[inline(always)]
    fn new(b: &'r Broadcast<'a>) -> Self {
        let rank = b.out_shape.len();
        let total = if rank == 0 { 0 } else { b.out_len() };
        let inner = if total == 0 {
            0
        } else if is_dense(b.out_shape, b.in1_strides) && is_dense(b.out_shape, b.in2_strides) {
            total
        } else {
            b.out_shape[rank - 1]
        };
        Rows { b, idx: [0; crate::kernels::nd::MAX_RANK], o1: 0, o2: 0, start: 0, total, inner }
    }
}

impl Iterator for Rows<'_, '_> {
    type Item = (usize, usize, usize, usize);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.start >= self.total || self.inner == 0 {
            return None;
        }
        let item = (self.start, self.o1, self.o2, self.inner);
        self.start += self.inner;
        // Advance the odometer over the outer dimensions.
        let b = self.b;
        let mut d = b.out_shape.len() - 1;
        while d > 0 {
            d -= 1;
            self.idx[d] += 1;
            self.o1 += b.in1_strides[d];
            self.o2 += b.in2_strides[d];
            if self.idx[d] < b.out_shape[d] {
                break;
            }
            self.o1 -= b.in1_strides[d] * b.out_shape[d];
            self.o2 -= b.in2_strides[d] * b.out_shape[d];
            self.idx[d] = 0;
        }
        Some(item)
    }
}

/// The inner strides, when both are 0 or 1 (rows the kernels take).
#[inline(always)]
fn inner_strides(b: &Broadcast) -> Option<(usize, usize)> {
    let rank = b.out_shape.len();
    if rank == 0 || b.in1_strides.len() != rank || b.in2_strides.len() != rank {
        return None;
    }
    let (s1, s2) = (b.in1_strides[rank - 1], b.in2_strides[rank - 1]);
    (s1 <= 1 && s2 <= 1).then_some((s1, s2))
}

/// Every row of `b`'s output as `(operand 1, operand 2, output range)`. `None` when an
/// inner stride is neither 0 nor 1 (no plan makes that; the caller runs the scalar form).
/// An iterator rather than a callback, so that the row loop is inlined into the
/// `#[target_feature]` kernel that consumes it.
#[inline(always)]
pub(crate) fn binary<'x>(b: &'x Broadcast, x: &'x [i8], y: &'x [i8]) -> Option<impl Iterator<Item = (Src<'x>, Src<'x>, Range<usize>)> + 'x> {
    let (s1, s2) = inner_strides(b)?;
    Some(Rows::new(b).map(move |(start, o1, o2, n)| (src(x, o1, s1, n), src(y, o2, s2, n), start..start + n)))
}

/// [`binary`] with the output over operand 1: `(operand 2, range of operand 1 and the
/// output)`. `None` also when operand 1 does not have the output's shape.
#[inline(always)]
pub(crate) fn binary_in_place<'x>(b: &'x Broadcast, y: &'x [i8]) -> Option<impl Iterator<Item = (Src<'x>, Range<usize>)> + 'x> {
    let (_, s2) = inner_strides(b)?;
    if !is_dense(b.out_shape, b.in1_strides) {
        return None;
    }
    Some(Rows::new(b).map(move |(start, _, o2, n)| (src(y, o2, s2, n), start..start + n)))
}

/// One ADD / SUB operand's rescaling, refolded (module doc): `t = x + offset`,
/// `h = t high + ((t low + round) >> k)`, `f = RDBPOT(h, e)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Operand {
    pub(crate) offset: i32,
    pub(crate) high: i32,
    pub(crate) low: i32,
    pub(crate) round: i32,
    pub(crate) k: i32,
    pub(crate) e: i32,
    /// `2^(e-1)`, 0 for `e = 0`.
    pub(crate) half: i32,
    /// -1 (all ones) for `e >= 1`, 0 for `e = 0`: masks the `h >> 31` term.
    pub(crate) neg: i32,
}

impl Operand {
    fn new(offset: i32, left_shift: i32, multiplier: i32, shift: i32) -> Option<Operand> {
        if !(-128..=128).contains(&offset) || !(9..=20).contains(&left_shift) || !(-31..=0).contains(&shift) {
            return None;
        }
        let k = 31 - left_shift;
        let e = -shift;
        Some(Operand {
            offset,
            high: multiplier >> k,
            low: multiplier & ((1 << k) - 1),
            round: 1 << (k - 1),
            k,
            e,
            half: if e == 0 { 0 } else { 1 << (e - 1) },
            neg: if e == 0 { 0 } else { -1 },
        })
    }
}

/// [`AddParams`] refolded for the vector ADD and SUB kernels; `None` outside the bounds
/// the refolding is exact for (module doc). Every `prepare_add` / `prepare_sub` result
/// for int8 is within them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AddSub {
    pub(crate) a: Operand,
    pub(crate) b: Operand,
    pub(crate) out_multiplier: i32,
    pub(crate) out_shift: i32,
    pub(crate) out_offset: i32,
    pub(crate) min: i32,
    pub(crate) max: i32,
}

impl AddSub {
    pub(crate) fn new(p: &AddParams) -> Option<AddSub> {
        if !(-128 <= p.activation_min && p.activation_min <= p.activation_max && p.activation_max <= 127) {
            return None;
        }
        if !(-31..=0).contains(&p.output_shift) {
            return None;
        }
        Some(AddSub {
            a: Operand::new(p.input1_offset, p.left_shift, p.input1_multiplier, p.input1_shift)?,
            b: Operand::new(p.input2_offset, p.left_shift, p.input2_multiplier, p.input2_shift)?,
            out_multiplier: p.output_multiplier,
            out_shift: p.output_shift,
            out_offset: p.output_offset,
            min: p.activation_min,
            max: p.activation_max,
        })
    }
}

/// [`MulParams`] checked for the vector MUL kernels: `None` for an `i32::MIN` multiplier,
/// a shift outside `-31..=30`, offsets beyond ±128 or a clamp outside int8.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mul {
    pub(crate) a_offset: i32,
    pub(crate) b_offset: i32,
    pub(crate) multiplier: i32,
    pub(crate) shift: i32,
    pub(crate) out_offset: i32,
    pub(crate) min: i32,
    pub(crate) max: i32,
}

impl Mul {
    pub(crate) fn new(p: &MulParams) -> Option<Mul> {
        let ok = (-128 <= p.activation_min && p.activation_min <= p.activation_max && p.activation_max <= 127)
            && p.output_multiplier != i32::MIN
            && (-31..=30).contains(&p.output_shift)
            && (-128..=128).contains(&p.input1_offset)
            && (-128..=128).contains(&p.input2_offset);
        ok.then_some(Mul {
            a_offset: p.input1_offset,
            b_offset: p.input2_offset,
            multiplier: p.output_multiplier,
            shift: p.output_shift,
            out_offset: p.output_offset,
            min: p.activation_min,
            max: p.activation_max,
        })
    }
}

/// Runs `m` over a row, `N` elements at a time; a tail is padded with zeros and its padding
/// results dropped. (The micro-kernel itself, not a closure: a closure made here would not
/// inherit the entry's target features, and its intrinsics would not be inlined.)
#[inline(always)]
fn row<const N: usize>(x: Src, y: Src, out: &mut [i8], m: &impl PairMicro<N>) {
    let n = out.len();
    let mut i = 0;
    while i + N <= n {
        let r = m.apply(&x.chunk(i), &y.chunk(i));
        out[i..i + N].copy_from_slice(&r);
        i += N;
    }
    if i < n {
        let r = m.apply(&x.chunk(i), &y.chunk(i));
        out[i..].copy_from_slice(&r[..n - i]);
    }
}

/// [`row`] with the output over operand 1: each chunk is read before it is written.
#[inline(always)]
fn row_in_place<const N: usize>(inout: &mut [i8], y: Src, m: &impl PairMicro<N>) {
    let n = inout.len();
    let mut i = 0;
    while i + N <= n {
        let chunk: &mut [i8; N] = (&mut inout[i..i + N]).try_into().unwrap_or_else(|_| unreachable!());
        *chunk = m.apply(chunk, &y.chunk(i));
        i += N;
    }
    if i < n {
        let r = m.apply(&Src::Row(&inout[i..]).chunk(0), &y.chunk(i));
        inout[i..].copy_from_slice(&r[..n - i]);
    }
}

/// A host SIMD micro-kernel of [`drive`]: one operator's arithmetic on `N` int8 pairs, its
/// parameters in registers.
pub(crate) trait PairMicro<const N: usize> {
    /// The `N` results of the pairs `(x[j], y[j])`.
    fn apply(&self, x: &[i8; N], y: &[i8; N]) -> [i8; N];
}

/// Every row of `b`'s output through `m`, `N` elements at a time. `false` when an inner
/// stride is neither 0 nor 1 (the caller runs the scalar form).
#[inline(always)]
pub(crate) fn drive<const N: usize>(m: &impl PairMicro<N>, b: &Broadcast, x: &[i8], y: &[i8], out: &mut [i8]) -> bool {
    let Some(rows) = binary(b, x, y) else { return false };
    let out = &mut out[..b.out_len()];
    for (x, y, r) in rows {
        row::<N>(x, y, &mut out[r], m);
    }
    true
}

/// [`drive`] with the output over operand 1; `false` also when operand 1 does not have the
/// output's shape.
#[inline(always)]
pub(crate) fn drive_in_place<const N: usize>(m: &impl PairMicro<N>, b: &Broadcast, inout: &mut [i8], y: &[i8]) -> bool {
    let Some(rows) = binary_in_place(b, y) else { return false };
    let inout = &mut inout[..b.out_len()];
    for (y, r) in rows {
        row_in_place::<N>(&mut inout[r], y, m);
    }
    true
}

/// Writes an instruction set's six int8 entries (`add_s8`, `sub_s8`, `mul_s8` and their
/// `_in_place` forms, each taking the set's token): the parameters refolded
/// ([`AddSub::new`], [`Mul::new`]), then [`drive`] / [`drive_in_place`] in a
/// `#[target_feature(enable = $features)]` function over the micro-kernels `$add_sub`
/// (`$add_sub::<SUB>::new(token, &AddSub)`, `SUB = false` for ADD) and `$mul`
/// (`$mul::new(token, &Mul)`), `$n` lanes; the scalar reference where the refolding or the
/// broadcast is outside the lanes' bounds.
macro_rules! binary_entries {
    ($token:ident, $features:literal, $n:literal, $add_sub:ident, $mul:ident) => {
        #[target_feature(enable = $features)]
        fn add_sub_rows<const SUB: bool>(t: $token, f: &$crate::kernels::elementwise::lanes::AddSub, b: &$crate::kernels::nd::Broadcast, x: &[i8], y: &[i8], out: &mut [i8]) -> bool {
            $crate::kernels::elementwise::lanes::drive::<$n>(&$add_sub::<SUB>::new(t, f), b, x, y, out)
        }

        #[target_feature(enable = $features)]
        fn add_sub_rows_in_place<const SUB: bool>(t: $token, f: &$crate::kernels::elementwise::lanes::AddSub, b: &$crate::kernels::nd::Broadcast, inout: &mut [i8], y: &[i8]) -> bool {
            $crate::kernels::elementwise::lanes::drive_in_place::<$n>(&$add_sub::<SUB>::new(t, f), b, inout, y)
        }

        #[target_feature(enable = $features)]
        fn mul_rows(t: $token, f: &$crate::kernels::elementwise::lanes::Mul, b: &$crate::kernels::nd::Broadcast, x: &[i8], y: &[i8], out: &mut [i8]) -> bool {
            $crate::kernels::elementwise::lanes::drive::<$n>(&$mul::new(t, f), b, x, y, out)
        }

        #[target_feature(enable = $features)]
        fn mul_rows_in_place(t: $token, f: &$crate::kernels::elementwise::lanes::Mul, b: &$crate::kernels::nd::Broadcast, inout: &mut [i8], y: &[i8]) -> bool {
            $crate::kernels::elementwise::lanes::drive_in_place::<$n>(&$mul::new(t, f), b, inout, y)
        }

        #[doc = concat!("`kernels::add::add_s8` under ", $features, ".")]
        pub(crate) fn add_s8(t: $token, p: &$crate::kernels::add::AddParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
            if let Some(f) = $crate::kernels::elementwise::lanes::AddSub::new(p) {
                // SAFETY: the token proves that the CPU executes these features.
                if unsafe { add_sub_rows::<false>(t, &f, &p.broadcast, input1, input2, output) } {
                    return;
                }
            }
            $crate::kernels::add::scalar::add_s8(p, input1, input2, output)
        }

        #[doc = concat!("`kernels::add::add_s8_in_place` under ", $features, ".")]
        pub(crate) fn add_s8_in_place(t: $token, p: &$crate::kernels::add::AddParams, input1_output: &mut [i8], input2: &[i8]) {
            if let Some(f) = $crate::kernels::elementwise::lanes::AddSub::new(p) {
                // SAFETY: the token proves that the CPU executes these features.
                if unsafe { add_sub_rows_in_place::<false>(t, &f, &p.broadcast, input1_output, input2) } {
                    return;
                }
            }
            $crate::kernels::add::scalar::add_s8_in_place(p, input1_output, input2)
        }

        #[doc = concat!("`kernels::sub::sub_s8` under ", $features, ".")]
        pub(crate) fn sub_s8(t: $token, p: &$crate::kernels::add::AddParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
            if let Some(f) = $crate::kernels::elementwise::lanes::AddSub::new(p) {
                // SAFETY: the token proves that the CPU executes these features.
                if unsafe { add_sub_rows::<true>(t, &f, &p.broadcast, input1, input2, output) } {
                    return;
                }
            }
            $crate::kernels::sub::scalar::sub_s8(p, input1, input2, output)
        }

        #[doc = concat!("`kernels::sub::sub_s8_in_place` under ", $features, ".")]
        pub(crate) fn sub_s8_in_place(t: $token, p: &$crate::kernels::add::AddParams, input1_output: &mut [i8], input2: &[i8]) {
            if let Some(f) = $crate::kernels::elementwise::lanes::AddSub::new(p) {
                // SAFETY: the token proves that the CPU executes these features.
                if unsafe { add_sub_rows_in_place::<true>(t, &f, &p.broadcast, input1_output, input2) } {
                    return;
                }
            }
            $crate::kernels::sub::scalar::sub_s8_in_place(p, input1_output, input2)
        }

        #[doc = concat!("`kernels::mul::mul_s8` under ", $features, ".")]
        pub(crate) fn mul_s8(t: $token, p: &$crate::kernels::mul::MulParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
            if let Some(f) = $crate::kernels::elementwise::lanes::Mul::new(p) {
                // SAFETY: the token proves that the CPU executes these features.
                if unsafe { mul_rows(t, &f, &p.broadcast, input1, input2, output) } {
                    return;
                }
            }
            $crate::kernels::mul::scalar::mul_s8(p, input1, input2, output)
        }

        #[doc = concat!("`kernels::mul::mul_s8_in_place` under ", $features, ".")]
        pub(crate) fn mul_s8_in_place(t: $token, p: &$crate::kernels::mul::MulParams, input1_output: &mut [i8], input2: &[i8]) {
            if let Some(f) = $crate::kernels::elementwise::lanes::Mul::new(p) {
                // SAFETY: the token proves that the CPU executes these features.
                if unsafe { mul_rows_in_place(t, &f, &p.broadcast, input1_output, input2) } {
                    return;
                }
            }
            $crate::kernels::mul::scalar::mul_s8_in_place(p, input1_output, input2)
        }
    };
}
pub(crate) use binary_entries;
