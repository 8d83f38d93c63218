// The helpers the board examples' build scripts share (`include!`d by
// `examples/nrf52840-dk/build.rs`, `examples/mps3-an547/build.rs` and
// `examples/esp32c3/build.rs`, which are crates of their own): writing only what changed, failing with the crate's name, and the model's path
// relative to the crate (what `include_model!` resolves against).

fn write(path: &Path, bytes: &[u8]) {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return;
    }
    std::fs::write(path, bytes).unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", path.display())));
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {}: {msg}", env!("CARGO_PKG_NAME"));
    std::process::exit(1);
}

/// `path` relative to `base` (include_model! resolves against CARGO_MANIFEST_DIR).
fn relative(path: &Path, base: &Path) -> PathBuf {
    let (p, b) = (normalize(path), normalize(base));
    let common = p.components().zip(b.components()).take_while(|(x, y)| x == y).count();
    let mut rel = PathBuf::new();
    for _ in b.components().skip(common) {
        rel.push("..");
    }
    for c in p.components().skip(common) {
        rel.push(c);
    }
    rel
}

fn normalize(p: &Path) -> PathBuf {
    let abs = if p.is_absolute() { p.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(p) };
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// The model and its input, as the including build script's header says: `TFLC_BOARD_MODEL`,
/// else the shared corpus's kws with its golden input 0, else `fallback` (a model relative
/// to the crate; `None`: the build stops and says where it looked for the corpus), written
/// to OUT_DIR as `model.rs` (the `include_model!` line) and `input.bin`. Returns the
/// crate's directory and OUT_DIR.
fn write_model_and_input(fallback: Option<&str>) -> (PathBuf, PathBuf) {
    println!("cargo:rerun-if-env-changed=TFLC_BOARD_MODEL");
    println!("cargo:rerun-if-env-changed=TFLC_BOARD_INPUT");
    println!("cargo:rerun-if-env-changed=TFLC_SHARED");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let shared = std::env::var_os("TFLC_SHARED").map(PathBuf::from).unwrap_or_else(|| manifest.join("../../../shared"));
    let kws = shared.join("models/mlperf_kws_dscnn_int8.tflite");
    let (model, input) = match (std::env::var_os("TFLC_BOARD_MODEL"), fallback) {
        (Some(m), _) => (manifest.join(m), None),
        (None, _) if kws.exists() => (kws, Some(shared.join("golden/mlperf_kws_dscnn_int8/run0_in0.bin"))),
        (None, Some(f)) => (manifest.join(f), None),
        (None, None) => fail(&format!(
            "the shared model corpus is missing: {} does not exist. This example runs \
             ../shared/models/mlperf_kws_dscnn_int8.tflite (the models are not part of the \
             repository); put the corpus beside the repository, point TFLC_SHARED at it, or \
             set TFLC_BOARD_MODEL=path/to/model.tflite",
            normalize(&kws).display()
        )),
    };
    let input = std::env::var_os("TFLC_BOARD_INPUT").map(|i| manifest.join(i)).or(input);
    let rel = relative(&model, &manifest);
    println!("cargo:rerun-if-changed={}", model.display());
    write(&out.join("model.rs"), format!("::tflc_macros::include_model!({:?});\n", rel.display().to_string()).as_bytes());
    let bytes = match &input {
        Some(i) => {
            println!("cargo:rerun-if-changed={}", i.display());
            std::fs::read(i).unwrap_or_else(|e| fail(&format!("cannot read the input {}: {e}", i.display())))
        }
        None => Vec::new(),
    };
    write(&out.join("input.bin"), &bytes);
    (manifest, out)
}

/// The build script of a Cortex-M board example (nRF52840-DK, MPS3-AN547): the model and
/// its input ([`write_model_and_input`], the repository's tiny CNN without the corpus), and
/// the crate's `memory.x` where cortex-m-rt's `link.x` finds it. `esp32c3` calls
/// [`write_model_and_input`] itself (its linker scripts are esp-hal's).
#[allow(dead_code)]
fn cortex_m_board_main() {
    println!("cargo:rerun-if-changed=memory.x");
    let (manifest, out) = write_model_and_input(Some("../models/tiny_cnn_int8.tflite"));
    // memory.x where cortex-m-rt's link.x finds it.
    write(&out.join("memory.x"), &std::fs::read(manifest.join("memory.x")).unwrap_or_else(|e| fail(&format!("memory.x: {e}"))));
    println!("cargo:rustc-link-search={}", out.display());
}
