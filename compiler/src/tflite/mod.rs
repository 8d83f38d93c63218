//! The only module that sees flatbuffer types: it verifies a `.tflite` file and reads it into
//! the IR (`read_model`), and writes small models for tests (`builder`).
//!
//! **Architecture Invariant:** no other module imports `schema_generated`.

#[allow(clippy::all, unused_imports, dead_code, non_camel_case_types, non_snake_case, deprecated, unsafe_code)]
#[rustfmt::skip]
mod schema_generated;

pub mod builder;
pub mod flexbuffers;
#[cfg(feature = "fuzzing")]
pub mod mutate;
mod reader;
#[cfg(feature = "fuzzing")]
#[rustfmt::skip]
mod schema_desc;

pub use reader::read_model;

pub(crate) use schema_generated::tflite as fb;
