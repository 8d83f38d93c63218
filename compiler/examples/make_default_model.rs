//! Writes the default model that ships with the repository, `examples/models/tiny_cnn_int8.tflite`:
//! a small int8 image classifier (CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, RESHAPE,
//! FULLY_CONNECTED, SOFTMAX) with per-channel weights from a fixed pseudo-random sequence
//! (`tflc::testing::models::tiny_cnn`).
//!
//! Regenerate with `cargo run -p tflc --example make_default_model`; the output is
//! byte-identical on every run.

fn main() -> std::process::ExitCode {
    let out = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/models/tiny_cnn_int8.tflite").to_owned()
    });
    match std::fs::write(&out, tflc::testing::models::tiny_cnn()) {
        Ok(()) => {
            println!("wrote {out}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write {out}: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
