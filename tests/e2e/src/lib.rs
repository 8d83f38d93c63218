//! Every corpus and single-op model that tflc compiles, as a Rust module (written by
//! `build.rs` into OUT_DIR), behind one runner interface for the conformance test.
#![allow(clippy::all)]

/// A compiled model behind a uniform interface.
pub trait Runner {
    fn input(&mut self, i: usize) -> &mut [u8];
    fn run(&mut self);
    fn output(&self, i: usize) -> &[u8];
}

/// Boxes a generated `Model` (the arena can be megabytes: keep it off the stack).
pub struct Wrap<M>(pub Box<M>);

pub struct Entry {
    pub name: &'static str,
    pub arena_bytes: usize,
    /// The runtime kernel function of each op, in call order.
    pub kernels: &'static [&'static str],
    pub make: fn() -> Box<dyn Runner>,
}

include!(concat!(env!("OUT_DIR"), "/registry.rs"));
