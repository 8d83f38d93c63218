//! BATCH_MATMUL: int8, int16 and float32, `adj_x` / `adj_y`, batch dimensions broadcast.
//!
//! Bit-exact with TFLite Micro's `batch_matmul.cc`, which transposes operands into
//! persistent buffers so that both are rows of the accumulation depth, flattens batch
//! dimensions where it can, and calls `reference_ops::BatchMatMul` with the operands'
//! roles swapped. What that computes, and what this kernel computes directly from the
//! operands as they are stored, is
//! `out[b, i, j] = sum_k (L[b, i, k] - zp_l) * (R[b, k, j] - zp_r)` in ascending `k`,
//! from 0 (int8: int32 wrapping; int16: int64; float32: one
//! rounding per multiply and per add), then int8/int16 `MultiplyByQuantizedMultiplier` (the
//! int64 form for int16) plus the output zero point, clamped to the type's range (no fused
//! activation). A batch dimension of 1 broadcasts against the other operand's.
//!
//! The int8 and float32 steps are the convolution family's ([`S8`]'s and [`F32`]'s
//! [`Numerics::mac`] and [`Numerics::requantize`], the same dot-product and epilogue as
//! FULLY_CONNECTED's reference); int16 x int16 has no numerics of its own there, so it is
//! [`S16x16`] here.
//!
//! A constant RHS is packed at compile time: the compiler stores it transposed (`adj_y`
//! set), as TFLite Micro's first `Eval` transposes and caches it.

pub mod scalar;
#[cfg(test)]
mod tests;

use crate::kernels::numerics::{Clamp, Numerics, QuantS8, F32, S8};
use crate::quant::multiply_by_quantized_multiplier_i64;

/// Everything BATCH_MATMUL needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchMatmulParams<'a, M: MatmulNumerics> {
    /// The three batch dimensions of each operand, right-aligned and extended with 1s to
    /// rank 5 as TFLite's `ExtendedShape(5, ..)`; a 1 broadcasts.
    pub lhs_batch: [usize; 3],
    /// The three batch dimensions of `R`, laid out as `lhs_batch`.
    pub rhs_batch: [usize; 3],
    /// Output rows (`L`'s rows), accumulation depth, output columns (`R`'s columns).
    pub rows: usize,
    /// Accumulation depth: `L`'s columns, `R`'s rows.
    pub depth: usize,
    /// Output columns (`R`'s columns).
    pub cols: usize,
    /// `L` is stored `[.., depth, rows]` (else `[.., rows, depth]`).
    pub adj_x: bool,
    /// `R` is stored `[.., cols, depth]` (else `[.., depth, cols]`).
    pub adj_y: bool,
    /// The numerics' quantization parameters (`()` for float32).
    pub quant: M::Quant<'a>,
}

impl<M: MatmulNumerics> BatchMatmulParams<'_, M> {
    /// The broadcast batch dimensions of the output.
    pub fn out_batch(&self) -> [usize; 3] {
        core::array::from_fn(|d| if self.lhs_batch[d] == 1 { self.rhs_batch[d] } else { self.lhs_batch[d] })
    }
}

/// A BATCH_MATMUL numerics: both operands of one element type.
pub trait MatmulNumerics: Copy + core::fmt::Debug + PartialEq + 'static {
    /// The element type of both operands and the output.
    type T: Copy + core::fmt::Debug + PartialEq + 'static;
    /// The accumulator type (`i32` for int8, `i64` for int16, `f32` for float32).
    type Acc: Copy;
    /// The requantization parameters (`()` for float32).
    type Quant<'a>: Copy + core::fmt::Debug + PartialEq;
    /// The accumulator's initial value.
    const ZERO: Self::Acc;
    /// `acc + (l - zp_l) * (r - zp_r)`.
    fn mac(acc: Self::Acc, l: Self::T, r: Self::T, q: &Self::Quant<'_>) -> Self::Acc;
    /// Requantization, output zero point, clamp.
    fn finish(acc: Self::Acc, q: &Self::Quant<'_>) -> Self::T;
}

/// int8 quantization: the convolution family's [`QuantS8`] (`input_offset = -zp_l`, one
/// multiplier) and `rhs_offset = -zp_r`, clamped to int8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatmulQuantS8<'a> {
    /// The multiplier, `-zp_l` as `input_offset`, the output zero point and clamp.
    pub quant: QuantS8<'a>,
    /// `-zp_r`, added to every `R` value.
    pub rhs_offset: i32,
}

/// int16 x int16 quantization (zero points 0, as TFLite Micro requires): one multiplier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatmulQuantS16 {
    /// Fixed-point multiplier of `scale_l * scale_r / scale_out`.
    pub output_multiplier: i32,
    /// Positive = left.
    pub output_shift: i32,
}

/// int16 activations on both sides, int64 accumulator (TFLite's `BatchMatMul<int16_t, int64_t>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct S16x16;

const FULL_S8: Clamp<i8> = Clamp { min: i8::MIN, max: i8::MAX };

impl MatmulNumerics for S8 {
    type T = i8;
    type Acc = i32;
    type Quant<'a> = MatmulQuantS8<'a>;
    const ZERO: i32 = 0;
    #[inline(always)]
    fn mac(acc: i32, l: i8, r: i8, q: &MatmulQuantS8<'_>) -> i32 {
        <S8 as Numerics>::mac(acc, l, r, q.rhs_offset, &q.quant)
    }
    #[inline(always)]
    fn finish(acc: i32, q: &MatmulQuantS8<'_>) -> i8 {
        <S8 as Numerics>::requantize(acc, &q.quant, 0, &FULL_S8)
    }
}

impl MatmulNumerics for S16x16 {
    type T = i16;
    type Acc = i64;
    type Quant<'a> = MatmulQuantS16;
    const ZERO: i64 = 0;
    #[inline(always)]
    fn mac(acc: i64, l: i16, r: i16, _: &MatmulQuantS16) -> i64 {
        acc.wrapping_add(l as i64 * r as i64)
    }
    #[inline(always)]
    fn finish(acc: i64, q: &MatmulQuantS16) -> i16 {
        multiply_by_quantized_multiplier_i64(acc, q.output_multiplier, q.output_shift).clamp(i16::MIN as i32, i16::MAX as i32) as i16
    }
}

impl MatmulNumerics for F32 {
    type T = f32;
    type Acc = f32;
    type Quant<'a> = ();
    const ZERO: f32 = 0.0;
    #[inline(always)]
    fn mac(acc: f32, l: f32, r: f32, q: &()) -> f32 {
        <F32 as Numerics>::mac(acc, l, r, 0, q)
    }
    /// No clamp: TFLite's float BatchMatMul stores the sum as it is.
    #[inline(always)]
    fn finish(acc: f32, _: &()) -> f32 {
        acc
    }
}

/// Element counts of the operands and the output.
pub fn lengths<M: MatmulNumerics>(p: &BatchMatmulParams<M>) -> [usize; 3] {
    let prod = |b: [usize; 3]| b.iter().product::<usize>();
    [prod(p.lhs_batch) * p.rows * p.depth, prod(p.rhs_batch) * p.depth * p.cols, prod(p.out_batch()) * p.rows * p.cols]
}

/// The reference BATCH_MATMUL for any numerics.
pub fn batch_matmul<M: MatmulNumerics>(p: &BatchMatmulParams<M>, lhs: &[M::T], rhs: &[M::T], output: &mut [M::T]) {
    let [nl, nr, no] = lengths(p);
    debug_assert_eq!(lhs.len(), nl);
    debug_assert_eq!(rhs.len(), nr);
    debug_assert_eq!(output.len(), no);
    scalar::batch_matmul(p, lhs, rhs, output)
}

/// BATCH_MATMUL int8.
pub fn batch_matmul_s8(p: &BatchMatmulParams<S8>, lhs: &[i8], rhs: &[i8], output: &mut [i8]) {
    batch_matmul(p, lhs, rhs, output)
}

/// BATCH_MATMUL int16 (zero points 0).
pub fn batch_matmul_s16(p: &BatchMatmulParams<S16x16>, lhs: &[i16], rhs: &[i16], output: &mut [i16]) {
    batch_matmul(p, lhs, rhs, output)
}

/// BATCH_MATMUL float32 (TFLite's order of additions, so the same bits).
pub fn batch_matmul_f32(p: &BatchMatmulParams<F32>, lhs: &[f32], rhs: &[f32], output: &mut [f32]) {
    batch_matmul(p, lhs, rhs, output)
}
