//! Every snapshot of generated code in `snapshots/`, compiled under `#![deny(warnings)]`
//! (house style: generated code must build warning-free in any crate).
#![deny(warnings)]
#![no_std]

extern crate alloc;
use alloc::boxed::Box;

/// A compiled model behind a uniform interface.
pub trait Runner {
    fn input(&mut self, i: usize) -> &mut [u8];
    /// `Model::run`, and how the run ended (`Complete` for a model whose `run()` returns
    /// nothing: only a model with an operator that can stop returns a status).
    fn run(&mut self) -> tflc_runtime::RunStatus;
    fn output(&self, i: usize) -> &[u8];
}

/// Makes a boxed runner for one compiled snapshot.
pub type MakeRunner = fn() -> Box<dyn Runner>;

include!(concat!(env!("OUT_DIR"), "/snapshots.rs"));

/// The kernels of `builder_custom_ops`'s custom operators (`tflc::internal::testing::models::custom_ops`),
/// written as a firmware would: `ScaleShift` reads its FlexBuffer options with the runtime's
/// reader, `ClampI8` its raw struct. `fail_clamp` makes `ClampI8` fail; `calls` and
/// `scratch_bytes` record what the model handed over.
#[derive(Default)]
pub struct TestOps {
    /// Make `ClampI8` return an error.
    pub fail_clamp: bool,
    /// Every call, as (op index, custom code).
    pub calls: alloc::vec::Vec<(u32, &'static str)>,
    /// The length of the scratch `ClampI8` received.
    pub scratch_bytes: usize,
}

impl builder_custom_ops::CustomOps for TestOps {
    fn scale_shift(
        &mut self,
        op: &'static tflc_runtime::custom::CustomOpInfo,
        input_0: &[f32],
        input_1: &[f32],
        output_0: &mut [f32],
    ) -> Result<(), tflc_runtime::custom::CustomOpError> {
        use tflc_runtime::custom::CustomOpError;
        self.calls.push((op.index, op.code));
        let options = tflc_runtime::flexbuffers::Map::parse(op.options).map_err(|_| CustomOpError::new("options are not a FlexBuffer map"))?;
        let add = options.get("add").and_then(|v| v.as_f32()).ok_or(CustomOpError::new("option `add` is missing"))?;
        let relu = options.get("relu").and_then(|v| v.as_bool()).unwrap_or(false);
        let channels = op.inputs[1].num_elements();
        if input_0.len() != op.inputs[0].num_elements() || output_0.len() != op.outputs[0].num_elements() || input_1.len() != channels {
            return Err(CustomOpError::new("views do not match the shapes"));
        }
        for (i, (x, y)) in input_0.iter().zip(output_0.iter_mut()).enumerate() {
            let v = x * input_1[i % channels] + add;
            *y = if relu { v.max(0.0) } else { v };
        }
        Ok(())
    }

    fn clamp_i8(
        &mut self,
        op: &'static tflc_runtime::custom::CustomOpInfo,
        input_0: &[i8],
        output_0: &mut [i8],
        scratch: &mut [u8],
    ) -> Result<(), tflc_runtime::custom::CustomOpError> {
        use tflc_runtime::custom::CustomOpError;
        self.calls.push((op.index, op.code));
        self.scratch_bytes = scratch.len();
        if self.fail_clamp {
            return Err(CustomOpError::new("asked to fail"));
        }
        let word = |i: usize| op.options.get(4 * i..4 * i + 4).and_then(|b| b.try_into().ok()).map(i32::from_le_bytes);
        let (Some(lo), Some(hi)) = (word(0), word(1)) else { return Err(CustomOpError::new("options are shorter than 8 bytes")) };
        // The scratch is the kernel's own: use it as a staging buffer.
        let n = input_0.len().min(scratch.len());
        for (s, &x) in scratch.iter_mut().zip(input_0) {
            *s = (x as i32).clamp(lo, hi) as i8 as u8;
        }
        for (i, (y, &x)) in output_0.iter_mut().zip(input_0).enumerate() {
            *y = if i < n { scratch[i] as i8 } else { (x as i32).clamp(lo, hi) as i8 };
        }
        Ok(())
    }
}

impl custom_ops_streaming::CustomOps for TestOps {
    fn clamp_i8(&mut self, op: &'static tflc_runtime::custom::CustomOpInfo, input_0: &[i8], output_0: &mut [i8]) -> Result<(), tflc_runtime::custom::CustomOpError> {
        self.calls.push((op.index, op.code));
        for (y, &x) in output_0.iter_mut().zip(input_0) {
            *y = x.clamp(-20, 50);
        }
        Ok(())
    }
}
