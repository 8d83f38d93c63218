//! Operator kinds and their typed builtin options.

use serde::Serialize;
use std::fmt;

use super::SubgraphId;

/// The operator code as the file names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpCode {
    /// A builtin: TFLite's numeric code and upper-case name (`CONV_2D`).
    Builtin { code: i32, name: String },
    /// A custom op with its `custom_code`.
    Custom(String),
}

impl fmt::Display for OpCode {
    /// `CONV_2D`, or `CUSTOM:<code>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpCode::Builtin { name, .. } => f.write_str(name),
            OpCode::Custom(code) => write!(f, "CUSTOM:{code}"),
        }
    }
}

/// A fused activation function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Activation {
    #[default]
    None,
    Relu,
    ReluN1To1,
    Relu6,
    Tanh,
    SignBit,
    /// A code this schema version does not know.
    Unknown(i8),
}

/// Spatial padding scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Padding {
    /// TFLite's default (code 0).
    #[default]
    Same,
    Valid,
    Unknown(i8),
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Conv2dOptions {
    pub padding: Padding,
    pub stride_w: i32,
    pub stride_h: i32,
    pub dilation_w: i32,
    pub dilation_h: i32,
    pub activation: Activation,
}

impl Default for Conv2dOptions {
    /// The flatbuffer defaults of an absent options table.
    fn default() -> Self {
        Self { padding: Padding::Same, stride_w: 0, stride_h: 0, dilation_w: 1, dilation_h: 1, activation: Activation::None }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DepthwiseConv2dOptions {
    pub padding: Padding,
    pub stride_w: i32,
    pub stride_h: i32,
    pub depth_multiplier: i32,
    pub dilation_w: i32,
    pub dilation_h: i32,
    pub activation: Activation,
}

impl Default for DepthwiseConv2dOptions {
    fn default() -> Self {
        Self {
            padding: Padding::Same,
            stride_w: 0,
            stride_h: 0,
            depth_multiplier: 0,
            dilation_w: 1,
            dilation_h: 1,
            activation: Activation::None,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Pool2dOptions {
    pub padding: Padding,
    pub stride_w: i32,
    pub stride_h: i32,
    pub filter_w: i32,
    pub filter_h: i32,
    pub activation: Activation,
}

/// TRANSPOSE_CONV's options (dilation is always 1; `quantized_bias_type` is not used by
/// TFLite Micro's kernel, which reads the bias tensor's own type).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TransposeConvOptions {
    pub padding: Padding,
    pub stride_w: i32,
    pub stride_h: i32,
    pub activation: Activation,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FullyConnectedOptions {
    pub activation: Activation,
    /// `false` for the default weights format; shuffled formats are refused by lowering.
    pub shuffled_weights: bool,
    pub keep_num_dims: bool,
    pub asymmetric_quantize_inputs: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StridedSliceOptions {
    pub begin_mask: i32,
    pub end_mask: i32,
    pub ellipsis_mask: i32,
    pub new_axis_mask: i32,
    pub shrink_axis_mask: i32,
    pub offset: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ResizeOptions {
    pub align_corners: bool,
    pub half_pixel_centers: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SvdfOptions {
    pub rank: i32,
    pub activation: Activation,
    pub asymmetric_quantize_inputs: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SequenceLstmOptions {
    pub activation: Activation,
    pub cell_clip: f32,
    pub proj_clip: f32,
    pub time_major: bool,
    pub asymmetric_quantize_inputs: bool,
    pub diagonal_recurrent_tensors: bool,
}

/// What an operator does, with its typed options. The list covers every builtin of the
/// corpus and of the kernel list; anything else is `Unsupported` (never dropped).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum OpKind {
    Conv2d(Conv2dOptions),
    DepthwiseConv2d(DepthwiseConv2dOptions),
    FullyConnected(FullyConnectedOptions),
    AveragePool2d(Pool2dOptions),
    MaxPool2d(Pool2dOptions),
    Add { activation: Activation },
    Sub { activation: Activation },
    Mul { activation: Activation },
    Div { activation: Activation },
    Softmax { beta: f32 },
    Logistic,
    Tanh,
    HardSwish,
    Relu,
    Relu6,
    ReluN1To1,
    LeakyRelu { alpha: f32 },
    Prelu,
    Quantize,
    Dequantize,
    Pad,
    PadV2,
    Concatenation { axis: i32, activation: Activation },
    Mean { keep_dims: bool },
    Sum { keep_dims: bool },
    ArgMax,
    ArgMin,
    Cumsum { exclusive: bool, reverse: bool },
    AddN,
    ReduceMax { keep_dims: bool },
    ReduceMin { keep_dims: bool },
    ReduceAll { keep_dims: bool },
    Transpose,
    StridedSlice(StridedSliceOptions),
    Slice,
    Split { num_splits: i32 },
    SplitV { num_splits: i32 },
    Pack { values_count: i32, axis: i32 },
    Unpack { num: i32, axis: i32 },
    ResizeNearestNeighbor(ResizeOptions),
    ResizeBilinear(ResizeOptions),
    Maximum,
    Minimum,
    /// Elementwise comparisons with broadcasting; the output is bool.
    Equal,
    NotEqual,
    Greater,
    GreaterEqual,
    Less,
    LessEqual,
    /// Elementwise logic on bool tensors (AND and OR broadcast).
    LogicalAnd,
    LogicalOr,
    LogicalNot,
    /// `condition ? x : y` with three-way broadcasting.
    SelectV2,
    /// `new_shape` from the options when given; the shape operand or the output shape rule.
    Reshape { new_shape: Option<Vec<i32>> },
    Squeeze { squeeze_dims: Vec<i32> },
    ExpandDims,
    /// SHAPE: the input's shape as int32 or int64 (the output's type); always folded at
    /// compile time (`passes::fold`), shapes being static.
    Shape,
    Cast,
    Gather { axis: i32, batch_dims: i32 },
    Svdf(SvdfOptions),
    UnidirectionalSequenceLstm(SequenceLstmOptions),
    If { then_subgraph: SubgraphId, else_subgraph: SubgraphId },
    While { cond_subgraph: SubgraphId, body_subgraph: SubgraphId },
    CallOnce { init_subgraph: SubgraphId },
    // Layout and indexing.
    BatchToSpaceNd,
    BroadcastArgs,
    BroadcastTo,
    DepthToSpace { block_size: i32 },
    DynamicUpdateSlice,
    EmbeddingLookup,
    Fill,
    GatherNd,
    /// MIRROR_PAD: `mode` is the schema's `MirrorPadMode` code (0 REFLECT, 1 SYMMETRIC).
    MirrorPad { mode: i8 },
    ReverseV2,
    SpaceToBatchNd,
    SpaceToDepth { block_size: i32 },
    ZerosLike,
    /// VAR_HANDLE: a resource tensor naming the resource variable `(container, shared_name)`
    /// (one per pair across all subgraphs, TFLite Micro's `micro_resource_variable.cc`).
    VarHandle { container: String, shared_name: String },
    /// ASSIGN_VARIABLE(resource, value): copies `value` into the resource variable.
    AssignVariable,
    /// READ_VARIABLE(resource) -> a copy of the resource variable.
    ReadVariable,
    // Elementwise math.
    Abs,
    Neg,
    Ceil,
    Floor,
    Round,
    Sqrt,
    Rsqrt,
    Square,
    Sin,
    Cos,
    Log,
    Exp,
    Elu,
    SquaredDifference,
    FloorDiv,
    FloorMod,
    LogSoftmax,
    L2Normalization { activation: Activation },
    // Convolution family (issue 14).
    /// TRANSPOSE_CONV(output_shape, filter OHWI, input, bias?).
    TransposeConv(TransposeConvOptions),
    /// BATCH_MATMUL(lhs, rhs): `adj_x` / `adj_y` transpose the last two dimensions.
    BatchMatmul { adj_x: bool, adj_y: bool },
    L2Pool2d(Pool2dOptions),
    /// A builtin tflc does not know, or a custom op. The name is in `Operator::opcode`.
    Unsupported,
}

