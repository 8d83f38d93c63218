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
