//! WHILE: calls other subgraphs ([`super::control_flow`] has the semantics, after TFLite
//! Micro's `while.cc`).

use super::control_flow::{lower_while, ControlFlow};
use super::OpCx;
use crate::error::LowerError;
use crate::ir::SubgraphId;

pub(crate) fn lower(cx: &OpCx<'_, '_>, cond_subgraph: SubgraphId, body_subgraph: SubgraphId) -> Result<ControlFlow, LowerError> {
    lower_while(cx, cond_subgraph, body_subgraph)
}
