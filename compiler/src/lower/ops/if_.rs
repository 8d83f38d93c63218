//! IF: calls other subgraphs ([`super::control_flow`] has the semantics, after TFLite
//! Micro's `if.cc`).

use super::control_flow::{lower_if, ControlFlow};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::SubgraphId;

pub(crate) fn lower(cx: &OpCx<'_, '_>, then_subgraph: SubgraphId, else_subgraph: SubgraphId) -> Result<ControlFlow, LowerError> {
    lower_if(cx, then_subgraph, else_subgraph)
}
