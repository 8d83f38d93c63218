//! Random planning problems and a plan → verify check, for property tests and fuzzers
//! (`fuzz/fuzz_targets/planner.rs` is a thin wrapper around [`check`]), and model mutation
//! with a whole-pipeline check ([`models`], `fuzz/fuzz_targets/pipeline.rs`,
//! `examples/fuzz_campaign.rs`). docs/FUZZING.md says how to run a campaign.

pub mod models;

use crate::plan::{self, Buffer, BufferId, BufferKind, IndexVec, OpNode, PlanOptions, Problem};
use arbitrary::{Arbitrary, Result, Unstructured};

/// What the planner fuzz target decodes: a small random graph (as [`RandomGraph`]) or, one
/// time in four, a large structured one ([`generate_large`]: hundreds of operators, wide,
/// deep or random).
#[derive(Clone, Debug)]
pub struct FuzzGraph(pub Problem);

impl<'a> Arbitrary<'a> for FuzzGraph {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        if u.ratio(1, 4)? {
            generate_large(u).map(FuzzGraph)
        } else {
            generate(u, Limits::default()).map(FuzzGraph)
        }
    }
}

/// Shapes of [`generate_large`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LargeShape {
    /// One input read by every operator; most outputs are model outputs.
    Wide,
    /// A chain with skip connections and in-place hints.
    Deep,
    /// [`generate`] with hundreds of operators.
    Random,
}

/// A valid problem of 100 to 800 operators of one [`LargeShape`].
pub fn generate_large(u: &mut Unstructured<'_>) -> Result<Problem> {
    let shape = *u.choose(&[LargeShape::Wide, LargeShape::Deep, LargeShape::Random])?;
    let n = u.int_in_range(100..=800usize)?;
    if shape == LargeShape::Random {
        return generate(u, Limits { max_ops: n, max_inputs: 4, max_variables: 3, max_units: 16 });
    }
    let lim = Limits::default();
    let mut p = Problem { buffers: IndexVec::new(), ops: IndexVec::new() };
    let buf = |p: &mut Problem, bytes, kind| {
        let id = p.buffers.push(Buffer { bytes, kind, alias_of: None, label: String::new() });
        p.buffers[id].label = format!("{id}");
        id
    };
    let x = buf(&mut p, size(u, &lim)?, BufferKind::Input);
    let mut chain = vec![x];
    for k in 0..n {
        let mut node = OpNode { label: format!("op{k}"), ..OpNode::default() };
        let bytes = size(u, &lim)?;
        match shape {
            LargeShape::Wide => {
                node.reads.push(x);
                let kind = if u.ratio(7, 8)? { BufferKind::Output } else { BufferKind::Activation };
                let y = buf(&mut p, bytes, kind);
                node.writes.push(y);
            }
            _ => {
                let prev = chain[chain.len() - 1];
                node.reads.push(prev);
                if chain.len() > 2 && u.ratio(1, 8)? {
                    let back = chain[u.int_in_range(0..=chain.len() - 2)?];
                    if !node.reads.contains(&back) {
                        node.reads.push(back);
                    }
                }
                let y = buf(&mut p, bytes, BufferKind::Activation);
                node.writes.push(y);
                if prev != x && u.ratio(1, 2)? {
                    node.in_place_ok.push((prev, y));
                } else if prev != x && u.ratio(1, 2)? {
                    let bound = random_bound(u, bytes)?;
                    node.overlap_ok.push(crate::plan::Overlap { input: prev, output: y, bound });
                }
                chain.push(y);
            }
        }
        p.ops.push(node);
    }
    if shape == LargeShape::Deep {
        if let Some(&last) = chain.last() {
            if last != x {
                p.buffers[last].kind = BufferKind::Output;
            }
        }
    }
    Ok(p)
}

/// A random overlap bound within `-bytes..=bytes`: forward (the output at least `d` below the
/// input) or, one time in three, reversed: the output at least `d` above it (an expanding
/// convolution) or, half of those, at most `d` below it (a growing copy: PAD,
/// CONCATENATION).
fn random_bound(u: &mut Unstructured<'_>, bytes: u64) -> Result<plan::DeltaBound> {
    let d = u.int_in_range(0..=bytes)? as i64;
    Ok(if u.ratio(1, 3)? {
        plan::DeltaBound::AtLeast(if u.ratio(1, 2)? { -d } else { d })
    } else {
        plan::DeltaBound::AtMost(-d)
    })
}

/// Limits for [`RandomGraph`].
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest number of operators.
    pub max_ops: usize,
    /// Largest number of model inputs.
    pub max_inputs: usize,
    /// Largest number of variables.
    pub max_variables: usize,
    /// Buffer sizes are `1..=max_units` times a unit drawn from a few odd and aligned values.
    pub max_units: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_ops: 14, max_inputs: 3, max_variables: 2, max_units: 12 }
    }
}

/// A random valid planning problem: DAGs with fan-out and fan-in, aliases (views), scratch
/// buffers, in-place hints, variables, unread outputs, model outputs anywhere.
#[derive(Clone, Debug)]
pub struct RandomGraph(pub Problem);

impl<'a> Arbitrary<'a> for RandomGraph {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        generate(u, Limits::default()).map(RandomGraph)
    }
}

fn size(u: &mut Unstructured<'_>, lim: &Limits) -> Result<u64> {
    let unit = *u.choose(&[1u64, 3, 8, 16, 48])?;
    if u.ratio(1, 20)? {
        return Ok(0);
    }
    Ok(unit * u.int_in_range(1..=lim.max_units)?)
}

/// Generates one problem within `lim`.
pub fn generate(u: &mut Unstructured<'_>, lim: Limits) -> Result<Problem> {
    let mut p = Problem { buffers: IndexVec::new(), ops: IndexVec::new() };
    // Per root: whether the group already holds a model input/output, and is a variable.
    let mut group_io: Vec<bool> = Vec::new();
    let mut root: Vec<usize> = Vec::new();
    let add =
        |p: &mut Problem, bytes, kind, alias_of: Option<BufferId>, root: &mut Vec<usize>, group_io: &mut Vec<bool>| {
            let id = p.buffers.push(Buffer { bytes, kind, alias_of, label: String::new() });
            p.buffers[id].label = format!("{id}");
            let r = alias_of.map_or(id.index(), |s| root[s.index()]);
            root.push(r);
            group_io.push(false);
            if kind.is_input() || kind.is_output() {
                group_io[r] = true;
            }
            id
        };
    let mut available: Vec<BufferId> = Vec::new(); // readable activations/inputs
    let n_inputs = u.int_in_range(1..=lim.max_inputs)?;
    for _ in 0..n_inputs {
        let bytes = size(u, &lim)?;
        available.push(add(&mut p, bytes, BufferKind::Input, None, &mut root, &mut group_io));
    }
    let mut variables = Vec::new();
    for _ in 0..u.int_in_range(0..=lim.max_variables)? {
        let bytes = size(u, &lim)?;
        variables.push(add(&mut p, bytes, BufferKind::Variable, None, &mut root, &mut group_io));
    }
    let n_ops = u.int_in_range(1..=lim.max_ops)?;
    for k in 0..n_ops {
        let mut node = OpNode { label: format!("op{k}"), ..OpNode::default() };
        let view = u.ratio(1, 6)?;
        if view {
            // A pure view of one readable non-scratch buffer.
            let src = *u.choose(&available)?;
            let src_bytes = p.buffers[BufferId::new(root[src.index()])].bytes;
            let bytes = if u.ratio(1, 4)? { u.int_in_range(0..=src_bytes)? } else { src_bytes };
            let alias = add(&mut p, bytes, BufferKind::Activation, Some(src), &mut root, &mut group_io);
            node.reads.push(src);
            node.writes.push(alias);
            available.push(alias);
        } else {
            let n_reads = u.int_in_range(1..=3)?;
            for _ in 0..n_reads {
                let b = *u.choose(&available)?;
                if !node.reads.contains(&b) {
                    node.reads.push(b);
                }
            }
            if !variables.is_empty() && u.ratio(1, 4)? {
                let v = *u.choose(&variables)?;
                node.reads.push(v);
                if u.ratio(1, 2)? {
                    node.writes.push(v);
                }
            }
            let n_writes = u.int_in_range(1..=2)?;
            for _ in 0..n_writes {
                let bytes = size(u, &lim)?;
                let out = add(&mut p, bytes, BufferKind::Activation, None, &mut root, &mut group_io);
                node.writes.push(out);
                available.push(out);
                if u.ratio(1, 4)? {
                    let input = *u.choose(&node.reads)?;
                    if p.buffers[input].kind != BufferKind::Variable {
                        node.in_place_ok.push((input, out));
                    }
                } else if u.ratio(1, 3)? {
                    // A streaming kernel's declaration: the output at least `h` bytes below
                    // the input's start (forward) or above it (reversed).
                    let input = *u.choose(&node.reads)?;
                    if p.buffers[input].kind != BufferKind::Variable {
                        let bound = random_bound(u, bytes.max(p.buffers[input].bytes))?;
                        node.overlap_ok.push(crate::plan::Overlap { input, output: out, bound });
                    }
                }
            }
            if u.ratio(1, 5)? {
                let bytes = size(u, &lim)?;
                let s = add(&mut p, bytes, BufferKind::Scratch, None, &mut root, &mut group_io);
                node.writes.push(s);
            }
        }
        p.ops.push(node);
    }
    // Model outputs: the last op's first write, plus a few random activations, one per group.
    let mut candidates: Vec<BufferId> = p.ops.iter().flat_map(|n| n.writes.iter().copied()).collect();
    candidates.retain(|&b| p.buffers[b].kind == BufferKind::Activation);
    let last = p.ops.iter().last().and_then(|n| n.writes.first().copied());
    let mut outs: Vec<BufferId> = last.into_iter().collect();
    for &c in &candidates {
        if u.ratio(1, 6)? {
            outs.push(c);
        }
    }
    for b in outs {
        let r = root[b.index()];
        if p.buffers[b].kind == BufferKind::Activation && !group_io[r] {
            p.buffers[b].kind = BufferKind::Output;
            group_io[r] = true;
        }
    }
    Ok(p)
}

/// Plans `problem` and checks the plan with the verifier and the planner's cheaply checkable
/// claims; `Err` describes what failed.
pub fn try_check(problem: &Problem, options: &PlanOptions) -> std::result::Result<plan::MemoryPlan, String> {
    let plan = plan::plan(problem, options).map_err(|e| format!("planning a valid problem failed: {e}"))?;
    let violations = plan::verify::verify(problem, &plan);
    if !violations.is_empty() {
        return Err(format!("violations: {violations:#?}\nplan: {plan:#?}"));
    }
    if plan.lower_bound_bytes > plan.arena_bytes {
        return Err("lower bound above the arena".into());
    }
    if plan.peak_bytes > plan.file_order_peak_bytes {
        return Err("order worse than the file order".into());
    }
    if plan.arena_bytes > plan.stats.greedy_arena_bytes {
        return Err("arena worse than the greedy placement".into());
    }
    Ok(plan)
}

/// [`try_check`], panicking with the problem on failure (for tests and fuzzers).
pub fn check(problem: &Problem, options: &PlanOptions) -> plan::MemoryPlan {
    match try_check(problem, options) {
        Ok(plan) => plan,
        Err(e) => panic!("{e}\nproblem: {problem:#?}"),
    }
}

/// The options the fuzz target, `tflc replay` and the smoke test use: small budgets, so a
/// large graph is planned in milliseconds (and its plan must verify all the same).
pub fn fuzz_options() -> PlanOptions {
    PlanOptions {
        schedule_state_budget: 20_000,
        offset_work_budget: 200_000,
        work_budget: 2_000_000,
        verify: true,
        ..PlanOptions::default()
    }
}
