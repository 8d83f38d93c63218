//! Operator order: a topological order of the operators that minimises the peak of live bytes.
//!
//! The search runs over *scheduled sets*: after scheduling a set `S` of operators (any order),
//! the resident bytes depend on `S` alone, so the best prefix peak for `S` is all that must be
//! remembered (dynamic programming over down-sets, as in Serenity, Ahn et al., MLSys 2020).
//! Level `k` holds the distinct sets of `k` operators; a state whose prefix peak already reaches
//! the best known peak is dropped (branch and bound). When the search finishes within its state
//! budget the order is proven optimal; otherwise a beam search (the same expansion, keeping the
//! best `beam_width` states per level) provides the order. The file order is always a candidate,
//! so the result is never worse than it.

use crate::index::IndexVec;
use crate::ir::OpId;
use std::collections::HashMap;

/// A unit of storage (a tensor and its aliases) as the scheduler sees it.
#[derive(Clone, Debug)]
pub struct Unit {
    /// Its size in bytes (aligned).
    pub bytes: u64,
    /// The operator that creates it; `None` for model inputs and variables (resident at start).
    pub birth: Option<OpId>,
    /// Operators that read it; it dies after the last of them.
    pub readers: Vec<OpId>,
    /// Lives to the end (model outputs, variables).
    pub to_end: bool,
}

/// The dependency graph with the memory units created and consumed by each operator.
#[derive(Clone, Debug)]
pub struct MemGraph {
    preds: IndexVec<OpId, Vec<OpId>>,
    succs: IndexVec<OpId, Vec<OpId>>,
    units: Vec<Unit>,
    /// Units each op creates / reads.
    born: IndexVec<OpId, Vec<u32>>,
    reads: IndexVec<OpId, Vec<u32>>,
    /// Bytes resident before the first step.
    initial: u64,
    /// Bytes resident before the first step that die right after it (unread inputs).
    die_after_first: u64,
    /// Per unit: its slot in a state's remaining-reader counters, for units freed only after
    /// several operators read them ([`NO_SLOT`] otherwise: a unit with one reader dies when it
    /// runs, a unit that lives to the end is never freed).
    slot: Vec<u32>,
    /// Initial remaining-reader count of every slot.
    slot_readers: Vec<u32>,
    /// Per unit: freed at the step that creates it (no reader but its writer, not kept to the end).
    dies_at_birth: Vec<bool>,
    /// Zobrist key of every operator: a set's hash is the XOR of its members' keys.
    key: IndexVec<OpId, u64>,
}

/// No remaining-reader counter for this unit.
const NO_SLOT: u32 = u32::MAX;

impl MemGraph {
    /// `preds` must be acyclic with every predecessor before its successor in index order.
    pub fn new(preds: IndexVec<OpId, Vec<OpId>>, units: Vec<Unit>) -> MemGraph {
        let mut born: IndexVec<OpId, Vec<u32>> = preds.iter().map(|_| Vec::new()).collect();
        let mut reads: IndexVec<OpId, Vec<u32>> = preds.iter().map(|_| Vec::new()).collect();
        let (mut initial, mut die_after_first) = (0, 0);
        for (i, u) in units.iter().enumerate() {
            match u.birth {
                Some(op) => born[op].push(i as u32),
                None => {
                    initial += u.bytes;
                    if u.readers.is_empty() && !u.to_end {
                        die_after_first += u.bytes;
                    }
                }
            }
            for &r in &u.readers {
                if Some(r) != u.birth {
                    reads[r].push(i as u32);
                }
            }
        }
        let mut succs: IndexVec<OpId, Vec<OpId>> = preds.iter().map(|_| Vec::new()).collect();
        for (op, ps) in preds.iter_enumerated() {
            for &p in ps {
                succs[p].push(op);
            }
        }
        let mut slot = vec![NO_SLOT; units.len()];
        let mut slot_readers = Vec::new();
        let mut dies_at_birth = vec![false; units.len()];
        for (i, u) in units.iter().enumerate() {
            let others = u.readers.iter().filter(|&&r| Some(r) != u.birth).count() as u32;
            if !u.to_end && others > 1 {
                slot[i] = slot_readers.len() as u32;
                slot_readers.push(others);
            }
            dies_at_birth[i] = u.birth.is_some() && others == 0 && !u.to_end;
        }
        let key = preds
            .indices()
            .map(|op| {
                let mut z = (op.index() as u64).wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            })
            .collect();
        MemGraph { preds, succs, units, born, reads, initial, die_after_first, slot, slot_readers, dies_at_birth, key }
    }

    fn n(&self) -> usize {
        self.preds.len()
    }

    /// Runs `op` in a state with `remaining` reader counts (`first`: nothing has run yet):
    /// (bytes live at that step, bytes resident after it).
    fn step(&self, remaining: &[u32], first: bool, resident: u64, op: OpId) -> (u64, u64) {
        let mut live = resident;
        let mut freed = 0;
        for &u in &self.born[op] {
            let unit = &self.units[u as usize];
            live += unit.bytes;
            if self.dies_at_birth[u as usize] {
                freed += unit.bytes;
            }
        }
        for &u in &self.reads[op] {
            let unit = &self.units[u as usize];
            if unit.to_end {
                continue;
            }
            match self.slot[u as usize] {
                NO_SLOT => freed += unit.bytes,
                s if remaining[s as usize] == 1 => freed += unit.bytes,
                _ => {}
            }
        }
        if first {
            freed += self.die_after_first;
        }
        debug_assert!(freed <= live);
        (live, live.saturating_sub(freed))
    }

    /// `remaining` after `op` has run.
    fn consume(&self, remaining: &mut [u32], op: OpId) {
        for &u in &self.reads[op] {
            if let Some(r) = remaining.get_mut(self.slot[u as usize] as usize) {
                *r = r.saturating_sub(1);
            }
        }
    }

    fn ready(&self, done: &Bits, op: OpId) -> bool {
        !done.get(op.index()) && self.preds[op].iter().all(|p| done.get(p.index()))
    }

    /// Peak of live bytes when running `order`.
    pub fn peak_of(&self, order: &[OpId]) -> u64 {
        let mut remaining = self.slot_readers.clone();
        let (mut resident, mut peak) = (self.initial, self.initial);
        for (i, &op) in order.iter().enumerate() {
            let (live, after) = self.step(&remaining, i == 0, resident, op);
            self.consume(&mut remaining, op);
            peak = peak.max(live);
            resident = after;
        }
        peak
    }

    /// No order has a smaller peak: variables plus the heaviest single operator, or all outputs
    /// at the end, or all inputs at the start.
    pub fn lower_bound(&self) -> u64 {
        let always: u64 = self.units.iter().filter(|u| u.birth.is_none() && u.to_end).map(|u| u.bytes).sum();
        let is_always = |u: &Unit| u.birth.is_none() && u.to_end;
        let mut best = 0;
        for op in self.preds.indices() {
            let touched: u64 = self.born[op]
                .iter()
                .chain(&self.reads[op])
                .map(|&u| &self.units[u as usize])
                .filter(|u| !is_always(u))
                .map(|u| u.bytes)
                .sum();
            best = best.max(touched);
        }
        let outputs: u64 = self.units.iter().filter(|u| u.to_end && !is_always(u)).map(|u| u.bytes).sum();
        let inputs: u64 = self.units.iter().filter(|u| u.birth.is_none() && !is_always(u)).map(|u| u.bytes).sum();
        always + best.max(outputs).max(inputs)
    }
}

/// A fast multiplicative hasher for bitsets (keys are not attacker-chosen; iteration order
/// never affects output).
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn finish(&self) -> u64 {
        // Avalanche (splitmix64's finaliser): the multiply above only mixes upwards, and the
        // table indexes by the low bits.
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

type FxBuild = std::hash::BuildHasherDefault<FxHasher>;

/// A fixed-size bitset over operators.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Bits(Box<[u64]>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)].into_boxed_slice())
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
}

/// A deterministic work counter shared by every search pass of one plan (schedule and
/// offsets): passes charge the units they spend (states, transitions, words copied, interval
/// steps scanned) and stop, keeping the best result so far, when it runs out. It counts work,
/// never time, so a plan is the same on every host.
#[derive(Clone, Debug)]
pub struct Budget {
    limit: u64,
    spent: u64,
    /// Some pass was refused units (it stopped early).
    cut: bool,
}

impl Budget {
    /// A budget of `limit` work units, none spent.
    pub fn new(limit: u64) -> Budget {
        Budget { limit, spent: 0, cut: false }
    }
    /// Charges `units`; `false` (the pass must stop, and the budget records that one did)
    /// when that goes past the limit.
    pub fn spend(&mut self, units: u64) -> bool {
        self.spent = self.spent.saturating_add(units);
        if self.spent > self.limit {
            self.cut = true;
            return false;
        }
        true
    }
    /// Units not yet spent.
    pub fn left(&self) -> u64 {
        self.limit.saturating_sub(self.spent)
    }
    /// Units spent so far (may exceed the limit by the last refused charge).
    pub fn spent(&self) -> u64 {
        self.spent
    }
    /// Some pass stopped early for lack of budget.
    pub fn exhausted(&self) -> bool {
        self.cut
    }
    /// A sub-budget of at most `units` of what is left: spend from it, then [`Budget::absorb`] it.
    pub fn share(&self, units: u64) -> Budget {
        Budget::new(units.min(self.left()))
    }
    /// Adds what a [`Budget::share`] spent (and whether a pass ran out of it) to this budget;
    /// what is left of this budget stays available to later passes.
    pub fn absorb(&mut self, part: &Budget) {
        self.spent = self.spent.saturating_add(part.spent.min(part.limit));
        self.cut |= part.cut;
    }
}

/// Search budgets.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// States the exact search may create (and sixteen times as many transitions).
    pub state_budget: u64,
    /// Width of the beam search used as the heuristic.
    pub beam_width: usize,
    /// Bytes the states of one search level may hold (the searches keep two levels).
    pub level_bytes: u64,
}

/// The chosen order and what is known about it.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The operators in execution order.
    pub order: Vec<OpId>,
    /// Peak of live bytes of `order`.
    pub peak: u64,
    /// No topological order has a smaller peak.
    pub optimal: bool,
    /// Peak of live bytes of the file order.
    pub file_order_peak: u64,
    /// No topological order has a peak below this.
    pub lower_bound: u64,
    /// States created by the searches.
    pub states: u64,
}

/// The file order, unchanged.
pub fn file_order(g: &MemGraph) -> Schedule {
    let order: Vec<OpId> = g.preds.indices().collect();
    let peak = g.peak_of(&order);
    let lower_bound = g.lower_bound();
    Schedule { order, peak, optimal: peak == lower_bound, file_order_peak: peak, lower_bound, states: 0 }
}

/// The best order the searches find within their budgets and `budget` (which they charge).
///
/// Passes: a beam search of width `beam_width` (on at most half of what is left of `budget`);
/// if it runs out, a greedy (width 1) pass on half of what is left then, and no exact search
/// (a graph the beam cannot finish is far beyond it); otherwise the exact search, which alone
/// can prove optimality. Each pass that runs out of budget contributes nothing, and the order
/// found before it stands (at worst the file order).
pub fn optimize(g: &MemGraph, opts: &SearchOptions, budget: &mut Budget) -> Schedule {
    let mut best = file_order(g);
    budget.spend(2 * g.n() as u64);
    if best.optimal {
        return best;
    }
    let limits = |max_states: u64| Limits { max_states, max_transitions: max_states.saturating_mul(16), level_bytes: opts.level_bytes };
    // Heuristic first: it gives the exact search a tight bound to prune with.
    let mut part = budget.share(budget.left() / 2);
    let beam = search(g, Some(opts.beam_width.max(1)), best.peak, &limits(u64::MAX), &mut part);
    budget.absorb(&part);
    best.states += beam.states;
    let beam_cut = part.exhausted();
    let beam = if beam.found.is_none() && beam_cut && opts.beam_width > 1 {
        let mut part = budget.share(budget.left() / 2);
        let greedy = search(g, Some(1), best.peak, &limits(u64::MAX), &mut part);
        budget.absorb(&part);
        best.states += greedy.states;
        greedy
    } else {
        beam
    };
    if let Some((peak, order)) = beam.found {
        best.peak = peak;
        best.order = order;
    }
    if best.peak == best.lower_bound {
        best.optimal = true;
        return best;
    }
    if beam_cut || budget.left() == 0 {
        return best;
    }
    let exact = search(g, None, best.peak, &limits(opts.state_budget), budget);
    best.states += exact.states;
    if exact.complete {
        if let Some((peak, order)) = exact.found {
            best.peak = peak;
            best.order = order;
        }
        best.optimal = true;
    }
    best
}

/// Work units of one transition evaluated (beyond the units it touches) and of one new set in
/// the level's table, relative to one word copied: calibrated so a unit costs about the same
/// time everywhere (`examples/stress_models.rs`).
const TRANSITION_COST: u64 = 4;
const INSERT_COST: u64 = 24;

struct Limits {
    max_states: u64,
    max_transitions: u64,
    level_bytes: u64,
}

struct Outcome {
    /// The best complete order with a peak below the bound, if any.
    found: Option<(u64, Vec<OpId>)>,
    /// The whole space below the bound was searched (never true for a beam that dropped states
    /// or a search that ran out of budget).
    complete: bool,
    states: u64,
}

struct State {
    done: Bits,
    /// Operators ready to run after `done`, ascending.
    ready: Vec<OpId>,
    /// Readers still to run of every counted unit (`MemGraph::slot`).
    remaining: Vec<u32>,
    peak: u64,
    resident: u64,
    hash: u64,
}

/// A transition from a state of the current level, before it is made a state of the next.
struct Candidate {
    parent: u32,
    op: OpId,
    peak: u64,
    resident: u64,
}

/// Whether `a.done ∪ {x}` equals `b.done ∪ {y}`.
fn same_set(a: &Bits, x: OpId, b: &Bits, y: OpId) -> bool {
    let bit = |op: OpId, w: usize| if op.index() / 64 == w { 1u64 << (op.index() % 64) } else { 0 };
    a.0.iter().zip(b.0.iter()).enumerate().all(|(w, (&p, &q))| p | bit(x, w) == q | bit(y, w))
}

/// Level-by-level search over scheduled sets. `width: None` keeps every state (exact);
/// states whose prefix peak reaches `bound` are dropped. Transitions are evaluated from the
/// parent state; only the ones kept (all of them, or the best `width`) become states, and only
/// two levels of states are held (the order is rebuilt from `(parent, op)` per level).
fn search(g: &MemGraph, width: Option<usize>, bound: u64, lim: &Limits, budget: &mut Budget) -> Outcome {
    let n = g.n();
    let aborted = |states| Outcome { found: None, complete: false, states };
    let words = n.div_ceil(64) as u64;
    let mut cur = vec![State {
        done: Bits::new(n),
        ready: g.preds.iter_enumerated().filter(|(_, p)| p.is_empty()).map(|(o, _)| o).collect(),
        remaining: g.slot_readers.clone(),
        peak: g.initial,
        resident: g.initial,
        hash: 0,
    }];
    let mut trace: Vec<Vec<(u32, OpId)>> = Vec::with_capacity(n);
    let mut states = 1u64;
    let mut transitions = 0u64;
    let mut complete = true;
    if g.initial >= bound {
        return Outcome { found: None, complete, states };
    }
    for level in 0..n {
        let mut next: Vec<Candidate> = Vec::new();
        // Set hash (probed past collisions) -> index in `next`.
        let mut index: HashMap<u64, u32, FxBuild> = HashMap::default();
        for (pi, s) in cur.iter().enumerate() {
            for &op in &s.ready {
                if !budget.spend(TRANSITION_COST + (g.born[op].len() + g.reads[op].len()) as u64) {
                    return aborted(states);
                }
                let (live, resident) = g.step(&s.remaining, level == 0, s.resident, op);
                let peak = s.peak.max(live);
                if peak >= bound {
                    continue;
                }
                transitions += 1;
                if transitions > lim.max_transitions {
                    return aborted(states);
                }
                let mut probe = s.hash ^ g.key[op];
                loop {
                    match index.get(&probe) {
                        Some(&i) => {
                            let c = &mut next[i as usize];
                            if !budget.spend(words) {
                                return aborted(states);
                            }
                            if same_set(&cur[c.parent as usize].done, c.op, &s.done, op) {
                                if peak < c.peak {
                                    *c = Candidate { parent: pi as u32, op, peak, resident };
                                }
                                break;
                            }
                            probe = probe.wrapping_add(0x9e37_79b9_7f4a_7c15);
                        }
                        None => {
                            if !budget.spend(INSERT_COST) {
                                return aborted(states);
                            }
                            index.insert(probe, next.len() as u32);
                            next.push(Candidate { parent: pi as u32, op, peak, resident });
                            states += 1;
                            if states > lim.max_states {
                                return aborted(states);
                            }
                            break;
                        }
                    }
                }
            }
        }
        drop(index);
        if let Some(w) = width {
            if next.len() > w {
                // Stable sort: ties keep generation order, so the result is deterministic.
                next.sort_by_key(|c| (c.peak, c.resident));
                next.truncate(w);
                complete = false;
            }
        }
        if next.is_empty() {
            return Outcome { found: None, complete, states };
        }
        let state_bytes = 8 * words + 4 * g.slot_readers.len() as u64 + 4 * cur[0].ready.len() as u64 + 64;
        if (next.len() as u64).saturating_mul(state_bytes) > lim.level_bytes {
            return aborted(states);
        }
        let mut made = Vec::with_capacity(next.len());
        for c in &next {
            let parent = &cur[c.parent as usize];
            let mut done = parent.done.clone();
            done.set(c.op.index());
            let mut ready: Vec<OpId> = parent.ready.iter().copied().filter(|&o| o != c.op).collect();
            let mut cost = words + ready.len() as u64 + parent.remaining.len() as u64;
            for &succ in &g.succs[c.op] {
                cost += g.preds[succ].len() as u64;
                if g.ready(&done, succ) {
                    ready.push(succ);
                }
            }
            if !budget.spend(cost) {
                return aborted(states);
            }
            ready.sort_unstable();
            let mut remaining = parent.remaining.clone();
            g.consume(&mut remaining, c.op);
            made.push(State { done, ready, remaining, peak: c.peak, resident: c.resident, hash: parent.hash ^ g.key[c.op] });
        }
        trace.push(next.iter().map(|c| (c.parent, c.op)).collect());
        cur = made;
    }
    // Reconstruct the best final state's order.
    let Some((mut i, last)) = cur.iter().enumerate().min_by_key(|(_, s)| s.peak) else {
        return Outcome { found: None, complete, states };
    };
    let peak = last.peak;
    let mut order = vec![OpId::new(0); n];
    for k in (0..n).rev() {
        let (parent, op) = trace[k][i];
        order[k] = op;
        i = parent as usize;
    }
    Outcome { found: Some((peak, order)), complete, states }
}
