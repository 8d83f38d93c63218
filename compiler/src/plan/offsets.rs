//! Offsets: dynamic storage allocation of items with fixed live intervals.
//!
//! 1. Greedy: several orderings (size, length, area, start, heaviest section first), each placed
//!    first-fit and best-fit among already placed conflicting items. TFLite Micro's
//!    greedy-by-size is one of them, so it is the floor.
//! 2. Exact branch and bound in the spirit of MiniMalloc (Moffitt, ASPLOS 2023). Every
//!    solution can be pushed down until each item rests on a conflicting item or on 0
//!    ("gravity"); listing items by offset, each item's offset is then the highest top of the
//!    conflicting items before it, which for interval conflicts is the maximum of a per-step
//!    skyline over its interval. The search enumerates such canonical sequences (offsets
//!    non-decreasing, equal offsets in index order), pruned by a lower bound per step: the
//!    items still to place that live at step `t` stack above `max(skyline[t], last offset)`.
//!    The skyline argument needs every pair of items live at a step to conflict, so in-place
//!    pairs are handled outside it: both steps run once with every pair apart and once with
//!    the pairs coalesced into single items (same offset), and the smaller arena wins; with
//!    in-place pairs it is claimed optimal only if it reaches the lower bound.
//!
//! Lower bound: the largest sum of live sizes at any step, less what in-place pairs may share.
//!
//! Every pass charges the plan's shared [`Budget`]. Instances whose conflict graph would be
//! too large to hold (more than [`MAX_CONFLICT_PAIRS`] pairs live at a common step, e.g.
//! thousands of model outputs) are placed by one linear sweep instead (items by start step,
//! each at the lowest free gap at that step: TFLite Micro's linear allocator), and claimed
//! optimal only when that reaches the lower bound.

use crate::schedule::Budget;

/// Conflicting pairs beyond which the greedy and exact passes are skipped for the sweep.
pub(crate) const MAX_CONFLICT_PAIRS: u64 = 2_000_000;

/// Member pairs the in-place coalescing may compare before it stops merging.
const MAX_COALESCE_CHECKS: u64 = 4_000_000;

/// An item to place: aligned size and live steps `first..=last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Item {
    pub size: u64,
    pub first: usize,
    pub last: usize,
}

/// The placement found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Solution {
    pub offsets: Vec<u64>,
    pub arena: u64,
    pub lower_bound: u64,
    /// The lower bound without overlap pairs (each tensor a separate live block, exempt pairs
    /// sharing).
    pub tensor_bound: u64,
    pub optimal: bool,
    pub greedy_arena: u64,
    pub work: u64,
}

fn overlaps(a: &Item, b: &Item) -> bool {
    a.first <= b.last && b.first <= a.last
}

/// A partial overlap an operator tolerates: item `y` may start anywhere at least `h` bytes
/// below item `x`'s start (`offset(y) <= offset(x) - h`; `h < 0`: up to `-h` bytes above it)
/// and share bytes with it there, or lie apart (`plan::Overlap`: `x` the input and `y` the
/// output of `DeltaBound::AtMost(-h)`, or `x` the output and `y` the input of
/// `DeltaBound::AtLeast(h)`, `h` rounded up to the alignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rel {
    pub x: usize,
    pub y: usize,
    pub h: i64,
}

/// Places `items` (`exempt` pairs may share bytes at one offset, `rels` pairs within their
/// range) over `steps` steps.
///
/// An exempt pair `(a, b)` (an in-place pair: `a` dies at the step where `b` is born) either
/// shares bytes at the *same offset* or none: kernels write element `i` over element `i`,
/// so a partial overlap is never valid. Three placements are computed and the smallest kept:
/// every pair apart (pairs conflict like any other items; greedy and exact search), every
/// exempt pair that can be coalesced into one item (a chain `a → b → c` of in-place steps at
/// one offset; greedy and exact search), and, when there are `rels`, the greedy orderings
/// with every exempt and overlap pair placed by its own relation (each pair's forbidden
/// offsets are an interval, so first fit stays valid). The exact search knows no relation,
/// so with overlaps the result is a heuristic, claimed optimal only at the lower bound.
pub(crate) fn solve(
    items: &[Item],
    exempt: &[(usize, usize)],
    rels: &[Rel],
    steps: usize,
    work_budget: u64,
    budget: &mut Budget,
) -> Solution {
    let n = items.len();
    let live = live_bytes(items, steps);
    budget.spend((n + steps) as u64);
    // Lower bounds: pairs exempt at step t may share at most min(size) bytes there; an
    // overlap pair at most min(size_y - max(h, 0), size_x) (`y` at `-h`, or at `x`'s offset
    // when `h < 0` lets it start there).
    let share_at = |lb: &mut [u64], a: &Item, b: &Item, share: u64| {
        let (lo, hi) = (a.first.max(b.first), a.last.min(b.last));
        for l in lb.iter_mut().take(hi + 1).skip(lo) {
            *l = l.saturating_sub(share);
        }
    };
    let mut lb_steps = live;
    for &(a, b) in exempt {
        share_at(&mut lb_steps, &items[a], &items[b], items[a].size.min(items[b].size));
    }
    let tensor_bound = lb_steps.iter().copied().max().unwrap_or(0);
    for r in rels {
        let (x, y) = (&items[r.x], &items[r.y]);
        share_at(&mut lb_steps, x, y, y.size.saturating_sub(r.h.max(0) as u64).min(x.size));
    }
    let lower_bound = lb_steps.iter().copied().max().unwrap_or(0);

    let mut sol = solve_conflicting(items, steps, work_budget, tensor_bound, &[], budget);
    if !exempt.is_empty() {
        let (merged, cluster) = coalesce(items, exempt, budget);
        if merged.len() < items.len() {
            let m = solve_conflicting(&merged, steps, work_budget, tensor_bound, &[], budget);
            sol.work += m.work;
            if m.arena < sol.arena {
                sol.offsets = (0..n).map(|i| m.offsets[cluster[i]]).collect();
                sol.arena = m.arena;
                sol.greedy_arena = sol.greedy_arena.min(m.greedy_arena);
            }
        }
    }
    if !rels.is_empty() {
        // Pairs coalesced at their relation's shift (the output `h` below the input), as
        // chains and as a matching (no item in two merged pairs), each then searched like
        // any instance (greedy and exact).
        for matching in [false, true] {
            let (merged, cluster, at) = coalesce_shifted(items, exempt, rels, matching, budget);
            if merged.len() == items.len() {
                continue;
            }
            let m = solve_conflicting(&merged, steps, work_budget, lower_bound, &[], budget);
            sol.work += m.work;
            if m.arena < sol.arena {
                sol.offsets = (0..n).map(|i| m.offsets[cluster[i]] + at[i]).collect();
                sol.arena = m.arena;
                sol.greedy_arena = sol.greedy_arena.min(m.greedy_arena);
            }
        }
        let mut special: Vec<Special> = Vec::new();
        for &(a, b) in exempt {
            special.push(Special { a, b, kind: Kind::Same });
        }
        for r in rels {
            special.push(Special { a: r.x, b: r.y, kind: Kind::Below(r.h) });
        }
        let m = solve_conflicting(items, steps, work_budget, lower_bound, &special, budget);
        sol.work += m.work;
        if m.arena < sol.arena {
            sol.offsets = m.offsets;
            sol.arena = m.arena;
            sol.greedy_arena = sol.greedy_arena.min(m.greedy_arena);
        }
    }
    sol.lower_bound = lower_bound;
    sol.tensor_bound = tensor_bound;
    if !exempt.is_empty() || !rels.is_empty() {
        // Coalescing all or none, and greedy overlaps, are not an exhaustive search: optimal
        // only at the bound.
        sol.optimal = sol.arena <= lower_bound;
    }
    sol
}

/// Merges exempt pairs (at one offset) and overlap pairs (the output `h` below the input)
/// into clusters with fixed offsets inside: a pair merges when every other two members of
/// the joined clusters that live at a common step stay byte-disjoint. With `matching`, an
/// item joins at most one pair. Returns the clusters as items (spanning their members'
/// bytes and steps), each item's cluster and its offset inside it.
fn coalesce_shifted(
    items: &[Item],
    exempt: &[(usize, usize)],
    rels: &[Rel],
    matching: bool,
    budget: &mut Budget,
) -> (Vec<Item>, Vec<usize>, Vec<u64>) {
    let n = items.len();
    let mut cluster: Vec<usize> = (0..n).collect();
    let mut members: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    // Offset of each item relative to its cluster's origin (may be negative until the end).
    let mut rel: Vec<i64> = vec![0; n];
    let mut used = vec![false; n];
    let mut pairs: Vec<(usize, usize, i64)> = exempt.iter().map(|&(a, b)| (a, b, 0)).collect();
    pairs.extend(rels.iter().map(|r| (r.x, r.y, r.h)));
    let mut checks = 0u64;
    for (a, b, h) in pairs {
        let (ca, cb) = (cluster[a], cluster[b]);
        if ca == cb || items[a].size == 0 || items[b].size == 0 || (matching && (used[a] || used[b])) {
            continue;
        }
        let cost = (members[ca].len() * members[cb].len()) as u64;
        checks += cost;
        if checks > MAX_COALESCE_CHECKS || !budget.spend(cost) {
            break;
        }
        // Shift cluster cb so that b sits h below a.
        let shift = rel[a] - h - rel[b];
        let ok = members[ca].iter().all(|&u| {
            members[cb].iter().all(|&v| {
                if (u, v) == (a, b) || !overlaps(&items[u], &items[v]) {
                    return true;
                }
                let (u0, v0) = (rel[u], rel[v] + shift);
                u0 + items[u].size as i64 <= v0 || v0 + items[v].size as i64 <= u0
            })
        });
        if !ok {
            continue;
        }
        used[a] = true;
        used[b] = true;
        let moved = std::mem::take(&mut members[cb]);
        for &v in &moved {
            rel[v] += shift;
            cluster[v] = ca;
        }
        members[ca].extend(moved);
    }
    let mut index = vec![usize::MAX; n];
    let mut merged = Vec::new();
    let mut of = vec![0; n];
    let mut at = vec![0u64; n];
    for i in 0..n {
        let c = cluster[i];
        if index[c] == usize::MAX {
            index[c] = merged.len();
            let m = &members[c];
            let lo = m.iter().map(|&x| rel[x]).min().unwrap_or(0);
            merged.push(Item {
                size: m.iter().map(|&x| (rel[x] - lo) as u64 + items[x].size).max().unwrap_or(0),
                first: m.iter().map(|&x| items[x].first).min().unwrap_or(0),
                last: m.iter().map(|&x| items[x].last).max().unwrap_or(0),
            });
        }
        of[i] = index[c];
    }
    for i in 0..n {
        let lo = members[cluster[i]].iter().map(|&x| rel[x]).min().unwrap_or(0);
        at[i] = (rel[i] - lo) as u64;
    }
    (merged, of, at)
}

/// A pair of items whose conflict is not "apart": `a` the input, `b` the output.
#[derive(Clone, Copy, Debug)]
struct Special {
    a: usize,
    b: usize,
    kind: Kind,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    /// At one offset, or apart.
    Same,
    /// `b` at least `h` below `a`'s start (`h < 0`: at most `-h` above; sharing bytes), or
    /// apart.
    Below(i64),
}

/// The busy ranges a placed item `j` at offset 0 puts in the way of item `i` (for [`greedy`]):
/// `i` may not start in `(lo - size_i, hi)` for each `(lo, hi)`. Apart: `(0, size_j)`.
fn busy_rel(items: &[Item], i: usize, j: usize, special: Option<Kind>, i_is_output: bool) -> Vec<(i64, i64)> {
    let (si, sj) = (items[i].size as i64, items[j].size as i64);
    match (special, i_is_output) {
        (None, _) => vec![(0, sj)],
        // i must start at j's offset or lie apart: forbid (-si, 0) and (0, sj).
        (Some(Kind::Same), _) => vec![(0, 0), (si, sj)],
        // i = output, j = input: forbid offset(i) in (-h, sj) (empty when -h >= sj - 1).
        (Some(Kind::Below(h)), true) => vec![(si.saturating_sub(h), sj)],
        // i = input, j = output: forbid offset(i) in (-si, h) (empty when h <= 1 - si).
        (Some(Kind::Below(h)), false) => vec![(0, h)],
    }
}

/// Merges exempt pairs into single items where the merged members never live at one step
/// except at their own pair's step. Returns the merged items and each item's merged index.
/// Bytes live at every step (a difference array: linear in items and steps).
fn live_bytes(items: &[Item], steps: usize) -> Vec<u64> {
    let mut delta = vec![0i128; steps + 1];
    for it in items {
        delta[it.first] += it.size as i128;
        delta[it.last + 1] -= it.size as i128;
    }
    let mut acc = 0i128;
    delta[..steps]
        .iter()
        .map(|d| {
            acc += d;
            acc.clamp(0, u64::MAX as i128) as u64
        })
        .collect()
}

/// An upper bound on the pairs of non-empty items live at a common step (each pair counted at
/// most twice), in `O(n log n)`.
fn conflict_pairs(items: &[Item]) -> u64 {
    let mut firsts: Vec<usize> = items.iter().filter(|it| it.size > 0).map(|it| it.first).collect();
    firsts.sort_unstable();
    items
        .iter()
        .filter(|it| it.size > 0)
        .map(|it| {
            let lo = firsts.partition_point(|&f| f < it.first);
            let hi = firsts.partition_point(|&f| f <= it.last);
            (hi - lo).saturating_sub(1) as u64
        })
        .sum()
}

/// Places items by start step, each at the lowest free gap that holds it at that step (gaps
/// are freed after an item's last step). Items live at one step never share bytes.
fn sweep(items: &[Item], budget: &mut Budget) -> Vec<u64> {
    let n = items.len();
    let mut order: Vec<usize> = (0..n).filter(|&i| items[i].size > 0).collect();
    order.sort_by_key(|&i| (items[i].first, u64::MAX - items[i].size, i));
    let mut offs = vec![0u64; n];
    // Free gaps below `top`, sorted and disjoint: (start, end).
    let mut free: Vec<(u64, u64)> = Vec::new();
    let mut top = 0u64;
    // Live items by last step (min-heap).
    let mut live: std::collections::BinaryHeap<std::cmp::Reverse<(usize, usize)>> = Default::default();
    for &i in &order {
        let it = items[i];
        while let Some(&std::cmp::Reverse((last, j))) = live.peek() {
            if last >= it.first {
                break;
            }
            live.pop();
            let (lo, hi) = (offs[j], offs[j] + items[j].size);
            let at = free.partition_point(|&(s, _)| s < lo);
            free.insert(at, (lo, hi));
            // Merge with the neighbours.
            if at + 1 < free.len() && free[at].1 == free[at + 1].0 {
                free[at].1 = free[at + 1].1;
                free.remove(at + 1);
            }
            if at > 0 && free[at - 1].1 == free[at].0 {
                free[at - 1].1 = free[at].1;
                free.remove(at);
            }
            if free.last().is_some_and(|&(_, e)| e == top) {
                if let Some((s, _)) = free.pop() {
                    top = s;
                }
            }
            budget.spend(1 + (free.len() as u64) / 8);
        }
        budget.spend(1 + free.len() as u64);
        match free.iter().position(|&(s, e)| e - s >= it.size) {
            Some(k) => {
                offs[i] = free[k].0;
                free[k].0 += it.size;
                if free[k].0 == free[k].1 {
                    free.remove(k);
                }
            }
            None => {
                offs[i] = top;
                top += it.size;
            }
        }
        live.push(std::cmp::Reverse((it.last, i)));
    }
    offs
}

fn coalesce(items: &[Item], exempt: &[(usize, usize)], budget: &mut Budget) -> (Vec<Item>, Vec<usize>) {
    let n = items.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut members: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    let mut pairs = exempt.to_vec();
    pairs.sort_unstable();
    pairs.dedup();
    let mut checks = 0u64;
    for (a, b) in pairs {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra == rb || items[a].size == 0 || items[b].size == 0 {
            continue;
        }
        // Merging fewer pairs is always valid (they stay apart); stop when the checks cost
        // too much.
        let cost = (members[ra].len() * members[rb].len()) as u64;
        checks += cost;
        if checks > MAX_COALESCE_CHECKS || !budget.spend(cost) {
            break;
        }
        let ok = members[ra].iter().all(|&u| {
            members[rb].iter().all(|&v| (u, v) == (a, b) || (u, v) == (b, a) || !overlaps(&items[u], &items[v]))
        });
        if !ok {
            continue;
        }
        let (keep, gone) = if ra < rb { (ra, rb) } else { (rb, ra) };
        parent[gone] = keep;
        let moved = std::mem::take(&mut members[gone]);
        members[keep].extend(moved);
    }
    let mut index = vec![usize::MAX; n];
    let mut merged = Vec::new();
    let mut cluster = vec![0; n];
    for (i, slot) in cluster.iter_mut().enumerate() {
        let r = find(&mut parent, i);
        if index[r] == usize::MAX {
            index[r] = merged.len();
            let m = &members[r];
            merged.push(Item {
                size: m.iter().map(|&x| items[x].size).max().unwrap_or(0),
                first: m.iter().map(|&x| items[x].first).min().unwrap_or(0),
                last: m.iter().map(|&x| items[x].last).max().unwrap_or(0),
            });
        }
        *slot = index[r];
    }
    (merged, cluster)
}

/// Places `items`, every pair live at a common step conflicting: greedy, then the exact
/// search down to `lower_bound`.
fn solve_conflicting(
    items: &[Item],
    steps: usize,
    work_budget: u64,
    lower_bound: u64,
    special: &[Special],
    budget: &mut Budget,
) -> Solution {
    let n = items.len();
    let live = live_bytes(items, steps);
    let pairs = conflict_pairs(items);
    budget.spend(n as u64 * (1 + (usize::BITS - n.leading_zeros()) as u64));
    if pairs > MAX_CONFLICT_PAIRS || !budget.spend(pairs.saturating_mul(2)) {
        let offsets = sweep(items, budget);
        let arena = arena_of(items, &offsets);
        return Solution {
            offsets,
            arena,
            lower_bound,
            tensor_bound: lower_bound,
            optimal: arena <= lower_bound,
            greedy_arena: arena,
            work: 0,
        };
    }
    // Conflicts from the items sorted by first step: `j` after `i` overlaps `i` iff it
    // starts by `i`'s last step.
    // Each conflict carries the busy ranges relative to the other item's offset.
    let mut kind_of: std::collections::HashMap<(usize, usize), Kind> = std::collections::HashMap::new();
    for sp in special {
        kind_of.insert((sp.a, sp.b), sp.kind);
    }
    let mut conflicts: Vec<Vec<(usize, i64, i64)>> = vec![Vec::new(); n];
    let mut by_first: Vec<usize> = (0..n).filter(|&i| items[i].size > 0).collect();
    by_first.sort_by_key(|&i| (items[i].first, i));
    for (k, &i) in by_first.iter().enumerate() {
        for &j in &by_first[k + 1..] {
            if items[j].first > items[i].last {
                break;
            }
            let (forward, backward) = (kind_of.get(&(i, j)).copied(), kind_of.get(&(j, i)).copied());
            // `(i, j)` special: i is the input, j the output.
            let (ij, ji) = match (forward, backward) {
                (Some(kd), _) => (busy_rel(items, i, j, Some(kd), false), busy_rel(items, j, i, Some(kd), true)),
                (None, Some(kd)) => (busy_rel(items, i, j, Some(kd), true), busy_rel(items, j, i, Some(kd), false)),
                (None, None) => (busy_rel(items, i, j, None, false), busy_rel(items, j, i, None, false)),
            };
            conflicts[i].extend(ij.into_iter().map(|(lo, hi)| (j, lo, hi)));
            conflicts[j].extend(ji.into_iter().map(|(lo, hi)| (i, lo, hi)));
        }
    }
    for c in &mut conflicts {
        c.sort_unstable();
    }

    // Greedy orderings.
    budget.spend(items.iter().map(|it| (it.last - it.first + 1) as u64).sum());
    let heaviest: Vec<u64> =
        items.iter().map(|it| live[it.first..=it.last].iter().copied().max().unwrap_or(0)).collect();
    let len = |i: usize| (items[i].last - items[i].first + 1) as u64;
    let keys: [&dyn Fn(usize) -> (u64, u64, u64); 5] = [
        &|i| (u64::MAX - items[i].size, u64::MAX - len(i), items[i].first as u64),
        &|i| (u64::MAX - len(i), u64::MAX - items[i].size, i as u64),
        &|i| (u64::MAX - items[i].size.saturating_mul(len(i)), u64::MAX - items[i].size, i as u64),
        &|i| (items[i].first as u64, u64::MAX - items[i].size, i as u64),
        &|i| (u64::MAX - heaviest[i], u64::MAX - items[i].size, i as u64),
    ];
    let mut best: Option<(u64, Vec<u64>, Vec<usize>, bool)> = None;
    for key in keys {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (key(i), i));
        for best_fit in [false, true] {
            // The first placement (TFLite Micro's greedy by size, first fit) always runs; the
            // others only within the budget.
            if !budget.spend(pairs.saturating_mul(2) + n as u64) && best.is_some() {
                break;
            }
            let offs = greedy(items, &conflicts, &order, best_fit);
            let arena = arena_of(items, &offs);
            if best.as_ref().is_none_or(|b| arena < b.0) {
                best = Some((arena, offs, order.clone(), best_fit));
            }
        }
    }
    // Squeaky wheel: items that end at the top of the arena move to the front of the order,
    // and the placement is redone; keep the best arena seen.
    let mut spent = 0u64;
    if let Some((mut arena, _, ref best_order, best_fit)) = best {
        let mut order = best_order.clone();
        let pass_cost = conflicts.iter().map(|c| c.len() as u64).sum::<u64>() + n as u64;
        let mut rounds = 0;
        while arena > lower_bound && rounds < 300 && spent + pass_cost <= work_budget / 4 && budget.spend(pass_cost) {
            rounds += 1;
            spent += pass_cost;
            let offs = greedy(items, &conflicts, &order, best_fit);
            let a = arena_of(items, &offs);
            let high = a.saturating_sub(a.saturating_sub(lower_bound) / 2).max(1);
            let (mut crit, rest): (Vec<usize>, Vec<usize>) =
                order.iter().partition(|&&i| items[i].size > 0 && offs[i] + items[i].size >= high);
            crit.extend(rest);
            order = crit;
            if a < arena {
                arena = a;
                best = Some((a, offs, order.clone(), best_fit));
            }
        }
    }
    let best = best.map(|(a, offs, _, _)| (a, offs));
    let (greedy_arena, offsets) = best.unwrap_or((0, Vec::new()));
    let mut sol = Solution {
        offsets,
        arena: greedy_arena,
        lower_bound,
        tensor_bound: lower_bound,
        optimal: greedy_arena <= lower_bound,
        greedy_arena,
        work: spent,
    };
    // The exact search assumes every pair live at a step apart: not with special pairs.
    if sol.optimal || work_budget == 0 || budget.left() == 0 || !special.is_empty() {
        return sol;
    }
    let mut bb = Exact {
        items,
        floor: vec![0; steps],
        rem: live,
        placed: vec![false; n],
        offsets: vec![0; n],
        best: sol.arena,
        best_offsets: None,
        lower_bound,
        work: 0,
        budget: work_budget.min(budget.left()),
        aborted: false,
        seen: std::collections::HashSet::new(),
    };
    let mut left = n;
    for (i, it) in items.iter().enumerate() {
        if it.size == 0 {
            bb.placed[i] = true;
            left -= 1;
        }
    }
    bb.dfs(0, 0, left);
    budget.spend(bb.work);
    sol.work += bb.work;
    if let Some(offs) = bb.best_offsets {
        sol.offsets = offs;
        sol.arena = bb.best;
    }
    sol.optimal = !bb.aborted || sol.arena <= lower_bound;
    sol
}

fn arena_of(items: &[Item], offsets: &[u64]) -> u64 {
    items.iter().zip(offsets).map(|(it, &o)| o + it.size).max().unwrap_or(0)
}

/// Places items in `order` at the lowest (or tightest) gap among placed conflicting items.
/// Each conflict `(j, lo, hi)` makes `j`'s range `offset(j) + lo .. offset(j) + hi` busy
/// (possibly empty or inverted): an item of size `s` then may not start in `(offset(j) + lo
/// - s, offset(j) + hi)`, which the gap scan below respects for any such range.
fn greedy(items: &[Item], conflicts: &[Vec<(usize, i64, i64)>], order: &[usize], best_fit: bool) -> Vec<u64> {
    let n = items.len();
    let mut offs = vec![0u64; n];
    let mut placed = vec![false; n];
    let mut busy: Vec<(i64, i64)> = Vec::new();
    for &i in order {
        let size = items[i].size as i64;
        if size == 0 {
            placed[i] = true;
            continue;
        }
        busy.clear();
        busy.extend(
            conflicts[i].iter().filter(|c| placed[c.0]).map(|&(j, lo, hi)| (offs[j] as i64 + lo, offs[j] as i64 + hi)),
        );
        busy.sort_unstable();
        let mut cursor = 0i64;
        let mut choice: Option<(i64, i64)> = None; // (gap size, offset)
        for &(lo, hi) in &busy {
            if lo > cursor && lo - cursor >= size {
                let gap = lo - cursor;
                if !best_fit {
                    choice = Some((gap, cursor));
                    break;
                }
                if choice.is_none_or(|(g, _)| gap < g) {
                    choice = Some((gap, cursor));
                }
            }
            cursor = cursor.max(hi);
        }
        offs[i] = choice.map_or(cursor, |(_, o)| o) as u64;
        placed[i] = true;
    }
    offs
}

struct Exact<'a> {
    items: &'a [Item],
    /// Highest top of placed items live at each step.
    floor: Vec<u64>,
    /// Bytes of unplaced items live at each step.
    rem: Vec<u64>,
    placed: Vec<bool>,
    offsets: Vec<u64>,
    best: u64,
    best_offsets: Option<Vec<u64>>,
    lower_bound: u64,
    work: u64,
    budget: u64,
    aborted: bool,
    /// Fingerprints (two independent 64-bit hashes) of states already searched: the placed set,
    /// the skyline where unplaced items live, the highest top elsewhere, the last offset and
    /// index. A state searched before was searched against a bound at least as high as now,
    /// so it cannot lead to a better solution (dominance by equality).
    seen: std::collections::HashSet<(u64, u64)>,
}

/// Capacity of `Exact::seen`.
const MAX_SEEN: usize = 1 << 20;

fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

impl Exact<'_> {
    fn fingerprint(&self, last_off: u64, last_id: usize) -> (u64, u64) {
        let (mut a, mut b) = (0x243F_6A88_85A3_08D3u64, 0x1319_8A2E_0370_7344u64);
        let mut feed = |x: u64| {
            a = mix(a, x);
            b = mix(b ^ 0x9E37_79B9_7F4A_7C15, x.rotate_left(29)).rotate_left(17);
        };
        for (i, &p) in self.placed.iter().enumerate() {
            if p {
                feed(i as u64);
            }
        }
        feed(u64::MAX);
        let mut other = 0;
        for t in 0..self.floor.len() {
            if self.rem[t] > 0 {
                feed(self.floor[t]);
            } else {
                other = other.max(self.floor[t]);
            }
        }
        feed(other);
        feed(last_off);
        feed(last_id as u64);
        (a, b)
    }

    fn dfs(&mut self, last_off: u64, last_id: usize, left: usize) {
        if self.aborted || self.best <= self.lower_bound {
            return;
        }
        self.work += self.floor.len() as u64;
        if self.work > self.budget {
            self.aborted = true;
            return;
        }
        // Bound: unplaced items live at t stack above max(floor[t], last_off).
        let mut bound = 0;
        for t in 0..self.floor.len() {
            let b = if self.rem[t] > 0 { self.floor[t].max(last_off) + self.rem[t] } else { self.floor[t] };
            bound = bound.max(b);
        }
        if bound >= self.best {
            return;
        }
        if left > 0 && self.seen.len() < MAX_SEEN && !self.seen.insert(self.fingerprint(last_off, last_id)) {
            return;
        }
        if left == 0 {
            self.best = bound;
            self.best_offsets = Some(self.offsets.clone());
            return;
        }
        let mut cands: Vec<(u64, u64, usize)> = Vec::new();
        for (i, it) in self.items.iter().enumerate() {
            if self.placed[i] {
                continue;
            }
            let g = self.floor[it.first..=it.last].iter().copied().max().unwrap_or(0);
            self.work += (it.last - it.first + 1) as u64;
            if g < last_off || (g == last_off && i < last_id) || g + it.size >= self.best {
                continue;
            }
            cands.push((g, u64::MAX - it.size, i));
        }
        cands.sort_unstable();
        for (g, _, i) in cands {
            let it = self.items[i];
            let saved: Vec<u64> = self.floor[it.first..=it.last].to_vec();
            for t in it.first..=it.last {
                self.floor[t] = g + it.size;
                self.rem[t] -= it.size;
            }
            self.placed[i] = true;
            self.offsets[i] = g;
            self.dfs(g, i, left - 1);
            self.placed[i] = false;
            for (k, t) in (it.first..=it.last).enumerate() {
                self.floor[t] = saved[k];
                self.rem[t] += it.size;
            }
            if self.aborted || self.best <= self.lower_bound {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Minimum arena by brute force: first-fit over every permutation is complete for DSA.
    fn brute(items: &[Item]) -> u64 {
        fn rec(items: &[Item], order: &mut Vec<usize>, used: &mut Vec<bool>, best: &mut u64) {
            if order.len() == items.len() {
                let mut offs: Vec<(u64, usize)> = Vec::new();
                let mut arena = 0;
                for &i in order.iter() {
                    let it = items[i];
                    let mut o = 0;
                    while let Some(&(bo, j)) = offs.iter().find(|&&(bo, j)| {
                        let jt = items[j];
                        it.size > 0 && jt.size > 0 && overlaps(&it, &jt) && o < bo + jt.size && bo < o + it.size
                    }) {
                        o = bo + items[j].size;
                    }
                    offs.push((o, i));
                    arena = arena.max(o + it.size);
                }
                *best = (*best).min(arena);
                return;
            }
            for i in 0..items.len() {
                if !used[i] {
                    used[i] = true;
                    order.push(i);
                    rec(items, order, used, best);
                    order.pop();
                    used[i] = false;
                }
            }
        }
        let mut best = u64::MAX;
        rec(items, &mut Vec::new(), &mut vec![false; items.len()], &mut best);
        if items.is_empty() {
            0
        } else {
            best
        }
    }

    #[test]
    fn exact_search_matches_brute_force_and_beats_greedy() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let mut improved = 0;
        for _ in 0..400 {
            let steps = 2 + next(6) as usize;
            let n = 2 + next(6) as usize;
            let items: Vec<Item> = (0..n)
                .map(|_| {
                    let a = next(steps as u64) as usize;
                    let b = next(steps as u64) as usize;
                    Item { size: 16 * (1 + next(6)), first: a.min(b), last: a.max(b) }
                })
                .collect();
            let sol = solve(&items, &[], &[], steps, u64::MAX, &mut Budget::new(u64::MAX));
            assert!(sol.optimal);
            assert_eq!(sol.arena, brute(&items), "{items:?}");
            assert!(sol.lower_bound <= sol.arena);
            // The placement is valid.
            for i in 0..n {
                for j in i + 1..n {
                    let (a, b) = (items[i], items[j]);
                    let apart = sol.offsets[i] + a.size <= sol.offsets[j] || sol.offsets[j] + b.size <= sol.offsets[i];
                    assert!(!overlaps(&a, &b) || apart);
                }
            }
            if sol.arena < sol.greedy_arena {
                improved += 1;
            }
        }
        assert!(improved > 0, "no instance where the exact search beat the greedy");
    }
}
