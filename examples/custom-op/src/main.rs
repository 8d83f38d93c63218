//! A model with two custom operators tflc has no kernel for, compiled with `include_model!`
//! and run with kernels written here (see `docs/CUSTOM_OPS.md`):
//! - `ScaleShift` (float32, twice): `y = x * w[c] + add`, then `max(y, 0)` when `relu`; `w` is
//!   the op's constant second input (read from flash), `add` and `relu` its FlexBuffer options,
//!   read with `tflc_runtime::flexbuffers`;
//! - `ClampI8` (int8): `y = clamp(x, lo, hi)`, `lo` and `hi` a raw struct of two
//!   little-endian `i32`s in its options; it gets 32 bytes of arena scratch
//!   (`custom_scratch = "ClampI8=32"`), which it uses as a histogram.
//!
//! The model is `examples/models/custom_ops.tflite` (`tflc::internal::testing::models::custom_ops`,
//! written by `cargo run -p tflc --example make_default_model`). Run with
//! `cargo run -p tflc-custom-op-example`.

use tflc_runtime::custom::{CustomOpError, CustomOpInfo};
use tflc_runtime::flexbuffers::Map;

mod model {
    tflc_macros::include_model!("../models/custom_ops.tflite", custom_scratch = "ClampI8=32");
}

/// The kernels, and what they saw.
#[derive(Default)]
struct Kernels {
    /// How many elements `ClampI8` clamped, over all runs.
    clamped: usize,
}

impl model::CustomOps for Kernels {
    fn scale_shift(&mut self, op: &'static CustomOpInfo, x: &[f32], w: &[f32], y: &mut [f32]) -> Result<(), CustomOpError> {
        let options = Map::parse(op.options).map_err(|_| CustomOpError::new("ScaleShift: options are not a FlexBuffer map"))?;
        let add = options.get("add").and_then(|v| v.as_f32()).ok_or(CustomOpError::new("ScaleShift: option `add` is missing"))?;
        let relu = options.get("relu").and_then(|v| v.as_bool()).unwrap_or(false);
        // Shapes are known at compile time: `op.inputs[1]` is the per-channel vector.
        let channels = op.inputs[1].num_elements();
        if channels == 0 || op.inputs[0].shape.last() != Some(&channels) {
            return Err(CustomOpError::new("ScaleShift: w must have one entry per channel"));
        }
        for (i, (x, y)) in x.iter().zip(y.iter_mut()).enumerate() {
            let v = x * w[i % channels] + add;
            *y = if relu { v.max(0.0) } else { v };
        }
        Ok(())
    }

    fn clamp_i8(&mut self, op: &'static CustomOpInfo, x: &[i8], y: &mut [i8], scratch: &mut [u8]) -> Result<(), CustomOpError> {
        let word = |i: usize| op.options.get(4 * i..4 * i + 4).and_then(|b| b.try_into().ok()).map(i32::from_le_bytes);
        let (Some(lo), Some(hi)) = (word(0), word(1)) else { return Err(CustomOpError::new("ClampI8: options are shorter than 8 bytes")) };
        if lo > hi {
            return Err(CustomOpError::new("ClampI8: lo > hi"));
        }
        // The scratch is this call's alone: a histogram of the input's top 5 bits.
        scratch.fill(0);
        for (&x, y) in x.iter().zip(y.iter_mut()) {
            let c = (x as i32).clamp(lo, hi);
            self.clamped += usize::from(c != x as i32);
            *y = c as i8;
            let bin = ((x as i32 + 128) >> 3) as usize;
            if let Some(b) = scratch.get_mut(bin) {
                *b = b.saturating_add(1);
            }
        }
        Ok(())
    }
}

fn main() {
    let mut m = model::Model::new();
    let mut kernels = Kernels::default();
    println!("{} custom operators: {:?}", 3, [model::CUSTOM_0.code, model::CUSTOM_2.code, model::CUSTOM_3.code]);
    println!("ClampI8 input: {:?} scale {:?} zero point {:?}", model::CUSTOM_3.inputs[0].shape, model::CUSTOM_3.inputs[0].scale, model::CUSTOM_3.inputs[0].zero_point);
    m.input_0().copy_from_slice(&[-2.0, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 2.0]);
    m.input_1().copy_from_slice(&[-128, -21, -20, 0, 49, 50, 51, 127]);
    match m.run(&mut kernels) {
        Ok(()) => {
            println!("output 0 (ScaleShift, RELU, ScaleShift): {:?}", m.output_0());
            println!("output 1 (ClampI8 to -20..=50): {:?}", m.output_1());
            println!("ClampI8 clamped {} elements", kernels.clamped);
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
    // Expected values: the same computation done here directly.
    let want0: Vec<f32> = [-2.0f32, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 2.0]
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let t = (x * [0.5, -2.0][i % 2] + 1.25f32).max(0.0);
            (t * [3.0, 0.25][i % 2] - 0.5f32).max(0.0)
        })
        .collect();
    assert_eq!(m.output_0().as_slice(), want0.as_slice());
    assert_eq!(m.output_1(), &[-20, -20, -20, 0, 49, 50, 50, 50]);
    println!("ok: outputs match the direct computation");
}
