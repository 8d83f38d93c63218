//! Graph passes between reading and lowering. Each pass computes what it changes from a
//! read model and applies it as a new model that borrows the computed data
//! ([`fold::Folded`]), so that the reader's models keep borrowing the file.
//!
//! **Architecture Invariant:** a pass keeps every operator and tensor index of the file
//! (errors, `inspect` and the generated comments name the file's indices); a folded
//! operator stays in the graph with constant outputs and lowers to no code.

pub mod fold;
pub mod resources;
pub mod state;

/// Reads a model file ([`crate::tflite::read_model`]: verified, every field checked) and adds
/// its state tensors ([`state`]): the model every later phase starts from.
pub fn read_model(bytes: &[u8]) -> Result<crate::ir::Model<'_>, crate::error::ParseError> {
    let mut model = crate::tflite::read_model(bytes)?;
    state::apply(&mut model);
    Ok(model)
}
