//! `tflc`: an ahead-of-time compiler from TensorFlow Lite models to Rust.
//!
//! Phases, one module each (see `ARCHITECTURE.md`): [`tflite`] reads and verifies the
//! flatbuffer into the typed [`ir`]; [`inspect`] summarises a model.
#![deny(unsafe_code)]

pub mod codegen;
pub mod error;
pub mod index;
pub mod inspect;
pub mod ir;
pub mod tflite;
#[doc(hidden)]
pub mod testing;

pub use error::{Error, ParseError, Result};
