//! COS: the elementwise math family's unary ([`super::math`]) with [`MathOp::Cos`]
//! (float32 only, as TFLite Micro's `IsNumericSupportedType`; `std::cos` on a float is
//! `tflc_runtime::math::cosf`, within one ulp of glibc's `cosf`).

use super::math::{lower_math, MathOp, UnaryMath};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<UnaryMath, LowerError> {
    lower_math(cx, MathOp::Cos)
}
