//! Lowering: every operator checked and turned into its kernel with compile-time
//! parameters. `ops/` holds one file per TFLite builtin and the registry.

pub mod ops;
