//! TransformTensorBilinear, MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/transform_tensor_bilinear.cc`): bilinear sampling of
//! an image through an affine matrix, float32. The runtime kernel is
//! `tflc_runtime::kernels::transform_tensor_bilinear`.
//!
//! MediaPipe's resolvers register version 2 only (`AddCustom("TransformTensorBilinear",
//! RegisterTransformTensorBilinearV2(), 2)`), so an operator code of another version is
//! refused, as MediaPipe cannot resolve it. Prepare's checks, made here: 2 inputs (image of
//! rank 4, matrix) and 1 output, float32. The output keeps the model's shape (Prepare does
//! not resize it; the FlexBuffer options' `output_height` / `output_width` serve the GPU
//! delegate only). tflc also refuses what the kernel would read or write out of bounds: a
//! matrix of fewer than 8 floats, an output of rank other than 4, of a batch other than 1
//! (MediaPipe writes batch 0 only) or with more channels than the image.

use super::mediapipe::{expect_version, f32_shape4};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::transform_tensor_bilinear::{transform_tensor_bilinear_f32, TransformTensorBilinearParams};

/// The custom code.
pub const NAME: &str = "TransformTensorBilinear";

crate::runtime_struct_lit!(kernels::transform_tensor_bilinear::TransformTensorBilinearParams { input_shape, output_shape });

/// A lowered TransformTensorBilinear.
#[derive(Debug, Clone)]
pub struct TransformTensorBilinear {
    params: TransformTensorBilinearParams,
    /// Image, matrix.
    inputs: [TensorId; 2],
    /// Elements of the matrix tensor.
    matrix_len: usize,
    output: TensorId,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<TransformTensorBilinear, LowerError> {
    expect_version(cx, 2)?;
    cx.expect_arity(2..=2, 1)?;
    let (input, matrix, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    let input_shape = f32_shape4(cx, input)?;
    cx.expect_dtype(matrix, DType::F32)?;
    if matrix.num_elements() < 8 {
        return Err(cx.invalid_tensor(matrix, format!("shape {:?}: MediaPipe reads the first two rows of a 4x4 matrix (8 floats)", matrix.shape)));
    }
    let output_shape = f32_shape4(cx, output)?;
    if output_shape[0] != 1 {
        return Err(cx.unsupported_tensor(output, format!("shape {output_shape:?}: MediaPipe writes batch 0 only (batch 1 required)")));
    }
    if output_shape[3] > input_shape[3] {
        return Err(cx.invalid_tensor(output, format!("{} channels, more than the image's {}", output_shape[3], input_shape[3])));
    }
    cx.expect_activation(output)?;
    super::mediapipe::expect_static(cx, output)?;
    let params = TransformTensorBilinearParams { input_shape, output_shape };
    Ok(TransformTensorBilinear { params, inputs: [input.id, matrix.id], matrix_len: matrix.num_elements(), output: output.id })
}

impl Kernel for TransformTensorBilinear {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = &self.params;
        let (x, m) = (s.f32(self.inputs[0])?.to_vec(), s.f32(self.inputs[1])?.to_vec());
        if x.len() != p.input_shape.iter().product::<usize>() || m.len() != self.matrix_len {
            return Err(ExecError(format!("{NAME}: an input's data does not match its shape")));
        }
        let mut y = s.take_f32(self.output, p.output_shape.iter().product());
        transform_tensor_bilinear_f32(p, &x, &m, &mut y);
        s.insert(self.output, TensorData::F32(y));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::transform_tensor_bilinear::TransformTensorBilinearParams }, &self.params);
        let [x, m] = self.inputs.map(|t| cx.input(t));
        let y = cx.output(self.output);
        quote! { #rt::kernels::transform_tensor_bilinear::transform_tensor_bilinear_f32(&#p, #x, #m, #y); }
    }
}
