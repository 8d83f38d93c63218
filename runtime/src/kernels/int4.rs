//! int4 filters kept packed in flash (issue 30): TFLite's `INT4` (two weights a byte, low
//! nibble first, two's complement) read by the int8 CONV_2D, DEPTHWISE_CONV_2D and
//! FULLY_CONNECTED kernels as they go, never unpacked into RAM as a whole. TFLite Micro
//! unpacks an int4 filter into a scratch buffer (`tensor_utils::UnpackDenseInt4IntoInt8`) and
//! runs its int8 kernel; these kernels run the same int8 loop nests as the LUT-compressed
//! filters ([`crate::kernels::lut`]: one output channel's weights, or four, decoded into a
//! small stack buffer, then the shared [`crate::kernels::dot::Dot`] micro-kernels), with a
//! nibble sign-extended by two shifts instead of a table lookup. Bit-exact with the int8
//! kernel on the unpacked filter: the same int8 weights, the same wrapping int32 sums, the
//! same requantization.
//!
//! The compiler packs the nibbles at compile time in the order the kernels read them
//! ([`pack`]): output channel `c`'s `row` weights are elements `c * row .. (c + 1) * row`.
//! CONV_2D (`[out, h, w, in]`) and FULLY_CONNECTED (`[units, depth]`) filters are stored so
//! already, so their nibbles are the file's bytes; DEPTHWISE_CONV_2D's `[1, h, w, channels]`
//! is transposed to channel-major rows of `h * w` taps. A row may start at a high nibble (an
//! odd row length): [`decode`] takes any start.

use crate::kernels::conv_2d::{gemm, Conv2dParams};
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::lut::{conv_2d_lut, depthwise_conv_2d_lut, fully_connected_lut, WeightRows};
use crate::kernels::numerics::S8;

/// The largest DEPTHWISE_CONV_2D window (`h * w` taps) the `_int4` kernel takes (the LUT
/// kernel's bound: four channels' taps decoded into one stack buffer).
pub const DEPTHWISE_MAX_TAPS: usize = crate::kernels::lut::DEPTHWISE_MAX_TAPS;

/// A filter of int4 weights, two a byte, low nibble first, output channel `c`'s weights
/// being elements `c * row .. (c + 1) * row` (`row` the weights per output channel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Int4Weights<'a> {
    /// The packed weights ([`pack`]).
    pub nibbles: &'a [u8],
}

impl WeightRows for Int4Weights<'_> {
    #[inline]
    fn decode(&self, _channel: usize, start: usize, out: &mut [i8]) {
        decode(self.nibbles, start, out)
    }
}

/// The low nibble of `b`, sign-extended.
#[inline(always)]
fn low(b: u8) -> i8 {
    ((b << 4) as i8) >> 4
}

/// The high nibble of `b`, sign-extended.
#[inline(always)]
fn high(b: u8) -> i8 {
    (b as i8) >> 4
}

/// Elements `start .. start + out.len()` of `nibbles` (low nibble first) as int8: a high
/// nibble first when `start` is odd, then whole bytes of two, then a last low nibble.
#[inline]
pub fn decode(nibbles: &[u8], start: usize, out: &mut [i8]) {
    let mut at = start / 2;
    let out = if start % 2 == 1 {
        match out.split_first_mut() {
            Some((first, rest)) => {
                *first = high(nibbles[at]);
                at += 1;
                rest
            }
            None => return,
        }
    } else {
        out
    };
    let whole = out.len() / 2;
    let (pairs, tail) = out.split_at_mut(2 * whole);
    for (o, &b) in pairs.chunks_exact_mut(2).zip(&nibbles[at..at + whole]) {
        o[0] = low(b);
        o[1] = high(b);
    }
    if let Some(last) = tail.first_mut() {
        *last = low(nibbles[at + whole]);
    }
}

/// Packs `values` (each in `-8..=7`; others keep their low four bits) two a byte, low nibble
/// first, into `out` (`values.len().div_ceil(2)` bytes; an odd count leaves the last high
/// nibble zero): TFLite's `INT4` layout, the inverse of [`decode`] and of
/// [`crate::quant::unpack_int4`]. The compiler calls it with the weights in the kernels'
/// order.
#[cfg(feature = "prepare")]
pub fn pack(values: &[i8], out: &mut [u8]) {
    debug_assert_eq!(out.len(), values.len().div_ceil(2));
    for (o, v) in out.iter_mut().zip(values.chunks(2)) {
        let lo = v[0] as u8 & 0x0F;
        let hi = v.get(1).map_or(0, |&h| h as u8 & 0x0F);
        *o = lo | hi << 4;
    }
}

/// FULLY_CONNECTED int8 with int4 weights ([`Int4Weights`]; `weights_offset` 0), on this
/// target's dot micro-kernels. Bit-exact with
/// [`crate::kernels::fully_connected::fully_connected_s8`] on the unpacked weights.
pub fn fully_connected_s8_int4(params: &FullyConnectedParams<S8>, input: &[i8], weights: &Int4Weights<'_>, bias: Option<&[i32]>, output: &mut [i8]) {
    fully_connected_lut::<crate::isa::Dot>(params, input, weights, bias, output)
}

/// CONV_2D int8 with int4 weights ([`Int4Weights`]), on this target's dot micro-kernels.
/// Bit-exact with [`crate::kernels::conv_2d::conv_2d_s8`] on the unpacked filter.
pub fn conv_2d_s8_int4(params: &Conv2dParams<S8>, input: &[i8], weights: &Int4Weights<'_>, bias: Option<&[i32]>, output: &mut [i8]) {
    conv_2d_lut::<crate::isa::Dot>(params, input, weights, bias, output)
}

/// DEPTHWISE_CONV_2D int8 with int4 weights ([`Int4Weights`], channel-major rows of at most
/// [`DEPTHWISE_MAX_TAPS`] taps), on this target's dot micro-kernels. Bit-exact with
/// [`crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8`] on the unpacked filter.
pub fn depthwise_conv_2d_s8_int4(params: &DepthwiseConv2dParams<S8>, input: &[i8], weights: &Int4Weights<'_>, bias: Option<&[i32]>, output: &mut [i8]) {
    depthwise_conv_2d_lut::<crate::isa::Dot>(params, input, weights, bias, output)
}

/// The bit at which a pair word of nibbles (`Dot::dot_2x2_int4`'s order, which the int4
/// `Gemm` and `Interleaved` tables share) holds tap `t` (0..4) of a group of channel `lane`
/// (0: `a`, 1: `b`): byte `lane + 2 * (t / 2)`, low nibble for `t0` and `t2`.
#[cfg(feature = "prepare")]
pub(crate) fn pair_nibble_bit(lane: usize, t: usize) -> usize {
    8 * (lane + 2 * (t / 2)) + 4 * (t % 2)
}

/// Puts `w`'s low four bits (the weight, two's complement) at `bit` of `word`, whose nibble
/// there is still zero.
#[cfg(feature = "prepare")]
pub(crate) fn put_nibble(word: &mut i32, bit: usize, w: i8) {
    *word |= ((w as u32 & 0xF) << bit) as i32;
}

/// How an int8 CONV_2D reads its int4 filter kept packed: [`Conv2dInt4::select`] at compile
/// time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conv2dInt4 {
    /// [`conv_2d_s8_int4`]: the nibbles in the file's order ([`Int4Weights`]), one output
    /// channel (or four) decoded into a stack buffer for the generic row driver. Any window.
    Rows,
    /// [`conv_2d_s8_int4_gemm`]: the `Gemm` variant's drivers and packed heads, a group of
    /// four taps of a channel pair in one word of nibbles, decoded in registers
    /// (`Dot::dot_2x2_int4`). Where `Gemm` would be chosen for the unpacked filter
    /// (ungrouped, block requantization exact) and its window rows are whole groups of four
    /// taps (no padding nibbles).
    Gemm,
    /// [`conv_2d_s8_int4_gemm_pw`]: `Gemm` for a pointwise layer (1x1 windows on whole
    /// words), as `Conv2dVariant::GemmPw`.
    GemmPw,
}

impl Conv2dInt4 {
    /// The form for this convolution and its unpacked filter (values in `-8..=7`).
    #[cfg(feature = "prepare")]
    pub fn select(p: &Conv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>) -> Conv2dInt4 {
        let g = &p.geometry;
        let [out_d, f_h, f_w, f_d] = g.filter_shape;
        if f_d != g.input_shape[3] || f_h * f_w * f_d == 0 || out_d == 0 || !gemm::requant_is_exact(p, filter, bias) {
            return Conv2dInt4::Rows;
        }
        // `Gemm` pads each window row to whole groups of four taps with zero weights: a
        // first layer on 1-3 channels (a 3x3 window on 3: 9 taps a row, 12 packed) would
        // store a third more nibbles than its weights; the rows form stores none.
        if !(f_w * f_d).is_multiple_of(4) {
            return Conv2dInt4::Rows;
        }
        if gemm::is_pointwise(g) {
            Conv2dInt4::GemmPw
        } else {
            Conv2dInt4::Gemm
        }
    }

    /// The length of [`Conv2dInt4::pack`]'s table (`Rows` reads the nibbles and the
    /// model's bias instead: 0).
    #[cfg(feature = "prepare")]
    pub fn packed_len(self, g: &crate::kernels::window::ConvGeometry) -> usize {
        match self {
            Conv2dInt4::Rows => 0,
            Conv2dInt4::Gemm | Conv2dInt4::GemmPw => gemm::packed_len_int4(g),
        }
    }

    /// The compile-time table of `Gemm` and `GemmPw`: per channel pair the folded biases and
    /// requantization constants, then a word of nibbles per group of four taps.
    #[cfg(feature = "prepare")]
    pub fn pack(self, p: &Conv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
        if self != Conv2dInt4::Rows {
            gemm::pack_int4(p, filter, bias, packed)
        }
    }

    /// The `kernels::int4` function generated code calls for this form.
    pub fn function(self) -> &'static str {
        match self {
            Conv2dInt4::Rows => "conv_2d_s8_int4",
            Conv2dInt4::Gemm => "conv_2d_s8_int4_gemm",
            Conv2dInt4::GemmPw => "conv_2d_s8_int4_gemm_pw",
        }
    }

    /// Runs this form (`weights`: `Rows`' nibbles; `packed`: the others' table).
    #[allow(clippy::too_many_arguments)]
    pub fn run(self, p: &Conv2dParams<S8>, input: &[i8], weights: &Int4Weights<'_>, bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
        match self {
            Conv2dInt4::Rows => conv_2d_s8_int4(p, input, weights, bias, output),
            Conv2dInt4::Gemm => conv_2d_s8_int4_gemm(p, input, packed, output),
            Conv2dInt4::GemmPw => conv_2d_s8_int4_gemm_pw(p, input, packed, output),
        }
    }
}

/// How an int8 FULLY_CONNECTED reads its int4 weights kept packed:
/// [`FullyConnectedInt4::select`] at compile time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FullyConnectedInt4 {
    /// [`fully_connected_s8_int4`]: the nibbles in the file's order ([`Int4Weights`]).
    Rows,
    /// [`fully_connected_s8_int4_interleaved`]: `Interleaved`'s blocks of four units, two
    /// words of nibbles per four inputs decoded in registers (`Dot::dot4x4_row_int4`). Where
    /// the microcontroller builds take `Interleaved` for the unpacked weights.
    Interleaved,
}

impl FullyConnectedInt4 {
    /// The form for this layer and its unpacked weights (values in `-8..=7`).
    #[cfg(feature = "prepare")]
    pub fn select(p: &FullyConnectedParams<S8>, filter: &[i8], bias: Option<&[i32]>) -> FullyConnectedInt4 {
        use crate::kernels::fully_connected::FullyConnectedVariant;
        match FullyConnectedVariant::select(p, filter, bias, crate::isa::TargetClass::ArmDsp) {
            FullyConnectedVariant::Interleaved => FullyConnectedInt4::Interleaved,
            _ => FullyConnectedInt4::Rows,
        }
    }

    /// The length of [`FullyConnectedInt4::pack`]'s table (`Rows`: 0).
    #[cfg(feature = "prepare")]
    pub fn packed_len(self, g: &crate::kernels::fully_connected::FullyConnectedGeometry) -> usize {
        match self {
            FullyConnectedInt4::Rows => 0,
            FullyConnectedInt4::Interleaved => g.output_depth + g.output_depth * g.input_depth / 8,
        }
    }

    /// `Interleaved`'s table: the folded bias per unit (`bias + input_offset * sum(w)`),
    /// then per block of four units and four inputs two words of nibbles (units 0 and 1,
    /// then 2 and 3, each pair in `Dot::dot_2x2_int4`'s nibble order).
    #[cfg(feature = "prepare")]
    pub fn pack(self, p: &FullyConnectedParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
        if self != FullyConnectedInt4::Interleaved {
            return;
        }
        use crate::kernels::fully_connected::FullyConnectedVariant;
        let (depth, units) = (p.geometry.input_depth, p.geometry.output_depth);
        packed.fill(0);
        let (folded, words) = packed.split_at_mut(units);
        // The folded biases are `Dot4`'s whole table.
        FullyConnectedVariant::Dot4.pack(p, filter, bias, folded);
        for (blk, block) in words.chunks_exact_mut((depth / 2).max(1)).enumerate() {
            for k in 0..depth / 4 {
                for j in 0..4 {
                    for t in 0..4 {
                        put_nibble(&mut block[2 * k + j / 2], pair_nibble_bit(j % 2, t), filter[(blk * 4 + j) * depth + 4 * k + t]);
                    }
                }
            }
        }
    }

    /// The `kernels::int4` function generated code calls for this form.
    pub fn function(self) -> &'static str {
        match self {
            FullyConnectedInt4::Rows => "fully_connected_s8_int4",
            FullyConnectedInt4::Interleaved => "fully_connected_s8_int4_interleaved",
        }
    }

    /// Runs this form (`weights`: `Rows`' nibbles; `packed`: `Interleaved`'s table).
    #[allow(clippy::too_many_arguments)]
    pub fn run(self, p: &FullyConnectedParams<S8>, input: &[i8], weights: &Int4Weights<'_>, bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
        match self {
            FullyConnectedInt4::Rows => fully_connected_s8_int4(p, input, weights, bias, output),
            FullyConnectedInt4::Interleaved => fully_connected_s8_int4_interleaved(p, input, packed, output),
        }
    }
}

/// FULLY_CONNECTED int8 with int4 weights, [`FullyConnectedInt4::Interleaved`]: `packed`
/// from [`FullyConnectedInt4::pack`] (it replaces the weights and the bias). Bit-exact with
/// [`crate::kernels::fully_connected::fully_connected_s8`] on the unpacked weights.
pub fn fully_connected_s8_int4_interleaved(params: &FullyConnectedParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    crate::kernels::fully_connected::fast::fully_connected_interleaved_int4::<crate::isa::Dot>(params, input, packed, output)
}

/// How an int8 DEPTHWISE_CONV_2D reads its int4 filter kept packed:
/// [`DepthwiseInt4::select`] at compile time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthwiseInt4 {
    /// [`depthwise_conv_2d_s8_int4`]: channel-major rows of nibbles ([`Int4Weights`]).
    Rows,
    /// [`depthwise_conv_2d_s8_int4_mult1`]: `Mult1`'s groups of four channels over a 3x3
    /// window, two taps a word of nibbles decoded in registers (`Dot::mac4x2_int4`). Where
    /// the microcontroller builds take `Mult1` for the unpacked filter and it is 3x3.
    Mult1,
}

impl DepthwiseInt4 {
    /// The form for this layer and its unpacked filter (values in `-8..=7`).
    #[cfg(feature = "prepare")]
    pub fn select(p: &DepthwiseConv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>) -> DepthwiseInt4 {
        use crate::kernels::depthwise_conv_2d::DepthwiseConv2dVariant;
        let [_, f_h, f_w, _] = p.geometry.filter_shape;
        if f_h == 3 && f_w == 3 && DepthwiseConv2dVariant::select(p, filter, bias, crate::isa::TargetClass::ArmDsp) == DepthwiseConv2dVariant::Mult1 {
            DepthwiseInt4::Mult1
        } else {
            DepthwiseInt4::Rows
        }
    }

    /// The length of [`DepthwiseInt4::pack`]'s table (`Rows`: 0).
    #[cfg(feature = "prepare")]
    pub fn packed_len(self, g: &crate::kernels::window::ConvGeometry) -> usize {
        use crate::kernels::depthwise_conv_2d::fast;
        match self {
            DepthwiseInt4::Rows => 0,
            DepthwiseInt4::Mult1 => g.filter_shape[3] / fast::LANES * (fast::INT4_3X3_WORDS + fast::GROUP_TAIL),
        }
    }

    /// `Mult1`'s table: per group of four channels five words of nibbles (taps `2i` in
    /// bytes 0 and 2, `2i + 1` in bytes 1 and 3, channels 0 and 2 in the low nibbles),
    /// then the four folded biases and the packed requantization.
    #[cfg(feature = "prepare")]
    pub fn pack(self, p: &DepthwiseConv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
        use crate::kernels::depthwise_conv_2d::fast::{GROUP_TAIL, INT4_3X3_WORDS, LANES};
        if self != DepthwiseInt4::Mult1 {
            return;
        }
        let out_d = p.geometry.filter_shape[3];
        packed.fill(0);
        for (j, group) in packed.chunks_exact_mut(INT4_3X3_WORDS + GROUP_TAIL).enumerate() {
            let c0 = j * LANES;
            let (words, rest) = group.split_at_mut(INT4_3X3_WORDS);
            for t in 0..9 {
                for c in 0..LANES {
                    // Byte 2 * (c / 2) + t % 2, nibble c % 2.
                    put_nibble(&mut words[t / 2], 8 * (2 * (c / 2) + t % 2) + 4 * (c % 2), filter[t * out_d + c0 + c]);
                }
            }
            crate::kernels::depthwise_conv_2d::pack_group_tail(p, filter, bias, c0, rest);
        }
    }

    /// The `kernels::int4` function generated code calls for this form.
    pub fn function(self) -> &'static str {
        match self {
            DepthwiseInt4::Rows => "depthwise_conv_2d_s8_int4",
            DepthwiseInt4::Mult1 => "depthwise_conv_2d_s8_int4_mult1",
        }
    }

    /// Runs this form (`weights`: `Rows`' nibbles; `packed`: `Mult1`'s table).
    #[allow(clippy::too_many_arguments)]
    pub fn run(self, p: &DepthwiseConv2dParams<S8>, input: &[i8], weights: &Int4Weights<'_>, bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
        match self {
            DepthwiseInt4::Rows => depthwise_conv_2d_s8_int4(p, input, weights, bias, output),
            DepthwiseInt4::Mult1 => depthwise_conv_2d_s8_int4_mult1(p, input, packed, output),
        }
    }
}

/// DEPTHWISE_CONV_2D int8 with an int4 filter, [`DepthwiseInt4::Mult1`]: `packed` from
/// [`DepthwiseInt4::pack`] (it replaces the filter and the bias). Bit-exact with
/// [`crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8`] on the unpacked filter.
pub fn depthwise_conv_2d_s8_int4_mult1(params: &DepthwiseConv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    crate::kernels::depthwise_conv_2d::fast::depthwise_mult1_int4::<crate::isa::Dot>(params, input, packed, output)
}

/// CONV_2D int8 with an int4 filter, [`Conv2dInt4::Gemm`]: `packed` from
/// [`Conv2dInt4::pack`] (it replaces the filter and the bias), the params' multiplier tables
/// not read. Bit-exact with [`crate::kernels::conv_2d::conv_2d_s8`] on the unpacked filter.
pub fn conv_2d_s8_int4_gemm(params: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    gemm::conv_gemm_int4::<crate::isa::Dot, false>(params, input, packed, output)
}

/// CONV_2D int8 with an int4 filter, [`Conv2dInt4::GemmPw`] (a pointwise layer), as
/// [`conv_2d_s8_int4_gemm`].
pub fn conv_2d_s8_int4_gemm_pw(params: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    gemm::conv_gemm_int4::<crate::isa::Dot, true>(params, input, packed, output)
}

#[cfg(test)]
mod tests {
    use super::{decode, pack};
    use std::vec;
    use std::vec::Vec;

    /// Every start and length over every nibble value: `decode` gives back what `pack`
    /// packed, and agrees with TFLite's unpacking (`quant::unpack_int4`).
    #[test]
    fn decode_inverts_pack_at_every_start() {
        let values: Vec<i8> = (0..37).map(|i| ((i * 7 + 3) % 16) as i8 - 8).collect();
        let mut packed = vec![0u8; values.len().div_ceil(2)];
        pack(&values, &mut packed);
        let mut tflite = vec![0i8; values.len()];
        crate::quant::unpack_int4(&packed, &mut tflite);
        assert_eq!(tflite, values);
        for start in 0..values.len() {
            for n in 0..=values.len() - start {
                let mut out = vec![0x55u8 as i8; n];
                decode(&packed, start, &mut out);
                assert_eq!(out, values[start..start + n], "start {start} n {n}");
            }
        }
    }
}
