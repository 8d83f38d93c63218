//! Turns every `snapshots/*.snap` back into the Rust module it holds (the text after the
//! insta header) in OUT_DIR, so that the snapshotted code is exactly what gets compiled.
//! Snapshots whose weights live in a file (corpus models) get that file regenerated from
//! `../shared/models`; without `../shared` they are left out, and the build says so. Every
//! builder model is also compiled with `align: 64` (`ALIGNED`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The alignment of the aligned builds.
const ALIGN: usize = 64;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let snap_dir = root.join("snapshots");
    println!("cargo:rerun-if-changed={}", snap_dir.display());
    println!("cargo:rerun-if-env-changed=TFLC_SHARED");
    println!("cargo:rerun-if-env-changed=TFLC_REQUIRE_SHARED");
    let shared = tflc::internal::testing::shared_dir_path();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let mut snaps: Vec<PathBuf> = std::fs::read_dir(&snap_dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "snap"))
        .collect();
    snaps.sort();
    let mut registry = String::new();
    let mut runners = String::new();
    for snap in snaps {
        println!("cargo:rerun-if-changed={}", snap.display());
        let name = snap.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(&snap).expect("read snapshot");
        // insta's header is `---\n…\n---\n`; the module follows.
        let body = text.splitn(3, "---\n").nth(2).expect("snapshot header");
        if body.contains("include_bytes!(") {
            let model = shared.join("models").join(format!("{name}.tflite"));
            let Ok(bytes) = std::fs::read(&model) else {
                // Under TFLC_REQUIRE_SHARED=1 the build fails here.
                tflc::internal::testing::missing_shared(&format!("snapshot {name} (generated-compile build script)"));
                println!("cargo:warning=skipping snapshot {name}: {} is missing", model.display());
                continue;
            };
            let opts = tflc::CompileOptions {
                model_name: format!("{name}.tflite"),
                weights: tflc::internal::codegen::WeightsSource::File(format!("{name}.weights.bin")),
                ..tflc::CompileOptions::default()
            };
            let compiled = tflc::compile(&bytes, &opts).expect("compile corpus model");
            std::fs::write(out.join(format!("{name}.weights.bin")), &compiled.weights).expect("write weights");
            // Per-target blobs (`#[cfg]`'d kernel variants) beside it.
            for (suffix, blob) in &compiled.scoped_weights {
                let file = tflc::internal::emit::scoped_file_name(&format!("{name}.weights.bin"), suffix);
                std::fs::write(out.join(file), blob).expect("write scoped weights");
            }
        }
        std::fs::write(out.join(format!("{name}.rs")), body).expect("write module");
        let _ = writeln!(registry, "pub mod {name} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{name}.rs\")); }}");
        if body.contains("pub trait CustomOps") {
            // The caller's custom operators: `run` takes their kernels (`TestOps` in lib.rs),
            // and the interpreter cannot run them, so no `Runner`.
            continue;
        }
        let _ = writeln!(
            registry,
            "impl Runner for {name}::Model {{ fn input(&mut self, i: usize) -> &mut [u8] {{ self.input_bytes_mut(i) }} fn run(&mut self) -> tflc_runtime::RunStatus {{ {} }} fn output(&self, i: usize) -> &[u8] {{ self.output_bytes(i) }} }}",
            run_call(body, &name)
        );
        let _ = writeln!(runners, "    (\"{name}\", || Box::new({name}::Model::new()) as Box<dyn Runner>),");
    }
    let _ = writeln!(registry, "/// Every compiled snapshot: name and constructor.\npub const MODELS: &[(&str, MakeRunner)] = &[\n{runners}];");

    // Every builder model again with `--align 64` (not snapshotted: the snapshots hold the
    // default output), so that an aligned module builds under the same lints and runs.
    let mut aligned = String::new();
    for (name, bytes) in tflc::internal::testing::models::all() {
        let module = format!("{name}_align{ALIGN}");
        let opts = tflc::CompileOptions { model_name: format!("{name}.tflite"), align: ALIGN, ..tflc::CompileOptions::default() };
        let compiled = tflc::compile(&bytes, &opts).unwrap_or_else(|e| panic!("compile {name} with align {ALIGN}: {e}"));
        let run = run_call(&compiled.code, &module);
        std::fs::write(out.join(format!("{module}.rs")), compiled.code).expect("write module");
        let _ = writeln!(registry, "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}");
        let _ = writeln!(
            registry,
            "impl Runner for {module}::Model {{ fn input(&mut self, i: usize) -> &mut [u8] {{ self.input_bytes_mut(i) }} fn run(&mut self) -> tflc_runtime::RunStatus {{ {} }} fn output(&self, i: usize) -> &[u8] {{ self.output_bytes(i) }} }}",
            run
        );
        let _ = writeln!(
            aligned,
            "    (\"{name}\", {ALIGN}, core::mem::align_of::<{module}::Model>(), || Box::new({module}::Model::new()) as Box<dyn Runner>),"
        );
    }
    let _ = writeln!(
        registry,
        "/// Every builder model compiled with a larger alignment: builder name, alignment asked for,\n/// the `Model`'s alignment, constructor.\npub const ALIGNED: &[(&str, usize, usize, MakeRunner)] = &[\n{aligned}];"
    );
    // Every builder model that calls no subgraph again with memory pools (`--pool`): two
    // pools (the fast one a third of the single arena) and three (a quarter each, the last
    // unbounded), so that tensors land in every pool and operators read and write across
    // pools (`io_pools`). `POOLED`: module, builder name, `io_pools` calls, constructor.
    let mut pooled = String::new();
    for (name, bytes) in tflc::internal::testing::models::all() {
        if name.contains("control") {
            continue;
        }
        let single = tflc::compile(&bytes, &tflc::CompileOptions::default()).unwrap_or_else(|e| panic!("compile {name}: {e}"));
        let arena = single.arena_bytes() as u64;
        let q = |n: u64| (arena / n / 16 * 16).max(16);
        let pool = |n: &str, b: Option<u64>| tflc::internal::plan::pools::PoolSpec { name: n.into(), bytes: b, section: None };
        // `pools2s`: the fast pool in a linker section, so `Model` borrows its arena.
        let mut in_section = pool("fast", Some(q(3)));
        in_section.section = Some(".dtcm".into());
        for (tag, pools) in [
            ("pools2", vec![pool("fast", Some(q(3))), pool("slow", None)]),
            ("pools3", vec![pool("tcm", Some(q(4))), pool("sram", Some(q(4))), pool("psram", None)]),
            ("pools2s", vec![in_section.clone(), pool("slow", None)]),
        ] {
            let module = format!("{name}_{tag}");
            let opts = tflc::CompileOptions { model_name: format!("{name}.tflite"), pools, ..tflc::CompileOptions::default() };
            let compiled = tflc::compile(&bytes, &opts).unwrap_or_else(|e| panic!("compile {name} with {tag}: {e}"));
            let mixed = compiled.code.matches("io_pools(").count();
            // A borrowed arena (a pool in a section that holds bytes): one leaked per model.
            let borrowed = compiled.plan.pools.iter().any(|p| p.section.is_some() && p.bytes > 0);
            let run = run_call(&compiled.code, &module);
            std::fs::write(out.join(format!("{module}.rs")), compiled.code).expect("write module");
            let _ = writeln!(registry, "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}");
            let (lt, arg) = if borrowed { ("<'static>", format!("Box::leak(Box::new({module}::FAST_ZEROED))")) } else { ("", String::new()) };
            let _ = writeln!(
                registry,
                "impl Runner for {module}::Model{lt} {{ fn input(&mut self, i: usize) -> &mut [u8] {{ self.input_bytes_mut(i) }} fn run(&mut self) -> tflc_runtime::RunStatus {{ {} }} fn output(&self, i: usize) -> &[u8] {{ self.output_bytes(i) }} }}",
                run
            );
            let _ = writeln!(pooled, "    (\"{module}\", \"{name}\", {mixed}, || Box::new({module}::Model::new({arg})) as Box<dyn Runner>),");
        }
    }
    let _ = writeln!(
        registry,
        "/// The address of `builder_tiny_cnn_pools2s::FAST_ARENA`, the static in section `.dtcm`\n/// (taking it keeps the static, and its section, in the test binary).\npub fn dtcm_arena_addr() -> usize {{ (&raw const builder_tiny_cnn_pools2s::FAST_ARENA) as usize }}"
    );
    let _ = writeln!(
        registry,
        "/// Every builder model without calls compiled with memory pools: module, builder name,\n/// `io_pools` calls, constructor.\npub const POOLED: &[(&str, &str, usize, MakeRunner)] = &[\n{pooled}];"
    );
    // The builder models again as one module sharing one arena (`tflc A B… -o OUT.rs`), all
    // but the CALL_ONCE ones (refused in a shared arena): `SHARED_NAMES`, and dispatchers
    // that feed and run one of them and read its outputs.
    // tiny_cnn twice (as `builder_tiny_cnn_again`): two models whose intermediate tensors
    // dwarf their inputs and outputs, so that sharing pays and the shared region is used.
    let mut shared_models: Vec<(String, Vec<u8>)> = tflc::internal::testing::models::all()
        .into_iter()
        .filter(|(n, _)| !n.contains("call_once"))
        .map(|(n, b)| (format!("{n}.tflite"), b))
        .collect();
    shared_models.push(("builder_tiny_cnn_again.tflite".into(), tflc::internal::testing::models::tiny_cnn()));
    let joint = tflc::compile_models(&shared_models, &tflc::CompileOptions::default()).unwrap_or_else(|e| panic!("compile the shared module: {e}"));
    std::fs::write(out.join("shared_models.rs"), &joint.code).expect("write module");
    let _ = writeln!(registry, "/// The builder models in one module, sharing one arena.\npub mod shared {{ include!(concat!(env!(\"OUT_DIR\"), \"/shared_models.rs\")); }}");
    let (mut names, mut runs, mut reads) = (String::new(), String::new(), String::new());
    for (k, n) in joint.names.iter().enumerate() {
        let _ = writeln!(names, "    \"{n}\",");
        let run = if joint.code.contains(&format!("pub fn run_{n}(&mut self) -> rt::RunStatus")) { "v.run()" } else { "v.run(); tflc_runtime::RunStatus::Complete" };
        let _ = writeln!(
            runs,
            "        {k} => {{ let mut v = m.{n}(); for (i, x) in inputs.iter().enumerate() {{ v.input_bytes_mut(i).copy_from_slice(x); }} {run} }}"
        );
        let _ = writeln!(reads, "        {k} => {{ let v = m.{n}(); (0..shared::{n}::OUTPUTS).map(|i| v.output_bytes(i).to_vec()).collect() }}");
    }
    let _ = writeln!(
        registry,
        "/// The shared module's models, in order (their builder names, lower case).\npub const SHARED_NAMES: &[&str] = &[\n{names}];\n\
         /// Writes `inputs` into shared model `k` and runs it.\npub fn shared_run(m: &mut shared::Models, k: usize, inputs: &[&[u8]]) -> tflc_runtime::RunStatus {{\n    match k {{\n{runs}        _ => tflc_runtime::RunStatus::Complete,\n    }}\n}}\n\
         /// The outputs of shared model `k`, as they are now.\npub fn shared_outputs(m: &mut shared::Models, k: usize) -> alloc::vec::Vec<alloc::vec::Vec<u8>> {{\n    match k {{\n{reads}        _ => alloc::vec::Vec::new(),\n    }}\n}}"
    );
    // A custom operator after a CIRCULAR_BUFFER (not snapshotted): `run` returns
    // `Result<RunStatus, CustomOpFailed>` and a stop returns `Ok(Stopped)`.
    let streaming = tflc::compile(&tflc::internal::testing::models::custom_ops_streaming(), &tflc::CompileOptions::default())
        .unwrap_or_else(|e| panic!("compile custom_ops_streaming: {e}"));
    std::fs::write(out.join("custom_ops_streaming.rs"), streaming.code).expect("write module");
    let _ = writeln!(registry, "/// `tflc::internal::testing::models::custom_ops_streaming`.\npub mod custom_ops_streaming {{ include!(concat!(env!(\"OUT_DIR\"), \"/custom_ops_streaming.rs\")); }}");
    std::fs::write(out.join("snapshots.rs"), registry).expect("write registry");
}

/// The body of `Runner::run` for module `module` whose code is `code`: its `run()`, whose
/// status is returned when it has one (a model with an operator that can stop the run).
fn run_call(code: &str, module: &str) -> String {
    if code.contains("pub fn run(&mut self) -> rt::RunStatus") {
        format!("{module}::Model::run(self)")
    } else {
        format!("{module}::Model::run(self); tflc_runtime::RunStatus::Complete")
    }
}
