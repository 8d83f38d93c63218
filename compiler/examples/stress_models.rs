//! Writes the structural stress models of issue 17 to a directory, for measuring `tflc plan`
//! and `tflc compile` under `/usr/bin/time -v`:
//! `cargo run --release -p tflc --example stress_models -- /tmp/stress`.

use tflc::internal::testing::models::stress;

fn main() -> std::io::Result<()> {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "stress".into()));
    std::fs::create_dir_all(&dir)?;
    let models: Vec<(String, Vec<u8>)> = vec![
        ("chain_20000".into(), stress::relu_chain(20_000)),
        ("fan_out_250".into(), stress::relu_fan_out(250)),
        ("fan_out_500".into(), stress::relu_fan_out(500)),
        ("fan_out_5000".into(), stress::relu_fan_out(5_000)),
        ("fan_out_20000".into(), stress::relu_fan_out(20_000)),
        ("random_dag_2000".into(), stress::random_dag(2_000, 1)),
        ("random_dag_20000".into(), stress::random_dag(20_000, 2)),
        ("relu_2gib".into(), stress::relu_of_shape(&[16384, 65536])),
        ("relu_4gib".into(), stress::relu_of_shape(&[32768, 65536])),
    ];
    for (name, bytes) in models {
        let path = dir.join(format!("{name}.tflite"));
        std::fs::write(&path, bytes)?;
        println!("{}", path.display());
    }
    Ok(())
}
