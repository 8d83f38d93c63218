//! MINIMUM with numpy broadcasting: MAXIMUM's lowering (see `maximum.rs`) with `min`.

use super::maximum::{lower_min_max, MinMax, MinMaxOp};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<MinMax, LowerError> {
    lower_min_max(cx, MinMaxOp::Minimum)
}

#[cfg(test)]
mod tests {
    use super::super::maximum::tests::{check_every_pattern_and_type, check_malformed};
    use super::super::test_helpers::*;
    use super::*;
    use crate::ir::{DType, OpKind};

    #[test]
    fn every_pattern_and_type() {
        check_every_pattern_and_type(MinMaxOp::Minimum);
    }

    #[test]
    fn malformed_models_are_errors() {
        check_malformed(MinMaxOp::Minimum);
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, _) = binary_model(OpKind::Minimum, DType::I32, (&[3, 7], None), (&[3, 7], None), (&[3, 7], None));
        insta::assert_snapshot!(emit_op0(&bytes));
    }
}
