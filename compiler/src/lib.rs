//! `tflc`: an ahead-of-time compiler from TensorFlow Lite models to Rust.
//!
//! Phases, one module each (see `ARCHITECTURE.md`): [`tflite`] reads and verifies the
//! flatbuffer into the typed [`ir`]; [`inspect`] summarises a model.
#![deny(unsafe_code)]

pub mod error;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
pub mod index;
pub mod inspect;
pub mod ir;
pub mod plan;
pub mod schedule;
pub mod tflite;
#[doc(hidden)]
pub mod testing;

pub use error::{Error, ParseError, Result};
