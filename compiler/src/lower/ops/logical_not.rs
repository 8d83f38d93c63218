//! LOGICAL_NOT: `!a` on a bool tensor; the logical family ([`super::logical`], where its
//! tests are).

use super::logical::{lower_logical_not, LogicalNot};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<LogicalNot, LowerError> {
    lower_logical_not(cx)
}
