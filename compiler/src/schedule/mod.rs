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
}

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
        MemGraph { preds, succs, units, born, reads, initial, die_after_first }
    }

    fn n(&self) -> usize {
        self.preds.len()
    }

    /// Runs `op` after the set `done`: (bytes live at that step, bytes resident after it).
    fn step(&self, done: &Bits, resident: u64, op: OpId) -> (u64, u64) {
        let mut live = resident;
        let mut freed = 0;
        for &u in &self.born[op] {
            let unit = &self.units[u as usize];
            live += unit.bytes;
            if unit.readers.iter().all(|&r| r == op) && !unit.to_end {
                freed += unit.bytes;
            }
        }
        for &u in &self.reads[op] {
            let unit = &self.units[u as usize];
            if !unit.to_end && unit.readers.iter().all(|&r| r == op || done.get(r.index())) {
                freed += unit.bytes;
            }
        }
        if done.is_empty() {
            freed += self.die_after_first;
        }
        debug_assert!(freed <= live);
        (live, live.saturating_sub(freed))
    }

    fn ready(&self, done: &Bits, op: OpId) -> bool {
        !done.get(op.index()) && self.preds[op].iter().all(|p| done.get(p.index()))
    }

    /// Peak of live bytes when running `order`.
    pub fn peak_of(&self, order: &[OpId]) -> u64 {
        let mut done = Bits::new(self.n());
        let (mut resident, mut peak) = (self.initial, self.initial);
        for &op in order {
            let (live, after) = self.step(&done, resident, op);
            peak = peak.max(live);
            resident = after;
            done.set(op.index());
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
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

/// Search budgets.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub state_budget: u64,
    pub beam_width: usize,
}

/// The chosen order and what is known about it.
#[derive(Clone, Debug)]
pub struct Schedule {
    pub order: Vec<OpId>,
    pub peak: u64,
    /// No topological order has a smaller peak.
    pub optimal: bool,
    pub file_order_peak: u64,
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

/// The best order the searches find within their budgets.
pub fn optimize(g: &MemGraph, opts: &SearchOptions) -> Schedule {
    let mut best = file_order(g);
    if best.optimal {
        return best;
    }
    // Heuristic first: it gives the exact search a tight bound to prune with.
    let beam = search(g, Some(opts.beam_width.max(1)), best.peak, u64::MAX);
    best.states += beam.states;
    if let Some((peak, order)) = beam.found {
        best.peak = peak;
        best.order = order;
    }
    if best.peak == best.lower_bound {
        best.optimal = true;
        return best;
    }
    let exact = search(g, None, best.peak, opts.state_budget);
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

struct Outcome {
    /// The best complete order with a peak below the bound, if any.
    found: Option<(u64, Vec<OpId>)>,
    /// The whole space below the bound was searched (never true for a beam that dropped states).
    complete: bool,
    states: u64,
}

struct State {
    done: Bits,
    /// Operators ready to run after `done`, ascending.
    ready: Vec<OpId>,
    peak: u64,
    resident: u64,
    parent: u32,
    op: OpId,
}

/// Level-by-level search over scheduled sets. `width: None` keeps every state (exact);
/// states whose prefix peak reaches `bound` are dropped.
fn search(g: &MemGraph, width: Option<usize>, bound: u64, budget: u64) -> Outcome {
    let n = g.n();
    let mut levels: Vec<Vec<State>> = Vec::with_capacity(n + 1);
    levels.push(vec![State {
        done: Bits::new(n),
        ready: g.preds.iter_enumerated().filter(|(_, p)| p.is_empty()).map(|(o, _)| o).collect(),
        peak: g.initial,
        resident: g.initial,
        parent: u32::MAX,
        op: OpId::new(0),
    }]);
    let mut states = 1u64;
    let mut transitions = 0u64;
    let mut scratch = Bits::new(n);
    let mut complete = true;
    if g.initial >= bound {
        return Outcome { found: None, complete, states };
    }
    for _ in 0..n {
        let cur = levels.last().map_or(&[][..], |v| &v[..]);
        let mut next: Vec<State> = Vec::new();
        let mut index: HashMap<Bits, usize, FxBuild> = HashMap::default();
        for (pi, s) in cur.iter().enumerate() {
            for (k, &op) in s.ready.iter().enumerate() {
                let (live, after) = g.step(&s.done, s.resident, op);
                let peak = s.peak.max(live);
                if peak >= bound {
                    continue;
                }
                transitions += 1;
                if transitions > budget.saturating_mul(16) {
                    return Outcome { found: None, complete: false, states };
                }
                scratch.0.copy_from_slice(&s.done.0);
                scratch.set(op.index());
                match index.get(&scratch) {
                    Some(&i) => {
                        if peak < next[i].peak {
                            next[i].peak = peak;
                            next[i].parent = pi as u32;
                            next[i].op = op;
                        }
                    }
                    None => {
                        let done = scratch.clone();
                        let mut ready: Vec<OpId> = s.ready[..k].iter().chain(&s.ready[k + 1..]).copied().collect();
                        for &succ in &g.succs[op] {
                            if g.ready(&done, succ) {
                                ready.push(succ);
                            }
                        }
                        ready.sort_unstable();
                        index.insert(done.clone(), next.len());
                        next.push(State { done, ready, peak, resident: after, parent: pi as u32, op });
                        states += 1;
                        if states > budget {
                            return Outcome { found: None, complete: false, states };
                        }
                    }
                }
            }
        }
        if let Some(w) = width {
            if next.len() > w {
                // Stable sort: ties keep generation order, so the result is deterministic.
                next.sort_by_key(|s| (s.peak, s.resident));
                next.truncate(w);
                complete = false;
            }
        }
        if next.is_empty() {
            return Outcome { found: None, complete, states };
        }
        levels.push(next);
    }
    // Reconstruct the best final state's order.
    let Some((mut i, last)) = levels[n].iter().enumerate().min_by_key(|(_, s)| s.peak) else {
        return Outcome { found: None, complete, states };
    };
    let peak = last.peak;
    let mut order = vec![OpId::new(0); n];
    for k in (1..=n).rev() {
        let s = &levels[k][i];
        order[k - 1] = s.op;
        i = s.parent as usize;
    }
    Outcome { found: Some((peak, order)), complete, states }
}
