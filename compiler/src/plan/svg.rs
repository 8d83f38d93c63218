//! A picture of a plan: steps across, offsets down, one labelled box per buffer, the peak marked.

use super::{BufferKind, MemoryPlan, Problem};
use std::fmt::Write;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn colour(kind: BufferKind, i: usize) -> &'static str {
    const ACT: [&str; 6] = ["#8ecae6", "#a8dadc", "#bde0fe", "#cdb4db", "#b7e4c7", "#ffd6a5"];
    match kind {
        BufferKind::Input | BufferKind::InputOutput => "#f4a261",
        BufferKind::Output => "#e76f51",
        BufferKind::Variable => "#adb5bd",
        BufferKind::Scratch => "#ffe066",
        BufferKind::Activation => ACT[i % ACT.len()],
    }
}

/// The picture's margins (left, top, right, bottom), step width and plot size.
fn layout(plan: &MemoryPlan) -> ((f64, f64, f64, f64), f64, f64, f64) {
    let steps = plan.schedule.len().max(1);
    let step_w = (1100.0 / steps as f64).clamp(6.0, 48.0);
    ((90.0, 60.0, 30.0, 60.0), step_w, step_w * steps as f64, 640.0)
}

/// The width and height of [`render`]'s picture of `plan`.
fn size(plan: &MemoryPlan) -> (f64, f64) {
    let ((left, top, right, bottom), _, plot_w, plot_h) = layout(plan);
    (left + plot_w + right, top + plot_h + bottom)
}

/// Renders several plans (every subgraph of a model: `(title, problem, plan)`, the entry
/// subgraph first) as one SVG document: each plan's picture as [`render`] draws it, one
/// below the other, under its title (a `<text class="subgraph">`).
pub fn render_all(parts: &[(String, &Problem, &MemoryPlan)]) -> String {
    const TITLE: f64 = 30.0;
    let w = parts.iter().map(|(_, _, p)| size(p).0).fold(0.0, f64::max);
    let h: f64 = parts.iter().map(|(_, _, p)| TITLE + size(p).1).sum();
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let mut y = 0.0;
    for (title, problem, plan) in parts {
        let _ = writeln!(s, r#"<text class="subgraph" x="10" y="{:.0}" font-size="17" font-weight="bold">{}</text>"#, y + 22.0, esc(title));
        y += TITLE;
        // A nested <svg> keeps the picture's own coordinates.
        let picture = render(problem, plan);
        s.push_str(&picture.replacen("<svg ", &format!(r#"<svg x="0" y="{y:.0}" "#), 1));
        y += size(plan).1;
    }
    let _ = writeln!(s, "</svg>");
    s
}

/// Renders `plan` as a standalone SVG document.
pub fn render(problem: &Problem, plan: &MemoryPlan) -> String {
    let steps = plan.schedule.len().max(1);
    let arena = plan.arena_bytes.max(1);
    let ((left, top, _, _), step_w, plot_w, plot_h) = layout(plan);
    let y_of = |bytes: u64| top + plot_h * bytes as f64 / arena as f64;
    let (w, h) = size(plan);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="22" font-size="15" font-weight="bold">arena {} B, lower bound {} B{}, gap {} B; order {}, offsets {}</text>"#,
        plan.arena_bytes,
        plan.lower_bound_bytes,
        if plan.overlaps.is_empty() {
            String::new()
        } else {
            format!(" (tensor-level {} B; {} overlapped pairs, red)", plan.tensor_bound_bytes, plan.overlaps.len())
        },
        plan.gap_bytes(),
        if plan.order_optimal { "optimal" } else { "heuristic" },
        if plan.offsets_optimal { "optimal" } else { "heuristic" },
    );
    let _ = writeln!(
        s,
        r##"<text x="{left}" y="40" fill="#555">steps across (operator order), byte offsets down; hover a box for details</text>"##
    );
    // Frame and axes.
    let _ = writeln!(
        s,
        r##"<rect x="{left}" y="{top}" width="{plot_w:.1}" height="{plot_h:.1}" fill="#f8f9fa" stroke="#333"/>"##
    );
    for k in 0..=4u64 {
        let bytes = arena * k / 4;
        let y = y_of(bytes);
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#333">{bytes}</text>"##,
            left - 6.0,
            y + 4.0
        );
    }
    let label_every = (steps / 40).max(1);
    for st in (0..steps).step_by(label_every) {
        let x = left + step_w * (st as f64 + 0.5);
        let op = plan.schedule.get(st).map_or(String::new(), |o| o.index().to_string());
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#333">{op}</text>"##,
            top + plot_h + 16.0
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="start" fill="#555">operator (file index) at each step</text>"##,
        left,
        top + plot_h + 36.0
    );

    // Live bytes per step, for the peak marker.
    let mut live = vec![0u64; steps];
    for (b, buf) in problem.buffers.iter_enumerated() {
        if buf.alias_of.is_some() {
            continue;
        }
        if let Some(lt) = plan.lifetimes.get(b).copied().flatten() {
            for l in live.iter_mut().take(lt.last.index() + 1).skip(lt.first.index()) {
                *l += buf.bytes;
            }
        }
    }
    let (peak_step, peak) =
        live.iter().copied().enumerate().max_by_key(|&(i, v)| (v, std::cmp::Reverse(i))).unwrap_or((0, 0));

    // Boxes (roots only: aliases share their source's box and are listed in its tooltip).
    for (b, buf) in problem.buffers.iter_enumerated() {
        if buf.alias_of.is_some() {
            continue;
        }
        let Some(lt) = plan.lifetimes.get(b).copied().flatten() else { continue };
        if buf.bytes == 0 {
            continue;
        }
        let off = plan.offsets[b];
        let x = left + step_w * lt.first.index() as f64;
        let bw = step_w * (lt.last.index() - lt.first.index() + 1) as f64;
        let y = y_of(off);
        let bh = (y_of(off + buf.bytes) - y).max(1.0);
        let aliases: Vec<String> =
            problem.buffers.iter().filter(|a| a.alias_of == Some(b)).map(|a| esc(&a.label)).collect();
        let alias_note = if aliases.is_empty() { String::new() } else { format!("\nviews: {}", aliases.join(", ")) };
        let _ = writeln!(
            s,
            r##"<g><title>{b} {} ({:?})&#10;{} bytes at {}..{}&#10;steps {}..={}{}</title><rect x="{x:.1}" y="{y:.1}" width="{bw:.1}" height="{bh:.1}" fill="{}" stroke="#1d3557" stroke-width="0.6"/>"##,
            esc(&buf.label),
            buf.kind,
            buf.bytes,
            off,
            off + buf.bytes,
            lt.first.index(),
            lt.last.index(),
            alias_note.replace('\n', "&#10;"),
            colour(buf.kind, b.index()),
        );
        let (id, name) = buf.label.split_once(' ').unwrap_or((buf.label.as_str(), ""));
        let lines = [format!("{id} {} B", buf.bytes), name.trim_matches('"').to_string()];
        let max_chars = (bw / 6.2) as usize;
        for (k, line) in lines.iter().enumerate() {
            if line.is_empty() || bh < 13.0 * (k + 1) as f64 || max_chars < 4 {
                break;
            }
            let shown: String = line.chars().take(max_chars).collect();
            let weight = if k == 0 { "bold" } else { "normal" };
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" fill="#111" font-weight="{weight}">{}</text>"##,
                x + 3.0,
                y + 11.0 + 12.0 * k as f64,
                esc(&shown)
            );
        }
        let _ = writeln!(s, "</g>");
    }

    // Overlapped pairs: the shared bytes at the operator's step, hatched in red.
    for o in &plan.overlaps {
        let (Some(x0), Some(y0)) = (plan.offsets.get(o.input), plan.offsets.get(o.output)) else { continue };
        let (xb, yb) = (problem.buffers[o.input].bytes, problem.buffers[o.output].bytes);
        let (lo, hi) = ((*x0).max(*y0), (x0 + xb).min(y0 + yb));
        let Some(step) = plan.schedule.iter().position(|&op| op == o.op) else { continue };
        if lo >= hi {
            continue;
        }
        let x = left + step_w * step as f64;
        let (y, bh) = (y_of(lo), (y_of(hi) - y_of(lo)).max(1.0));
        let _ = writeln!(
            s,
            r##"<g><title>{}: {} written over the consumed part of {} (output at {:+} bytes from the input; {} bytes shared)</title><rect x="{x:.1}" y="{y:.1}" width="{step_w:.1}" height="{bh:.1}" fill="#d62828" fill-opacity="0.25" stroke="#d62828" stroke-width="1.2" stroke-dasharray="2,2"/></g>"##,
            o.op,
            esc(&problem.buffers[o.output].label),
            esc(&problem.buffers[o.input].label),
            o.delta,
            hi - lo
        );
    }

    // Peak marker and arena line.
    let px = left + step_w * (peak_step as f64 + 0.5);
    let anchor = if peak_step * 3 < steps {
        "start"
    } else if peak_step * 3 > steps * 2 {
        "end"
    } else {
        "middle"
    };
    let _ = writeln!(
        s,
        r##"<line x1="{px:.1}" y1="{top}" x2="{px:.1}" y2="{:.1}" stroke="#d62828" stroke-width="2" stroke-dasharray="6,4"/>"##,
        top + plot_h
    );
    let _ = writeln!(
        s,
        r##"<text x="{px:.1}" y="{:.1}" fill="#d62828" text-anchor="{anchor}" font-weight="bold">peak {peak} B live at step {peak_step}</text>"##,
        top - 6.0
    );
    // Legend.
    let legend = [
        ("input", BufferKind::Input),
        ("output", BufferKind::Output),
        ("activation", BufferKind::Activation),
        ("variable", BufferKind::Variable),
        ("scratch", BufferKind::Scratch),
    ];
    let mut lx = left + plot_w - 5.0 * 92.0;
    let ly = top + plot_h + 30.0;
    for (name, kind) in legend {
        let _ = writeln!(
            s,
            r##"<rect x="{lx:.1}" y="{ly:.1}" width="12" height="12" fill="{}" stroke="#1d3557" stroke-width="0.6"/><text x="{:.1}" y="{:.1}" fill="#333">{name}</text>"##,
            colour(kind, 0),
            lx + 16.0,
            ly + 10.0
        );
        lx += 92.0;
    }
    if plan.lower_bound_bytes < plan.arena_bytes {
        let y = y_of(plan.lower_bound_bytes);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#2a9d8f" stroke-width="1.5" stroke-dasharray="3,3"/><text x="{:.1}" y="{:.1}" fill="#2a9d8f" text-anchor="end">lower bound {} B</text>"##,
            left + plot_w,
            left + plot_w - 4.0,
            y - 4.0,
            plan.lower_bound_bytes
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}
