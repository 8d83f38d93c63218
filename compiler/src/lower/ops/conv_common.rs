//! What CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and the pools share: option checks
//! (`positive`, `rt_padding`), the per-scheme quantization (`Scheme`, the int8 / 16x8 split
//! that replaces `int16: bool` flags), the quantization a lowered op owns and lends to its
//! runtime struct (`HeldNumerics`: `HeldQuantS8`, `HeldQuantS16`), the 16x8 checks
//! (`bias_i64`, `check_shifts_16x8`), and the [`Lit`] conversions of the runtime parameter structs they emit (generic over the
//! numerics, so written by hand with the same exhaustive destructuring as
//! [`crate::runtime_struct_lit!`]).

use super::OpCx;
use crate::emit::Lit;
use crate::error::LowerError;
use crate::ir::{DType, Padding, Tensor};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::average_pool_2d::AveragePool2dParams;
use tflc_runtime::kernels::conv_2d::Conv2dParams;
use tflc_runtime::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use tflc_runtime::kernels::fully_connected::FullyConnectedParams;
use tflc_runtime::kernels::max_pool_2d::MaxPool2dParams;
use tflc_runtime::kernels::numerics::{Clamp, Numerics, QuantS16, QuantS8, QuantU8, F32, S16, S8, U8};
use tflc_runtime::kernels::window::ConvGeometry;
use tflc_runtime::prepare::{compute_padding, Padding as RtPadding};
use tflc_runtime::quant::QuantParams;

/// The quantization scheme of a conv / fully-connected / pooling op, decided once from the
/// input's element type; each op's lowered form is an enum over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemeKind {
    /// int8 activations ([`S8`]).
    S8,
    /// int16 activations with int8 weights ([`S16`]).
    S16,
    /// float32 activations and weights ([`F32`]): no quantization.
    F32,
    /// Legacy asymmetric uint8 activations and weights ([`U8`]).
    U8,
}

impl SchemeKind {
    /// The scheme of activation `t`, with its quantization and `out`'s (int8: zero points
    /// in range; 16x8: zero points 0).
    /// float32 has no quantization: both are [`UNQUANTIZED`].
    pub(crate) fn of(cx: &OpCx<'_, '_>, t: &Tensor<'_>, out: &Tensor<'_>) -> Result<(SchemeKind, QuantParams, QuantParams), LowerError> {
        if t.dtype == DType::F32 {
            cx.expect_dtype(out, DType::F32)?;
            Ok((SchemeKind::F32, UNQUANTIZED, UNQUANTIZED))
        } else if t.dtype == DType::U8 {
            Ok((SchemeKind::U8, q_u8(cx, t)?, q_u8(cx, out)?))
        } else if t.dtype == DType::I16 {
            Ok((SchemeKind::S16, cx.q_s16(t)?, cx.q_s16(out)?))
        } else {
            Ok((SchemeKind::S8, cx.q_s8(t)?, cx.q_s8(out)?))
        }
    }
}

/// The int4 filter checks of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED. TFLite Micro
/// runs an int4 filter with int8 activations only, unpacked into int8
/// (`tensor_utils::UnpackDenseInt4IntoInt8`) before its int8 kernel; `passes::fold` unpacks
/// such a constant at compile time ([`crate::ir::Subgraph::int4_packed`]), so the op lowers
/// as int8. An int4 filter still typed int4 here was not unpacked, and this says why; an
/// unpacked one must be quantized with zero points in the int4 range.
pub(crate) fn check_int4_filter(cx: &OpCx<'_, '_>, input: &Tensor<'_>, filter: &Tensor<'_>) -> Result<(), LowerError> {
    if filter.dtype == DType::I4 {
        let why = if input.dtype != DType::I8 {
            format!("an int4 filter on {} activations (TFLite Micro runs int4 filters with int8 activations only)", input.dtype)
        } else if !filter.is_constant() {
            "an int4 filter that is not a constant (tflc unpacks int4 filters at compile time)".to_owned()
        } else {
            "an int4 filter that is not unpacked: tflc unpacks an int4 constant when every operator reading it takes it as \
             its filter (on int8 activations) or as a DEQUANTIZE input"
                .to_owned()
        };
        return Err(cx.unsupported_tensor(filter, why));
    }
    if cx.sg.int4_packed.contains_key(&filter.id) {
        let Some(q) = &filter.quant else {
            return Err(cx.unsupported_tensor(filter, "int4 filter is not quantized"));
        };
        if let Some(z) = q.zero_point.iter().find(|z| !(-8..=7).contains(*z)) {
            return Err(cx.invalid_tensor(filter, format!("int4 filter zero point {z} is out of the int4 range -8..=7")));
        }
    }
    Ok(())
}

/// What [`SchemeKind::of`] returns for float32 tensors, which have no quantization.
pub(crate) const UNQUANTIZED: QuantParams = QuantParams { scale: 1.0, zero_point: 0 };

/// The float32 clamp of a fused activation (TFLite `CalculateActivationRange`).
pub(crate) fn clamp_f32(cx: &OpCx<'_, '_>, a: crate::ir::Activation) -> Result<Clamp<f32>, LowerError> {
    let (min, max) = tflc_runtime::kernels::nd::activation_range_f32(cx.fused_activation(a)?);
    Ok(Clamp { min, max })
}

/// The float32 weights of a float kernel: `weights` must be a float32 constant of `n`
/// elements (a hybrid model's int8 weights on float activations get the error that says
/// how to convert it). Returns the values (packed variants repack them).
pub(crate) fn weights_f32(cx: &OpCx<'_, '_>, weights: &Tensor<'_>, n: usize) -> Result<Vec<f32>, LowerError> {
    if weights.dtype != DType::F32 {
        return Err(cx.unsupported_tensor(
            weights,
            format!(
                "{} weights on float32 activations (a hybrid, dynamic-range quantized model, which TFLite Micro does not run either); \
                 convert the model with full-integer quantization (TFLiteConverter with optimizations = [tf.lite.Optimize.DEFAULT], \
                 a representative_dataset, and target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]), or without quantization for float32",
                weights.dtype
            ),
        ));
    }
    let data = cx.expect_constant(weights)?;
    if data.len() != n * 4 {
        return Err(cx.invalid_tensor(weights, format!("weights hold {} bytes for {n} float32 values", data.len())));
    }
    Ok(f32_values(data))
}

fn f32_values(bytes: &[u8]) -> Vec<f32> {
    bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The optional float32 bias of a float kernel: a float32 constant of `n` entries.
pub(crate) fn bias_f32(cx: &OpCx<'_, '_>, bias: Option<&Tensor<'_>>, n: usize) -> Result<Option<Vec<f32>>, LowerError> {
    let Some(b) = bias else { return Ok(None) };
    cx.expect_dtype(b, DType::F32)?;
    let data = cx.expect_constant(b)?;
    if data.len() != n * 4 {
        return Err(cx.invalid_tensor(b, format!("bias holds {} bytes for {n} float32 entries", data.len())));
    }
    Ok(Some(f32_values(data)))
}

/// The per-tensor quantization of a legacy uint8 tensor (zero point in 0..=255).
pub(crate) fn q_u8(cx: &OpCx<'_, '_>, t: &Tensor<'_>) -> Result<QuantParams, LowerError> {
    cx.expect_dtype(t, DType::U8)?;
    let q = cx.per_tensor_q(t)?;
    if !(0..=255).contains(&q.zero_point) {
        return Err(cx.invalid_tensor(t, format!("uint8 zero point {} is out of range", q.zero_point)));
    }
    Ok(q)
}

/// The uint8 clamp of a fused activation: TFLite's `CalculateActivationRangeQuantized` with
/// `0..=255`, which is the int8 range of the zero point minus 128, plus 128.
pub(crate) fn clamp_u8(cx: &OpCx<'_, '_>, a: crate::ir::Activation, out: QuantParams) -> Result<Clamp<u8>, LowerError> {
    let shifted = QuantParams { scale: out.scale, zero_point: out.zero_point - 128 };
    let (lo, hi) = cx.activation_range_s8(a, shifted)?;
    match (u8::try_from(lo + 128), u8::try_from(hi + 128)) {
        (Ok(min), Ok(max)) => Ok(Clamp { min, max }),
        _ => Err(cx.invalid(format!("activation range {lo}..={hi} is not uint8"))),
    }
}

/// The quantization of a legacy uint8 convolution (TFLite's uint8 path of
/// `PopulateConvolutionQuantizationParams`: per-tensor weights with a zero point, one
/// multiplier `QuantizeMultiplier(double(s_in) * double(s_w) / double(s_out))`), after
/// checking the `n` weights and the int32 bias of `channels` entries.
pub(crate) fn quant_u8(
    cx: &OpCx<'_, '_>,
    [input, output]: [QuantParams; 2],
    filter: &Tensor<'_>,
    n: usize,
    bias: Option<&Tensor<'_>>,
    channels: usize,
) -> Result<QuantU8, LowerError> {
    let fq = q_u8(cx, filter)?;
    let data = cx.expect_constant(filter)?;
    if data.len() != n {
        return Err(cx.invalid_tensor(filter, format!("weights hold {} bytes for {n} uint8 values", data.len())));
    }
    if let Some(b) = bias {
        if b.dtype != DType::I32 || cx.expect_constant(b)?.len() != channels * 4 {
            return Err(cx.invalid_tensor(b, format!("the bias must be {channels} int32 constants")));
        }
    }
    let (output_multiplier, output_shift) = tflc_runtime::prepare::conv_channel_multiplier(input.scale, fq.scale, output.scale)
        .ok_or_else(|| cx.invalid_tensor(filter, "the effective scale cannot be quantized"))?;
    Ok(QuantU8 { input_offset: -input.zero_point, weights_offset: -fq.zero_point, output_offset: output.zero_point, output_multiplier, output_shift })
}

/// The clamp of a fused activation in the output's element type (TFLite
/// `CalculateActivationRangeQuantized`).
pub(crate) fn clamp_s8(cx: &OpCx<'_, '_>, a: crate::ir::Activation, out: QuantParams) -> Result<Clamp<i8>, LowerError> {
    let (lo, hi) = cx.activation_range_s8(a, out)?;
    match (i8::try_from(lo), i8::try_from(hi)) {
        (Ok(min), Ok(max)) => Ok(Clamp { min, max }),
        _ => Err(cx.invalid(format!("activation range {lo}..={hi} is not int8"))),
    }
}

/// [`clamp_s8`] for an int16 output.
pub(crate) fn clamp_s16(cx: &OpCx<'_, '_>, a: crate::ir::Activation, out: QuantParams) -> Result<Clamp<i16>, LowerError> {
    let (lo, hi) = cx.activation_range_s16(a, out)?;
    match (i16::try_from(lo), i16::try_from(hi)) {
        (Ok(min), Ok(max)) => Ok(Clamp { min, max }),
        _ => Err(cx.invalid(format!("activation range {lo}..={hi} is not int16"))),
    }
}

/// A numerics whose quantization ([`Numerics::Quant`]) a lowered op owns as
/// [`HeldNumerics::HeldQuant`]. The runtime structs borrow their per-channel tables as
/// CMSIS-NN's do; a lowered op keeps the tables and builds the borrowing struct from them
/// (`<Op>Held::params`), once for `execute` and `emit` alike. (`pub` because the public
/// lowered ops name it in their held structs.)
pub trait HeldNumerics: Numerics {
    /// The owned counterpart of `Quant`.
    type HeldQuant: std::fmt::Debug + Clone + PartialEq;
    /// The runtime quantization, borrowing `held`'s tables.
    fn quant(held: &Self::HeldQuant) -> Self::Quant<'_>;
}

/// [`QuantS8`] with its per-channel tables owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldQuantS8 {
    pub input_offset: i32,
    pub output_offset: i32,
    pub output_multiplier: Vec<i32>,
    pub output_shift: Vec<i32>,
}

/// [`QuantS16`] with its per-channel tables owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldQuantS16 {
    pub output_multiplier: Vec<i32>,
    pub output_shift: Vec<i32>,
}

impl HeldNumerics for S8 {
    type HeldQuant = HeldQuantS8;
    fn quant(held: &HeldQuantS8) -> QuantS8<'_> {
        let HeldQuantS8 { input_offset, output_offset, output_multiplier, output_shift } = held;
        QuantS8 { input_offset: *input_offset, output_offset: *output_offset, output_multiplier, output_shift }
    }
}

impl HeldNumerics for F32 {
    type HeldQuant = ();
    fn quant(_: &()) {}
}

impl HeldNumerics for U8 {
    type HeldQuant = QuantU8;
    fn quant(held: &QuantU8) -> QuantU8 {
        *held
    }
}

impl HeldNumerics for S16 {
    type HeldQuant = HeldQuantS16;
    fn quant(held: &HeldQuantS16) -> QuantS16<'_> {
        let HeldQuantS16 { output_multiplier, output_shift } = held;
        QuantS16 { output_multiplier, output_shift }
    }
}

/// The int8 quantization of a convolution or fully-connected op: the activations' offsets
/// and the per-channel multipliers (`QuantizeMultiplier` results).
pub(crate) fn quant_s8(input: QuantParams, output: QuantParams, output_multiplier: Vec<i32>, output_shift: Vec<i32>) -> HeldQuantS8 {
    HeldQuantS8 { input_offset: -input.zero_point, output_offset: output.zero_point, output_multiplier, output_shift }
}

/// The 16x8 quantization of a convolution or fully-connected op writing `output`, after
/// [`check_shifts_16x8`].
pub(crate) fn quant_s16(cx: &OpCx<'_, '_>, output: &Tensor<'_>, output_multiplier: Vec<i32>, output_shift: Vec<i32>) -> Result<HeldQuantS16, LowerError> {
    check_shifts_16x8(cx, output, &output_shift)?;
    Ok(HeldQuantS16 { output_multiplier, output_shift })
}

/// What an int8 variant's packing entry point reads: the weights as int8 and the int32
/// bias (`n` entries, checked; `None` without a bias).
pub(crate) fn pack_inputs_s8(cx: &OpCx<'_, '_>, weights: &[u8], bias: Option<&Tensor<'_>>, n: usize, what: &str) -> Result<(Vec<i8>, Option<Vec<i32>>), LowerError> {
    let b = match bias {
        Some(_) => Some(cx.bias_i32(bias, n, what)?),
        None => None,
    };
    Ok((weights.iter().map(|&w| w as i8).collect(), b))
}

/// The bias of a 16x8 kernel: int64 with `n` entries (`None` when absent). TFLite Micro
/// also runs an int32 bias with a 32-bit accumulator; tflc does not implement that path.
pub(crate) fn bias_i64(cx: &OpCx<'_, '_>, bias: Option<&Tensor<'_>>, n: usize) -> Result<Vec<i64>, LowerError> {
    let Some(b) = bias else { return Ok(Vec::new()) };
    if b.dtype != DType::I64 {
        return Err(cx.unsupported_tensor(b, format!("{} bias on int16 activations (tflc implements the int64 bias)", b.dtype)));
    }
    let v = cx.const_i64(b)?;
    if v.len() != n {
        return Err(cx.invalid_tensor(b, format!("bias has {} entries for {n} output channels", v.len())));
    }
    Ok(v)
}

/// The 64-bit `MultiplyByQuantizedMultiplier` of the 16x8 kernels requires shifts below 8
/// (an effective scale under 128); TFLite asserts it, tflc refuses the model.
pub(crate) fn check_shifts_16x8(cx: &OpCx<'_, '_>, t: &Tensor<'_>, shifts: &[i32]) -> Result<(), LowerError> {
    match shifts.iter().find(|&&s| s >= 8) {
        Some(s) => Err(cx.unsupported_tensor(t, format!("effective scale of 2^{} or more (16x8 requantization needs less than 128)", s - 1))),
        None => Ok(()),
    }
}

pub(crate) fn rt_padding(cx: &OpCx<'_, '_>, p: Padding) -> Result<RtPadding, LowerError> {
    match p {
        Padding::Same => Ok(RtPadding::Same),
        Padding::Valid => Ok(RtPadding::Valid),
        Padding::Unknown(c) => Err(cx.invalid(format!("unknown padding code {c}"))),
    }
}

/// A positive stride, dilation or window size from the options.
pub(crate) fn positive(cx: &OpCx<'_, '_>, what: &str, v: i32) -> Result<usize, LowerError> {
    if v <= 0 {
        return Err(cx.invalid(format!("{what} is {v}; it must be positive")));
    }
    Ok(v as usize)
}

/// The window geometry of CONV_2D and DEPTHWISE_CONV_2D from their options (positive
/// strides and dilations, TFLite `ComputePaddingHeightWidth`), after checking that `output`
/// has the shape they give: `[batches, out_h, out_w, out_d]`. `shapes` are the input,
/// filter (height and width at indices 1 and 2 in both layouts) and output shapes.
pub(crate) fn conv_geometry(
    cx: &OpCx<'_, '_>,
    padding: Padding,
    stride: [i32; 2],
    dilation: [i32; 2],
    [input_shape, filter_shape, output_shape]: [[usize; 4]; 3],
    out_d: usize,
    output: &Tensor<'_>,
) -> Result<ConvGeometry, LowerError> {
    let [batches, in_h, in_w, _] = input_shape;
    let [_, f_h, f_w, _] = filter_shape;
    let stride = [positive(cx, "stride_h", stride[0])?, positive(cx, "stride_w", stride[1])?];
    let dilation = [positive(cx, "dilation_h", dilation[0])?, positive(cx, "dilation_w", dilation[1])?];
    let padding = rt_padding(cx, padding)?;
    let (oh, pad_top) = compute_padding(padding, in_h, f_h, stride[0], dilation[0])
        .ok_or_else(|| cx.invalid("the filter does not fit the input height"))?;
    let (ow, pad_left) = compute_padding(padding, in_w, f_w, stride[1], dilation[1])
        .ok_or_else(|| cx.invalid("the filter does not fit the input width"))?;
    if output_shape != [batches, oh, ow, out_d] {
        return Err(cx.invalid_tensor(
            output,
            format!("output shape {output_shape:?}, but the options give {:?}", [batches, oh, ow, out_d]),
        ));
    }
    Ok(ConvGeometry {
        input_shape,
        filter_shape,
        output_shape,
        stride_height: stride[0],
        stride_width: stride[1],
        dilation_height: dilation[0],
        dilation_width: dilation[1],
        pad_top,
        pad_left,
    })
}

crate::runtime_struct_lit!(kernels::window::ConvGeometry {
    input_shape,
    filter_shape,
    output_shape,
    stride_height,
    stride_width,
    dilation_height,
    dilation_width,
    pad_top,
    pad_left,
});

crate::runtime_struct_lit!(kernels::window::PoolGeometry {
    input_shape,
    output_height,
    output_width,
    filter_height,
    filter_width,
    stride_height,
    stride_width,
    pad_top,
    pad_left,
});

crate::runtime_struct_lit!(kernels::fully_connected::FullyConnectedGeometry { batches, input_depth, output_depth });

crate::runtime_struct_lit!(kernels::numerics::QuantS8<'a> { input_offset, output_offset, output_multiplier, output_shift });

crate::runtime_struct_lit!(kernels::numerics::QuantS16<'a> { output_multiplier, output_shift });

crate::runtime_struct_lit!(kernels::numerics::QuantU8 { input_offset, weights_offset, output_offset, output_multiplier, output_shift });

impl<T: Lit> Lit for Clamp<T> {
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let Clamp { min, max } = self;
        let (min, max) = (min.lit(rt), max.lit(rt));
        quote! { #rt::kernels::numerics::Clamp { min: #min, max: #max } }
    }
}

/// A numerics the generated code names (its marker type's path).
pub(crate) trait EmittedNumerics: Numerics {
    fn path(rt: &TokenStream) -> TokenStream;
}

impl EmittedNumerics for S8 {
    fn path(rt: &TokenStream) -> TokenStream {
        quote! { #rt::kernels::numerics::S8 }
    }
}

impl EmittedNumerics for F32 {
    fn path(rt: &TokenStream) -> TokenStream {
        quote! { #rt::kernels::numerics::F32 }
    }
}

impl EmittedNumerics for U8 {
    fn path(rt: &TokenStream) -> TokenStream {
        quote! { #rt::kernels::numerics::U8 }
    }
}

impl EmittedNumerics for S16 {
    fn path(rt: &TokenStream) -> TokenStream {
        quote! { #rt::kernels::numerics::S16 }
    }
}

impl<'a, N: EmittedNumerics> Lit for Conv2dParams<'a, N>
where
    N::Quant<'a>: Lit,
    Clamp<N::Act>: Lit,
{
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let Conv2dParams { geometry, quant, clamp } = self;
        let (geometry, quant, clamp) = (geometry.lit(rt), quant.lit(rt), clamp.lit(rt));
        quote! { #rt::kernels::conv_2d::Conv2dParams { geometry: #geometry, quant: #quant, clamp: #clamp } }
    }
}

impl<'a, N: EmittedNumerics> Lit for DepthwiseConv2dParams<'a, N>
where
    N::Quant<'a>: Lit,
    Clamp<N::Act>: Lit,
{
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let DepthwiseConv2dParams { geometry, quant, clamp } = self;
        let (geometry, quant, clamp) = (geometry.lit(rt), quant.lit(rt), clamp.lit(rt));
        quote! { #rt::kernels::depthwise_conv_2d::DepthwiseConv2dParams { geometry: #geometry, quant: #quant, clamp: #clamp } }
    }
}

impl<'a, N: EmittedNumerics> Lit for FullyConnectedParams<'a, N>
where
    N::Quant<'a>: Lit,
    Clamp<N::Act>: Lit,
{
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let FullyConnectedParams { geometry, weights_offset, quant, clamp } = self;
        let (geometry, weights_offset, quant, clamp) = (geometry.lit(rt), weights_offset.lit(rt), quant.lit(rt), clamp.lit(rt));
        quote! {
            #rt::kernels::fully_connected::FullyConnectedParams {
                geometry: #geometry, weights_offset: #weights_offset, quant: #quant, clamp: #clamp
            }
        }
    }
}

impl<N: EmittedNumerics> Lit for AveragePool2dParams<N>
where
    Clamp<N::Act>: Lit,
{
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let AveragePool2dParams { geometry, clamp } = self;
        let (geometry, clamp) = (geometry.lit(rt), clamp.lit(rt));
        quote! { #rt::kernels::average_pool_2d::AveragePool2dParams { geometry: #geometry, clamp: #clamp } }
    }
}

impl<N: EmittedNumerics> Lit for MaxPool2dParams<N>
where
    Clamp<N::Act>: Lit,
{
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let MaxPool2dParams { geometry, clamp } = self;
        let (geometry, clamp) = (geometry.lit(rt), clamp.lit(rt));
        quote! { #rt::kernels::max_pool_2d::MaxPool2dParams { geometry: #geometry, clamp: #clamp } }
    }
}

/// The type of a params const: `rt::kernels::<path><'static, rt::kernels::numerics::N>` (or
/// without the lifetime for a struct that borrows nothing), below the runtime path as
/// [`crate::emit::EmitCx::params_lit`] takes it.
pub(crate) fn params_type<N: EmittedNumerics>(rt: &TokenStream, path: TokenStream, borrows: bool) -> TokenStream {
    let n = N::path(rt);
    if borrows {
        quote! { #path<'static, #n> }
    } else {
        quote! { #path<#n> }
    }
}

/// What CONV_2D's and DEPTHWISE_CONV_2D's runtime params are built from, owned: their
/// fields (the two structs have the same ones), with the quantization's tables. Each
/// method lends the tables to its runtime struct: what `execute` runs, `emit` spells and
/// the variant packs with.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvHeld<N: HeldNumerics> {
    pub geometry: tflc_runtime::kernels::window::ConvGeometry,
    pub quant: N::HeldQuant,
    pub clamp: tflc_runtime::kernels::numerics::Clamp<N::Act>,
}

impl<N: HeldNumerics> ConvHeld<N> {
    pub fn conv_2d_params(&self) -> tflc_runtime::kernels::conv_2d::Conv2dParams<'_, N> {
        let ConvHeld { geometry, quant, clamp } = self;
        tflc_runtime::kernels::conv_2d::Conv2dParams { geometry: *geometry, quant: N::quant(quant), clamp: *clamp }
    }

    pub fn depthwise_params(&self) -> tflc_runtime::kernels::depthwise_conv_2d::DepthwiseConv2dParams<'_, N> {
        let ConvHeld { geometry, quant, clamp } = self;
        tflc_runtime::kernels::depthwise_conv_2d::DepthwiseConv2dParams { geometry: *geometry, quant: N::quant(quant), clamp: *clamp }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use crate::error::LowerError;
    use crate::ir::{Conv2dOptions, DType, DepthwiseConv2dOptions, OpKind};
    use crate::tflite::builder::ModelBuilder;

    /// A hybrid (dynamic-range quantized) CONV_2D or DEPTHWISE_CONV_2D: float32 activations,
    /// int8 weights. One error, naming the op and the weights, saying how to convert the model.
    #[test]
    fn hybrid_conv_and_depthwise_say_how_to_convert() {
        let conv = OpKind::Conv2d(Conv2dOptions { stride_w: 1, stride_h: 1, ..Conv2dOptions::default() });
        let depthwise = OpKind::DepthwiseConv2d(DepthwiseConv2dOptions { stride_w: 1, stride_h: 1, depth_multiplier: 1, ..DepthwiseConv2dOptions::default() });
        for (kind, opcode, filter, out_d) in [(conv, "CONV_2D", [2, 1, 1, 3], 2), (depthwise, "DEPTHWISE_CONV_2D", [1, 1, 1, 3], 3)] {
            let mut b = ModelBuilder::new();
            let x = b.activation("x", DType::F32, &[1, 2, 2, 3], None);
            let w = b.constant_i8("w", &filter, &vec![1; filter.iter().product()], Some((0.5, 0)));
            let y = b.activation("y", DType::F32, &[1, 2, 2, out_d], None);
            b.op(kind, &[Some(x), Some(w), None], &[y]);
            b.inputs(&[x]).outputs(&[y]);
            let e = lower_op0(&b.finish()).err().unwrap_or_else(|| panic!("{opcode}: a hybrid op lowered"));
            let text = e.to_string();
            assert!(matches!(e, LowerError::Unsupported { .. }), "{text}");
            assert!(text.contains("op 0") && text.contains(opcode) && text.contains("\"w\""), "{text}");
            assert!(text.contains("hybrid") && text.contains("full-integer quantization") && text.contains("TFLITE_BUILTINS_INT8"), "{text}");
        }
    }
}
