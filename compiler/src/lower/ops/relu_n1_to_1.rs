//! RELU_N1_TO_1, int8, requantizing: RELU's lowering (see `relu.rs`) with TFLite's
//! `QuantizedReluX` bounds for this clamp.

use super::relu::{lower_relu_x, Relu, ReluKind};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Relu, LowerError> {
    lower_relu_x(cx, ReluKind::ReluN1To1)
}
