//! REVERSE_V2: TFLite Micro `reverse.cc`. The axis operand is a rank-1 int32 tensor
//! (constant in tflc: the copy is planned at compile time), negative axes count from the
//! end, and the axes, sorted, must be contiguous (TFLite Micro refuses others; an empty
//! list it reads out of bounds, tflc refuses it). Element types: int8, uint8, int16,
//! int32, float32 (TFLite Micro also reverses int64 and bool, which tflc's data-movement
//! kernels do not move yet). One strided copy with negative strides
//! (`tflc_runtime::kernels::reverse_v2`).

use super::movement::{expect_one_of, expect_shape, lower_copy, plan, MoveKernel, StridedCopy};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::DType;
use tflc_runtime::kernels::reverse_v2::prepare_reverse_v2;

const KERNEL: MoveKernel = MoveKernel { op: "REVERSE_V2", module: "reverse_v2", func: "reverse_v2", params: "ReverseV2Params" };

/// TFLite Micro's limit (`RuntimeShape::kMaxSmallSize`).
const MAX_RANK: usize = 6;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<StridedCopy, LowerError> {
    let (input, output, dtype) = lower_copy(cx, 2)?;
    expect_one_of(cx, input, &[DType::I8, DType::U8, DType::I16, DType::I32, DType::F32], "REVERSE_V2")?;
    let rank = input.shape.len();
    if rank > MAX_RANK {
        return Err(cx.unsupported_tensor(input, format!("rank {rank} (TFLite Micro reverses up to rank {MAX_RANK})")));
    }
    let axis_t = cx.input(1)?;
    if axis_t.shape.len() != 1 {
        return Err(cx.invalid_tensor(axis_t, format!("shape {:?}, expected rank 1", axis_t.shape)));
    }
    let axes = cx.const_i32(axis_t)?;
    if axes.is_empty() || axes.len() > rank {
        return Err(cx.unsupported_tensor(axis_t, format!("{} axes for rank {rank} (TFLite Micro needs 1 to rank)", axes.len())));
    }
    let mut a = Vec::with_capacity(axes.len());
    for &v in &axes {
        let r = rank as i64;
        let v = if v < 0 { i64::from(v) + r } else { i64::from(v) };
        if !(0..r).contains(&v) {
            return Err(cx.invalid_tensor(axis_t, format!("axes {axes:?} out of range for rank {rank}")));
        }
        a.push(v as usize);
    }
    a.sort_unstable();
    if a.windows(2).any(|w| w[0] + 1 != w[1]) {
        return Err(cx.unsupported_tensor(axis_t, format!("axes {axes:?} are not contiguous (TFLite Micro refuses them)")));
    }
    expect_shape(cx, output, &input.shape)?;
    let plan = plan(cx, prepare_reverse_v2(&input.shape, &a), "REVERSE_V2")?;
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

    fn model(dtype: DType, shape: &[usize], axes: &[i32]) -> (Vec<u8>, TensorId, TensorId) {
        let q = (dtype == DType::I8).then_some((0.05, -5));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", dtype, shape, q);
        let a = b.constant_i32("axes", &[axes.len()], axes, None);
        let y = b.activation("y", dtype, shape, q);
        b.op(OpKind::ReverseV2, &[Some(x), Some(a)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// TFLite Micro's outputs (tools/op_test_vectors.py): one middle axis, a negative
    /// pair of trailing axes, every axis.
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, x, y) = model(DType::I8, &[2, 3, 4, 5], &[1]);
        check_vector("reverse_v2_s8_axis1", &bytes, &[(x, TensorData::I8(i8s(63, 120)))], y, WANT_AXIS1);
        let (bytes, x, y) = model(DType::I8, &[2, 3, 4, 5], &[-1, 2]);
        check_vector("reverse_v2_s8_axes_neg", &bytes, &[(x, TensorData::I8(i8s(64, 120)))], y, WANT_AXES_NEG);
        let (bytes, x, y) = model(DType::I8, &[3, 7], &[0, 1]);
        check_vector("reverse_v2_s8_all", &bytes, &[(x, TensorData::I8(i8s(65, 21)))], y, WANT_ALL);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: reverse_v2 :: reverse_v2_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn other_element_types() {
        let (bytes, x, y) = model(DType::F32, &[2, 3], &[1]);
        let s = run_op0("reverse_v2_f32", &bytes, &[(x, TensorData::F32(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))]);
        assert_eq!(s.f32(y).unwrap(), &[3.0, 2.0, 1.0, 6.0, 5.0, 4.0]);
        let (bytes, x, y) = model(DType::I16, &[3, 2], &[0]);
        let s = run_op0("reverse_v2_i16", &bytes, &[(x, TensorData::I16(vec![-32768, 1, 2, 3, 4, 32767]))]);
        assert_eq!(s.i16(y).unwrap(), &[4, 32767, 2, 3, -32768, 1]);
        let (bytes, x, y) = model(DType::I32, &[4], &[-1]);
        let s = run_op0("reverse_v2_i32", &bytes, &[(x, TensorData::I32(vec![i32::MIN, 0, 7, i32::MAX]))]);
        assert_eq!(s.i32(y).unwrap(), &[i32::MAX, 7, 0, i32::MIN]);
    }

    #[test]
    fn malformed_and_unsupported() {
        assert!(matches!(lower_err(&model(DType::I8, &[2, 3, 4], &[0, 2]).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[2, 3, 4], &[1, 1]).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[2, 3, 4], &[3]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[2, 3, 4], &[-4]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[2, 3, 4], &[]).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[2; 7], &[0]).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I64, &[2], &[0]).0), LowerError::Unsupported { .. }));
    }

    const WANT_AXIS1: &[i8] = &[
        -85, 98, 91, 69, 97, 102, -20, -110, -57, 86, 70, 13, -36, -104, -6, -111, 17, -16, -49, 41,
        -27, -57, 52, -105, -12, 20, 81, -33, 123, 117, 104, -58, -9, 71, -25, -60, 28, -125, 53, -111,
        -56, 99, -20, 42, 114, 94, 28, 93, -85, 17, -68, 9, -96, 124, 115, 21, -4, 29, 23, 81, -31, 53,
        101, 1, 87, -20, 107, -110, -2, 119, -107, 29, 118, 75, 59, -1, -103, -24, -11, -4, -88, -99,
        113, 113, -50, 35, 94, -119, 109, -80, -93, -14, 57, -95, 75, -95, -72, -110, 16, -84, -6, 67,
        -125, 32, -35, -82, 3, -76, 6, -77, -41, -99, 56, -121, -21, 75, -122, 3, 85, -74,
    ];
    const WANT_AXES_NEG: &[i8] = &[
        -12, 121, -67, -57, -61, 91, -74, 61, -65, -42, -21, 90, -25, -68, 108, 39, 91, 107, 73, -70,
        -87, 25, -21, -67, -57, 57, 125, -30, -89, 7, 94, 127, 21, 98, 107, 25, 56, -73, -16, 25, -111,
        100, 52, -88, 88, 36, -37, 77, 108, 124, 57, -125, -104, -73, -93, 114, 84, -54, -14, 51, -1,
        -108, -8, -66, -101, 110, -107, -38, 86, 13, 11, -109, -16, -106, 44, -4, 50, 125, 44, 33, 92,
        -75, 10, 35, 62, -60, 48, -91, -117, 88, -14, -48, 47, -108, 31, 125, 115, -8, 122, -19, 124,
        -66, -51, -1, -39, 31, 44, -83, 26, -54, 8, -98, -32, -114, -37, -48, 13, -91, 40, -81,
    ];
    const WANT_ALL: &[i8] = &[
        -30, -127, -40, 100, -96, -11, 28, 66, 69, -107, -91, 15, -38, 10, -75, -80, 49, 103, -89, -37,
        114,
    ];
}
