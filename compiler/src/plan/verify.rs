//! The plan verifier: an independent judge of a [`MemoryPlan`].
//!
//! It shares no code with the planner (not even liveness): everything is recomputed here from
//! the [`Problem`] and the plan's schedule and offsets, with simple quadratic loops. It proves,
//! for the given plan:
//!
//! - the schedule runs every operator exactly once, each after the writers of everything it
//!   reads, operators touching one variable in file order, and every barrier
//!   ([`super::OpNode::barrier`]) after every operator before it in file order and before every
//!   one after it;
//! - every buffer's offset is aligned and its bytes (its real size) lie inside `arena_bytes`;
//! - no byte is shared by two buffers whose live intervals overlap, except a pair an operator
//!   declares in-place-safe when the input's storage dies at that step and the output's is born
//!   there, both start at the same offset, the operator reads no other buffer of the input's
//!   storage (nor the input twice), and neither is a variable nor the input part of a model
//!   input/output;
//! - likewise a pair an operator declares overlap-tolerant ([`super::Overlap`]) may share bytes
//!   under the same conditions when `delta = offset(output) - offset(input)` lies within its
//!   declared bound (`delta <= d <= 0` forward, `delta >= d` reversed, `d` of either sign) instead of one
//!   offset, where the input's storage may hold a model input (its bytes are free after
//!   its last reader anyway) but no model output;
//! - variables share no byte with any other buffer at all (they live across runs);
//! - every alias is legal (an activation or output viewing a non-variable, non-scratch buffer,
//!   no larger than it, written by an operator that reads the source, never joining two model
//!   inputs/outputs) and sits at its source's offset;
//! - scratch buffers are written by exactly one operator and read by none;
//! - graph I/O regions are stable: inputs are live and untouched from step 0 to their last
//!   reader, outputs from their writer to the end (each is one fixed region);
//! - the reported in-place pairs are declared pairs at one offset, and every declared pair
//!   whose bytes overlap is reported (codegen emits the in-place call for exactly those);
//! - the reported overlaps are declared overlap pairs that share bytes at the reported delta,
//!   within the declared range, and every declared overlap pair that shares bytes is reported
//!   (codegen emits the in-out call for exactly those);
//! - the reported lifetimes match; the reported peaks of the chosen and of the file order are
//!   the recomputed ones (live bytes, sizes rounded up to the alignment), the chosen order is no
//!   worse than the file order, and the reported lower bound exceeds neither the chosen order's
//!   peak nor the arena.
//!
//! It does not prove optimality claims (`order_optimal`, `offsets_optimal`); the tests compare
//! those with brute force on small instances.
//!
//! It returns every violation found, not only the first.

use super::{BufferId, BufferKind, DeltaBound, Lifetime, MemoryPlan, OpId, PlanError, Problem, Step};

/// Checks `plan` against `problem`; an empty vector means the plan is valid.
pub fn verify(problem: &Problem, plan: &MemoryPlan) -> Vec<PlanError> {
    let mut errs = Vec::new();
    let nb = problem.buffers.len();
    let nops = problem.ops.len();
    let bad_schedule = |reason: String| PlanError::BadSchedule { reason };

    if plan.align == 0 || !plan.align.is_power_of_two() {
        errs.push(PlanError::BadAlignment { align: plan.align });
        return errs;
    }
    if plan.offsets.len() != nb || plan.lifetimes.len() != nb {
        errs.push(PlanError::BadClaim {
            reason: format!("{} offsets / {} lifetimes for {nb} buffers", plan.offsets.len(), plan.lifetimes.len()),
        });
        return errs;
    }
    for (op, node) in problem.ops.iter_enumerated() {
        let all = node
            .reads
            .iter()
            .chain(&node.writes)
            .chain(node.in_place_ok.iter().flat_map(|(a, b)| [a, b]))
            .chain(node.overlap_ok.iter().flat_map(|o| [&o.input, &o.output]));
        for &b in all {
            if b.index() >= nb {
                errs.push(PlanError::UnknownBuffer { op: Some(op), buffer: b });
            }
        }
    }
    for buf in problem.buffers.iter() {
        if let Some(src) = buf.alias_of {
            if src.index() >= nb {
                errs.push(PlanError::UnknownBuffer { op: None, buffer: src });
            }
        }
    }
    if !errs.is_empty() {
        return errs;
    }

    // Positions.
    let mut pos: Vec<Option<usize>> = vec![None; nops];
    for (s, &op) in plan.schedule.iter().enumerate() {
        if op.index() >= nops {
            errs.push(bad_schedule(format!("unknown operator {op}")));
        } else if pos[op.index()].is_some() {
            errs.push(bad_schedule(format!("{op} scheduled twice")));
        } else {
            pos[op.index()] = Some(s);
        }
    }
    if let Some(i) = pos.iter().position(|p| p.is_none()) {
        errs.push(bad_schedule(format!("{} never scheduled", OpId::new(i))));
    }
    if !errs.is_empty() {
        return errs;
    }
    let pos: Vec<usize> = pos.into_iter().map(|p| p.unwrap_or(0)).collect();
    for (b, node) in problem.ops.iter_enumerated() {
        if !node.barrier {
            continue;
        }
        for o in 0..nops {
            if o != b.index() && (o < b.index()) != (pos[o] < pos[b.index()]) {
                errs.push(PlanError::BarrierOrder { op: b, other: OpId::new(o) });
            }
        }
    }
    let last_step = plan.schedule.len().max(1) - 1;

    // Writers and readers of every buffer.
    let mut writers: Vec<Vec<OpId>> = vec![Vec::new(); nb];
    let mut readers: Vec<Vec<OpId>> = vec![Vec::new(); nb];
    for (op, node) in problem.ops.iter_enumerated() {
        for &b in &node.writes {
            if !writers[b.index()].contains(&op) {
                writers[b.index()].push(op);
            }
        }
        for &b in &node.reads {
            if !readers[b.index()].contains(&op) {
                readers[b.index()].push(op);
            }
        }
    }
    let kind = |b: usize| problem.buffers[BufferId::new(b)].kind;

    // Dependencies.
    for b in 0..nb {
        let k = kind(b);
        if k == BufferKind::Variable {
            let mut users: Vec<OpId> = writers[b].iter().chain(&readers[b]).copied().collect();
            users.sort();
            users.dedup();
            for w in users.windows(2) {
                if pos[w[0].index()] > pos[w[1].index()] {
                    errs.push(PlanError::VariableOrder { buffer: BufferId::new(b), first: w[0], second: w[1] });
                }
            }
            continue;
        }
        if k.is_input() {
            if let Some(&w) = writers[b].first() {
                errs.push(PlanError::WritesInput { op: w, buffer: BufferId::new(b) });
            }
        }
        if writers[b].len() > 1 {
            errs.push(PlanError::MultipleWriters {
                buffer: BufferId::new(b),
                first: writers[b][0],
                second: writers[b][1],
            });
        }
        for &r in &readers[b] {
            let ok = match writers[b].first() {
                Some(&w) => pos[w.index()] < pos[r.index()],
                None => k.is_input(),
            };
            if !ok {
                errs.push(PlanError::NotTopological { op: r, buffer: BufferId::new(b) });
            }
        }
        if k == BufferKind::Scratch && (writers[b].len() != 1 || !readers[b].is_empty()) {
            errs.push(PlanError::BadScratch {
                buffer: BufferId::new(b),
                reason: "must be written by one operator and read by none",
            });
        }
    }

    // Alias groups: follow alias_of to the root.
    let mut root: Vec<usize> = (0..nb).collect();
    for (b, r) in root.iter_mut().enumerate() {
        let mut cur = b;
        let mut hops = 0;
        while let Some(src) = problem.buffers[BufferId::new(cur)].alias_of {
            cur = src.index();
            hops += 1;
            if hops > nb {
                errs.push(PlanError::BadAlias { buffer: BufferId::new(b), reason: "alias cycle".into() });
                return errs;
            }
        }
        *r = cur;
    }

    // Live span of every group (indexed by root; None: never live) for operator positions
    // `pos`: each member from its writer (step 0 for inputs) to its last reader (the end for
    // outputs); variables throughout; the group over the span of its members.
    let spans_for = |pos: &[usize]| -> Vec<Option<(usize, usize)>> {
        let mut span: Vec<Option<(usize, usize)>> = vec![None; nb];
        for b in 0..nb {
            let k = kind(b);
            let own = if k == BufferKind::Variable {
                Some((0, last_step))
            } else {
                let first = if k.is_input() { Some(0) } else { writers[b].first().map(|w| pos[w.index()]) };
                first.map(|first| {
                    let mut last = first;
                    for &r in &readers[b] {
                        last = last.max(pos[r.index()]);
                    }
                    if k.is_output() {
                        last = last_step;
                    }
                    (first, last)
                })
            };
            if let Some((f, l)) = own {
                let s = &mut span[root[b]];
                *s = Some(match *s {
                    None => (f, l),
                    Some((f0, l0)) => (f0.min(f), l0.max(l)),
                });
            }
        }
        span
    };
    let span = spans_for(&pos);
    let file_pos: Vec<usize> = (0..nops).collect();
    let file_span = spans_for(&file_pos);

    // Claims about peaks and bounds: the peak of live (aligned) bytes of the chosen and of the
    // file order, recomputed here; the lower bound cannot exceed the chosen order's peak.
    let aligned: Vec<Option<u64>> =
        (0..nb).map(|r| problem.buffers[BufferId::new(r)].bytes.checked_next_multiple_of(plan.align)).collect();
    let peak_of = |sp: &[Option<(usize, usize)>]| -> Option<u64> {
        let mut peak = 0u64;
        for t in 0..=last_step {
            let mut live = 0u64;
            for r in (0..nb).filter(|&r| root[r] == r) {
                if sp[r].is_some_and(|(f, l)| f <= t && t <= l) {
                    live = live.checked_add(aligned[r]?)?;
                }
            }
            peak = peak.max(live);
        }
        Some(peak)
    };
    match (peak_of(&span), peak_of(&file_span)) {
        (Some(peak), Some(file_peak)) => {
            if plan.peak_bytes != peak {
                errs.push(PlanError::BadClaim { reason: format!("peak {} but the order's peak is {peak}", plan.peak_bytes) });
            }
            if plan.file_order_peak_bytes != file_peak {
                errs.push(PlanError::BadClaim {
                    reason: format!("file order peak {} but it is {file_peak}", plan.file_order_peak_bytes),
                });
            }
            if plan.lower_bound_bytes > peak {
                errs.push(PlanError::BadClaim {
                    reason: format!("lower bound {} above the order's peak {peak}", plan.lower_bound_bytes),
                });
            }
            if peak > file_peak {
                errs.push(PlanError::BadClaim { reason: format!("order peak {peak} worse than the file order's {file_peak}") });
            }
        }
        _ => errs.push(PlanError::BadClaim { reason: "byte sizes overflow".into() }),
    }

    for b in 0..nb {
        let buf = &problem.buffers[BufferId::new(b)];
        let id = BufferId::new(b);
        let Some(src) = buf.alias_of else { continue };
        let mut bad = |reason: String| errs.push(PlanError::BadAlias { buffer: id, reason });
        if !matches!(buf.kind, BufferKind::Activation | BufferKind::Output) {
            bad(format!("a {:?} buffer cannot be a view", buf.kind));
        }
        let rk = kind(root[b]);
        if matches!(rk, BufferKind::Variable | BufferKind::Scratch) {
            bad(format!("views a {rk:?} buffer"));
        }
        if buf.bytes > problem.buffers[BufferId::new(root[b])].bytes {
            bad("larger than its source".into());
        }
        let reads_src = writers[b].iter().any(|w| problem.ops[*w].reads.contains(&src));
        if !reads_src {
            bad("its writer does not read its source".into());
        }
        if plan.offsets[id] != plan.offsets[src] {
            bad(format!("offset {} differs from its source's {}", plan.offsets[id], plan.offsets[src]));
        }
        let io_members = (0..nb).filter(|&x| root[x] == root[b] && (kind(x).is_input() || kind(x).is_output())).count();
        if io_members > 1 {
            bad("joins two model inputs/outputs".into());
        }
    }

    // Reported lifetimes.
    for b in 0..nb {
        let expected = span[root[b]].map(|(f, l)| Lifetime { first: Step::new(f), last: Step::new(l) });
        let reported = plan.lifetimes[BufferId::new(b)];
        if expected != reported {
            errs.push(PlanError::WrongLifetime { buffer: BufferId::new(b), reported, expected });
        }
    }

    // Bounds and alignment (real byte sizes).
    for b in 0..nb {
        let id = BufferId::new(b);
        let off = plan.offsets[id];
        if !off.is_multiple_of(plan.align) {
            errs.push(PlanError::Misaligned { buffer: id, offset: off, align: plan.align });
        }
        let end = off.saturating_add(problem.buffers[id].bytes);
        if span[root[b]].is_some() && end > plan.arena_bytes {
            errs.push(PlanError::OutOfBounds { buffer: id, end, arena: plan.arena_bytes });
        }
    }

    // Overlaps, pairwise over group roots.
    let mut io_of = vec![false; nb];
    let mut out_of = vec![false; nb];
    let mut var_of = vec![false; nb];
    for x in 0..nb {
        io_of[root[x]] |= kind(x).is_input() || kind(x).is_output();
        out_of[root[x]] |= kind(x).is_output();
        var_of[root[x]] |= kind(x) == BufferKind::Variable;
    }
    let holds_io = |r: usize| io_of[r];
    let holds_output = |r: usize| out_of[r];
    let is_var = |r: usize| var_of[r];
    let region = |r: usize| {
        let off = plan.offsets[BufferId::new(r)];
        (off, off.saturating_add(problem.buffers[BufferId::new(r)].bytes))
    };
    // Whether `op` declares (x, y) with x in group `gi`, y in group `go`, reads x once and no
    // other member of x's group, and y starts where x does (the kernel overwrites element i
    // with element i: a partial overlap is never in place).
    let declares = |op: OpId, gi: usize, go: usize| {
        let node = &problem.ops[op];
        node.in_place_ok.iter().any(|&(x, y)| {
            root[x.index()] == gi
                && root[y.index()] == go
                && node.reads.iter().filter(|&&z| root[z.index()] == gi).all(|&z| z == x)
                && node.reads.iter().filter(|&&z| z == x).count() == 1
                && node.writes.contains(&y)
                && plan.offsets[x] == plan.offsets[y]
        })
    };
    // The same for a declared overlap at a delta within its range. A model input may be
    // overlapped at its last reader (its bytes are free after that step anyway), a model
    // output never.
    // A forward bound starts the output at or below the input; a reversed one bounds the
    // delta from below, of either sign (a growing copy may start its output below the input).
    let within = |bound: DeltaBound, delta: i128| match bound {
        DeltaBound::AtMost(d) => d <= 0 && delta <= d as i128,
        DeltaBound::AtLeast(d) => delta >= d as i128,
    };
    let declares_overlap = |op: OpId, gi: usize, go: usize| {
        let node = &problem.ops[op];
        node.overlap_ok.iter().any(|o| {
            let (x, y) = (o.input, o.output);
            root[x.index()] == gi
                && root[y.index()] == go
                && node.reads.iter().filter(|&&z| root[z.index()] == gi).all(|&z| z == x)
                && node.reads.iter().filter(|&&z| z == x).count() == 1
                && node.writes.contains(&y)
                && within(o.bound, plan.offsets[y] as i128 - plan.offsets[x] as i128)
        })
    };
    for a in 0..nb {
        if root[a] != a {
            continue;
        }
        for b in a + 1..nb {
            if root[b] != b {
                continue;
            }
            let (a0, a1) = region(a);
            let (b0, b1) = region(b);
            if a0 >= a1 || b0 >= b1 || a0 >= b1 || b0 >= a1 || span[a].is_none() || span[b].is_none() {
                continue;
            }
            if is_var(a) || is_var(b) {
                let (v, o) = if is_var(a) { (a, b) } else { (b, a) };
                errs.push(PlanError::VariableOverlap { variable: BufferId::new(v), other: BufferId::new(o) });
                continue;
            }
            let (Some((fa, la)), Some((fb, lb))) = (span[a], span[b]) else { continue };
            if fa > lb || fb > la {
                continue;
            }
            let lo = fa.max(fb);
            let hi = la.min(lb);
            let in_place = lo == hi && {
                let op = plan.schedule[lo];
                (la == lo && fb == lo && !holds_io(a) && declares(op, a, b))
                    || (lb == lo && fa == lo && !holds_io(b) && declares(op, b, a))
                    || (la == lo && fb == lo && !holds_output(a) && declares_overlap(op, a, b))
                    || (lb == lo && fa == lo && !holds_output(b) && declares_overlap(op, b, a))
            };
            if !in_place {
                errs.push(PlanError::Overlap { a: BufferId::new(a), b: BufferId::new(b), step: Step::new(lo) });
            }
        }
    }

    // The realised in-place pairs: each a declared pair at one offset, and every declared
    // pair whose bytes overlap among them (codegen emits the `_in_place` call for exactly
    // these).
    for &(op, x, y) in &plan.in_place {
        let declared = problem.ops.get(op).is_some_and(|n| n.in_place_ok.contains(&(x, y)));
        if !declared || x.index() >= nb || y.index() >= nb || plan.offsets[x] != plan.offsets[y] {
            errs.push(PlanError::BadClaim { reason: format!("{op} runs ({x}, {y}) in place, which is not a declared pair at one offset") });
        }
    }
    for (op, node) in problem.ops.iter_enumerated() {
        for &(x, y) in &node.in_place_ok {
            let (x0, x1) = region(x.index());
            let (y0, y1) = region(y.index());
            if x0 < x1 && y0 < y1 && x0 < y1 && y0 < x1 && !plan.in_place.contains(&(op, x, y)) {
                errs.push(PlanError::BadClaim { reason: format!("{op}: ({x}, {y}) share bytes but are not reported in place") });
            }
        }
    }

    // The realised overlaps: declared, sharing bytes at the reported delta; and every
    // declared overlap pair that shares bytes is reported.
    for o in &plan.overlaps {
        let declared = problem
            .ops
            .get(o.op)
            .is_some_and(|n| n.overlap_ok.iter().any(|d| d.input == o.input && d.output == o.output && within(d.bound, o.delta as i128)));
        let ok = declared && o.input.index() < nb && o.output.index() < nb && {
            let (x0, x1) = region(o.input.index());
            let (y0, y1) = region(o.output.index());
            y0 as i128 - x0 as i128 == o.delta as i128 && x0 < x1 && y0 < y1 && x0 < y1 && y0 < x1
        };
        if !ok {
            errs.push(PlanError::BadClaim {
                reason: format!("{} overlaps ({}, {}) at delta {}, which is not a declared overlap sharing bytes there", o.op, o.input, o.output, o.delta),
            });
        }
    }
    for (op, node) in problem.ops.iter_enumerated() {
        for d in &node.overlap_ok {
            let (x0, x1) = region(d.input.index());
            let (y0, y1) = region(d.output.index());
            let reported = plan.overlaps.iter().any(|o| o.op == op && o.input == d.input && o.output == d.output);
            if x0 < x1 && y0 < y1 && x0 < y1 && y0 < x1 && !reported {
                errs.push(PlanError::BadClaim { reason: format!("{op}: ({}, {}) share bytes but are not reported overlapping", d.input, d.output) });
            }
        }
    }

    if plan.lower_bound_bytes > plan.arena_bytes {
        errs.push(PlanError::BadClaim {
            reason: format!("lower bound {} above arena {}", plan.lower_bound_bytes, plan.arena_bytes),
        });
    }
    errs
}

/// Checks the combined layout of a whole model's plans ([`super::ModelPlan`]): every
/// subgraph's plan on its own ([`verify`]), then every subgraph at the base where it runs
/// (its caller's base plus the calling operator's frame), on one timeline where a calling
/// step lasts while its callees run (IF's branches and WHILE's condition and body one after
/// the other: they never run at once, and what lives across a WHILE iteration lives in the
/// caller). It proves:
///
/// - every callee buffer lies inside the frame of the operator that calls it (and so inside
///   the arena);
/// - no byte is shared by two buffers of different subgraph instances whose lifetimes meet
///   on that timeline, except a frame and the buffers of the callees that run in it: a
///   caller's tensors live at the call (the op's inputs, its outputs, WHILE's loop-carried
///   values, anything read later) share no byte with any callee's;
/// - the frame of a call is a scratch buffer of the calling operator, and callees run nowhere
///   else.
///
/// It recomputes the instances and the timeline from the plans' schedules, offsets and
/// (verified) lifetimes; it shares no code with `plan::model`. Returns every violation, as
/// text naming subgraph, buffer and tensor.
pub fn verify_model(mp: &super::ModelPlan) -> Vec<String> {
    use crate::ir::SubgraphId;
    let mut errs = Vec::new();
    for (id, p) in mp.subgraphs.iter_enumerated() {
        if let Some(p) = p {
            for v in verify(&p.problem, &p.plan) {
                errs.push(format!("subgraph {}: {}", id.index(), v.labelled(&p.problem)));
            }
        }
    }
    if !errs.is_empty() || mp.calls.is_empty() {
        return errs;
    }
    // Instances: (subgraph, base, parent (instance, op)). Built from the calls.
    struct Inst {
        sg: SubgraphId,
        base: u64,
        parent: Option<(usize, OpId)>,
        /// The frame of each calling op: its one scratch buffer.
        frames: Vec<(OpId, BufferId)>,
        len: u64,
        start: u64,
        step_span: Vec<(u64, u64)>,
    }
    let mut insts = vec![Inst { sg: SubgraphId::new(0), base: 0, parent: None, frames: Vec::new(), len: 0, start: 0, step_span: Vec::new() }];
    let mut i = 0;
    while i < insts.len() {
        if insts.len() > 10_000 {
            errs.push("more than 10000 subgraph instances (nested calls too deep to check)".into());
            return errs;
        }
        let (sg, base) = (insts[i].sg, insts[i].base);
        let Some(p) = mp.get(sg) else {
            errs.push(format!("subgraph {} is called but has no plan", sg.index()));
            i += 1;
            continue;
        };
        for &op in &p.plan.schedule {
            let Some(&(_, _, call)) = mp.calls.iter().find(|c| c.0 == sg && c.1 == op) else { continue };
            let scratch: Vec<BufferId> =
                p.problem.ops[op].writes.iter().copied().filter(|&b| p.problem.buffers[b].kind == BufferKind::Scratch).collect();
            let [frame] = scratch.as_slice() else {
                errs.push(format!("subgraph {} {op}: a call needs exactly one scratch buffer (its frame), found {}", sg.index(), scratch.len()));
                continue;
            };
            insts[i].frames.push((op, *frame));
            for callee in call.callees() {
                insts.push(Inst { sg: callee, base: base + p.plan.offsets[*frame], parent: Some((i, op)), frames: Vec::new(), len: 0, start: 0, step_span: Vec::new() });
            }
        }
        i += 1;
    }
    // Timeline: a step is one tick plus its callees' runs. Children come after parents in
    // `insts`, so lengths go backwards and starts forwards.
    let children = |insts: &[Inst], i: usize, op: OpId| -> Vec<usize> {
        (0..insts.len()).filter(|&c| insts[c].parent == Some((i, op))).collect()
    };
    for i in (0..insts.len()).rev() {
        let Some(p) = mp.get(insts[i].sg) else { continue };
        let mut len = 0;
        for &op in &p.plan.schedule {
            len += 1 + children(&insts, i, op).iter().map(|&c| insts[c].len).sum::<u64>();
        }
        insts[i].len = len;
    }
    for i in 0..insts.len() {
        let Some(p) = mp.get(insts[i].sg) else { continue };
        let mut t = insts[i].start;
        let mut spans = Vec::new();
        for &op in &p.plan.schedule {
            let s = t;
            t += 1;
            for c in children(&insts, i, op) {
                insts[c].start = t;
                t += insts[c].len;
            }
            spans.push((s, t - 1));
        }
        insts[i].step_span = spans;
    }
    // Every buffer placed: (instance, buffer, bytes, time).
    let mut placed: Vec<(usize, BufferId, u64, u64, u64, u64)> = Vec::new();
    for (i, inst) in insts.iter().enumerate() {
        let Some(p) = mp.get(inst.sg) else { continue };
        for (b, buf) in p.problem.buffers.iter_enumerated() {
            let Some(Some(life)) = p.plan.lifetimes.get(b) else { continue };
            let (Some(&(t0, _)), Some(&(_, t1))) = (inst.step_span.get(life.first.index()), inst.step_span.get(life.last.index())) else {
                continue;
            };
            let a = inst.base + p.plan.offsets[b];
            placed.push((i, b, a, a + buf.bytes, t0, t1));
        }
    }
    let label = |i: usize, b: BufferId| -> String {
        let p = mp.get(insts[i].sg);
        format!("subgraph {} {b} {}", insts[i].sg.index(), p.map_or(String::new(), |p| p.problem.buffers[b].label.clone()))
    };
    // Is instance `d` run inside frame `(i, f)`?
    let inside = |d: usize, i: usize, f: BufferId| -> bool {
        let mut cur = d;
        while let Some((par, op)) = insts[cur].parent {
            if par == i && insts[i].frames.iter().any(|&(o, fb)| o == op && fb == f) {
                return true;
            }
            cur = par;
        }
        false
    };
    for (k, &(i, b, a0, a1, _, _)) in placed.iter().enumerate() {
        // Inside the parent's frame.
        if let Some((par, op)) = insts[i].parent {
            if let (Some(pp), Some(&(_, f))) = (mp.get(insts[par].sg), insts[par].frames.iter().find(|x| x.0 == op)) {
                let f0 = insts[par].base + pp.plan.offsets[f];
                let f1 = f0 + pp.problem.buffers[f].bytes;
                if a0 < a1 && (a0 < f0 || a1 > f1) {
                    errs.push(format!("{} at {a0}..{a1} is outside the frame {f0}..{f1} of its call ({op})", label(i, b)));
                }
            }
        }
        for &(j, c, c0, c1, u0, u1) in &placed[k + 1..] {
            if i == j || a0 >= c1 || c0 >= a1 {
                continue;
            }
            let (t0, t1) = (placed[k].4, placed[k].5);
            if t0 > u1 || u0 > t1 {
                continue;
            }
            if inside(j, i, b) || inside(i, j, c) {
                continue;
            }
            errs.push(format!("{} and {} share bytes {}..{} while both live", label(i, b), label(j, c), a0.max(c0), a1.min(c1)));
        }
    }
    errs
}
