//! Code generation. `ops/` lowers each operator to a kernel call with its parameters
//! computed at compile time (one file per TFLite builtin); the module emitter comes on top.

pub mod ops;
