//! Host latency of every compiled model, side by side with TFLite (XNNPACK and reference
//! kernels) and TFLite Micro measured in the same run (`../shared/tools/tflite_latency.py`,
//! needs `pip install numpy tflite-micro ai-edge-litert`), printed as ratios: absolute times
//! drift between these shared machines, ratios measured together do not.
//!
//! `cargo run --release -p tflc-e2e --example host_bench [-- MODEL…] [-- --no-anchor] [-- --per-op]`
//!
//! `--per-op` also prints, per model, each operator's median time over the runs (through the
//! `Observer` of `Model::run_with`), with the kernel function and implementation it ran.
//!
//! Like the anchor script: one thread, all-zero inputs, the median of enough runs to fill
//! about two seconds (at least 3, at most 200).

use std::collections::BTreeMap;
use std::time::Instant;
use tflc_e2e::entries;

fn median_us(mut f: impl FnMut()) -> f64 {
    f();
    let t0 = Instant::now();
    f();
    let once = t0.elapsed().as_secs_f64();
    let n = ((2.0 / once.max(1e-6)) as usize).clamp(3, 200);
    let mut ts: Vec<f64> = (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    ts.sort_by(|a, b| a.total_cmp(b));
    ts[n / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let no_anchor = args.iter().any(|a| a == "--no-anchor");
    let per_op = args.iter().any(|a| a == "--per-op");
    let wanted: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let Some(shared) = tflc_tests::shared_dir() else {
        eprintln!("host_bench needs ../shared (the models); set TFLC_SHARED");
        std::process::exit(2);
    };
    if let Ok(f) = std::env::var("TFLC_TEST_FEATURE") {
        use tflc_runtime::isa::HostSimd;
        match HostSimd::ALL.iter().find(|s| s.name() == f) {
            Some(&s) => tflc_runtime::isa::force(s).unwrap_or_else(|e| panic!("TFLC_TEST_FEATURE={f}: {e}")),
            None => panic!("TFLC_TEST_FEATURE={f}: not a host SIMD implementation"),
        }
    }
    let mut ours = BTreeMap::new();
    let mut kernels = BTreeMap::new();
    let mut breakdowns = Vec::new();
    for e in entries() {
        if e.name.starts_with("op_") || (!wanted.is_empty() && !wanted.iter().any(|w| *w == e.name)) {
            continue;
        }
        let name = e.name;
        let make = e.make;
        kernels.insert(name.to_owned(), e.kernels);
        // Big arenas and deep kernels: a thread with a generous stack.
        let us = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                let mut m = make();
                median_us(|| m.run())
            })
            .expect("spawn")
            .join()
            .expect("bench thread");
        eprintln!("{name}: {us:.1} us");
        ours.insert(name.to_owned(), us);
        if per_op {
            breakdowns.push((name, e.kernels, op_times(make)));
        }
    }
    let mut anchors: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    if !no_anchor {
        let models: Vec<String> =
            ours.keys().map(|n| shared.join("models").join(format!("{n}.tflite")).display().to_string()).collect();
        match std::process::Command::new("python3").arg(shared.join("tools/tflite_latency.py")).args(&models).output() {
            Ok(out) if out.status.success() => {
                if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&out.stdout) {
                    if let Some(map) = v.as_object() {
                        anchors = map.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                    }
                }
            }
            _ => eprintln!("note: the anchor script did not run (pip install numpy tflite-micro ai-edge-litert); printing our times only"),
        }
    }
    println!("\n{:<34} {:>11} {:>11} {:>8} {:>11} {:>8} {:>11} {:>8}", "model", "tflc us", "xnnpack us", "ratio", "tflite-ref", "ratio", "tflm-ref", "ratio");
    for (name, us) in &ours {
        let a = anchors.get(name);
        let col = |k: &str| a.and_then(|a| a[k].as_f64());
        let fmt = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.1}"));
        let ratio = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{:.2}x", us / v));
        let (x, r, m) = (col("tflite_xnnpack"), col("tflite_ref"), col("tflm_ref"));
        println!("{name:<34} {us:>11.1} {:>11} {:>8} {:>11} {:>8} {:>11} {:>8}", fmt(x), ratio(x), fmt(r), ratio(r), fmt(m), ratio(m));
    }
    // Geometric means over the quantized models (not `_f32`) that each engine runs.
    let geomean = |k: &str| {
        let logs: Vec<f64> = ours
            .iter()
            .filter(|(n, _)| !n.ends_with("_f32"))
            .filter_map(|(n, us)| anchors.get(n).and_then(|a| a[k].as_f64()).map(|v| (us / v).ln()))
            .collect();
        (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp()).map_or("-".to_owned(), |g| format!("{g:.2}x ({} models)", logs.len()))
    };
    println!(
        "\ngeomean tflc/engine over the quantized models: xnnpack {}, tflite-ref {}, tflm-ref {}",
        geomean("tflite_xnnpack"),
        geomean("tflite_ref"),
        geomean("tflm_ref")
    );
    // The same over the float32 models (`_f32`; their float convolutions run the packed
    // SIMD variants on a host).
    let geomean_f32 = |k: &str| {
        let logs: Vec<f64> = ours
            .iter()
            .filter(|(n, _)| n.ends_with("_f32"))
            .filter_map(|(n, us)| anchors.get(n).and_then(|a| a[k].as_f64()).map(|v| (us / v).ln()))
            .collect();
        (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp()).map_or("-".to_owned(), |g| format!("{g:.2}x ({} models)", logs.len()))
    };
    println!(
        "geomean tflc/engine over the float32 models: xnnpack {}, tflite-ref {}, tflm-ref {}",
        geomean_f32("tflite_xnnpack"),
        geomean_f32("tflite_ref"),
        geomean_f32("tflm_ref")
    );
    println!("ratio = tflc / engine, measured in this run (below 1.00x: tflc is faster)");
    println!("\nhost SIMD: {} (dot micro-kernels: {}); kernel functions per model, with the implementation each ran:", tflc_runtime::isa::selected().name(), tflc_runtime::isa::DOT);
    for (name, ks) in &kernels {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for k in op_kernels(ks) {
            *counts.entry(k).or_default() += 1;
        }
        let list: Vec<String> = counts.iter().map(|(k, n)| format!("{k} x{n}")).collect();
        println!("  {name}: {}", list.join(", "));
    }
    for (name, ks, ops) in &breakdowns {
        let total: f64 = ops.iter().map(|o| o.1).sum();
        let labels = op_kernels(ks);
        let rows: f64 = ops.iter().zip(&labels).filter(|(_, l)| l.ends_with(ROWS)).map(|(o, _)| o.1).sum();
        println!("\nper operator, {name} (median over runs; sum {total:.1} us, {rows:.1} us in ops through the row driver{ROWS}):");
        println!("  {:>4} {:<20} {:<44} {:>10} {:>6}", "op", "opcode", "kernel [implementation]", "us", "share");
        for (k, (op, us)) in ops.iter().enumerate() {
            let kernel = labels.get(k).map_or("?", String::as_str);
            println!("  {:>4} {:<20} {:<44} {:>10.1} {:>5.1}%", op.index, op.opcode, kernel, us, 100.0 * us / total.max(1e-9));
        }
    }
}

/// The mark of an op that runs through one of `overlap`'s row drivers.
const ROWS: &str = " (rows)";

/// Each op's kernel label, in call order: `function [implementation]`. An op the overlap
/// planner streams calls the row driver (`conv_rows`, `pool_rows`, `depthwise_rows`,
/// `depthwise_row_ranges`) and, inside its closure,
/// the kernel: the two calls are one op, labelled with the kernel and [`ROWS`].
fn op_kernels(ks: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = ks.iter().copied().peekable();
    while let Some(f) = it.next() {
        let driver = matches!(f, "conv_rows" | "pool_rows" | "depthwise_rows" | "depthwise_row_ranges");
        let f = if driver { it.next().unwrap_or(f) } else { f };
        out.push(format!("{f} [{}]{}", tflc_runtime::isa::implementation_of(f), if driver { ROWS } else { "" }));
    }
    out
}

/// Each operator's median time in microseconds over about two seconds of runs, in call order.
fn op_times(make: fn() -> Box<dyn tflc_e2e::Runner>) -> Vec<(tflc_runtime::OpInfo, f64)> {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut m = make();
            let mut first = tflc_e2e::OpTimes::default();
            m.run_timed(&mut first);
            let once: f64 = first.ops.iter().map(|o| o.1).sum();
            let n = ((2.0 / once.max(1e-6)) as usize).clamp(3, 200);
            let mut per_run: Vec<Vec<f64>> = vec![Vec::with_capacity(n); first.ops.len()];
            for _ in 0..n {
                let mut t = tflc_e2e::OpTimes::default();
                m.run_timed(&mut t);
                for (k, (_, s)) in t.ops.iter().enumerate() {
                    per_run[k].push(s * 1e6);
                }
            }
            first
                .ops
                .iter()
                .zip(per_run)
                .map(|((op, _), mut ts)| {
                    ts.sort_by(|a, b| a.total_cmp(b));
                    (*op, ts[ts.len() / 2])
                })
                .collect()
        })
        .expect("spawn")
        .join()
        .expect("bench thread")
}
