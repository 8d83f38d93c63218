//! SIN: the elementwise math family's unary ([`super::math`]) with [`MathOp::Sin`]
//! (float32 only, as TFLite Micro's `IsNumericSupportedType`; `std::sin` on a float is
//! `tflc_runtime::math::sinf`, within one ulp of glibc's `sinf`).

use super::math::{lower_math, MathOp, UnaryMath};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<UnaryMath, LowerError> {
    lower_math(cx, MathOp::Sin)
}
