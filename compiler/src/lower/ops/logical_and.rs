//! LOGICAL_AND: `a && b` on bool tensors with numpy broadcasting; the logical family
//! ([`super::logical`]).

use super::logical::{lower_logical, Logical};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::logical::LogicalOp;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Logical, LowerError> {
    lower_logical(cx, LogicalOp::And)
}

#[cfg(test)]
mod tests {
    use super::super::logical::tests::check_binary;
    use crate::ir::OpKind;

    /// Broadcast patterns against the naive definition; one case against TFLite Micro.
    #[test]
    fn against_naive_and_tflite_micro() {
        check_binary(OpKind::LogicalAnd, "logical_and", |a, b| a && b, "000000001101000000001110");
    }
}
