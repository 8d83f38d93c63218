//! Several models in one arena.
//!
//! Models that never run at the same time can share their working memory: while one runs,
//! the others' intermediate tensors are dead. What must survive the other models' runs is
//! each model's *persistent* bytes: its inputs (the caller may write them before running
//! another model), its outputs (the caller reads them after), and its state (variable
//! tensors). A model that *shares* is planned with
//! [`PlanOptions::persistent_io`](super::PlanOptions::persistent_io): those buffers are then
//! [`BufferKind::Variable`], live at every step and sharing no byte with anything of that
//! model. The joint arena is
//!
//! ```text
//! [ private block of model 0 | of model 1 | ... | shared region: max over sharing models ]
//! ```
//!
//! A sharing model's private block holds its persistent buffers; a model that does not share
//! keeps the plan it has when compiled alone, whole, in its private block. Keeping its own
//! inputs across its own run costs a sharing model the bytes its first operators would have
//! written over them (an overlap or an in-place pair), so sharing does not always pay: every
//! subset of sharing models is tried and the smallest arena kept ([`join`]); with none
//! sharing, the arena is the separate arenas' sum, so the joint arena never exceeds it.
//!
//! Each plan is moved into the joint arena without re-planning. For a sharing model, its
//! persistent buffers are packed, in offset order, into its private block, and every other
//! buffer moves to the shared region, its offset less the persistent bytes below it. That
//! compaction keeps every relation the model's plan had (a persistent buffer shares no byte
//! with any other buffer of its model, so no other buffer straddles one; the relative offsets
//! of two buffers on the same side of it are unchanged, and of two on opposite sides they
//! shrink by whole aligned blocks while staying apart), so the moved plan still passes the
//! verifier. [`check`] is the joint verifier: each moved plan through
//! [`super::verify::verify_model`], plus no byte shared across models where one of the two
//! buffers must survive the other model's run.

use super::{BufferKind, ModelPlan};
use std::ops::Range;

/// Where one model lives in the joint arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JointModel {
    /// The model's own bytes, which no other model touches: its inputs, outputs and state
    /// when it `shares`, its whole arena otherwise.
    pub private: Range<u64>,
    /// Whether its other tensors live in the shared region (planned with persistent inputs
    /// and outputs), or the model keeps its own plan in its private block (when sharing
    /// would not make the joint arena smaller).
    pub shares: bool,
    /// Bytes of its other buffers in the shared region (from the shared region's start); 0
    /// when it does not share.
    pub shared_bytes: u64,
}

/// The joint layout of several models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JointPlan {
    /// Offset alignment in bytes.
    pub align: u64,
    /// Each model's place in the joint arena, in the order given.
    pub models: Vec<JointModel>,
    /// Where the shared region starts: the private blocks' total.
    pub shared_start: u64,
    /// The joint arena: the private blocks plus the largest shared region.
    pub arena_bytes: u64,
    /// No layout that keeps every model's inputs, outputs and state while the others run
    /// needs fewer bytes: at the peak of model `i`, its own peak (its plan's lower bound when
    /// compiled alone) is live, and so are every other model's state and its inputs or its
    /// outputs, whichever are larger.
    pub lower_bound_bytes: u64,
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

/// The persistent buffers of `mp`'s entry subgraph as aligned blocks `(offset, bytes)`,
/// sorted by offset.
fn persistent_blocks(mp: &ModelPlan) -> Vec<(u64, u64)> {
    let Some(p) = mp.main() else { return Vec::new() };
    let a = p.plan.align.max(1);
    let mut v: Vec<(u64, u64)> = p
        .problem
        .buffers
        .iter_enumerated()
        .filter(|(b, buf)| buf.kind == BufferKind::Variable && p.plan.lifetimes.get(*b).is_some_and(|l| l.is_some()))
        .map(|(b, buf)| (p.plan.offsets[b], align_up(buf.bytes, a)))
        .collect();
    v.sort_unstable();
    v
}

/// The fewest bytes a model keeps while another runs, as its plan alone keeps them: its
/// state, and its inputs or its outputs, whichever are larger (a model compiled alone may
/// write its outputs over its inputs' bytes, so only one of the two sets is sure to be apart).
fn kept_between_runs(mp: &ModelPlan) -> u64 {
    let Some(p) = mp.main() else { return 0 };
    let a = p.plan.align.max(1);
    let (mut state, mut ins, mut outs) = (0, 0, 0);
    for buf in p.problem.buffers.iter().filter(|b| b.alias_of.is_none()) {
        let n = align_up(buf.bytes, a);
        match buf.kind {
            BufferKind::Variable => state += n,
            BufferKind::Input => ins += n,
            BufferKind::Output => outs += n,
            BufferKind::InputOutput => {
                ins += n;
                outs += n;
            }
            BufferKind::Activation | BufferKind::Scratch => {}
        }
    }
    state + ins.max(outs)
}

/// One model's two plans: `persistent`, planned with `persistent_io`, and `alone`, planned
/// as [`crate::compile`] plans it.
pub struct Candidate {
    /// The plan with the model's inputs, outputs and state kept live throughout (so another model may run in between).
    pub persistent: ModelPlan,
    /// The plan as the model alone would have it.
    pub alone: ModelPlan,
}

/// Which models share. Up to 16 models every subset is tried (the smallest arena wins; ties
/// go to the subset with the lower bits, fewest sharing first). Beyond 16 the optimum is
/// found exactly another way: the arena is the sharing models' `pers` plus the others'
/// `alone` plus the widest sharing `shared`, so for each candidate widest `w` (0 or some
/// `shared[i]`) the best set is every model with `shared[i] <= w` that gains by sharing
/// (`pers[i] < alone[i]`); the smallest over all `w` is the minimum over every subset.
fn choose(pers: &[u64], shared: &[u64], alone: &[u64], align: u64) -> Vec<bool> {
    let n = pers.len();
    let cost = |s: &[bool]| -> u64 {
        let mut total = 0;
        let mut widest = 0;
        for i in 0..n {
            if s[i] {
                total += pers[i];
                widest = widest.max(shared[i]);
            } else {
                total += alone[i];
            }
        }
        align_up(total + widest, align)
    };
    if n <= 16 {
        let mut best = (u64::MAX, vec![false; n]);
        for mask in 0u32..(1 << n) {
            let s: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
            let c = cost(&s);
            if c < best.0 {
                best = (c, s);
            }
        }
        best.1
    } else {
        choose_by_widest(pers, shared, alone, &cost)
    }
}

/// [`choose`] beyond 16 models: for each candidate widest shared region `w`, every model
/// whose shared region fits in `w` and that gains by sharing shares; the cheapest `w` wins.
fn choose_by_widest(pers: &[u64], shared: &[u64], alone: &[u64], cost: &dyn Fn(&[bool]) -> u64) -> Vec<bool> {
    let n = pers.len();
    let mut widths: Vec<u64> = shared.to_vec();
    widths.push(0);
    widths.sort_unstable();
    widths.dedup();
    let mut best = (cost(&vec![false; n]), vec![false; n]);
    for w in widths {
        let s: Vec<bool> = (0..n).map(|i| shared[i] <= w && pers[i] < alone[i]).collect();
        let c = cost(&s);
        if c < best.0 {
            best = (c, s);
        }
    }
    best.1
}

/// Lays several models out in one arena, as the module doc describes: each model either
/// shares (its `persistent` plan: inputs, outputs and state in its private block, the rest
/// moved into the shared region) or keeps its `alone` plan in a private block, whichever
/// subset gives the smaller arena. Returns each model's chosen plan moved into the joint
/// arena (callees keep their relative plans: their frames move with the entry subgraph's
/// buffers), and the layout.
pub fn join(candidates: Vec<Candidate>) -> (Vec<ModelPlan>, JointPlan) {
    let align = candidates.iter().filter_map(|c| c.persistent.main()).map(|p| p.plan.align).max().unwrap_or(16).max(1);
    let blocks: Vec<Vec<(u64, u64)>> = candidates.iter().map(|c| persistent_blocks(&c.persistent)).collect();
    let pers: Vec<u64> = blocks.iter().map(|bl| bl.iter().map(|b| b.1).sum()).collect();
    let arena = |mp: &ModelPlan| mp.main().map_or(0, |p| p.plan.arena_bytes);
    let shared: Vec<u64> = candidates.iter().zip(&pers).map(|(c, &p)| arena(&c.persistent).saturating_sub(p)).collect();
    let alone: Vec<u64> = candidates.iter().map(|c| align_up(arena(&c.alone), align)).collect();
    let shares = choose(&pers, &shared, &alone, align);

    let mut joint = JointPlan { align, models: Vec::new(), shared_start: 0, arena_bytes: 0, lower_bound_bytes: 0 };
    let mut start = 0;
    for i in 0..candidates.len() {
        let len = if shares[i] { pers[i] } else { alone[i] };
        joint.models.push(JointModel { private: start..start + len, shares: shares[i], shared_bytes: if shares[i] { shared[i] } else { 0 } });
        start += len;
    }
    joint.shared_start = start;
    let widest = joint.models.iter().map(|m| m.shared_bytes).max().unwrap_or(0);
    joint.arena_bytes = align_up(start + widest, align);
    let kept: Vec<u64> = candidates.iter().map(|c| kept_between_runs(&c.alone)).collect();
    let total_kept: u64 = kept.iter().sum();
    joint.lower_bound_bytes = candidates
        .iter()
        .zip(&kept)
        .map(|(c, k)| c.alone.main().map_or(0, |a| a.plan.lower_bound_bytes) + total_kept - k)
        .max()
        .unwrap_or(0);

    let mut plans = Vec::new();
    for (((c, bl), jm), share) in candidates.into_iter().zip(&blocks).zip(&joint.models).zip(&shares) {
        let mut mp = if *share { c.persistent } else { c.alone };
        if let Some(Some(p)) = mp.subgraphs.iter_mut().next() {
            for (b, buf) in p.problem.buffers.iter_enumerated() {
                let off = p.plan.offsets[b];
                let persistent = bl.iter().position(|&(o, _)| o == off).filter(|_| buf.kind == BufferKind::Variable);
                p.plan.offsets[b] = match (share, persistent) {
                    // Its own plan, in its private block.
                    (false, _) => jm.private.start + off,
                    // A persistent block: packed in offset order into the private block.
                    (true, Some(i)) => jm.private.start + bl[..i].iter().map(|b| b.1).sum::<u64>(),
                    // Anything else: the shared region, less the persistent bytes below it.
                    (true, None) => joint.shared_start + off - bl.iter().filter(|&&(o, len)| o + len <= off).map(|b| b.1).sum::<u64>(),
                };
            }
            p.plan.arena_bytes = joint.arena_bytes;
        }
        plans.push(mp);
    }
    (plans, joint)
}

/// The joint verifier: every moved plan passes [`super::verify::verify_model`], each model's
/// persistent buffers lie in its persistent block and share no byte with any buffer of
/// another model, and nothing leaves the arena. Returns every violation as text.
pub fn check(models: &[ModelPlan], joint: &JointPlan) -> Vec<String> {
    let mut errs = Vec::new();
    // (model, label, range, persistent) of every live entry-subgraph buffer.
    let mut placed: Vec<(usize, String, Range<u64>, bool)> = Vec::new();
    for (m, mp) in models.iter().enumerate() {
        for e in super::verify::verify_model(mp) {
            errs.push(format!("model {m}: {e}"));
        }
        let Some(p) = mp.main() else { continue };
        if p.plan.arena_bytes != joint.arena_bytes {
            errs.push(format!("model {m}: its plan's arena is {} bytes, the joint arena {}", p.plan.arena_bytes, joint.arena_bytes));
        }
        for (b, buf) in p.problem.buffers.iter_enumerated() {
            if !p.plan.lifetimes.get(b).is_some_and(|l| l.is_some()) || buf.bytes == 0 {
                continue;
            }
            let r = p.plan.offsets[b]..p.plan.offsets[b] + buf.bytes;
            let own = joint.models.get(m);
            // What must survive the other models' runs: everything of a model that does not
            // share, a sharing model's inputs, outputs and state.
            let persistent = own.is_none_or(|j| !j.shares) || buf.kind == BufferKind::Variable;
            if r.end > joint.arena_bytes {
                errs.push(format!("model {m}: {b} {} at {r:?} is outside the arena of {} bytes", buf.label, joint.arena_bytes));
            }
            if persistent {
                let own = own.map_or(0..0, |j| j.private.clone());
                if r.start < own.start || r.end > own.end {
                    errs.push(format!("model {m}: {b} {} at {r:?} must survive the other models' runs but is outside its private block {own:?}", buf.label));
                }
            }
            placed.push((m, format!("{b} {}", buf.label), r, persistent));
        }
    }
    for (k, (m, l, r, pa)) in placed.iter().enumerate() {
        for (n, l2, r2, pb) in &placed[k + 1..] {
            if m != n && (*pa || *pb) && r.start < r2.end && r2.start < r.end {
                errs.push(format!("model {m} {l} at {r:?} and model {n} {l2} at {r2:?} share bytes, and one of them must survive the other's run"));
            }
        }
    }
    errs
}

#[cfg(all(test, feature = "format"))]
mod tests {
    use super::*;

    /// Beyond 16 models `choose` uses `choose_by_widest`; on instances small enough to
    /// enumerate, it reaches the same minimum as trying every subset.
    #[test]
    fn choosing_by_widest_is_the_minimum_over_every_subset() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for _ in 0..400 {
            let n = 1 + next(12) as usize;
            let (mut pers, mut shared, mut alone) = (vec![], vec![], vec![]);
            for _ in 0..n {
                let p = next(200);
                let sh = next(400);
                pers.push(p);
                shared.push(sh);
                alone.push(p + next(500));
            }
            let align = [1, 4, 16][next(3) as usize];
            let cost = |s: &[bool]| {
                let total: u64 = (0..n).map(|i| if s[i] { pers[i] } else { alone[i] }).sum();
                let widest = (0..n).filter(|&i| s[i]).map(|i| shared[i]).max().unwrap_or(0);
                align_up(total + widest, align)
            };
            let every = choose(&pers, &shared, &alone, align);
            let widest = choose_by_widest(&pers, &shared, &alone, &cost);
            assert_eq!(cost(&widest), cost(&every), "{pers:?} {shared:?} {alone:?} align {align}");
        }
    }
    use crate::pipeline::{compile_models, CompileOptions};
    use crate::testing::models;

    fn files(list: &[(&str, Vec<u8>)]) -> Vec<(String, Vec<u8>)> {
        list.iter().map(|(n, b)| (format!("{n}.tflite"), b.clone())).collect()
    }

    /// Two tiny_cnn share their intermediate tensors; the joint arena is below the sum and
    /// at least the bound, and the moved plans pass the joint verifier.
    #[test]
    fn sharing_models_use_one_region() {
        let c = compile_models(&files(&[("a", models::tiny_cnn()), ("b", models::tiny_cnn())]), &CompileOptions::default()).unwrap();
        assert!(c.joint.models.iter().all(|m| m.shares), "{}", c.report());
        let sum: u64 = c.separate_arena_bytes.iter().sum();
        assert!(c.arena_bytes() < sum && c.arena_bytes() >= c.joint.lower_bound_bytes, "{}", c.report());
        assert_eq!(check(&c.plans, &c.joint), Vec::<String>::new());
    }

    /// The joint verifier sees a persistent buffer moved onto another model's bytes, and a
    /// buffer moved out of the arena.
    #[test]
    fn check_finds_what_a_wrong_layout_breaks() {
        let c = compile_models(&files(&[("a", models::tiny_cnn()), ("b", models::tiny_cnn())]), &CompileOptions::default()).unwrap();
        let mut plans = c.plans.clone();
        // Model 1's first persistent buffer onto model 0's first one.
        let p0 = plans[0].main().unwrap();
        let b0 = p0.problem.buffers.iter_enumerated().find(|(_, b)| b.kind == BufferKind::Variable).unwrap().0;
        let at = p0.plan.offsets[b0];
        let p1 = plans[1].subgraphs.iter_mut().next().unwrap().as_mut().unwrap();
        let b1 = p1.problem.buffers.iter_enumerated().find(|(_, b)| b.kind == BufferKind::Variable).unwrap().0;
        p1.plan.offsets[b1] = at;
        let errs = check(&plans, &c.joint);
        assert!(errs.iter().any(|e| e.contains("share bytes")), "{errs:?}");
        assert!(errs.iter().any(|e| e.contains("outside its private block")), "{errs:?}");
        // Out of the arena.
        let mut plans = c.plans.clone();
        let p1 = plans[1].subgraphs.iter_mut().next().unwrap().as_mut().unwrap();
        p1.plan.offsets[b1] = c.joint.arena_bytes;
        let errs = check(&plans, &c.joint);
        assert!(errs.iter().any(|e| e.contains("outside the arena")), "{errs:?}");
    }

    /// Every pair and triple of builder models (CALL_ONCE ones aside): the joint arena never
    /// exceeds the separate arenas' sum, never undercuts its bound, and verifies.
    #[test]
    fn never_more_than_the_separate_arenas() {
        let all: Vec<(&str, Vec<u8>)> = models::all().into_iter().filter(|(n, _)| !n.contains("call_once")).collect();
        for i in 0..all.len() {
            for j in i + 1..all.len() {
                let k = (i + j) % all.len();
                let mut set = vec![all[i].clone(), all[j].clone()];
                if k != i && k != j {
                    set.push(all[k].clone());
                }
                let c = compile_models(&files(&set), &CompileOptions::default()).unwrap();
                let sum: u64 = c.separate_arena_bytes.iter().sum();
                assert!(c.arena_bytes() <= sum.max(16), "{}", c.report());
                assert!(c.arena_bytes() >= c.joint.lower_bound_bytes, "{}", c.report());
                assert_eq!(check(&c.plans, &c.joint), Vec::<String>::new());
            }
        }
    }
}
