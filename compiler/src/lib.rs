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
//! use tflc::tflite::builder::ModelBuilder;
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

pub mod codegen;
mod config;
pub mod emit;
pub mod error;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
pub mod index;
pub mod inspect;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod macro_support;
pub mod passes;
pub mod pipeline;
pub mod plan;
pub mod schedule;
pub mod text;
pub mod tflite;
#[doc(hidden)]
pub mod testing;

pub use config::{write_if_changed, Config};
pub use error::{Error, LowerError, OptionsError, ParseError, Result};
pub use pipeline::{compile, compile_models, CompileOptions, Compiled, CompiledModels};
