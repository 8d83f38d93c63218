//! Snapshots of the generated code (`snapshots/*.snap`, reviewed with `cargo insta review`):
//! the builder models of `tflc::internal::testing::models` with inline weights, and the corpus models
//! `tflm_hello_world_int8` and `tflm_micro_speech_int8` with their weights in a file (so that
//! no third-party weights enter the repository). `tests/generated-compile` compiles every
//! snapshot under `#![deny(warnings)]`. CI sets `CI=true`, so a changed or missing snapshot
//! fails instead of being written.

use tflc::internal::codegen::WeightsSource;
use tflc::{compile, CompileOptions};

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

#[test]
fn builder_models() {
    for (name, bytes) in tflc::internal::testing::models::all() {
        let opts = CompileOptions { model_name: format!("{name}.tflite"), ..CompileOptions::default() };
        let compiled = match compile(&bytes, &opts) {
            Ok(c) => c,
            // Models whose ops are not all lowered yet are listed in SNAPSHOT_PENDING.
            Err(e) if SNAPSHOT_PENDING.contains(&name) => {
                eprintln!("pending {name}: {e}");
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        assert!(!SNAPSHOT_PENDING.contains(&name), "{name} compiles now: remove it from SNAPSHOT_PENDING");
        settings().bind(|| insta::assert_snapshot!(name, compiled.code));
    }
}

/// The caller's custom operators (`docs/CUSTOM_OPS.md`): `builder_custom_ops` with
/// `--custom-scratch ClampI8=32`, kept out of `models::all()` (the interpreter cannot run the
/// caller's kernels; `tests/generated-compile` runs it with a test implementation).
#[test]
fn custom_op_model() {
    let (name, bytes) = ("builder_custom_ops", tflc::internal::testing::models::custom_ops());
    let (code, scratch) = tflc::internal::testing::models::CUSTOM_OPS_SCRATCH;
    let opts = CompileOptions { model_name: format!("{name}.tflite"), custom_scratch: [(code.to_string(), scratch)].into(), ..CompileOptions::default() };
    let compiled = compile(&bytes, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
    settings().bind(|| insta::assert_snapshot!(name, compiled.code));
}

/// Builder models that cannot compile yet (their ops' lowering is in progress).
const SNAPSHOT_PENDING: &[&str] = &[];

#[test]
fn corpus_models() {
    let Some(shared) = tflc::internal::testing::shared_dir_or_skip("corpus snapshots") else { return };
    for name in CORPUS {
        let bytes = std::fs::read(shared.join(format!("models/{name}.tflite"))).unwrap();
        let opts = CompileOptions {
            model_name: format!("{name}.tflite"),
            weights: WeightsSource::File(format!("{name}.weights.bin")),
            ..CompileOptions::default()
        };
        match compile(&bytes, &opts) {
            Ok(c) => {
                assert!(!CORPUS_PENDING.contains(name), "{name} compiles now: remove it from CORPUS_PENDING");
                settings().bind(|| insta::assert_snapshot!(*name, c.code))
            }
            Err(e) if CORPUS_PENDING.contains(name) => eprintln!("pending {name}: {e}"),
            Err(e) => panic!("{name}: {e}"),
        }
    }
}

/// The corpus models snapshotted (their weights stay in ../shared).
pub const CORPUS: &[&str] = &["tflm_hello_world_int8", "tflm_micro_speech_int8"];
const CORPUS_PENDING: &[&str] = &[];
