//! CALL_ONCE: calls other subgraphs ([`super::control_flow`] has the semantics, after TFLite
//! Micro's `call_once.cc`).

use super::control_flow::{lower_call_once, ControlFlow};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::SubgraphId;

pub(crate) fn lower(cx: &OpCx<'_, '_>, init_subgraph: SubgraphId) -> Result<ControlFlow, LowerError> {
    lower_call_once(cx, init_subgraph)
}
