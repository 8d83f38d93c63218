//! PACK: stacks `values_count` inputs of one shape along a new output axis (negative
//! counts from the end of the output's rank, as TFLite Micro `pack.cc` does). It is
//! CONCATENATION where every input contributes `product(input.shape[axis..])` elements
//! per outer row (`tflc_runtime::kernels::pack`).

use super::movement::{count, expect_distinct_outputs, expect_same_type_and_quant, expect_shape, movable_dtype, resolve_axis, Concatenation, MoveKernel};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::pack::prepare_pack;

const PACK: MoveKernel = MoveKernel { op: "PACK", module: "pack", func: "pack", params: "PackParams" };

pub(crate) fn lower(cx: &OpCx<'_, '_>, values_count: i32, axis: i32) -> Result<Concatenation, LowerError> {
    let n = count(cx, "values_count", values_count)?;
    if n == 0 {
        return Err(cx.invalid("values_count is 0"));
    }
    cx.expect_arity(n..=n, 1)?;
    let output = cx.output(0)?;
    let dtype = movable_dtype(cx, output)?;
    let inputs = (0..n).map(|i| cx.input(i)).collect::<Result<Vec<_>, _>>()?;
    let in_shape = inputs[0].shape.clone();
    let axis = resolve_axis(cx, i64::from(axis), in_shape.len() + 1)?;
    for t in &inputs {
        expect_same_type_and_quant(cx, t, output)?;
        if t.shape != in_shape {
            return Err(cx.invalid_tensor(t, format!("shape {:?} differs from input 0's {in_shape:?}", t.shape)));
        }
    }
    let mut want = in_shape.clone();
    want.insert(axis, n);
    expect_shape(cx, output, &want)?;
    expect_distinct_outputs(cx)?;
    let (outer, output_row, inner) =
        prepare_pack(&in_shape, axis, n).ok_or_else(|| cx.invalid(format!("axis {axis} does not fit shape {in_shape:?}")))?;
    Ok(Concatenation {
        kernel: PACK,
        inputs: inputs.iter().map(|t| t.id).collect(),
        output: output.id,
        dtype,
        outer,
        output_row,
        offsets: (0..n).map(|k| k * inner).collect(),
        lens: vec![inner; n],
    })
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(in_shape: &[usize], n: usize, axis: i32, out_shape: &[usize]) -> (Vec<u8>, Vec<TensorId>, TensorId) {
        let mut b = ModelBuilder::new();
        let xs: Vec<TensorId> = (0..n).map(|k| b.activation(&format!("x{k}"), DType::I8, in_shape, Some((0.02, -1)))).collect();
        let y = b.activation("y", DType::I8, out_shape, Some((0.02, -1)));
        let ins: Vec<_> = xs.iter().map(|&x| Some(x)).collect();
        b.op(OpKind::Pack { values_count: n as i32, axis }, &ins, &[y]);
        b.inputs(&xs).outputs(&[y]);
        (b.finish(), xs, y)
    }

    /// Output at `idx` is input `idx[axis]` at `idx` without the axis.
    fn check(in_shape: &[usize], n: usize, axis: i32) {
        let a = (if axis < 0 { axis + in_shape.len() as i32 + 1 } else { axis }) as usize;
        let mut out_shape = in_shape.to_vec();
        out_shape.insert(a, n);
        let (bytes, xs, y) = model(in_shape, n, axis, &out_shape);
        let data: Vec<Vec<i8>> = (0..n).map(|k| i8s(k as u64 + 1, in_shape.iter().product())).collect();
        let s = run_op0(&bytes, &xs.iter().zip(&data).map(|(&x, d)| (x, TensorData::I8(d.clone()))).collect::<Vec<_>>());
        let want: Vec<i8> = (0..out_shape.iter().product())
            .map(|i| {
                let mut idx = unravel(i, &out_shape);
                let k = idx.remove(a);
                data[k][ravel(&idx, in_shape)]
            })
            .collect();
        assert_eq!(i8_of(&s, y), want, "shape {in_shape:?} n {n} axis {axis}");
        let (text, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (n, 1));
        assert!(text.contains("kernels :: pack :: PackParams < 'static >"), "{text}");
        assert!(text.contains("kernels :: pack :: pack_s8 (& P0 , & ["), "{text}");
    }

    #[test]
    fn every_axis_including_negative() {
        check(&[5], 3, 0);
        check(&[5], 3, 1);
        check(&[5], 3, -1);
        check(&[1, 24], 1, 1);
        check(&[2, 3, 4], 2, 0);
        check(&[2, 3, 4], 4, 2);
        check(&[2, 3, 4], 3, -1);
        check(&[2, 3, 4], 2, -4);
        check(&[], 3, 0);
    }

    #[test]
    fn malformed_variants_are_errors() {
        // Output shape wrong, axis out of range, count differs from values_count.
        assert!(matches!(lower_err(&model(&[5], 3, 0, &[5, 3]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[5], 3, 2, &[5, 3]).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[5], 3, -3, &[3, 5]).0), LowerError::Invalid { .. }));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[5], Some((0.02, -1)));
        let y = b.activation("y", DType::I8, &[2, 5], Some((0.02, -1)));
        b.op(OpKind::Pack { values_count: 2, axis: 0 }, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Invalid { .. }));
        // Input shapes differ; quantization differs.
        let mut b = ModelBuilder::new();
        let x0 = b.activation("x0", DType::I8, &[5], Some((0.02, -1)));
        let x1 = b.activation("x1", DType::I8, &[4], Some((0.02, -1)));
        let y = b.activation("y", DType::I8, &[2, 5], Some((0.02, -1)));
        b.op(OpKind::Pack { values_count: 2, axis: 0 }, &[Some(x0), Some(x1)], &[y]);
        b.inputs(&[x0, x1]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Invalid { .. }));
        let mut b = ModelBuilder::new();
        let x0 = b.activation("x0", DType::I8, &[5], Some((0.02, -1)));
        let x1 = b.activation("x1", DType::I8, &[5], Some((0.02, 0)));
        let y = b.activation("y", DType::I8, &[2, 5], Some((0.02, -1)));
        b.op(OpKind::Pack { values_count: 2, axis: 0 }, &[Some(x0), Some(x1)], &[y]);
        b.inputs(&[x0, x1]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
    }
}
