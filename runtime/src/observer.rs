//! Per-operator hooks for generated models: `Model::run_with(&mut observer)` calls
//! [`Observer::before`] and [`Observer::after`] around every operator that runs code, with
//! its index in the model, its opcode and its output tensor's name. `Model::run()` is
//! `run_with(&mut NoObserver)`: the hooks are empty and inlined away, so a plain `run()`
//! costs nothing extra (the firmware table shows the same instruction count).
//!
//! ```
//! use tflc_runtime::{Observer, OpInfo};
//!
//! /// Counts calls per operator, as a profiler would read a cycle counter.
//! struct Count(u32);
//! impl Observer for Count {
//!     fn before(&mut self, _op: &OpInfo) {
//!         self.0 += 1;
//!     }
//! }
//! let mut c = Count(0);
//! c.before(&OpInfo { index: 0, opcode: "CONV_2D", output: "conv1", kernel: "conv_2d_s8_gemm" });
//! assert_eq!(c.0, 1);
//! ```

/// One operator of a generated model, as its observer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// The operator's index in the model file (`tflc inspect`, Netron).
    pub index: u32,
    /// TFLite's opcode name (`CONV_2D`, `CUSTOM:Name`).
    pub opcode: &'static str,
    /// Its first output tensor's name (shortened as in the generated comments).
    pub output: &'static str,
    /// The runtime function it calls on this build's target (`conv_2d_s8_quad`; `…, by rows`
    /// when the overlapped row driver runs it; empty for an operator that calls no kernel
    /// module, e.g. a copy), from the kernel's variant table where it has one.
    pub kernel: &'static str,
}

/// Hooks around each operator of `Model::run_with`. Both default to doing nothing.
pub trait Observer {
    /// Called just before `op`'s kernel.
    #[inline(always)]
    fn before(&mut self, op: &OpInfo) {
        let _ = op;
    }
    /// Called just after `op`'s kernel returns.
    #[inline(always)]
    fn after(&mut self, op: &OpInfo) {
        let _ = op;
    }
}

/// The observer of `Model::run()`: does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}
