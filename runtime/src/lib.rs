//! `tflc-runtime`: the kernels that tflc-generated model code calls.
//!
//! `#![no_std]`, no alloc: all memory is the caller's arena. Every kernel has a scalar
//! implementation (`kernels::<op>::scalar`), the reference that SIMD versions are tested
//! against. Arithmetic is bit-exact with TFLite Micro's reference kernels.
//!
//! Generated code calls the kernels with parameters the compiler computed; the same
//! `prepare_*` functions it uses are public under the `prepare` feature (the compile-time
//! helpers: [`prepare`], each kernel's `prepare_*`, the fast variants' `select` and `pack`;
//! firmware does not compile them), so a kernel can be called by hand. An int8
//! RELU6 whose input and output share scale 0.05 and zero point -10 (real 0 is -10, real 6
//! is 110):
//!
//! ```
//! use tflc_runtime::kernels::relu::{prepare_relu6, relu_s8};
//! use tflc_runtime::quant::QuantParams;
//!
//! let q = QuantParams { scale: 0.05, zero_point: -10 };
//! let params = prepare_relu6(q, q).expect("equal scales give a representable multiplier");
//! let input: [i8; 4] = [-128, -10, 50, 127];
//! let mut output = [0i8; 4];
//! relu_s8(&params, &input, &mut output);
//! assert_eq!(output, [-10, -10, 50, 110]);
//! ```
//!
//! A generated `Model` runs its operators in `run()`; `run_with(&mut observer)` calls an
//! [`Observer`] around each of them (see [`observer`]), for example to time every operator.
#![no_std]
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(any(test, feature = "std"))]
extern crate std;

mod arch;
pub mod custom;
pub mod flexbuffers;
pub mod isa;
pub mod kernels;
pub mod math;
pub mod observer;
#[cfg(feature = "prepare")]
pub mod prepare;
pub mod quant;
pub mod variants;

pub use observer::{NoObserver, Observer, OpInfo};

/// What `run()` returns in a model with an operator that can end an invoke early (TFLite
/// Micro's CIRCULAR_BUFFER returns `kTfLiteAbort` until its period has passed, and the
/// interpreter stops the graph there). Every other model's `run()` returns nothing.
#[must_use = "a stopped run has no new output"]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// Every operator ran: the outputs hold this invoke's results.
    Complete,
    /// Operator `op` (its index in the model file) ended the invoke ("no output yet"): the
    /// operators after it did not run, so the outputs they write hold nothing new, while the
    /// state the operators before it updated (the circular buffer itself) carries over.
    Stopped {
        /// The index of the operator that stopped the invoke.
        op: u32,
    },
}

impl RunStatus {
    /// Whether every operator ran.
    pub const fn is_complete(self) -> bool {
        matches!(self, RunStatus::Complete)
    }
}

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
