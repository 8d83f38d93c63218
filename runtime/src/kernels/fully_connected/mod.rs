//! FULLY_CONNECTED: int8 (int32 bias) and 16x8 (int16 activations, int64 bias), int8
//! weights.
//!
//! Bit-exact with TFLite Micro's integer paths: `reference_integer_ops::FullyConnected`
//! (per-tensor weights: one multiplier, `weights_offset = -filter_zero_point`) and
//! `FullyConnectedPerChannel` (per-channel weights, which TFLite Micro supports for int8;
//! it ignores the filter zero point), int8 and int16 (64-bit accumulator). Both are this
//! kernel: per-channel is `weights_offset = 0` with one multiplier per unit.
//! `keep_num_dims` only affects shapes.
//!
//! Variants ([`FullyConnectedVariant`], chosen by the compiler per op): `Reference`
//! ([`fully_connected_s8`], [`fully_connected_s16`], one generic loop nest
//! [`fully_connected`]), `Dot4` ([`fully_connected_s8_dot4`]: int8, symmetric weights,
//! four units per pass with the folded bias of [`FullyConnectedVariant::pack`]) and
//! `Interleaved` ([`fully_connected_s8_interleaved`]: the same with the weights interleaved
//! per four units at compile time and the requantization specialised).

pub mod fast;
#[cfg(target_arch = "x86_64")]
pub(crate) mod quad;
pub mod scalar;
#[cfg(test)]
mod tests;

#[cfg(feature = "prepare")]
use crate::isa::TargetClass;
use crate::kernels::numerics::{Clamp, Numerics, F32, F32H, S16, S8};

/// The geometry of FULLY_CONNECTED.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FullyConnectedGeometry {
    /// Rows of the input (`output` flat size / `output_depth`).
    pub batches: usize,
    /// Input depth: the weights' last dimension (`accum_depth`).
    pub input_depth: usize,
    /// Units: the output's last dimension.
    pub output_depth: usize,
}

/// Everything FULLY_CONNECTED needs besides the tensors; computed by the compiler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FullyConnectedParams<'a, N: Numerics> {
    /// Batch, input depth and output depth.
    pub geometry: FullyConnectedGeometry,
    /// `-filter_zero_point` for per-tensor weights (0 in practice: TFLite requires
    /// symmetric int8 weights); 0 for per-channel weights.
    pub weights_offset: i32,
    /// The multipliers: length 1 (per-tensor:
    /// [`crate::prepare::fully_connected_tensor_multiplier`]) or `output_depth`
    /// (per-channel: [`crate::prepare::conv_channel_multiplier`]).
    pub quant: N::Quant<'a>,
    /// Fused-activation clamp.
    pub clamp: Clamp<N::Act>,
}

/// The reference FULLY_CONNECTED for any numerics: `input` is `[batches, input_depth]`,
/// `filter` is `[output_depth, input_depth]` (row-major), optional `bias` has
/// `output_depth` entries, `output` is `[batches, output_depth]`.
pub fn fully_connected<N: Numerics>(
    params: &FullyConnectedParams<N>,
    input: &[N::Act],
    filter: &[N::Weight],
    bias: Option<&[N::Bias]>,
    output: &mut [N::Act],
) {
    let g = &params.geometry;
    debug_assert_eq!(input.len(), g.batches * g.input_depth);
    debug_assert!(filter.len() >= g.output_depth * g.input_depth);
    debug_assert_eq!(output.len(), g.batches * g.output_depth);
    scalar::fully_connected(params, input, filter, bias, output)
}

/// FULLY_CONNECTED 16x8, reference variant (zero points of the activations are 0).
pub fn fully_connected_s16(params: &FullyConnectedParams<S16>, input: &[i16], filter: &[i8], bias: Option<&[i64]>, output: &mut [i16]) {
    fully_connected(params, input, filter, bias, output)
}

/// FULLY_CONNECTED float32 with float16 weights kept in flash (`filter`: binary16 bits,
/// `[units, depth]`): [`fully_connected_f32`] on the exactly widened weights, bit for bit
/// ([`F32H`]).
pub fn fully_connected_f32_f16w(params: &FullyConnectedParams<F32>, input: &[f32], filter: &[u16], bias: Option<&[f32]>, output: &mut [f32]) {
    let FullyConnectedParams { geometry, weights_offset, quant, clamp } = *params;
    fully_connected(&FullyConnectedParams::<F32H> { geometry, weights_offset, quant, clamp }, input, filter, bias, output)
}

crate::variants::variant_table! {
    /// int8 FULLY_CONNECTED's variants ([`FullyConnectedVariant`]): function, operands, host
    /// SIMD forms, portable form.
    pub const FULLY_CONNECTED_S8: FullyConnectedVariant(FullyConnectedParams<S8>; i8, i8, i32, i32) {
        /// FULLY_CONNECTED int8, reference variant.
        Reference => fully_connected_s8(input, filter, bias) portable fully_connected::<S8>;
        /// FULLY_CONNECTED int8, [`FullyConnectedVariant::Dot4`]: the bias is in `packed`
        /// ([`FullyConnectedVariant::pack`]).
        Dot4 => fully_connected_s8_dot4(input, filter, packed) simd [neon neon_dotprod vnni avx2] fully_connected_dot4, portable fast::fully_connected_dot4::<crate::isa::Dot>;
        /// FULLY_CONNECTED int8, [`FullyConnectedVariant::Interleaved`]: the folded bias and the
        /// interleaved weights are in `packed` ([`FullyConnectedVariant::pack`]; the model's weights
        /// are not read).
        Interleaved => fully_connected_s8_interleaved(input, packed) portable fast::fully_connected_interleaved::<crate::isa::Dot>;
        /// FULLY_CONNECTED int8, [`FullyConnectedVariant::Rows`]: the folded bias and the
        /// requantization per unit are in `packed` ([`FullyConnectedVariant::pack`]), the weights
        /// as in the model.
        Rows => fully_connected_s8_rows(input, filter, packed) portable fast::fully_connected_rows::<crate::isa::Dot>;
        /// FULLY_CONNECTED int8, [`FullyConnectedVariant::Quad`] (x86-64): the layer run as the
        /// 1x1 convolution it is ([`as_conv`]: the batch rows as the pixels of a one-row image)
        /// through CONV_2D's `Quad` variant, `packed` from [`FullyConnectedVariant::pack`] (it
        /// replaces the model's weights and bias). The same int32 sums and requantization as the
        /// reference: a per-tensor multiplier is the one-element form `QuantS8` already allows.
        Quad => fully_connected_s8_quad(input, packed) simd [vnni avxvnni avx2] fully_connected_s8_quad, portable quad_portable;
    }
}

/// `Quad` without SIMD: the layer through CONV_2D's portable `Quad`.
pub(crate) fn quad_portable(params: &FullyConnectedParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    crate::kernels::conv_2d::quad::conv_quad(&as_conv(params), input, packed, output)
}

/// The 1x1 CONV_2D that computes this FULLY_CONNECTED: input `[1, 1, batches, depth]`,
/// filter `[units, 1, 1, depth]` (the weights' own `[units, depth]` layout), output `[1, 1,
/// batches, units]`, stride 1, no padding; the same quantization and clamp.
pub fn as_conv<'a>(p: &FullyConnectedParams<'a, S8>) -> crate::kernels::conv_2d::Conv2dParams<'a, S8> {
    let g = &p.geometry;
    crate::kernels::conv_2d::Conv2dParams {
        geometry: crate::kernels::conv_2d::ConvGeometry {
            input_shape: [1, 1, g.batches, g.input_depth],
            filter_shape: [g.output_depth, 1, 1, g.input_depth],
            output_shape: [1, 1, g.batches, g.output_depth],
            stride_height: 1,
            stride_width: 1,
            dilation_height: 1,
            dilation_width: 1,
            pad_top: 0,
            pad_left: 0,
        },
        quant: p.quant,
        clamp: p.clamp,
    }
}

/// [`as_conv`]'s geometry.
#[cfg(feature = "prepare")]
fn as_conv_geometry(g: &FullyConnectedGeometry) -> crate::kernels::conv_2d::ConvGeometry {
    let quant = crate::kernels::numerics::QuantS8 { input_offset: 0, output_offset: 0, output_multiplier: &[], output_shift: &[] };
    let p = FullyConnectedParams::<S8> { geometry: *g, weights_offset: 0, quant, clamp: crate::kernels::numerics::Clamp { min: i8::MIN, max: i8::MAX } };
    as_conv(&p).geometry
}

/// The smallest layer (`units * depth`) for which [`FullyConnectedVariant::select`] picks
/// `Interleaved`.
pub const MIN_INTERLEAVED_MACS: usize = 256;

/// The largest layer (`units * depth`) that [`FullyConnectedVariant::select`] gives
/// `Rows` rather than a blocked variant on Arm and RV32 (whose per-call set-up of four-unit
/// blocks and tables outweighs a few dozen multiply-accumulates: hello_world's 1 -> 16 and
/// 16 -> 1 layers spent 190 instructions per call and 200 per block of four units in
/// `Dot4`).
pub const MIN_BLOCKED_MACS: usize = 256;

/// The implementations of int8 FULLY_CONNECTED (16x8 has only the reference).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FullyConnectedVariant {
    /// [`fully_connected_s8`]: any weights.
    Reference,
    /// [`fully_connected_s8_dot4`]: symmetric weights (`weights_offset == 0`), non-empty rows.
    Dot4,
    /// [`fully_connected_s8_interleaved`]: symmetric weights, input depth and units
    /// multiples of 4, and the packed requantization exact for every unit
    /// (`crate::kernels::requant::packed_requant_ok`).
    Interleaved,
    /// [`fully_connected_s8_rows`]: as `Interleaved`, for layers of fewer than
    /// [`MIN_BLOCKED_MACS`] multiply-accumulates (one unit at a time, no blocks to set up).
    Rows,
    /// [`fully_connected_s8_quad`] (x86-64, [`TargetClass::X86`]): symmetric weights, the
    /// layer as a 1x1 convolution through CONV_2D's `Quad` (its packed table: tap quads
    /// for `vpdpbusd`, sixteen units per block), when that variant takes the convolution.
    Quad,
}

impl FullyConnectedVariant {
    /// The fastest variant for these int8 parameters, weights (`[units, depth]`) and bias
    /// on `target`. `Interleaved` is made for the Arm DSP micro-kernels (packed
    /// requantization); a host takes `Dot4`, which has an AVX2 form.
    #[cfg(feature = "prepare")]
    pub fn select(p: &FullyConnectedParams<S8>, filter: &[i8], bias: Option<&[i32]>, target: TargetClass) -> FullyConnectedVariant {
        let (depth, units) = (p.geometry.input_depth, p.geometry.output_depth);
        if p.weights_offset != 0 || depth == 0 {
            return FullyConnectedVariant::Reference;
        }
        let requant_ok = |u: usize| {
            let at = |t: &[i32]| t.get(u).or(t.first()).copied();
            let (Some(m), Some(s)) = (at(p.quant.output_multiplier), at(p.quant.output_shift)) else { return false };
            let b = bias.and_then(|b| b.get(u)).copied().unwrap_or(0);
            let bound = crate::kernels::requant::acc_bound(b, filter[u * depth..][..depth].iter().copied(), p.quant.input_offset);
            crate::kernels::requant::packed_requant_ok(m, s, bound)
        };
        // Layers below `MIN_INTERLEAVED_MACS` keep `Dot4`: a model of tiny layers (hello_world)
        // would otherwise link both kernels for a few hundred instructions.
        if target == TargetClass::X86 {
            let conv = as_conv(p);
            if crate::kernels::conv_2d::Conv2dVariant::select(&conv, filter, bias, target) == crate::kernels::conv_2d::Conv2dVariant::Quad {
                return FullyConnectedVariant::Quad;
            }
        }
        let exact = !target.is_host() && filter.len() >= units * depth && (0..units).all(requant_ok);
        if exact && units * depth < MIN_BLOCKED_MACS {
            FullyConnectedVariant::Rows
        } else if exact && depth % fast::ROWS == 0 && units % fast::ROWS == 0 && units * depth >= MIN_INTERLEAVED_MACS {
            FullyConnectedVariant::Interleaved
        } else {
            FullyConnectedVariant::Dot4
        }
    }

    /// The length of [`FullyConnectedVariant::pack`]'s table (0: none).
    #[cfg(feature = "prepare")]
    pub fn packed_len(self, g: &FullyConnectedGeometry) -> usize {
        match self {
            FullyConnectedVariant::Reference => 0,
            FullyConnectedVariant::Dot4 => g.output_depth,
            FullyConnectedVariant::Rows => fast::ROW_WORDS * g.output_depth,
            FullyConnectedVariant::Interleaved => g.output_depth + g.output_depth * g.input_depth / fast::ROWS,
            FullyConnectedVariant::Quad => crate::kernels::conv_2d::Conv2dVariant::Quad.packed_len(&as_conv_geometry(g)),
        }
    }

    /// The compile-time packing of this variant: per unit `bias[u] + input_offset *
    /// sum(filter[u])` (wrapping, [`crate::prepare::fold_input_offset`]), which replaces the
    /// bias. `Dot4` reads the weights as in the model; `Interleaved` appends them per block
    /// of four units, word `4k + j` of a block holding bytes `4k..4k + 4` of unit `j`'s row
    /// (little endian), so that the kernel walks one pointer.
    #[cfg(feature = "prepare")]
    pub fn pack(self, p: &FullyConnectedParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
        let (depth, units) = (p.geometry.input_depth, p.geometry.output_depth);
        debug_assert_eq!(packed.len(), self.packed_len(&p.geometry));
        if self == FullyConnectedVariant::Quad {
            return crate::kernels::conv_2d::Conv2dVariant::Quad.pack(&as_conv(p), filter, bias, packed);
        }
        if self == FullyConnectedVariant::Rows {
            // Per unit: the folded bias, the multiplier, the right shift (as a positive
            // amount, `requant_lane`'s `e`).
            for (u, v) in packed.chunks_exact_mut(fast::ROW_WORDS).enumerate().take(units) {
                let at = |t: &[i32]| t.get(u).or(t.first()).copied().unwrap_or(0);
                let w = filter[u * depth..][..depth].iter().copied();
                v[0] = crate::prepare::fold_input_offset(w, bias.map_or(0, |b| b[u]), p.quant.input_offset);
                v[1] = at(p.quant.output_multiplier);
                v[2] = at(p.quant.output_shift).unsigned_abs().min(31) as i32;
            }
            return;
        }
        let (folded, words) = packed.split_at_mut(units.min(packed.len()));
        for (u, v) in folded.iter_mut().enumerate() {
            let w = filter[u * depth..][..depth].iter().copied();
            *v = crate::prepare::fold_input_offset(w, bias.map_or(0, |b| b[u]), p.quant.input_offset);
        }
        if self == FullyConnectedVariant::Interleaved {
            for (blk, block) in words.chunks_exact_mut(depth.max(1)).enumerate() {
                for (i, v) in block.iter_mut().enumerate() {
                    let (k, j) = (i / fast::ROWS, i % fast::ROWS);
                    let w = &filter[(blk * fast::ROWS + j) * depth + k * 4..][..4];
                    *v = i32::from_le_bytes([w[0] as u8, w[1] as u8, w[2] as u8, w[3] as u8]);
                }
            }
        }
    }
}

crate::variants::variant_table! {
    /// float32 FULLY_CONNECTED's variants ([`FullyConnectedF32Variant`]): function,
    /// operands, host SIMD forms, portable form.
    pub const FULLY_CONNECTED_F32: FullyConnectedF32Variant(FullyConnectedParams<F32>; f32, f32, f32, f32) {
        /// FULLY_CONNECTED float32, reference variant: TFLite's
        /// `reference_ops::FullyConnected` accumulation order, so the same bits
        /// (`weights_offset` is 0).
        Reference => fully_connected_f32(input, filter, bias) portable fully_connected::<F32>;
        /// FULLY_CONNECTED float32, [`FullyConnectedF32Variant::Blocked`] (Arm FPUs): `packed`
        /// from [`FullyConnectedF32Variant::pack`] (the weights in blocks of four units), the
        /// model's bias as it is; [`fully_connected_f32`]'s bits (`kernels::blocked_f32`).
        Blocked => fully_connected_f32_blocked(input, packed, bias) portable crate::kernels::blocked_f32::fully_connected;
        /// FULLY_CONNECTED float32, [`FullyConnectedF32Variant::Packed`]: `packed` from
        /// [`FullyConnectedF32Variant::pack`] (it replaces the model's weights and bias).
        /// AVX-512F or AVX2+FMA on x86-64, NEON on aarch64, else the portable eight-lane
        /// form; within a stated tolerance of [`fully_connected_f32`], not its bits
        /// (`kernels::f32x8`).
        Packed => fully_connected_f32_packed(input, packed) simd [f32_avx512 f32_avx2 f32_neon] fully_connected_f32_packed, portable crate::kernels::f32x8::portable::fully_connected;
    }
}

/// [`fully_connected_f32_blocked`] with float16 weights kept in flash (`keep_f16_weights`):
/// `packed` is [`crate::kernels::blocked_f32::pack`] of the binary16 weights, widened exactly
/// as they are read; the same bits as [`fully_connected_f32`] on the widened weights.
pub fn fully_connected_f32_f16w_blocked(params: &FullyConnectedParams<F32>, input: &[f32], packed: &[u16], bias: Option<&[f32]>, output: &mut [f32]) {
    let g = &params.geometry;
    debug_assert_eq!(input.len(), g.batches * g.input_depth);
    debug_assert_eq!(output.len(), g.batches * g.output_depth);
    crate::kernels::blocked_f32::fully_connected(params, input, packed, bias, output)
}

/// The implementations of float32 FULLY_CONNECTED.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FullyConnectedF32Variant {
    /// [`fully_connected_f32`]: TFLite's order and bits; empty shapes.
    Reference,
    /// [`fully_connected_f32_blocked`]: on Arm (a scalar FPU); four units per pass from the
    /// packed weights, TFLite's bits.
    Blocked,
    /// [`fully_connected_f32_packed`]: on a host; 32 units per pass from the packed weights.
    Packed,
}

impl FullyConnectedF32Variant {
    /// The variant for this float32 fully-connected op on `target`.
    #[cfg(feature = "prepare")]
    pub fn select(p: &FullyConnectedParams<F32>, target: TargetClass) -> FullyConnectedF32Variant {
        let g = &p.geometry;
        if g.input_depth == 0 || g.output_depth == 0 {
            return FullyConnectedF32Variant::Reference;
        }
        if !target.is_host() {
            return FullyConnectedF32Variant::Blocked;
        }
        FullyConnectedF32Variant::Packed
    }

    /// The length of [`FullyConnectedF32Variant::pack`]'s table.
    #[cfg(feature = "prepare")]
    pub fn packed_len(self, g: &FullyConnectedGeometry) -> usize {
        match self {
            FullyConnectedF32Variant::Reference => 0,
            FullyConnectedF32Variant::Blocked => crate::kernels::blocked_f32::packed_len(g.output_depth, g.input_depth),
            FullyConnectedF32Variant::Packed => crate::kernels::f32x8::fc_packed_len(g.output_depth, g.input_depth),
        }
    }

    /// The compile-time packing. `Packed`: per block of 8 units, their biases, then per input
    /// element their 8 weights. `Blocked`: per block of 4 units, per input element their 4
    /// weights (no bias).
    #[cfg(feature = "prepare")]
    pub fn pack(self, p: &FullyConnectedParams<F32>, filter: &[f32], bias: Option<&[f32]>, packed: &mut [f32]) {
        debug_assert_eq!(packed.len(), self.packed_len(&p.geometry));
        let g = &p.geometry;
        match self {
            FullyConnectedF32Variant::Reference => {}
            FullyConnectedF32Variant::Blocked => crate::kernels::blocked_f32::pack(g.output_depth, g.input_depth, filter, packed),
            FullyConnectedF32Variant::Packed => crate::kernels::f32x8::fc_pack(g.output_depth, g.input_depth, filter, bias, packed),
        }
    }
}
