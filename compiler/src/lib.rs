//! `tflc`: an ahead-of-time compiler from TensorFlow Lite models to Rust.
//!
//! Phases, one module each (see `ARCHITECTURE.md`), run in order by [`pipeline`]:
//! [`tflite`] reads and verifies the flatbuffer into the typed [`ir`]; [`passes`] folds
//! constant subgraphs (DEQUANTIZE of constant weights); [`lower`] lowers every
//! operator once into its kernel and capabilities; [`plan`] (with [`schedule`]) orders the
//! operators and places the arena; [`codegen`] emits the module. [`inspect`] summarises a
//! model, [`interp`] runs the lowered kernels as a reference.
//!
//! [`compile`] turns the bytes of a `.tflite` file into the source of a Rust module. Here the
//! model is a one-operator int8 FULLY_CONNECTED written by the crate's own
//! [`tflite::builder`]; a file read with `std::fs::read` goes the same way:
//!
//! ```
//! use tflc::ir::{DType, FullyConnectedOptions, OpKind};
//! use tflc::internal::tflite::builder::ModelBuilder;
//! use tflc::{compile, CompileOptions};
//!
//! let mut b = ModelBuilder::new();
//! let x = b.activation("x", DType::I8, &[1, 4], Some((0.5, -1)));
//! let w = b.constant_i8("w", &[2, 4], &[1, 2, 3, 4, 5, 6, 7, 8], Some((0.25, 0)));
//! let bias = b.constant_i32("b", &[2], &[10, -10], Some((0.125, 0)));
//! let y = b.activation("y", DType::I8, &[1, 2], Some((1.0, 3)));
//! b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(w), Some(bias)], &[y]);
//! b.inputs(&[x]);
//! b.outputs(&[y]);
//! let bytes = b.finish();
//!
//! let compiled = compile(&bytes, &CompileOptions::default())?;
//! // A `Model` with `new()`, `run()`, `input_0()` and `output_0()`, calling `::tflc_runtime`.
//! assert!(compiled.code.contains("pub struct Model"));
//! assert!(compiled.code.contains("pub const ARENA_BYTES: usize"));
//! // The arena holds the 4-byte input and the 2-byte output, each aligned to 16 bytes.
//! assert_eq!(compiled.arena_bytes(), 32);
//! # Ok::<(), tflc::Error>(())
//! ```
//!
//! Build scripts use [`Config`] (it writes the module to `OUT_DIR`), and the `tflc-macros`
//! crate's `include_model!` compiles a model in place at build time.
#![deny(unsafe_code)]
#![warn(missing_docs)]
// Errors carry a `Location` (op, opcode, tensor name) by value; they are cold, and a
// readable error beats a smaller `Result`.
#![allow(clippy::result_large_err)]

// The public API: what a build script or a tool needs.
mod config;
pub mod error;
pub mod index;
pub mod inspect;
pub mod ir;

pub use config::{write_if_changed, Config};
pub use emit::WeightsSource;
pub use error::{Error, Location, LowerError, OptionsError, ParseError, Result};
pub use passes::read_model;
pub use pipeline::{compile, compile_models, CompileOptions, Compiled, CompiledModels};
pub use plan::budget::OverBudget;
pub use plan::pools::PoolSpec;
pub use plan::{ModelPlan, PlanError, SubgraphPlan};

// The phases (private: the crate root above is the API).
mod codegen;
mod emit;
mod interp;
mod lower;
mod macro_support;
mod passes;
mod pipeline;
mod plan;
mod schedule;
mod text;
mod tflite;
#[cfg(any(test, feature = "fuzzing"))]
mod fuzzing;
#[cfg(any(test, feature = "testing"))]
mod testing;

/// The compiler's phases, for the `tflc` CLI, the `tflc-macros` proc macro, the test suites,
/// benchmarks and fuzz targets: not a stable API (it changes with every internal
/// restructuring). Build scripts and tools use the items at the crate root, [`ir`] and
/// [`inspect`].
#[doc(hidden)]
pub mod internal {
    /// Code generation (`crate::codegen`).
    pub mod codegen {
        pub use crate::codegen::*;
    }
    /// Token emission helpers.
    pub mod emit {
        pub use crate::emit::*;
    }
    /// The reference interpreter behind `tflc run`.
    pub mod interp {
        pub use crate::interp::*;
    }
    /// Lowering: one kernel per operator.
    pub mod lower {
        pub use crate::lower::*;
    }
    /// The expansion behind `include_model!`.
    pub mod macro_support {
        pub use crate::macro_support::*;
    }
    /// Graph passes after reading.
    pub mod passes {
        pub use crate::passes::*;
    }
    /// The phases in order.
    pub mod pipeline {
        pub use crate::pipeline::*;
    }
    /// The memory planner.
    pub mod plan {
        pub use crate::plan::*;
    }
    /// Operator order.
    pub mod schedule {
        pub use crate::schedule::*;
    }
    /// Text helpers for reports.
    pub mod text {
        pub use crate::text::*;
    }
    /// The flatbuffer reader and the test-model builder.
    pub mod tflite {
        pub use crate::tflite::*;
    }
    /// Builder models and corpus helpers for the test suites (feature `testing`: not in a
    /// build that does not ask for it).
    #[cfg(any(test, feature = "testing"))]
    pub mod testing {
        pub use crate::testing::*;
    }
    /// Random planning problems for fuzzers.
    #[cfg(any(test, feature = "fuzzing"))]
    pub mod fuzzing {
        pub use crate::fuzzing::*;
    }
}
