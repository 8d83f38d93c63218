//! DENSIFY: a sparse constant in dense form. TFLite runs it once, at its first invoke
//! (`tensorflow/lite/kernels/densify.cc`: the input must be a constant with sparsity
//! metadata, the output takes its type and shape); tflc runs it at compile time:
//! `passes::fold` densifies every sparse constant (`ir::Sparsity::densify`, TFLite's
//! `FormatConverter<T>::SparseToDense`) and makes DENSIFY's output that constant, so the op
//! lowers to no code. This lowering is reached only when the fold could not happen, and says
//! why.

use super::{FoldedOp, OpCx};
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<FoldedOp, LowerError> {
    cx.expect_arity(1..=1, 1)?;
    let (input, output) = (cx.input(0)?, cx.output(0)?);
    if cx.sg.outputs.contains(&output.id) || output.is_variable {
        return Err(cx.unsupported_tensor(
            output,
            "DENSIFY runs at compile time in tflc, so its output cannot be a subgraph output or a variable",
        ));
    }
    if !input.is_constant() {
        return Err(cx.invalid_tensor(input, "DENSIFY's input must be a constant sparse tensor (TFLite requires it too)"));
    }
    if input.dtype != output.dtype || input.shape != output.shape {
        return Err(cx.invalid_tensor(
            output,
            format!(
                "DENSIFY's output is {}{}, but its input is {}{} (the output takes the input's type and shape)",
                output.dtype,
                crate::text::shape(&output.shape),
                input.dtype,
                crate::text::shape(&input.shape)
            ),
        ));
    }
    Err(cx.invalid_tensor(input, "DENSIFY's input has no sparsity metadata (TFLite requires a sparse constant)"))
}
