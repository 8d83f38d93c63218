//! RELU6, int8, requantizing: RELU's lowering (see `relu.rs`, whose suites run it too)
//! with TFLite's `QuantizedReluX` bounds for this clamp.

use super::relu::{lower_relu_x, Relu, ReluKind};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Relu, LowerError> {
    lower_relu_x(cx, ReluKind::Relu6)
}
