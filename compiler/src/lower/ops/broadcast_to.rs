//! BROADCAST_TO: TFLite Micro `broadcast_to.cc`. The shape operand is a constant rank-1
//! int32 or int64 tensor equal to the output's shape, of rank up to 5 and at least the
//! input's; every input dimension, right-aligned, is 1 or the output's. Any element type
//! in TFLite Micro; tflc moves int8, uint8, int16, int32 and float32. One strided copy
//! with zero strides (`tflc_runtime::kernels::broadcast_to`).

use super::movement::{const_ints, expect_shape, lower_copy, plan, MoveKernel, StridedCopy};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::broadcast_to::prepare_broadcast_to;

const KERNEL: MoveKernel = MoveKernel { op: "BROADCAST_TO", module: "broadcast_to", func: "broadcast_to", params: "BroadcastToParams" };

/// TFLite Micro's limit (`kMaxDims`).
const MAX_RANK: usize = 5;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<StridedCopy, LowerError> {
    let (input, output, dtype) = lower_copy(cx, 2)?;
    let shape_t = cx.input(1)?;
    if shape_t.shape.len() != 1 {
        return Err(cx.invalid_tensor(shape_t, format!("shape {:?}, expected rank 1", shape_t.shape)));
    }
    let shape = const_ints(cx, shape_t)?;
    if shape.len() > MAX_RANK || input.shape.len() > MAX_RANK {
        return Err(cx.unsupported_tensor(shape_t, format!("rank {} (TFLite Micro broadcasts ranks 1 to {MAX_RANK})", shape.len().max(input.shape.len()))));
    }
    let want: Vec<usize> = match shape.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<Vec<_>>>() {
        Some(w) => w,
        None => return Err(cx.invalid_tensor(shape_t, format!("shape {shape:?} has a negative dimension"))),
    };
    expect_shape(cx, output, &want)?;
    let Some(p) = prepare_broadcast_to(&input.shape, &want) else {
        return Err(cx.invalid_tensor(input, format!("shape {:?} does not broadcast to {want:?}", input.shape)));
    };
    let plan = plan(cx, Some(p), "BROADCAST_TO")?;
    Ok(StridedCopy::new(KERNEL, input, dtype, vec![output.id], vec![plan]))
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::{emit_op0, lower_err};
    use super::super::test_helpers::{check_vector, i8s, run_op0};
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(dtype: DType, in_shape: &[usize], shape: &[i32], out_shape: &[usize]) -> (Vec<u8>, TensorId, TensorId) {
        let q = (dtype == DType::I8).then_some((0.05, -5));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", dtype, in_shape, q);
        let s = b.constant_i32("shape", &[shape.len()], shape, None);
        let y = b.activation("y", dtype, out_shape, q);
        b.op(OpKind::BroadcastTo, &[Some(x), Some(s)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// TFLite Micro's outputs (tools/op_test_vectors.py): inner and outer stretching with a
    /// new leading dimension, and a scalar-like input.
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, x, y) = model(DType::I8, &[3, 1, 4], &[2, 3, 5, 4], &[2, 3, 5, 4]);
        check_vector("broadcast_to_s8", &bytes, &[(x, TensorData::I8(i8s(66, 12)))], y, WANT_S8);
        let (bytes, x, y) = model(DType::I8, &[1, 1], &[3, 2, 2], &[3, 2, 2]);
        check_vector("broadcast_to_s8_ones", &bytes, &[(x, TensorData::I8(vec![-128]))], y, WANT_ONES);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: broadcast_to :: broadcast_to_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn float32_and_int32() {
        let (bytes, x, y) = model(DType::F32, &[2, 1], &[2, 3], &[2, 3]);
        let s = run_op0("broadcast_to_f32", &bytes, &[(x, TensorData::F32(vec![1.5, -2.0]))]);
        assert_eq!(s.f32(y).unwrap(), &[1.5, 1.5, 1.5, -2.0, -2.0, -2.0]);
        let (bytes, x, y) = model(DType::I32, &[3], &[2, 3], &[2, 3]);
        let s = run_op0("broadcast_to_i32", &bytes, &[(x, TensorData::I32(vec![i32::MIN, 0, i32::MAX]))]);
        assert_eq!(s.i32(y).unwrap(), &[i32::MIN, 0, i32::MAX, i32::MIN, 0, i32::MAX]);
    }

    #[test]
    fn malformed_and_unsupported() {
        assert!(matches!(lower_err(&model(DType::I8, &[2, 3], &[3], &[3]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[2, 3], &[2, 4], &[2, 4]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[2, 1], &[2, 4], &[2, 5]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[1], &[-1], &[1]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[1], &[2; 6], &[2; 6]).0), LowerError::Unsupported { .. }));
    }

    const WANT_S8: &[i8] = &[
        110, 70, 27, -54, 110, 70, 27, -54, 110, 70, 27, -54, 110, 70, 27, -54, 110, 70, 27, -54, -95,
        -43, 110, -22, -95, -43, 110, -22, -95, -43, 110, -22, -95, -43, 110, -22, -95, -43, 110, -22,
        -99, -47, -34, -78, -99, -47, -34, -78, -99, -47, -34, -78, -99, -47, -34, -78, -99, -47, -34,
        -78, 110, 70, 27, -54, 110, 70, 27, -54, 110, 70, 27, -54, 110, 70, 27, -54, 110, 70, 27, -54,
        -95, -43, 110, -22, -95, -43, 110, -22, -95, -43, 110, -22, -95, -43, 110, -22, -95, -43, 110,
        -22, -99, -47, -34, -78, -99, -47, -34, -78, -99, -47, -34, -78, -99, -47, -34, -78, -99, -47,
        -34, -78,
    ];
    const WANT_ONES: &[i8] = &[
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
    ];
}
