//! Graph passes between reading and lowering. Each pass computes what it changes from a
//! read model and applies it as a new model that borrows the computed data
//! ([`fold::Folded`]), so that the reader's models keep borrowing the file.
//!
//! **Architecture Invariant:** a pass keeps every operator and tensor index of the file
//! (errors, `inspect` and the generated comments name the file's indices); a folded
//! operator stays in the graph with constant outputs and lowers to no code.

pub mod fold;
pub mod resources;
