//! What lowering tells the memory planner, as plain data: the vocabulary both phases share
//! (lowering declares it per operator, `plan` realises it) without either importing the
//! other (ARCHITECTURE.md, "no import cycles between phases").

use super::{OpId, SubgraphId, TensorId};

/// The deltas `offset(output) - offset(input)` at which an overlapping (input, output) pair (the planner's `plan::Overlap`) may share bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum DeltaBound {
    /// `delta <= d` with `d <= 0`: a forward traversal writes each output row only below the
    /// first input row it still reads, so the output starts at least `-d` bytes below the input.
    AtMost(i64),
    /// `delta >= d`, `d` of either sign: a reversed traversal (from the last row) writes each
    /// output row only above the last input row it still reads. For an expanding 1x1
    /// convolution `d > 0` (the output starts at least `d` bytes above the input); for a copy
    /// whose output grows (PAD, CONCATENATION) `d <= 0`: the output may start up to `-d` bytes
    /// below the input (the input at or above its own place in the output).
    AtLeast(i64),
}

/// Which subgraphs an operator calls, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// IF: one of two subgraphs, by the condition.
    If {
        /// Run when the condition is true.
        then_subgraph: SubgraphId,
        /// Run when the condition is false.
        else_subgraph: SubgraphId,
    },
    /// WHILE: `body` while `cond` returns true.
    While {
        /// Computes the loop condition.
        cond_subgraph: SubgraphId,
        /// Computes the next loop values.
        body_subgraph: SubgraphId,
    },
    /// CALL_ONCE: a subgraph on the first run only.
    CallOnce {
        /// The subgraph run once.
        init_subgraph: SubgraphId,
    },
}

impl Call {
    /// The callees, in the order the op may run them.
    pub fn callees(&self) -> Vec<SubgraphId> {
        match *self {
            Call::If { then_subgraph, else_subgraph } => vec![then_subgraph, else_subgraph],
            Call::While { cond_subgraph, body_subgraph } => vec![cond_subgraph, body_subgraph],
            Call::CallOnce { init_subgraph } => vec![init_subgraph],
        }
    }
}

/// What the operators of one subgraph allow the memory planner, as lowering decided it
/// (`lower::LoweredSubgraph::memory_caps`); `plan::PlanOptions::with_caps` takes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryCaps {
    /// `(op, input, output)`: the op may write `output` over `input`, element for element.
    pub in_place: Vec<(OpId, TensorId, TensorId)>,
    /// `(op, input, output, bound)`: the op may write `output` over part of `input` at
    /// offset differences within `bound`.
    pub overlap: Vec<(OpId, TensorId, TensorId, DeltaBound)>,
    /// Operators that are views (their output aliases their input; no code).
    pub views: Vec<OpId>,
    /// Operators that may end a run early (file-order barriers).
    pub barriers: Vec<OpId>,
    /// Operators folded at compile time (no code, no buffers of their own).
    pub folded: Vec<OpId>,
    /// `(op, bytes)`: scratch each op needs while it runs.
    pub scratch: Vec<(OpId, u64)>,
}
