//! The typed graph that every phase after the reader works on.
//!
//! **Architecture Invariant:** nothing here knows about flatbuffers. The reader
//! (`crate::tflite`) builds this IR; every later phase reads only this IR. Constant data is a
//! borrowed view into the model file's bytes (`Tensor::data`), so reading a 4 MB model
//! copies no weights.

mod ops;
mod dtype;
pub mod memory;
mod sparse;

pub use dtype::DType;
pub use memory::{Call, DeltaBound, MemoryCaps};
pub use ops::*;
pub use sparse::{DimFormat, DimMetadata, IndexVector, SparseLayout, Sparsity};

use crate::index::IndexVec;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

crate::define_index!(
    /// A tensor of one subgraph.
    pub struct TensorId = "t";
);
crate::define_index!(
    /// An operator of one subgraph, in file order.
    pub struct OpId = "op";
);
crate::define_index!(
    /// A subgraph of the model; subgraph 0 is the entry point.
    pub struct SubgraphId = "sg";
);

/// A whole model: its subgraphs and model-level metadata.
#[derive(Debug, Clone)]
pub struct Model<'a> {
    /// Schema version of the file (3 for all current TFLite files).
    pub version: u32,
    /// The model's `description` string, when it has one.
    pub description: Option<String>,
    /// Every subgraph; subgraph 0 is the entry point ([`Model::main`]).
    pub subgraphs: IndexVec<SubgraphId, Subgraph<'a>>,
    /// The named entry points, in file order (often empty).
    pub signature_defs: Vec<SignatureDef>,
    /// Every metadata entry, by name, with its raw buffer bytes.
    pub metadata: Vec<Metadata<'a>>,
    /// TFLite Micro's `OfflineMemoryAllocation` metadata, when present.
    pub offline_memory_allocation: Option<OfflineMemoryAllocation>,
}

impl<'a> Model<'a> {
    /// The entry subgraph (subgraph 0). The reader guarantees there is at least one.
    pub fn main(&self) -> &Subgraph<'a> {
        &self.subgraphs.as_slice()[0]
    }
}

/// One subgraph: tensors, operators in file order, and its inputs and outputs.
#[derive(Debug, Clone)]
pub struct Subgraph<'a> {
    /// Its index in the model.
    pub id: SubgraphId,
    /// Its name (empty when the file has none).
    pub name: String,
    /// Its tensors, indexed by [`TensorId`].
    pub tensors: IndexVec<TensorId, Tensor<'a>>,
    /// Its operators in file order, indexed by [`OpId`].
    pub ops: IndexVec<OpId, Operator<'a>>,
    /// The tensors its caller writes before running it.
    pub inputs: Vec<TensorId>,
    /// The tensors its caller reads after running it.
    pub outputs: Vec<TensorId>,
    /// Operators evaluated at compile time (`passes::fold`): their outputs hold constant
    /// data and they lower to a kernel that runs nothing. Empty as read from a file.
    pub folded: BTreeSet<OpId>,
    /// Folded float32 constants to keep as their float16 source in flash
    /// (`CompileOptions::keep_f16_weights`): the outputs of folded constant float16
    /// DEQUANTIZE ops whose every reader takes float16 weights (CONV_2D, DEPTHWISE_CONV_2D and
    /// FULLY_CONNECTED filters). Empty unless asked for.
    pub half_weights: BTreeSet<TensorId>,
    /// int4 constants (TFLite's packed `INT4`) that `passes::fold` unpacked to int8 (their
    /// type is int8 and their data the unpacked bytes after folding), with the packed bytes
    /// the file stores. Only filters of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED on
    /// int8 activations and DEQUANTIZE inputs are unpacked; any other int4 tensor keeps its
    /// type and is refused by the operators reading it. Empty as read from a file.
    pub int4_packed: BTreeMap<TensorId, &'a [u8]>,
    /// int8 constants decoded from TFLite Micro's LUT-compressed form (the outputs of folded
    /// TFLM_DECODE ops) whose every reader is the filter of an int8 CONV_2D,
    /// DEPTHWISE_CONV_2D or FULLY_CONNECTED, kept compressed in flash: those kernels read the
    /// value tables and indices (`lower::ops::decode::kept_lut`) unless they cannot, and
    /// the tensor's data (the decoded bytes) serves the interpreter. Empty unless the
    /// compile keeps them (the default; `CompileOptions::decode_weights` turns it off).
    pub lut_weights: BTreeSet<TensorId>,
    /// Unpacked int4 constants (in [`Subgraph::int4_packed`]) whose every reader is the
    /// filter of an int8 CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED, kept packed in flash
    /// for the Arm and 32-bit RISC-V builds: those kernels' microcontroller calls read the
    /// nibbles (`lower::ops::int4::kept_int4`) unless they cannot; hosts read the int8 data.
    /// Empty unless the compile keeps them (the default; `CompileOptions::decode_weights`
    /// turns it off).
    pub int4_kept: BTreeSet<TensorId>,
    /// Arena scratch bytes for the caller's custom-operator kernels, by custom code
    /// (`CompileOptions::custom_scratch`, `--custom-scratch NAME=BYTES`): each operator of
    /// that code gets a region live during its call only. Empty as read from a file.
    pub custom_scratch: BTreeMap<String, usize>,
    /// Custom codes tflc has a built-in kernel for whose kernel the caller supplies instead
    /// (`CompileOptions::custom_kernels`, `--custom-kernel NAME`): their operators lower to
    /// the caller's kernel. Empty as read from a file.
    pub custom_kernels: BTreeSet<String>,
}

impl<'a> Subgraph<'a> {
    /// The tensor `id`, which must be one of this subgraph's (the reader checked every index in the file).
    pub fn tensor(&self, id: TensorId) -> &Tensor<'a> {
        &self.tensors[id]
    }
}

/// One tensor.
#[derive(Debug, Clone)]
pub struct Tensor<'a> {
    /// Its index in its subgraph.
    pub id: TensorId,
    /// Its name (empty when the file has none).
    pub name: String,
    /// Its element type.
    pub dtype: DType,
    /// The static shape that we compile for (TFLite's `shape`). Scalars have `[]`.
    pub shape: Vec<usize>,
    /// TFLite's `shape_signature` when present: `-1` marks a dimension that was dynamic at
    /// conversion time (typically the batch). We compile for `shape`, as TFLite Micro does.
    pub shape_signature: Option<Vec<i32>>,
    /// Its quantization, when it has one.
    pub quant: Option<Quantization>,
    /// Constant data (weights, biases, shape operands), borrowed from the model file. For a
    /// sparse tensor (`sparsity`), only its stored values.
    pub data: Option<&'a [u8]>,
    /// How a sparse constant stores its values (TFLite's `SparsityParameters`), checked by
    /// the reader; `passes::fold` densifies it, so the folded model has no sparse tensor.
    pub sparsity: Option<std::sync::Arc<Sparsity>>,
    /// A variable (state) tensor: lives across runs.
    pub is_variable: bool,
}

impl Tensor<'_> {
    /// Number of elements (1 for a scalar).
    pub fn num_elements(&self) -> usize {
        self.shape.iter().product()
    }
    /// Size in bytes, or `None` for an element type without a fixed size (string).
    pub fn byte_size(&self) -> Option<usize> {
        self.dtype.byte_size_of(self.num_elements())
    }
    /// Whether the tensor has constant data in the file (weights, biases, folded outputs).
    pub fn is_constant(&self) -> bool {
        self.data.is_some()
    }
    /// The byte TFLite Micro fills a variable tensor with when it resets it
    /// (`MicroInterpreterGraph::ResetTensorData`, a `memset`): the first zero point of an
    /// int8 tensor, 0 for every other type. Generated models start from this state.
    pub fn reset_byte(&self) -> u8 {
        match (self.dtype, self.quant.as_ref().and_then(|q| q.zero_point.first())) {
            // memset takes the value as an int and stores its low byte.
            (DType::I8, Some(&zp)) => zp as u8,
            _ => 0,
        }
    }
    /// True when `shape_signature` marks a dimension as dynamic.
    pub fn has_dynamic_signature(&self) -> bool {
        self.shape_signature.as_ref().is_some_and(|s| s.iter().any(|&d| d < 0))
    }
}

/// Affine quantization: `real = scale * (q - zero_point)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Quantization {
    /// One scale per tensor, or one per slice along `axis`.
    pub scale: Vec<f32>,
    /// Same length as `scale` (the reader fills a missing zero point list with zeros).
    pub zero_point: Vec<i64>,
    /// The quantized dimension when `scale` has more than one entry.
    pub axis: Option<usize>,
}

impl Quantization {
    /// Whether one scale and zero point cover the whole tensor.
    pub fn is_per_tensor(&self) -> bool {
        self.scale.len() == 1
    }
    /// The single scale and zero point of a per-tensor quantization.
    pub fn per_tensor(&self) -> Option<(f32, i64)> {
        match (self.scale.as_slice(), self.zero_point.as_slice()) {
            ([s], [z]) => Some((*s, *z)),
            _ => None,
        }
    }
}

/// A model-level metadata entry.
#[derive(Debug, Clone)]
pub struct Metadata<'a> {
    /// The entry's name (`OfflineMemoryAllocation`, `min_runtime_version`, ...).
    pub name: String,
    /// The entry's bytes, borrowed from the file.
    pub data: &'a [u8],
}

/// TFLite Micro's offline memory plan (`OfflineMemoryAllocation` metadata): a byte offset
/// per tensor of each subgraph, `-1` where the online planner decides.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OfflineMemoryAllocation {
    /// The metadata format's version.
    pub version: i32,
    /// Number of subgraphs the plan covers.
    pub subgraphs: i32,
    /// One offset per tensor, subgraph by subgraph (`-1`: planned online).
    pub offsets: Vec<i32>,
}

/// A named entry point (`signature_defs`).
#[derive(Debug, Clone, Serialize)]
pub struct SignatureDef {
    /// The signature's key (its name).
    pub key: String,
    /// The subgraph it runs.
    pub subgraph: SubgraphId,
    /// Its inputs: the signature's name for each, and the tensor.
    pub inputs: Vec<(String, TensorId)>,
    /// Its outputs: the signature's name for each, and the tensor.
    pub outputs: Vec<(String, TensorId)>,
}

/// One operator.
#[derive(Debug, Clone)]
pub struct Operator<'a> {
    /// Its index in its subgraph.
    pub id: OpId,
    /// The operator code as the file names it.
    pub opcode: OpCode,
    /// What the operator is, with its builtin options typed. Builtins that tflc does not
    /// know and custom ops are `OpKind::Unsupported`; their name stays in `opcode`.
    pub kind: OpKind,
    /// Inputs in TFLite order; `None` for an omitted optional input (index -1).
    pub inputs: Vec<Option<TensorId>>,
    /// Its outputs, in TFLite order.
    pub outputs: Vec<TensorId>,
    /// Extra tensors some ops (LSTM) declare for their intermediate quantization.
    pub intermediates: Vec<TensorId>,
    /// The raw custom options of a custom op (flexbuffer), when present.
    pub custom_options: Option<&'a [u8]>,
    /// The version of its operator code (`OperatorCode.version`, 1 by default): which of a
    /// custom operator's kernels a resolver registers (MediaPipe's `AddCustom(name, reg,
    /// version)`).
    pub version: i32,
}

impl Operator<'_> {
    /// The input at `i`, if present.
    pub fn input(&self, i: usize) -> Option<TensorId> {
        self.inputs.get(i).copied().flatten()
    }
    /// The inputs that are present, in order.
    pub fn present_inputs(&self) -> impl Iterator<Item = TensorId> + '_ {
        self.inputs.iter().filter_map(|t| *t)
    }
    /// Why tflc cannot compile this operator whatever its tensors are: a builtin the reader
    /// does not know, or a custom op (`None` for every [`OpKind`] the reader types). Lowering
    /// adds its own checks (element types, shapes, options) on top.
    pub fn unsupported_reason(&self) -> Option<&'static str> {
        match (&self.kind, &self.opcode) {
            (OpKind::Unsupported, OpCode::Custom(_)) => Some("custom operator"),
            (OpKind::Unsupported, OpCode::Builtin { .. }) => Some("builtin operator not supported by tflc"),
            _ => None,
        }
    }
}
