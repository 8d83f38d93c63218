//! Memory budgets: does a plan fit in the RAM the user has, and if not, where does it peak.
//!
//! `--max-arena 48K` (`CompileOptions::max_arena`, `Config::max_arena`, `include_model!(…,
//! max_arena = "48K")`) is the user's bound on the arena. A plan whose arena is larger is
//! refused with [`OverBudget`], which names the step where the live bytes peak, the operator
//! running there and every buffer live at that step with its size, largest first: what a
//! firmware engineer needs to decide which layer to shrink. The peak is computed here from the
//! plan's lifetimes (aligned sizes, each alias group once, a realised in-place pair counted as
//! the larger of its two buffers, a realised overlap as the union of its two placements),
//! independently of how the planner searched.

use super::{BufferId, BufferKind, SubgraphPlan};
use crate::ir::Subgraph;
use crate::text::group;
use std::fmt::Write;

/// The arena does not fit the budget.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct OverBudget {
    /// The arena the plan needs.
    pub arena_bytes: u64,
    /// The budget.
    pub max_arena: u64,
    /// The whole report (several lines).
    pub message: String,
}

/// One buffer live at the peak step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveBuffer {
    /// The buffer.
    pub buffer: BufferId,
    /// Aligned bytes it occupies.
    pub bytes: u64,
    /// `t12 "name" int8[1,25,5,64]`, or the scratch buffer's label.
    pub label: String,
}

/// The step of the plan's schedule with the most live bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Peak {
    /// Index into the schedule.
    pub step: usize,
    /// `op 7 (CONV_2D)`.
    pub op: String,
    /// Live bytes at that step (aligned, in-place pairs shared, overlapped pairs counted
    /// once where they share bytes).
    pub bytes: u64,
    /// The buffers live there, largest first.
    pub live: Vec<LiveBuffer>,
    /// The overlapped pairs of the op there: `(output, input, shared bytes)`, labels as in
    /// `live`: the output is written over the consumed part of the input.
    pub overlapped: Vec<(String, String, u64)>,
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a.max(1)).saturating_mul(a.max(1))
}

/// The peak step of `sp`'s schedule (`None` for a plan with no operators).
pub fn peak(sp: &SubgraphPlan, sg: &Subgraph<'_>) -> Option<Peak> {
    let p = &sp.plan;
    let mut best: Option<Peak> = None;
    for (step, &op) in p.schedule.iter().enumerate() {
        let mut live = Vec::new();
        for (b, buf) in sp.problem.buffers.iter_enumerated() {
            if buf.alias_of.is_some() {
                continue;
            }
            let Some(l) = p.lifetimes[b] else { continue };
            if l.first.index() <= step && step <= l.last.index() {
                live.push(LiveBuffer { buffer: b, bytes: align_up(buf.bytes, p.align), label: buffer_label(sp, sg, b) });
            }
        }
        let mut bytes: u64 = live.iter().map(|l| l.bytes).sum();
        for &(pair_op, x, y) in &p.in_place {
            if pair_op == op {
                let shared = align_up(sp.problem.buffers[x].bytes.min(sp.problem.buffers[y].bytes), p.align);
                bytes = bytes.saturating_sub(shared);
            }
        }
        // An overlapped pair shares the bytes where the two (aligned) placements intersect.
        let mut overlapped = Vec::new();
        for o in p.overlaps.iter().filter(|o| o.op == op) {
            let (x, y) = (o.input, o.output);
            let (ox, oy) = (p.offsets[x], p.offsets[y]);
            let size = |b: BufferId| align_up(sp.problem.buffers[b].bytes, p.align);
            let (ex, ey) = (ox + size(x), oy + size(y));
            let shared = ex.min(ey).saturating_sub(ox.max(oy));
            bytes = bytes.saturating_sub(shared);
            overlapped.push((buffer_label(sp, sg, y), buffer_label(sp, sg, x), shared));
        }
        if best.as_ref().is_none_or(|b| bytes > b.bytes) {
            live.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.buffer.cmp(&b.buffer)));
            let opcode = sg.ops.get(op).map(|o| o.opcode.to_string()).unwrap_or_default();
            best = Some(Peak { step, op: format!("op {} ({opcode})", op.index()), bytes, live, overlapped });
        }
    }
    best
}

fn buffer_label(sp: &SubgraphPlan, sg: &Subgraph<'_>, b: BufferId) -> String {
    let buf = &sp.problem.buffers[b];
    match sp.tensor_of[b].and_then(|t| sg.tensors.get(t)) {
        Some(tensor) => crate::text::tensor(tensor),
        None if buf.kind == BufferKind::Scratch => format!("scratch of {}", buf.label),
        None => buf.label.clone(),
    }
}

/// Refuses `sp` when its arena exceeds `max_arena` bytes, naming the peak.
pub fn check_max_arena(sp: &SubgraphPlan, sg: &Subgraph<'_>, max_arena: u64) -> Result<(), OverBudget> {
    check_budget(sp, sg, max_arena, "the arena", "the max-arena budget")
}

/// Refuses `sp` when its arena exceeds `max_arena` bytes, naming the peak: `what` names the
/// arena (`the arena`, `pool \`sram\``) and `limit` the bound in the message.
pub fn check_budget(sp: &SubgraphPlan, sg: &Subgraph<'_>, max_arena: u64, what: &str, limit: &str) -> Result<(), OverBudget> {
    let arena = sp.plan.arena_bytes;
    if arena <= max_arena {
        return Ok(());
    }
    let mut m = format!(
        "{what} needs {} bytes, over {limit} of {} bytes by {}",
        group(arena),
        group(max_arena),
        group(arena - max_arena)
    );
    if sp.plan.order_optimal && sp.plan.gap_bytes() == 0 {
        m.push_str("; the plan is optimal: no operator order or placement needs less");
    } else if sp.plan.order_optimal {
        let _ = write!(m, "; no operator order needs less than {} bytes", group(sp.plan.lower_bound_bytes));
    }
    if let Some(peak) = peak(sp, sg) {
        let _ = write!(
            m,
            "\npeak at step {}, {}: {} bytes in {} live buffer(s):",
            peak.step,
            peak.op,
            group(peak.bytes),
            peak.live.len()
        );
        for l in &peak.live {
            let _ = write!(m, "\n  {:>10} B  {}", group(l.bytes), l.label);
        }
        for (output, input, shared) in &peak.overlapped {
            let _ = write!(m, "\n  {:>10} B  shared: {output} is written over the consumed part of {input}", format!("-{}", group(*shared)));
        }
    }
    Err(OverBudget { arena_bytes: arena, max_arena, message: m })
}

/// Parses a byte size as users write it: `49152`, `48K`, `48KiB`, `48KB`, `1M`, `1MiB`
/// (K and M are 1024 and 1024², as RAM is counted on microcontrollers; case-insensitive;
/// `_` and `,` between digits are ignored).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '_' || c == ',')).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let digits: String = digits.chars().filter(|c| c.is_ascii_digit()).collect();
    let n: u64 = digits.parse().map_err(|_| format!("`{s}` is not a size (for example 49152, 48K or 1M)"))?;
    let mult = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return Err(format!("`{s}`: unknown unit `{}` (use K, M or G, counted in 1024s)", unit.trim())),
    };
    n.checked_mul(mult).ok_or_else(|| format!("`{s}` is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_as_firmware_engineers_write_them() {
        assert_eq!(parse_size("49152"), Ok(49152));
        assert_eq!(parse_size("48K"), Ok(49152));
        assert_eq!(parse_size("48k"), Ok(49152));
        assert_eq!(parse_size("48KiB"), Ok(49152));
        assert_eq!(parse_size("48 KB"), Ok(49152));
        assert_eq!(parse_size("1M"), Ok(1 << 20));
        assert_eq!(parse_size("49_152"), Ok(49152));
        assert!(parse_size("").is_err());
        assert!(parse_size("K").is_err());
        assert!(parse_size("12Q").unwrap_err().contains("unknown unit `Q`"));
        assert!(parse_size("99999999999999999999").is_err());
        assert!(parse_size("18446744073709551615G").unwrap_err().contains("too large"));
    }
}
