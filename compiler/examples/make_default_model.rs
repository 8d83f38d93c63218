//! Writes the model files the repository ships, from the model builder
//! (`tflc::internal::testing::models::committed_files`): the default model
//! `examples/models/tiny_cnn_int8.tflite` (a small int8 image classifier: CONV_2D,
//! DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED, SOFTMAX, per-channel weights
//! from a fixed pseudo-random sequence) and the small models of the `include_model!` UI tests.
//!
//! Regenerate with `cargo run -p tflc --example make_default_model`; the output is
//! byte-identical on every run (a test checks the committed files are current).

fn main() -> std::process::ExitCode {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (rel, bytes) in tflc::internal::testing::models::committed_files() {
        let path = root.join(rel);
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = std::fs::write(&path, bytes) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return std::process::ExitCode::from(2);
        }
        println!("wrote {rel}");
    }
    std::process::ExitCode::SUCCESS
}
