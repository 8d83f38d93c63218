//! TRANSPOSE: output dimension `d` walks input dimension `perm[d]`; `perm` is a constant
//! int32 permutation of `0..rank` (TFLite Micro `transpose_common.cc`: no negative
//! entries). One strided copy (`tflc_runtime::kernels::transpose`).

use super::movement::{expect_shape, lower_copy, plan, MoveKernel, StridedCopy};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::transpose::prepare_transpose;

const KERNEL: MoveKernel = MoveKernel { op: "TRANSPOSE", module: "transpose", func: "transpose", params: "TransposeParams" };

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<StridedCopy, LowerError> {
    let (input, output, dtype) = lower_copy(cx, 2)?;
    let perm_t = cx.input(1)?;
    let rank = input.shape.len();
    let perm = cx.const_i32(perm_t)?;
    if perm_t.shape.len() != 1 || perm.len() != rank {
        return Err(cx.invalid_tensor(perm_t, format!("shape {:?}, expected [{rank}]", perm_t.shape)));
    }
    let mut p = Vec::with_capacity(rank);
    let mut seen = vec![false; rank];
    for &v in &perm {
        match usize::try_from(v).ok().filter(|&v| v < rank) {
            Some(v) if !seen[v] => {
                seen[v] = true;
                p.push(v);
            }
            _ => return Err(cx.invalid_tensor(perm_t, format!("{perm:?} is not a permutation of 0..{rank}"))),
        }
    }
    let want: Vec<usize> = p.iter().map(|&d| input.shape[d]).collect();
    expect_shape(cx, output, &want)?;
    let plan = plan(cx, prepare_transpose(&input.shape, &p), "TRANSPOSE")?;
    Ok(StridedCopy::new(KERNEL, input, dtype, vec![output.id], vec![plan]))
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(in_shape: &[usize], perm: &[i32], out_shape: &[usize]) -> (Vec<u8>, TensorId, TensorId) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, in_shape, Some((0.05, -5)));
        let p = b.constant_i32("perm", &[perm.len()], perm, None);
        let y = b.activation("y", DType::I8, out_shape, Some((0.05, -5)));
        b.op(OpKind::Transpose, &[Some(x), Some(p)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// Output at `idx` is the input at `j` with `j[perm[d]] = idx[d]`.
    fn check(in_shape: &[usize], perm: &[usize]) {
        let out_shape: Vec<usize> = perm.iter().map(|&d| in_shape[d]).collect();
        let p: Vec<i32> = perm.iter().map(|&d| d as i32).collect();
        let (bytes, x, y) = model(in_shape, &p, &out_shape);
        let data = i8s(4, in_shape.iter().product());
        let s = run_op0(&bytes, &[(x, TensorData::I8(data.clone()))]);
        let want: Vec<i8> = (0..out_shape.iter().product())
            .map(|i| {
                let idx = unravel(i, &out_shape);
                let mut j = vec![0; in_shape.len()];
                for (d, &pd) in perm.iter().enumerate() {
                    j[pd] = idx[d];
                }
                data[ravel(&j, in_shape)]
            })
            .collect();
        assert_eq!(i8_of(&s, y), want, "shape {in_shape:?} perm {perm:?}");
        let (text, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (1, 1));
        assert!(text.contains("kernels :: transpose :: transpose_s8 (& P0 ,"), "{text}");
        assert!(text.contains("kernels :: transpose :: TransposeParams < 'static >"), "{text}");
    }

    #[test]
    fn permutations_of_every_rank() {
        check(&[1, 3, 224 / 32, 224 / 32], &[0, 2, 3, 1]);
        check(&[1, 4, 5, 3], &[0, 3, 1, 2]);
        check(&[2, 3], &[1, 0]);
        check(&[2, 3], &[0, 1]);
        check(&[7], &[0]);
        check(&[2, 3, 4, 5, 3], &[4, 2, 0, 3, 1]);
        check(&[2, 1, 3, 1, 2, 2], &[5, 3, 1, 0, 2, 4]);
    }

    #[test]
    fn malformed_variants_are_errors() {
        assert!(matches!(lower_err(&model(&[2, 3], &[1, 1], &[3, 3]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[2, 3], &[-1, 0], &[3, 2]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[2, 3], &[0, 1, 2], &[2, 3]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[2, 3], &[1, 0], &[2, 3]).0), LowerError::Invalid { .. }));
        // A computed permutation.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[2, 3], Some((0.05, -5)));
        let p = b.activation("perm", DType::I32, &[2], None);
        let y = b.activation("y", DType::I8, &[3, 2], Some((0.05, -5)));
        b.op(OpKind::Transpose, &[Some(x), Some(p)], &[y]);
        b.inputs(&[x, p]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
    }
}
