//! From the IR to a planning [`Problem`], and the whole-subgraph entry point.
//!
//! - Activation buffers: every non-constant tensor an operator reads or writes, and every
//!   non-constant subgraph input and output; bytes = dtype size x elements. LSTM
//!   `intermediates` carry quantization only and get no bytes.
//! - Variable tensors become [`BufferKind::Variable`]; they are listed among an operator's reads
//!   (state is read and updated in place by its kernel).
//! - The outputs of the view operators of [`PlanOptions::views`] (RESHAPE / SQUEEZE /
//!   EXPAND_DIMS: lowering decides which, `Kernel::is_view`) become aliases of their data
//!   input unless that is illegal: a constant or variable source, an output that is itself a
//!   model input or a variable, a larger output, or a view that would put two model
//!   inputs/outputs in one region (e.g. the view's output is a model output while its input
//!   is a model input). Those stay copies.
//! - With [`PlanOptions::persistent_io`] (several models in one arena), the subgraph's inputs
//!   and outputs become [`BufferKind::Variable`] too: they keep their bytes across runs.
//! - Scratch workspaces come from [`PlanOptions::scratch`], in-place permissions from
//!   [`PlanOptions::in_place`] (the lowering phase knows which kernels allow them).

use super::{plan, Buffer, BufferId, BufferKind, IndexVec, MemoryPlan, OpNode, PlanError, PlanOptions, Problem};
use crate::ir::{Subgraph, TensorId};
use std::ops::Range;

/// A plan for one IR subgraph, with the mapping between tensors and buffers.
#[derive(Clone, Debug)]
pub struct SubgraphPlan {
    /// The planning problem built from the subgraph.
    pub problem: Problem,
    /// The verified plan.
    pub plan: MemoryPlan,
    /// The buffer of each tensor (`None` for constants and unused tensors).
    pub buffer_of: IndexVec<TensorId, Option<BufferId>>,
    /// The tensor of each buffer (`None` for scratch buffers).
    pub tensor_of: IndexVec<BufferId, Option<TensorId>>,
    /// The memory pools the plan is split into ([`super::pools`]): empty for one arena.
    /// With pools, `plan.offsets` are virtual: pool `k` holds bytes `pools[k].start..end`.
    pub pools: Vec<super::pools::PoolLayout>,
}

impl SubgraphPlan {
    /// The arena bytes of `tensor` (aliases included), if it lives in the arena.
    pub fn tensor_region(&self, tensor: TensorId) -> Option<Range<u64>> {
        let b = self.buffer_of.get(tensor).copied().flatten()?;
        let off = self.plan.offsets[b];
        Some(off..off + self.problem.buffers[b].bytes)
    }
    /// Whether `tensor` is a zero-copy view of another tensor (its op needs no code).
    pub fn is_alias(&self, tensor: TensorId) -> bool {
        self.buffer_of.get(tensor).copied().flatten().is_some_and(|b| self.problem.buffers[b].alias_of.is_some())
    }
    /// View operators whose output is an alias of their input: they need no code.
    pub fn aliased_ops(&self) -> std::collections::BTreeSet<crate::ir::OpId> {
        self.problem
            .ops
            .iter_enumerated()
            .filter(|(_, n)| n.writes.iter().any(|&b| self.problem.buffers[b].alias_of.is_some()))
            .map(|(op, _)| op)
            .collect()
    }
    /// The declared in-place pairs the plan realised ([`MemoryPlan::in_place`]) as
    /// `(op, input tensor, output tensor)`: the op writes the output over the input.
    pub fn in_place_pairs(&self) -> std::collections::BTreeSet<(crate::ir::OpId, TensorId, TensorId)> {
        self.plan
            .in_place
            .iter()
            .filter_map(|&(op, x, y)| Some((op, self.tensor_of.get(x).copied().flatten()?, self.tensor_of.get(y).copied().flatten()?)))
            .collect()
    }
    /// The declared overlaps the plan realised ([`MemoryPlan::overlaps`]) as
    /// `(op, input tensor, output tensor, delta)`: the op writes the output over the consumed
    /// part of the input, `delta` bytes from the input's offset.
    pub fn overlap_pairs(&self) -> Vec<(crate::ir::OpId, TensorId, TensorId, i64)> {
        self.plan
            .overlaps
            .iter()
            .filter_map(|o| {
                let x = self.tensor_of.get(o.input).copied().flatten()?;
                let y = self.tensor_of.get(o.output).copied().flatten()?;
                Some((o.op, x, y, o.delta))
            })
            .collect()
    }
    /// Byte offset of every tensor in the arena (aliases at their source's offset).
    pub fn tensor_offsets(&self) -> std::collections::BTreeMap<TensorId, u64> {
        self.buffer_of.iter_enumerated().filter_map(|(t, b)| b.map(|b| (t, self.plan.offsets[b]))).collect()
    }
    /// Scratch buffer regions of `op`.
    pub fn scratch_regions(&self, op: crate::ir::OpId) -> Vec<Range<u64>> {
        self.problem.ops[op]
            .writes
            .iter()
            .filter(|&&b| self.problem.buffers[b].kind == BufferKind::Scratch)
            .map(|&b| self.plan.offsets[b]..self.plan.offsets[b] + self.problem.buffers[b].bytes)
            .collect()
    }
}

/// A planning problem built from a subgraph, with the maps between tensors and buffers.
pub type IrProblem = (Problem, IndexVec<TensorId, Option<BufferId>>, IndexVec<BufferId, Option<TensorId>>);

/// Builds the planning problem of `sg`: the problem, tensor -> buffer, buffer -> tensor.
pub fn from_ir(sg: &Subgraph<'_>, options: &PlanOptions) -> Result<IrProblem, PlanError> {
    let mut problem = Problem::default();
    let mut buffer_of: IndexVec<TensorId, Option<BufferId>> = sg.tensors.iter().map(|_| None).collect();
    let mut tensor_of: IndexVec<BufferId, Option<TensorId>> = IndexVec::new();
    let tensor_err = |t: TensorId, reason: &str| PlanError::Tensor {
        tensor: t,
        name: sg.tensors.get(t).map_or(String::new(), |x| x.name.clone()),
        reason: reason.to_string(),
    };

    // Which tensors need a buffer, and their kinds.
    let mut used = vec![false; sg.tensors.len()];
    let mut mark = |t: TensorId| -> Result<(), PlanError> {
        match used.get_mut(t.index()) {
            Some(u) => {
                *u = true;
                Ok(())
            }
            None => Err(tensor_err(t, "tensor index out of range")),
        }
    };
    for op in sg.ops.iter() {
        for t in op.present_inputs().chain(op.outputs.iter().copied()) {
            mark(t)?;
        }
    }
    for &t in sg.inputs.iter().chain(&sg.outputs) {
        mark(t)?;
    }
    let mut input_flag = vec![false; sg.tensors.len()];
    let mut output_flag = vec![false; sg.tensors.len()];
    for &t in &sg.inputs {
        input_flag[t.index()] = true;
    }
    for &t in &sg.outputs {
        output_flag[t.index()] = true;
    }
    let is_input = |t: TensorId| input_flag[t.index()];
    let is_output = |t: TensorId| output_flag[t.index()];
    // Constants are in the file, not the arena: the caller cannot write one or read one back,
    // and no operator may overwrite one.
    for &t in &sg.inputs {
        if sg.tensors[t].is_constant() {
            return Err(tensor_err(t, "is a model input but has constant data (a buffer in the file); a model input must be a tensor without data that the caller writes"));
        }
    }
    // A resource handle (VAR_HANDLE's output) names a variable and has no bytes: the caller
    // can neither write one nor read one back.
    for &t in sg.inputs.iter().chain(&sg.outputs).filter(|_| sg.id.index() == 0) {
        if sg.tensors[t].dtype == crate::ir::DType::Resource {
            return Err(tensor_err(t, "is a model input or output but is a resource handle (a VAR_HANDLE output, which names a variable and holds no data); a model's inputs and outputs must be data tensors"));
        }
    }
    // A called subgraph may return a constant: its caller copies it from the weights
    // (`codegen::control_flow`), as TFLite Micro copies it from the flatbuffer.
    for &t in sg.outputs.iter().filter(|_| sg.id.index() == 0) {
        if sg.tensors[t].is_constant() {
            return Err(tensor_err(t, "is a model output but has constant data (a buffer in the file); a model output must be computed by an operator"));
        }
    }
    for op in sg.ops.iter() {
        // An operator folded at compile time writes constants: its result.
        let folded = options.folded.contains(&op.id);
        for &t in &op.outputs {
            if !folded && sg.tensors.get(t).is_some_and(|x| x.is_constant()) {
                return Err(tensor_err(t, &format!("is written by op {} ({}) but has constant data (a buffer in the file); an operator output must be a tensor without data", op.id.index(), op.opcode)));
            }
        }
    }
    for (t, tensor) in sg.tensors.iter_enumerated() {
        // A resource handle has no bytes: `passes::resources` resolved it at compile time.
        if !used[t.index()] || tensor.is_constant() || tensor.dtype == crate::ir::DType::Resource {
            continue;
        }
        let bytes = tensor.byte_size().ok_or_else(|| tensor_err(t, "element type has no fixed size"))?;
        let kind = if tensor.is_variable || (options.persistent_io && (is_input(t) || is_output(t))) {
            BufferKind::Variable
        } else {
            match (is_input(t), is_output(t)) {
                (true, true) => BufferKind::InputOutput,
                (true, false) => BufferKind::Input,
                (false, true) => BufferKind::Output,
                (false, false) => BufferKind::Activation,
            }
        };
        let b = problem.buffers.push(Buffer {
            bytes: bytes as u64,
            kind,
            alias_of: None,
            label: format!("{t} \"{}\"", tensor.name),
        });
        tensor_of.push(Some(t));
        buffer_of[t] = Some(b);
    }

    // Operators, and views as aliases where legal (file order, so sources are settled first).
    let mut root: IndexVec<BufferId, BufferId> = problem.buffers.indices().collect();
    let mut group_io: IndexVec<BufferId, bool> =
        problem.buffers.iter().map(|b| b.kind.is_input() || b.kind.is_output()).collect();
    let mut is_view = vec![false; sg.ops.len()];
    for v in &options.views {
        if let Some(f) = is_view.get_mut(v.index()) {
            *f = true;
        }
    }
    for op in sg.ops.iter() {
        let mut node = OpNode { label: format!("{} {}", op.id, op.opcode), barrier: options.barriers.contains(&op.id), ..OpNode::default() };
        for t in op.present_inputs() {
            if let Some(b) = buffer_of[t] {
                if !node.reads.contains(&b) {
                    node.reads.push(b);
                }
            }
        }
        for &t in &op.outputs {
            if let Some(b) = buffer_of[t] {
                if !node.writes.contains(&b) && !node.reads.contains(&b) {
                    node.writes.push(b);
                }
            }
        }
        if is_view[op.id.index()] {
            if let (Some(src), Some(&dst)) = (op.input(0).and_then(|t| buffer_of[t]), node.writes.first()) {
                let (s, d) = (&problem.buffers[src], &problem.buffers[dst]);
                let r = root[src];
                let legal = matches!(d.kind, BufferKind::Activation | BufferKind::Output)
                    && !matches!(problem.buffers[r].kind, BufferKind::Variable | BufferKind::Scratch)
                    && d.bytes <= s.bytes
                    && d.bytes <= problem.buffers[r].bytes
                    && !(d.kind.is_output() && group_io[r])
                    && node.writes.len() == 1;
                if legal {
                    problem.buffers[dst].alias_of = Some(src);
                    root[dst] = r;
                    group_io[r] |= problem.buffers[dst].kind.is_output();
                }
            }
        }
        problem.ops.push(node);
    }

    for &(op, bytes) in &options.scratch {
        let Some(node) = problem.ops.get(op) else {
            return Err(PlanError::BadClaim { reason: format!("scratch for unknown operator {op}") });
        };
        let label = format!("scratch of {}", node.label);
        let b = problem.buffers.push(Buffer { bytes, kind: BufferKind::Scratch, alias_of: None, label });
        tensor_of.push(None);
        problem.ops[op].writes.push(b);
    }
    for &(op, input, output) in &options.in_place {
        let (Some(a), Some(b)) = (buffer_of.get(input).copied().flatten(), buffer_of.get(output).copied().flatten())
        else {
            return Err(tensor_err(
                input,
                &format!("in-place pair ({input}, {output}) of {op} names a tensor outside the arena"),
            ));
        };
        // State is never overwritten in place (variables overlap nothing): a kernel's in-place
        // permission is a hint, dropped where an operand is a variable.
        if problem.buffers[a].kind == BufferKind::Variable || problem.buffers[b].kind == BufferKind::Variable {
            continue;
        }
        let Some(node) = problem.ops.get_mut(op) else {
            return Err(PlanError::BadClaim { reason: format!("in-place pair for unknown operator {op}") });
        };
        node.in_place_ok.push((a, b));
    }
    for &(op, input, output, bound) in &options.overlap {
        let (Some(a), Some(b)) = (buffer_of.get(input).copied().flatten(), buffer_of.get(output).copied().flatten())
        else {
            return Err(tensor_err(
                input,
                &format!("overlap pair ({input}, {output}) of {op} names a tensor outside the arena"),
            ));
        };
        if problem.buffers[a].kind == BufferKind::Variable || problem.buffers[b].kind == BufferKind::Variable {
            continue;
        }
        let Some(node) = problem.ops.get_mut(op) else {
            return Err(PlanError::BadClaim { reason: format!("overlap pair for unknown operator {op}") });
        };
        node.overlap_ok.push(super::Overlap { input: a, output: b, bound });
    }
    Ok((problem, buffer_of, tensor_of))
}

/// Plans subgraph `sg`: [`from_ir`], then [`plan`].
pub fn plan_subgraph(sg: &Subgraph<'_>, options: &PlanOptions) -> Result<SubgraphPlan, PlanError> {
    let (problem, buffer_of, tensor_of) = from_ir(sg, options)?;
    let plan = plan(&problem, options).map_err(|e| e.labelled(&problem))?;
    Ok(SubgraphPlan { problem, plan, buffer_of, tensor_of, pools: Vec::new() })
}
