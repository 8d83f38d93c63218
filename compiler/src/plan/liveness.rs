//! The planner's view of a [`Problem`]: validation, storage groups (a buffer and its aliases),
//! dependencies, and live intervals on a given order. (The verifier recomputes all of this on
//! its own.)

use super::offsets::{self, Item};
use super::{BufferId, BufferKind, IndexVec, Lifetime, OpId, PlanError, Problem, Step};
use crate::schedule::{MemGraph, Unit};

/// Validated facts about a problem.
pub(crate) struct Analysis {
    /// The root of each buffer's alias chain (itself when not an alias).
    root: IndexVec<BufferId, BufferId>,
    /// Aligned size of each root (0 for non-roots).
    size: IndexVec<BufferId, u64>,
    /// Writer of each non-variable buffer.
    writer: IndexVec<BufferId, Option<OpId>>,
    /// Ops that read any member of each root's group (sorted, deduplicated).
    readers: IndexVec<BufferId, Vec<OpId>>,
    /// Whether each root's group lives from step 0 / to the last step / is a variable.
    from_start: IndexVec<BufferId, bool>,
    to_end: IndexVec<BufferId, bool>,
    variable: IndexVec<BufferId, bool>,
    /// Data and state dependencies of each op.
    preds: IndexVec<OpId, Vec<OpId>>,
    align: u64,
}

fn align_up(bytes: u64, align: u64, buffer: BufferId) -> Result<u64, PlanError> {
    bytes.checked_add(align - 1).map(|b| b & !(align - 1)).ok_or(PlanError::SizeOverflow { buffer })
}

pub(crate) fn analyze(p: &Problem, align: u64) -> Result<Analysis, PlanError> {
    if align == 0 || !align.is_power_of_two() {
        return Err(PlanError::BadAlignment { align });
    }
    let nb = p.buffers.len();
    let in_range = |b: BufferId| b.index() < nb;
    for (op, node) in p.ops.iter_enumerated() {
        for &b in node.reads.iter().chain(&node.writes) {
            if !in_range(b) {
                return Err(PlanError::UnknownBuffer { op: Some(op), buffer: b });
            }
        }
        let overlaps = node.overlap_ok.iter().map(|o| (o.input, o.output));
        for (a, b) in node.in_place_ok.iter().copied().chain(overlaps) {
            for x in [a, b] {
                if !in_range(x) {
                    return Err(PlanError::UnknownBuffer { op: Some(op), buffer: x });
                }
            }
        }
    }
    for (b, buf) in p.buffers.iter_enumerated() {
        if let Some(src) = buf.alias_of {
            if !in_range(src) {
                return Err(PlanError::UnknownBuffer { op: None, buffer: src });
            }
            if src == b {
                return Err(PlanError::IllegalAlias { buffer: b, source_buffer: src, reason: "aliases itself" });
            }
        }
    }

    // Writers, and the file order being topological.
    let mut writer: IndexVec<BufferId, Option<OpId>> = p.buffers.iter().map(|_| None).collect();
    let mut preds: IndexVec<OpId, Vec<OpId>> = p.ops.iter().map(|_| Vec::new()).collect();
    let mut last_var_user: IndexVec<BufferId, Option<OpId>> = p.buffers.iter().map(|_| None).collect();
    // The last barrier so far: every later operator runs after it, and it after every earlier one.
    let mut last_barrier: Option<OpId> = None;
    for (op, node) in p.ops.iter_enumerated() {
        if node.barrier {
            preds[op].extend(p.ops.indices().take_while(|&o| o != op));
        } else if let Some(b) = last_barrier {
            preds[op].push(b);
        }
        if node.barrier {
            last_barrier = Some(op);
        }
        for &b in &node.reads {
            let kind = p.buffers[b].kind;
            if kind == BufferKind::Variable {
                continue;
            }
            if node.writes.contains(&b) {
                return Err(PlanError::ReadsOwnWrite { op, buffer: b });
            }
            if kind == BufferKind::Scratch {
                return Err(PlanError::BadScratch { buffer: b, reason: "read by an operator" });
            }
            match writer[b] {
                Some(w) => preds[op].push(w),
                None if kind.is_input() => {}
                None => return Err(PlanError::ReadBeforeWrite { op, buffer: b }),
            }
        }
        for &b in &node.writes {
            let kind = p.buffers[b].kind;
            if kind == BufferKind::Variable {
                continue;
            }
            if kind.is_input() {
                return Err(PlanError::WritesInput { op, buffer: b });
            }
            if let Some(first) = writer[b] {
                return Err(PlanError::MultipleWriters { buffer: b, first, second: op });
            }
            writer[b] = Some(op);
        }
        // Operators touching one variable keep their file order.
        for &b in node.reads.iter().chain(&node.writes) {
            if p.buffers[b].kind == BufferKind::Variable {
                if let Some(prev) = last_var_user[b] {
                    if prev != op {
                        preds[op].push(prev);
                    }
                }
                last_var_user[b] = Some(op);
            }
        }
        preds[op].sort();
        preds[op].dedup();
    }

    // Alias roots and legality.
    let mut root: IndexVec<BufferId, BufferId> = p.buffers.indices().collect();
    for b in p.buffers.indices() {
        let mut r = b;
        let mut hops = 0;
        while let Some(src) = p.buffers[r].alias_of {
            r = src;
            hops += 1;
            if hops > nb {
                return Err(PlanError::IllegalAlias { buffer: b, source_buffer: src, reason: "alias cycle" });
            }
        }
        root[b] = r;
    }
    let mut io_count: IndexVec<BufferId, u32> = p.buffers.iter().map(|_| 0).collect();
    for (b, buf) in p.buffers.iter_enumerated() {
        if buf.kind.is_input() || buf.kind.is_output() {
            io_count[root[b]] += 1;
        }
        if buf.kind == BufferKind::Scratch {
            let writers = p.ops.iter().filter(|n| n.writes.contains(&b)).count();
            if writers != 1 {
                return Err(PlanError::BadScratch { buffer: b, reason: "not written by exactly one operator" });
            }
        }
        let Some(src) = buf.alias_of else { continue };
        let illegal = |reason| Err(PlanError::IllegalAlias { buffer: b, source_buffer: src, reason });
        match buf.kind {
            BufferKind::Activation | BufferKind::Output => {}
            _ => return illegal("only activations and outputs can be views"),
        }
        match p.buffers[root[b]].kind {
            BufferKind::Variable => return illegal("views of variables must be copies"),
            BufferKind::Scratch => return illegal("views of scratch buffers are meaningless"),
            _ => {}
        }
        if buf.bytes > p.buffers[root[b]].bytes {
            return illegal("view is larger than its source");
        }
        match writer[b] {
            Some(w) if p.ops[w].reads.contains(&src) => {}
            _ => return illegal("the view's writer does not read its source"),
        }
    }
    for (b, buf) in p.buffers.iter_enumerated() {
        if buf.alias_of.is_some() && io_count[root[b]] > 1 {
            let src = buf.alias_of.unwrap_or(b);
            return Err(PlanError::IllegalAlias {
                buffer: b,
                source_buffer: src,
                reason: "a view would join two model inputs/outputs; it must be a copy",
            });
        }
        if buf.kind == BufferKind::Output && writer[b].is_none() {
            return Err(PlanError::UnwrittenOutput { buffer: b });
        }
    }

    // Group facts, on roots.
    let mut size: IndexVec<BufferId, u64> = p.buffers.iter().map(|_| 0).collect();
    let mut readers: IndexVec<BufferId, Vec<OpId>> = p.buffers.iter().map(|_| Vec::new()).collect();
    let mut from_start: IndexVec<BufferId, bool> = p.buffers.iter().map(|_| false).collect();
    let mut to_end: IndexVec<BufferId, bool> = p.buffers.iter().map(|_| false).collect();
    let mut variable: IndexVec<BufferId, bool> = p.buffers.iter().map(|_| false).collect();
    for (b, buf) in p.buffers.iter_enumerated() {
        let r = root[b];
        if r == b {
            size[b] = align_up(buf.bytes, align, b)?;
        }
        let var = buf.kind == BufferKind::Variable;
        variable[r] |= var;
        from_start[r] |= var || buf.kind.is_input();
        to_end[r] |= var || buf.kind.is_output();
    }
    for (op, node) in p.ops.iter_enumerated() {
        for &b in &node.reads {
            readers[root[b]].push(op);
        }
        for &b in &node.writes {
            if root[b] != b || p.buffers[b].kind == BufferKind::Variable {
                readers[root[b]].push(op);
            }
        }
    }
    for r in readers.iter_mut() {
        r.sort();
        r.dedup();
    }

    // In-place declarations must name an input and an output of that operator.
    for (op, node) in p.ops.iter_enumerated() {
        for &(a, b) in &node.in_place_ok {
            let bad = |reason| Err(PlanError::IllegalInPlace { op, input: a, output: b, reason });
            if !node.reads.contains(&a) || !node.writes.contains(&b) {
                return bad("not an (input, output) pair of the operator");
            }
            if variable[root[a]] || variable[root[b]] {
                return bad("variables overlap nothing");
            }
        }
        for o in &node.overlap_ok {
            let bad = |reason| Err(PlanError::IllegalOverlap { op, input: o.input, output: o.output, reason });
            if !node.reads.contains(&o.input) || !node.writes.contains(&o.output) {
                return bad("not an (input, output) pair of the operator");
            }
            if variable[root[o.input]] || variable[root[o.output]] {
                return bad("variables overlap nothing");
            }
            match o.bound {
                super::DeltaBound::AtMost(d) if d > 0 => {
                    return bad("a forward overlap starts the output at or below the input (AtMost(d), d <= 0)")
                }
                _ => {}
            }
        }
    }

    Ok(Analysis { root, size, writer, readers, from_start, to_end, variable, preds, align })
}

/// Offsets and lifetimes of every buffer for one order.
pub(crate) struct Placement {
    pub offsets: IndexVec<BufferId, u64>,
    pub lifetimes: IndexVec<BufferId, Option<Lifetime>>,
    /// The declared in-place pairs placed at one offset: `(op, input, output)`.
    pub in_place: Vec<(OpId, BufferId, BufferId)>,
    /// The declared overlaps whose bytes are shared.
    pub overlaps: Vec<super::RealisedOverlap>,
    pub solution: offsets::Solution,
}

impl Analysis {
    fn is_root(&self, b: BufferId) -> bool {
        self.root[b] == b
    }

    /// Whether a root's group is ever live.
    fn live(&self, r: BufferId) -> bool {
        self.from_start[r] || self.writer[r].is_some()
    }

    /// The memory model the scheduler optimises: one unit per live group.
    pub fn schedule_graph(&self, p: &Problem) -> MemGraph {
        let mut units = Vec::new();
        for r in p.buffers.indices() {
            if !self.is_root(r) || !self.live(r) {
                continue;
            }
            units.push(Unit {
                bytes: self.size[r],
                birth: if self.from_start[r] { None } else { self.writer[r] },
                readers: self.readers[r].clone(),
                to_end: self.to_end[r],
            });
        }
        MemGraph::new(self.preds.clone(), units)
    }

    /// Live interval of each root's group on `order`.
    fn intervals(&self, p: &Problem, order: &[OpId]) -> IndexVec<BufferId, Option<Lifetime>> {
        let mut pos: IndexVec<OpId, usize> = p.ops.iter().map(|_| 0).collect();
        for (s, &op) in order.iter().enumerate() {
            pos[op] = s;
        }
        let end = order.len().max(1) - 1;
        p.buffers
            .indices()
            .map(|b| {
                if !self.is_root(b) || !self.live(b) {
                    return None;
                }
                let first = if self.from_start[b] { 0 } else { self.writer[b].map_or(0, |w| pos[w]) };
                let last = if self.to_end[b] {
                    end
                } else {
                    self.readers[b].iter().map(|&o| pos[o]).max().unwrap_or(first).max(first)
                };
                Some(Lifetime { first: Step::new(first), last: Step::new(last) })
            })
            .collect()
    }

    /// Places every group for `order`.
    pub fn place(&self, p: &Problem, order: &[OpId], work_budget: u64, budget: &mut crate::schedule::Budget) -> Placement {
        let iv = self.intervals(p, order);
        let mut item_of: IndexVec<BufferId, Option<usize>> = p.buffers.iter().map(|_| None).collect();
        let mut items = Vec::new();
        for (b, lt) in iv.iter_enumerated() {
            if let Some(lt) = lt {
                item_of[b] = Some(items.len());
                items.push(Item { size: self.size[b], first: lt.first.index(), last: lt.last.index() });
            }
        }
        // In-place pairs that may share bytes: input group dies at the op's step, output group
        // is born there, neither holds state, the input group holds no model input/output and
        // the op reads no other member of it (the kernel gets the shared bytes once, as its
        // output).
        let mut group_io: IndexVec<BufferId, bool> = p.buffers.iter().map(|_| false).collect();
        for (x, buf) in p.buffers.iter_enumerated() {
            group_io[self.root[x]] |= buf.kind.is_input() || buf.kind.is_output();
        }
        // Shared by in-place and overlap pairs.
        let mut group_out: IndexVec<BufferId, bool> = p.buffers.iter().map(|_| false).collect();
        for (x, buf) in p.buffers.iter_enumerated() {
            group_out[self.root[x]] |= buf.kind.is_output();
        }
        // `io_ok`: the input group may hold a model input (overlaps: its bytes are free after
        // its last reader anyway); never a model output.
        let eligible = |s: usize, op: OpId, a: BufferId, b: BufferId, io_ok: bool| -> Option<(usize, usize)> {
            let (ra, rb) = (self.root[a], self.root[b]);
            if p.ops[op].reads.iter().filter(|&&x| self.root[x] == ra).any(|&x| x != a)
                || p.ops[op].reads.iter().filter(|&&x| x == a).count() > 1
            {
                return None;
            }
            let (ia, ib) = (item_of[ra]?, item_of[rb]?);
            (ra != rb
                && items[ia].last == s
                && items[ib].first == s
                && !self.variable[ra]
                && !self.variable[rb]
                && !group_out[ra]
                && (io_ok || !group_io[ra]))
                .then_some((ia, ib))
        };
        let mut exempt = Vec::new();
        let mut pairs = Vec::new();
        let mut rels = Vec::new();
        let mut rel_pairs = Vec::new();
        for (s, &op) in order.iter().enumerate() {
            for &(a, b) in &p.ops[op].in_place_ok {
                if let Some(pair) = eligible(s, op, a, b, false) {
                    exempt.push(pair);
                    pairs.push((op, a, b));
                }
            }
            for o in &p.ops[op].overlap_ok {
                if let Some((ia, ib)) = eligible(s, op, o.input, o.output, true) {
                    if exempt.contains(&(ia, ib)) {
                        continue;
                    }
                    // Offsets are multiples of the alignment: the bound rounds inwards (up,
                    // whatever its sign). A relation puts its `y` at least `h` below its `x`
                    // (`h < 0`: at most `-h` above): the output below the input (forward), or
                    // the input below the output (reversed).
                    let align = self.align as i64;
                    let round = |h: i64| h.div_euclid(align).saturating_add(i64::from(h.rem_euclid(align) != 0)).saturating_mul(align);
                    rels.push(match o.bound {
                        super::DeltaBound::AtMost(d) => offsets::Rel { x: ia, y: ib, h: round(d.saturating_neg()) },
                        super::DeltaBound::AtLeast(d) => offsets::Rel { x: ib, y: ia, h: round(d) },
                    });
                    rel_pairs.push((op, o.input, o.output));
                }
            }
        }
        let solution = offsets::solve(&items, &exempt, &rels, order.len().max(1), work_budget, budget);
        let offsets: IndexVec<BufferId, u64> =
            p.buffers.indices().map(|b| item_of[self.root[b]].map_or(0, |i| solution.offsets[i])).collect();
        let lifetimes = p.buffers.indices().map(|b| iv[self.root[b]]).collect();
        // An exempt pair is placed at one offset or apart, never partly overlapping.
        let in_place = exempt
            .iter()
            .zip(pairs)
            .filter(|(&(ia, ib), _)| solution.offsets[ia] == solution.offsets[ib])
            .map(|(_, pair)| pair)
            .collect();
        let overlaps = rel_pairs
            .into_iter()
            .filter(|&(_, x, y)| {
                let (ox, oy) = (offsets[x], offsets[y]);
                let (sx, sy) = (p.buffers[x].bytes, p.buffers[y].bytes);
                sx > 0 && sy > 0 && ox < oy + sy && oy < ox + sx
            })
            .map(|(op, input, output)| super::RealisedOverlap {
                op,
                input,
                output,
                delta: offsets[output] as i64 - offsets[input] as i64,
            })
            .collect();
        Placement { offsets, lifetimes, in_place, overlaps, solution }
    }
}
