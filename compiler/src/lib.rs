//! `tflc`: an ahead-of-time compiler from TensorFlow Lite models to Rust.
#![forbid(unsafe_code)]
