//! Reports of a subgraph plan: the deterministic text dump (for snapshots and `tflc plan`) and
//! the JSON form (`tflc plan --json`).

use super::{BufferKind, SubgraphPlan};
use crate::ir::Subgraph;
use std::fmt::Write;

impl SubgraphPlan {
    /// A deterministic text dump: summary, order, and one row per buffer.
    pub fn dump(&self, sg: &Subgraph<'_>) -> String {
        let p = &self.plan;
        let mut s = String::new();
        let _ = writeln!(s, "arena_bytes: {}", p.arena_bytes);
        let _ = writeln!(
            s,
            "lower_bound_bytes: {} (gap {} bytes, {})",
            p.lower_bound_bytes,
            p.gap_bytes(),
            if p.gap_bytes() == 0 {
                "optimal"
            } else if p.offsets_optimal {
                "proven: no placement of this order reaches the bound"
            } else {
                "not proven"
            }
        );
        if !p.overlaps.is_empty() {
            // Only plans with overlapped pairs, so other snapshots keep their form.
            let _ = writeln!(s, "tensor_bound_bytes: {} (each tensor apart; the bound above lets outputs overwrite consumed input)", p.tensor_bound_bytes);
            for o in &p.overlaps {
                let t = |b: super::BufferId| self.tensor_of[b].map_or(b.to_string(), |t| t.to_string());
                let _ = writeln!(s, "overlap: op {} writes {} over the consumed part of {} (output at {:+} bytes)", o.op.index(), t(o.output), t(o.input), o.delta);
            }
        }
        let _ = writeln!(s, "align: {}", p.align);
        let _ = writeln!(
            s,
            "order: {} (peak {} bytes; file order peak {} bytes)",
            if p.order_optimal { "optimal" } else { "heuristic" },
            p.peak_bytes,
            p.file_order_peak_bytes
        );
        let _ = writeln!(s, "offsets: {}", if p.offsets_optimal { "optimal" } else { "heuristic" });
        if p.stats.budget_exhausted {
            // Only graphs far beyond the corpus get here, so snapshots keep their form.
            let _ = writeln!(
                s,
                "search: work budget exhausted ({} units): a valid plan, not proven optimal",
                p.stats.work
            );
        }
        let file_order = p.schedule.iter().enumerate().all(|(i, o)| o.index() == i);
        let list = |v: &mut String| {
            let ops: Vec<String> = p.schedule.iter().map(|o| o.index().to_string()).collect();
            v.push_str(&ops.join(" "));
        };
        if file_order {
            let _ = writeln!(s, "schedule: file order");
        } else {
            s.push_str("schedule: ");
            list(&mut s);
            s.push('\n');
        }
        for pool in &self.pools {
            let cap = pool.capacity.map_or("unbounded".to_string(), |c| format!("capacity {c}"));
            let tensors: Vec<String> = self
                .problem
                .buffers
                .iter_enumerated()
                .filter(|(b, buf)| p.lifetimes[*b].is_some() && self.pool_index(*b).is_some_and(|k| self.pools[k].name == pool.name) && buf.alias_of.is_none())
                .map(|(b, _)| self.tensor_of[b].map_or(b.to_string(), |t| t.to_string()))
                .collect();
            let _ = writeln!(
                s,
                "pool {}: {} bytes ({cap}; virtual {}..{}; offsets {}): {}",
                pool.name,
                pool.bytes,
                pool.start,
                pool.end(),
                if pool.offsets_optimal { "optimal" } else { "heuristic" },
                if tensors.is_empty() { "-".to_string() } else { tensors.join(" ") }
            );
        }
        let pooled = !self.pools.is_empty();
        if pooled {
            let _ = writeln!(
                s,
                "{:>6} {:>10} {:>10} {:>10} {:>5} {:>5}  {:<8} {:<12} name",
                "tensor", "bytes", "offset", "end", "first", "last", "pool", "kind"
            );
        } else {
            let _ = writeln!(
                s,
                "{:>6} {:>10} {:>10} {:>10} {:>5} {:>5}  {:<12} name",
                "tensor", "bytes", "offset", "end", "first", "last", "kind"
            );
        }
        for (b, buf) in self.problem.buffers.iter_enumerated() {
            let tensor = self.tensor_of[b].map_or("-".to_string(), |t| t.to_string());
            let name = self.tensor_of[b].and_then(|t| sg.tensors.get(t)).map_or(buf.label.clone(), |t| t.name.clone());
            let (first, last) = p.lifetimes[b]
                .map_or(("-".into(), "-".into()), |l| (l.first.index().to_string(), l.last.index().to_string()));
            let kind = match (buf.alias_of, buf.kind) {
                (Some(src), _) => format!("view of {}", self.tensor_of[src].map_or(src.to_string(), |t| t.to_string())),
                (None, k) => kind_name(k).to_string(),
            };
            let off = p.offsets[b];
            if pooled {
                // Offsets within the buffer's pool.
                let k = self.pool_index(b);
                let (pool, base) = k.map_or(("-", 0), |k| (self.pools[k].name.as_str(), self.pools[k].start));
                let off = off - base;
                let _ = writeln!(
                    s,
                    "{tensor:>6} {:>10} {off:>10} {:>10} {first:>5} {last:>5}  {pool:<8} {kind:<12} {name}",
                    buf.bytes,
                    off + buf.bytes
                );
                continue;
            }
            let _ = writeln!(
                s,
                "{tensor:>6} {:>10} {off:>10} {:>10} {first:>5} {last:>5}  {kind:<12} {name}",
                buf.bytes,
                off + buf.bytes
            );
        }
        s
    }

    /// The pool of buffer `b` (`None` without pools or for a dead buffer).
    pub fn pool_index(&self, b: super::BufferId) -> Option<usize> {
        let s = self.plan.offsets[b];
        self.plan.lifetimes[b]?;
        super::pools::pool_of(&self.pools, s, s + self.problem.buffers[b].bytes)
    }

    /// The JSON report.
    pub fn to_json(&self, sg: &Subgraph<'_>) -> serde_json::Value {
        let p = &self.plan;
        let buffers: Vec<serde_json::Value> = self
            .problem
            .buffers
            .iter_enumerated()
            .map(|(b, buf)| {
                let name =
                    self.tensor_of[b].and_then(|t| sg.tensors.get(t)).map_or(buf.label.clone(), |t| t.name.clone());
                serde_json::json!({
                    "tensor": self.tensor_of[b].map(|t| t.index()),
                    "name": name,
                    "kind": kind_name(buf.kind),
                    "alias_of": buf.alias_of.and_then(|s| self.tensor_of[s]).map(|t| t.index()),
                    "bytes": buf.bytes,
                    "offset": p.offsets[b],
                    "first": p.lifetimes[b].map(|l| l.first.index()),
                    "last": p.lifetimes[b].map(|l| l.last.index()),
                })
            })
            .collect();
        let pools: Vec<serde_json::Value> = self
            .pools
            .iter()
            .map(|q| serde_json::json!({ "name": q.name, "bytes": q.bytes, "capacity": q.capacity, "start": q.start, "section": q.section }))
            .collect();
        let mut json = serde_json::json!({
            "arena_bytes": p.arena_bytes,
            "lower_bound_bytes": p.lower_bound_bytes,
            "tensor_bound_bytes": p.tensor_bound_bytes,
            "overlaps": p.overlaps.iter().map(|o| serde_json::json!({
                "op": o.op.index(),
                "input": self.tensor_of[o.input].map(|t| t.index()),
                "output": self.tensor_of[o.output].map(|t| t.index()),
                "delta": o.delta,
            })).collect::<Vec<_>>(),
            "gap_bytes": p.gap_bytes(),
            "align": p.align,
            "order_optimal": p.order_optimal,
            "offsets_optimal": p.offsets_optimal,
            "peak_bytes": p.peak_bytes,
            "file_order_peak_bytes": p.file_order_peak_bytes,
            "schedule": p.schedule.iter().map(|o| o.index()).collect::<Vec<_>>(),
            "planning_ms": p.stats.planning_time.as_secs_f64() * 1e3,
            "work": p.stats.work,
            "budget_exhausted": p.stats.budget_exhausted,
            "buffers": buffers,
        });
        // Only split plans carry pools, so other reports keep their form.
        if !self.pools.is_empty() {
            json["pools"] = serde_json::Value::Array(pools);
            if let Some(list) = json["buffers"].as_array_mut() {
                for (b, v) in self.problem.buffers.indices().zip(list.iter_mut()) {
                    v["pool"] = self.pool_index(b).map(|k| self.pools[k].name.clone()).into();
                }
            }
        }
        json
    }
}

fn kind_name(k: BufferKind) -> &'static str {
    match k {
        BufferKind::Activation => "activation",
        BufferKind::Input => "input",
        BufferKind::Output => "output",
        BufferKind::InputOutput => "input+output",
        BufferKind::Variable => "variable",
        BufferKind::Scratch => "scratch",
    }
}
