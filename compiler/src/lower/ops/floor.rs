//! FLOOR: the elementwise math family's unary ([`super::math`]) with [`MathOp::Floor`].

use super::math::{lower_math, MathOp, UnaryMath};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<UnaryMath, LowerError> {
    lower_math(cx, MathOp::Floor)
}
