//! AVX2 int8 elementwise binary kernels: ADD and SUB (TFLite's left-shift scheme), MUL. The
//! parameter folding ([`AddSub`], [`Mul`]) and the walk over the broadcast's rows
//! ([`binary`], [`binary_in_place`]) are shared with the AVX-512 forms
//! (`super::vnni::elementwise`); both are bit-exact with the scalar references
//! (`kernels::add::scalar`, `kernels::sub::scalar`, `kernels::mul::scalar`), which they call
//! for parameters outside the bounds stated below.
//!
//! **ADD / SUB.** Per element TFLite computes, for each operand, with `t = x + offset`,
//! `f = RDBPOT(SRDHM(t << L, m), e)` (`L = left_shift`, `e = -shift`), then
//! `RDBPOT(SRDHM(f1 ± f2, mo), eo) + zero_point`, clamped. The operand term is exact in
//! int32 lanes without 64-bit products:
//! - `SRDHM(t << L, m) = floor((t m 2^L + 2^30) / 2^31) = floor((t m + 2^(k-1)) / 2^k)` with
//!   `k = 31 - L` (divide numerator and denominator by `2^L`);
//! - with `m = mh 2^k + ml` (`mh = m >> k` arithmetic, `ml = m & (2^k - 1)`), that is
//!   `t mh + ((t ml + 2^(k-1)) >> k)`: two `vpmulld` and a shift. For `|t| <= 256`
//!   (`|offset| <= 128`) and `L` in `9..=20` (`k <= 22`), `|t ml| + 2^(k-1) < 2^31` and
//!   `|t mh| <= 2^28`, so nothing wraps (and `t << L` is never `i32::MIN`: no saturation);
//! - `RDBPOT(h, e)` (ties away from zero) is `(h + (h >> 31) + 2^(e-1)) >> e` for `e >= 1`
//!   and `h` for `e = 0`; `|h| <= 2^28 + 2^9`, so the sum stays in int32.
//!
//! `|f1 ± f2| < 2^30` never wraps, and is never `i32::MIN`, so the output stage is
//! [`super::requant::requant_lanes`] (`MultiplyByQuantizedMultiplier`, exact for any
//! multiplier when its input is not `i32::MIN`), with the output shift `<= 0`.
//!
//! **MUL.** `MultiplyByQuantizedMultiplier((x + o1) (y + o2), m, s)` + offset, clamped:
//! the product is one `vpmulld` (`|product| <= 2^16`), the rest is `requant_lanes`, exact
//! unless `m = i32::MIN` (refused).
//!
//! **Broadcasting.** The kernels run on rows: the output's innermost dimension, along which
//! each operand is either a contiguous row or one repeated element (its stride there is 1
//! or 0, which `nd::plan_broadcast` always produces). Operands of the output's shape are
//! one row.

use super::requant::requant;
use super::Avx2;
use crate::kernels::add::AddParams;
use crate::kernels::mul::MulParams;
use crate::kernels::nd::{is_dense, Broadcast};
use core::arch::x86_64::*;
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

// ---------------------------------------------------------------------------------------
// AVX2: eight lanes.

/// An [`Operand`] in registers.
#[derive(Clone, Copy)]
struct OperandV {
    offset: __m256i,
    high: __m256i,
    low: __m256i,
    round: __m256i,
    k: __m128i,
    e: __m128i,
    half: __m256i,
    neg: __m256i,
}

impl OperandV {
    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn new(o: &Operand) -> OperandV {
        // SAFETY: register-only AVX2 intrinsics, executable by the caller's guarantee.
        unsafe {
            OperandV {
                offset: _mm256_set1_epi32(o.offset),
                high: _mm256_set1_epi32(o.high),
                low: _mm256_set1_epi32(o.low),
                round: _mm256_set1_epi32(o.round),
                k: _mm_cvtsi32_si128(o.k),
                e: _mm_cvtsi32_si128(o.e),
                half: _mm256_set1_epi32(o.half),
                neg: _mm256_set1_epi32(o.neg),
            }
        }
    }

    /// `MultiplyByQuantizedMultiplierSmallerThanOneExp((x + offset) << L, m, shift)` of
    /// eight int8 widened to int32 lanes.
    ///
    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn scale(&self, x: __m256i) -> __m256i {
        // SAFETY: register-only AVX2 intrinsics, executable by the caller's guarantee.
        unsafe {
            let t = _mm256_add_epi32(x, self.offset);
            let lo = _mm256_sra_epi32(_mm256_add_epi32(_mm256_mullo_epi32(t, self.low), self.round), self.k);
            let h = _mm256_add_epi32(_mm256_mullo_epi32(t, self.high), lo);
            let sign = _mm256_and_si256(_mm256_srai_epi32::<31>(h), self.neg);
            _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(h, sign), self.half), self.e)
        }
    }
}

/// Eight int8 as int32 lanes.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn widen8(x: &[i8; 8]) -> __m256i {
    // SAFETY: AVX2; the load reads the 8 bytes of `x`.
    unsafe { _mm256_cvtepi8_epi32(_mm_loadl_epi64(x.as_ptr().cast())) }
}

/// Runs `f` (`N` int8 pairs to `N` int8 results) over a row, `N` elements at a time; a
/// tail is padded with zeros and its padding results dropped.
#[inline(always)]
pub(crate) fn row<const N: usize>(x: Src, y: Src, out: &mut [i8], f: impl Fn(&[i8; N], &[i8; N]) -> [i8; N]) {
    let n = out.len();
    let mut i = 0;
    while i + N <= n {
        let r = f(&x.chunk(i), &y.chunk(i));
        out[i..i + N].copy_from_slice(&r);
        i += N;
    }
    if i < n {
        let r = f(&x.chunk(i), &y.chunk(i));
        out[i..].copy_from_slice(&r[..n - i]);
    }
}

/// [`row`] with the output over operand 1: each chunk is read before it is written.
#[inline(always)]
pub(crate) fn row_in_place<const N: usize>(inout: &mut [i8], y: Src, f: impl Fn(&[i8; N], &[i8; N]) -> [i8; N]) {
    let n = inout.len();
    let mut i = 0;
    while i + N <= n {
        let chunk: &mut [i8; N] = (&mut inout[i..i + N]).try_into().unwrap_or_else(|_| unreachable!());
        *chunk = f(chunk, &y.chunk(i));
        i += N;
    }
    if i < n {
        let r = f(&Src::Row(&inout[i..]).chunk(0), &y.chunk(i));
        inout[i..].copy_from_slice(&r[..n - i]);
    }
}

/// ADD (`SUB = false`) or SUB of eight pairs.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn add_sub8<const SUB: bool>(f: &AddSub, a: &OperandV, b: &OperandV, x: &[i8; 8], y: &[i8; 8]) -> [i8; 8] {
    // SAFETY: register-only AVX2 intrinsics (and `widen8`'s loads of two arrays),
    // executable by the caller's guarantee.
    unsafe {
        let fa = a.scale(widen8(x));
        let fb = b.scale(widen8(y));
        let raw = if SUB { _mm256_sub_epi32(fa, fb) } else { _mm256_add_epi32(fa, fb) };
        let m = _mm256_set1_epi32(f.out_multiplier);
        let s = _mm256_set1_epi32(f.out_shift);
        requant(raw, m, s, f.out_offset, f.min, f.max, false).to_le_bytes().map(|v| v as i8)
    }
}

#[target_feature(enable = "avx2")]
fn add_sub_rows<const SUB: bool>(f: &AddSub, b: &Broadcast, x: &[i8], y: &[i8], out: &mut [i8]) -> bool {
    let Some(rows) = binary(b, x, y) else { return false };
    let out = &mut out[..b.out_len()];
    // SAFETY: AVX2 (this function's target feature).
    let (va, vb) = unsafe { (OperandV::new(&f.a), OperandV::new(&f.b)) };
    for (x, y, r) in rows {
        row::<8>(x, y, &mut out[r], |x, y| {
            // SAFETY: as above.
            unsafe { add_sub8::<SUB>(f, &va, &vb, x, y) }
        });
    }
    true
}

#[target_feature(enable = "avx2")]
fn add_sub_rows_in_place<const SUB: bool>(f: &AddSub, b: &Broadcast, inout: &mut [i8], y: &[i8]) -> bool {
    let Some(rows) = binary_in_place(b, y) else { return false };
    let inout = &mut inout[..b.out_len()];
    // SAFETY: AVX2 (this function's target feature).
    let (va, vb) = unsafe { (OperandV::new(&f.a), OperandV::new(&f.b)) };
    for (y, r) in rows {
        row_in_place::<8>(&mut inout[r], y, |x, y| {
            // SAFETY: as above.
            unsafe { add_sub8::<SUB>(f, &va, &vb, x, y) }
        });
    }
    true
}

/// MUL of eight pairs.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn mul8(f: &Mul, x: &[i8; 8], y: &[i8; 8]) -> [i8; 8] {
    // SAFETY: register-only AVX2 intrinsics (and `widen8`'s loads of two arrays),
    // executable by the caller's guarantee.
    unsafe {
        let ta = _mm256_add_epi32(widen8(x), _mm256_set1_epi32(f.a_offset));
        let tb = _mm256_add_epi32(widen8(y), _mm256_set1_epi32(f.b_offset));
        let p = _mm256_mullo_epi32(ta, tb);
        let (m, s) = (_mm256_set1_epi32(f.multiplier), _mm256_set1_epi32(f.shift));
        requant(p, m, s, f.out_offset, f.min, f.max, false).to_le_bytes().map(|v| v as i8)
    }
}

#[target_feature(enable = "avx2")]
fn mul_rows(f: &Mul, b: &Broadcast, x: &[i8], y: &[i8], out: &mut [i8]) -> bool {
    let Some(rows) = binary(b, x, y) else { return false };
    let out = &mut out[..b.out_len()];
    for (x, y, r) in rows {
        row::<8>(x, y, &mut out[r], |x, y| {
            // SAFETY: AVX2 (this function's target feature).
            unsafe { mul8(f, x, y) }
        });
    }
    true
}

#[target_feature(enable = "avx2")]
fn mul_rows_in_place(f: &Mul, b: &Broadcast, inout: &mut [i8], y: &[i8]) -> bool {
    let Some(rows) = binary_in_place(b, y) else { return false };
    let inout = &mut inout[..b.out_len()];
    for (y, r) in rows {
        row_in_place::<8>(&mut inout[r], y, |x, y| {
            // SAFETY: AVX2 (this function's target feature).
            unsafe { mul8(f, x, y) }
        });
    }
    true
}

/// `kernels::add::add_s8` on AVX2.
pub(crate) fn add_s8(_: Avx2, p: &AddParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    if let Some(f) = AddSub::new(p) {
        // SAFETY: the token proves that the CPU executes AVX2.
        if unsafe { add_sub_rows::<false>(&f, &p.broadcast, input1, input2, output) } {
            return;
        }
    }
    crate::kernels::add::scalar::add_s8(p, input1, input2, output)
}

/// `kernels::add::add_s8_in_place` on AVX2.
pub(crate) fn add_s8_in_place(_: Avx2, p: &AddParams, input1_output: &mut [i8], input2: &[i8]) {
    if let Some(f) = AddSub::new(p) {
        // SAFETY: the token proves that the CPU executes AVX2.
        if unsafe { add_sub_rows_in_place::<false>(&f, &p.broadcast, input1_output, input2) } {
            return;
        }
    }
    crate::kernels::add::scalar::add_s8_in_place(p, input1_output, input2)
}

/// `kernels::sub::sub_s8` on AVX2.
pub(crate) fn sub_s8(_: Avx2, p: &AddParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    if let Some(f) = AddSub::new(p) {
        // SAFETY: the token proves that the CPU executes AVX2.
        if unsafe { add_sub_rows::<true>(&f, &p.broadcast, input1, input2, output) } {
            return;
        }
    }
    crate::kernels::sub::scalar::sub_s8(p, input1, input2, output)
}

/// `kernels::sub::sub_s8_in_place` on AVX2.
pub(crate) fn sub_s8_in_place(_: Avx2, p: &AddParams, input1_output: &mut [i8], input2: &[i8]) {
    if let Some(f) = AddSub::new(p) {
        // SAFETY: the token proves that the CPU executes AVX2.
        if unsafe { add_sub_rows_in_place::<true>(&f, &p.broadcast, input1_output, input2) } {
            return;
        }
    }
    crate::kernels::sub::scalar::sub_s8_in_place(p, input1_output, input2)
}

/// `kernels::mul::mul_s8` on AVX2.
pub(crate) fn mul_s8(_: Avx2, p: &MulParams, input1: &[i8], input2: &[i8], output: &mut [i8]) {
    if let Some(f) = Mul::new(p) {
        // SAFETY: the token proves that the CPU executes AVX2.
        if unsafe { mul_rows(&f, &p.broadcast, input1, input2, output) } {
            return;
        }
    }
    crate::kernels::mul::scalar::mul_s8(p, input1, input2, output)
}

/// `kernels::mul::mul_s8_in_place` on AVX2.
pub(crate) fn mul_s8_in_place(_: Avx2, p: &MulParams, input1_output: &mut [i8], input2: &[i8]) {
    if let Some(f) = Mul::new(p) {
        // SAFETY: the token proves that the CPU executes AVX2.
        if unsafe { mul_rows_in_place(&f, &p.broadcast, input1_output, input2) } {
            return;
        }
    }
    crate::kernels::mul::scalar::mul_s8_in_place(p, input1_output, input2)
}

#[cfg(test)]
pub(crate) mod tests {
    //! The AVX2 and AVX-512 entry points as `kernel_tests!` lines call them (the token made
    //! here, after the suite's detection test), and an exhaustive comparison with the
    //! scalar references: every pair of int8 operands for edge parameters.
    use super::{AddSub, Mul};
    use crate::arch::x86_64::vnni;
    use crate::kernels::add::AddParams;
    use crate::kernels::mul::MulParams;
    use crate::kernels::nd::plan_broadcast;
    use crate::quant::QuantParams;
    use std::vec::Vec;

    fn avx2() -> super::Avx2 {
        super::Avx2::detect().expect("the suite checked detection first")
    }

    fn avx512() -> vnni::Avx512Vnni {
        vnni::tests::token()
    }

    pub(crate) fn add_avx2(p: &AddParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        super::add_s8(avx2(), p, x, y, o)
    }
    pub(crate) fn add_in_place_avx2(p: &AddParams, x: &mut [i8], y: &[i8]) {
        super::add_s8_in_place(avx2(), p, x, y)
    }
    pub(crate) fn sub_avx2(p: &AddParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        super::sub_s8(avx2(), p, x, y, o)
    }
    pub(crate) fn sub_in_place_avx2(p: &AddParams, x: &mut [i8], y: &[i8]) {
        super::sub_s8_in_place(avx2(), p, x, y)
    }
    pub(crate) fn mul_avx2(p: &MulParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        super::mul_s8(avx2(), p, x, y, o)
    }
    pub(crate) fn mul_in_place_avx2(p: &MulParams, x: &mut [i8], y: &[i8]) {
        super::mul_s8_in_place(avx2(), p, x, y)
    }
    pub(crate) fn add_avx512(p: &AddParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        vnni::add_s8(avx512(), p, x, y, o)
    }
    pub(crate) fn add_in_place_avx512(p: &AddParams, x: &mut [i8], y: &[i8]) {
        vnni::add_s8_in_place(avx512(), p, x, y)
    }
    pub(crate) fn sub_avx512(p: &AddParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        vnni::sub_s8(avx512(), p, x, y, o)
    }
    pub(crate) fn sub_in_place_avx512(p: &AddParams, x: &mut [i8], y: &[i8]) {
        vnni::sub_s8_in_place(avx512(), p, x, y)
    }
    pub(crate) fn mul_avx512(p: &MulParams, x: &[i8], y: &[i8], o: &mut [i8]) {
        vnni::mul_s8(avx512(), p, x, y, o)
    }
    pub(crate) fn mul_in_place_avx512(p: &MulParams, x: &mut [i8], y: &[i8]) {
        vnni::mul_s8_in_place(avx512(), p, x, y)
    }

    type Out<P> = fn(&P, &[i8], &[i8], &mut [i8]);
    type InPlace<P> = fn(&P, &mut [i8], &[i8]);
    /// One implementation's entry points.
    type Entries<P> = (Out<P>, InPlace<P>);

    /// The implementations this machine executes, with their names.
    fn impls<P>(avx2: Entries<P>, avx512: Entries<P>) -> Vec<(&'static str, Entries<P>)> {
        let mut v = Vec::new();
        if crate::kernels::test_util::available("avx2", crate::arch::x86_64::tests::detected()) {
            v.push(("avx2", avx2));
        }
        if crate::kernels::test_util::available("avx512vnni", vnni::tests::detected()) {
            v.push(("avx512vnni", avx512));
        }
        v
    }

    /// All 65,536 operand pairs (plus 3 tail elements), out of place and in place, against
    /// `reference`.
    fn all_pairs<P: core::fmt::Debug>(p: &P, reference: Out<P>, imps: &[(&str, Entries<P>)]) {
        let n = 256 * 256 + 3;
        let x: Vec<i8> = (0..n).map(|i| (i & 0xff) as u8 as i8).collect();
        let y: Vec<i8> = (0..n).map(|i| (i >> 8) as u8 as i8).collect();
        let mut want = std::vec![0i8; n];
        reference(p, &x, &y, &mut want);
        for (name, (out, in_place)) in imps {
            let mut got = std::vec![0i8; n];
            out(p, &x, &y, &mut got);
            assert!(got == want, "{name} differs from the reference for {p:?}");
            let mut inout = x.clone();
            in_place(p, &mut inout, &y);
            assert!(inout == want, "{name} in place differs from the reference for {p:?}");
        }
    }

    fn q(scale: f32, zero_point: i32) -> QuantParams {
        QuantParams { scale, zero_point }
    }

    #[test]
    fn add_sub_every_pair() {
        let n = 256 * 256 + 3;
        let plan = plan_broadcast(&[n], &[n]).unwrap();
        let add = impls::<AddParams>((add_avx2, add_in_place_avx2), (add_avx512, add_in_place_avx512));
        let sub = impls::<AddParams>((sub_avx2, sub_in_place_avx2), (sub_avx512, sub_in_place_avx512));
        use crate::prepare::FusedActivation as A;
        for scales in [[0.05, 0.05, 0.1], [0.1, 1e-4, 0.1], [0.1, 0.1, 1e-3], [1e-3, 1e-3, 0.5], [1.0, 1.0, 1.0], [0.5, 0.25, 0.125]] {
            for zps in [[0, 0, 0], [-128, 127, -128], [127, -128, 127], [3, -5, 7]] {
                for act in [A::None, A::Relu6] {
                    let (a, b, o) = (q(scales[0], zps[0]), q(scales[1], zps[1]), q(scales[2], zps[2]));
                    let p = crate::kernels::add::prepare_add(a, b, o, act, plan.as_broadcast()).unwrap();
                    assert!(AddSub::new(&p).is_some(), "not folded: {p:?}");
                    all_pairs(&p, crate::kernels::add::scalar::add_s8, &add);
                    let p = crate::kernels::sub::prepare_sub(a, b, o, act, plan.as_broadcast()).unwrap();
                    assert!(AddSub::new(&p).is_some(), "not folded: {p:?}");
                    all_pairs(&p, crate::kernels::sub::scalar::sub_s8, &sub);
                }
            }
        }
        let base = crate::kernels::add::prepare_add(q(0.1, 3), q(0.2, -7), q(0.3, 1), A::None, plan.as_broadcast()).unwrap();
        // An output stage close to the identity (multiplier 1 - 2^-31, no shift, offset 0),
        // so that the operand terms reach the output unrounded: `m = 2^30` with right
        // shifts 19 and 20 makes exact ties (`t 2^19 / 2^20`), which must round away from
        // zero as `RoundingDivideByPOT` does.
        for (s1, s2) in [(-20, -19), (-19, -20), (-20, -20), (-1, -20)] {
            let p = AddParams {
                input1_multiplier: 1 << 30,
                input2_multiplier: 1 << 30,
                output_multiplier: i32::MAX,
                input1_shift: s1,
                input2_shift: s2,
                output_shift: 0,
                output_offset: 0,
                ..base
            };
            all_pairs(&p, crate::kernels::add::scalar::add_s8, &add);
            all_pairs(&p, crate::kernels::sub::scalar::sub_s8, &sub);
        }
        // Parameters no prepare function makes, inside the folding's bounds: other left
        // shifts, negative and extreme multipliers, zero and extreme shifts.
        for left_shift in [9, 15, 20] {
            for (m1, m2, mo) in [(i32::MAX, 1 << 30, i32::MAX), (i32::MIN, -1, i32::MIN), (12345, -987654321, 1 << 30), (0, i32::MAX, 0x5555_5555)] {
                for (s1, s2, so) in [(0, 0, 0), (-31, -1, -31), (-3, -30, -12)] {
                    let p = AddParams {
                        left_shift,
                        input1_multiplier: m1,
                        input2_multiplier: m2,
                        output_multiplier: mo,
                        input1_shift: s1,
                        input2_shift: s2,
                        output_shift: so,
                        input1_offset: 128,
                        input2_offset: -128,
                        output_offset: -1000,
                        ..base
                    };
                    assert!(AddSub::new(&p).is_some(), "not folded: {p:?}");
                    all_pairs(&p, crate::kernels::add::scalar::add_s8, &add);
                    all_pairs(&p, crate::kernels::sub::scalar::sub_s8, &sub);
                }
            }
        }
    }

    #[test]
    fn mul_every_pair() {
        let n = 256 * 256 + 3;
        let plan = plan_broadcast(&[n], &[n]).unwrap();
        let mul = impls::<MulParams>((mul_avx2, mul_in_place_avx2), (mul_avx512, mul_in_place_avx512));
        use crate::prepare::FusedActivation as A;
        for scales in [[0.05, 0.05, 0.1], [0.1, 1e-4, 0.1], [0.1, 0.1, 1e-5], [1e-3, 1e-3, 0.5], [1.0, 1.0, 1e-3], [0.5, 0.25, 0.125]] {
            for zps in [[0, 0, 0], [-128, 127, -128], [127, -128, 127], [3, -5, 7]] {
                for act in [A::None, A::Relu6] {
                    let (a, b, o) = (q(scales[0], zps[0]), q(scales[1], zps[1]), q(scales[2], zps[2]));
                    let Some(p) = crate::kernels::mul::prepare_mul(a, b, o, act, plan.as_broadcast()) else { continue };
                    assert!(Mul::new(&p).is_some(), "not folded: {p:?}");
                    all_pairs(&p, crate::kernels::mul::scalar::mul_s8, &mul);
                }
            }
        }
        let base = crate::kernels::mul::prepare_mul(q(0.1, 3), q(0.2, -7), q(0.3, 1), A::None, plan.as_broadcast()).unwrap();
        for m in [i32::MAX, 1 << 30, -1, i32::MIN + 1, 0x5555_5555] {
            for s in [-31, -20, -1, 0, 1, 15, 30] {
                let p = MulParams { output_multiplier: m, output_shift: s, input1_offset: 128, input2_offset: -128, output_offset: 77, ..base };
                assert!(Mul::new(&p).is_some(), "not folded: {p:?}");
                all_pairs(&p, crate::kernels::mul::scalar::mul_s8, &mul);
            }
        }
    }

    #[test]
    fn refuses_what_it_cannot_fold() {
        let plan = plan_broadcast(&[3], &[3]).unwrap();
        use crate::prepare::FusedActivation as A;
        let p = crate::kernels::add::prepare_add(q(0.1, 0), q(0.1, 0), q(0.1, 0), A::None, plan.as_broadcast()).unwrap();
        assert!(AddSub::new(&p).is_some());
        assert!(AddSub::new(&AddParams { left_shift: 21, ..p }).is_none());
        assert!(AddSub::new(&AddParams { left_shift: 8, ..p }).is_none());
        assert!(AddSub::new(&AddParams { input1_offset: 129, ..p }).is_none());
        assert!(AddSub::new(&AddParams { input2_shift: 1, ..p }).is_none());
        assert!(AddSub::new(&AddParams { output_shift: 1, ..p }).is_none());
        assert!(AddSub::new(&AddParams { activation_min: 5, activation_max: 4, ..p }).is_none());
        let p = crate::kernels::mul::prepare_mul(q(0.1, 0), q(0.1, 0), q(0.1, 0), A::None, plan.as_broadcast()).unwrap();
        assert!(Mul::new(&p).is_some());
        assert!(Mul::new(&MulParams { output_multiplier: i32::MIN, ..p }).is_none());
        assert!(Mul::new(&MulParams { output_shift: 31, ..p }).is_none());
        assert!(Mul::new(&MulParams { input2_offset: -129, ..p }).is_none());
    }
}
