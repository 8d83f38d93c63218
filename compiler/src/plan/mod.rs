//! Memory planning: operator order and one static arena.
//!
//! The planner works on a graph-agnostic [`Problem`]: buffers (byte sizes, kinds, aliases) and
//! operators (which buffers each reads and writes, which pairs it may run in place). It answers a
//! [`MemoryPlan`]: a topological order of the operators that minimises the peak of live bytes
//! (`crate::schedule`), and a byte offset for every buffer in one arena (`offsets`), with lower
//! bounds and flags saying whether order and offsets are proven optimal.
//!
//! Liveness rules (docs/PLANNER.md has the full design):
//! - a buffer lives from the step of the operator that writes it to the last step that reads it;
//! - model inputs live from step 0; model outputs to the last step;
//! - variables (state) live across runs: they overlap nothing, ever;
//! - scratch buffers live only at their operator's step;
//! - an alias (a pure view: RESHAPE, SQUEEZE, EXPAND_DIMS) shares its source's bytes; the group
//!   of a source and its aliases lives as long as any member;
//! - an operator's inputs and outputs never share bytes, unless the operator declares the pair
//!   in-place-safe and the input dies at that step while the output is born there.
//!
//! [`verify`] is an independent judge that shares no code with any of this.

pub mod budget;
mod from_ir;
pub mod joint;
mod liveness;
pub mod model;
mod offsets;
pub mod pools;
mod report;
pub mod svg;
pub mod verify;

#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

pub use crate::index::{Idx, IndexVec};
/// Operators of a [`Problem`] are numbered like the IR's: in file order.
pub use crate::ir::OpId;
pub use from_ir::{from_ir, plan_subgraph, IrProblem, SubgraphPlan};
pub use model::{plan_model, Instance, ModelPlan};

crate::define_index!(
    /// A buffer of a [`Problem`] (an activation tensor, an input, a scratch area, ...).
    pub struct BufferId = "b";
);
crate::define_index!(
    /// A position in the schedule: step `s` runs `schedule[s]`.
    pub struct Step = "s";
);

/// What a buffer is, which decides its lifetime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BufferKind {
    /// An intermediate tensor: from its writer to its last reader.
    Activation,
    /// A model input: written by the caller, live from step 0 to its last reader.
    Input,
    /// A model output: from its writer to the end (the caller reads it after `run()`).
    Output,
    /// A model input that is also a model output: live throughout.
    InputOutput,
    /// State kept across runs: live throughout, overlaps nothing. Any operator may read or
    /// write it; operators touching the same variable keep their file order.
    Variable,
    /// A kernel's workspace: written by exactly one operator, read by none, live only there.
    Scratch,
}

impl BufferKind {
    /// Whether the caller writes this buffer before `run()`.
    pub fn is_input(self) -> bool {
        matches!(self, BufferKind::Input | BufferKind::InputOutput)
    }
    /// Whether the caller reads this buffer after `run()`.
    pub fn is_output(self) -> bool {
        matches!(self, BufferKind::Output | BufferKind::InputOutput)
    }
}

/// One buffer to place in the arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// Size in bytes (unaligned; the planner rounds up to the alignment).
    pub bytes: u64,
    /// Its role, which decides its lifetime and what may share its bytes.
    pub kind: BufferKind,
    /// `Some(src)` makes this buffer a zero-copy view of `src`: same offset, no bytes of its own.
    /// Its writer must read `src`.
    pub alias_of: Option<BufferId>,
    /// Human-readable label for tables and pictures (e.g. `t7 "conv1/Relu"`).
    pub label: String,
}

/// One operator.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpNode {
    /// Buffers the operator reads.
    pub reads: Vec<BufferId>,
    /// Buffers the operator writes (each has exactly one writer).
    pub writes: Vec<BufferId>,
    /// `(input, output)` pairs the kernel can compute in place (output over input's bytes).
    pub in_place_ok: Vec<(BufferId, BufferId)>,
    /// Partial overlaps the kernel tolerates ([`Overlap`]): the output may share bytes with
    /// the input where the input dies at this operator, within the declared range.
    pub overlap_ok: Vec<Overlap>,
    /// A name for reports (opcode and output, as `tflc plan` prints them).
    pub label: String,
    /// The operator can end the run early (TFLite Micro's `kTfLiteAbort`, CIRCULAR_BUFFER):
    /// every operator before it in file order runs before it, every one after it after it,
    /// so that a stopped run has run exactly the operators TFLite Micro runs.
    pub barrier: bool,
}

/// A kernel's declaration that `output` may be written over the consumed part of `input`:
/// any placement whose `delta = offset(output) - offset(input)` lies within `bound` is safe
/// (the kernel never overwrites an input byte it will still read), besides the disjoint ones.
/// Derived from the kernel's traversal in one place per family
/// (`tflc_runtime::kernels::overlap`); exact in place is `in_place_ok`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Overlap {
    /// The buffer read.
    pub input: BufferId,
    /// The buffer written, which may share bytes with `input`.
    pub output: BufferId,
    /// The offset differences at which the sharing is safe.
    pub bound: DeltaBound,
}

pub use crate::ir::DeltaBound;

/// A declared [`Overlap`] the plan realised: `output` shares bytes with `input` at `op`, at
/// `delta = offset(output) - offset(input)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RealisedOverlap {
    /// The operator at which the two share bytes.
    pub op: OpId,
    /// The buffer read.
    pub input: BufferId,
    /// The buffer written.
    pub output: BufferId,
    /// `offset(output) - offset(input)`, in bytes, within the declared bound.
    pub delta: i64,
}

/// A memory-planning problem; operators are listed in file order, which must be topological.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    /// Every buffer, indexed by [`BufferId`].
    pub buffers: IndexVec<BufferId, Buffer>,
    /// Every operator in file order, indexed by [`OpId`].
    pub ops: IndexVec<OpId, OpNode>,
}

/// How the operator order is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScheduleMode {
    /// Minimise the peak of live bytes (never worse than the file order).
    Optimize,
    /// Keep the file order.
    FileOrder,
}

/// Planner options. Search budgets count search states / work units, not time, so a plan is the
/// same on every host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanOptions {
    /// Offset alignment in bytes (a power of two; default 16).
    pub align: u64,
    /// How the operator order is chosen.
    pub schedule: ScheduleMode,
    /// States the exact schedule search may create (and sixteen times as many transitions it
    /// may examine) before it gives up.
    pub schedule_state_budget: u64,
    /// Width of the beam search used as the schedule heuristic.
    pub beam_width: usize,
    /// Work units (interval steps scanned) the exact offset search may spend.
    pub offset_work_budget: u64,
    /// Work units every search pass together may spend (schedule beam, greedy and exact
    /// search; offset greedy, improvement and exact search): the bound on planning time and
    /// memory for any graph. A pass that runs out keeps the best result found so far and the
    /// plan is then not claimed optimal ([`PlanStats::budget_exhausted`]).
    pub work_budget: u64,
    /// Run the verifier on the plan even in release builds (always done in debug builds).
    pub verify: bool,
    /// Scratch workspace a kernel needs, per operator (used by [`from_ir`]).
    pub scratch: Vec<(OpId, u64)>,
    /// `(op, input, output)`: the kernel of `op` may write `output` over `input` (it reads each
    /// element before writing it). Used by [`from_ir`]; sharing happens only where `input` dies.
    pub in_place: Vec<(OpId, crate::ir::TensorId, crate::ir::TensorId)>,
    /// `(op, input, output, bound)`: the kernel of `op` may write `output` over the consumed
    /// part of `input` ([`Overlap`]). Used by [`from_ir`]; sharing happens only where `input`
    /// dies.
    pub overlap: Vec<(OpId, crate::ir::TensorId, crate::ir::TensorId, DeltaBound)>,
    /// View operators (RESHAPE, SQUEEZE, EXPAND_DIMS: lowering says which): [`from_ir`] makes
    /// their output an alias of their input 0 where that is legal.
    pub views: Vec<OpId>,
    /// Operators that can end the run early ([`OpNode::barrier`]; lowering says which).
    pub barriers: Vec<OpId>,
    /// Operators folded at compile time (lowering says which): their outputs are constants
    /// holding the folded result, so [`from_ir`] accepts that they write constants.
    pub folded: Vec<OpId>,
    /// The subgraph's inputs and outputs keep their bytes across runs, like state: [`from_ir`]
    /// makes them [`BufferKind::Variable`] (live throughout, sharing no byte with anything),
    /// so that several models can share one arena ([`joint`]) while each one's inputs and
    /// outputs stay readable between its runs. Views of them become copies and no kernel
    /// runs in place over them.
    pub persistent_io: bool,
}

/// The default [`PlanOptions::work_budget`]: about a second of planning on the slowest graphs
/// this machine kind sees (`examples/stress_models.rs`); every corpus model needs far less.
pub const DEFAULT_WORK_BUDGET: u64 = 80_000_000;

/// Bytes the schedule search may hold in one level of states.
const LEVEL_BYTES: u64 = 64 << 20;

impl PlanOptions {
    /// These options with what lowering allows the planner (every kernel's in-place and
    /// overlap pairs, the views, barriers, folded operators and the scratch each needs).
    pub fn with_caps(self, caps: crate::ir::MemoryCaps) -> PlanOptions {
        let crate::ir::MemoryCaps { in_place, overlap, views, barriers, folded, scratch } = caps;
        PlanOptions { in_place, overlap, views, barriers, folded, scratch, ..self }
    }
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            align: 16,
            schedule: ScheduleMode::Optimize,
            schedule_state_budget: 100_000,
            beam_width: 64,
            offset_work_budget: 20_000_000,
            work_budget: DEFAULT_WORK_BUDGET,
            verify: false,
            scratch: Vec::new(),
            in_place: Vec::new(),
            overlap: Vec::new(),
            views: Vec::new(),
            barriers: Vec::new(),
            folded: Vec::new(),
            persistent_io: false,
        }
    }
}

/// A buffer's live interval, inclusive at both ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Lifetime {
    /// The step (position in the schedule) of the first operator that needs the buffer.
    pub first: Step,
    /// The step of the last operator that needs it.
    pub last: Step,
}

/// Counters from the searches, for reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlanStats {
    /// Schedule-search states created.
    pub schedule_states: u64,
    /// Offset-search work units (interval steps scanned) spent.
    pub offset_work: u64,
    /// Work units charged to [`PlanOptions::work_budget`] by all passes.
    pub work: u64,
    /// Some pass ran out of [`PlanOptions::work_budget`] and kept its best result so far.
    pub budget_exhausted: bool,
    /// Arena of the best greedy placement before the exact search.
    pub greedy_arena_bytes: u64,
    /// Wall-clock time the planner took.
    pub planning_time: Duration,
}

/// The answer: an operator order and an offset for every buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryPlan {
    /// Offset alignment in bytes, as planned.
    pub align: u64,
    /// Operators in execution order.
    pub schedule: Vec<OpId>,
    /// Offset of every buffer (aliases at their source's offset; dead buffers at 0).
    pub offsets: IndexVec<BufferId, u64>,
    /// Live interval of every buffer's storage (an alias reports its group's); `None` if dead.
    pub lifetimes: IndexVec<BufferId, Option<Lifetime>>,
    /// The declared in-place pairs the plan realised, `(op, input, output)` in schedule order:
    /// the output starts at the input's offset and overwrites it at that step. Every other
    /// declared pair is apart.
    pub in_place: Vec<(OpId, BufferId, BufferId)>,
    /// The declared overlaps the plan realised (the pair shares bytes), in schedule order.
    /// Every other declared overlap pair is apart.
    pub overlaps: Vec<RealisedOverlap>,
    /// Like `lower_bound_bytes` without the overlaps: the tensor-level bound of the chosen
    /// order (each tensor a separate live block, in-place pairs sharing).
    pub tensor_bound_bytes: u64,
    /// Arena size: the end of the highest buffer (aligned sizes).
    pub arena_bytes: u64,
    /// No placement of the chosen order fits in fewer bytes: the peak of live (aligned) bytes,
    /// less what declared in-place pairs may share. When `order_optimal`, no order does either.
    pub lower_bound_bytes: u64,
    /// The chosen order's peak of live bytes is minimal over all topological orders.
    pub order_optimal: bool,
    /// `arena_bytes` is minimal for the chosen order.
    pub offsets_optimal: bool,
    /// Peak of live (aligned) bytes of the chosen order and of the file order.
    pub peak_bytes: u64,
    /// Peak of live (aligned) bytes if the operators ran in file order.
    pub file_order_peak_bytes: u64,
    /// Search counters.
    pub stats: PlanStats,
}

impl MemoryPlan {
    /// `arena_bytes - lower_bound_bytes`.
    pub fn gap_bytes(&self) -> u64 {
        self.arena_bytes.saturating_sub(self.lower_bound_bytes)
    }
}

/// Why a problem cannot be planned, or why a plan is wrong (from [`verify::verify`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("alignment {align} is not a power of two")]
    /// The alignment is not a power of two.
    BadAlignment {
        /// The requested alignment, in bytes.
        align: u64,
    },
    #[error("buffer {buffer} (referenced by {op:?}) does not exist")]
    /// An operator or output names a buffer that does not exist.
    UnknownBuffer {
        /// The operator naming it (`None` for a model output).
        op: Option<OpId>,
        /// The missing buffer.
        buffer: BufferId,
    },
    #[error("buffer {buffer} is written by both {first} and {second}")]
    /// Two operators write one buffer.
    MultipleWriters {
        /// The buffer.
        buffer: BufferId,
        /// The first writer in file order.
        first: OpId,
        /// The second writer.
        second: OpId,
    },
    #[error("{op} writes model input {buffer}")]
    /// An operator writes a model input.
    WritesInput {
        /// The operator.
        op: OpId,
        /// The input buffer.
        buffer: BufferId,
    },
    #[error("{op} both reads and writes {buffer}")]
    /// An operator reads and writes one (non-variable) buffer.
    ReadsOwnWrite {
        /// The operator.
        op: OpId,
        /// The buffer.
        buffer: BufferId,
    },
    #[error("{op} reads {buffer}, which nothing writes before it in file order")]
    /// An operator reads a buffer no earlier operator writes.
    ReadBeforeWrite {
        /// The reader.
        op: OpId,
        /// The unwritten buffer.
        buffer: BufferId,
    },
    #[error("output {buffer} is never written")]
    /// A model output is never written.
    UnwrittenOutput {
        /// The output buffer.
        buffer: BufferId,
    },
    #[error("scratch buffer {buffer} misused: {reason}")]
    /// A scratch buffer is read, or written by other than one operator.
    BadScratch {
        /// The scratch buffer.
        buffer: BufferId,
        /// What is wrong.
        reason: &'static str,
    },
    #[error("illegal alias {buffer} of {source_buffer}: {reason}")]
    /// An alias cannot share its source's bytes.
    IllegalAlias {
        /// The alias.
        buffer: BufferId,
        /// The buffer it aliases.
        source_buffer: BufferId,
        /// What is wrong.
        reason: &'static str,
    },
    #[error("{op} declares ({input}, {output}) overlapping: {reason}")]
    /// A declared overlap pair is not an input and output of its operator, or not allowed.
    IllegalOverlap {
        /// The operator.
        op: OpId,
        /// The input buffer.
        input: BufferId,
        /// The output buffer.
        output: BufferId,
        /// What is wrong.
        reason: &'static str,
    },
    #[error("{op} declares ({input}, {output}) in place: {reason}")]
    /// A declared in-place pair is not an input and output of its operator, or not allowed.
    IllegalInPlace {
        /// The operator.
        op: OpId,
        /// The input buffer.
        input: BufferId,
        /// The output buffer.
        output: BufferId,
        /// What is wrong.
        reason: &'static str,
    },
    #[error("tensor {tensor} \"{name}\": {reason}")]
    /// A model tensor cannot be planned (size, type).
    Tensor {
        /// The tensor.
        tensor: crate::ir::TensorId,
        /// Its name in the model.
        name: String,
        /// What is wrong.
        reason: String,
    },
    #[error("{detail}")]
    /// A model-level problem, already described.
    InModel {
        /// The description.
        detail: String,
    },
    #[error("buffer {buffer}: size overflows")]
    /// A buffer's aligned size or end overflows `u64`.
    SizeOverflow {
        /// The buffer.
        buffer: BufferId,
    },
    #[error("verification found {} violation(s); first: {}", violations.len(), violations.first().map(|v| v.to_string()).unwrap_or_default())]
    /// The verifier rejected the plan.
    Verification {
        /// Every violation found (never empty).
        violations: Vec<PlanError>,
    },

    // Violations reported by the verifier.
    #[error("schedule is not a permutation of the operators: {reason}")]
    /// The schedule is not a permutation of the operators.
    BadSchedule {
        /// What is wrong.
        reason: String,
    },
    #[error("{op} runs before {buffer} is written")]
    /// An operator is scheduled before a buffer it reads is written.
    NotTopological {
        /// The operator.
        op: OpId,
        /// The buffer read too early.
        buffer: BufferId,
    },
    #[error("op {op} can end the run early, but op {other} runs on the wrong side of it (file order)")]
    /// An operator that runs before a barrier ([`OpNode::barrier`]) in the schedule but after
    /// it in file order, or the reverse.
    BarrierOrder {
        /// The barrier.
        op: OpId,
        /// The operator on the wrong side.
        other: OpId,
    },
    #[error("ops {first} and {second} touch variable {buffer} out of file order")]
    /// Two operators touching one variable run out of file order.
    VariableOrder {
        /// The variable.
        buffer: BufferId,
        /// The operator first in file order.
        first: OpId,
        /// The other operator.
        second: OpId,
    },
    #[error("buffer {buffer} at offset {offset} is not aligned to {align}")]
    /// A buffer's offset is not a multiple of the alignment.
    Misaligned {
        /// The buffer.
        buffer: BufferId,
        /// Its offset, in bytes.
        offset: u64,
        /// The alignment, in bytes.
        align: u64,
    },
    #[error("buffer {buffer} ends at {end}, beyond the arena of {arena} bytes")]
    /// A buffer extends past the arena.
    OutOfBounds {
        /// The buffer.
        buffer: BufferId,
        /// Its end offset, in bytes.
        end: u64,
        /// The arena size, in bytes.
        arena: u64,
    },
    #[error("buffers {a} and {b} share bytes while both live at step {step}")]
    /// Two buffers live at one step share bytes (and no declared pair allows it).
    Overlap {
        /// One buffer.
        a: BufferId,
        /// The other.
        b: BufferId,
        /// A step at which both are live.
        step: Step,
    },
    #[error("variable {variable} shares bytes with {other}")]
    /// A variable shares bytes with another buffer.
    VariableOverlap {
        /// The variable.
        variable: BufferId,
        /// The other buffer.
        other: BufferId,
    },
    #[error("alias {buffer}: {reason}")]
    /// An alias is not placed at its source's offset, or its group is inconsistent.
    BadAlias {
        /// The alias.
        buffer: BufferId,
        /// What is wrong.
        reason: String,
    },
    #[error("buffer {buffer}: reported lifetime {reported:?}, expected {expected:?}")]
    /// The plan reports a lifetime other than the verifier computes.
    WrongLifetime {
        /// The buffer.
        buffer: BufferId,
        /// The plan's lifetime.
        reported: Option<Lifetime>,
        /// The verifier's.
        expected: Option<Lifetime>,
    },
    #[error("plan claims: {reason}")]
    /// A claim of the plan (bounds, optimality flags, realised pairs) does not hold.
    BadClaim {
        /// What is wrong.
        reason: String,
    },
}

impl PlanError {
    /// The same error with every buffer (`b3`) and operator (`op2`) it names followed by its
    /// label from `problem` (tensor index and name, opcode), for messages to users.
    pub fn labelled(self, problem: &Problem) -> PlanError {
        // The errors a malformed model reaches, in the model's words.
        let op = |o: OpId| {
            let label = problem.ops.get(o).map(|n| n.label.clone()).unwrap_or_default();
            // "op3 MUL" -> "op 3 (MUL)"
            match label.strip_prefix("op").and_then(|r| r.split_once(' ')) {
                Some((i, code)) if i.parse::<usize>().is_ok() => format!("op {i} ({code})"),
                _ => format!("{o}"),
            }
        };
        let buf = |b: BufferId| {
            let label = problem.buffers.get(b).map(|x| x.label.clone()).unwrap_or_default();
            if label.is_empty() {
                format!("{b}")
            } else {
                format!("tensor {label}")
            }
        };
        let model_terms = match &self {
            PlanError::ReadBeforeWrite { op: o, buffer } => Some(format!(
                "{} reads {}, which is not a model input, has no data in the file, and no earlier operator (in file order) writes",
                op(*o),
                buf(*buffer)
            )),
            PlanError::UnwrittenOutput { buffer } => Some(format!("model output {} is never written: no operator computes it", buf(*buffer))),
            PlanError::MultipleWriters { buffer, first, second } => {
                Some(format!("{} is written by both {} and {} (a tensor has one writer)", buf(*buffer), op(*first), op(*second)))
            }
            PlanError::WritesInput { op: o, buffer } => Some(format!("{} writes model input {} (the caller writes model inputs)", op(*o), buf(*buffer))),
            PlanError::ReadsOwnWrite { op: o, buffer } => Some(format!("{} both reads and writes {}", op(*o), buf(*buffer))),
            _ => None,
        };
        if let Some(detail) = model_terms {
            return PlanError::InModel { detail };
        }
        let text = self.to_string();
        let mut notes: Vec<String> = Vec::new();
        for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            let (prefix, digits) = match word.strip_prefix("op") {
                Some(d) => ("op", d),
                None => match word.strip_prefix('b') {
                    Some(d) => ("b", d),
                    None => continue,
                },
            };
            let Ok(i) = digits.parse::<usize>() else { continue };
            let label = if prefix == "op" {
                problem.ops.get(OpId::new(i)).map(|o| o.label.clone())
            } else {
                problem.buffers.get(BufferId::new(i)).map(|b| b.label.clone())
            };
            if let Some(label) = label.filter(|l| !l.is_empty()) {
                let note = format!("{word} = {label}");
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
        }
        if notes.is_empty() {
            return self;
        }
        PlanError::InModel { detail: format!("{text} ({})", notes.join("; ")) }
    }
}

/// Keeps only the overlaps the arena needs. A realised overlap costs time (its kernel runs
/// row by row through `tflc_runtime::kernels::overlap`, not over the whole tensor at once), so
/// each realised pair is withdrawn in turn (schedule order) and the offsets solved again for
/// the same order: if the arena does not grow, the pair stays withdrawn and that placement is
/// kept; otherwise the pair is needed and stays. A new placement may realise a pair that was
/// apart before; it is tried in turn too. At most one solve per declared pair. Returns the
/// offset work spent.
fn prune_overlaps(
    problem: &Problem,
    analysis: &liveness::Analysis,
    order: &[OpId],
    work_budget: u64,
    budget: &mut crate::schedule::Budget,
    placement: &mut liveness::Placement,
) -> u64 {
    let arena = placement.solution.arena;
    let mut trial = problem.clone();
    let mut needed: Vec<(OpId, BufferId, BufferId)> = Vec::new();
    let mut work = 0;
    while let Some(o) = placement
        .overlaps
        .iter()
        .find(|o| !needed.contains(&(o.op, o.input, o.output)))
        .copied()
    {
        let pairs = &mut trial.ops[o.op].overlap_ok;
        let Some(at) = pairs.iter().position(|d| (d.input, d.output) == (o.input, o.output)) else {
            needed.push((o.op, o.input, o.output));
            continue;
        };
        let withdrawn = pairs.remove(at);
        let candidate = analysis.place(&trial, order, work_budget, budget);
        work += candidate.solution.work;
        if candidate.solution.arena <= arena {
            *placement = candidate;
        } else {
            trial.ops[o.op].overlap_ok.insert(at, withdrawn);
            needed.push((o.op, o.input, o.output));
        }
    }
    work
}

/// Plans `problem`: chooses an order, then offsets; verifies the result in debug builds or when
/// `options.verify` is set.
pub fn plan(problem: &Problem, options: &PlanOptions) -> Result<MemoryPlan, PlanError> {
    let start = Instant::now();
    let analysis = liveness::analyze(problem, options.align)?;
    let graph = analysis.schedule_graph(problem);
    let mut budget = crate::schedule::Budget::new(options.work_budget);
    let sched = match options.schedule {
        ScheduleMode::Optimize => crate::schedule::optimize(
            &graph,
            &crate::schedule::SearchOptions {
                state_budget: options.schedule_state_budget,
                beam_width: options.beam_width,
                level_bytes: LEVEL_BYTES,
            },
            &mut budget,
        ),
        ScheduleMode::FileOrder => crate::schedule::file_order(&graph),
    };

    // Offsets for the file order and, if different, the best order; keep the smaller arena.
    // The file order goes first so that it wins ties (generated code then follows the file).
    let file: Vec<OpId> = problem.ops.indices().collect();
    let mut candidates = vec![(file.clone(), sched.file_order_peak)];
    if sched.order != file {
        candidates.push((sched.order.clone(), sched.peak));
    }
    let mut best: Option<(Vec<OpId>, u64, liveness::Placement)> = None;
    let mut work = 0;
    for (order, peak) in candidates {
        let placement = analysis.place(problem, &order, options.offset_work_budget, &mut budget);
        work += placement.solution.work;
        let better = match &best {
            None => true,
            Some((_, _, b)) => placement.solution.arena < b.solution.arena,
        };
        if better {
            best = Some((order, peak, placement));
        }
    }
    let Some((order, peak, mut placement)) = best else { unreachable!("at least one candidate order") };
    // Bounds with every declared overlap allowed: what the plan is judged against.
    let (lower_bound, tensor_bound) = (placement.solution.lower_bound, placement.solution.tensor_bound);
    if !placement.overlaps.is_empty() {
        work += prune_overlaps(problem, &analysis, &order, options.offset_work_budget, &mut budget, &mut placement);
    }
    let plan = MemoryPlan {
        align: options.align,
        order_optimal: sched.optimal && peak == sched.peak,
        schedule: order,
        offsets: placement.offsets,
        lifetimes: placement.lifetimes,
        in_place: placement.in_place,
        overlaps: placement.overlaps,
        tensor_bound_bytes: tensor_bound,
        arena_bytes: placement.solution.arena,
        lower_bound_bytes: lower_bound,
        offsets_optimal: placement.solution.optimal || placement.solution.arena <= lower_bound,
        peak_bytes: peak,
        file_order_peak_bytes: sched.file_order_peak,
        stats: PlanStats {
            schedule_states: sched.states,
            offset_work: work,
            greedy_arena_bytes: placement.solution.greedy_arena,
            work: budget.spent(),
            budget_exhausted: budget.exhausted(),
            planning_time: start.elapsed(),
        },
    };
    if cfg!(debug_assertions) || options.verify {
        let violations = verify::verify(problem, &plan);
        if !violations.is_empty() {
            return Err(PlanError::Verification { violations });
        }
    }
    Ok(plan)
}
