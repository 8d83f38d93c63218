//! Planner tests: hand-made cases, verifier fault injection, random graphs checked by the
//! verifier, and tiny random instances compared with brute force.

use super::*;
use crate::fuzzing::{self, Limits};
use arbitrary::Unstructured;

fn buf(bytes: u64, kind: BufferKind) -> Buffer {
    Buffer { bytes, kind, alias_of: None, label: String::new() }
}

fn op(reads: &[usize], writes: &[usize]) -> OpNode {
    OpNode {
        reads: reads.iter().map(|&b| BufferId::new(b)).collect(),
        writes: writes.iter().map(|&b| BufferId::new(b)).collect(),
        ..OpNode::default()
    }
}

fn problem(buffers: Vec<Buffer>, ops: Vec<OpNode>) -> Problem {
    Problem { buffers: IndexVec::from_vec(buffers), ops: IndexVec::from_vec(ops) }
}

fn opts() -> PlanOptions {
    PlanOptions { verify: true, ..PlanOptions::default() }
}

use BufferKind::*;

#[test]
fn chain_reuses_memory() {
    // in(100) -> a(200) -> b(100) -> out(50): peak is a+b = 304 (aligned 112+208).
    let p = problem(
        vec![buf(100, Input), buf(200, Activation), buf(100, Activation), buf(50, Output)],
        vec![op(&[0], &[1]), op(&[1], &[2]), op(&[2], &[3])],
    );
    let plan = plan(&p, &opts()).unwrap();
    assert_eq!(plan.arena_bytes, 208 + 112);
    assert_eq!(plan.lower_bound_bytes, plan.arena_bytes);
    assert!(plan.order_optimal && plan.offsets_optimal);
    assert!(verify::verify(&p, &plan).is_empty());
}

#[test]
fn schedule_beats_file_order() {
    // Two branches from one input; file order runs both big producers first.
    // in -> a1(big) -> a2(small); in -> b1(big) -> b2(small); join(a2, b2) -> out.
    let p = problem(
        vec![
            buf(16, Input),
            buf(1000, Activation),
            buf(16, Activation),
            buf(1000, Activation),
            buf(16, Activation),
            buf(16, Output),
        ],
        vec![op(&[0], &[1]), op(&[0], &[3]), op(&[1], &[2]), op(&[3], &[4]), op(&[2, 4], &[5])],
    );
    let plan = plan(&p, &opts()).unwrap();
    assert!(plan.file_order_peak_bytes > plan.peak_bytes, "{plan:?}");
    assert!(plan.order_optimal);
    assert_eq!(plan.arena_bytes, plan.peak_bytes);
    // At b1's step: a2 (16), the input (16, still read by b1) and b1 (1008).
    assert_eq!(plan.peak_bytes, 16 + 16 + 1008);
}

/// A barrier (an op that can end the run early, CIRCULAR_BUFFER) keeps the file order around
/// it: in `schedule_beats_file_order`'s graph, with the second big producer a barrier, the
/// first branch can no longer finish before it; the verifier rejects a schedule that moves an
/// op across it.
#[test]
fn barriers_keep_the_file_order_around_them() {
    let mut ops = vec![op(&[0], &[1]), op(&[0], &[3]), op(&[1], &[2]), op(&[3], &[4]), op(&[2, 4], &[5])];
    ops[1].barrier = true;
    let p = problem(
        vec![buf(16, Input), buf(1000, Activation), buf(16, Activation), buf(1000, Activation), buf(16, Activation), buf(16, Output)],
        ops,
    );
    let plan = plan(&p, &opts()).unwrap();
    let at = |o: usize| plan.schedule.iter().position(|&x| x == OpId::new(o)).unwrap();
    assert!(at(0) < at(1) && [2, 3, 4].iter().all(|&o| at(o) > at(1)), "{:?}", plan.schedule);
    assert_eq!(plan.peak_bytes, plan.file_order_peak_bytes);
    assert!(verify::verify(&p, &plan).is_empty());
    // Op 2 moved before the barrier.
    let mut bad = plan.clone();
    bad.schedule = [0, 2, 1, 3, 4].map(OpId::new).to_vec();
    let errs = verify::verify(&p, &bad);
    assert!(errs.iter().any(|e| matches!(e, PlanError::BarrierOrder { op, other } if op.index() == 1 && other.index() == 2)), "{errs:?}");
}

#[test]
fn alias_shares_bytes_and_extends_life() {
    // in -> a -> (view v of a) -> out(reads v); a's storage lives until out's step.
    let mut v = buf(64, Activation);
    v.alias_of = Some(BufferId::new(1));
    let p = problem(
        vec![buf(64, Input), buf(64, Activation), v, buf(64, Output)],
        vec![op(&[0], &[1]), op(&[1], &[2]), op(&[2], &[3])],
    );
    let plan = plan(&p, &opts()).unwrap();
    assert_eq!(plan.offsets[BufferId::new(1)], plan.offsets[BufferId::new(2)]);
    assert_eq!(plan.lifetimes[BufferId::new(1)].map(|l| l.last.index()), Some(2));
    assert_eq!(plan.arena_bytes, 128);
}

#[test]
fn illegal_aliases_are_rejected() {
    // A view of a model input that is a model output must be a copy.
    let mut v = buf(64, Output);
    v.alias_of = Some(BufferId::new(0));
    let p = problem(vec![buf(64, Input), v], vec![op(&[0], &[1])]);
    assert!(matches!(plan(&p, &opts()), Err(PlanError::IllegalAlias { .. })));
    // A view of a variable.
    let mut v = buf(8, Activation);
    v.alias_of = Some(BufferId::new(1));
    let p = problem(vec![buf(8, Input), buf(8, Variable), v, buf(8, Output)], vec![op(&[1], &[2]), op(&[0, 2], &[3])]);
    assert!(matches!(plan(&p, &opts()), Err(PlanError::IllegalAlias { .. })));
    // A view larger than its source.
    let mut v = buf(65, Activation);
    v.alias_of = Some(BufferId::new(1));
    let p = problem(
        vec![buf(8, Input), buf(64, Activation), v, buf(8, Output)],
        vec![op(&[0], &[1]), op(&[1], &[2]), op(&[2], &[3])],
    );
    assert!(matches!(plan(&p, &opts()), Err(PlanError::IllegalAlias { .. })));
}

#[test]
fn invalid_problems_are_errors_not_panics() {
    let p = problem(vec![buf(8, Input), buf(8, Output)], vec![op(&[0], &[1]), op(&[0], &[1])]);
    assert!(matches!(plan(&p, &opts()), Err(PlanError::MultipleWriters { .. })));
    let p = problem(vec![buf(8, Input), buf(8, Activation), buf(8, Output)], vec![op(&[1], &[2]), op(&[0], &[1])]);
    assert!(matches!(plan(&p, &opts()), Err(PlanError::ReadBeforeWrite { .. })));
    let p = problem(vec![buf(8, Input)], vec![op(&[7], &[])]);
    assert!(matches!(plan(&p, &opts()), Err(PlanError::UnknownBuffer { .. })));
    let p = problem(vec![buf(8, Input), buf(8, Output)], vec![op(&[0], &[1])]);
    assert!(matches!(plan(&p, &PlanOptions { align: 12, ..opts() }), Err(PlanError::BadAlignment { .. })));
    let p = problem(vec![buf(8, Input), buf(8, Scratch), buf(8, Output)], vec![op(&[0], &[2]), op(&[1], &[])]);
    assert!(matches!(plan(&p, &opts()), Err(PlanError::BadScratch { .. })));
}

#[test]
fn variables_overlap_nothing_and_scratch_is_short_lived() {
    let p = problem(
        vec![buf(32, Input), buf(48, Variable), buf(32, Activation), buf(100, Scratch), buf(32, Output)],
        vec![op(&[0, 1], &[2, 1, 3]), op(&[2], &[4])],
    );
    let plan = plan(&p, &opts()).unwrap();
    let s = plan.lifetimes[BufferId::new(3)].unwrap();
    assert_eq!((s.first.index(), s.last.index()), (0, 0));
    // Variable (48) + step 0: in, a, scratch (32+32+112) = 224.
    assert_eq!(plan.arena_bytes, 48 + 32 + 32 + 112);
}

/// A streaming op (conv) whose output may start 32 bytes below its input: the pair spans
/// 256 + 32 bytes instead of 512; the verifier rejects the same plan one alignment step
/// beyond the bound, an unreported overlap and an undeclared one.
#[test]
fn overlap_pairs_share_within_their_range() {
    let mut conv = op(&[1], &[2]);
    conv.overlap_ok.push(Overlap { input: BufferId::new(1), output: BufferId::new(2), bound: DeltaBound::AtMost(-20) });
    let p = problem(
        vec![buf(16, Input), buf(256, Activation), buf(256, Activation), buf(16, Output)],
        vec![op(&[0], &[1]), conv, op(&[2], &[3])],
    );
    let plan = plan(&p, &opts()).unwrap();
    let (x, y) = (plan.offsets[BufferId::new(1)] as i64, plan.offsets[BufferId::new(2)] as i64);
    assert!(y - x <= -32, "{plan:?}");
    assert_eq!(plan.arena_bytes, 256 + 32, "{plan:?}");
    assert_eq!(plan.tensor_bound_bytes, 512);
    assert_eq!(plan.lower_bound_bytes, 256 + 32);
    assert!(plan.offsets_optimal);
    assert_eq!(plan.overlaps, vec![RealisedOverlap { op: OpId::new(1), input: BufferId::new(1), output: BufferId::new(2), delta: y - x }]);
    assert!(verify::verify(&p, &plan).is_empty());
    // One alignment step beyond the bound: the output over input bytes still to be read.
    let mut beyond = plan.clone();
    beyond.offsets[BufferId::new(2)] = (x - 16) as u64;
    beyond.overlaps[0].delta = -16;
    let v = verify::verify(&p, &beyond);
    assert!(v.iter().any(|e| matches!(e, PlanError::Overlap { .. })), "{v:?}");
    assert!(v.iter().any(|e| matches!(e, PlanError::BadClaim { .. })), "{v:?}");
    let mut unreported = plan.clone();
    unreported.overlaps.clear();
    assert!(verify::verify(&p, &unreported).iter().any(|e| matches!(e, PlanError::BadClaim { .. })));
    let mut undeclared = p.clone();
    undeclared.ops[OpId::new(1)].overlap_ok.clear();
    assert!(verify::verify(&undeclared, &plan).iter().any(|e| matches!(e, PlanError::Overlap { .. })));
    // Where the input lives on (read later), nothing is shared.
    let mut later = p.clone();
    later.ops[OpId::new(2)].reads.push(BufferId::new(1));
    let plan = super::plan(&later, &opts()).unwrap();
    assert!(plan.overlaps.is_empty());
    assert_eq!(plan.arena_bytes, 512 + 16);
}

/// A reversed traversal (an op whose output grows, e.g. an expanding 1x1 convolution walked
/// from its last pixel): the output may start 20 bytes (32 aligned) above its input and cover
/// it; the verifier rejects one alignment step below the bound.
#[test]
fn reversed_overlap_puts_the_output_above_the_input() {
    let mut conv = op(&[1], &[2]);
    conv.overlap_ok.push(Overlap { input: BufferId::new(1), output: BufferId::new(2), bound: DeltaBound::AtLeast(20) });
    let p = problem(
        vec![buf(16, Input), buf(128, Activation), buf(256, Activation), buf(16, Output)],
        vec![op(&[0], &[1]), conv, op(&[2], &[3])],
    );
    let plan = plan(&p, &opts()).unwrap();
    let (x, y) = (plan.offsets[BufferId::new(1)] as i64, plan.offsets[BufferId::new(2)] as i64);
    assert!(y - x >= 32, "{plan:?}");
    assert_eq!(plan.arena_bytes, 256 + 32, "{plan:?}");
    assert_eq!(plan.tensor_bound_bytes, 384);
    assert_eq!(plan.lower_bound_bytes, 256 + 32);
    assert!(plan.offsets_optimal);
    assert_eq!(plan.overlaps, vec![RealisedOverlap { op: OpId::new(1), input: BufferId::new(1), output: BufferId::new(2), delta: y - x }]);
    let mut below = plan.clone();
    below.offsets[BufferId::new(2)] = (x + 16) as u64;
    below.overlaps[0].delta = 16;
    let v = verify::verify(&p, &below);
    assert!(v.iter().any(|e| matches!(e, PlanError::Overlap { .. })), "{v:?}");
    assert!(v.iter().any(|e| matches!(e, PlanError::BadClaim { .. })), "{v:?}");
    // A forward bound above zero is not a declaration the planner takes.
    let mut bad = p.clone();
    bad.ops[OpId::new(1)].overlap_ok[0].bound = DeltaBound::AtMost(16);
    assert!(matches!(super::plan(&bad, &opts()), Err(PlanError::IllegalOverlap { .. })));
}

/// A reversed bound below zero (a copy whose output grows, e.g. PAD: the input may sit up to
/// 40 bytes, 32 aligned, above the output's start, at its place inside the output): the
/// arena is the output alone; the verifier rejects one alignment step further.
#[test]
fn negative_reversed_overlap_puts_the_input_inside_the_output() {
    let mut pad = op(&[1], &[2]);
    pad.overlap_ok.push(Overlap { input: BufferId::new(1), output: BufferId::new(2), bound: DeltaBound::AtLeast(-40) });
    let p = problem(
        vec![buf(16, Input), buf(128, Activation), buf(256, Activation), buf(16, Output)],
        vec![op(&[0], &[1]), pad, op(&[2], &[3])],
    );
    let plan = plan(&p, &opts()).unwrap();
    let (x, y) = (plan.offsets[BufferId::new(1)] as i64, plan.offsets[BufferId::new(2)] as i64);
    assert!((-32..=0).contains(&(y - x)), "{plan:?}");
    assert_eq!(plan.arena_bytes, 256 + 16, "{plan:?}");
    assert_eq!(plan.tensor_bound_bytes, 384);
    assert_eq!(plan.lower_bound_bytes, 256 + 16);
    assert!(plan.offsets_optimal);
    assert_eq!(plan.overlaps, vec![RealisedOverlap { op: OpId::new(1), input: BufferId::new(1), output: BufferId::new(2), delta: y - x }]);
    let mut beyond = plan.clone();
    beyond.offsets[BufferId::new(1)] = (y + 48) as u64;
    beyond.overlaps[0].delta = -48;
    let v = verify::verify(&p, &beyond);
    assert!(v.iter().any(|e| matches!(e, PlanError::Overlap { .. })), "{v:?}");
    assert!(v.iter().any(|e| matches!(e, PlanError::BadClaim { .. })), "{v:?}");
}

#[test]
fn in_place_pairs_may_share() {
    let mut relu = op(&[1], &[2]);
    relu.in_place_ok.push((BufferId::new(1), BufferId::new(2)));
    let p = problem(
        vec![buf(16, Input), buf(256, Activation), buf(256, Activation), buf(16, Output)],
        vec![op(&[0], &[1]), relu, op(&[2], &[3])],
    );
    let plan = plan(&p, &opts()).unwrap();
    assert_eq!(plan.offsets[BufferId::new(1)], plan.offsets[BufferId::new(2)], "{plan:?}");
    assert_eq!(plan.arena_bytes, 256 + 16);
    // The plan says what it realised, and the verifier holds it to that.
    assert_eq!(plan.in_place, vec![(OpId::new(1), BufferId::new(1), BufferId::new(2))]);
    let claim = |v: &[PlanError]| v.iter().any(|e| matches!(e, PlanError::BadClaim { .. }));
    let mut unreported = plan.clone();
    unreported.in_place.clear();
    assert!(claim(&verify::verify(&p, &unreported)));
    let mut undeclared = plan.clone();
    undeclared.in_place.push((OpId::new(2), BufferId::new(2), BufferId::new(3)));
    assert!(claim(&verify::verify(&p, &undeclared)));
    assert!(verify::verify(&p, &plan).is_empty());
}

#[test]
fn verifier_reports_every_injected_fault() {
    let p = problem(
        vec![buf(100, Input), buf(200, Activation), buf(100, Activation), buf(50, Output)],
        vec![op(&[0], &[1]), op(&[1], &[2]), op(&[2], &[3])],
    );
    let good = plan(&p, &opts()).unwrap();
    assert!(verify::verify(&p, &good).is_empty());

    let mut bad = good.clone();
    bad.offsets[BufferId::new(2)] = bad.offsets[BufferId::new(1)]; // a and b live together at step 1
    bad.offsets[BufferId::new(3)] += 8; // misaligned
    bad.arena_bytes = 100; // things out of bounds
    let v = verify::verify(&p, &bad);
    assert!(v.iter().any(|e| matches!(e, PlanError::Overlap { .. })), "{v:?}");
    assert!(v.iter().any(|e| matches!(e, PlanError::Misaligned { .. })), "{v:?}");
    assert!(v.iter().any(|e| matches!(e, PlanError::OutOfBounds { .. })), "{v:?}");
    assert!(v.len() >= 3);

    let mut bad = good.clone();
    bad.schedule.swap(0, 1);
    let v = verify::verify(&p, &bad);
    assert!(v.iter().any(|e| matches!(e, PlanError::NotTopological { .. })), "{v:?}");

    let mut bad = good.clone();
    bad.schedule.pop();
    assert!(matches!(verify::verify(&p, &bad)[..], [PlanError::BadSchedule { .. }]));

    let mut bad = good.clone();
    bad.peak_bytes -= 16;
    bad.lower_bound_bytes = bad.arena_bytes + 1;
    let v = verify::verify(&p, &bad);
    assert_eq!(v.iter().filter(|e| matches!(e, PlanError::BadClaim { .. })).count(), 3, "{v:?}");

    let mut bad = good;
    bad.lifetimes[BufferId::new(1)] = None;
    assert!(verify::verify(&p, &bad).iter().any(|e| matches!(e, PlanError::WrongLifetime { .. })));
}

#[test]
fn verifier_rejects_in_place_where_not_declared_or_not_dying() {
    // b (read at step 1 and 2) cannot be overwritten at step 1 even if declared.
    let mut o = op(&[1], &[2]);
    o.in_place_ok.push((BufferId::new(1), BufferId::new(2)));
    let p = problem(
        vec![buf(16, Input), buf(64, Activation), buf(64, Activation), buf(16, Output)],
        vec![op(&[0], &[1]), o, op(&[1, 2], &[3])],
    );
    let mut good = plan(&p, &opts()).unwrap();
    assert_ne!(good.offsets[BufferId::new(1)], good.offsets[BufferId::new(2)]);
    good.offsets[BufferId::new(2)] = good.offsets[BufferId::new(1)];
    assert!(verify::verify(&p, &good).iter().any(|e| matches!(e, PlanError::Overlap { .. })));
}

#[test]
fn in_place_chain_shares_one_offset_below_the_tensor_bound() {
    // in -> a -> (in place) b -> (in place) c -> out: a, b and c take one slot, and the arena
    // goes below the tensor-level bound (two live 256-byte tensors at each in-place step).
    let mut r1 = op(&[1], &[2]);
    r1.in_place_ok.push((BufferId::new(1), BufferId::new(2)));
    let mut r2 = op(&[2], &[3]);
    r2.in_place_ok.push((BufferId::new(2), BufferId::new(3)));
    let p = problem(
        vec![buf(16, Input), buf(256, Activation), buf(256, Activation), buf(256, Activation), buf(16, Output)],
        vec![op(&[0], &[1]), r1, r2, op(&[3], &[4])],
    );
    let plan = plan(&p, &opts()).unwrap();
    let off = |b| plan.offsets[BufferId::new(b)];
    assert_eq!((off(1), off(1)), (off(2), off(3)), "{plan:?}");
    assert_eq!(plan.arena_bytes, 256 + 16);
    assert!(plan.arena_bytes < plan.peak_bytes);
}

#[test]
fn in_place_needs_the_same_offset_and_a_single_read_of_the_input() {
    let mut relu = op(&[1], &[2]);
    relu.in_place_ok.push((BufferId::new(1), BufferId::new(2)));
    let p = problem(
        vec![buf(16, Input), buf(64, Activation), buf(64, Activation), buf(16, Output)],
        vec![op(&[0], &[1]), relu, op(&[2], &[3])],
    );
    let mut good = plan(&p, &opts()).unwrap();
    assert!(verify::verify(&p, &good).is_empty());
    // Partial overlap: not in place.
    good.offsets[BufferId::new(2)] = good.offsets[BufferId::new(1)] + 16;
    good.arena_bytes += 16;
    assert!(verify::verify(&p, &good).iter().any(|e| matches!(e, PlanError::Overlap { .. })));

    // An op reading the overwritten tensor twice (x + x) gets no in-place placement.
    let mut add = op(&[1, 1], &[2]);
    add.in_place_ok.push((BufferId::new(1), BufferId::new(2)));
    let p = problem(
        vec![buf(16, Input), buf(64, Activation), buf(64, Activation), buf(16, Output)],
        vec![op(&[0], &[1]), add, op(&[2], &[3])],
    );
    let mut plan2 = plan(&p, &opts()).unwrap();
    assert_ne!(plan2.offsets[BufferId::new(1)], plan2.offsets[BufferId::new(2)]);
    plan2.offsets[BufferId::new(2)] = plan2.offsets[BufferId::new(1)];
    assert!(verify::verify(&p, &plan2).iter().any(|e| matches!(e, PlanError::Overlap { .. })));
}

/// Deterministic stream of random bytes (xorshift), for loops over many random problems
/// (also `plan::pools`' tests).
pub(super) fn bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn small_budget() -> PlanOptions {
    PlanOptions { schedule_state_budget: 2_000, beam_width: 16, offset_work_budget: 20_000, ..fuzzing::fuzz_options() }
}

#[test]
fn thousands_of_random_graphs_verify() {
    let opts = small_budget();
    let mut planned = 0;
    let (mut forward, mut reversed, mut below) = (0, 0, 0);
    for seed in 0..2000 {
        let data = bytes(seed, 4096);
        let mut u = Unstructured::new(&data);
        let Ok(p) = fuzzing::generate(&mut u, Limits::default()) else { continue };
        let plan = fuzzing::check(&p, &opts);
        planned += 1;
        for o in &plan.overlaps {
            let declared = p.ops[o.op].overlap_ok.iter().find(|d| (d.input, d.output) == (o.input, o.output));
            match declared.map(|d| d.bound) {
                Some(DeltaBound::AtMost(_)) => forward += 1,
                Some(DeltaBound::AtLeast(_)) => {
                    reversed += 1;
                    below += usize::from(o.delta < 0);
                }
                None => panic!("undeclared overlap {o:?}"),
            }
        }
    }
    assert!(planned > 1500, "only {planned} graphs generated");
    // The verifier judged realised overlaps of both directions, reversed ones with the
    // output starting below the input (negative bounds) among them.
    assert!(forward > 60 && reversed > 30 && below > 5, "{forward} forward and {reversed} reversed ({below} below the input) overlaps realised");
}

/// Structured graphs of 100 to 800 operators (wide, deep, random) under the fuzz budgets:
/// the planner target's large cases.
#[test]
fn smoke_large() {
    let opts = fuzzing::fuzz_options();
    arbtest::arbtest(|u| {
        let p = fuzzing::generate_large(u)?;
        let plan = fuzzing::check(&p, &opts);
        let n = p.ops.len() as u64;
        assert!(plan.stats.work <= opts.work_budget + 8 * n * n, "work {}", plan.stats.work);
        Ok(())
    })
    .budget_ms(1000);
}

#[test]
fn smoke() {
    let opts = small_budget();
    arbtest::arbtest(|u| {
        let g: fuzzing::RandomGraph = u.arbitrary()?;
        fuzzing::check(&g.0, &opts);
        Ok(())
    })
    .budget_ms(1000);
}

// ---- Brute force on tiny instances (a third, naive implementation of the rules). ----

/// Live interval of every root group on `order` (None: dead), computed naively.
fn naive_groups(p: &Problem, order: &[OpId], align: u64) -> Vec<(u64, usize, usize)> {
    let n = order.len();
    let pos = |o: OpId| order.iter().position(|&x| x == o).unwrap();
    let root = |mut b: BufferId| {
        while let Some(s) = p.buffers[b].alias_of {
            b = s;
        }
        b
    };
    let mut out = Vec::new();
    for r in p.buffers.indices().filter(|&b| root(b) == b) {
        let mut first = usize::MAX;
        let mut last = 0;
        for b in p.buffers.indices().filter(|&b| root(b) == r) {
            let k = p.buffers[b].kind;
            let w = p.ops.iter_enumerated().find(|(_, o)| o.writes.contains(&b)).map(|(i, _)| pos(i));
            let f = if k.is_input() || k == Variable { Some(0) } else { w };
            let Some(f) = f else { continue };
            let mut l = f;
            for (i, o) in p.ops.iter_enumerated() {
                if o.reads.contains(&b) {
                    l = l.max(pos(i));
                }
            }
            if k.is_output() || k == Variable {
                l = n - 1;
            }
            first = first.min(f);
            last = last.max(l);
        }
        if first != usize::MAX {
            let size = p.buffers[r].bytes.div_ceil(align) * align;
            out.push((size, first, last));
        }
    }
    out
}

fn all_topo_orders(p: &Problem) -> Vec<Vec<OpId>> {
    fn rec(p: &Problem, cur: &mut Vec<OpId>, out: &mut Vec<Vec<OpId>>) {
        if cur.len() == p.ops.len() {
            out.push(cur.clone());
            return;
        }
        for (i, o) in p.ops.iter_enumerated() {
            if cur.contains(&i) {
                continue;
            }
            // Ready: every buffer it reads is written by a scheduled op (or nobody), and
            // every earlier op touching a shared variable is scheduled.
            let ready = o.reads.iter().all(|b| {
                p.ops
                    .iter_enumerated()
                    .all(|(j, w)| j == i || !w.writes.contains(b) || cur.contains(&j) || p.buffers[*b].kind == Variable)
            }) && p.ops.iter_enumerated().all(|(j, w)| {
                j >= i
                    || cur.contains(&j)
                    || !w
                        .reads
                        .iter()
                        .chain(&w.writes)
                        .any(|b| p.buffers[*b].kind == Variable && o.reads.iter().chain(&o.writes).any(|c| c == b))
            });
            if ready {
                cur.push(i);
                rec(p, cur, out);
                cur.pop();
            }
        }
    }
    let mut out = Vec::new();
    rec(p, &mut Vec::new(), &mut out);
    out
}

fn naive_peak(groups: &[(u64, usize, usize)], steps: usize) -> u64 {
    (0..steps.max(1)).map(|t| groups.iter().filter(|g| g.1 <= t && t <= g.2).map(|g| g.0).sum()).max().unwrap_or(0)
}

/// The overlap relations a plan may use on `order`, naively: `(input group, output group,
/// bound)` as indices into `naive_groups`' roots, for every declared overlap whose input's
/// group dies at the operator's step and whose output's group is born there, neither a
/// variable, the input's group holding no model output, the operator reading the input once
/// and no other member of its group.
fn naive_rels(p: &Problem, order: &[OpId], align: u64) -> Vec<(usize, usize, DeltaBound)> {
    let root = |mut b: BufferId| {
        while let Some(s) = p.buffers[b].alias_of {
            b = s;
        }
        b
    };
    let groups = naive_groups(p, order, align);
    let roots: Vec<BufferId> = {
        // naive_groups lists live roots in index order: recompute which.
        let live = |r: BufferId| {
            p.buffers.indices().filter(|&b| root(b) == r).any(|b| {
                let k = p.buffers[b].kind;
                k.is_input() || k == Variable || p.ops.iter().any(|o| o.writes.contains(&b))
            })
        };
        p.buffers.indices().filter(|&b| root(b) == b && live(b)).collect()
    };
    assert_eq!(roots.len(), groups.len());
    let member_kind = |r: BufferId, f: &dyn Fn(BufferKind) -> bool| p.buffers.indices().any(|b| root(b) == r && f(p.buffers[b].kind));
    let mut rels = Vec::new();
    for (s, &op) in order.iter().enumerate() {
        let node = &p.ops[op];
        for o in &node.overlap_ok {
            let (ra, rb) = (root(o.input), root(o.output));
            let (Some(ia), Some(ib)) = (roots.iter().position(|&r| r == ra), roots.iter().position(|&r| r == rb)) else {
                continue;
            };
            let legal = ra != rb
                && groups[ia].2 == s
                && groups[ib].1 == s
                && node.writes.contains(&o.output)
                && node.reads.iter().filter(|&&z| z == o.input).count() == 1
                && node.reads.iter().all(|&z| root(z) != ra || z == o.input)
                && !member_kind(ra, &|k| k == Variable || k.is_output())
                && !member_kind(rb, &|k| k == Variable);
            if legal {
                rels.push((ia, ib, o.bound));
            }
        }
    }
    rels
}

/// Minimum arena over all placements: first-fit over every permutation is complete, also
/// with overlap relations. For every placed `j`, the offsets `i` may not take form one open
/// interval `(lo, hi)` (apart: `(o_j - s_i, o_j + s_j)`; an overlap pair additionally allows
/// sharing within its bound), so pushing the items of an optimal placement down in offset
/// order never moves one above its optimal offset.
fn naive_min_arena(groups: &[(u64, usize, usize)], rels: &[(usize, usize, DeltaBound)]) -> u64 {
    // The interval of offsets forbidden to `i` by `j` at `oj` (empty if they may share freely).
    let forbidden = |i: usize, j: usize, oj: u64| -> Option<(i64, i64)> {
        let ((si, fi, li), (sj, fj, lj)) = (groups[i], groups[j]);
        if si == 0 || sj == 0 || fi > lj || fj > li {
            return None;
        }
        let (si, sj, oj) = (si as i64, sj as i64, oj as i64);
        // Sharing is allowed where delta = offset(output) - offset(input) is within the
        // bound, rounded to the alignment the offsets have anyway.
        let (mut lo, mut hi) = (oj - si, oj + sj);
        for &(x, y, bound) in rels {
            match (bound, (x, y) == (j, i), (x, y) == (i, j)) {
                // i the output: o_i - oj <= d allowed.
                (DeltaBound::AtMost(d), true, _) => lo = lo.max(oj + d.min(0).div_euclid(16) * 16),
                // i the input: oj - o_i <= d, o_i >= oj - d allowed.
                (DeltaBound::AtMost(d), _, true) => hi = hi.min(oj - d.min(0).div_euclid(16) * 16),
                // i the output: o_i >= oj + d allowed (d of either sign).
                (DeltaBound::AtLeast(d), true, _) => hi = hi.min(oj + (d + 15).div_euclid(16) * 16),
                // i the input: oj - o_i >= d, o_i <= oj - d allowed.
                (DeltaBound::AtLeast(d), _, true) => lo = lo.max(oj - (d + 15).div_euclid(16) * 16),
                _ => {}
            }
        }
        (lo + 1 < hi).then_some((lo, hi))
    };
    fn permute(
        items: &mut Vec<usize>,
        k: usize,
        groups: &[(u64, usize, usize)],
        forbidden: &dyn Fn(usize, usize, u64) -> Option<(i64, i64)>,
        best: &mut u64,
    ) {
        if k == items.len() {
            let mut offs: Vec<(usize, u64)> = Vec::new();
            let mut arena = 0;
            for &i in items.iter() {
                let mut o = 0u64;
                while let Some((_, hi)) =
                    offs.iter().filter_map(|&(j, oj)| forbidden(i, j, oj)).find(|&(lo, hi)| lo < o as i64 && (o as i64) < hi)
                {
                    o = hi as u64;
                }
                offs.push((i, o));
                arena = arena.max(o + groups[i].0);
            }
            *best = (*best).min(arena);
            return;
        }
        for j in k..items.len() {
            items.swap(k, j);
            permute(items, k + 1, groups, forbidden, best);
            items.swap(k, j);
        }
    }
    let mut items: Vec<usize> = (0..groups.len()).collect();
    let mut best = u64::MAX;
    permute(&mut items, 0, groups, &forbidden, &mut best);
    if groups.is_empty() {
        0
    } else {
        best
    }
}

#[test]
fn tiny_instances_match_brute_force() {
    let opts = PlanOptions { verify: true, ..PlanOptions::default() };
    let lim = Limits { max_ops: 6, max_inputs: 2, max_variables: 1, max_units: 6 };
    let mut compared = 0;
    let mut with_rels = 0;
    let mut proven_with_rels = 0;
    for seed in 0..600u64 {
        let data = bytes(seed + 1_000_000, 1024);
        let mut u = Unstructured::new(&data);
        let Ok(mut p) = fuzzing::generate(&mut u, lim) else { continue };
        for o in p.ops.iter_mut() {
            // The brute force knows overlap relations, not in-place pairs (at one offset or
            // apart: two forbidden intervals, where first fit is not complete).
            o.in_place_ok.clear();
        }
        let plan = fuzzing::check(&p, &opts);
        let orders = all_topo_orders(&p);
        assert!(orders.contains(&plan.schedule));
        let best_peak = orders.iter().map(|o| naive_peak(&naive_groups(&p, o, 16), o.len())).min().unwrap();
        assert!(plan.peak_bytes >= best_peak);
        assert_eq!(plan.peak_bytes, naive_peak(&naive_groups(&p, &plan.schedule, 16), p.ops.len()));
        if plan.order_optimal {
            assert_eq!(plan.peak_bytes, best_peak, "claimed optimal order is not: {p:#?}");
        }
        let groups = naive_groups(&p, &plan.schedule, 16);
        let rels = naive_rels(&p, &plan.schedule, 16);
        if groups.len() <= 7 {
            let min_arena = naive_min_arena(&groups, &rels);
            assert!(plan.arena_bytes >= min_arena, "below the brute-force minimum: {p:#?}\n{plan:#?}");
            assert!(plan.lower_bound_bytes <= min_arena, "lower bound above the minimum {min_arena}: {p:#?}\n{plan:#?}");
            if rels.is_empty() {
                assert_eq!(plan.tensor_bound_bytes, plan.lower_bound_bytes);
            } else {
                with_rels += 1;
                proven_with_rels += usize::from(plan.offsets_optimal && min_arena < naive_min_arena(&groups, &[]));
            }
            if plan.offsets_optimal {
                assert_eq!(plan.arena_bytes, min_arena, "claimed optimal offsets are not: {p:#?}\n{plan:#?}");
            }
            compared += 1;
        }
    }
    assert!(compared > 200, "only {compared} compared");
    // The overlap claims are exercised: instances with relations, some proven optimal below
    // what the same instance needs without them.
    assert!(with_rels > 80 && proven_with_rels > 15, "{with_rels} with relations, {proven_with_rels} proven below the tensor level");
}

// ---- From the IR (models written by the model builder). ----

mod ir {
    use crate::ir::{DType, OpKind, TensorId};
    use crate::plan::{plan_subgraph, verify, BufferKind, PlanOptions};
    use crate::tflite::builder::{ModelBuilder, TensorSpec};

    fn relu(b: &mut ModelBuilder, x: TensorId, y: TensorId) {
        b.op(OpKind::Relu, &[Some(x)], &[y]);
    }

    #[test]
    fn views_become_aliases_and_constants_get_no_bytes() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[1, 8, 8, 4], None);
        let a = b.activation("a", DType::I8, &[1, 8, 8, 4], None);
        let shape = b.constant_i32("shape", &[2], &[1, 256], None);
        let r = b.activation("r", DType::I8, &[1, 256], None);
        let y = b.activation("y", DType::I8, &[1, 256], None);
        relu(&mut b, x, a);
        b.op(OpKind::Reshape { new_shape: Some(vec![1, 256]) }, &[Some(a), Some(shape)], &[r]);
        relu(&mut b, r, y);
        b.inputs(&[x]).outputs(&[y]);
        let bytes = b.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        // Not told that op 1 is a view, the planner copies.
        let copy = plan_subgraph(model.main(), &PlanOptions::default()).unwrap();
        assert!(!copy.is_alias(r) && copy.aliased_ops().is_empty());
        let views = PlanOptions { views: vec![crate::ir::OpId::new(1)], ..PlanOptions::default() };
        let sp = plan_subgraph(model.main(), &views).unwrap();
        assert!(verify::verify(&sp.problem, &sp.plan).is_empty());
        assert!(sp.buffer_of[shape].is_none(), "constants are not planned");
        assert!(sp.is_alias(r));
        assert_eq!(sp.tensor_region(r), sp.tensor_region(a));
        assert_eq!(sp.aliased_ops().len(), 1);
        // Two 256-byte buffers at any step: x+a, then (a=r)+y.
        assert_eq!(sp.plan.arena_bytes, 512);
        assert!(sp.dump(model.main()).contains("view of t1"));
        let json = sp.to_json(model.main());
        assert_eq!(json["arena_bytes"], 512);
        assert_eq!(json["schedule"], serde_json::json!([0, 1, 2]));
    }

    #[test]
    fn a_view_from_model_input_to_model_output_stays_a_copy() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[1, 16], None);
        let y = b.activation("y", DType::I8, &[16], None);
        b.op(OpKind::Squeeze { squeeze_dims: vec![0] }, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        let bytes = b.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        let views = PlanOptions { views: vec![crate::ir::OpId::new(0)], ..PlanOptions::default() };
        let sp = plan_subgraph(model.main(), &views).unwrap();
        assert!(!sp.is_alias(y));
        assert!(sp.aliased_ops().is_empty());
        assert_eq!(sp.plan.arena_bytes, 32);
        assert!(verify::verify(&sp.problem, &sp.plan).is_empty());
    }

    #[test]
    fn variables_are_planned_apart() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[1, 16], None);
        let state = b.tensor(TensorSpec {
            name: "state".into(),
            dtype: DType::I8,
            shape: vec![1, 32],
            shape_signature: None,
            quant: None,
            data: None,
            variable: true,
        });
        let y = b.activation("y", DType::I8, &[1, 16], None);
        b.op(OpKind::Add { activation: crate::ir::Activation::None }, &[Some(x), Some(state)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        let bytes = b.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        let sp = plan_subgraph(model.main(), &PlanOptions::default()).unwrap();
        let bs = sp.buffer_of[state].unwrap();
        assert_eq!(sp.problem.buffers[bs].kind, BufferKind::Variable);
        assert_eq!(sp.plan.arena_bytes, 16 + 32 + 16);
        assert!(verify::verify(&sp.problem, &sp.plan).is_empty());
    }

    #[test]
    fn scratch_from_options() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[64], None);
        let a = b.activation("a", DType::I8, &[64], None);
        let y = b.activation("y", DType::I8, &[64], None);
        relu(&mut b, x, a);
        relu(&mut b, a, y);
        b.inputs(&[x]).outputs(&[y]);
        let bytes = b.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        let opts = PlanOptions { scratch: vec![(crate::ir::OpId::new(1), 1000)], ..PlanOptions::default() };
        let sp = plan_subgraph(model.main(), &opts).unwrap();
        let s = sp.scratch_regions(crate::ir::OpId::new(1));
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].end - s[0].start, 1000);
        // Step 1 holds a, y and the scratch: 64 + 64 + 1008.
        assert_eq!(sp.plan.arena_bytes, 64 + 64 + 1008);
        assert!(verify::verify(&sp.problem, &sp.plan).is_empty());
    }

    #[test]
    fn in_place_from_options() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[64], None);
        let a = b.activation("a", DType::I8, &[256], None);
        let c = b.activation("c", DType::I8, &[256], None);
        let y = b.activation("y", DType::I8, &[64], None);
        b.op(OpKind::FullyConnected(Default::default()), &[Some(x)], &[a]);
        relu(&mut b, a, c);
        b.op(OpKind::FullyConnected(Default::default()), &[Some(c)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        let bytes = b.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        let plain = plan_subgraph(model.main(), &PlanOptions::default()).unwrap();
        assert_eq!(plain.plan.arena_bytes, 512);
        let opts = PlanOptions { in_place: vec![(crate::ir::OpId::new(1), a, c)], ..PlanOptions::default() };
        let sp = plan_subgraph(model.main(), &opts).unwrap();
        assert_eq!(sp.tensor_region(a), sp.tensor_region(c));
        assert_eq!(sp.in_place_pairs().into_iter().collect::<Vec<_>>(), [(crate::ir::OpId::new(1), a, c)]);
        assert_eq!(sp.plan.arena_bytes, 256 + 64);
        assert!(verify::verify(&sp.problem, &sp.plan).is_empty());
    }
}

#[test]
fn labelled_errors_name_tensors_and_ops() {
    let mut p = problem(vec![buf(8, Input), buf(8, Output)], vec![op(&[0], &[1]), op(&[0], &[1])]);
    p.buffers[BufferId::new(1)].label = "t5 \"logits\"".into();
    p.ops[OpId::new(1)].label = "op1 SOFTMAX".into();
    // Two writers: said in the model's terms.
    let e = plan(&p, &opts()).unwrap_err().labelled(&p).to_string();
    assert_eq!(e, "tensor t5 \"logits\" is written by both op0 and op 1 (SOFTMAX) (a tensor has one writer)");
    // Any other error: each buffer and operator followed by its label.
    let e = PlanError::NotTopological { op: OpId::new(1), buffer: BufferId::new(1) }.labelled(&p).to_string();
    assert!(e.contains("b1 = t5 \"logits\"") && e.contains("op1 = op1 SOFTMAX"), "{e}");
}

#[test]
fn svg_draws_one_box_per_live_group_and_escapes_labels() {
    let mut v = buf(64, Activation);
    v.alias_of = Some(BufferId::new(1));
    let mut p = problem(
        vec![buf(64, Input), buf(64, Activation), v, buf(64, Output)],
        vec![op(&[0], &[1]), op(&[1], &[2]), op(&[2], &[3])],
    );
    p.buffers[BufferId::new(1)].label = "t1 \"a<b>&c\"".into();
    let plan = plan(&p, &opts()).unwrap();
    let svg = svg::render(&p, &plan);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<g><title>").count(), 3, "input, a (with its view), output");
    assert!(svg.contains("a&lt;b&gt;&amp;c") && !svg.contains("a<b>"));
    assert!(svg.contains("peak 128 B"));
}
