//! SQUARED_DIFFERENCE: the elementwise math family's broadcasting binary ([`super::math`]) with
//! [`BinaryMathOp::SquaredDifference`].

use super::math::{lower_binary_math, BinaryMath, BinaryMathOp};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<BinaryMath, LowerError> {
    lower_binary_math(cx, BinaryMathOp::SquaredDifference)
}
