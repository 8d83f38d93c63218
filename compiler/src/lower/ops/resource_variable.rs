//! VAR_HANDLE, READ_VARIABLE and ASSIGN_VARIABLE: resource variables, after TFLite Micro's
//! `var_handle.cc`, `read_variable.cc`, `assign_variable.cc` and
//! `micro_resource_variable.cc`.
//!
//! Every handle is resolved at compile time by `passes::resources`, which gives each
//! resource variable a variable tensor of the entry subgraph (state kept in the arena across
//! runs, reset to TFLite Micro's default fill), passes it into and out of every call that
//! reaches a subgraph using it (a variable "home" tensor in that subgraph), and rewires the
//! operators to the home of their subgraph: READ_VARIABLE reads it as its input 1,
//! ASSIGN_VARIABLE writes it as its output 0. So VAR_HANDLE runs no code and the other two
//! are byte copies (TFLite Micro's `memcpy` of `variable.bytes`).

use super::movement::{get, movable_dtype, put, with_elem, Elem};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;

/// VAR_HANDLE: its handle was resolved at compile time; nothing runs.
#[derive(Debug, Clone, PartialEq)]
pub struct VarHandle;

impl Kernel for VarHandle {
    fn execute(&self, _: &mut TensorStore) -> Result<(), ExecError> {
        Ok(())
    }

    fn emit(&self, _: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        TokenStream::new()
    }

    /// The handle is a compile-time fact (`passes::resources`): no code, no arena bytes.
    fn is_folded(&self) -> bool {
        true
    }
}

pub(crate) fn lower_var_handle(cx: &OpCx<'_, '_>) -> Result<VarHandle, LowerError> {
    cx.expect_arity(0..=0, 1)?;
    let h = cx.output(0)?;
    if h.dtype != DType::Resource {
        return Err(cx.invalid_tensor(h, format!("a resource handle must have type resource, found {}", h.dtype)));
    }
    Ok(VarHandle)
}

/// A byte copy between a resource variable and a tensor of the same type and size.
#[derive(Debug, Clone, PartialEq)]
pub struct VariableCopy {
    pub op: &'static str,
    pub input: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub len: usize,
}

impl VariableCopy {
    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let x = get::<T>(s, self.input)?;
        if x.len() != self.len {
            return Err(ExecError(format!("{}: input {} has {} elements, expected {}", self.op, self.input, x.len(), self.len)));
        }
        let y = x.to_vec();
        put(s, self.output, y);
        Ok(())
    }
}

impl Kernel for VariableCopy {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let x = cx.input(self.input);
        let y = cx.output(self.output);
        quote! { #y.copy_from_slice(#x); }
    }
}

/// The copy of `input` into `output`: one element type, one element count (TFLite Micro
/// checks the byte counts; a copy between different element types would relabel bytes).
fn copy(cx: &OpCx<'_, '_>, op: &'static str, input: TensorId, output: TensorId) -> Result<VariableCopy, LowerError> {
    let (x, y) = (cx.sg.tensor(input), cx.sg.tensor(output));
    let dtype = movable_dtype(cx, x)?;
    if y.dtype != x.dtype || y.num_elements() != x.num_elements() {
        return Err(cx.invalid_tensor(
            y,
            format!("{}{:?} does not match the resource variable's {}{:?}", y.dtype, y.shape, x.dtype, x.shape),
        ));
    }
    Ok(VariableCopy { op, input, output, dtype, len: x.num_elements() })
}

const UNRESOLVED: &str = "the resource handle was not resolved at compile time (passes::resources)";

/// READ_VARIABLE `(handle, variable) -> value` after `passes::resources`.
pub(crate) fn lower_read(cx: &OpCx<'_, '_>) -> Result<VariableCopy, LowerError> {
    if cx.op.inputs.len() != 2 {
        return Err(cx.invalid(UNRESOLVED));
    }
    cx.expect_arity(2..=2, 1)?;
    let var = cx.input(1)?;
    let out = cx.output(0)?;
    copy(cx, "READ_VARIABLE", var.id, out.id)
}

/// ASSIGN_VARIABLE `(handle, value) -> variable` after `passes::resources`.
pub(crate) fn lower_assign(cx: &OpCx<'_, '_>) -> Result<VariableCopy, LowerError> {
    if cx.op.outputs.len() != 1 {
        return Err(cx.invalid(UNRESOLVED));
    }
    cx.expect_arity(2..=2, 1)?;
    let value = cx.input(1)?;
    let var = cx.output(0)?;
    copy(cx, "ASSIGN_VARIABLE", value.id, var.id)
}
