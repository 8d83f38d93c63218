//! End-to-end conformance: each compiled model runs the golden run 0 and then run 1 inputs
//! on the same `Model` (state carries over), and its outputs must equal the golden outputs
//! byte for byte; float32 outputs within the float tolerance instead (issue 11: per
//! output, `max |ours - ref| <= 1e-4 * max |ref|`, and the same argmax for a classifier's
//! `[1, classes]` output), the row saying whether they came out bit-identical. Models that
//! did not compile must be listed in `expected_failures.txt` with their reason; a listed
//! model that passes fails the suite, so the list only shrinks.

use std::collections::BTreeMap;
use tflc_e2e::{entries, pooled, HAVE_SHARED, NOT_COMPILED};
use tflc_tests::{missing_shared, shared_dir, Golden};

fn expected_failures() -> BTreeMap<String, String> {
    include_str!("expected_failures.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (m, why) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            (m.to_owned(), why.trim().to_owned())
        })
        .collect()
}

/// How a float32 output compares with the golden one.
#[derive(Default)]
struct FloatDiff {
    /// Largest `|ours - ref| / max |ref|` over the float outputs.
    worst_relative: f64,
    /// Largest `|ours - ref| / max |ref|` of each output (by index; 0 for an output that is not
    /// float32) over the runs of the current host SIMD implementation.
    per_output: Vec<f64>,
    /// The worst and the per-output errors per host SIMD implementation the model ran with
    /// (the packed float variants differ between them: fused multiply-add with AVX2 and
    /// AVX-512, two roundings portable).
    per_simd: Vec<(&'static str, f64, Vec<f64>)>,
    /// Outputs outside the tolerance or with another argmax, described.
    failures: Vec<String>,
}

/// Relative tolerance of a float32 output: `max |ours - ref| <= FLOAT_TOLERANCE * max |ref|`.
const FLOAT_TOLERANCE: f64 = 1e-4;

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn argmax(v: &[f32]) -> Option<usize> {
    (0..v.len()).reduce(|a, b| if v[b] > v[a] { b } else { a })
}

/// Compares float32 output `i` of run `r`, recording its error in `diff`.
fn compare_f32(r: usize, i: usize, shape: &[usize], got: &[u8], want: &[u8], diff: &mut FloatDiff) {
    let (got, want) = (f32s(got), f32s(want));
    let scale = want.iter().fold(0f64, |m, &w| m.max((w as f64).abs()));
    let err = got.iter().zip(&want).fold(0f64, |m, (&g, &w)| if g.is_nan() || w.is_nan() { f64::INFINITY } else { m.max((g as f64 - w as f64).abs()) });
    let relative = if scale > 0.0 { err / scale } else if err == 0.0 { 0.0 } else { f64::INFINITY };
    diff.worst_relative = diff.worst_relative.max(relative);
    if diff.per_output.len() <= i {
        diff.per_output.resize(i + 1, 0.0);
    }
    diff.per_output[i] = diff.per_output[i].max(relative);
    if relative > FLOAT_TOLERANCE {
        diff.failures.push(format!("run {r} output {i}: max |ours - ref| = {err:e} is {relative:.2e} of max |ref| {scale:e} (tolerance {FLOAT_TOLERANCE:e})"));
    }
    let classifier = shape.len() == 2 && shape[0] == 1 && shape[1] > 1;
    if classifier && argmax(&got) != argmax(&want) {
        diff.failures.push(format!("run {r} output {i}: argmax {:?}, the reference's is {:?}", argmax(&got), argmax(&want)));
    }
}

fn golden_for(shared: &std::path::Path, name: &str) -> Option<Golden> {
    Golden::load(&shared.join("golden").join(name)).or_else(|| Golden::load(&shared.join("ops/golden").join(name)))
}

/// The host SIMD implementations to run every model with: the one `TFLC_TEST_FEATURE`
/// names (which must be executable here), else every one this machine executes.
fn simd_variants() -> Vec<tflc_runtime::isa::HostSimd> {
    use tflc_runtime::isa::HostSimd;
    if let Ok(f) = std::env::var("TFLC_TEST_FEATURE") {
        if let Some(&s) = HostSimd::ALL.iter().find(|s| s.name() == f) {
            assert!(s.executable(), "TFLC_TEST_FEATURE={f}, but this machine cannot execute it");
            return vec![s];
        }
    }
    HostSimd::ALL.iter().copied().filter(|s| s.executable()).collect()
}

#[test]
fn end_to_end_conformance() {
    let Some(shared) = shared_dir().filter(|_| HAVE_SHARED) else {
        missing_shared("end-to-end conformance (when build.rs compiled the models)");
        return;
    };
    let expected = expected_failures();
    let mut failures = Vec::new();
    let mut rows = Vec::new();
    for e in entries() {
        let Some(golden) = golden_for(&shared, e.name) else { continue };
        // Large arenas and deep kernels: run on a thread with a generous stack.
        let name = e.name;
        let make = e.make;
        let result = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || -> Result<(usize, usize, Option<FloatDiff>), String> {
                let (mut bytes, mut differing) = (0, 0);
                let mut float: Option<FloatDiff> = None;
                // Every host SIMD implementation this machine executes, each on a fresh model.
                for &simd in &simd_variants() {
                tflc_runtime::isa::force(simd).map_err(|e| format!("{}: {e}", simd.name()))?;
                let before = float.as_ref().map(|f| f.worst_relative);
                if let Some(f) = float.as_mut() {
                    f.worst_relative = 0.0;
                }
                let mut m = make();
                for r in 0..golden.runs() {
                    for (i, inp) in golden.run_inputs(r).iter().enumerate() {
                        let dst = m.input(i);
                        if dst.len() != inp.bytes.len() {
                            return Err(format!("input {i} is {} bytes, golden has {}", dst.len(), inp.bytes.len()));
                        }
                        dst.copy_from_slice(&inp.bytes);
                    }
                    m.run();
                    for (i, want) in golden.run_outputs(r).iter().enumerate() {
                        let got = m.output(i);
                        bytes += want.bytes.len();
                        if want.dtype == "float32" && got.len() == want.bytes.len() {
                            compare_f32(r, i, &want.shape, got, &want.bytes, float.get_or_insert_with(FloatDiff::default));
                        }
                        differing += if got.len() == want.bytes.len() {
                            got.iter().zip(&want.bytes).filter(|(a, b)| a != b).count()
                        } else {
                            want.bytes.len().max(got.len())
                        };
                    }
                }
                if let Some(f) = float.as_mut() {
                    f.per_simd.push((simd.name(), f.worst_relative, std::mem::take(&mut f.per_output)));
                    f.worst_relative = f.worst_relative.max(before.unwrap_or(0.0));
                }
                }
                Ok((bytes, differing, float))
            })
            .and_then(|h| h.join().map_err(|_| std::io::Error::other("panicked")));
        let status = match result {
            Ok(Ok((bytes, 0, None))) => format!("pass ({bytes} output bytes)"),
            Ok(Ok((bytes, 0, Some(_)))) => format!("pass ({bytes} float32 output bytes, bit-identical)"),
            Ok(Ok((bytes, d, Some(f)))) if f.failures.is_empty() => {
                let per: Vec<String> = f
                    .per_simd
                    .iter()
                    .map(|(n, e, outs)| {
                        let outs: Vec<String> = outs.iter().map(|o| format!("{o:.2e}")).collect();
                        format!("{n} {e:.2e} (per output: {})", outs.join(" / "))
                    })
                    .collect();
                format!("pass ({bytes} float32 output bytes, {d} differ; max error of max |ref|: {})", per.join(", "))
            }
            Ok(Ok((bytes, d, Some(f)))) => {
                failures.push(format!("{name}: {}", f.failures.join("; ")));
                format!("FAIL: {d} of {bytes} bytes differ, {}", f.failures.join("; "))
            }
            Ok(Ok((bytes, d, None))) => {
                failures.push(format!("{name}: {d} of {bytes} output bytes differ"));
                format!("FAIL: {d} of {bytes} bytes differ")
            }
            Ok(Err(msg)) => {
                failures.push(format!("{name}: {msg}"));
                format!("FAIL: {msg}")
            }
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                format!("FAIL: {e}")
            }
        };
        if expected.contains_key(name) && status.starts_with("pass") {
            failures.push(format!("{name} passes now: remove it from expected_failures.txt"));
        }
        rows.push((name.to_owned(), e.arena_bytes, status));
    }
    for (name, reason) in NOT_COMPILED {
        let first = reason.lines().next().unwrap_or("");
        match expected.get(*name) {
            Some(_) => rows.push((name.to_string(), 0, format!("unsupported (expected): {first}"))),
            None => {
                failures.push(format!("{name} does not compile: {reason}"));
                rows.push((name.to_string(), 0, format!("FAIL: does not compile: {first}")));
            }
        }
    }
    println!("\n{:<40} {:>10}  status", "model", "arena");
    for (name, arena, status) in &rows {
        println!("{name:<40} {arena:>10}  {status}");
    }
    let passed = rows.iter().filter(|r| r.2.starts_with("pass")).count();
    let names: Vec<&str> = simd_variants().iter().map(|s| s.name()).collect();
    println!("host SIMD implementations run on every model: {}", names.join(", "));
    for s in tflc_runtime::isa::HostSimd::ALL.iter().filter(|s| !s.executable()) {
        println!("UNTESTED host SIMD implementation {}: this machine cannot execute it", s.name());
    }
    println!("\nend-to-end: {passed} passed, {} failed, {} unsupported", failures.len(), NOT_COMPILED.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Corpus models compiled with two memory pools (`--pool fast=SIZE --pool slow`, the fast
/// pool smaller than the single arena) produce, over the golden runs on one `Model`, the
/// very bytes of their single-arena build, which are the golden outputs.
#[test]
fn pooled_models_match_the_single_arena() {
    let Some(shared) = shared_dir().filter(|_| HAVE_SHARED) else {
        missing_shared("pooled end-to-end runs (when build.rs compiled the models)");
        return;
    };
    let all = entries();
    let list = pooled();
    assert!(!list.is_empty() || std::env::var_os("TFLC_E2E_MODELS").is_some(), "no pooled model was compiled");
    for p in list {
        let golden = golden_for(&shared, p.model).unwrap_or_else(|| panic!("{}: no golden data", p.model));
        let single = all.iter().find(|e| e.name == p.model).unwrap_or_else(|| panic!("{}: no single-arena build", p.model));
        assert!(p.io_pools > 0, "{} ({}): no operator spans the two pools", p.model, p.pools);
        let (make_single, make_pooled) = (single.make, p.make);
        let runs = golden.runs();
        let inputs: Vec<Vec<Vec<u8>>> = (0..runs).map(|r| golden.run_inputs(r).iter().map(|i| i.bytes.clone()).collect()).collect();
        let wants: Vec<Vec<Vec<u8>>> = (0..runs).map(|r| golden.run_outputs(r).iter().map(|o| o.bytes.clone()).collect()).collect();
        let (model, pools) = (p.model, p.pools);
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                let (mut a, mut b) = (make_single(), make_pooled());
                for (r, (ins, want)) in inputs.iter().zip(&wants).enumerate() {
                    for (i, x) in ins.iter().enumerate() {
                        a.input(i).copy_from_slice(x);
                        b.input(i).copy_from_slice(x);
                    }
                    a.run();
                    b.run();
                    for (i, w) in want.iter().enumerate() {
                        assert_eq!(b.output(i), a.output(i), "{model} ({pools}) run {r} output {i}: pooled != single arena");
                        assert_eq!(b.output(i), w.as_slice(), "{model} ({pools}) run {r} output {i}: != golden");
                    }
                }
                eprintln!("{model}: pools {pools}: {runs} golden runs bit-exact with the single arena");
            })
            .and_then(|h| h.join().map_err(|_| std::io::Error::other("panicked")))
            .unwrap_or_else(|e| panic!("{model}: {e}"));
    }
}
