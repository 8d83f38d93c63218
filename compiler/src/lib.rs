//! `tflc`: an ahead-of-time compiler from TensorFlow Lite models to Rust.
#![forbid(unsafe_code)]

#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
pub mod plan;
pub mod schedule;
