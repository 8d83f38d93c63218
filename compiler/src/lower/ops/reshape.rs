//! RESHAPE: a view. The output keeps the input's bytes, element type and quantization;
//! only the shape changes.
//!
//! TFLite Micro (`reshape_common.cc`) compiles for the output tensor's static shape and
//! only checks the element count. Like TFLite (`reshape.cc` `GetOutputShape`), tflc also
//! checks that the requested shape -- the constant int32 shape operand when there is one,
//! else the `new_shape` option -- resolves (one `-1` stretches) to that output shape.

use super::movement::{lower_view, View};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::DType;

/// Resolves a requested shape with at most one `-1` for `elements` elements.
fn resolve(cx: &OpCx<'_, '_>, requested: &[i64], elements: usize) -> Result<Vec<usize>, LowerError> {
    let mut stretch = None;
    let mut known: usize = 1;
    for (i, &d) in requested.iter().enumerate() {
        if d == -1 {
            if stretch.replace(i).is_some() {
                return Err(cx.invalid(format!("the new shape {requested:?} has more than one -1")));
            }
        } else {
            let d = usize::try_from(d).map_err(|_| cx.invalid(format!("the new shape {requested:?} has a negative dimension")))?;
            known = known.checked_mul(d).ok_or_else(|| cx.invalid(format!("the new shape {requested:?} is too large")))?;
        }
    }
    let mut shape: Vec<usize> = requested.iter().map(|&d| d.max(0) as usize).collect();
    if let Some(i) = stretch {
        if known == 0 || !elements.is_multiple_of(known) {
            return Err(cx.invalid(format!("the new shape {requested:?} cannot hold {elements} elements")));
        }
        shape[i] = elements / known;
    }
    Ok(shape)
}

/// `new_shape`: the option, when the model gives it.
pub(crate) fn lower(cx: &OpCx<'_, '_>, new_shape: Option<&[i32]>) -> Result<View, LowerError> {
    cx.expect_arity(1..=2, 1)?;
    let input = cx.input(0)?;
    let output = cx.output(0)?;
    let elements = input.num_elements();

    // The requested shape: the shape operand (a constant int32 vector), else the option.
    let requested: Option<Vec<i64>> = match cx.optional_input(1) {
        Some(s) if s.dtype == DType::I32 && s.shape.len() == 1 && s.is_constant() => {
            Some(cx.const_i32(s)?.into_iter().map(i64::from).collect())
        }
        // A computed (non-constant) shape: TFLite Micro uses the static output shape.
        Some(_) => None,
        None => new_shape.map(|v| {
            // The legacy scalar form: `new_shape = [0]` means shape `[]`.
            if v == [0] {
                Vec::new()
            } else {
                v.iter().map(|&d| i64::from(d)).collect()
            }
        }),
    };
    if let Some(req) = requested {
        let want = resolve(cx, &req, elements)?;
        if want != output.shape {
            return Err(cx.invalid_tensor(
                output,
                format!("shape {:?}, but the requested shape {req:?} gives {want:?}", output.shape),
            ));
        }
    }
    lower_view(cx, "RESHAPE", input, output)
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind};
    use crate::tflite::builder::ModelBuilder;

    fn model(in_shape: &[usize], out_shape: &[usize], shape_operand: Option<&[i32]>, new_shape: Option<Vec<i32>>) -> Vec<u8> {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, in_shape, Some((0.5, -3)));
        let y = b.activation("y", DType::I8, out_shape, Some((0.5, -3)));
        let mut ins = vec![Some(x)];
        if let Some(s) = shape_operand {
            ins.push(Some(b.constant_i32("shape", &[s.len()], s, None)));
        }
        b.op(OpKind::Reshape { new_shape }, &ins, &[y]);
        b.inputs(&[x]).outputs(&[y]);
        b.finish()
    }

    #[test]
    fn copies_bytes_with_stretch_dimension() {
        let bytes = model(&[1, 2, 3, 4], &[6, 4], Some(&[-1, 4]), None);
        let x: Vec<i8> = (0..24).map(|i| (i * 11 - 128) as i8).collect();
        let s = run_op0(&bytes, &[(crate::ir::TensorId::new(0), TensorData::I8(x.clone()))]);
        assert_eq!(i8_of(&s, crate::ir::TensorId::new(1)), x);
        assert!(lower_op0(&bytes).unwrap().is_view());
        let (text, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (1, 1));
        assert!(text.contains(":: tflc_runtime :: kernels :: reshape :: reshape_s8 (:: tflc_runtime :: __private :: as_i8 (x0) , :: tflc_runtime :: __private :: as_i8_mut (y0))"), "{text}");
    }

    #[test]
    fn option_and_legacy_scalar_forms() {
        // new_shape from the options, no operand.
        assert!(lower_op0(&model(&[2, 3], &[3, 2], None, Some(vec![3, 2]))).is_ok());
        assert!(lower_op0(&model(&[2, 3], &[3, 2], None, Some(vec![-1, 2]))).is_ok());
        // Legacy [0] is a scalar.
        assert!(lower_op0(&model(&[1], &[], None, Some(vec![0]))).is_ok());
        // No operand and no option: the output shape rules.
        assert!(lower_op0(&model(&[2, 3], &[6], None, None)).is_ok());
    }

    #[test]
    fn float_and_int16_views_copy() {
        for dtype in [DType::F32, DType::I16, DType::I32] {
            let mut b = ModelBuilder::new();
            let q = if dtype == DType::I16 { Some((0.25, 0)) } else { None };
            let x = b.activation("x", dtype, &[2, 2], q);
            let y = b.activation("y", dtype, &[4], q);
            b.op(OpKind::Reshape { new_shape: None }, &[Some(x)], &[y]);
            b.inputs(&[x]).outputs(&[y]);
            let bytes = b.finish();
            let data = match dtype {
                DType::F32 => TensorData::F32(vec![1.5, -2.0, 0.0, 3.25]),
                DType::I16 => TensorData::I16(vec![-32768, 7, 32767, 0]),
                _ => TensorData::I32(vec![i32::MIN, 1, 2, i32::MAX]),
            };
            let s = run_op0(&bytes, &[(x, data.clone())]);
            assert_eq!(s.get(y), Some(&data));
            let (text, _, _) = emit_op0(&bytes);
            assert!(text.contains("kernels :: reshape :: reshape ("), "{text}");
        }
    }

    #[test]
    fn malformed_variants_are_errors() {
        // Element count differs.
        assert!(matches!(lower_err(&model(&[2, 3], &[7], None, None)), LowerError::Invalid { .. }));
        // The operand resolves to another shape.
        assert!(matches!(lower_err(&model(&[2, 3], &[6], Some(&[3, 2]), None)), LowerError::Invalid { .. }));
        // Two -1.
        assert!(matches!(lower_err(&model(&[2, 3], &[6], Some(&[-1, -1]), None)), LowerError::Invalid { .. }));
        // A stretch that does not divide.
        assert!(matches!(lower_err(&model(&[2, 3], &[6], Some(&[-1, 4]), None)), LowerError::Invalid { .. }));
        // Negative dimension.
        assert!(matches!(lower_err(&model(&[2, 3], &[6], Some(&[-2, 3]), None)), LowerError::Invalid { .. }));

        // Quantization changes across the view.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[4], Some((0.5, 0)));
        let y = b.activation("y", DType::I8, &[2, 2], Some((0.25, 0)));
        b.op(OpKind::Reshape { new_shape: None }, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));

        // Element type changes.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[4], Some((0.5, 0)));
        let y = b.activation("y", DType::I16, &[2, 2], Some((0.5, 0)));
        b.op(OpKind::Reshape { new_shape: None }, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Invalid { .. }));

        // No input at all, and an element type without views.
        let mut b = ModelBuilder::new();
        let y = b.activation("y", DType::I8, &[2, 2], Some((0.5, 0)));
        b.op(OpKind::Reshape { new_shape: None }, &[], &[y]);
        b.outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Invalid { .. }));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::Bool, &[4], None);
        let y = b.activation("y", DType::Bool, &[2, 2], None);
        b.op(OpKind::Reshape { new_shape: None }, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
    }
}
