//! A mutation campaign over real models: `cargo run --release -p tflc --example fuzz_campaign
//! -- [--mode bytes|fields|mixed] [[FIRST..]END] [SEED_DIR...]` (default cases `0..50000`: 50,000 mutants of
//! `../shared/models` and `../shared/ops`, read at run time, never copied into the
//! repository; `FIRST..END` runs one shard, so several processes can share a campaign). Each mutant goes
//! through read + inspect, plan + verify and compile (`tflc::internal::fuzzing::models::check_pipeline`)
//! in this process; a panic, a failed verification, an unlinkable module or a case that takes
//! more than 20 s of CPU time (a hang; CPU time, not wall time, so that a campaign under
//! `nice -n 19` on a busy machine does not report starvation as hangs) is reported with the
//! seed and case number to replay it. `--mode`: byte mutation (`models::mutate`), structure-aware
//! mutation through the schema (`models::mutate_fields`), or `mixed` (the default: even cases
//! bytes, odd cases fields); the counts are reported per mode. `--messages N` also collects
//! the error message of every mutant that `tflc::compile` refuses, with its numbers and
//! quoted names replaced by placeholders, and prints the N most frequent templates with one
//! example each (and every message that calls itself a tflc bug, which counts as a failure):
//! the material for reviewing what users read about broken models. docs/FUZZING.md.

use arbitrary::Unstructured;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tflc::internal::fuzzing::models::{check_pipeline, mutate, mutate_fields};
use tflc::internal::testing::Rng;

/// CPU time of this process (user + system) from `/proc/self/stat`, or `None` off Linux.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses): utime is 14th, stime 15th.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10)) // USER_HZ is 100 on Linux
}

/// Counts of one mutation mode.
#[derive(Default)]
struct Counts {
    tried: u64,
    read: u64,
    planned: u64,
    compiled: u64,
    failures: u64,
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pct = |x: u64| 100.0 * x as f64 / self.tried.max(1) as f64;
        write!(
            f,
            "{} mutants, {} read ({:.1} %), {} planned ({:.1} %), {} compiled ({:.1} %), {} failures",
            self.tried,
            self.read,
            pct(self.read),
            self.planned,
            pct(self.planned),
            self.compiled,
            pct(self.compiled),
            self.failures
        )
    }
}

fn main() {
    let mut all: Vec<String> = std::env::args().skip(1).collect();
    let mut mode = "mixed".to_string();
    let mut messages: Option<usize> = None;
    if let Some(i) = all.iter().position(|a| a == "--messages") {
        messages = Some(all.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(40));
        all.drain(i..(i + 2).min(all.len()));
    }
    // template -> (count, first example)
    let mut templates: std::collections::BTreeMap<String, (u64, String)> = std::collections::BTreeMap::new();
    // Refusals that call themselves a tflc bug (with --messages).
    let mut internal = 0u64;
    if let Some(i) = all.iter().position(|a| a == "--mode") {
        mode = all.get(i + 1).cloned().unwrap_or_default();
        all.drain(i..(i + 2).min(all.len()));
    }
    if !["bytes", "fields", "mixed"].contains(&mode.as_str()) {
        eprintln!("--mode is bytes, fields or mixed, not {mode:?}");
        std::process::exit(2);
    }
    let mut args = all.into_iter();
    let range = args.next().unwrap_or_else(|| "50000".into());
    let (first, end): (u64, u64) = match range.split_once("..") {
        Some((a, b)) => (a.parse().unwrap_or(0), b.parse().unwrap_or(50_000)),
        None => (0, range.parse().unwrap_or(50_000)),
    };
    let mutants = end.saturating_sub(first);
    let mut dirs: Vec<PathBuf> = args.map(PathBuf::from).collect();
    if dirs.is_empty() {
        let Some(shared) = tflc::internal::testing::shared_dir_or_skip("fuzz_campaign") else { return };
        dirs = vec![shared.join("models"), shared.join("ops")];
    }
    let mut seeds: Vec<(String, Vec<u8>)> = Vec::new();
    for d in &dirs {
        // The directory and its subdirectories (`../shared/ops` keeps its single-op models
        // in `models/`).
        let mut files = Vec::new();
        let mut pending = vec![d.clone()];
        while let Some(dir) = pending.pop() {
            files.extend(tflc::internal::testing::tflite_files(&dir));
            let mut subdirs: Vec<PathBuf> = std::fs::read_dir(&dir).into_iter().flatten().filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
            subdirs.sort();
            pending.extend(subdirs.into_iter().rev());
        }
        eprintln!("{}: {} seed models", d.display(), files.len());
        for p in files {
            if let Ok(b) = std::fs::read(&p) {
                seeds.push((tflc::internal::testing::model_name(&p), b));
            }
        }
    }
    for (name, bytes) in tflc::internal::testing::models::fuzz_seeds() {
        seeds.push((name.to_string(), bytes));
    }
    if seeds.is_empty() {
        eprintln!("no seed models in {dirs:?}");
        std::process::exit(2);
    }
    // Large seeds compile slowly: mutate them less often so the campaign covers the small
    // ones (and the single-op models) well.
    let weights: Vec<u64> = seeds.iter().map(|(_, b)| if b.len() > 1 << 20 { 1 } else { 8 }).collect();
    let total_weight: u64 = weights.iter().sum();
    let opts = tflc::CompileOptions::default();
    let (mut read, mut planned, mut compiled, mut failures) = (0u64, 0u64, 0u64, 0u64);
    let (mut panics, mut hangs, mut wrong, mut tried) = (0u64, 0u64, 0u64, 0u64);
    let mut slowest = (Duration::ZERO, 0u64, String::new());
    // [bytes, fields]
    let mut per_mode = [Counts::default(), Counts::default()];
    let start = Instant::now();
    std::panic::set_hook(Box::new(|_| {}));
    for case in first..end {
        let mut rng = Rng(case.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x1717);
        let mut pick = rng.next_u64() % total_weight;
        let mut si = 0;
        while pick >= weights[si] {
            pick -= weights[si];
            si += 1;
        }
        let other = (rng.next_u64() % seeds.len() as u64) as usize;
        let noise: Vec<u8> = (0..256).map(|_| rng.next_u64() as u8).collect();
        let mut u = Unstructured::new(&noise);
        let fields = mode == "fields" || (mode == "mixed" && case % 2 == 1);
        let made = if fields {
            match mutate_fields(&seeds[si].1, 3, &mut u) {
                Ok(Some(b)) => Ok(b),
                // A seed that does not verify: bytes instead.
                Ok(None) => mutate(&seeds[si].1, &seeds[other].1, 6, &mut u),
                Err(e) => Err(e),
            }
        } else {
            mutate(&seeds[si].1, &seeds[other].1, 6, &mut u)
        };
        let Ok(bytes) = made else { continue };
        let per = &mut per_mode[fields as usize];
        per.tried += 1;
        tried += 1;
        let (t, cpu) = (Instant::now(), cpu_time());
        let result = std::panic::catch_unwind(|| check_pipeline(&bytes, &opts));
        let took = match (cpu, cpu_time()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => t.elapsed(),
        };
        if took > slowest.0 {
            slowest = (took, case, seeds[si].0.clone());
        }
        if messages.is_some() {
            if let Ok(Err(msg)) = std::panic::catch_unwind(|| tflc::compile(&bytes, &opts).map(drop).map_err(|e| e.to_string())) {
                let entry = templates.entry(template(&msg)).or_insert_with(|| (0, format!("{msg} [case {case}, seed {}]", seeds[si].0)));
                entry.0 += 1;
                // An internal error on a malformed model is a bug too: keep the case.
                if msg.contains("please report") {
                    let _ = std::fs::write(format!("fuzz_campaign_case_{case}.tflite"), &bytes);
                    internal += 1;
                }
            }
        }
        let problem = match result {
            Ok(Ok(r)) => {
                read += r.read as u64;
                planned += r.planned as u64;
                compiled += r.compiled as u64;
                let per = &mut per_mode[fields as usize];
                per.read += r.read as u64;
                per.planned += r.planned as u64;
                per.compiled += r.compiled as u64;
                let hang = took > Duration::from_secs(20);
                hangs += hang as u64;
                hang.then(|| format!("took {took:?} of CPU time (hang)"))
            }
            Ok(Err(e)) => {
                wrong += 1;
                Some(e)
            }
            Err(p) => {
                panics += 1;
                Some(format!(
                    "PANIC: {}",
                    p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
                ))
            }
        };
        if let Some(e) = problem {
            failures += 1;
            per_mode[fields as usize].failures += 1;
            println!("case {case} ({} mode, seed {}): {e}", if fields { "fields" } else { "bytes" }, seeds[si].0);
            let _ = std::fs::write(format!("fuzz_campaign_case_{case}.tflite"), &bytes);
        }
        if (case + 1 - first) % 1_000 == 0 {
            eprintln!(
                "cases {first}..{}: {} mutants, {read} read, {planned} planned, {compiled} compiled, {failures} failures, {:.0} s",
                case + 1,
                case + 1 - first,
                start.elapsed().as_secs_f64()
            );
            eprintln!("  bytes:  {}\n  fields: {}", per_mode[0], per_mode[1]);
        }
    }
    if let Some(n) = messages {
        let mut by_count: Vec<(&String, &(u64, String))> = templates.iter().collect();
        by_count.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
        let total: u64 = templates.values().map(|v| v.0).sum();
        println!("{total} refusals, {} distinct message templates; the {n} most frequent:", templates.len());
        for (t, (count, example)) in by_count.iter().take(n) {
            println!("{count:>7}  {t}\n         e.g. {example}");
        }
        let bugs: Vec<&String> = templates.values().filter(|v| v.1.contains("please report")).map(|v| &v.1).collect();
        println!("{} templates say they are a tflc bug{}", bugs.len(), if bugs.is_empty() { "" } else { ":" });
        for b in bugs {
            println!("         {b}");
        }
    }
    println!("bytes mode:  {}\nfields mode: {}", per_mode[0], per_mode[1]);
    println!(
        "cases {first}..{end}: {mutants} mutants ({tried} made) of {} seeds in {:.0} s: {read} read, {planned} planned and verified, {compiled} compiled; \
         rejected: {} by the reader, {} read but not compiled; \
         {failures} failures ({panics} panics, {hangs} hangs, {wrong} failed verifications or unlinkable modules); slowest case {} ({}): {:.2} s of CPU time",
        seeds.len(),
        start.elapsed().as_secs_f64(),
        tried - read,
        read - compiled,
        slowest.1,
        slowest.2,
        slowest.0.as_secs_f64()
    );
    if failures > 0 || internal > 0 {
        if internal > 0 {
            println!("{internal} mutants got an internal compiler error (saved as fuzz_campaign_case_<case>.tflite)");
        }
        std::process::exit(1);
    }
}

/// `msg` with every number replaced by `N` and every quoted name by `"…"`, so that messages
/// that differ only in indices, sizes and tensor names count as one.
fn template(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut chars = msg.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' {
            for d in chars.by_ref() {
                if d == '"' {
                    break;
                }
            }
            out.push_str("\"…\"");
        } else if c.is_ascii_digit() || (c == '-' && chars.peek().is_some_and(|d| d.is_ascii_digit()) && !out.ends_with(|p: char| p.is_alphanumeric())) {
            while chars.peek().is_some_and(|d| d.is_ascii_digit() || *d == '.' || *d == 'e') {
                chars.next();
            }
            out.push('N');
        } else {
            out.push(c);
        }
    }
    out
}
