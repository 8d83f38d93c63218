//! Compiles every model of the shared corpus that has golden data, and every single-op
//! model of `shared/ops`, into a Rust module in OUT_DIR, and writes `registry.rs`: one
//! `Entry` per compiled model and the reason for each model that did not compile.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn shared() -> Option<PathBuf> {
    println!("cargo:rerun-if-env-changed=TFLC_SHARED");
    println!("cargo:rerun-if-env-changed=TFLC_REQUIRE_SHARED");
    tflc::testing::shared_dir()
}

fn models(shared: &Path) -> Vec<(String, PathBuf)> {
    let mut v = Vec::new();
    for (models, golden) in [("models", "golden"), ("ops/models", "ops/golden")] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(shared.join(models))
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "tflite"))
            .collect();
        files.sort();
        for f in files {
            let name = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            if shared.join(golden).join(&name).join("index.json").is_file() {
                v.push((name, f));
            }
        }
    }
    v
}

/// The runtime kernel functions a generated module calls, in the order of its calls
/// (`kernels::<op>::<function>(`), one per op, for the benchmark's report. Of the calls that
/// codegen emits per target class (`#[cfg(target_arch = "arm")]`, `#[cfg(target_arch =
/// "x86_64")]`, their negations and combinations), only those this build compiles.
fn kernel_calls(code: &str) -> Vec<String> {
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let mut kept = String::new();
    // While skipping another class's call: the indentation of its `#[cfg]`; the call ends
    // at the first line with that indentation ending in `;`.
    let mut skip: Option<usize> = None;
    // A `#[cfg(` that prettyplease broke over several lines: its indentation and text.
    let mut open: Option<(usize, String)> = None;
    for line in code.lines() {
        let indent = line.len() - line.trim_start().len();
        if let Some(at) = skip {
            if indent == at && line.trim_end().ends_with(';') {
                skip = None;
            }
            continue;
        }
        let t = line.trim();
        if let Some((at, mut text)) = open.take() {
            text.push_str(t);
            if t.ends_with(")]") {
                if !cfg_holds(&text, &arch) {
                    skip = Some(at);
                }
            } else {
                open = Some((at, text));
            }
            continue;
        }
        if t.starts_with("#[cfg(") && indent > 0 {
            if t.ends_with(")]") {
                if !cfg_holds(t, &arch) {
                    skip = Some(indent);
                }
            } else {
                open = Some((indent, t.to_owned()));
            }
            continue;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    // One entry per op (the first call after its `observer.before`; an op may call its
    // kernel more than once, e.g. SPLIT once per output), two for a row driver: the driver
    // and the kernel its closure calls.
    let drivers = ["conv_rows", "pool_rows", "depthwise_rows", "depthwise_row_ranges"];
    let mut v = Vec::new();
    for op in kept.split("observer.before(").skip(1) {
        let calls = calls_in(op);
        if let Some(first) = calls.first() {
            v.push(first.clone());
            if drivers.contains(&first.as_str()) {
                v.extend(calls.get(1).cloned());
            }
        }
    }
    v
}

/// The `kernels::<op>::<function>(` calls in `code`, in order.
fn calls_in(code: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("kernels::") {
        rest = &rest[i + "kernels::".len()..];
        let end = rest.find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == ':')).unwrap_or(rest.len());
        if rest[end..].starts_with('(') {
            if let Some((_, f)) = rest[..end].rsplit_once("::") {
                v.push(f.to_owned());
            }
        }
        rest = &rest[end..];
    }
    v
}

/// Whether `#[cfg(PRED)]` holds for target architecture `arch`: the `target_arch`
/// predicates under `not`, `any` and `all` that codegen's per-target arms use.
fn cfg_holds(attr: &str, arch: &str) -> bool {
    let pred: String = attr.trim().trim_start_matches("#[cfg(").trim_end_matches(")]").chars().filter(|c| !c.is_whitespace()).collect();
    fn eval(p: &str, arch: &str) -> bool {
        if let Some(inner) = p.strip_prefix("not(").and_then(|r| r.strip_suffix(')')) {
            return !eval(inner, arch);
        }
        for (head, all) in [("any(", false), ("all(", true)] {
            if let Some(inner) = p.strip_prefix(head).and_then(|r| r.strip_suffix(')')) {
                let mut parts = Vec::new();
                let (mut depth, mut from) = (0, 0);
                for (i, c) in inner.char_indices() {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        ',' if depth == 0 => {
                            parts.push(&inner[from..i]);
                            from = i + 1;
                        }
                        _ => {}
                    }
                }
                parts.push(&inner[from..]);
                let parts = parts.into_iter().filter(|q| !q.is_empty());
                return if all { parts.into_iter().all(|q| eval(q, arch)) } else { parts.into_iter().any(|q| eval(q, arch)) };
            }
        }
        p.strip_prefix("target_arch=\"").and_then(|r| r.strip_suffix('"')).is_some_and(|a| a == arch)
    }
    eval(&pred, arch)
}

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let mut registry = String::from("// Written by build.rs.\n");
    let mut entries = String::new();
    let mut unsupported = String::new();
    let mut have_shared = false;
    if let Some(shared) = shared() {
        have_shared = true;
        println!("cargo:rerun-if-changed={}", shared.join("models").display());
        println!("cargo:rerun-if-changed={}", shared.join("ops/models").display());
        // TFLC_E2E_MODELS=a,b,c compiles only those (the aarch64 run under QEMU).
        println!("cargo:rerun-if-env-changed=TFLC_E2E_MODELS");
        let only: Option<Vec<String>> = std::env::var("TFLC_E2E_MODELS").ok().map(|v| v.split(',').map(|s| s.trim().to_owned()).collect());
        for (name, path) in models(&shared) {
            if only.as_ref().is_some_and(|o| !o.contains(&name)) {
                continue;
            }
            println!("cargo:rerun-if-changed={}", path.display());
            let bytes = std::fs::read(&path).expect("read model");
            let opts = tflc::CompileOptions {
                model_name: format!("{name}.tflite"),
                ..tflc::CompileOptions::default()
            };
            match tflc::compile(&bytes, &opts) {
                Ok(c) => {
                    let file = out.join(format!("{name}.rs"));
                    tflc::write_if_changed(&file, c.code.as_bytes()).expect("write module");
                    let _ = writeln!(registry, "pub mod {name} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{name}.rs\")); }}");
                    let kernels: Vec<String> = kernel_calls(&c.code).iter().map(|k| format!("{k:?}")).collect();
                    let _ = writeln!(
                        entries,
                        "    Entry {{ name: \"{name}\", arena_bytes: {name}::ARENA_BYTES, kernels: &[{}], make: || Box::new(Wrap(Box::new({name}::Model::new()))) as Box<dyn Runner> }},",
                        kernels.join(", ")
                    );
                    let _ = writeln!(registry, "impl Runner for Wrap<{name}::Model> {{ fn input(&mut self, i: usize) -> &mut [u8] {{ self.0.input_bytes_mut(i) }} fn run(&mut self) {{ self.0.run() }} fn output(&self, i: usize) -> &[u8] {{ self.0.output_bytes(i) }} fn run_timed(&mut self, t: &mut OpTimes) {{ t.restart(); self.0.run_with(t) }} }}");
                }
                Err(e) => {
                    let msg = e.to_string().replace('\\', "\\\\").replace('"', "\\\"");
                    let _ = writeln!(unsupported, "    (\"{name}\", \"{msg}\"),");
                }
            }
        }
    }
    // Corpus models again with memory pools (`--pool fast=SIZE --pool slow`): the fast pool
    // too small for the whole arena, so tensors land in both and operators span them.
    let mut pooled = String::new();
    if let Some(shared) = shared().filter(|_| have_shared) {
        let only: Option<Vec<String>> = std::env::var("TFLC_E2E_MODELS").ok().map(|v| v.split(',').map(|s| s.trim().to_owned()).collect());
        for (model, fast) in [("mlperf_kws_dscnn_int8", 4u64 << 10), ("tflm_micro_speech_int8", 2 << 10), ("mlperf_vww_mobilenet_int8", 16 << 10), ("tflm_person_detect_int8", 32 << 10)] {
            if only.as_ref().is_some_and(|o| !o.iter().any(|m| m == model)) {
                continue;
            }
            let Ok(bytes) = std::fs::read(shared.join("models").join(format!("{model}.tflite"))) else { continue };
            let pools = vec![
                tflc::plan::pools::PoolSpec { name: "fast".into(), bytes: Some(fast), section: None },
                tflc::plan::pools::PoolSpec { name: "slow".into(), bytes: None, section: None },
            ];
            let opts = tflc::CompileOptions { model_name: format!("{model}.tflite"), pools, ..tflc::CompileOptions::default() };
            let c = tflc::compile(&bytes, &opts).unwrap_or_else(|e| panic!("compile {model} with pools: {e}"));
            let module = format!("{model}_pools");
            let layout: Vec<String> = c.plan.pools.iter().map(|p| format!("{} {} B", p.name, p.bytes)).collect();
            let mixed = c.code.matches("io_pools(").count();
            tflc::write_if_changed(&out.join(format!("{module}.rs")), c.code.as_bytes()).expect("write module");
            let _ = writeln!(registry, "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}");
            let _ = writeln!(registry, "impl Runner for Wrap<{module}::Model> {{ fn input(&mut self, i: usize) -> &mut [u8] {{ self.0.input_bytes_mut(i) }} fn run(&mut self) {{ self.0.run() }} fn output(&self, i: usize) -> &[u8] {{ self.0.output_bytes(i) }} fn run_timed(&mut self, t: &mut OpTimes) {{ t.restart(); self.0.run_with(t) }} }}");
            let _ = writeln!(
                pooled,
                "    Pooled {{ model: \"{model}\", pools: \"{}\", io_pools: {mixed}, make: || Box::new(Wrap(Box::new({module}::Model::new()))) as Box<dyn Runner> }},",
                layout.join(", ")
            );
        }
    }
    let _ = writeln!(registry, "pub fn pooled() -> Vec<Pooled> {{ vec![\n{pooled}] }}");
    if !have_shared {
        // Under TFLC_REQUIRE_SHARED=1 the build fails here, naming the path tried.
        tflc::testing::missing_shared("tests/e2e build script");
        // Visible in every cargo run (tests capture their own output): say what is skipped.
        println!(
            "cargo:warning=SKIP: ../shared (corpus models and TFLite Micro golden data) is missing: \
             the conformance, end-to-end, corpus snapshot and firmware suites are skipped; set TFLC_SHARED to its path"
        );
    }
    let _ = writeln!(registry, "pub const HAVE_SHARED: bool = {have_shared};");
    let _ = writeln!(registry, "pub fn entries() -> Vec<Entry> {{ vec![\n{entries}] }}");
    let _ = writeln!(registry, "pub const NOT_COMPILED: &[(&str, &str)] = &[\n{unsupported}];");
    std::fs::write(out.join("registry.rs"), registry).expect("write registry");
}
