//! DEPTH_TO_SPACE: TFLite Micro `depth_to_space.cc` (int8 and float32, rank-4 NHWC,
//! `block_size > 0`, a depth divisible by `block_size²`; the output is
//! `[b, h * bs, w * bs, d / bs²]`). One strided copy
//! (`tflc_runtime::kernels::depth_to_space`).

use super::movement::{expect_one_of, expect_shape, lower_copy, plan, MoveKernel, StridedCopy};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::DType;
use tflc_runtime::kernels::depth_to_space::prepare_depth_to_space;

const KERNEL: MoveKernel = MoveKernel { op: "DEPTH_TO_SPACE", module: "depth_to_space", func: "depth_to_space", params: "DepthToSpaceParams" };

pub(crate) fn lower(cx: &OpCx<'_, '_>, block_size: i32) -> Result<StridedCopy, LowerError> {
    let (input, output, dtype) = lower_copy(cx, 1)?;
    expect_one_of(cx, input, &[DType::I8, DType::F32], "DEPTH_TO_SPACE")?;
    let [b, h, w, c] = cx.shape4(input)?;
    let bs = usize::try_from(block_size).ok().filter(|&b| b > 0).ok_or_else(|| cx.invalid(format!("block_size {block_size} is not positive")))?;
    let Some(bs2) = bs.checked_mul(bs).filter(|&b2| c % b2 == 0) else {
        return Err(cx.invalid_tensor(input, format!("depth {c} is not a multiple of block_size² ({bs}²)")));
    };
    let (Some(oh), Some(ow)) = (h.checked_mul(bs), w.checked_mul(bs)) else {
        return Err(cx.invalid_tensor(input, "the output's size overflows"));
    };
    expect_shape(cx, output, &[b, oh, ow, c / bs2])?;
    let plan = plan(cx, prepare_depth_to_space([b, h, w, c], bs), "DEPTH_TO_SPACE")?;
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
        b.op(OpKind::DepthToSpace { block_size: bs }, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// TFLite Micro's outputs (tools/op_test_vectors.py) for int8 over the full range.
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, x, y) = model(DType::I8, &[2, 2, 3, 8], 2, &[2, 4, 6, 2]);
        check_vector("depth_to_space_s8", &bytes, &[(x, TensorData::I8(i8s(61, 96)))], y, WANT_S8);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: depth_to_space :: depth_to_space_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn float32_is_the_same_walk() {
        let (bytes, x, y) = model(DType::F32, &[1, 1, 2, 9], 3, &[1, 3, 6, 1]);
        let v: Vec<f32> = (0..18).map(|i| i as f32 - 0.5).collect();
        let s = run_op0("depth_to_space_f32", &bytes, &[(x, TensorData::F32(v))]);
        // Output row r, column c reads input column c / 3, depth (r * 3 + c % 3).
        let want: Vec<f32> = (0..18).map(|k| {
            let (r, c) = (k / 6, k % 6);
            ((c / 3) * 9 + r * 3 + c % 3) as f32 - 0.5
        }).collect();
        assert_eq!(s.f32(y).unwrap(), want.as_slice());
    }

    #[test]
    fn malformed_and_unsupported() {
        assert!(matches!(lower_err(&model(DType::I8, &[1, 2, 2, 4], 0, &[1, 2, 2, 4]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[1, 2, 2, 6], 2, &[1, 4, 4, 1]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[1, 2, 2, 4], 2, &[1, 4, 4, 2]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[2, 2, 4], 2, &[4, 4, 1]).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I16, &[1, 2, 2, 4], 2, &[1, 4, 4, 1]).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I8, &[1, 2, 2, 4], i32::MAX, &[1, 4, 4, 1]).0), LowerError::Invalid { .. }));
    }

    const WANT_S8: &[i8] = &[
        -77, -6, 69, 31, -125, -59, -49, 88, -115, -102, 52, -16, -92, -92, -105, -62, 25, -15, 78, 37,
        -32, -35, -22, 65, -28, 12, 110, 56, 63, 13, 52, -62, -38, 113, -108, 27, -92, -13, 62, -122,
        104, -7, 73, 74, -24, 40, 10, 111, 43, -36, 127, -116, 39, -10, -4, -2, 102, 104, -64, 56,
        -100, 26, 107, -10, -26, -19, -113, 47, 80, 3, 26, 92, 54, 24, -108, -29, 125, -47, -4, 111,
        -81, -96, -41, -29, 68, -37, 53, 20, -50, 91, -87, -122, 44, 100, 52, -105,
    ];
}
