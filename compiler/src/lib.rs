//! `tflc`: an ahead-of-time compiler from TensorFlow Lite models to Rust.
//!
//! Phases, one module each (see `ARCHITECTURE.md`), run in order by [`pipeline`]:
//! [`tflite`] reads and verifies the flatbuffer into the typed [`ir`]; [`passes`] folds
//! constant subgraphs (DEQUANTIZE of constant weights); [`lower`] lowers every
//! operator once into its kernel and capabilities; [`plan`] (with [`schedule`]) orders the
//! operators and places the arena; [`codegen`] emits the module. [`inspect`] summarises a
//! model, [`interp`] runs the lowered kernels as a reference.
#![deny(unsafe_code)]
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
pub use error::{Error, LowerError, ParseError, Result};
pub use pipeline::{compile, compile_models, CompileOptions, Compiled, CompiledModels};
