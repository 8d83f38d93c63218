//! GREATER: `a > b` elementwise with numpy broadcasting, bool output; the comparison family
//! ([`super::comparison`]) with [`Comparison::Greater`].

use super::comparison::{lower_comparison, Compare};
use super::OpCx;
use crate::error::LowerError;
use tflc_runtime::kernels::comparison::Comparison;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Compare, LowerError> {
    lower_comparison(cx, Comparison::Greater)
}
