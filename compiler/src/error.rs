//! Errors of every phase, wrapped by [`enum@Error`].
//!
//! Every variant names where the problem is: the operator index and opcode, and the tensor
//! by name and index, so that a user can find it in Netron or `tflc inspect`.

use thiserror::Error;

/// Any error tflc reports.
#[derive(Debug, Error)]
pub enum Error {
    #[error(transparent)]
    /// The model file could not be read.
    Parse(#[from] ParseError),
    #[error(transparent)]
    /// An operator could not be lowered.
    Lower(#[from] LowerError),
    #[error("memory planning failed: {0}")]
    /// The memory planner failed or its plan did not verify. (Not a `#[source]`: the message
    /// already carries it, and an error chain would print it twice.)
    Plan(crate::plan::PlanError),
    #[error("{count} operators cannot be compiled:\n{details}")]
    /// Operators that do not lower, all reported at once.
    Unsupported {
        /// How many.
        count: usize,
        /// One line per operator, with its location and reason.
        details: String,
    },
    /// The options given do not work, alone or together, or not for this model: the user's
    /// to change (the CLI exits with status 2).
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// The reference interpreter ([`crate::interp`]) was given inputs that do not fit the
    /// model, or an operator failed to execute.
    #[error("{0}")]
    Run(String),
    /// Lowering, plan and code generation disagree: a fault in tflc itself, never in the
    /// model or the options.
    #[error("internal compiler error: {0} (this is a bug in tflc: please report it with the model and the command line)")]
    Internal(String),
    /// The plan does not fit the user's `max_arena` (a check failed, not the compiler: the
    /// CLI exits with status 1).
    #[error(transparent)]
    OverBudget(#[from] crate::plan::budget::OverBudget),
    /// The generated module could not be linked or addressed on its target.
    #[error("the model is too large for a {pointer_width}-bit target: {}", .violations.join("; "))]
    TooLarge {
        /// The target's pointer width, in bits.
        pointer_width: u32,
        /// Each size or offset that does not fit.
        violations: Vec<String>,
    },
    /// One of several models compiled into one module ([`crate::compile_models`]) failed.
    #[error("{file}: {error}")]
    InModel {
        /// The model's file.
        file: String,
        /// What failed.
        error: Box<Error>,
    },
    #[error("cannot read {path}: {source}")]
    /// A file could not be read or written.
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl From<crate::plan::PlanError> for Error {
    fn from(e: crate::plan::PlanError) -> Self {
        Error::Plan(e)
    }
}

impl Error {
    /// A check the user asked for failed (`max_arena`, a bounded pool), not the model or the
    /// compiler: the CLI exits with status 1 for it, 2 for every other error.
    pub fn is_over_budget(&self) -> bool {
        match self {
            Error::OverBudget(_) => true,
            Error::InModel { error, .. } => error.is_over_budget(),
            _ => false,
        }
    }
}

/// Options that do not work, alone, together, or for the model given. Each message names the
/// option as the CLI spells it and as [`crate::Config`] does.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OptionsError {
    /// `--align` / `Config::align` outside what the generated code can express.
    #[error("alignment {align} is not a power of two from 16 to {max} (--align, Config::align)")]
    Align {
        /// The alignment asked for.
        align: usize,
        /// The largest alignment the runtime has a wrapper for.
        max: usize,
    },
    /// `--target-pointer-width` other than 16, 32 or 64.
    #[error("target pointer width {bits} is not 16, 32 or 64 (--target-pointer-width)")]
    PointerWidth {
        /// The width asked for.
        bits: u32,
    },
    /// `--runtime-crate` / `Config::runtime_path` that is not a Rust path.
    #[error("runtime crate path {path:?} is not a Rust path (--runtime-crate, Config::runtime_path)")]
    RuntimePath {
        /// The path given.
        path: String,
    },
    /// The memory pools given do not form a valid list (`--pool`, `Config::pool`).
    #[error("{0}")]
    Pools(String),
    /// `Config::pool_section` names a pool that no `Config::pool` added.
    #[error("pool_section: no pool `{name}` (add it with Config::pool, or --pool {name}=SIZE)")]
    PoolSection {
        /// The pool named.
        name: String,
    },
    /// Memory pools asked for a model that calls subgraphs.
    #[error("--pool: models that call subgraphs (IF, WHILE, CALL_ONCE) keep one arena; compile this model without --pool")]
    PoolsWithCalls,
    /// No model given.
    #[error("no model to compile")]
    NoModel,
    /// Several models in one module with their weights in a file.
    #[error("several models in one module keep their weights inline; weights in a file (--emit-weights file) are for one model at a time")]
    SharedWeightsInFile,
    /// Several models in one module with memory pools.
    #[error("--pool: several models in one module share one arena; memory pools are for one model at a time (compile each model with its own --pool)")]
    SharedWithPools,
    /// Two model files whose module names are the same.
    #[error("{first} and {second} both become module `{name}`; rename one file")]
    ModuleNameClash {
        /// The first file.
        first: String,
        /// The second file.
        second: String,
        /// The module name they share.
        name: String,
    },
    /// `--custom-scratch NAME=BYTES` for a custom code the model does not have.
    #[error("--custom-scratch {name}=...: the model has no custom operator CUSTOM:{name} (Config::custom_scratch, include_model!'s custom_scratch)")]
    CustomScratchUnused {
        /// The custom code given.
        name: String,
    },
    /// `--custom-scratch NAME=BYTES` for a custom code tflc has a built-in kernel for, which
    /// the caller did not take over.
    #[error("--custom-scratch {name}=...: tflc has a built-in kernel for CUSTOM:{name}, which takes no scratch of yours; to supply your own kernel (and give it scratch) add --custom-kernel {name} (Config::custom_kernel, include_model!'s custom_kernels)")]
    CustomScratchBuiltin {
        /// The custom code given.
        name: String,
    },
    /// `--custom-kernel NAME` for a custom code the model does not have.
    #[error("--custom-kernel {name}: the model has no custom operator CUSTOM:{name} (Config::custom_kernel, include_model!'s custom_kernels)")]
    CustomKernelUnused {
        /// The custom code given.
        name: String,
    },
    /// `--custom-kernel NAME` for one of TFLite Micro's custom operators, which tflc folds
    /// or runs with state of its own.
    #[error("--custom-kernel {name}: CUSTOM:{name} is one of TFLite Micro's operators, which tflc implements itself (folded at compile time or with state of its own); its kernel cannot be replaced")]
    CustomKernelNotReplaceable {
        /// The custom code given.
        name: String,
    },
    /// A model with custom operators of the caller's among several sharing one arena.
    #[error("{model}: op {op} is a custom operator whose kernel is the caller's; a model sharing its arena with others cannot take kernels yet; compile this model on its own")]
    SharedCustomOps {
        /// The model's file.
        model: String,
        /// The first such operator.
        op: usize,
    },
    /// A model with CALL_ONCE among several sharing one arena.
    #[error("{model}: op {op} (CALL_ONCE) keeps a has-run flag beside the arena, which a model sharing its arena with others cannot have yet; compile this model on its own")]
    SharedCallOnce {
        /// The model's file.
        model: String,
        /// The CALL_ONCE operator's index.
        op: usize,
    },
}

/// Where in the model a problem is: subgraph, operator and tensor when known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// The subgraph's index.
    pub subgraph: Option<usize>,
    /// The operator's index in its subgraph.
    pub op_index: Option<usize>,
    /// The operator's opcode (`CONV_2D`).
    pub opcode: Option<String>,
    /// The tensor's index in its subgraph.
    pub tensor_index: Option<usize>,
    /// The tensor's name.
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
    /// The bytes are not a TFLite flatbuffer (no `TFL3` identifier, too short).
    NotTflite {
        /// What is wrong.
        reason: String,
    },
    #[error("corrupt model: the flatbuffer failed verification: {detail}")]
    /// The flatbuffer verifier rejected the file.
    Corrupt {
        /// The verifier's message.
        detail: String,
    },
    #[error("the model has no subgraphs")]
    /// The model has no subgraph to compile.
    NoSubgraphs,
    #[error("{at}: {what}")]
    /// A field is out of range or inconsistent.
    Invalid {
        /// Where.
        at: Location,
        /// What is wrong.
        what: String,
    },
    #[error("{at}: invalid sparsity metadata: {what}")]
    /// A sparse constant's `SparsityParameters` do not describe its shape and buffer.
    Sparsity {
        /// The tensor, and the first operator reading it.
        at: Location,
        /// What is wrong, naming the field.
        what: String,
    },
    #[error("{at}: shape {shape:?} is not fixed at compile time (negative dimension)")]
    /// A tensor's shape has a negative (dynamic) dimension.
    DynamicShape {
        /// The tensor.
        at: Location,
        /// Its shape as stored.
        shape: Vec<i32>,
    },
    #[error("{at}: constant data is {actual} bytes, but {dtype}{shape:?} needs {expected}")]
    /// A constant's data does not have its shape's size.
    ConstantSize {
        /// The tensor.
        at: Location,
        /// Its element type.
        dtype: String,
        /// Its shape.
        shape: Vec<usize>,
        /// Bytes its shape needs.
        expected: usize,
        /// Bytes in its buffer.
        actual: usize,
    },
    #[error("{at}: buffer {buffer} lies outside the file (offset {offset}, size {size}, file {file_len} bytes)")]
    /// A buffer's data lies outside the file.
    BufferOutOfFile {
        /// The tensor using it.
        at: Location,
        /// The buffer's index.
        buffer: usize,
        /// Its offset in the file.
        offset: u64,
        /// Its size in bytes.
        size: u64,
        /// The file's length in bytes.
        file_len: usize,
    },
}

/// An operator could not be lowered to a kernel call.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum LowerError {
    /// tflc has no kernel for this operator in this configuration (op kind, element
    /// types, options).
    #[error("{at}: unsupported: {reason}")]
    Unsupported {
        /// Where.
        at: Location,
        /// Why, naming what is missing.
        reason: String,
    },
    /// The model is inconsistent (missing input, wrong shape, bad quantization).
    #[error("{at}: {what}")]
    Invalid {
        /// Where.
        at: Location,
        /// What is wrong.
        what: String,
    },
}

impl LowerError {
    /// Where the error is.
    pub fn location(&self) -> &Location {
        match self {
            LowerError::Unsupported { at, .. } | LowerError::Invalid { at, .. } => at,
        }
    }
}

/// The result of every fallible tflc function; `E` defaults to [`enum@Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
