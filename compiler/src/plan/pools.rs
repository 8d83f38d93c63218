//! Several memory pools: every buffer in exactly one of them, each pool planned exactly.
//!
//! A microcontroller often has a small fast memory (a Cortex-M7's DTCM, an SoC's SRAM next to
//! slower external PSRAM) beside a larger slow one. `--pool dtcm=16K --pool sram` lists the
//! pools fastest first; the last may be unbounded. The entry subgraph is planned once as one
//! arena ([`super::plan`]): that fixes the operator order. Then:
//!
//! 1. **Policy: hottest bytes first.** Every storage group (a buffer with its aliases) gets a
//!    score, the *accesses per byte* of the operators that touch it: an operator reading a
//!    group counts its work (multiply-accumulates for CONV_2D, DEPTHWISE_CONV_2D and
//!    FULLY_CONNECTED: output elements times filter elements per output channel; otherwise the
//!    elements it reads and writes), an operator writing it the group's bytes; the sum is
//!    divided by the group's bytes. Groups go, in decreasing score (ties: fewer bytes, then
//!    buffer index), to the first pool in which they still fit; "fit" is decided by planning
//!    that pool exactly with the group added ([`super::plan`] on the pool's buffers, in the
//!    fixed order), so a pool is filled as far as its exact plan allows, not by a sum of
//!    sizes. The last pool takes whatever is left. Why this policy: a fast pool pays off per
//!    access, so the bytes read most often per byte stored are the ones to keep close (a
//!    convolution's input is read once per filter tap and output channel, a pooling output
//!    once); a policy minimising the slow pool's size would fill the fast pool with the
//!    largest tensors that fit, whatever their traffic.
//! 2. Each pool is a [`Problem`] of its own: every operator, in the fixed order (so steps
//!    agree), reading and writing only that pool's buffers, with in-place and overlap pairs
//!    only between buffers of the pool. It is planned exactly like a single arena.
//! 3. The pools are laid out one after the other in one *virtual* arena (pool `k` from the
//!    end of pool `k - 1`, aligned), so the combined plan is an ordinary [`MemoryPlan`] over
//!    the whole problem: codegen, reports and the verifier read it like any plan, and
//!    [`PoolLayout`] maps a virtual offset back to its pool. A bounded last pool that is too
//!    small fails like `--max-arena` does ([`super::budget`]), naming its peak.
//!
//! [`check`] is the pool verifier (it shares no code with this planner): the combined plan
//! passes [`super::verify::verify`] on the whole problem, and every buffer lies inside
//! exactly one pool, each alias in its source's pool, the pools are disjoint and each within
//! its capacity.

use super::{plan, BufferId, BufferKind, IndexVec, MemoryPlan, OpId, OpNode, PlanError, PlanOptions, Problem, ScheduleMode};
use crate::ir::Subgraph;

/// One pool as the user asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PoolSpec {
    /// A Rust identifier (`dtcm`): names the pool's arena field and consts.
    pub name: String,
    /// Its capacity; `None`: unbounded (only the last pool).
    pub bytes: Option<u64>,
    /// A linker section for its arena (`.dtcm`), from `--pool-section`.
    pub section: Option<String>,
}

impl PoolSpec {
    /// Parses `NAME=SIZE` or `NAME` (unbounded), as `--pool` takes it.
    pub fn parse(s: &str) -> Result<PoolSpec, String> {
        let (name, size) = match s.split_once('=') {
            Some((n, z)) => (n.trim(), Some(z)),
            None => (s.trim(), None),
        };
        check_name(name)?;
        let bytes = size.map(super::budget::parse_size).transpose()?;
        Ok(PoolSpec { name: name.to_string(), bytes, section: None })
    }
}

fn check_name(name: &str) -> Result<(), String> {
    let ok = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !matches!(name, "arena" | "self" | "super" | "crate" | "mod" | "fn" | "static" | "const" | "type" | "struct" | "impl" | "use" | "pub" | "let" | "rt");
    if ok {
        Ok(())
    } else {
        Err(format!("pool name `{name}`: use a lower-case Rust identifier such as `dtcm` or `sram`"))
    }
}

/// Checks a list of pools: at least two, distinct names, every pool but the last bounded,
/// sections only on listed pools.
pub fn check_specs(specs: &[PoolSpec]) -> Result<(), String> {
    if specs.len() < 2 {
        return Err("--pool: give at least two pools, fastest first (e.g. --pool dtcm=16K --pool sram); one arena needs no --pool".into());
    }
    for (i, s) in specs.iter().enumerate() {
        check_name(&s.name)?;
        if specs[..i].iter().any(|o| o.name == s.name) {
            return Err(format!("pool `{}` is listed twice", s.name));
        }
        if s.bytes.is_none() && i + 1 < specs.len() {
            return Err(format!("pool `{}` has no size: only the last pool may be unbounded", s.name));
        }
    }
    Ok(())
}

/// Where one pool lies in the combined plan's virtual arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolLayout {
    /// The pool's name as the user gave it (`--pool NAME=SIZE`).
    pub name: String,
    /// Its first byte in the virtual arena.
    pub start: u64,
    /// Its planned bytes (the pool's arena; a multiple of the alignment).
    pub bytes: u64,
    /// What the user gave it (`None`: unbounded).
    pub capacity: Option<u64>,
    /// Its linker section, if any.
    pub section: Option<String>,
    /// The pool's own plan was proven optimal (order fixed, offsets exact).
    pub offsets_optimal: bool,
}

impl PoolLayout {
    /// One past its last byte in the virtual arena (`start + bytes`).
    pub fn end(&self) -> u64 {
        self.start + self.bytes
    }
}

/// The pool of a virtual offset range (`None` if it lies in none or straddles two).
pub fn pool_of(pools: &[PoolLayout], start: u64, end: u64) -> Option<usize> {
    pools.iter().position(|p| start >= p.start && end <= p.end() && (start < p.end() || start == end))
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a.max(1)) * a.max(1)
}

/// The root of every buffer's alias group.
fn roots(problem: &Problem) -> IndexVec<BufferId, BufferId> {
    problem
        .buffers
        .indices()
        .map(|mut b| {
            let mut guard = 0;
            while let Some(s) = problem.buffers[b].alias_of {
                b = s;
                guard += 1;
                if guard > problem.buffers.len() {
                    break;
                }
            }
            b
        })
        .collect()
}

/// Accesses per byte of every group root (see the module doc); 0 for non-roots.
/// `work[op]` is the operator's work (multiply-accumulates or elements touched); a writer
/// adds the buffer's bytes.
fn scores(problem: &Problem, root: &IndexVec<BufferId, BufferId>, work: &IndexVec<OpId, u64>) -> Vec<f64> {
    let mut acc = vec![0f64; problem.buffers.len()];
    for (op, node) in problem.ops.iter_enumerated() {
        for &b in &node.reads {
            acc[root[b].index()] += work[op] as f64;
        }
        for &b in &node.writes {
            acc[root[b].index()] += problem.buffers[b].bytes.max(1) as f64;
        }
    }
    problem
        .buffers
        .iter_enumerated()
        .map(|(b, buf)| if buf.alias_of.is_none() { acc[b.index()] / buf.bytes.max(1) as f64 } else { 0.0 })
        .collect()
}

/// The work of every operator of `sg` (see the module doc), indexed like the problem's ops.
pub fn op_work(sg: &Subgraph<'_>) -> IndexVec<OpId, u64> {
    use crate::ir::OpKind;
    sg.ops
        .iter()
        .map(|op| {
            let elems = |t: crate::ir::TensorId| sg.tensors.get(t).map_or(0, |x| x.num_elements() as u64);
            let out = op.outputs.first().map_or(0, |&t| elems(t));
            let touched: u64 = op.present_inputs().chain(op.outputs.iter().copied()).map(elems).sum();
            let macs = match op.kind {
                OpKind::Conv2d { .. } | OpKind::DepthwiseConv2d { .. } | OpKind::FullyConnected { .. } => {
                    let filter = op.input(1).map_or(0, elems);
                    let channels = op.outputs.first().and_then(|&t| sg.tensors.get(t)).and_then(|t| t.shape.last().copied()).unwrap_or(1).max(1) as u64;
                    out.saturating_mul((filter / channels).max(1))
                }
                _ => 0,
            };
            macs.max(touched)
        })
        .collect()
}

/// The problem restricted to the buffers with `member[b]`, operators in `order` (all of them,
/// so steps agree with the whole plan), and the map from its buffers to `problem`'s.
fn restrict(problem: &Problem, order: &[OpId], member: &[bool]) -> (Problem, Vec<BufferId>) {
    let mut sub = Problem::default();
    let mut map: Vec<Option<BufferId>> = vec![None; problem.buffers.len()];
    let mut back = Vec::new();
    for (b, buf) in problem.buffers.iter_enumerated() {
        if member[b.index()] {
            map[b.index()] = Some(sub.buffers.push(buf.clone()));
            back.push(b);
        }
    }
    for nb in sub.buffers.iter_mut() {
        nb.alias_of = nb.alias_of.and_then(|s| map[s.index()]);
    }
    let m = |b: &BufferId| map[b.index()];
    for &op in order {
        let n = &problem.ops[op];
        sub.ops.push(OpNode {
            reads: n.reads.iter().filter_map(m).collect(),
            writes: n.writes.iter().filter_map(m).collect(),
            in_place_ok: n.in_place_ok.iter().filter_map(|(a, b)| Some((m(a)?, m(b)?))).collect(),
            overlap_ok: n
                .overlap_ok
                .iter()
                .filter_map(|o| Some(super::Overlap { input: m(&o.input)?, output: m(&o.output)?, bound: o.bound }))
                .collect(),
            label: n.label.clone(),
            barrier: n.barrier,
        });
    }
    (sub, back)
}

/// Plans the buffers with `member[b]` in the fixed `order`.
fn plan_pool(problem: &Problem, order: &[OpId], member: &[bool], options: &PlanOptions) -> Result<(Problem, Vec<BufferId>, MemoryPlan), PlanError> {
    let (sub, back) = restrict(problem, order, member);
    let opts = PlanOptions { schedule: ScheduleMode::FileOrder, verify: false, ..options.clone() };
    let p = plan(&sub, &opts)?;
    Ok((sub, back, p))
}

/// A pool that cannot hold what must go there: the last pool's plan exceeds its capacity.
#[derive(Clone, Debug)]
pub struct PoolTooSmall {
    /// The pool's name.
    pub pool: String,
    /// Its capacity in bytes, as the user gave it.
    pub capacity: u64,
    /// The restricted problem: only this pool's buffers, every step of the whole model.
    pub problem: Problem,
    /// The restricted plan that did not fit (offsets within the pool).
    pub plan: MemoryPlan,
    /// For each buffer of `problem`, the buffer of the whole model it stands for.
    pub back: Vec<BufferId>,
}

/// What [`split`] answers: the combined plan (offsets in the virtual arena) and the layout, or
/// the pool that is too small.
pub type Split = Result<(MemoryPlan, Vec<PoolLayout>), Box<PoolTooSmall>>;

/// Splits `whole` (planned as one arena) into `specs`' pools ([`Split`]).
pub fn split(problem: &Problem, whole: &MemoryPlan, work: &IndexVec<OpId, u64>, specs: &[PoolSpec], options: &PlanOptions) -> Result<Split, PlanError> {
    check_specs(specs).map_err(|reason| PlanError::BadClaim { reason })?;
    let order = &whole.schedule;
    let align = options.align.max(1);
    let root = roots(problem);
    let score = scores(problem, &root, work);
    // Group roots that hold bytes, hottest first.
    let mut groups: Vec<BufferId> = problem
        .buffers
        .iter_enumerated()
        .filter(|(b, buf)| buf.alias_of.is_none() && whole.lifetimes[*b].is_some())
        .map(|(b, _)| b)
        .collect();
    groups.sort_by(|&a, &b| {
        score[b.index()]
            .total_cmp(&score[a.index()])
            .then(problem.buffers[a].bytes.cmp(&problem.buffers[b].bytes))
            .then(a.cmp(&b))
    });
    // pool[root] = index of the pool holding the group.
    let last = specs.len() - 1;
    let mut pool_of_root: Vec<usize> = vec![last; problem.buffers.len()];
    let members = |pool: &[usize], k: usize| -> Vec<bool> { problem.buffers.indices().map(|b| pool[root[b].index()] == k).collect() };
    let mut taken = vec![false; problem.buffers.len()];
    for (k, spec) in specs.iter().enumerate().take(last) {
        let cap = spec.bytes.unwrap_or(u64::MAX);
        for &g in &groups {
            if taken[g.index()] || align_up(problem.buffers[g].bytes, align) > cap {
                continue;
            }
            let mut trial = pool_of_root.clone();
            trial[g.index()] = k;
            let (_, _, p) = plan_pool(problem, order, &members(&trial, k), options)?;
            if align_up(p.arena_bytes, align) <= cap {
                pool_of_root = trial;
                taken[g.index()] = true;
            }
        }
    }
    // Plan every pool; lay them out.
    let nb = problem.buffers.len();
    let mut offsets: IndexVec<BufferId, u64> = (0..nb).map(|_| 0).collect();
    let mut lifetimes = whole.lifetimes.clone();
    let mut in_place = Vec::new();
    let mut overlaps = Vec::new();
    let mut layout = Vec::new();
    let mut start = 0;
    for (k, spec) in specs.iter().enumerate() {
        let (sub, back, p) = plan_pool(problem, order, &members(&pool_of_root, k), options)?;
        if let Some(cap) = spec.bytes {
            if align_up(p.arena_bytes, align) > cap {
                return Ok(Err(Box::new(PoolTooSmall { pool: spec.name.clone(), capacity: cap, problem: sub, plan: p, back })));
            }
        }
        for (i, &b) in back.iter().enumerate() {
            offsets[b] = start + p.offsets[BufferId::new(i)];
            lifetimes[b] = p.lifetimes[BufferId::new(i)];
        }
        for &(op, x, y) in &p.in_place {
            in_place.push((order[op.index()], back[x.index()], back[y.index()]));
        }
        for o in &p.overlaps {
            overlaps.push(super::RealisedOverlap { op: order[o.op.index()], input: back[o.input.index()], output: back[o.output.index()], delta: o.delta });
        }
        let bytes = align_up(p.arena_bytes, align);
        layout.push(PoolLayout { name: spec.name.clone(), start, bytes, capacity: spec.bytes, section: spec.section.clone(), offsets_optimal: p.offsets_optimal || p.arena_bytes <= p.lower_bound_bytes });
        start += bytes;
    }
    let step = |op: OpId| order.iter().position(|&o| o == op).unwrap_or(usize::MAX);
    in_place.sort_by_key(|&(op, x, y)| (step(op), x, y));
    overlaps.sort_by_key(|o| (step(o.op), o.input, o.output));
    let combined = MemoryPlan {
        align: whole.align,
        schedule: order.clone(),
        offsets,
        lifetimes,
        in_place,
        overlaps,
        tensor_bound_bytes: whole.tensor_bound_bytes,
        arena_bytes: start,
        lower_bound_bytes: whole.lower_bound_bytes.min(start),
        order_optimal: whole.order_optimal,
        offsets_optimal: false,
        peak_bytes: whole.peak_bytes,
        file_order_peak_bytes: whole.file_order_peak_bytes,
        stats: whole.stats.clone(),
    };
    Ok(Ok((combined, layout)))
}

/// The pool verifier: `plan` (the combined plan of [`split`]) passes [`super::verify::verify`]
/// on the whole `problem`, the pools are disjoint, in order, each within its capacity and
/// aligned, and every live buffer's bytes (aligned size) lie inside exactly one pool, an alias
/// in its source's pool. Returns every violation as text.
pub fn check(problem: &Problem, plan: &MemoryPlan, pools: &[PoolLayout]) -> Vec<String> {
    let mut errs: Vec<String> = super::verify::verify(problem, plan).iter().map(|e| e.to_string()).collect();
    let a = plan.align.max(1);
    let mut end = 0;
    for p in pools {
        if p.start != end {
            errs.push(format!("pool {} starts at virtual byte {}, not where the previous pool ends ({end})", p.name, p.start));
        }
        if p.start % a != 0 || p.bytes % a != 0 {
            errs.push(format!("pool {} at {}..{} is not aligned to {a}", p.name, p.start, p.end()));
        }
        if let Some(c) = p.capacity {
            if p.bytes > c {
                errs.push(format!("pool {} holds {} bytes, over its capacity of {c}", p.name, p.bytes));
            }
        }
        end = p.end();
    }
    if plan.arena_bytes > end {
        errs.push(format!("the plan's arena ({} bytes) is larger than its pools ({end} bytes)", plan.arena_bytes));
    }
    let inside = |s: u64, e: u64| -> Vec<usize> { pools.iter().enumerate().filter(|(_, p)| s < p.end() && p.start < e.max(s + 1)).map(|(i, _)| i).collect() };
    for (b, buf) in problem.buffers.iter_enumerated() {
        if plan.lifetimes.get(b).is_none_or(|l| l.is_none()) {
            continue;
        }
        let s = plan.offsets[b];
        let e = s + align_up(buf.bytes, a).max(a);
        let hit = inside(s, e);
        let whole = hit.len() == 1 && pools[hit[0]].start <= s && e <= pools[hit[0]].end();
        if !whole {
            let names: Vec<&str> = hit.iter().map(|&i| pools[i].name.as_str()).collect();
            errs.push(format!("{b} {} at {s}..{e} is not inside exactly one pool (touches {names:?})", buf.label));
        }
        if let Some(src) = buf.alias_of {
            let so = plan.offsets[src];
            if inside(so, so + 1) != inside(s, s + 1) {
                errs.push(format!("alias {b} {} is not in the pool of its source {src}", buf.label));
            }
        }
        if buf.kind == BufferKind::Variable && hit.is_empty() {
            errs.push(format!("variable {b} {} is in no pool", buf.label));
        }
    }
    errs
}

/// Each pool of a split plan as a plan of its own, for pictures (`tflc plan --svg`): the
/// pool's buffers (operators keep their ids), offsets from the pool's start, the arena the
/// pool's bytes, and its realised in-place pairs and overlaps.
pub fn pool_views(sp: &super::SubgraphPlan) -> Vec<(PoolLayout, Problem, MemoryPlan)> {
    let (problem, whole) = (&sp.problem, &sp.plan);
    let file: Vec<OpId> = problem.ops.indices().collect();
    let mut out = Vec::new();
    for pool in &sp.pools {
        let member: Vec<bool> = problem
            .buffers
            .iter_enumerated()
            .map(|(b, buf)| {
                let s = whole.offsets[b];
                whole.lifetimes[b].is_some() && pool_of(&sp.pools, s, s + buf.bytes).is_some_and(|k| sp.pools[k].name == pool.name)
            })
            .collect();
        let (sub, back) = restrict(problem, &file, &member);
        let mut map: Vec<Option<BufferId>> = vec![None; problem.buffers.len()];
        for (i, &b) in back.iter().enumerate() {
            map[b.index()] = Some(BufferId::new(i));
        }
        let m = |b: BufferId| map[b.index()];
        let plan = MemoryPlan {
            offsets: back.iter().map(|&b| whole.offsets[b] - pool.start).collect(),
            lifetimes: back.iter().map(|&b| whole.lifetimes[b]).collect(),
            in_place: whole.in_place.iter().filter_map(|&(op, x, y)| Some((op, m(x)?, m(y)?))).collect(),
            overlaps: whole
                .overlaps
                .iter()
                .filter_map(|o| Some(super::RealisedOverlap { op: o.op, input: m(o.input)?, output: m(o.output)?, delta: o.delta }))
                .collect(),
            arena_bytes: pool.bytes,
            lower_bound_bytes: 0,
            offsets_optimal: pool.offsets_optimal,
            ..whole.clone()
        };
        out.push((pool.clone(), sub, plan));
    }
    out
}

/// Splits the entry subgraph's plan `sp` into `specs`' pools ([`split`]), checks the result
/// with [`check`], and returns it with [`SubgraphPlan::pools`](super::SubgraphPlan::pools)
/// set. A bounded last pool too small for what must go there is refused like `--max-arena`
/// ([`crate::Error::OverBudget`]), naming the pool's peak step and its tensors.
pub fn apply(sp: &super::SubgraphPlan, sg: &Subgraph<'_>, specs: &[PoolSpec], options: &PlanOptions) -> Result<super::SubgraphPlan, crate::Error> {
    let work = op_work(sg);
    match split(&sp.problem, &sp.plan, &work, specs, options).map_err(|e| e.labelled(&sp.problem))? {
        Ok((plan, pools)) => {
            let violations = check(&sp.problem, &plan, &pools);
            if !violations.is_empty() {
                return Err(crate::Error::Internal(format!("the pool plan failed verification: {}", violations.join("; "))));
            }
            Ok(super::SubgraphPlan { problem: sp.problem.clone(), plan, buffer_of: sp.buffer_of.clone(), tensor_of: sp.tensor_of.clone(), pools })
        }
        Err(small) => {
            let PoolTooSmall { pool, capacity, problem, plan, back } = *small;
            let mut buffer_of: IndexVec<crate::ir::TensorId, Option<BufferId>> = sp.buffer_of.iter().map(|_| None).collect();
            let tensor_of: IndexVec<BufferId, Option<crate::ir::TensorId>> = back.iter().map(|&b| sp.tensor_of[b]).collect();
            for (i, t) in tensor_of.iter().enumerate() {
                if let Some(t) = t {
                    buffer_of[*t] = Some(BufferId::new(i));
                }
            }
            let pool_plan = super::SubgraphPlan { problem, plan, buffer_of, tensor_of, pools: Vec::new() };
            let what = format!("pool `{pool}` (the last, which takes every tensor the faster pools cannot hold)");
            match super::budget::check_budget(&pool_plan, sg, capacity, &what, "its capacity") {
                Err(e) => Err(e.into()),
                // Its arena is within the capacity, but not once aligned.
                Ok(()) => Err(super::budget::OverBudget {
                    arena_bytes: pool_plan.plan.arena_bytes.next_multiple_of(options.align.max(1)),
                    max_arena: capacity,
                    message: format!("pool `{pool}`: {} bytes do not fit its capacity of {capacity} once aligned to {}", pool_plan.plan.arena_bytes, options.align),
                }
                .into()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzzing::{self, Limits};
    use crate::plan::tests::bytes;
    use arbitrary::Unstructured;

    fn specs(list: &[(&str, Option<u64>)]) -> Vec<PoolSpec> {
        list.iter().map(|&(n, b)| PoolSpec { name: n.into(), bytes: b, section: None }).collect()
    }

    #[test]
    fn specs_parse_and_are_checked() {
        assert_eq!(PoolSpec::parse("dtcm=16K"), Ok(PoolSpec { name: "dtcm".into(), bytes: Some(16384), section: None }));
        assert_eq!(PoolSpec::parse("sram").map(|s| s.bytes), Ok(None));
        assert!(PoolSpec::parse("DTCM=1K").is_err());
        assert!(PoolSpec::parse("a-b=1K").is_err());
        assert!(PoolSpec::parse("dtcm=1Q").is_err());
        assert!(check_specs(&specs(&[("a", Some(1))])).unwrap_err().contains("at least two"));
        assert!(check_specs(&specs(&[("a", None), ("b", None)])).unwrap_err().contains("only the last"));
        assert!(check_specs(&specs(&[("a", Some(1)), ("a", None)])).unwrap_err().contains("twice"));
        assert!(check_specs(&specs(&[("a", Some(1)), ("b", Some(2)), ("c", None)])).is_ok());
    }

    /// The policy: the buffer whose reader does the most work per byte goes to the fast
    /// pool; another that shares its bytes over time fits beside it; the rest stays slow.
    #[test]
    fn the_hottest_bytes_go_to_the_fast_pool() {
        use super::super::{Buffer, BufferKind::*};
        let buf = |bytes, kind| Buffer { bytes, kind, alias_of: None, label: String::new() };
        let mut p = Problem::default();
        let x = p.buffers.push(buf(64, Input));
        let a = p.buffers.push(buf(64, Activation));
        let b = p.buffers.push(buf(64, Activation));
        let y = p.buffers.push(buf(16, Output));
        for (r, w) in [(x, a), (a, b), (b, y)] {
            p.ops.push(OpNode { reads: vec![r], writes: vec![w], ..OpNode::default() });
        }
        // op 1 (reading a) is a big convolution, op 2 (reading b) a small one.
        let work: IndexVec<OpId, u64> = [1, 10_000, 10].into_iter().collect();
        let options = PlanOptions { verify: true, ..PlanOptions::default() };
        let whole = plan(&p, &options).unwrap();
        let specs = specs(&[("fast", Some(64)), ("slow", None)]);
        let (split_plan, pools) = split(&p, &whole, &work, &specs, &options).unwrap().unwrap();
        assert!(check(&p, &split_plan, &pools).is_empty());
        let in_fast = |b: BufferId| split_plan.offsets[b] < pools[0].end();
        assert!(in_fast(a) && in_fast(y), "{split_plan:?} {pools:?}");
        assert!(!in_fast(x) && !in_fast(b), "{split_plan:?} {pools:?}");
        // x (step 0) and b (steps 1-2) share the slow pool's bytes over time.
        assert_eq!((pools[0].bytes, pools[1].bytes), (64, 64));
    }

    /// Random graphs split into two and three pools of random capacities: every split plan
    /// passes the pool verifier (and so the whole-problem verifier), every fast pool stays
    /// within its capacity, and some plans put buffers in every pool. Corrupting a split
    /// (a buffer moved across a pool boundary) is caught.
    #[test]
    fn random_graphs_split_into_pools_verify() {
        let mut used_all = 0;
        let caps = bytes(0x9001, 1024);
        for case in 0..200u64 {
            let data = bytes(case, 4096);
            let Ok(problem) = fuzzing::generate(&mut Unstructured::new(&data), Limits::default()) else { continue };
            let options = PlanOptions { verify: true, schedule_state_budget: 2_000, beam_width: 16, offset_work_budget: 20_000, ..fuzzing::fuzz_options() };
            let Ok(whole) = plan(&problem, &options) else { continue };
            let work: IndexVec<OpId, u64> = problem.ops.iter().map(|n| 1 + (n.reads.len() + n.writes.len()) as u64).collect();
            let arena = whole.arena_bytes.max(16);
            let n = 2 + (case % 2) as usize;
            let mut list = Vec::new();
            for k in 0..n - 1 {
                let r = u64::from(caps[(case as usize * 3 + k) % caps.len()]);
                let cap = 16 * (r % (arena / 16 + 1) + k as u64);
                list.push((["fast", "mid"][k], Some(cap)));
            }
            list.push(("slow", if case % 3 == 0 { Some(arena) } else { None }));
            let specs = specs(&list);
            let (plan, pools) = match split(&problem, &whole, &work, &specs, &options).unwrap() {
                Ok(r) => r,
                Err(small) => {
                    // Only a bounded last pool can be too small, and then truly is.
                    assert_eq!(small.pool, "slow");
                    assert!(small.plan.arena_bytes > small.capacity);
                    continue;
                }
            };
            let errs = check(&problem, &plan, &pools);
            assert!(errs.is_empty(), "case {case}: {errs:?}");
            for (p, s) in pools.iter().zip(&specs) {
                assert!(s.bytes.is_none_or(|c| p.bytes <= c), "case {case}: {p:?}");
            }
            if pools.iter().all(|p| p.bytes > 0) {
                used_all += 1;
            }
            // Move the first buffer of a non-empty pool past the boundary into the next one.
            if let Some(k) = (0..pools.len() - 1).find(|&k| pools[k].bytes > 0 && pools[k + 1].bytes > 0) {
                let mut bad = plan.clone();
                let b = problem.buffers.indices().find(|&b| plan.lifetimes[b].is_some() && problem.buffers[b].alias_of.is_none() && plan.offsets[b] >= pools[k].start && plan.offsets[b] < pools[k].end() && problem.buffers[b].bytes > 16);
                if let Some(b) = b {
                    bad.offsets[b] = pools[k].end() - 16;
                    assert!(!check(&problem, &bad, &pools).is_empty(), "case {case}: a straddling buffer was not caught");
                }
            }
        }
        assert!(used_all > 30, "{used_all}");
    }
}
