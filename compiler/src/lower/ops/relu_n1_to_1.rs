//! RELU_N1_TO_1, int8, requantizing: RELU's lowering (see `relu.rs`) with TFLite's
//! `QuantizedReluX` bounds for this clamp.

use super::relu::{lower_relu_x, Relu, ReluKind};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Relu, LowerError> {
    lower_relu_x(cx, ReluKind::ReluN1To1)
}

#[cfg(test)]
mod tests {
    use super::super::relu::tests::{check_exact, check_malformed, check_real};
    use super::*;

    #[test]
    fn exact_cases() {
        check_exact(ReluKind::ReluN1To1);
    }

    #[test]
    fn requantizes() {
        check_real(ReluKind::ReluN1To1);
    }

    #[test]
    fn malformed_models_are_errors() {
        check_malformed(ReluKind::ReluN1To1);
    }
}
