//! SLICE: per dimension `[begin, begin + size)` (`size = -1`: to the end) from constant
//! int32 or int64 `begin` / `size` vectors of the input's rank, no clamping: anything out
//! of bounds is an invalid model (TFLite Micro `slice.cc` would read out of bounds). One
//! strided copy (`tflc_runtime::kernels::slice`).

use super::movement::{const_ints, expect_shape, lower_copy, MoveKernel, StridedCopy};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::slice::prepare_slice;

const KERNEL: MoveKernel = MoveKernel { op: "SLICE", module: "slice", func: "slice", params: "SliceParams" };

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<StridedCopy, LowerError> {
    let (input, output, dtype) = lower_copy(cx, 3)?;
    let (begin_t, size_t) = (cx.input(1)?, cx.input(2)?);
    let rank = input.shape.len();
    let begin = const_ints(cx, begin_t)?;
    let size = const_ints(cx, size_t)?;
    for (t, v) in [(begin_t, &begin), (size_t, &size)] {
        if t.shape.len() != 1 || v.len() != rank {
            return Err(cx.invalid_tensor(t, format!("shape {:?}, expected [{rank}]", t.shape)));
        }
    }
    let plan = prepare_slice(&input.shape, &begin, &size)
        .ok_or_else(|| cx.invalid(format!("begin {begin:?} and size {size:?} do not fit the input shape {:?}", input.shape)))?;
    // Within bounds now (prepare_slice checked), so these cannot underflow.
    let want: Vec<usize> =
        (0..rank).map(|d| if size[d] == -1 { input.shape[d] - begin[d] as usize } else { size[d] as usize }).collect();
    expect_shape(cx, output, &want)?;
    Ok(StridedCopy::new(KERNEL, input, dtype, vec![output.id], vec![plan]))
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(in_shape: &[usize], begin: &[i64], size: &[i64], out_shape: &[usize], wide: bool) -> (Vec<u8>, TensorId, TensorId) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, in_shape, Some((0.03, -13)));
        let (bt, st) = if wide {
            let enc = |v: &[i64]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
            (b.constant("begin", DType::I64, &[begin.len()], enc(begin), None), b.constant("size", DType::I64, &[size.len()], enc(size), None))
        } else {
            let n = |v: &[i64]| v.iter().map(|&x| x as i32).collect::<Vec<i32>>();
            (b.constant_i32("begin", &[begin.len()], &n(begin), None), b.constant_i32("size", &[size.len()], &n(size), None))
        };
        let y = b.activation("y", DType::I8, out_shape, Some((0.03, -13)));
        b.op(OpKind::Slice, &[Some(x), Some(bt), Some(st)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    fn check(in_shape: &[usize], begin: &[i64], size: &[i64], wide: bool) {
        let out_shape: Vec<usize> =
            (0..in_shape.len()).map(|d| if size[d] == -1 { in_shape[d] - begin[d] as usize } else { size[d] as usize }).collect();
        let (bytes, x, y) = model(in_shape, begin, size, &out_shape, wide);
        let data = i8s(8, in_shape.iter().product());
        let s = run_op0(&bytes, &[(x, TensorData::I8(data.clone()))]);
        let want: Vec<i8> = (0..out_shape.iter().product())
            .map(|i| {
                let idx: Vec<usize> = unravel(i, &out_shape).iter().zip(begin).map(|(&j, &b)| j + b as usize).collect();
                data[ravel(&idx, in_shape)]
            })
            .collect();
        assert_eq!(i8_of(&s, y), want, "shape {in_shape:?} begin {begin:?} size {size:?}");
        let (text, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (1, 1));
        assert!(text.contains("kernels :: slice :: slice_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn begins_sizes_and_to_the_end() {
        check(&[1, 8, 8, 4], &[0, 2, 1, 1], &[1, 4, 5, 3], false);
        check(&[1, 8, 8, 4], &[0, 7, 0, 0], &[-1, -1, -1, 1], false);
        check(&[6], &[0], &[6], true);
        check(&[3, 4], &[1, 3], &[2, 1], true);
        check(&[3, 4], &[3, 0], &[0, 4], false);
        check(&[2, 3, 4, 5, 2], &[1, 0, 2, 1, 1], &[1, 3, 2, -1, 1], false);
    }

    #[test]
    fn malformed_variants_are_errors() {
        // Out of bounds, negative begin, size below -1, wrong output shape, wrong length.
        assert!(matches!(lower_err(&model(&[3, 4], &[2, 0], &[2, 4], &[2, 4], false).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[3, 4], &[-1, 0], &[1, 4], &[1, 4], false).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[3, 4], &[0, 0], &[-2, 4], &[1, 4], false).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[3, 4], &[0, 0], &[1, 4], &[1, 3], true).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[3, 4], &[0], &[1], &[1, 4], false).0), LowerError::Invalid { .. }));
    }
}
