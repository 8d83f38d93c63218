//! Compiles every model of the shared corpus that has golden data, and every single-op
//! model of `shared/ops`, into a Rust module in OUT_DIR, and writes `registry.rs`: one
//! `Entry` per compiled model and the reason for each model that did not compile.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn shared() -> Option<PathBuf> {
    println!("cargo:rerun-if-env-changed=TFLC_SHARED");
    println!("cargo:rerun-if-env-changed=TFLC_REQUIRE_SHARED");
    tflc::internal::testing::shared_dir()
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
                    let _ = writeln!(
                        entries,
                        "    Entry {{ name: \"{name}\", arena_bytes: {name}::ARENA_BYTES, ops: &{name}::OPS, make: || Box::new(Wrap(Box::new({name}::Model::new()))) as Box<dyn Runner> }},"
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
                tflc::internal::plan::pools::PoolSpec { name: "fast".into(), bytes: Some(fast), section: None },
                tflc::internal::plan::pools::PoolSpec { name: "slow".into(), bytes: None, section: None },
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
        tflc::internal::testing::missing_shared("tests/e2e build script");
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
