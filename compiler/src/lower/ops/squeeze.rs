//! SQUEEZE: a view that drops size-1 dimensions -- the listed `squeeze_dims` (negative
//! counts from the end; each must have size 1), or every size-1 dimension when the list
//! is empty (TFLite Micro `squeeze.cc`). Element type and quantization are unchanged.

use super::movement::{expect_shape, lower_view, View};
use super::OpCx;
use crate::error::LowerError;

/// At most this many input dimensions (TFLite Micro's limit).
const MAX_SQUEEZE_DIMS: usize = 8;

pub(crate) fn lower(cx: &OpCx<'_, '_>, squeeze_dims: &[i32]) -> Result<View, LowerError> {
    cx.expect_arity(1..=1, 1)?;
    let input = cx.input(0)?;
    let output = cx.output(0)?;
    let rank = input.shape.len();
    if rank > MAX_SQUEEZE_DIMS {
        return Err(cx.unsupported_tensor(input, format!("rank {rank} (at most {MAX_SQUEEZE_DIMS})")));
    }
    let mut squeeze = vec![false; rank];
    if squeeze_dims.is_empty() {
        for (s, &d) in squeeze.iter_mut().zip(&input.shape) {
            *s = d == 1;
        }
    } else {
        for &d in squeeze_dims {
            let i = if d < 0 { i64::from(d) + rank as i64 } else { i64::from(d) };
            match usize::try_from(i).ok().filter(|&i| i < rank) {
                Some(i) if input.shape[i] == 1 => squeeze[i] = true,
                Some(i) => {
                    return Err(cx.invalid_tensor(input, format!("squeeze dimension {d} has size {}, not 1", input.shape[i])))
                }
                None => return Err(cx.invalid(format!("squeeze dimension {d} is out of range for rank {rank}"))),
            }
        }
    }
    let want: Vec<usize> = input.shape.iter().zip(&squeeze).filter(|(_, &s)| !s).map(|(&d, _)| d).collect();
    expect_shape(cx, output, &want)?;
    lower_view(cx, "SQUEEZE", input, output)
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind};
    use crate::tflite::builder::ModelBuilder;

    fn model(in_shape: &[usize], dims: &[i32], out_shape: &[usize]) -> Vec<u8> {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, in_shape, Some((0.1, 0)));
        let y = b.activation("y", DType::I8, out_shape, Some((0.1, 0)));
        b.op(OpKind::Squeeze { squeeze_dims: dims.to_vec() }, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        b.finish()
    }

    #[test]
    fn listed_negative_and_all_dims() {
        for (i, o, d) in [
            (&[1, 1, 24][..], &[24][..], &[][..]),
            (&[1, 3, 1, 2], &[3, 2], &[]),
            (&[1, 3, 1, 2], &[3, 1, 2], &[0]),
            (&[1, 3, 1, 2], &[1, 3, 2], &[-2]),
            (&[1, 3, 1, 2], &[3, 2], &[2, 0]),
            (&[1, 1], &[], &[]),
            (&[2, 3], &[2, 3], &[]),
        ] {
            let bytes = model(i, d, o);
            let x = i8s(2, i.iter().product());
            let s = run_op0(&bytes, &[(crate::ir::TensorId::new(0), TensorData::I8(x.clone()))]);
            assert_eq!(i8_of(&s, crate::ir::TensorId::new(1)), x);
            let k = lower_op0(&bytes).unwrap();
            assert!(k.is_view());
            let (text, ni, no) = emit_op0(&bytes);
            assert_eq!((ni, no), (1, 1));
            assert!(text.contains("kernels :: reshape :: reshape_s8"), "{text}");
        }
    }

    #[test]
    fn malformed_variants_are_errors() {
        // A listed dimension that is not 1, out of range, a wrong output shape.
        assert!(matches!(lower_err(&model(&[1, 3], &[1], &[1])), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[1, 3], &[2], &[3])), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[1, 3], &[-3], &[3])), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[1, 3, 1], &[], &[3, 1])), LowerError::Invalid { .. }));
        // Quantization change.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[1, 3], Some((0.1, 0)));
        let y = b.activation("y", DType::I8, &[3], Some((0.1, 1)));
        b.op(OpKind::Squeeze { squeeze_dims: vec![] }, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
    }
}
