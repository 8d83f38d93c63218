//! MediaPipe's custom operators (`mediapipe/util/tflite/operations/*.cc`), built in:
//! `Convolution2DTransposeBias`, `MaxPoolingWithArgmax2D`, `MaxUnpooling2D`,
//! `TransformTensorBilinear`, `TransformLandmarks` and `Landmarks2TransformMatrix` (see each
//! one's file). `custom::lower` sends an operator of one of
//! these codes here unless the caller supplies its kernel (`--custom-kernel NAME`,
//! `Subgraph::custom_kernels`), in which case it is the caller's like any custom operator
//! tflc does not know (`docs/CUSTOM_OPS.md`).
//!
//! What the pooling and transpose-convolution operators share: their options are not a FlexBuffer but a raw C struct the
//! converter copied into `custom_options` (`TfLitePoolParams`,
//! `TfLiteTransposeConvParams`), which MediaPipe reads with a `reinterpret_cast` of
//! `custom_initial_data`; [`RawStruct`] reads the same little-endian `int`s at the same
//! offsets, and options too short for the fields MediaPipe reads are refused, naming the
//! struct and its fields.

use super::{
    convolution_2d_transpose_bias, landmarks_to_transform_matrix, max_pooling_with_argmax_2d, max_unpooling_2d, transform_landmarks, transform_tensor_bilinear, ExecError, Kernel, OpCx,
    TensorStore,
};
use crate::emit::EmitCx;
use crate::error::LowerError;
use proc_macro2::TokenStream;

/// The custom codes of MediaPipe's operators tflc has kernels for.
pub const CODES: &[&str] = &[
    convolution_2d_transpose_bias::NAME,
    max_pooling_with_argmax_2d::NAME,
    max_unpooling_2d::NAME,
    transform_tensor_bilinear::NAME,
    transform_landmarks::NAME,
    landmarks_to_transform_matrix::NAME,
];

/// Whether tflc has a built-in kernel for MediaPipe custom code `code` (which the caller may
/// take over with `--custom-kernel`).
pub fn is_builtin(code: &str) -> bool {
    CODES.contains(&code)
}

/// A lowered MediaPipe operator.
#[derive(Debug, Clone)]
#[allow(missing_docs)] // One variant per operator, named as its custom code.
pub enum MediaPipe {
    Convolution2dTransposeBias(convolution_2d_transpose_bias::Convolution2dTransposeBias),
    MaxPoolingWithArgmax2d(max_pooling_with_argmax_2d::MaxPoolingWithArgmax2d),
    MaxUnpooling2d(max_unpooling_2d::MaxUnpooling2d),
    TransformTensorBilinear(transform_tensor_bilinear::TransformTensorBilinear),
    TransformLandmarks(transform_landmarks::TransformLandmarks),
    LandmarksToTransformMatrix(landmarks_to_transform_matrix::LandmarksToTransformMatrix),
}

/// Lowers MediaPipe operator `code` (one of [`CODES`]).
pub(crate) fn lower(cx: &OpCx<'_, '_>, code: &str) -> Result<MediaPipe, LowerError> {
    Ok(match code {
        convolution_2d_transpose_bias::NAME => MediaPipe::Convolution2dTransposeBias(convolution_2d_transpose_bias::lower(cx)?),
        max_pooling_with_argmax_2d::NAME => MediaPipe::MaxPoolingWithArgmax2d(max_pooling_with_argmax_2d::lower(cx)?),
        max_unpooling_2d::NAME => MediaPipe::MaxUnpooling2d(max_unpooling_2d::lower(cx)?),
        transform_tensor_bilinear::NAME => MediaPipe::TransformTensorBilinear(transform_tensor_bilinear::lower(cx)?),
        transform_landmarks::NAME => MediaPipe::TransformLandmarks(transform_landmarks::lower(cx)?),
        landmarks_to_transform_matrix::NAME => MediaPipe::LandmarksToTransformMatrix(landmarks_to_transform_matrix::lower(cx)?),
        other => return Err(cx.unsupported(format!("MediaPipe operator {other:?}: tflc has no kernel for it"))),
    })
}

impl MediaPipe {
    fn kernel(&self) -> &dyn Kernel {
        match self {
            MediaPipe::Convolution2dTransposeBias(k) => k,
            MediaPipe::MaxPoolingWithArgmax2d(k) => k,
            MediaPipe::MaxUnpooling2d(k) => k,
            MediaPipe::TransformTensorBilinear(k) => k,
            MediaPipe::TransformLandmarks(k) => k,
            MediaPipe::LandmarksToTransformMatrix(k) => k,
        }
    }
}

impl Kernel for MediaPipe {
    fn execute(&self, store: &mut TensorStore) -> Result<(), ExecError> {
        self.kernel().execute(store)
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        self.kernel().emit(cx)
    }
}

/// A raw C struct of `int`-sized fields in the custom options (little-endian, as the
/// converter's host wrote it).
pub(crate) struct RawStruct<'b> {
    bytes: &'b [u8],
}

impl<'b> RawStruct<'b> {
    /// The options of `cx`'s operator as C struct `name`, whose first `fields` are the
    /// `int`s MediaPipe reads: refused when there are no options or fewer bytes than those
    /// fields take.
    pub(crate) fn read(cx: &OpCx<'_, 'b>, name: &str, fields: &[&str]) -> Result<Self, LowerError> {
        let need = 4 * fields.len();
        let bytes = cx.op.custom_options.unwrap_or_default();
        if bytes.len() < need {
            return Err(cx.invalid(format!(
                "custom options: {} bytes, too short for the {name} MediaPipe reads from them ({}: {need} bytes, little-endian int32 each)",
                bytes.len(),
                fields.join(", ")
            )));
        }
        Ok(RawStruct { bytes })
    }

    /// Field `i` (an `int`).
    pub(crate) fn int(&self, i: usize) -> i32 {
        let b = &self.bytes[4 * i..4 * i + 4];
        i32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
}

/// `TfLitePadding`: `kTfLitePaddingSame`.
pub(crate) const PADDING_SAME: i32 = 1;
/// `TfLitePadding`: `kTfLitePaddingValid`.
pub(crate) const PADDING_VALID: i32 = 2;

/// The fields of `TfLitePoolParams` MediaPipe's pooling operators read, in order.
pub(crate) const POOL_PARAMS: &[&str] = &["padding", "stride_width", "stride_height", "filter_width", "filter_height", "activation"];

/// `TfLitePoolParams` as MaxPoolingWithArgmax2D and MaxUnpooling2D read it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PoolParams {
    pub padding: i32,
    /// Height, width.
    pub stride: [usize; 2],
    /// Height, width.
    pub filter: [usize; 2],
    /// `TfLiteFusedActivation`.
    pub activation: i32,
}

/// Reads `TfLitePoolParams` from the custom options; strides and filter sizes must be
/// positive (MediaPipe divides by them).
pub(crate) fn pool_params(cx: &OpCx<'_, '_>) -> Result<PoolParams, LowerError> {
    let s = RawStruct::read(cx, "TfLitePoolParams", POOL_PARAMS)?;
    let positive = |i: usize| {
        usize::try_from(s.int(i)).ok().filter(|&v| v > 0).ok_or_else(|| cx.invalid(format!("custom options: TfLitePoolParams.{} = {} (must be at least 1)", POOL_PARAMS[i], s.int(i))))
    };
    Ok(PoolParams { padding: s.int(0), stride: [positive(2)?, positive(1)?], filter: [positive(4)?, positive(3)?], activation: s.int(5) })
}

/// TFLite's `CalculateActivationRange<float>` for a `TfLiteFusedActivation`: RELU, RELU6
/// and RELU_N1_TO_1 clamp; every other value (none, tanh, sign bit, sigmoid, unknown) is
/// `[lowest, max]`.
pub(crate) fn activation_range(activation: i32) -> (f32, f32) {
    match activation {
        1 => (0.0, f32::MAX),
        2 => (-1.0, 1.0),
        3 => (0.0, 6.0),
        _ => (f32::MIN, f32::MAX),
    }
}

/// TFLite's `ComputePadding(stride, dilation 1, in_size, filter_size, out_size)`:
/// `((out - 1) * stride + filter - in) / 2` (C division), at least 0.
pub(crate) fn compute_padding(stride: usize, in_size: usize, filter: usize, out_size: usize) -> usize {
    let p = ((out_size as i64 - 1) * stride as i64 + filter as i64 - in_size as i64) / 2;
    p.max(0) as usize
}

/// Checks that output `t` has the shape MediaPipe's Prepare gives it (`ResizeTensor`):
/// tflc plans it at compile time, so a model that says otherwise is refused.
pub(crate) fn expect_shape(cx: &OpCx<'_, '_>, t: &crate::ir::Tensor<'_>, shape: &[usize]) -> Result<(), LowerError> {
    if t.shape != shape {
        return Err(cx.invalid_tensor(t, format!("shape {:?}, but the operator computes {shape:?} from its input and options", t.shape)));
    }
    Ok(())
}

/// Checks that the operator's code has `version`, the one MediaPipe's resolvers register
/// (`AddCustom(name, registration, version)`): MediaPipe cannot resolve another.
pub(crate) fn expect_version(cx: &OpCx<'_, '_>, version: i32) -> Result<(), LowerError> {
    if cx.op.version != version {
        return Err(cx.unsupported(format!(
            "operator code version {}: MediaPipe registers version {version} of this operator only (its resolver cannot run version {})",
            cx.op.version, cx.op.version
        )));
    }
    Ok(())
}

/// Checks that output `t`, whose shape the operator takes from the model, is static: tflc
/// plans every byte at compile time.
pub(crate) fn expect_static(cx: &OpCx<'_, '_>, t: &crate::ir::Tensor<'_>) -> Result<(), LowerError> {
    if t.has_dynamic_signature() {
        return Err(cx.unsupported_tensor(
            t,
            format!(
                "the output's shape is unknown at compile time (shape_signature {:?}); give the converter a static shape",
                t.shape_signature.as_deref().unwrap_or_default()
            ),
        ));
    }
    Ok(())
}

/// Checks that `t` is a float32 tensor of rank 4 and returns its shape.
pub(crate) fn f32_shape4(cx: &OpCx<'_, '_>, t: &crate::ir::Tensor<'_>) -> Result<[usize; 4], LowerError> {
    cx.expect_dtype(t, crate::ir::DType::F32)?;
    cx.shape4(t)
}

#[cfg(test)]
mod tests;
