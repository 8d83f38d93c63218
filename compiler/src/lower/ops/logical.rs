//! The logical family on bool tensors: LOGICAL_AND and LOGICAL_OR (broadcasting, through
//! [`lower_binary`]) and LOGICAL_NOT (elementwise, through [`lower_unary`]). Mirrors TFLite
//! Micro `logical_common.cc` (`LogicalImpl`, bool only, no Prepare) and `elementwise.cc`
//! (LOGICAL_NOT, bool only).

use super::binary::{lower_binary, Binary};
use super::comparison::{bool_bytes, put_bool_bytes};
use super::unary::{lower_unary, Unary};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::{EmitCx, Lit};
use crate::error::LowerError;
use crate::ir::DType;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use tflc_runtime::kernels::logical::{logical, logical_not, LogicalOp, LogicalParams};

crate::runtime_struct_lit!(kernels::logical::LogicalParams<'a> { op, broadcast });

impl Lit for LogicalOp {
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let v = format_ident!("{}", format!("{self:?}"));
        quote! { #rt::kernels::logical::LogicalOp::#v }
    }
}

/// LOGICAL_AND or LOGICAL_OR: the walk and the operator.
#[derive(Debug, Clone, PartialEq)]
pub struct Logical {
    pub bin: Binary,
    pub op: LogicalOp,
}

/// Lowers LOGICAL_AND / LOGICAL_OR: bool operands and output.
pub(crate) fn lower_logical(cx: &OpCx<'_, '_>, op: LogicalOp) -> Result<Logical, LowerError> {
    let (bin, [i1, i2, o]) = lower_binary(cx)?;
    for t in [i1, i2, o] {
        cx.expect_dtype(t, DType::Bool)?;
    }
    Ok(Logical { bin, op })
}

impl Kernel for Logical {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let (x, y) = (
            bool_bytes(s, self.bin.input1)?,
            bool_bytes(s, self.bin.input2)?,
        );
        if x.len() != self.bin.input1_len || y.len() != self.bin.input2_len {
            return Err(ExecError(format!(
                "operand lengths {} and {}",
                x.len(),
                y.len()
            )));
        }
        let mut out = vec![0u8; self.bin.plan.as_broadcast().out_len()];
        logical(
            &LogicalParams {
                op: self.op,
                broadcast: self.bin.broadcast(false),
            },
            &x,
            &y,
            &mut out,
        );
        put_bool_bytes(s, self.bin.output, &out);
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(
            quote! { kernels::logical::LogicalParams<'static> },
            &LogicalParams {
                op: self.op,
                broadcast: self.bin.broadcast(false),
            },
        );
        let a = cx.input_bytes(self.bin.input1);
        let b = cx.input_bytes(self.bin.input2);
        let out = cx.output_bytes(self.bin.output);
        quote! { #rt::kernels::logical::logical(&#p, #a, #b, #out); }
    }
}

/// LOGICAL_NOT.
#[derive(Debug, Clone, PartialEq)]
pub struct LogicalNot {
    pub un: Unary,
}

pub(crate) fn lower_logical_not(cx: &OpCx<'_, '_>) -> Result<LogicalNot, LowerError> {
    let (un, [input, _]) = lower_unary(cx, true)?;
    cx.expect_dtype(input, DType::Bool)?;
    Ok(LogicalNot { un })
}

impl Kernel for LogicalNot {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let x = bool_bytes(s, self.un.input)?;
        if x.len() != self.un.len {
            return Err(ExecError(format!(
                "input has {} elements, expected {}",
                x.len(),
                self.un.len
            )));
        }
        let mut out = vec![0u8; x.len()];
        logical_not(&x, &mut out);
        put_bool_bytes(s, self.un.output, &out);
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let x = cx.input_bytes(self.un.input);
        let y = cx.output_bytes(self.un.output);
        quote! { #rt::kernels::logical::logical_not(#x, #y); }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::comparison::tests::{bits, check_bits};
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{DType, OpKind};

    /// A bool model of `kind` with operands of shapes `a` and `b`.
    fn model(
        kind: OpKind,
        a: &[usize],
        b: &[usize],
        out: &[usize],
    ) -> (Vec<u8>, [crate::ir::TensorId; 3]) {
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::Bool, a, None);
        let y = m.activation("y", DType::Bool, b, None);
        let z = m.activation("z", DType::Bool, out, None);
        m.op(kind, &[Some(x), Some(y)], &[z]);
        m.inputs(&[x, y]).outputs(&[z]);
        (m.finish(), [x, y, z])
    }

    fn bools(seed: u64, n: usize) -> Vec<bool> {
        i8s(seed, n).iter().map(|&v| v < 0).collect()
    }

    /// LOGICAL_AND / LOGICAL_OR over the broadcast patterns against the naive definition,
    /// the [2, 3, 4] x [3, 1] case against its TFLite Micro vector, and the refusals.
    pub(crate) fn check_binary(
        kind: OpKind,
        prefix: &str,
        f: fn(bool, bool) -> bool,
        vector: &str,
    ) {
        for (k, (a_shape, b_shape)) in BROADCAST_CASES.iter().enumerate() {
            let (av, bv) = (
                bools(30 + k as u64, a_shape.iter().product()),
                bools(40 + k as u64, b_shape.iter().product()),
            );
            let (out_shape, want) = broadcast_reference(a_shape, &av, b_shape, &bv, f);
            let (bytes, [x, y, z]) = model(kind.clone(), a_shape, b_shape, &out_shape);
            let s = run_op0(
                &format!("{prefix}_naive{k}"),
                &bytes,
                &[(x, TensorData::Bool(av)), (y, TensorData::Bool(bv))],
            );
            assert_eq!(
                s.get(z),
                Some(&TensorData::Bool(want)),
                "{a_shape:?} {b_shape:?}"
            );
        }
        let (bytes, [x, y, z]) = model(kind.clone(), &[2, 3, 4], &[3, 1], &[2, 3, 4]);
        check_bits(
            &format!("{prefix}_bcast"),
            &bytes,
            &[
                (x, TensorData::Bool(bools(1, 24))),
                (y, TensorData::Bool(bools(2, 3))),
            ],
            z,
            vector,
        );
        // Not bool; output of the wrong shape; missing operand.
        expect_unsupported(
            &binary_model(
                kind.clone(),
                DType::I8,
                (&[3], Some((0.5, 0))),
                (&[3], Some((0.5, 0))),
                (&[3], Some((0.5, 0))),
            )
            .0,
        );
        expect_unsupported(
            &binary_model(
                kind.clone(),
                DType::I32,
                (&[3], None),
                (&[3], None),
                (&[3], None),
            )
            .0,
        );
        expect_invalid(&model(kind.clone(), &[2, 3], &[3], &[3, 3]).0);
        expect_invalid(&model(kind.clone(), &[2, 3], &[2], &[2, 3]).0);
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::Bool, &[3], None);
        let z = m.activation("z", DType::Bool, &[3], None);
        m.op(kind, &[Some(x), None], &[z]);
        expect_invalid(&m.finish());
    }

    #[test]
    fn logical_not_against_tflite_micro() {
        let (bytes, [x, z]) = unary_model(
            OpKind::LogicalNot,
            (DType::Bool, &[2, 5], None),
            (DType::Bool, &[2, 5], None),
        );
        let v = bools(5, 10);
        let s = run_op0("logical_not", &bytes, &[(x, TensorData::Bool(v.clone()))]);
        let naive: String = v.iter().map(|&b| if b { '0' } else { '1' }).collect();
        assert_eq!(bits(&s, z), naive);
        check_bits(
            "logical_not",
            &bytes,
            &[(x, TensorData::Bool(v))],
            z,
            "0010100010",
        );
        expect_unsupported(
            &unary_model(
                OpKind::LogicalNot,
                (DType::I32, &[3], None),
                (DType::I32, &[3], None),
            )
            .0,
        );
        expect_unsupported(
            &unary_model(
                OpKind::LogicalNot,
                (DType::Bool, &[3], None),
                (DType::I8, &[3], None),
            )
            .0,
        );
        expect_invalid(
            &unary_model(
                OpKind::LogicalNot,
                (DType::Bool, &[3], None),
                (DType::Bool, &[4], None),
            )
            .0,
        );
    }
}
