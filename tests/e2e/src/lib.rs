//! Every corpus and single-op model that tflc compiles, as a Rust module (written by
//! `build.rs` into OUT_DIR), behind one runner interface for the conformance test.
#![allow(clippy::all)]

/// A compiled model behind a uniform interface.
pub trait Runner {
    fn input(&mut self, i: usize) -> &mut [u8];
    fn run(&mut self);
    fn output(&self, i: usize) -> &[u8];
    /// `run` through `Model::run_with`, adding each operator's time to `times`.
    fn run_timed(&mut self, times: &mut OpTimes);
}

/// An observer that sums the wall time of each operator over runs (`host_bench --per-op`),
/// in call order.
#[derive(Default)]
pub struct OpTimes {
    /// (operator, total seconds) per operator that ran, in call order.
    pub ops: Vec<(tflc_runtime::OpInfo, f64)>,
    next: usize,
    start: Option<std::time::Instant>,
}

impl OpTimes {
    /// Starts the next run from the first operator.
    pub fn restart(&mut self) {
        self.next = 0;
    }
}

impl tflc_runtime::Observer for OpTimes {
    fn before(&mut self, _op: &tflc_runtime::OpInfo) {
        self.start = Some(std::time::Instant::now());
    }
    fn after(&mut self, op: &tflc_runtime::OpInfo) {
        let dt = self.start.take().map_or(0.0, |t| t.elapsed().as_secs_f64());
        if self.ops.len() <= self.next {
            self.ops.push((*op, 0.0));
        }
        self.ops[self.next].1 += dt;
        self.next += 1;
    }
}

/// Boxes a generated `Model` (the arena can be megabytes: keep it off the stack).
pub struct Wrap<M>(pub Box<M>);

pub struct Entry {
    pub name: &'static str,
    pub arena_bytes: usize,
    /// Each op that runs code, in call order, with the kernel it calls on this build
    /// (`OpInfo::kernel`, from the generated module's `OPS`).
    pub ops: &'static [tflc_runtime::OpInfo],
    pub make: fn() -> Box<dyn Runner>,
}

/// A corpus model compiled with two memory pools (`--pool fast=SIZE --pool slow`).
pub struct Pooled {
    /// The corpus model (its single-arena build is the `Entry` of that name).
    pub model: &'static str,
    /// Each pool's planned bytes, e.g. `fast 3,584 B, slow 8,000 B`.
    pub pools: &'static str,
    /// Operators whose tensors lie in both pools.
    pub io_pools: usize,
    pub make: fn() -> Box<dyn Runner>,
}

include!(concat!(env!("OUT_DIR"), "/registry.rs"));
