//! Host latency of every compiled model, side by side with TFLite (XNNPACK and reference
//! kernels) and TFLite Micro measured in the same run (`../shared/tools/tflite_latency.py`,
//! needs `pip install numpy tflite-micro ai-edge-litert`), printed as ratios: absolute times
//! drift between these shared machines, ratios measured together do not.
//!
//! `cargo run --release -p tflc-e2e --example host_bench [-- MODEL…] [-- --no-anchor]
//! [-- --per-op] [-- --rounds K]`
//!
//! `--per-op` also prints, per model, each operator's median time over the runs (through the
//! `Observer` of `Model::run_with`), with the kernel function and implementation it ran.
//!
//! `--callgrind [-- --runs-per-count N]` counts instructions instead of timing (issue 27,
//! point 3): under `valgrind --tool=callgrind` the CPU shows AVX2 and no AVX-512, so tflc
//! and XNNPACK (through TFLite's Python interpreter, `tools/xnnpack_runs.py`; the
//! interpreter is `$TFLC_PYTHON`, default `python3`, with `numpy ai-edge-litert`) both run
//! their AVX2 kernels. One inference is `(count(N) - count(0)) / N` (default N = 100, each
//! process warming up with one inference first), exact for tflc and within a few hundred
//! instructions for XNNPACK (Python's start-up varies a little). Default models: the int8
//! corpus models. (`--runs N MODEL…` is the child this mode runs: 1 + N inferences, no
//! output.)
//!
//! Like the anchor script: one thread, all-zero inputs, the median of enough runs to fill
//! about two seconds (at least 3, at most 200).
//!
//! **Rounds.** This machine kind is a virtual machine whose speed switches between regimes
//! (seen: the same model object alternating between 118 and 200+ µs medians in blocks of a
//! few hundred runs), so one median per engine can land in different regimes for tflc and
//! for the engine it is compared with. The bench therefore runs `K` rounds (default 5); in
//! each round, model by model, tflc's median and then the anchor script's medians for the
//! same model, back to back. Every engine, tflc included, gets the same treatment: the
//! table reports each one's best (lowest) median over the rounds, and the ratio of those;
//! each round's own geometric mean is printed too, so the noise is visible.

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
    let rounds: usize = args
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1))
        .map_or(5, |k| k.parse().unwrap_or_else(|_| panic!("--rounds {k}: not a number")))
        .max(1);
    let wanted: Vec<&String> = wanted.into_iter().filter(|w| w.parse::<usize>().is_err()).collect();
    let value_of = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).map(|v| v.parse::<usize>().unwrap_or_else(|_| panic!("{flag} {v}: not a number")));
    if let Some(n) = value_of("--runs") {
        return run_only(&wanted, n);
    }
    if args.iter().any(|a| a == "--callgrind") {
        return callgrind(&shared, &wanted, value_of("--runs-per-count").unwrap_or(100).max(1));
    }
    let models: Vec<&tflc_e2e::Entry> =
        entries_list().iter().filter(|e| !e.name.starts_with("op_") && (wanted.is_empty() || wanted.iter().any(|w| *w == e.name))).collect();
    let mut kernels = BTreeMap::new();
    // Per model: tflc's median per round, and each anchor engine's median per round.
    let mut ours_rounds: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut anchor_rounds: BTreeMap<String, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    let mut anchor_missing = false;
    for round in 0..rounds {
        for e in &models {
            let name = e.name;
            let make = e.make;
            kernels.insert(name.to_owned(), e.ops);
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
            ours_rounds.entry(name.to_owned()).or_default().push(us);
            let mut line = format!("round {}/{rounds} {name}: tflc {us:.1} us", round + 1);
            if !no_anchor && !anchor_missing {
                match anchor(&shared, name) {
                    Some(a) => {
                        for (engine, v) in a {
                            line += &format!(", {engine} {v:.1}");
                            anchor_rounds.entry(name.to_owned()).or_default().entry(engine).or_default().push(v);
                        }
                    }
                    None => {
                        anchor_missing = true;
                        eprintln!("note: the anchor script did not run (pip install numpy tflite-micro ai-edge-litert); printing our times only");
                    }
                }
            }
            eprintln!("{line}");
        }
    }
    let mut breakdowns = Vec::new();
    if per_op {
        for e in &models {
            breakdowns.push((e.name, e.ops, op_times(e.make)));
        }
    }
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let ours: BTreeMap<String, f64> = ours_rounds.iter().map(|(n, v)| (n.clone(), best(v))).collect();
    let anchors: BTreeMap<String, serde_json::Value> = anchor_rounds
        .iter()
        .map(|(n, engines)| (n.clone(), serde_json::Value::Object(engines.iter().map(|(k, v)| (k.clone(), serde_json::json!(best(v)))).collect())))
        .collect();
    // Each round on its own: the ratio of that round's two medians per model.
    let round_ratio = |n: &str, r: usize| -> Option<f64> {
        let ours = ours_rounds.get(n)?.get(r)?;
        let x = anchor_rounds.get(n)?.get("tflite_xnnpack")?.get(r)?;
        Some(ours / x)
    };
    println!(
        "\n{:<34} {:>11} {:>11} {:>8} {:>11} {:>8} {:>11} {:>8}  xnnpack ratio per round",
        "model", "tflc us", "xnnpack us", "ratio", "tflite-ref", "ratio", "tflm-ref", "ratio"
    );
    for (name, us) in &ours {
        let a = anchors.get(name);
        let col = |k: &str| a.and_then(|a| a[k].as_f64());
        let fmt = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.1}"));
        let ratio = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{:.2}x", us / v));
        let (x, r, m) = (col("tflite_xnnpack"), col("tflite_ref"), col("tflm_ref"));
        let per_round: Vec<String> = (0..rounds).filter_map(|k| round_ratio(name, k)).map(|v| format!("{v:.2}x")).collect();
        println!(
            "{name:<34} {us:>11.1} {:>11} {:>8} {:>11} {:>8} {:>11} {:>8}  {}",
            fmt(x),
            ratio(x),
            fmt(r),
            ratio(r),
            fmt(m),
            ratio(m),
            per_round.join(" ")
        );
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
    for r in 0..rounds {
        let ratios: Vec<(&String, f64)> = ours_rounds.keys().filter(|n| !n.ends_with("_f32")).filter_map(|n| round_ratio(n, r).map(|v| (n, v))).collect();
        if let Some((worst, max)) = ratios.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1)) {
            let g = (ratios.iter().map(|(_, v)| v.ln()).sum::<f64>() / ratios.len() as f64).exp();
            println!("round {}: tflc/xnnpack geomean {g:.2}x over {} quantized models, highest {max:.2}x ({worst})", r + 1, ratios.len());
        }
    }
    println!(
        "ratio = tflc / engine, each side's lowest median over {rounds} round(s), every round measuring tflc and then the engines model by model (below 1.00x: tflc is faster)"
    );
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

/// The anchor script's medians for one model (`engine -> us`; an engine that failed on it is
/// left out), or `None` when the script cannot run or no engine ran.
fn anchor(shared: &std::path::Path, name: &str) -> Option<Vec<(String, f64)>> {
    let model = shared.join("models").join(format!("{name}.tflite"));
    let out = std::process::Command::new("python3").arg(shared.join("tools/tflite_latency.py")).arg(&model).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    let engines = v.get(name)?.as_object()?;
    let medians: Vec<(String, f64)> = engines.iter().filter_map(|(k, v)| v.as_f64().map(|v| (k.clone(), v))).collect();
    // Every engine failing is the script's packages missing, not three crashes.
    (!medians.is_empty()).then_some(medians)
}

/// Every compiled model.
fn entries_list() -> &'static [tflc_e2e::Entry] {
    static LIST: std::sync::OnceLock<Vec<tflc_e2e::Entry>> = std::sync::OnceLock::new();
    LIST.get_or_init(entries)
}

/// The mark of an op that runs through one of `overlap`'s row drivers.
const ROWS: &str = " (rows)";

/// Each op's kernel label, in call order: `function [implementation]`, marked [`ROWS`] when
/// the overlap planner streams it through a row driver (`OpInfo::kernel` says `…, by rows`).
fn op_kernels(ops: &[tflc_runtime::OpInfo]) -> Vec<String> {
    ops.iter()
        .map(|o| {
            let (f, rows) = match o.kernel.strip_suffix(", by rows") {
                Some(f) => (f, true),
                None => (o.kernel, false),
            };
            format!("{f} [{}]{}", tflc_runtime::isa::implementation_of(f), if rows { ROWS } else { "" })
        })
        .collect()
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

/// `--runs N`: 1 + N inferences of each named model, nothing printed (the child process
/// [`callgrind`] counts).
fn run_only(wanted: &[&String], n: usize) {
    eprintln!("host SIMD: {}", tflc_runtime::isa::selected().name());
    for e in entries_list().iter().filter(|e| wanted.iter().any(|w| *w == e.name)) {
        let make = e.make;
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                let mut m = make();
                for _ in 0..=n {
                    m.run();
                }
            })
            .expect("spawn")
            .join()
            .expect("run thread");
    }
}

/// The instructions `valgrind --tool=callgrind` counts for `cmd` (its `Collected :` line).
fn callgrind_count(cmd: &[&std::ffi::OsStr]) -> Option<u64> {
    let out = std::process::Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .args(cmd)
        .env("PYTHONHASHSEED", "0")
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let why = err.lines().rfind(|l| !l.starts_with("==") && !l.trim().is_empty()).unwrap_or("no message");
        eprintln!("callgrind: {:?} failed: {why}", cmd.iter().map(|c| c.to_string_lossy()).collect::<Vec<_>>().join(" "));
        return None;
    }
    if let Some(simd) = err.lines().find_map(|l| l.strip_prefix("host SIMD: ")) {
        SIMD_UNDER_VALGRIND.get_or_init(|| simd.to_owned());
    }
    err.lines().find_map(|l| l.split("Collected :").nth(1)).and_then(|v| v.trim().parse().ok())
}

/// What tflc selected under valgrind (its child's report).
static SIMD_UNDER_VALGRIND: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// `--callgrind`: instructions per inference of tflc and XNNPACK, both on AVX2 (valgrind's
/// CPU), and their ratio.
fn callgrind(shared: &std::path::Path, wanted: &[&String], n: usize) {
    let me = std::env::current_exe().expect("own path");
    let python = std::env::var("TFLC_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/xnnpack_runs.py");
    let models: Vec<&tflc_e2e::Entry> = entries_list()
        .iter()
        .filter(|e| !e.name.starts_with("op_") && if wanted.is_empty() { e.name.ends_with("_int8") } else { wanted.iter().any(|w| *w == e.name) })
        .collect();
    println!("instructions per inference under valgrind --tool=callgrind (AVX2 on both sides), (count({n}) - count(0)) / {n}");
    println!("{:<36} {:>14} {:>14} {:>8}", "model", "tflc", "xnnpack", "ratio");
    let mut ratios = Vec::new();
    for e in models {
        let per = |runs: &dyn Fn(usize) -> Option<u64>| -> Option<f64> { Some((runs(n)? as f64 - runs(0)? as f64) / n as f64) };
        let ours = per(&|k| {
            let k = k.to_string();
            callgrind_count(&[me.as_os_str(), "--runs".as_ref(), k.as_ref(), e.name.as_ref()])
        });
        let model = shared.join("models").join(format!("{}.tflite", e.name));
        let theirs = per(&|k| {
            let k = k.to_string();
            callgrind_count(&[python.as_ref(), script.as_os_str(), model.as_os_str(), k.as_ref()])
        });
        let fmt = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.0}"));
        let ratio = ours.zip(theirs).map(|(a, b)| a / b);
        if let Some(r) = ratio {
            ratios.push(r);
        }
        println!("{:<36} {:>14} {:>14} {:>8}", e.name, fmt(ours), fmt(theirs), ratio.map_or("-".to_owned(), |r| format!("{r:.2}x")));
    }
    println!("tflc's host SIMD implementation under valgrind: {}", SIMD_UNDER_VALGRIND.get().map_or("?", |s| s.as_str()));
    if !ratios.is_empty() {
        let geo = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
        println!("geomean tflc/xnnpack: {geo:.2}x over {} models", ratios.len());
    }
}
