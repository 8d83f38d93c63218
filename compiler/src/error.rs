//! Errors of every phase, wrapped by [`Error`].
//!
//! Every variant names where the problem is: the operator index and opcode, and the tensor
//! by name and index, so that a user can find it in Netron or `tflc inspect`.

use thiserror::Error;

/// Any error tflc reports.
#[derive(Debug, Error)]
pub enum Error {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Lower(#[from] LowerError),
    #[error("memory planning failed: {0}")]
    Plan(#[from] crate::plan::PlanError),
    #[error("{count} operators cannot be compiled:\n{details}")]
    Unsupported { count: usize, details: String },
    #[error("code generation failed: {0}")]
    Codegen(String),
    /// The plan does not fit the user's `max_arena` (a check failed, not the compiler: the
    /// CLI exits with status 1).
    #[error(transparent)]
    OverBudget(#[from] crate::plan::budget::OverBudget),
    /// The generated module could not be linked or addressed on its target.
    #[error("the model is too large for a {pointer_width}-bit target: {}", .violations.join("; "))]
    TooLarge { pointer_width: u32, violations: Vec<String> },
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: std::io::Error },
}

/// Where in the model a problem is: subgraph, operator and tensor when known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    pub subgraph: Option<usize>,
    pub op_index: Option<usize>,
    pub opcode: Option<String>,
    pub tensor_index: Option<usize>,
    pub tensor_name: Option<String>,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if let Some(sg) = self.subgraph.filter(|&s| s != 0) {
            parts.push(format!("subgraph {sg}"));
        }
        match (self.op_index, &self.opcode) {
            (Some(i), Some(c)) => parts.push(format!("op {i} ({c})")),
            (Some(i), None) => parts.push(format!("op {i}")),
            _ => {}
        }
        match (self.tensor_index, &self.tensor_name) {
            (Some(i), Some(n)) => parts.push(format!("tensor {i} \"{n}\"")),
            (Some(i), None) => parts.push(format!("tensor {i}")),
            (None, Some(n)) => parts.push(format!("tensor \"{n}\"")),
            _ => {}
        }
        if parts.is_empty() {
            f.write_str("model")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// The model file could not be read into the IR.
#[derive(Debug, Error)]
pub enum ParseError {
    #[error("not a TFLite model: {reason}")]
    NotTflite { reason: String },
    #[error("corrupt model: the flatbuffer failed verification: {detail}")]
    Corrupt { detail: String },
    #[error("the model has no subgraphs")]
    NoSubgraphs,
    #[error("{at}: {what}")]
    Invalid { at: Location, what: String },
    #[error("{at}: shape {shape:?} is not fixed at compile time (negative dimension)")]
    DynamicShape { at: Location, shape: Vec<i32> },
    #[error("{at}: constant data is {actual} bytes, but {dtype}{shape:?} needs {expected}")]
    ConstantSize { at: Location, dtype: String, shape: Vec<usize>, expected: usize, actual: usize },
    #[error("{at}: buffer {buffer} lies outside the file (offset {offset}, size {size}, file {file_len} bytes)")]
    BufferOutOfFile { at: Location, buffer: usize, offset: u64, size: u64, file_len: usize },
}

/// An operator could not be lowered to a kernel call.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum LowerError {
    /// tflc has no kernel for this operator in this configuration (op kind, element
    /// types, options).
    #[error("{at}: unsupported: {reason}")]
    Unsupported { at: Location, reason: String },
    /// The model is inconsistent (missing input, wrong shape, bad quantization).
    #[error("{at}: {what}")]
    Invalid { at: Location, what: String },
}

impl LowerError {
    /// Where the error is.
    pub fn location(&self) -> &Location {
        match self {
            LowerError::Unsupported { at, .. } | LowerError::Invalid { at, .. } => at,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
