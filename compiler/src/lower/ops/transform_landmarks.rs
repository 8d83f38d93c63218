//! TransformLandmarks, MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/transform_landmarks.cc`): landmarks through an affine
//! matrix, float32. The runtime kernel is `tflc_runtime::kernels::transform_landmarks`.
//!
//! MediaPipe's resolvers register version 2 only (`AddCustom("TransformLandmarks",
//! RegisterTransformLandmarksV2(), 2)`), so an operator code of another version is refused.
//! Version 2's checks, made here: 2 inputs (landmarks of rank 3, matrix) and 1 output of the
//! landmarks' shape (Prepare's `ResizeTensor`), float32; the landmarks' last dimension is
//! the number of coordinates, 2 or 3 (`ParseTransformLandmarksV2Attributes` takes it from
//! the output shape; the options are not read). tflc also refuses what the kernel would read
//! out of bounds or leave unwritten: a matrix of fewer than 8 floats, a first dimension
//! other than 1 (MediaPipe transforms the first row only).

use super::mediapipe::{expect_shape, expect_version};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::transform_landmarks::{transform_landmarks_f32, TransformLandmarksParams};

/// The custom code.
pub const NAME: &str = "TransformLandmarks";

crate::runtime_struct_lit!(kernels::transform_landmarks::TransformLandmarksParams { landmarks, dimensions });

/// A lowered TransformLandmarks.
#[derive(Debug, Clone)]
pub struct TransformLandmarks {
    params: TransformLandmarksParams,
    /// Landmarks, matrix.
    inputs: [TensorId; 2],
    /// Elements of the matrix tensor.
    matrix_len: usize,
    output: TensorId,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<TransformLandmarks, LowerError> {
    expect_version(cx, 2)?;
    cx.expect_arity(2..=2, 1)?;
    let (input, matrix, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    cx.expect_dtype(input, DType::F32)?;
    cx.expect_dtype(matrix, DType::F32)?;
    cx.expect_dtype(output, DType::F32)?;
    let &[rows, landmarks, dimensions] = input.shape.as_slice() else {
        return Err(cx.invalid_tensor(input, format!("shape {:?} (MediaPipe requires rank 3: [1, landmarks, 2 or 3])", input.shape)));
    };
    if rows != 1 {
        return Err(cx.unsupported_tensor(input, format!("shape {:?}: MediaPipe transforms the first row only (1 required)", input.shape)));
    }
    if dimensions != 2 && dimensions != 3 {
        return Err(cx.invalid_tensor(input, format!("shape {:?}: {dimensions} coordinates per landmark (MediaPipe: \"Incorrect dimensions size\"; 2 or 3)", input.shape)));
    }
    if matrix.num_elements() < 8 {
        return Err(cx.invalid_tensor(matrix, format!("shape {:?}: MediaPipe reads the first two rows of a 4x4 matrix (8 floats)", matrix.shape)));
    }
    expect_shape(cx, output, &input.shape)?;
    cx.expect_activation(output)?;
    let params = TransformLandmarksParams { landmarks, dimensions };
    Ok(TransformLandmarks { params, inputs: [input.id, matrix.id], matrix_len: matrix.num_elements(), output: output.id })
}

impl Kernel for TransformLandmarks {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = &self.params;
        let (x, m) = (s.f32(self.inputs[0])?.to_vec(), s.f32(self.inputs[1])?.to_vec());
        if x.len() != p.landmarks * p.dimensions || m.len() != self.matrix_len {
            return Err(ExecError(format!("{NAME}: an input's data does not match its shape")));
        }
        let mut y = s.take_f32(self.output, x.len());
        transform_landmarks_f32(p, &x, &m, &mut y);
        s.insert(self.output, TensorData::F32(y));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::transform_landmarks::TransformLandmarksParams }, &self.params);
        let [x, m] = self.inputs.map(|t| cx.input(t));
        let y = cx.output(self.output);
        quote! { #rt::kernels::transform_landmarks::transform_landmarks_f32(&#p, #x, #m, #y); }
    }
}
