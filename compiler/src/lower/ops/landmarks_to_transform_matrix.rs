//! Landmarks2TransformMatrix, MediaPipe's custom operator
//! (`mediapipe/util/tflite/operations/landmarks_to_transform_matrix.cc`): the affine matrix
//! of a rotated crop around a subset of 3D landmarks, float32. The runtime kernel is
//! `tflc_runtime::kernels::landmarks_to_transform_matrix`.
//!
//! MediaPipe's resolvers register version 2 only (`AddCustom("Landmarks2TransformMatrix",
//! RegisterLandmarksToTransformMatrixV2(), 2)`), so an operator code of another version is
//! refused. The options are a FlexBuffer map read as `ParseLandmarksToTransformMatrixV2Attributes`
//! does: `subset_idxs` a typed vector of ints taken in pairs (an odd last one paired with
//! itself), `left_rotation_idx`, `right_rotation_idx`, `output_height`, `output_width` as
//! ints, `target_rotation_radians`, `scale_x`, `scale_y` as floats (a missing key reads as 0).
//! Eval's checks, made here: rotation indices and subset values `>= 0`, output sizes and
//! scales `> 0`; Prepare's: 1 input of rank 3 and 1 output `[1, 4, 4]`, float32. tflc also
//! refuses what the kernel would read out of bounds: an empty subset, and any index past the
//! landmarks (3 floats each, whatever the input's shape).

use super::mediapipe::{expect_shape, expect_version};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::flexbuffers::{Map, Value};
use tflc_runtime::kernels::landmarks_to_transform_matrix::{landmarks_to_transform_matrix_f32, LandmarksToTransformMatrixParams};

/// The custom code.
pub const NAME: &str = "Landmarks2TransformMatrix";

crate::runtime_struct_lit!(kernels::landmarks_to_transform_matrix::LandmarksToTransformMatrixParams<'a> {
    subset,
    left_rotation_idx,
    right_rotation_idx,
    target_rotation_radians,
    output_height,
    output_width,
    scale_x,
    scale_y,
});

/// A lowered Landmarks2TransformMatrix.
#[derive(Debug, Clone)]
pub struct LandmarksToTransformMatrix {
    subset: Vec<[usize; 2]>,
    left_rotation_idx: usize,
    right_rotation_idx: usize,
    target_rotation_radians: f32,
    output_height: i32,
    output_width: i32,
    scale_x: f32,
    scale_y: f32,
    input: TensorId,
    /// Landmarks in the input (its elements / 3).
    landmarks: usize,
    output: TensorId,
}

impl LandmarksToTransformMatrix {
    /// The runtime's params, borrowing the subset.
    fn params(&self) -> LandmarksToTransformMatrixParams<'_> {
        LandmarksToTransformMatrixParams {
            subset: &self.subset,
            left_rotation_idx: self.left_rotation_idx,
            right_rotation_idx: self.right_rotation_idx,
            target_rotation_radians: self.target_rotation_radians,
            output_height: self.output_height,
            output_width: self.output_width,
            scale_x: self.scale_x,
            scale_y: self.scale_y,
        }
    }
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<LandmarksToTransformMatrix, LowerError> {
    expect_version(cx, 2)?;
    cx.expect_arity(1..=1, 1)?;
    let (input, output) = (cx.input(0)?, cx.output(0)?);
    cx.expect_dtype(input, DType::F32)?;
    cx.expect_dtype(output, DType::F32)?;
    if input.shape.len() != 3 {
        return Err(cx.invalid_tensor(input, format!("shape {:?} (MediaPipe requires rank 3)", input.shape)));
    }
    expect_shape(cx, output, &[1, 4, 4])?;
    cx.expect_activation(output)?;
    let landmarks = input.num_elements() / 3;
    let bytes = cx.op.custom_options.ok_or_else(|| cx.invalid("the custom options (a FlexBuffer map) are missing"))?;
    let map = Map::parse(bytes).map_err(|e| cx.invalid(format!("custom options: not a FlexBuffer map ({e:?})")))?;
    // flexbuffers' AsInt32 / AsFloat: a missing key is 0.
    let int = |key: &str| -> Result<i32, LowerError> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(0),
            Some(v) => v.as_i32().ok_or_else(|| cx.invalid(format!("custom option {key:?} is {v:?}, not an int32"))),
        }
    };
    let float = |key: &str| -> Result<f32, LowerError> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(0.0),
            Some(v) => v.as_f32().ok_or_else(|| cx.invalid(format!("custom option {key:?} is {v:?}, not a number"))),
        }
    };
    let index = |key: &str, v: i32| -> Result<usize, LowerError> {
        usize::try_from(v).ok().filter(|&i| i < landmarks).ok_or_else(|| {
            cx.invalid_tensor(input, format!("custom option {key} = {v}: not one of the input's {landmarks} landmarks (3 floats each)"))
        })
    };
    let ids: Vec<i32> = match map.get("subset_idxs") {
        Some(Value::Vector(v)) if v.is_typed() => v
            .iter()
            .map(|e| e.as_i32().ok_or_else(|| cx.invalid(format!("custom option \"subset_idxs\": element {e:?} is not an int32"))))
            .collect::<Result<_, _>>()?,
        Some(v) => return Err(cx.invalid(format!("custom option \"subset_idxs\" is {v:?}, not a typed vector of ints (MediaPipe reads it with AsTypedVector)"))),
        None => Vec::new(),
    };
    if ids.is_empty() {
        return Err(cx.invalid("custom option \"subset_idxs\" is empty or missing: MediaPipe reads the first landmark of an empty subset"));
    }
    let mut subset = Vec::new();
    for (i, pair) in ids.chunks(2).enumerate() {
        let a = index(&format!("subset_idxs[{}]", 2 * i), pair[0])?;
        let b = match pair.get(1) {
            Some(&v) => index(&format!("subset_idxs[{}]", 2 * i + 1), v)?,
            None => a,
        };
        subset.push([a, b]);
    }
    let left_rotation_idx = index("left_rotation_idx", int("left_rotation_idx")?)?;
    let right_rotation_idx = index("right_rotation_idx", int("right_rotation_idx")?)?;
    let positive_int = |key: &str| -> Result<i32, LowerError> {
        let v = int(key)?;
        if v <= 0 {
            return Err(cx.invalid(format!("custom option {key} = {v} (MediaPipe requires > 0)")));
        }
        Ok(v)
    };
    let positive_float = |key: &str| -> Result<f32, LowerError> {
        let v = float(key)?;
        // NaN too (MediaPipe's `scale <= 0` lets it through; the matrix would be NaN).
        if v.is_nan() || v <= 0.0 {
            return Err(cx.invalid(format!("custom option {key} = {v} (MediaPipe requires > 0)")));
        }
        Ok(v)
    };
    Ok(LandmarksToTransformMatrix {
        subset,
        left_rotation_idx,
        right_rotation_idx,
        target_rotation_radians: float("target_rotation_radians")?,
        output_height: positive_int("output_height")?,
        output_width: positive_int("output_width")?,
        scale_x: positive_float("scale_x")?,
        scale_y: positive_float("scale_y")?,
        input: input.id,
        landmarks,
        output: output.id,
    })
}

impl Kernel for LandmarksToTransformMatrix {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let x = s.f32(self.input)?.to_vec();
        if x.len() < 3 * self.landmarks {
            return Err(ExecError(format!("{NAME}: the input's data does not match its shape")));
        }
        let mut y = s.take_f32(self.output, 16);
        landmarks_to_transform_matrix_f32(&self.params(), &x, &mut y);
        s.insert(self.output, TensorData::F32(y));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::landmarks_to_transform_matrix::LandmarksToTransformMatrixParams }, &self.params());
        let x = cx.input(self.input);
        let y = cx.output(self.output);
        quote! { #rt::kernels::landmarks_to_transform_matrix::landmarks_to_transform_matrix_f32(&#p, #x, #y); }
    }
}
