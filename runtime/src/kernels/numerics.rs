//! The numerics seam: what the loop nests of CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
//! AVERAGE_POOL_2D and MAX_POOL_2D need to know about a quantization scheme, and nothing
//! else. Each loop nest is written once, generic over [`Numerics`]; a scheme is one impl:
//!
//! | scheme | activation | weights | bias | accumulator | quantization |
//! |---|---|---|---|---|---|
//! | [`S8`] (int8) | `i8` | `i8` | `i32` | `i32`, wrapping | [`QuantS8`]: offsets, per-channel multipliers |
//! | [`S16`] (16x8) | `i16` | `i8` | `i64` | `i64`, wrapping | [`QuantS16`]: per-channel multipliers (zero points are 0) |
//! | [`U8`] (legacy uint8) | `u8` | `u8` | `i32` | `i32`, wrapping | [`QuantU8`]: input, weights and output offsets, one multiplier |
//! | [`F32`] (float32) | `f32` | `f32` | `f32` | `f32` | `()`: requantization is only the clamp |
//! | [`F32H`] (float32, float16 weights) | `f32` | `u16` (binary16 bits) | `f32` | `f32` | `()` |
//!
//! `F32` and `F32H` are one generic impl, [`Float<W>`](Float), whose only step that depends
//! on `W` is the exact widening of a weight ([`FloatWeight::widen`]).
//!
//! float32 is one more impl, not a third branch in every kernel: its steps are TFLite's
//! float reference kernels' (`reference_ops::Conv`, `DepthwiseConv`, `FullyConnected`,
//! `AveragePool`, `MaxPool`): `total += x * w` in the loop nest's order, one rounding per
//! multiply and per add (no fused multiply-add: Rust does not contract `a * b + c`), then
//! `total + bias` and `ActivationFunctionWithMinMax`. The loop nests accumulate each
//! output in TFLite's order, so the scalar float kernels give TFLite's bits.
//!
//! Kernel parameters are split the way CMSIS-NN splits them (`cmsis_nn_conv_params`,
//! `cmsis_nn_per_channel_quant_params`, `cmsis_nn_activation`): geometry
//! ([`crate::kernels::window::ConvGeometry`]), quantization (`N::Quant`), and the
//! activation clamp ([`Clamp`]).
//!
//! Every method mirrors one step of TFLite Micro's reference kernels
//! (`reference_integer_ops::ConvPerChannel`, `DepthwiseConvPerChannel`, `FullyConnected`,
//! `AveragePool`, `MaxPool`, int8 and int16 forms) in the same integer widths.

use crate::quant::{multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_i64};
use core::fmt::Debug;
use core::marker::PhantomData;

/// The fused-activation clamp of an output, in the output's element type (TFLite's
/// `output_activation_min` / `output_activation_max`, `CalculateActivationRangeQuantized`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clamp<T> {
    /// Smallest output value.
    pub min: T,
    /// Largest output value, `>= min`.
    pub max: T,
}

/// The int8 quantization of a convolution or fully-connected op (TFLite's
/// `ConvParams.input_offset`/`output_offset` and the per-channel multipliers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuantS8<'a> {
    /// `-input_zero_point`.
    pub input_offset: i32,
    /// `output_zero_point`.
    pub output_offset: i32,
    /// Per-output-channel multipliers (`QuantizeMultiplier` of `in_scale * w_scale[c] /
    /// out_scale`, [`crate::prepare::conv_channel_multiplier`]), or one for every channel.
    pub output_multiplier: &'a [i32],
    /// Shifts matching `output_multiplier` (positive = left).
    pub output_shift: &'a [i32],
}

/// The 16x8 quantization: activations are symmetric (TFLite requires zero point 0, so
/// there is no offset to carry), requantization uses the 64-bit
/// `MultiplyByQuantizedMultiplier` (shifts below 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuantS16<'a> {
    /// Per output channel: the fixed-point multiplier of `input_scale * weight_scale[c] / output_scale`.
    pub output_multiplier: &'a [i32],
    /// Per output channel: the exponent of `output_multiplier[c]` (positive: a left shift).
    pub output_shift: &'a [i32],
}

/// The legacy asymmetric uint8 quantization (TFLite's uint8 `reference_ops::Conv`,
/// `DepthwiseConv`): per-tensor weights with a zero point, one multiplier. It is int8's
/// arithmetic through an offset: the same int32 accumulator of `(w + weights_offset) * (x +
/// input_offset)`, the same `MultiplyByQuantizedMultiplier`, with the clamp in `0..=255`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuantU8 {
    /// `-input_zero_point`.
    pub input_offset: i32,
    /// `-filter_zero_point`.
    pub weights_offset: i32,
    /// `output_zero_point`.
    pub output_offset: i32,
    /// Fixed-point multiplier of `input_scale * weight_scale / output_scale`.
    pub output_multiplier: i32,
    /// Positive = left.
    pub output_shift: i32,
}

/// A quantization scheme, as the generic loop nests see it.
pub trait Numerics: Copy + Debug + PartialEq + 'static {
    /// Activation element (input and output).
    type Act: Copy + Debug + PartialOrd + 'static;
    /// Weight element.
    type Weight: Copy + Debug + PartialEq + 'static;
    /// Bias element.
    type Bias: Copy + Debug + PartialEq + 'static;
    /// Accumulator of a convolution or fully-connected dot product.
    type Acc: Copy + Debug;
    /// Quantization parameters of a convolution or fully-connected op.
    type Quant<'a>: Copy + Debug + PartialEq;
    /// Running sum of AVERAGE_POOL_2D.
    type PoolSum: Copy + Debug;

    /// The accumulator's initial value (zero).
    const ACC_ZERO: Self::Acc;
    /// The pool sum's initial value (zero).
    const POOL_ZERO: Self::PoolSum;
    /// The value MAX_POOL_2D starts from (a window with no cell inside stays at it).
    const LOWEST: Self::Act;

    /// `acc + (w + weight_offset) * (x + input_offset)`: one tap. `weight_offset` is 0
    /// except for per-tensor FULLY_CONNECTED weights (TFLite's `weights_offset`).
    fn mac(acc: Self::Acc, x: Self::Act, w: Self::Weight, weight_offset: i32, q: &Self::Quant<'_>) -> Self::Acc;
    /// `acc + bias`.
    fn add_bias(acc: Self::Acc, bias: Self::Bias) -> Self::Acc;
    /// Output channel `channel`'s requantization (multiplier, shift, output offset), then
    /// the clamp.
    fn requantize(acc: Self::Acc, q: &Self::Quant<'_>, channel: usize, clamp: &Clamp<Self::Act>) -> Self::Act;
    /// The number of multipliers in `q` (1 = per tensor, else one per output channel).
    fn channels(q: &Self::Quant<'_>) -> usize;

    /// `sum + x` (AVERAGE_POOL_2D).
    fn pool_add(sum: Self::PoolSum, x: Self::Act) -> Self::PoolSum;
    /// The average of `count > 0` cells (TFLite rounds half away from zero), clamped.
    fn pool_average(sum: Self::PoolSum, count: usize, clamp: &Clamp<Self::Act>) -> Self::Act;
    /// The larger of two activations (MAX_POOL_2D).
    fn max(a: Self::Act, b: Self::Act) -> Self::Act;
    /// `x` clamped.
    fn clamp(x: Self::Act, clamp: &Clamp<Self::Act>) -> Self::Act;
}

/// int8 activations and weights, int32 bias and accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct S8;

/// 16x8: int16 activations, int8 weights, int64 bias and accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct S16;

/// Legacy uint8 activations and weights, int32 bias and accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct U8;

/// The float32 schemes, generic over how a weight is stored ([`FloatWeight`]): activations,
/// bias and accumulator are `f32`, and each tap widens its weight exactly to `f32` before
/// TFLite's `total += x * w`. Every other step (bias, clamp, pools) is the same for every
/// weight storage, so it is written once here. Use the aliases [`F32`] and [`F32H`].
pub struct Float<W>(PhantomData<W>);

/// How a float scheme's weights are stored, and their exact widening to `f32`.
pub trait FloatWeight: Copy + Debug + Default + PartialEq + 'static {
    /// The scheme's name (`Debug`).
    const NAME: &'static str;
    /// Whether [`FloatWeight::widen`] does work (a kernel may then widen a block of weights
    /// once and reuse it).
    const WIDENS: bool;
    /// The weight as `f32`, exactly.
    fn widen(self) -> f32;
}

/// float32 weights (TFLite's unquantized path).
impl FloatWeight for f32 {
    const NAME: &'static str = "F32";
    const WIDENS: bool = false;
    #[inline(always)]
    fn widen(self) -> f32 {
        self
    }
}

/// float16 weights kept as they are in flash (binary16 bits), widened exactly
/// ([`crate::math::f16_to_f32`]).
impl FloatWeight for u16 {
    const NAME: &'static str = "F32H";
    const WIDENS: bool = true;
    #[inline(always)]
    fn widen(self) -> f32 {
        crate::math::f16_to_f32(self)
    }
}

// By hand rather than derived: a derive would bound `W` (and `f32` is not `Eq`), while the
// scheme holds no `W`.
impl<W> Clone for Float<W> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<W> Copy for Float<W> {}
impl<W> PartialEq for Float<W> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<W> Eq for Float<W> {}
impl<W: FloatWeight> Debug for Float<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(W::NAME)
    }
}

/// float32 activations, weights, bias and accumulator (TFLite's unquantized path).
pub type F32 = Float<f32>;

/// float32 activations, bias and accumulator with float16 weights kept as they are in flash
/// (binary16 bits): each tap widens its weight exactly ([`crate::math::f16_to_f32`]) and then
/// is [`F32`]'s tap, so the result is [`F32`]'s on the widened weights, bit for bit: the
/// float16-weight model's folded float32 path without the flash for float32 weights.
pub type F32H = Float<u16>;

/// `std::max(a, b)` as C++ defines it (`a < b ? b : a`), NaN handling included.
#[inline(always)]
fn cpp_max(a: f32, b: f32) -> f32 {
    if a < b {
        b
    } else {
        a
    }
}

/// The multiplier index of output channel `c` (one multiplier per tensor, or per channel).
#[inline(always)]
fn q_index(multipliers: usize, c: usize) -> usize {
    if multipliers == 1 {
        0
    } else {
        c
    }
}

/// TFLite's integer AveragePool rounding: `(sum ± count / 2) / count`, half away from
/// zero (`/` truncates toward zero as in C++).
#[inline(always)]
fn rounded_average(sum: i32, count: usize) -> i32 {
    let count = count as i32;
    let half = count / 2;
    if sum > 0 {
        (sum + half) / count
    } else {
        (sum - half) / count
    }
}

impl Numerics for S8 {
    type Act = i8;
    type Weight = i8;
    type Bias = i32;
    type Acc = i32;
    type Quant<'a> = QuantS8<'a>;
    type PoolSum = i32;
    const ACC_ZERO: i32 = 0;
    const POOL_ZERO: i32 = 0;
    const LOWEST: i8 = i8::MIN;

    #[inline(always)]
    fn mac(acc: i32, x: i8, w: i8, weight_offset: i32, q: &QuantS8<'_>) -> i32 {
        acc.wrapping_add((w as i32 + weight_offset).wrapping_mul(x as i32 + q.input_offset))
    }

    #[inline(always)]
    fn add_bias(acc: i32, bias: i32) -> i32 {
        acc.wrapping_add(bias)
    }

    #[inline(always)]
    fn requantize(acc: i32, q: &QuantS8<'_>, channel: usize, clamp: &Clamp<i8>) -> i8 {
        let i = q_index(q.output_multiplier.len(), channel);
        let v = multiply_by_quantized_multiplier(acc, q.output_multiplier[i], q.output_shift[i]).wrapping_add(q.output_offset);
        v.max(clamp.min as i32).min(clamp.max as i32) as i8
    }

    #[inline(always)]
    fn channels(q: &QuantS8<'_>) -> usize {
        q.output_multiplier.len()
    }

    #[inline(always)]
    fn pool_add(sum: i32, x: i8) -> i32 {
        sum.wrapping_add(x as i32)
    }

    #[inline(always)]
    fn pool_average(sum: i32, count: usize, clamp: &Clamp<i8>) -> i8 {
        rounded_average(sum, count).max(clamp.min as i32).min(clamp.max as i32) as i8
    }

    #[inline(always)]
    fn max(a: i8, b: i8) -> i8 {
        a.max(b)
    }

    #[inline(always)]
    fn clamp(x: i8, clamp: &Clamp<i8>) -> i8 {
        x.max(clamp.min).min(clamp.max)
    }
}

impl Numerics for S16 {
    type Act = i16;
    type Weight = i8;
    type Bias = i64;
    type Acc = i64;
    type Quant<'a> = QuantS16<'a>;
    type PoolSum = i32;
    const ACC_ZERO: i64 = 0;
    const POOL_ZERO: i32 = 0;
    const LOWEST: i16 = i16::MIN;

    /// The product is int32 (as in C++: `(filter_val + filter_offset) * input_val`),
    /// accumulated in int64.
    #[inline(always)]
    fn mac(acc: i64, x: i16, w: i8, weight_offset: i32, _: &QuantS16<'_>) -> i64 {
        acc.wrapping_add((w as i32 + weight_offset).wrapping_mul(x as i32) as i64)
    }

    #[inline(always)]
    fn add_bias(acc: i64, bias: i64) -> i64 {
        acc.wrapping_add(bias)
    }

    #[inline(always)]
    fn requantize(acc: i64, q: &QuantS16<'_>, channel: usize, clamp: &Clamp<i16>) -> i16 {
        let i = q_index(q.output_multiplier.len(), channel);
        let v = multiply_by_quantized_multiplier_i64(acc, q.output_multiplier[i], q.output_shift[i]);
        v.max(clamp.min as i32).min(clamp.max as i32) as i16
    }

    #[inline(always)]
    fn channels(q: &QuantS16<'_>) -> usize {
        q.output_multiplier.len()
    }

    #[inline(always)]
    fn pool_add(sum: i32, x: i16) -> i32 {
        sum.wrapping_add(x as i32)
    }

    #[inline(always)]
    fn pool_average(sum: i32, count: usize, clamp: &Clamp<i16>) -> i16 {
        rounded_average(sum, count).max(clamp.min as i32).min(clamp.max as i32) as i16
    }

    #[inline(always)]
    fn max(a: i16, b: i16) -> i16 {
        a.max(b)
    }

    #[inline(always)]
    fn clamp(x: i16, clamp: &Clamp<i16>) -> i16 {
        x.max(clamp.min).min(clamp.max)
    }
}

impl Numerics for U8 {
    type Act = u8;
    type Weight = u8;
    type Bias = i32;
    type Acc = i32;
    type Quant<'a> = QuantU8;
    type PoolSum = i32;
    const ACC_ZERO: i32 = 0;
    const POOL_ZERO: i32 = 0;
    const LOWEST: u8 = 0;

    /// The weights' offset is the quantization's (the `weight_offset` argument is
    /// FULLY_CONNECTED's, 0 here).
    #[inline(always)]
    fn mac(acc: i32, x: u8, w: u8, weight_offset: i32, q: &QuantU8) -> i32 {
        acc.wrapping_add((w as i32 + q.weights_offset + weight_offset).wrapping_mul(x as i32 + q.input_offset))
    }

    #[inline(always)]
    fn add_bias(acc: i32, bias: i32) -> i32 {
        acc.wrapping_add(bias)
    }

    #[inline(always)]
    fn requantize(acc: i32, q: &QuantU8, _channel: usize, clamp: &Clamp<u8>) -> u8 {
        let v = multiply_by_quantized_multiplier(acc, q.output_multiplier, q.output_shift).wrapping_add(q.output_offset);
        v.max(clamp.min as i32).min(clamp.max as i32) as u8
    }

    #[inline(always)]
    fn channels(_: &QuantU8) -> usize {
        1
    }

    #[inline(always)]
    fn pool_add(sum: i32, x: u8) -> i32 {
        sum.wrapping_add(x as i32)
    }

    #[inline(always)]
    fn pool_average(sum: i32, count: usize, clamp: &Clamp<u8>) -> u8 {
        rounded_average(sum, count).max(clamp.min as i32).min(clamp.max as i32) as u8
    }

    #[inline(always)]
    fn max(a: u8, b: u8) -> u8 {
        a.max(b)
    }

    #[inline(always)]
    fn clamp(x: u8, clamp: &Clamp<u8>) -> u8 {
        x.max(clamp.min).min(clamp.max)
    }
}

impl<W: FloatWeight> Numerics for Float<W> {
    type Act = f32;
    type Weight = W;
    type Bias = f32;
    type Acc = f32;
    type Quant<'a> = ();
    type PoolSum = f32;
    const ACC_ZERO: f32 = 0.0;
    const POOL_ZERO: f32 = 0.0;
    /// `std::numeric_limits<float>::lowest()`.
    const LOWEST: f32 = f32::MIN;

    /// `total += input_value * filter_value` on the exactly widened weight: two roundings,
    /// as TFLite (no FMA).
    #[inline(always)]
    fn mac(acc: f32, x: f32, w: W, _weight_offset: i32, _: &()) -> f32 {
        acc + x * w.widen()
    }

    #[inline(always)]
    fn add_bias(acc: f32, bias: f32) -> f32 {
        acc + bias
    }

    /// `ActivationFunctionWithMinMax`: `std::min(std::max(x, min), max)`.
    #[inline(always)]
    fn requantize(acc: f32, _: &(), _channel: usize, clamp: &Clamp<f32>) -> f32 {
        Self::clamp(acc, clamp)
    }

    #[inline(always)]
    fn channels(_: &()) -> usize {
        1
    }

    #[inline(always)]
    fn pool_add(sum: f32, x: f32) -> f32 {
        sum + x
    }

    /// `total / filter_count` (the count is a float in TFLite; exact below 2^24).
    #[inline(always)]
    fn pool_average(sum: f32, count: usize, clamp: &Clamp<f32>) -> f32 {
        Self::clamp(sum / count as f32, clamp)
    }

    #[inline(always)]
    fn max(a: f32, b: f32) -> f32 {
        cpp_max(a, b)
    }

    #[inline(always)]
    fn clamp(x: f32, clamp: &Clamp<f32>) -> f32 {
        let v = cpp_max(x, clamp.min);
        // std::min(v, max) = max < v ? max : v.
        if clamp.max < v {
            clamp.max
        } else {
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s8_mac_wraps_and_applies_both_offsets() {
        let q = QuantS8 { input_offset: 128, output_offset: 0, output_multiplier: &[1 << 30], output_shift: &[1] };
        assert_eq!(S8::mac(i32::MAX, 127, 127, 0, &q), i32::MAX.wrapping_add(127 * 255));
        assert_eq!(S8::mac(0, -128, -128, 1, &q), 0);
        assert_eq!(S8::mac(5, 3, 2, -2, &q), 5);
    }

    #[test]
    fn rounding_of_averages_is_half_away_from_zero() {
        let c = Clamp { min: i8::MIN, max: i8::MAX };
        assert_eq!(S8::pool_average(5, 2, &c), 3);
        assert_eq!(S8::pool_average(-5, 2, &c), -3);
        assert_eq!(S8::pool_average(4, 3, &c), 1);
        assert_eq!(S8::pool_average(-4, 3, &c), -1);
        assert_eq!(S8::pool_average(1000, 1, &c), 127);
        let c16 = Clamp { min: -7, max: 7 };
        assert_eq!(S16::pool_average(-1000, 3, &c16), -7);
    }

    #[test]
    fn f32_steps_round_like_tflite() {
        // Two roundings (no FMA): 1 + 2^-12 squared loses its 2^-24 term.
        let x = 1.0 + f32::EPSILON * 2048.0;
        assert_eq!(F32::mac(-1.0, x, x, 0, &()), x * x - 1.0);
        assert_eq!(F32::mac(-1.0, x, x, 0, &()), f32::EPSILON * 4096.0);
        let c = Clamp { min: 0.0, max: 6.0 };
        assert_eq!(F32::requantize(-3.0, &(), 0, &c), 0.0);
        assert_eq!(F32::requantize(7.5, &(), 0, &c), 6.0);
        assert_eq!(F32::requantize(2.5, &(), 0, &c), 2.5);
        assert_eq!(F32::pool_average(1.0, 3, &Clamp { min: f32::MIN, max: f32::MAX }), 1.0f32 / 3.0);
        assert_eq!(F32::max(F32::LOWEST, -1.0e38), -1.0e38);
    }

    #[test]
    fn s16_product_is_int32_then_widened() {
        let q = QuantS16 { output_multiplier: &[1 << 30], output_shift: &[1] };
        assert_eq!(S16::mac(i64::MAX, 1, 1, 0, &q), i64::MIN);
        assert_eq!(S16::mac(0, i16::MIN, -128, 0, &q), 32768 * 128);
    }
}
