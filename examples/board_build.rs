// The helpers the board examples' build scripts share (`include!`d by
// `examples/nrf52840-dk/build.rs` and `examples/esp32c3/build.rs`, which are crates of their
// own): writing only what changed, failing with the crate's name, and the model's path
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
