//! SPACE_TO_DEPTH: TFLite Micro `space_to_depth.cc` (int8 and float32, rank-4 NHWC, a
//! height and width divisible by `block_size`; the output is `[b, h / bs, w / bs, d *
//! bs²]`). TFLite Micro does not check `block_size > 0` (it divides by it); tflc refuses
//! it. One strided copy (`tflc_runtime::kernels::space_to_depth`).

use super::movement::{expect_one_of, expect_shape, lower_copy, plan, MoveKernel, StridedCopy};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::DType;
use tflc_runtime::kernels::space_to_depth::prepare_space_to_depth;

const KERNEL: MoveKernel = MoveKernel { op: "SPACE_TO_DEPTH", module: "space_to_depth", func: "space_to_depth", params: "SpaceToDepthParams" };

pub(crate) fn lower(cx: &OpCx<'_, '_>, block_size: i32) -> Result<StridedCopy, LowerError> {
    let (input, output, dtype) = lower_copy(cx, 1)?;
    expect_one_of(cx, input, &[DType::I8, DType::F32], "SPACE_TO_DEPTH")?;
    let [b, h, w, c] = cx.shape4(input)?;
    let bs = usize::try_from(block_size).ok().filter(|&b| b > 0).ok_or_else(|| cx.invalid(format!("block_size {block_size} is not positive")))?;
    if h % bs != 0 || w % bs != 0 {
        return Err(cx.invalid_tensor(input, format!("height {h} and width {w} must be multiples of block_size {bs}")));
    }
    let Some(oc) = bs.checked_mul(bs).and_then(|b2| b2.checked_mul(c)) else {
        return Err(cx.invalid_tensor(input, "the output's depth overflows"));
    };
    expect_shape(cx, output, &[b, h / bs, w / bs, oc])?;
    let plan = plan(cx, prepare_space_to_depth([b, h, w, c], bs), "SPACE_TO_DEPTH")?;
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

    fn model(dtype: DType, in_shape: &[usize], bs: i32, out_shape: &[usize]) -> (Vec<u8>, TensorId, TensorId) {
        let q = (dtype == DType::I8).then_some((0.05, -5));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", dtype, in_shape, q);
        let y = b.activation("y", dtype, out_shape, q);
        b.op(OpKind::SpaceToDepth { block_size: bs }, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// TFLite Micro's outputs (tools/op_test_vectors.py) for int8 over the full range.
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, x, y) = model(DType::I8, &[2, 4, 6, 3], 2, &[2, 2, 3, 12]);
        check_vector("space_to_depth_s8", &bytes, &[(x, TensorData::I8(i8s(62, 144)))], y, WANT_S8);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: space_to_depth :: space_to_depth_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn float32_inverts_depth_to_space() {
        let (bytes, x, y) = model(DType::F32, &[1, 3, 6, 1], 3, &[1, 1, 2, 9]);
        let v: Vec<f32> = (0..18).map(|i| i as f32 * 0.25).collect();
        let s = run_op0("space_to_depth_f32", &bytes, &[(x, TensorData::F32(v))]);
        // Output column j, depth k = r * 3 + c reads input row r, column j * 3 + c.
        let want: Vec<f32> = (0..18).map(|k| {
            let (j, d) = (k / 9, k % 9);
            ((d / 3) * 6 + j * 3 + d % 3) as f32 * 0.25
        }).collect();
        assert_eq!(s.f32(y).unwrap(), want.as_slice());
    }

    #[test]
    fn malformed_and_unsupported() {
        assert!(matches!(lower_err(&model(DType::I8, &[1, 2, 2, 4], 0, &[1, 2, 2, 4]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[1, 3, 2, 1], 2, &[1, 1, 1, 4]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[1, 2, 2, 1], 2, &[1, 1, 1, 2]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I32, &[1, 2, 2, 1], 2, &[1, 1, 1, 4]).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[2, 2, 1], 2, &[1, 1, 4]).0), LowerError::Unsupported { .. }));
    }

    const WANT_S8: &[i8] = &[
        78, -51, 24, -78, 14, 71, 105, 73, -42, 22, 84, 59, -71, 96, 13, -86, 45, -68, -108, -3, -120,
        -37, 41, 105, 32, 115, 38, 60, -104, -60, 116, 63, 56, -118, -96, -1, -19, 42, -21, -27, 33,
        -80, 127, 40, -30, -123, -65, 72, 99, -36, -82, -107, -96, 125, -101, 21, -5, -50, 59, 43, 55,
        -79, -125, 86, 96, -95, -55, -10, -30, 74, 106, 83, 52, -120, 27, -74, -70, 18, -9, -71, 44,
        107, -59, 32, 93, 126, -105, 33, -102, -118, -33, -2, -85, -97, -123, -58, 76, -6, 38, -18,
        -121, 44, 12, 47, -127, 100, 94, 115, -95, 7, -95, -45, -57, 76, -76, 58, 27, -79, -30, -104,
        -59, 62, -93, 40, -97, 87, -76, -80, -97, -2, 103, -10, 102, 88, 57, 110, -67, 26, -125, -105,
        39, -75, -34, 54,
    ];
}
