//! CONCATENATION along any axis (negative counts from the end of the output's rank).
//!
//! Mirrors TFLite Micro `concatenation.cc`: no fused activation, every input of the
//! output's element type, and for int8 every input with the output's exact scale and
//! zero point (TFLite Micro does not requantize; it refuses other models), so the op is
//! a pure copy: per outer row, the inputs' rows side by side
//! (`tflc_runtime::kernels::concatenation`).

use super::movement::{expect_distinct_outputs, expect_same_type_and_quant, expect_shape, movable_dtype, resolve_axis, Concatenation, MoveKernel};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::Activation;
use tflc_runtime::kernels::concatenation::prepare_concatenation;

const CONCATENATION: MoveKernel =
    MoveKernel { op: "CONCATENATION", module: "concatenation", func: "concatenation", params: "ConcatenationParams" };

pub(crate) fn lower(cx: &OpCx<'_, '_>, axis: i32, activation: Activation) -> Result<Concatenation, LowerError> {
    cx.expect_arity(1..=usize::MAX, 1)?;
    if activation != Activation::None {
        return Err(cx.unsupported(format!("fused activation {activation} (TFLite Micro requires none)")));
    }
    let output = cx.output(0)?;
    let dtype = movable_dtype(cx, output)?;
    let rank = output.shape.len();
    let axis = resolve_axis(cx, i64::from(axis), rank)?;
    let inputs = (0..cx.op.inputs.len()).map(|i| cx.input(i)).collect::<Result<Vec<_>, _>>()?;
    for t in &inputs {
        expect_same_type_and_quant(cx, t, output)?;
        if t.shape.len() != rank {
            return Err(cx.invalid_tensor(t, format!("rank {} differs from the output's {rank}", t.shape.len())));
        }
    }
    expect_distinct_outputs(cx)?;

    // The output's shape first (all checked, overflow-free), so that the geometry below
    // stays within the output's element count.
    let shapes: Vec<&[usize]> = inputs.iter().map(|t| t.shape.as_slice()).collect();
    let mut axis_sum: usize = 0;
    for (t, s) in inputs.iter().zip(&shapes) {
        for d in (0..rank).filter(|&d| d != axis) {
            if s[d] != output.shape[d] {
                return Err(cx.invalid_tensor(t, format!("shape {s:?} differs from the output's {:?} outside axis {axis}", output.shape)));
            }
        }
        axis_sum = axis_sum.checked_add(s[axis]).ok_or_else(|| cx.invalid("the inputs are too large"))?;
    }
    let mut want = output.shape.clone();
    want[axis] = axis_sum;
    expect_shape(cx, output, &want)?;
    let mut offsets = vec![0; inputs.len()];
    let mut lens = vec![0; inputs.len()];
    let (outer, output_row) = prepare_concatenation(&shapes, axis, &mut offsets, &mut lens)
        .ok_or_else(|| cx.invalid(format!("the input shapes {shapes:?} differ outside axis {axis}")))?;
    Ok(Concatenation {
        kernel: CONCATENATION,
        inputs: inputs.iter().map(|t| t.id).collect(),
        output: output.id,
        dtype,
        outer,
        output_row,
        offsets,
        lens,
    })
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{Activation, DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    /// Independent expectation: output element at multi-index `idx` comes from the input
    /// whose range along `axis` holds `idx[axis]`.
    fn expected(shapes: &[Vec<usize>], data: &[Vec<i8>], axis: usize) -> (Vec<usize>, Vec<i8>) {
        let mut out_shape = shapes[0].clone();
        out_shape[axis] = shapes.iter().map(|s| s[axis]).sum();
        let n: usize = out_shape.iter().product();
        let out = (0..n)
            .map(|i| {
                let mut idx = unravel(i, &out_shape);
                let mut k = 0;
                while idx[axis] >= shapes[k][axis] {
                    idx[axis] -= shapes[k][axis];
                    k += 1;
                }
                data[k][ravel(&idx, &shapes[k])]
            })
            .collect();
        (out_shape, out)
    }

    fn check(shapes: &[Vec<usize>], axis: i32) {
        let rank = shapes[0].len() as i32;
        let a = if axis < 0 { axis + rank } else { axis } as usize;
        let data: Vec<Vec<i8>> = shapes.iter().enumerate().map(|(k, s)| i8s(k as u64 + 7, s.iter().product())).collect();
        let (out_shape, want) = expected(shapes, &data, a);
        let mut b = ModelBuilder::new();
        let xs: Vec<TensorId> = shapes.iter().enumerate().map(|(k, s)| b.activation(&format!("x{k}"), DType::I8, s, Some((0.1, 3)))).collect();
        let y = b.activation("y", DType::I8, &out_shape, Some((0.1, 3)));
        let ins: Vec<_> = xs.iter().map(|&x| Some(x)).collect();
        b.op(OpKind::Concatenation { axis, activation: Activation::None }, &ins, &[y]);
        b.inputs(&xs).outputs(&[y]);
        let bytes = b.finish();
        let feed: Vec<_> = xs.iter().zip(&data).map(|(&x, d)| (x, TensorData::I8(d.clone()))).collect();
        let s = run_op0(&bytes, &feed);
        assert_eq!(i8_of(&s, y), want, "shapes {shapes:?} axis {axis}");
        let (text, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (shapes.len(), 1));
        assert!(text.contains("concatenation :: concatenation_s8 (& P0 , & ["), "{text}");
    }

    #[test]
    fn every_axis_including_negative() {
        check(&[vec![2, 3, 4], vec![2, 3, 4]], 0);
        check(&[vec![2, 1, 5], vec![2, 3, 5], vec![2, 2, 5]], 1);
        check(&[vec![2, 3, 1], vec![2, 3, 7]], 2);
        check(&[vec![2, 3, 1], vec![2, 3, 7]], -1);
        check(&[vec![1, 4, 4, 3], vec![1, 4, 4, 5]], -1);
        check(&[vec![3, 2], vec![1, 2], vec![2, 2], vec![1, 2]], -2);
        check(&[vec![5]], 0);
        // An empty input contributes nothing.
        check(&[vec![2, 0, 3], vec![2, 4, 3]], 1);
    }

    #[test]
    fn constant_and_float_inputs() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::F32, &[2, 2], None);
        let c = b.constant_f32("c", &[2, 1], &[9.0, -9.0]);
        let y = b.activation("y", DType::F32, &[2, 3], None);
        b.op(OpKind::Concatenation { axis: 1, activation: Activation::None }, &[Some(c), Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        let bytes = b.finish();
        let s = run_op0(&bytes, &[(x, TensorData::F32(vec![1.0, 2.0, 3.0, 4.0]))]);
        assert_eq!(s.get(y), Some(&TensorData::F32(vec![9.0, 1.0, 2.0, -9.0, 3.0, 4.0])));
        let (text, ni, _) = emit_op0(&bytes);
        // The constant is a weight, not an arena input.
        assert_eq!(ni, 1);
        assert!(text.contains("concatenation :: concatenation (& P0"), "{text}");
        assert!(text.contains("WEIGHTS"), "{text}");
    }

    fn bad(in_q: (f32, i64), shapes: (&[usize], &[usize], &[usize]), axis: i32, act: Activation) -> LowerError {
        let mut b = ModelBuilder::new();
        let x0 = b.activation("x0", DType::I8, shapes.0, Some((0.5, 1)));
        let x1 = b.activation("x1", DType::I8, shapes.1, Some(in_q));
        let y = b.activation("y", DType::I8, shapes.2, Some((0.5, 1)));
        b.op(OpKind::Concatenation { axis, activation: act }, &[Some(x0), Some(x1)], &[y]);
        b.inputs(&[x0, x1]).outputs(&[y]);
        lower_err(&b.finish())
    }

    #[test]
    fn malformed_variants_are_errors() {
        let ok_q = (0.5, 1);
        // Requantization would be needed (scale or zero point differ).
        assert!(matches!(bad((0.25, 1), (&[2, 2], &[2, 2], &[2, 4]), 1, Activation::None), LowerError::Unsupported { .. }));
        assert!(matches!(bad((0.5, 2), (&[2, 2], &[2, 2], &[2, 4]), 1, Activation::None), LowerError::Unsupported { .. }));
        // A fused activation.
        assert!(matches!(bad(ok_q, (&[2, 2], &[2, 2], &[2, 4]), 1, Activation::Relu), LowerError::Unsupported { .. }));
        // Wrong output shape, non-axis dims differ, rank differs, axis out of range.
        assert!(matches!(bad(ok_q, (&[2, 2], &[2, 2], &[2, 5]), 1, Activation::None), LowerError::Invalid { .. }));
        assert!(matches!(bad(ok_q, (&[2, 2], &[3, 2], &[2, 4]), 1, Activation::None), LowerError::Invalid { .. }));
        assert!(matches!(bad(ok_q, (&[2, 2], &[2, 2, 1], &[2, 4]), 1, Activation::None), LowerError::Invalid { .. }));
        assert!(matches!(bad(ok_q, (&[2, 2], &[2, 2], &[2, 4]), 2, Activation::None), LowerError::Invalid { .. }));
        assert!(matches!(bad(ok_q, (&[2, 2], &[2, 2], &[2, 4]), -3, Activation::None), LowerError::Invalid { .. }));
        // A missing (omitted) input.
        let mut b = ModelBuilder::new();
        let x0 = b.activation("x0", DType::I8, &[2], Some(ok_q));
        let y = b.activation("y", DType::I8, &[4], Some(ok_q));
        b.op(OpKind::Concatenation { axis: 0, activation: Activation::None }, &[Some(x0), None], &[y]);
        b.inputs(&[x0]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Invalid { .. }));
    }
}
