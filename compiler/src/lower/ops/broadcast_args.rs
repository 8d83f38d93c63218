//! BROADCAST_ARGS: TFLite Micro `broadcast_args.cc`: two rank-1 int32 or int64 shapes of
//! one type, a rank-1 output of that type, here of the longer shape's length (TFLite's
//! rule; TFLite Micro takes the model's). With constant shapes (the usual case) the op is
//! folded, and unequal non-1 dimensions are refused (TFLite Micro aborts on them); computed
//! shapes run `tflc_runtime::kernels::broadcast_args`.

use super::movement::{const_ints, expect_distinct_outputs, expect_shape};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::broadcast_args::broadcast_args;

#[derive(Debug, Clone, PartialEq)]
pub struct BroadcastArgs {
    pub shape1: TensorId,
    pub shape2: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub len: usize,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<BroadcastArgs, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let (s1, s2, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    if !matches!(s1.dtype, DType::I32 | DType::I64) {
        return Err(cx.unsupported_tensor(s1, format!("element type {} (shapes are int32 or int64)", s1.dtype)));
    }
    cx.expect_dtype(s2, s1.dtype)?;
    cx.expect_dtype(output, s1.dtype)?;
    expect_distinct_outputs(cx)?;
    for t in [s1, s2] {
        if t.shape.len() != 1 {
            return Err(cx.invalid_tensor(t, format!("shape {:?}, expected rank 1", t.shape)));
        }
    }
    let len = s1.shape[0].max(s2.shape[0]);
    expect_shape(cx, output, &[len])?;
    if s1.is_constant() && s2.is_constant() {
        let (a, b) = (const_ints(cx, s1)?, const_ints(cx, s2)?);
        for back in 0..len {
            let at = |s: &[i64]| if back < s.len() { s[s.len() - 1 - back] } else { 1 };
            let (x, y) = (at(&a), at(&b));
            if x != y && x != 1 && y != 1 {
                return Err(cx.invalid(format!("shapes {a:?} and {b:?} do not broadcast")));
            }
        }
    }
    Ok(BroadcastArgs { shape1: s1.id, shape2: s2.id, output: output.id, dtype: s1.dtype, len })
}

impl Kernel for BroadcastArgs {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let y = match (s.get(self.shape1), s.get(self.shape2)) {
            (Some(TensorData::I32(a)), Some(TensorData::I32(b))) => {
                let mut y = vec![0; self.len];
                broadcast_args(a, b, &mut y);
                TensorData::I32(y)
            }
            (Some(TensorData::I64(a)), Some(TensorData::I64(b))) => {
                let mut y = vec![0; self.len];
                broadcast_args(a, b, &mut y);
                TensorData::I64(y)
            }
            _ => return Err(ExecError(format!("BROADCAST_ARGS: shapes {} and {} missing or mistyped", self.shape1, self.shape2))),
        };
        s.insert(self.output, y);
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let a = cx.input(self.shape1);
        let b = cx.input(self.shape2);
        let y = cx.output(self.output);
        quote! { #rt::kernels::broadcast_args::broadcast_args(#a, #b, #y); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::{emit_op0, lower_err};
    use super::super::test_helpers::run_op0;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind};
    use crate::tflite::builder::ModelBuilder;

    /// Computed int32 shapes run the kernel; TFLite Micro gives [5, 2, 4, 3] for these
    /// (checked with tools/op_test_vectors.py: int32 output, not an int8 literal).
    #[test]
    fn computed_shapes() {
        let mut b = ModelBuilder::new();
        let x = b.activation("s1", DType::I32, &[3], None);
        let z = b.activation("s2", DType::I32, &[4], None);
        let y = b.activation("y", DType::I32, &[4], None);
        b.op(OpKind::BroadcastArgs, &[Some(x), Some(z)], &[y]);
        b.inputs(&[x, z]).outputs(&[y]);
        let bytes = b.finish();
        let s = run_op0("broadcast_args_i32", &bytes, &[(x, TensorData::I32(vec![2, 1, 3])), (z, TensorData::I32(vec![5, 1, 4, 1]))]);
        assert_eq!(s.i32(y).unwrap(), &[5, 2, 4, 3]);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: broadcast_args :: broadcast_args ("), "{text}");
    }

    /// Constant shapes fold (compile-time evaluation through this kernel), in a model
    /// where the result feeds another op.
    #[test]
    fn constant_shapes_fold() {
        let mut b = ModelBuilder::new();
        let s1 = b.constant_i32("s1", &[2], &[3, 1], None);
        let s2 = b.constant_i32("s2", &[1], &[4], None);
        let shape = b.activation("shape", DType::I32, &[2], None);
        let x = b.activation("x", DType::I8, &[1, 4], Some((0.5, 0)));
        let y = b.activation("y", DType::I8, &[3, 4], Some((0.5, 0)));
        b.op(OpKind::BroadcastArgs, &[Some(s1), Some(s2)], &[shape]);
        b.op(OpKind::BroadcastTo, &[Some(x), Some(shape)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        let bytes = b.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        let folded = crate::passes::fold::FoldedModel::of(&model);
        assert_eq!(folded.subgraphs[0].ops, [(crate::ir::OpId::new(0), vec![shape])]);
        let model = folded.apply(&model);
        assert_eq!(model.main().tensor(shape).data, Some(&[3u8, 0, 0, 0, 4, 0, 0, 0][..]));
        let code = crate::compile(&bytes, &crate::CompileOptions::default()).unwrap().code;
        assert!(code.contains("op 0: BROADCAST_ARGS") && code.contains("folded at compile time, no code"), "{code}");
    }

    #[test]
    fn malformed() {
        let mut b = ModelBuilder::new();
        let s1 = b.constant_i32("s1", &[1], &[3], None);
        let s2 = b.constant_i32("s2", &[1], &[4], None);
        let y = b.activation("y", DType::I32, &[1], None);
        b.op(OpKind::BroadcastArgs, &[Some(s1), Some(s2)], &[y]);
        b.outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Invalid { .. }));
        let mut b = ModelBuilder::new();
        let s1 = b.activation("s1", DType::I32, &[2], None);
        let s2 = b.activation("s2", DType::I32, &[1], None);
        let y = b.activation("y", DType::I32, &[3], None);
        b.op(OpKind::BroadcastArgs, &[Some(s1), Some(s2)], &[y]);
        b.inputs(&[s1, s2]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Invalid { .. }));
    }
}
