//! DEPTHWISE_CONV_2D: int8 (int32 bias) and 16x8 (int16 activations, int64 bias), int8
//! weights, per-channel requantization, with depth multiplier.
//!
//! Bit-exact with TFLite Micro's `reference_integer_ops::DepthwiseConvPerChannel` (int8,
//! and int16 with a 64-bit accumulator).
//!
//! Variants ([`DepthwiseConv2dVariant`], chosen by the compiler per op): `Reference`
//! ([`depthwise_conv_2d_s8`], [`depthwise_conv_2d_s16`], one generic loop nest
//! [`depthwise_conv_2d`]) and `Window` ([`depthwise_conv_2d_s8_window`], int8, depth
//! multiplier up to 64, with the folded bias of [`DepthwiseConv2dVariant::pack`]), `Mult1`
//! ([`depthwise_conv_2d_s8_mult1`], int8, depth multiplier 1 and a depth that is a multiple
//! of 4, four channels in registers over the whole window, filter, folded bias and
//! requantization packed together) and `OneChannel` ([`depthwise_conv_2d_s8_one_channel`],
//! one input channel into a multiple of 4 outputs, SMLAD over pairs of taps).

pub mod fast;
pub mod scalar;
#[cfg(test)]
mod tests;
#[cfg(any(target_arch = "x86_64", tflc_neon))]
pub(crate) mod window_driver;

#[cfg(feature = "prepare")]
use crate::isa::TargetClass;
use crate::kernels::window::RowRange;
use crate::kernels::numerics::{Clamp, Numerics, F32, F32H, S16, S8, U8};
pub use crate::kernels::window::ConvGeometry;

/// Everything DEPTHWISE_CONV_2D needs besides the tensors; computed by the compiler. The
/// filter shape is `[1, H, W, C*M]`; the depth multiplier `M` is `output_depth /
/// input_depth`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthwiseConv2dParams<'a, N: Numerics> {
    /// Kernel, stride, dilation, padding and tensor sizes.
    pub geometry: ConvGeometry,
    /// The numerics' per-channel requantization, offsets and clamp (`N::Quant`).
    pub quant: N::Quant<'a>,
    /// Fused-activation clamp.
    pub clamp: Clamp<N::Act>,
}

impl<N: Numerics> DepthwiseConv2dParams<'_, N> {
    /// Output channels per input channel.
    #[inline(always)]
    pub fn depth_multiplier(&self) -> usize {
        self.geometry.output_shape[3].checked_div(self.geometry.input_shape[3]).unwrap_or(0)
    }
}

/// The reference DEPTHWISE_CONV_2D for any numerics: `input` NHWC, `filter` `[1, H, W,
/// C*M]`, optional `bias` with `output_depth` entries, `output` NHWC.
pub fn depthwise_conv_2d<N: Numerics>(
    params: &DepthwiseConv2dParams<N>,
    input: &[N::Act],
    filter: &[N::Weight],
    bias: Option<&[N::Bias]>,
    output: &mut [N::Act],
) {
    let g = &params.geometry;
    debug_assert_eq!(input.len(), g.input_shape.iter().product::<usize>());
    debug_assert_eq!(filter.len(), g.filter_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), g.output_shape.iter().product::<usize>());
    scalar::depthwise_conv_2d(params, input, filter, bias, output)
}

/// DEPTHWISE_CONV_2D 16x8, reference variant (zero points are 0).
pub fn depthwise_conv_2d_s16(params: &DepthwiseConv2dParams<S16>, input: &[i16], filter: &[i8], bias: Option<&[i64]>, output: &mut [i16]) {
    depthwise_conv_2d(params, input, filter, bias, output)
}

crate::variants::variant_table! {
    /// float32 DEPTHWISE_CONV_2D's variants ([`DepthwiseConv2dF32Variant`]): function,
    /// operands, host SIMD forms, portable form.
    pub const DEPTHWISE_CONV_2D_F32: DepthwiseConv2dF32Variant(DepthwiseConv2dParams<F32>; f32, f32, f32, f32) {
        /// DEPTHWISE_CONV_2D float32, reference variant: TFLite's
        /// `reference_ops::DepthwiseConv` accumulation order (each channel over the window,
        /// rows then columns), so the same bits.
        Reference => depthwise_conv_2d_f32(input, filter, bias) portable depthwise_conv_2d::<F32>;
        /// DEPTHWISE_CONV_2D float32, [`DepthwiseConv2dF32Variant::Packed`]: `packed` from
        /// [`DepthwiseConv2dF32Variant::pack`] (it replaces the model's filter and bias).
        /// AVX-512F or AVX2+FMA on x86-64, NEON on aarch64, else the portable eight-lane form;
        /// within a stated tolerance of [`depthwise_conv_2d_f32`], not its bits
        /// (`kernels::f32x8`).
        Packed => depthwise_conv_2d_f32_packed(input, packed) simd [f32_avx512 f32_avx2 f32_neon] depthwise_conv_2d_f32_packed, portable crate::kernels::f32x8::portable::depthwise_conv_2d;
    }
}

/// DEPTHWISE_CONV_2D float32 with float16 weights kept in flash (`filter`: binary16 bits,
/// `[1, H, W, C*M]`): [`depthwise_conv_2d_f32`] on the exactly widened weights, bit for bit
/// ([`F32H`]).
pub fn depthwise_conv_2d_f32_f16w(params: &DepthwiseConv2dParams<F32>, input: &[f32], filter: &[u16], bias: Option<&[f32]>, output: &mut [f32]) {
    let DepthwiseConv2dParams { geometry, quant, clamp } = *params;
    depthwise_conv_2d(&DepthwiseConv2dParams::<F32H> { geometry, quant, clamp }, input, filter, bias, output)
}

/// [`depthwise_conv_2d_f32_f16w`] on Arm FPUs for depth multiplier 1 and windows of at most
/// 25 taps ([`DepthwiseConv2dF32Variant::f16_blocked`]): each block of eight channels'
/// float16 weights is widened once per call instead of once per output pixel
/// (`kernels::blocked_f32::depthwise_conv_2d`); the same bits.
pub fn depthwise_conv_2d_f32_f16w_blocked(params: &DepthwiseConv2dParams<F32>, input: &[f32], filter: &[u16], bias: Option<&[f32]>, output: &mut [f32]) {
    crate::kernels::blocked_f32::depthwise_conv_2d(params, input, filter, bias, output)
}

crate::variants::variant_table! {
    /// int8 DEPTHWISE_CONV_2D's variants ([`DepthwiseConv2dVariant`]): function, operands,
    /// host SIMD forms, portable form.
    pub const DEPTHWISE_CONV_2D_S8: DepthwiseConv2dVariant(DepthwiseConv2dParams<S8>; i8, i8, i32, i32) {
        /// DEPTHWISE_CONV_2D int8, reference variant.
        Reference => depthwise_conv_2d_s8(input, filter, bias) portable depthwise_conv_2d::<S8>;
        /// DEPTHWISE_CONV_2D int8, [`DepthwiseConv2dVariant::Window`]: interior windows start from
        /// `packed` ([`DepthwiseConv2dVariant::pack`]), border windows from `bias`.
        Window => depthwise_conv_2d_s8_window(input, filter, bias, packed) simd [neon vnni avx2] depthwise_window, portable fast::depthwise_window::<crate::isa::Dot>;
        /// DEPTHWISE_CONV_2D int8, [`DepthwiseConv2dVariant::Mult1`]: depth multiplier 1, depth a
        /// multiple of 4; the filter, the folded bias and the requantization are in `packed`
        /// ([`DepthwiseConv2dVariant::pack`]; the params' multiplier tables are not read).
        Mult1 => depthwise_conv_2d_s8_mult1(input, packed) portable mult1_whole, packed_requant true, rows depthwise_conv_2d_s8_mult1_rows;
        /// DEPTHWISE_CONV_2D int8, [`DepthwiseConv2dVariant::OneChannel`]: one input channel,
        /// depth multiplier a multiple of 4, dilation 1 across; everything but the input is in
        /// `packed` ([`DepthwiseConv2dVariant::pack`]).
        OneChannel => depthwise_conv_2d_s8_one_channel(input, packed) portable one_channel_whole, packed_requant true, rows depthwise_conv_2d_s8_one_channel_rows;
    }
}

/// `Mult1` on every output row.
fn mult1_whole(params: &DepthwiseConv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let rows = RowRange::whole(params.geometry.output_shape[1]);
    fast::depthwise_mult1::<crate::isa::Dot>(params, rows, input, packed, output)
}

/// `OneChannel` on every output row.
fn one_channel_whole(params: &DepthwiseConv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let rows = RowRange::whole(params.geometry.output_shape[1]);
    fast::depthwise_one_channel::<crate::isa::Dot>(params, rows, input, packed, output)
}

/// [`depthwise_conv_2d_s8_mult1`] for output rows `rows` only, the input from row
/// `rows.r0` (the overlap row driver, `kernels::overlap::conv_row_ranges`); `params` the
/// whole operator's.
pub fn depthwise_conv_2d_s8_mult1_rows(params: &DepthwiseConv2dParams<S8>, rows: RowRange, input: &[i8], packed: &[i32], output: &mut [i8]) {
    fast::depthwise_mult1::<crate::isa::Dot>(params, rows, input, packed, output)
}

/// [`depthwise_conv_2d_s8_one_channel`] for output rows `rows` only, as
/// [`depthwise_conv_2d_s8_mult1_rows`].
pub fn depthwise_conv_2d_s8_one_channel_rows(params: &DepthwiseConv2dParams<S8>, rows: RowRange, input: &[i8], packed: &[i32], output: &mut [i8]) {
    fast::depthwise_one_channel::<crate::isa::Dot>(params, rows, input, packed, output)
}

/// The implementations of int8 DEPTHWISE_CONV_2D (16x8 has only the reference).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthwiseConv2dVariant {
    /// [`depthwise_conv_2d_s8`]: any geometry.
    Reference,
    /// [`depthwise_conv_2d_s8_window`]: depth multiplier `1..=64`, a non-empty window.
    Window,
    /// [`depthwise_conv_2d_s8_mult1`]: depth multiplier 1, depth a multiple of 4, a
    /// non-empty window, and the packed requantization exact for every channel
    /// (`crate::kernels::requant::packed_requant_ok`).
    Mult1,
    /// [`depthwise_conv_2d_s8_one_channel`]: one input channel at least 4 wide, depth
    /// multiplier a multiple of 4, dilation 1 across, a non-empty window, the packed requantization exact (the
    /// depthwise layer of micro_speech: 8 outputs of a 10x8 window).
    OneChannel,
}

impl DepthwiseConv2dVariant {
    /// The fastest variant for this int8 depthwise convolution (its geometry, and for the
    /// variants with a packed requantization, the weights and bias that bound the
    /// accumulators) on `target`. `Mult1` and `OneChannel` are made for the Arm DSP
    /// micro-kernels (SMLABB/SMLAD lanes, packed requantization); a host takes `Window`,
    /// which has an AVX2 form.
    #[cfg(feature = "prepare")]
    pub fn select(p: &DepthwiseConv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, target: TargetClass) -> DepthwiseConv2dVariant {
        let g = &p.geometry;
        let [_, f_h, f_w, out_d] = g.filter_shape;
        let in_d = g.input_shape[3];
        let mult = out_d.checked_div(in_d).unwrap_or(0);
        let whole = in_d * mult == out_d && f_h * f_w > 0 && filter.len() == f_h * f_w * out_d;
        let packed_requant = || {
            (0..out_d).all(|c| {
                let at = |t: &[i32]| t.get(c).or(t.first()).copied();
                let (Some(m), Some(s)) = (at(p.quant.output_multiplier), at(p.quant.output_shift)) else { return false };
                let b = bias.and_then(|b| b.get(c)).copied().unwrap_or(0);
                let bound = crate::kernels::requant::acc_bound(b, filter.iter().skip(c).step_by(out_d.max(1)).copied(), p.quant.input_offset);
                crate::kernels::requant::packed_requant_ok(m, s, bound)
            })
        };
        let arm = !target.is_host();
        if arm && whole && in_d == 1 && g.input_shape[2] >= fast::TAP_GROUP && mult % fast::LANES == 0 && g.dilation_width == 1 && packed_requant() {
            DepthwiseConv2dVariant::OneChannel
        } else if arm && whole && mult == 1 && out_d % fast::LANES == 0 && packed_requant() {
            DepthwiseConv2dVariant::Mult1
        } else if whole && (1..=fast::CHANNEL_BLOCK).contains(&mult) {
            DepthwiseConv2dVariant::Window
        } else {
            DepthwiseConv2dVariant::Reference
        }
    }

    /// The length of [`DepthwiseConv2dVariant::pack`]'s table (0: none).
    #[cfg(feature = "prepare")]
    pub fn packed_len(self, g: &ConvGeometry) -> usize {
        let [_, f_h, f_w, out_d] = g.filter_shape;
        let groups = out_d / fast::LANES;
        match self {
            DepthwiseConv2dVariant::Reference => 0,
            DepthwiseConv2dVariant::Window => out_d,
            DepthwiseConv2dVariant::Mult1 => groups * (f_h * f_w + fast::GROUP_TAIL),
            DepthwiseConv2dVariant::OneChannel => groups * (f_h * f_w.div_ceil(fast::TAP_GROUP) * fast::LANES + fast::GROUP_TAIL),
        }
    }

    /// The compile-time packing of this variant. `Window`: per output channel `bias[c] +
    /// input_offset * sum over the window of filter[.., c]` (wrapping,
    /// [`crate::prepare::fold_input_offset`]); the kernel also takes the model's filter and
    /// bias. `Mult1`: per group of four channels `4j..4j + 4`, for each tap `t` (row-major)
    /// the word of `filter[t * depth + 4j..][..4]` (little endian, one load feeds the four
    /// lanes), then the group's four folded biases and its packed requantization
    /// (`crate::kernels::requant::PACKED_REQUANT_WORDS`). `OneChannel`: per group of four
    /// channels, per filter row, per four taps `4g..4g + 4` of the row (taps past the
    /// filter's width have weight 0), the four words of `crate::kernels::dot::Dot::mac4x4_row`
    /// (byte `[w(ta, c), w(ta, c + 1), w(tb, c), w(tb, c + 1)]` for tap pairs (0, 2) and
    /// (1, 3), channel pairs (0, 1) and (2, 3)), then the folded biases and the
    /// requantization as for `Mult1`.
    #[cfg(feature = "prepare")]
    pub fn pack(self, p: &DepthwiseConv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
        let g = &p.geometry;
        let [_, f_h, f_w, out_d] = g.filter_shape;
        debug_assert_eq!(packed.len(), self.packed_len(g));
        let folded = |c: usize| folded_bias(p, filter, bias, c);
        let word = |b: [i8; 4]| i32::from_le_bytes(b.map(|v| v as u8));
        let tail = |c0: usize, out: &mut [i32]| pack_group_tail(p, filter, bias, c0, out);
        match self {
            DepthwiseConv2dVariant::Reference => {}
            DepthwiseConv2dVariant::Window => {
                for (c, v) in packed.iter_mut().enumerate() {
                    *v = folded(c);
                }
            }
            DepthwiseConv2dVariant::Mult1 => {
                let taps = f_h * f_w;
                for (j, group) in packed.chunks_exact_mut(taps + fast::GROUP_TAIL).enumerate() {
                    let c0 = j * fast::LANES;
                    let (words, rest) = group.split_at_mut(taps);
                    for (t, v) in words.iter_mut().enumerate() {
                        let w = &filter[t * out_d + c0..][..fast::LANES];
                        *v = word([w[0], w[1], w[2], w[3]]);
                    }
                    tail(c0, rest);
                }
            }
            DepthwiseConv2dVariant::OneChannel => {
                let per_row = f_w.div_ceil(fast::TAP_GROUP);
                let weights = f_h * per_row * fast::LANES;
                // Weight of tap (r, k) for channel c, 0 past the filter's width.
                let w = |r: usize, k: usize, c: usize| if k < f_w { filter[(r * f_w + k) * out_d + c] } else { 0 };
                for (j, group) in packed.chunks_exact_mut(weights + fast::GROUP_TAIL).enumerate() {
                    let c0 = j * fast::LANES;
                    let (words, rest) = group.split_at_mut(weights);
                    for (i, quad) in words.chunks_exact_mut(fast::LANES).enumerate() {
                        let (r, k0) = (i / per_row, i % per_row * fast::TAP_GROUP);
                        // [taps (0, 2) | (1, 3)] x [channels (0, 1) | (2, 3)].
                        for (q, v) in quad.iter_mut().enumerate() {
                            let (ta, c) = (k0 + q / 2, c0 + q % 2 * 2);
                            *v = word([w(r, ta, c), w(r, ta, c + 1), w(r, ta + 2, c), w(r, ta + 2, c + 1)]);
                        }
                    }
                    tail(c0, rest);
                }
            }
        }
    }
}

/// Channel `c`'s bias plus `input_offset` times the sum of its taps (the filter is
/// `[1, h, w, out_d]`, wrapping: [`crate::prepare::fold_input_offset`]).
#[cfg(feature = "prepare")]
fn folded_bias(p: &DepthwiseConv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, c: usize) -> i32 {
    let out_d = p.geometry.filter_shape[3];
    let taps = filter.iter().skip(c).step_by(out_d.max(1)).copied();
    crate::prepare::fold_input_offset(taps, bias.map_or(0, |b| b[c]), p.quant.input_offset)
}

/// The tail of a packed group of four channels from `c0` (`Mult1`, `OneChannel` and the
/// int4 `Mult1` form): the four folded biases, then the packed requantization
/// (`fast::GROUP_TAIL` words in `out`).
#[cfg(feature = "prepare")]
pub(crate) fn pack_group_tail(p: &DepthwiseConv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, c0: usize, out: &mut [i32]) {
    let (init, rq) = out.split_at_mut(fast::LANES);
    for (j, v) in init.iter_mut().enumerate() {
        *v = folded_bias(p, filter, bias, c0 + j);
    }
    crate::kernels::requant::pack_requant4(&p.quant, c0, rq);
}

crate::variants::variant_table! {
    /// Legacy uint8 DEPTHWISE_CONV_2D's variants ([`DepthwiseConv2dU8Variant`]): function,
    /// operands, host SIMD forms, portable form.
    pub const DEPTHWISE_CONV_2D_U8: DepthwiseConv2dU8Variant(DepthwiseConv2dParams<U8>; u8, u8, i32, i32) {
        /// DEPTHWISE_CONV_2D legacy uint8, reference variant ([`U8`]: TFLite's uint8
        /// `reference_ops::DepthwiseConv`, whose reference rounding is
        /// `MultiplyByQuantizedMultiplier`).
        Reference => depthwise_conv_2d_u8(input, filter, bias) portable depthwise_conv_2d::<U8>;
        /// DEPTHWISE_CONV_2D legacy uint8 on hosts ([`DepthwiseConv2dU8Variant::Window`]): the
        /// model's filter and bias as they are; the host SIMD form where there is one (AVX2:
        /// depth multiplier 1), else the reference loop nest.
        Window => depthwise_conv_2d_u8_window(input, filter, bias) simd [vnni avx2] depthwise_conv_2d_u8_window, portable depthwise_conv_2d::<U8>;
    }
}

/// The implementations of legacy uint8 DEPTHWISE_CONV_2D (no packed table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthwiseConv2dU8Variant {
    /// [`depthwise_conv_2d_u8`]: Arm and every other microcontroller.
    Reference,
    /// [`depthwise_conv_2d_u8_window`]: hosts.
    Window,
}

impl DepthwiseConv2dU8Variant {
    /// The variant for a legacy uint8 depthwise convolution on `target`: `Window` on hosts,
    /// else `Reference`.
    #[cfg(feature = "prepare")]
    pub fn select(target: TargetClass) -> DepthwiseConv2dU8Variant {
        if target.is_host() {
            DepthwiseConv2dU8Variant::Window
        } else {
            DepthwiseConv2dU8Variant::Reference
        }
    }
}

/// The implementations of float32 DEPTHWISE_CONV_2D.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthwiseConv2dF32Variant {
    /// [`depthwise_conv_2d_f32`]: TFLite's order and bits; depth multipliers other than 1,
    /// empty windows, and every Arm target.
    Reference,
    /// [`depthwise_conv_2d_f32_packed`]: depth multiplier 1 on a host; 4 pixels x 8
    /// channels per block.
    Packed,
}

impl DepthwiseConv2dF32Variant {
    /// The variant for this float32 depthwise convolution on `target`.
    #[cfg(feature = "prepare")]
    pub fn select(p: &DepthwiseConv2dParams<F32>, target: TargetClass) -> DepthwiseConv2dF32Variant {
        let g = &p.geometry;
        let [_, f_h, f_w, out_d] = g.filter_shape;
        if !target.is_host() || out_d != g.input_shape[3] || f_h * f_w == 0 || out_d == 0 {
            return DepthwiseConv2dF32Variant::Reference;
        }
        DepthwiseConv2dF32Variant::Packed
    }

    /// Whether the `Reference` variant with float16 weights kept in flash
    /// (`keep_f16_weights`, Arm) runs as [`depthwise_conv_2d_f32_f16w_blocked`] rather than
    /// [`depthwise_conv_2d_f32_f16w`]: depth multiplier 1, a window of at most 25 taps.
    pub fn f16_blocked(p: &DepthwiseConv2dParams<F32>) -> bool {
        crate::kernels::blocked_f32::depthwise_applies(p)
    }

    /// The length of [`DepthwiseConv2dF32Variant::pack`]'s table.
    #[cfg(feature = "prepare")]
    pub fn packed_len(self, g: &ConvGeometry) -> usize {
        match self {
            DepthwiseConv2dF32Variant::Reference => 0,
            DepthwiseConv2dF32Variant::Packed => crate::kernels::f32x8::depthwise_packed_len(g),
        }
    }

    /// The compile-time packing: per block of 8 channels, their biases, then their weights
    /// per tap.
    #[cfg(feature = "prepare")]
    pub fn pack(self, p: &DepthwiseConv2dParams<F32>, filter: &[f32], bias: Option<&[f32]>, packed: &mut [f32]) {
        debug_assert_eq!(packed.len(), self.packed_len(&p.geometry));
        match self {
            DepthwiseConv2dF32Variant::Reference => {}
            DepthwiseConv2dF32Variant::Packed => crate::kernels::f32x8::depthwise_pack(&p.geometry, filter, bias, packed),
        }
    }
}
