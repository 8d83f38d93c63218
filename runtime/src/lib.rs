//! `tflc-runtime`: the kernels that tflc-generated model code calls.
//!
//! `#![no_std]`, no alloc: all memory is the caller's arena. Every kernel has a scalar
//! implementation (`kernels::<op>::scalar`), the reference that SIMD versions are tested
//! against. Arithmetic is bit-exact with TFLite Micro's reference kernels.
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(test)]
extern crate std;

mod arch;
pub mod isa;
pub mod kernels;
pub mod math;
pub mod observer;
pub mod prepare;
pub mod quant;

pub use observer::{NoObserver, Observer, OpInfo};

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
