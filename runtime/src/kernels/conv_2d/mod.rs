//! CONV_2D: int8 (int8 activations and weights, int32 bias) and 16x8 (int16 activations,
//! int8 weights, int64 bias), per-channel requantization.
//!
//! Bit-exact with TFLite Micro's `reference_integer_ops::ConvPerChannel` (int8, and int16
//! with a 64-bit accumulator), which TFLite Micro uses for every integer CONV_2D, per-tensor
//! weights included (their scale is broadcast to every output channel at prepare time).
//!
//! Variants ([`Conv2dVariant`]): the compiler picks one per op at compile time
//! ([`Conv2dVariant::select`]), packs the weights for it ([`Conv2dVariant::pack`]) and
//! emits a direct call to its function; nothing is decided per call. See `docs/KERNELS.md`.
//!
//! | variant | function | when |
//! |---|---|---|
//! | `Reference` | [`conv_2d_s8`], [`conv_2d_s16`] ([`conv_2d`], generic over the numerics) | 16x8, grouped, empty windows |
//! | `Gemm` | [`conv_2d_s8_gemm`] | ungrouped int8, block requantization exact (every real layer), window of at most [`gemm::CHUNK_TAPS`] taps (rows padded to whole words) |
//! | `GemmChunked` | [`conv_2d_s8_gemm_chunked`] | as `Gemm`, longer windows |
//! | `Pointwise` | [`conv_2d_s8_pointwise`] | other 1x1, no padding |
//! | `Window` | [`conv_2d_s8_window`] | any other ungrouped int8 window |
//! | `Wide` | [`conv_2d_s8_wide`] ([`Conv2dU8Variant::Wide`]: [`conv_2d_u8_wide`]) | hosts but x86-64 (and uint8 on x86-64): ungrouped windows of at most [`wide::MAX_TAPS`] taps |
//! | `Quad` | [`conv_2d_s8_quad`] | x86-64: ungrouped int8 windows of at most [`quad::MAX_TAPS`] taps |

pub mod fast;
pub mod gemm;
pub mod quad;
pub mod scalar;
pub mod wide;
#[cfg(test)]
pub(crate) mod tests;

#[cfg(feature = "prepare")]
use crate::isa::TargetClass;
use crate::kernels::numerics::{Clamp, Numerics, F32, F32H, S16, S8, U8};
pub use crate::kernels::window::ConvGeometry;

/// Everything CONV_2D needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Conv2dParams<'a, N: Numerics> {
    /// Kernel, stride, dilation, padding and tensor sizes.
    pub geometry: ConvGeometry,
    /// The numerics' per-channel requantization, offsets and clamp (`N::Quant`).
    pub quant: N::Quant<'a>,
    /// Fused-activation clamp.
    pub clamp: Clamp<N::Act>,
}

/// The reference CONV_2D for any numerics: `input` NHWC, `filter` OHWI, `bias` (optional)
/// one per output channel, `output` NHWC.
pub fn conv_2d<N: Numerics>(params: &Conv2dParams<N>, input: &[N::Act], filter: &[N::Weight], bias: Option<&[N::Bias]>, output: &mut [N::Act]) {
    let g = &params.geometry;
    debug_assert_eq!(input.len(), g.input_shape.iter().product::<usize>());
    debug_assert_eq!(filter.len(), g.filter_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), g.output_shape.iter().product::<usize>());
    scalar::conv_2d(params, input, filter, bias, output)
}

/// CONV_2D 16x8, reference variant ([`conv_2d`]; zero points are 0, TFLite requires it).
pub fn conv_2d_s16(params: &Conv2dParams<S16>, input: &[i16], filter: &[i8], bias: Option<&[i64]>, output: &mut [i16]) {
    conv_2d(params, input, filter, bias, output)
}

crate::variants::variant_table! {
    /// float32 CONV_2D's variants ([`Conv2dF32Variant`]): function, operands, host SIMD
    /// forms, portable form.
    pub const CONV_2D_F32: Conv2dF32Variant(Conv2dParams<F32>; f32, f32, f32, f32) {
        /// CONV_2D float32, reference variant ([`conv_2d`]): TFLite's `reference_ops::Conv`
        /// accumulation order, so the same bits.
        Reference => conv_2d_f32(input, filter, bias) portable conv_2d::<F32>;
        /// CONV_2D float32, [`Conv2dF32Variant::Blocked`] (Arm FPUs): `packed` from
        /// [`Conv2dF32Variant::pack`] (the filter in blocks of four output channels), the
        /// model's bias as it is. TFLite's order per output, so [`conv_2d_f32`]'s bits
        /// (`kernels::blocked_f32`).
        Blocked => conv_2d_f32_blocked(input, packed, bias) portable crate::kernels::blocked_f32::conv_2d;
        /// CONV_2D float32, [`Conv2dF32Variant::Packed`]: `packed` from
        /// [`Conv2dF32Variant::pack`] (it replaces the model's filter and bias). On x86-64
        /// AVX-512F when the selected implementation includes x86-64-v4, else AVX2+FMA; NEON
        /// on aarch64; else the portable eight-lane form; within a stated tolerance of
        /// [`conv_2d_f32`], not its bits (`kernels::f32x8`).
        Packed => conv_2d_f32_packed(input, packed) simd [f32_avx512 f32_avx2 f32_neon] conv_2d_f32_packed, portable crate::kernels::f32x8::portable::conv_2d;
    }
}

/// CONV_2D float32 with float16 weights kept in flash (`filter`: binary16 bits, OHWI):
/// [`conv_2d_f32`] on the exactly widened weights, bit for bit ([`F32H`]), for the same
/// params.
pub fn conv_2d_f32_f16w(params: &Conv2dParams<F32>, input: &[f32], filter: &[u16], bias: Option<&[f32]>, output: &mut [f32]) {
    let Conv2dParams { geometry, quant, clamp } = *params;
    conv_2d(&Conv2dParams::<F32H> { geometry, quant, clamp }, input, filter, bias, output)
}

crate::variants::variant_table! {
    /// int8 CONV_2D's variants ([`Conv2dVariant`]): function, operands, host SIMD forms,
    /// portable form.
    pub const CONV_2D_S8: Conv2dVariant(Conv2dParams<S8>; i8, i8, i32, i32) {
        /// CONV_2D int8, reference variant ([`conv_2d`]).
        Reference => conv_2d_s8(input, filter, bias) portable conv_2d::<S8>;
        /// CONV_2D int8, [`Conv2dVariant::Gemm`]: `packed` from [`Conv2dVariant::pack`] (it
        /// replaces the model's filter and bias). Windows of at most [`gemm::CHUNK_TAPS`] taps
        /// only (what [`Conv2dVariant::select`] gives it; a longer one is out of its bounds).
        Gemm => conv_2d_s8_gemm(input, packed) portable gemm::conv_gemm::<crate::isa::Dot>, packed_requant true;
        /// CONV_2D int8, [`Conv2dVariant::GemmChunked`]: `packed` from [`Conv2dVariant::pack`]
        /// (the same layout as `Gemm`'s); any window, in chunks of [`gemm::CHUNK_TAPS`] taps.
        GemmChunked => conv_2d_s8_gemm_chunked(input, packed) portable gemm::conv_gemm_chunked::<crate::isa::Dot>, packed_requant true;
        /// CONV_2D int8, [`Conv2dVariant::GemmPw`]: `Gemm` for a pointwise layer, `packed` as
        /// `Gemm`'s.
        GemmPw => conv_2d_s8_gemm_pw(input, packed) portable gemm::conv_gemm_pw::<crate::isa::Dot>, packed_requant true;
        /// CONV_2D int8, [`Conv2dVariant::GemmChunkedPw`]: `GemmChunked` for a pointwise
        /// layer, `packed` as `Gemm`'s.
        GemmChunkedPw => conv_2d_s8_gemm_chunked_pw(input, packed) portable gemm::conv_gemm_chunked_pw::<crate::isa::Dot>, packed_requant true;
        /// CONV_2D int8, [`Conv2dVariant::Pointwise`]: `packed` from [`Conv2dVariant::pack`].
        Pointwise => conv_2d_s8_pointwise(input, filter, packed) simd [neon neon_dotprod vnni avx2] conv_2d_pointwise, portable fast::conv_1x1::<crate::isa::Dot>;
        /// CONV_2D int8, [`Conv2dVariant::Window`]: interior windows start from `packed` (from
        /// [`Conv2dVariant::pack`]), border windows from `bias`, exactly as the reference.
        Window => conv_2d_s8_window(input, filter, bias, packed) simd [vnni avx2] conv_2d_window, portable fast::conv_window::<crate::isa::Dot>;
        /// CONV_2D int8, [`Conv2dVariant::Wide`]: `packed` from [`Conv2dVariant::pack`] (it
        /// replaces the model's filter and bias).
        Wide => conv_2d_s8_wide(input, packed) simd [neon vnni avx2] conv_2d_s8_wide, portable wide::conv_wide_s8;
        /// CONV_2D int8, [`Conv2dVariant::Quad`]: `packed` from [`Conv2dVariant::pack`] (it
        /// replaces the model's filter and bias).
        Quad => conv_2d_s8_quad(input, packed) simd [vnni avxvnni avx2] conv_2d_s8_quad, portable quad::conv_quad;
    }
}

/// The implementations of int8 CONV_2D (16x8 has only the reference).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conv2dVariant {
    /// [`conv_2d_s8`]: any geometry (grouped convolutions, empty windows).
    Reference,
    /// [`conv_2d_s8_gemm`]: ungrouped, two pixels times two channels per block from an
    /// interleaved packed filter, when `gemm::requant_is_exact` (right shifts,
    /// `QuantizeMultiplier` multipliers, accumulators that cannot come near 2^31); a window
    /// of at most one chunk ([`gemm::CHUNK_TAPS`] taps, each window row padded to whole
    /// words), widened once per pixel pair.
    Gemm,
    /// [`conv_2d_s8_gemm_chunked`]: `Gemm` for a window of more than one chunk, widened in
    /// chunks, the accumulators of [`gemm`]'s blocks of channel pairs on the stack between
    /// chunks. A separate variant (and function), so that a model without such windows does
    /// not link the chunked path.
    GemmChunked,
    /// [`conv_2d_s8_gemm_pw`]: `Gemm` for a pointwise layer (1x1 windows on whole words,
    /// `gemm::is_pointwise`): a window inside the input is its pixel's channels, taken
    /// without the row walk. Its own variant (and function) so that a model links only the
    /// loops its layers use.
    GemmPw,
    /// [`conv_2d_s8_gemm_chunked_pw`]: `GemmChunked` for a pointwise layer, as `GemmPw`.
    GemmChunkedPw,
    /// [`conv_2d_s8_pointwise`]: 1x1 filter, no padding, every window inside the input.
    Pointwise,
    /// [`conv_2d_s8_window`]: ungrouped, any window.
    Window,
    /// [`conv_2d_s8_wide`] (and [`conv_2d_u8_wide`]): hosts only; ungrouped windows of at
    /// most [`wide::MAX_TAPS`] taps, the weights widened to int16 and packed per block of
    /// eight output channels (layout in [`wide`]'s module doc).
    Wide,
    /// [`conv_2d_s8_quad`]: x86-64 only ([`TargetClass::X86`]); `Wide`'s windows, the
    /// weights as int8 quads of taps per block of sixteen output channels for `vpdpbusd`,
    /// the activations fed as `x + 128` (layout in [`quad`]'s module doc).
    Quad,
}

impl Conv2dVariant {
    /// The fastest variant for this int8 convolution, its weights and bias on `target`.
    /// `Gemm`'s interleaved layout and packed requantization are made for the Arm DSP
    /// micro-kernels; x86-64 takes `Quad`, another host `Wide` (AVX2 form: several pixels
    /// times sixteen channels per block), or `Pointwise` / `Window` for windows longer than it takes.
    #[cfg(feature = "prepare")]
    pub fn select(p: &Conv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, target: TargetClass) -> Conv2dVariant {
        let g = &p.geometry;
        let in_d = g.input_shape[3];
        let [out_d, f_h, f_w, f_d] = g.filter_shape;
        if f_d != in_d || f_h * f_w * f_d == 0 || out_d == 0 {
            return Conv2dVariant::Reference;
        }
        if !target.is_host() && gemm::requant_is_exact(p, filter, bias) {
            return match (gemm::one_chunk(g), gemm::is_pointwise(g)) {
                (true, false) => Conv2dVariant::Gemm,
                (false, false) => Conv2dVariant::GemmChunked,
                (true, true) => Conv2dVariant::GemmPw,
                (false, true) => Conv2dVariant::GemmChunkedPw,
            };
        }
        if target == TargetClass::X86 && quad::fits(g) {
            return Conv2dVariant::Quad;
        }
        if target.is_host() && wide::fits(g) {
            return Conv2dVariant::Wide;
        }
        let [_, in_h, in_w, _] = g.input_shape;
        let [_, out_h, out_w, _] = g.output_shape;
        let inside = |out: usize, stride: usize, size: usize| out == 0 || (out - 1) * stride < size;
        if f_h == 1
            && f_w == 1
            && g.pad_top == 0
            && g.pad_left == 0
            && inside(out_h, g.stride_height, in_h)
            && inside(out_w, g.stride_width, in_w)
        {
            return Conv2dVariant::Pointwise;
        }
        Conv2dVariant::Window
    }

    /// The length of [`Conv2dVariant::pack`]'s table (0: the variant reads the model's
    /// bias as is).
    #[cfg(feature = "prepare")]
    pub fn packed_len(self, g: &ConvGeometry) -> usize {
        match self {
            Conv2dVariant::Reference => 0,
            Conv2dVariant::Gemm | Conv2dVariant::GemmChunked | Conv2dVariant::GemmPw | Conv2dVariant::GemmChunkedPw => gemm::packed_len(g),
            Conv2dVariant::Wide => wide::packed_len(g),
            Conv2dVariant::Quad => quad::packed_len(g),
            Conv2dVariant::Pointwise | Conv2dVariant::Window => g.filter_shape[0],
        }
    }

    /// The compile-time packing of this variant into `packed` ([`Conv2dVariant::packed_len`]
    /// entries). `Window` reads the model's OHWI filter as is and one int32 per output
    /// channel, `bias[c] + input_offset * sum(filter[c])` (wrapping,
    /// [`crate::prepare::fold_input_offset`]), so that windows inside the input accumulate
    /// `sum(w * x)` with no per-tap offset. `Gemm` and `GemmChunked` pack those folded biases and the filter
    /// itself, per pair of output channels (the layout is in [`gemm`]'s module doc).
    #[cfg(feature = "prepare")]
    pub fn pack(self, p: &Conv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
        let [out_d, f_h, f_w, f_d] = p.geometry.filter_shape;
        let row = f_h * f_w * f_d;
        debug_assert_eq!(packed.len(), self.packed_len(&p.geometry));
        match self {
            Conv2dVariant::Reference => {}
            Conv2dVariant::Gemm | Conv2dVariant::GemmChunked | Conv2dVariant::GemmPw | Conv2dVariant::GemmChunkedPw => gemm::pack(p, filter, bias, packed),
            Conv2dVariant::Wide => wide::pack_s8(p, filter, bias, packed),
            Conv2dVariant::Quad => quad::pack(p, filter, bias, packed),
            Conv2dVariant::Pointwise | Conv2dVariant::Window => {
                for (c, v) in packed.iter_mut().enumerate().take(out_d) {
                    let taps = filter[c * row..][..row].iter().copied();
                    *v = crate::prepare::fold_input_offset(taps, bias.map_or(0, |b| b[c]), p.quant.input_offset);
                }
            }
        }
    }
}

crate::variants::variant_table! {
    /// Legacy uint8 CONV_2D's variants ([`Conv2dU8Variant`]): function, operands, host SIMD
    /// forms, portable form.
    pub const CONV_2D_U8: Conv2dU8Variant(Conv2dParams<U8>; u8, u8, i32, i32) {
        /// CONV_2D legacy uint8, reference variant ([`conv_2d`] with [`U8`]: int8's arithmetic
        /// through the zero-point offsets, TFLite's uint8 `reference_ops::Conv`).
        Reference => conv_2d_u8(input, filter, bias) portable conv_2d::<U8>;
        /// CONV_2D legacy uint8, [`Conv2dU8Variant::Wide`]: `packed` from
        /// [`Conv2dU8Variant::pack`] (it replaces the model's filter and bias).
        Wide => conv_2d_u8_wide(input, packed) simd [neon vnni avx2] conv_2d_u8_wide, portable wide::conv_wide_u8;
    }
}

/// The implementations of legacy uint8 CONV_2D.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conv2dU8Variant {
    /// [`conv_2d_u8`]: TFLite's order; every target but the hosts' fitting windows.
    Reference,
    /// [`conv_2d_u8_wide`]: hosts, ungrouped windows of at most [`wide::MAX_TAPS`] taps
    /// (the int8 `Wide` driver on uint8).
    Wide,
}

impl Conv2dU8Variant {
    /// The variant for a legacy uint8 convolution on `target`: `Wide` on hosts when the
    /// window fits it, else `Reference`.
    #[cfg(feature = "prepare")]
    pub fn select(p: &Conv2dParams<U8>, target: TargetClass) -> Conv2dU8Variant {
        if target.is_host() && wide::fits(&p.geometry) {
            Conv2dU8Variant::Wide
        } else {
            Conv2dU8Variant::Reference
        }
    }

    /// The length of [`Conv2dU8Variant::pack`]'s table: `Wide`'s (as int8's), none for
    /// `Reference`.
    #[cfg(feature = "prepare")]
    pub fn packed_len(self, g: &ConvGeometry) -> usize {
        match self {
            Conv2dU8Variant::Reference => 0,
            Conv2dU8Variant::Wide => Conv2dVariant::Wide.packed_len(g),
        }
    }

    /// The compile-time packing: `Wide`'s table (the filter with its offset, the folded
    /// bias), nothing for `Reference`.
    #[cfg(feature = "prepare")]
    pub fn pack(self, p: &Conv2dParams<U8>, filter: &[u8], bias: Option<&[i32]>, packed: &mut [i32]) {
        debug_assert_eq!(packed.len(), self.packed_len(&p.geometry));
        if self == Conv2dU8Variant::Wide {
            wide::pack_u8(p, filter, bias, packed)
        }
    }
}

/// [`conv_2d_f32_blocked`] with float16 weights kept in flash (`keep_f16_weights`):
/// `packed` is [`crate::kernels::blocked_f32::pack`] of the binary16 filter, each weight
/// widened exactly as it is read; the same bits as [`conv_2d_f32`] on the widened filter.
pub fn conv_2d_f32_f16w_blocked(params: &Conv2dParams<F32>, input: &[f32], packed: &[u16], bias: Option<&[f32]>, output: &mut [f32]) {
    let g = &params.geometry;
    debug_assert_eq!(input.len(), g.input_shape.iter().product::<usize>());
    debug_assert_eq!(output.len(), g.output_shape.iter().product::<usize>());
    crate::kernels::blocked_f32::conv_2d(params, input, packed, bias, output)
}

/// The implementations of float32 CONV_2D.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conv2dF32Variant {
    /// [`conv_2d_f32`]: TFLite's order and bits; grouped convolutions, empty windows.
    Reference,
    /// [`conv_2d_f32_blocked`]: ungrouped, on Arm (a scalar FPU: the Cortex-M4F); four
    /// output channels per pass from the packed filter, TFLite's bits.
    Blocked,
    /// [`conv_2d_f32_packed`]: ungrouped, on a host; 4 pixels x 16 output channels per block
    /// from the packed filter.
    Packed,
}

impl Conv2dF32Variant {
    /// The variant for this float32 convolution on `target`.
    #[cfg(feature = "prepare")]
    pub fn select(p: &Conv2dParams<F32>, target: TargetClass) -> Conv2dF32Variant {
        let g = &p.geometry;
        let [out_d, f_h, f_w, f_d] = g.filter_shape;
        if f_d != g.input_shape[3] || f_h * f_w * f_d == 0 || out_d == 0 {
            return Conv2dF32Variant::Reference;
        }
        if !target.is_host() {
            return Conv2dF32Variant::Blocked;
        }
        Conv2dF32Variant::Packed
    }

    /// The length of [`Conv2dF32Variant::pack`]'s table (0: the reference reads the model's
    /// filter and bias).
    #[cfg(feature = "prepare")]
    pub fn packed_len(self, g: &ConvGeometry) -> usize {
        match self {
            Conv2dF32Variant::Reference => 0,
            Conv2dF32Variant::Blocked => crate::kernels::blocked_f32::packed_len(g.filter_shape[0], g.filter_shape[1..].iter().product()),
            Conv2dF32Variant::Packed => crate::kernels::f32x8::conv_packed_len(g),
        }
    }

    /// The compile-time packing. `Packed`: per block of 16 output channels, their biases,
    /// then the 16 channels' weights for every tap (the layout is in `kernels::f32x8`'s
    /// module doc). `Blocked`: per block of 4 output channels, their weights for every tap
    /// (no bias).
    #[cfg(feature = "prepare")]
    pub fn pack(self, p: &Conv2dParams<F32>, filter: &[f32], bias: Option<&[f32]>, packed: &mut [f32]) {
        debug_assert_eq!(packed.len(), self.packed_len(&p.geometry));
        match self {
            Conv2dF32Variant::Reference => {}
            Conv2dF32Variant::Blocked => {
                let [out_d, f_h, f_w, f_d] = p.geometry.filter_shape;
                crate::kernels::blocked_f32::pack(out_d, f_h * f_w * f_d, filter, packed)
            }
            Conv2dF32Variant::Packed => crate::kernels::f32x8::conv_pack(&p.geometry, filter, bias, packed),
        }
    }
}
