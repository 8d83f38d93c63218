//! Operator kinds and their typed builtin options.

use serde::Serialize;
use std::fmt;

use super::SubgraphId;

/// The operator code as the file names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpCode {
    /// A builtin: TFLite's numeric code and upper-case name (`CONV_2D`).
    Builtin {
        /// The `BuiltinOperator` code (the larger of the deprecated and the new field).
        code: i32,
        /// The schema's upper-case name of `code`.
        name: String,
    },
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
    /// No activation.
    None,
    /// `max(0, x)`.
    Relu,
    /// `min(max(-1, x), 1)`.
    ReluN1To1,
    /// `min(max(0, x), 6)`.
    Relu6,
    /// `tanh(x)`.
    Tanh,
    /// 1 where the sign bit is set, else 0.
    SignBit,
    /// A code this schema version does not know.
    Unknown(i8),
}

/// TFLite's names (`ActivationFunctionType`), for messages.
impl std::fmt::Display for Activation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Activation::None => f.write_str("NONE"),
            Activation::Relu => f.write_str("RELU"),
            Activation::ReluN1To1 => f.write_str("RELU_N1_TO_1"),
            Activation::Relu6 => f.write_str("RELU6"),
            Activation::Tanh => f.write_str("TANH"),
            Activation::SignBit => f.write_str("SIGN_BIT"),
            Activation::Unknown(c) => write!(f, "code {c} (not a TFLite ActivationFunctionType)"),
        }
    }
}

/// Spatial padding scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Padding {
    /// TFLite's default (code 0).
    #[default]
    Same,
    /// No padding: the window stays inside the input.
    Valid,
    /// A padding code this schema version does not know.
    Unknown(i8),
}

#[derive(Debug, Clone, PartialEq, Serialize)]
/// CONV_2D's options.
pub struct Conv2dOptions {
    /// How the window meets the edges.
    pub padding: Padding,
    /// Columns between two window positions.
    pub stride_w: i32,
    /// Rows between two window positions.
    pub stride_h: i32,
    /// Columns between two filter taps (1: dense).
    pub dilation_w: i32,
    /// Rows between two filter taps (1: dense).
    pub dilation_h: i32,
    /// The fused activation.
    pub activation: Activation,
}

impl Default for Conv2dOptions {
    /// The flatbuffer defaults of an absent options table.
    fn default() -> Self {
        Self { padding: Padding::Same, stride_w: 0, stride_h: 0, dilation_w: 1, dilation_h: 1, activation: Activation::None }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
/// DEPTHWISE_CONV_2D's options.
pub struct DepthwiseConv2dOptions {
    /// How the window meets the edges.
    pub padding: Padding,
    /// Columns between two window positions.
    pub stride_w: i32,
    /// Rows between two window positions.
    pub stride_h: i32,
    /// Output channels per input channel, as stored (lowering checks it against the shapes).
    pub depth_multiplier: i32,
    /// Columns between two filter taps (1: dense).
    pub dilation_w: i32,
    /// Rows between two filter taps (1: dense).
    pub dilation_h: i32,
    /// The fused activation.
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
/// The options of AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D.
pub struct Pool2dOptions {
    /// How the window meets the edges.
    pub padding: Padding,
    /// Columns between two window positions.
    pub stride_w: i32,
    /// Rows between two window positions.
    pub stride_h: i32,
    /// Window width, in pixels.
    pub filter_w: i32,
    /// Window height, in pixels.
    pub filter_h: i32,
    /// The fused activation.
    pub activation: Activation,
}

/// TRANSPOSE_CONV's options (dilation is always 1; `quantized_bias_type` is not used by
/// TFLite Micro's kernel, which reads the bias tensor's own type).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TransposeConvOptions {
    /// How the output size relates to the input (padding is computed from the output).
    pub padding: Padding,
    /// Output columns between two input pixels.
    pub stride_w: i32,
    /// Output rows between two input pixels.
    pub stride_h: i32,
    /// The fused activation.
    pub activation: Activation,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
/// FULLY_CONNECTED's options.
pub struct FullyConnectedOptions {
    /// The fused activation.
    pub activation: Activation,
    /// `false` for the default weights format; shuffled formats are refused by lowering.
    pub shuffled_weights: bool,
    /// The output keeps the input's leading dimensions instead of flattening them to `[batch, units]`.
    pub keep_num_dims: bool,
    /// Hybrid (float input, int8 weights) quantizes the input asymmetrically; hybrid models are refused.
    pub asymmetric_quantize_inputs: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
/// STRIDED_SLICE's options: bit `d` of a mask applies to dimension `d`.
pub struct StridedSliceOptions {
    /// Bit set: ignore `begin[d]`, start at the first (or last, for a negative stride) index.
    pub begin_mask: i32,
    /// Bit set: ignore `end[d]`, run to the end of the dimension.
    pub end_mask: i32,
    /// Bit set: that position stands for all the dimensions not named.
    pub ellipsis_mask: i32,
    /// Bit set: insert a dimension of size 1 there.
    pub new_axis_mask: i32,
    /// Bit set: take the single index `begin[d]` and drop the dimension.
    pub shrink_axis_mask: i32,
    /// `end` is an offset from `begin` rather than an index.
    pub offset: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
/// The options of RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR.
pub struct ResizeOptions {
    /// Input and output corner pixels are aligned (scale `(in - 1) / (out - 1)`).
    pub align_corners: bool,
    /// Samples at pixel centres (`(x + 0.5) * scale - 0.5`).
    pub half_pixel_centers: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
/// SVDF's options.
pub struct SvdfOptions {
    /// Filters per output unit.
    pub rank: i32,
    /// The fused activation.
    pub activation: Activation,
    /// Hybrid (float input, int8 weights) quantizes the input asymmetrically; hybrid models are refused.
    pub asymmetric_quantize_inputs: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
/// UNIDIRECTIONAL_SEQUENCE_LSTM's options.
pub struct SequenceLstmOptions {
    /// The cell gate's and output's activation (TANH in practice).
    pub activation: Activation,
    /// The cell state is clamped to `[-cell_clip, cell_clip]` when positive.
    pub cell_clip: f32,
    /// The projection is clamped to `[-proj_clip, proj_clip]` when positive.
    pub proj_clip: f32,
    /// Input and output are `[time, batch, ..]` (else `[batch, time, ..]`).
    pub time_major: bool,
    /// Hybrid (float input, int8 weights) quantizes the input asymmetrically; hybrid models are refused.
    pub asymmetric_quantize_inputs: bool,
    /// The recurrent weights are diagonal (stored as vectors).
    pub diagonal_recurrent_tensors: bool,
}

/// What an operator does, with its typed options. The list covers every builtin of the
/// corpus and of the kernel list; anything else is `Unsupported` (never dropped).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum OpKind {
    /// CONV_2D(input, filter OHWI, bias?).
    Conv2d(Conv2dOptions),
    /// DEPTHWISE_CONV_2D(input, filter 1HW(C*M), bias?).
    DepthwiseConv2d(DepthwiseConv2dOptions),
    /// FULLY_CONNECTED(input, weights `[units, depth]`, bias?).
    FullyConnected(FullyConnectedOptions),
    /// AVERAGE_POOL_2D(input).
    AveragePool2d(Pool2dOptions),
    /// MAX_POOL_2D(input).
    MaxPool2d(Pool2dOptions),
    /// ADD(a, b) with broadcasting.
    Add {
        /// The fused activation.
        activation: Activation,
    },
    /// SUB(a, b): `a - b` with broadcasting.
    Sub {
        /// The fused activation.
        activation: Activation,
    },
    /// MUL(a, b) with broadcasting.
    Mul {
        /// The fused activation.
        activation: Activation,
    },
    /// DIV(a, b): `a / b` with broadcasting.
    Div {
        /// The fused activation.
        activation: Activation,
    },
    /// SOFTMAX over the last dimension.
    Softmax {
        /// The inverse temperature: softmax of `beta * x`.
        beta: f32,
    },
    /// LOGISTIC: `1 / (1 + exp(-x))`.
    Logistic,
    /// TANH.
    Tanh,
    /// HARD_SWISH: `x * relu6(x + 3) / 6`.
    HardSwish,
    /// RELU: `max(0, x)`.
    Relu,
    /// RELU6: `min(max(0, x), 6)`.
    Relu6,
    /// RELU_N1_TO_1: `min(max(-1, x), 1)`.
    ReluN1To1,
    /// LEAKY_RELU: `x` for `x >= 0`, else `alpha * x`.
    LeakyRelu {
        /// The slope below 0.
        alpha: f32,
    },
    /// PRELU(input, alpha): LEAKY_RELU with a broadcast tensor of slopes.
    Prelu,
    /// QUANTIZE: float to integer, or integer to integer requantization.
    Quantize,
    /// DEQUANTIZE: integer (or float16) to float32.
    Dequantize,
    /// DENSIFY(sparse constant): the constant in dense form. tflc densifies at compile time
    /// (`passes::fold`); the op runs no code.
    Densify,
    /// PAD(input, paddings): pads with zero (the zero point when quantized).
    Pad,
    /// PADV2(input, paddings, constant): pads with a given value.
    PadV2,
    /// CONCATENATION of its inputs along an axis.
    Concatenation {
        /// The axis, negative from the end.
        axis: i32,
        /// The fused activation.
        activation: Activation,
    },
    /// MEAN(input, axes).
    Mean {
        /// Reduced dimensions stay as size 1.
        keep_dims: bool,
    },
    /// SUM(input, axes).
    Sum {
        /// Reduced dimensions stay as size 1.
        keep_dims: bool,
    },
    /// ARG_MAX(input, axis): the index of the largest value.
    ArgMax,
    /// ARG_MIN(input, axis): the index of the smallest value.
    ArgMin,
    /// CUMSUM(input, axis): running sums along an axis.
    Cumsum {
        /// Each output excludes its own element.
        exclusive: bool,
        /// Sums run from the end of the axis.
        reverse: bool,
    },
    /// ADD_N: the elementwise sum of all inputs.
    AddN,
    /// REDUCE_MAX(input, axes).
    ReduceMax {
        /// Reduced dimensions stay as size 1.
        keep_dims: bool,
    },
    /// REDUCE_MIN(input, axes).
    ReduceMin {
        /// Reduced dimensions stay as size 1.
        keep_dims: bool,
    },
    /// REDUCE_ALL(input, axes): logical AND over bools.
    ReduceAll {
        /// Reduced dimensions stay as size 1.
        keep_dims: bool,
    },
    /// TRANSPOSE(input, perm).
    Transpose,
    /// STRIDED_SLICE(input, begin, end, strides).
    StridedSlice(StridedSliceOptions),
    /// SLICE(input, begin, size).
    Slice,
    /// SPLIT(axis, input) into equal parts.
    Split {
        /// The number of outputs.
        num_splits: i32,
    },
    /// SPLIT_V(input, size_splits, axis) into given sizes.
    SplitV {
        /// The number of outputs.
        num_splits: i32,
    },
    /// PACK: stacks its inputs along a new axis.
    Pack {
        /// The number of inputs.
        values_count: i32,
        /// Where the new axis goes, negative from the end.
        axis: i32,
    },
    /// UNPACK: splits along an axis, dropping it.
    Unpack {
        /// The number of outputs.
        num: i32,
        /// The axis split, negative from the end.
        axis: i32,
    },
    /// RESIZE_NEAREST_NEIGHBOR(input, size).
    ResizeNearestNeighbor(ResizeOptions),
    /// RESIZE_BILINEAR(input, size).
    ResizeBilinear(ResizeOptions),
    /// MAXIMUM(a, b) with broadcasting.
    Maximum,
    /// MINIMUM(a, b) with broadcasting.
    Minimum,
    /// Elementwise comparisons with broadcasting; the output is bool.
    Equal,
    /// NOT_EQUAL.
    NotEqual,
    /// GREATER.
    Greater,
    /// GREATER_EQUAL.
    GreaterEqual,
    /// LESS.
    Less,
    /// LESS_EQUAL.
    LessEqual,
    /// Elementwise logic on bool tensors (AND and OR broadcast).
    LogicalAnd,
    /// LOGICAL_OR.
    LogicalOr,
    /// LOGICAL_NOT (unary).
    LogicalNot,
    /// `condition ? x : y` with three-way broadcasting.
    SelectV2,
    /// `new_shape` from the options when given; the shape operand or the output shape rule.
    /// RESHAPE(input, shape?).
    Reshape {
        /// The options' `new_shape`, when the file has one.
        new_shape: Option<Vec<i32>>,
    },
    /// SQUEEZE: drops dimensions of size 1.
    Squeeze {
        /// The dimensions dropped (all of size 1 when empty), negative from the end.
        squeeze_dims: Vec<i32>,
    },
    /// EXPAND_DIMS(input, axis): inserts a dimension of size 1.
    ExpandDims,
    /// SHAPE: the input's shape as int32 or int64 (the output's type); always folded at
    /// compile time (`passes::fold`), shapes being static.
    Shape,
    /// CAST between element types (C++ `static_cast` semantics).
    Cast,
    /// GATHER(params, indices).
    Gather {
        /// The axis of `params` indexed, negative from the end.
        axis: i32,
        /// Leading dimensions shared by `params` and `indices`.
        batch_dims: i32,
    },
    /// SVDF(input, weights_feature, weights_time, bias?, state).
    Svdf(SvdfOptions),
    /// UNIDIRECTIONAL_SEQUENCE_LSTM.
    UnidirectionalSequenceLstm(SequenceLstmOptions),
    /// IF(cond, inputs...): runs one of two subgraphs.
    If {
        /// Run when the condition is true.
        then_subgraph: SubgraphId,
        /// Run when the condition is false.
        else_subgraph: SubgraphId,
    },
    /// WHILE: runs `body` while `cond` returns true.
    While {
        /// Computes the loop condition from the loop values.
        cond_subgraph: SubgraphId,
        /// Computes the next loop values.
        body_subgraph: SubgraphId,
    },
    /// CALL_ONCE: runs a subgraph on the first invocation only.
    CallOnce {
        /// The subgraph run once (resource variable initialisation).
        init_subgraph: SubgraphId,
    },
    // Layout and indexing.
    /// BATCH_TO_SPACE_ND(input, block_shape, crops).
    BatchToSpaceNd,
    /// BROADCAST_ARGS(s0, s1): the broadcast of two shapes.
    BroadcastArgs,
    /// BROADCAST_TO(input, shape).
    BroadcastTo,
    /// DEPTH_TO_SPACE: moves channel blocks into spatial blocks.
    DepthToSpace {
        /// The spatial block's side.
        block_size: i32,
    },
    /// DYNAMIC_UPDATE_SLICE(operand, update, start_indices).
    DynamicUpdateSlice,
    /// EMBEDDING_LOOKUP(ids, table): rows of `table` by id.
    EmbeddingLookup,
    /// FILL(dims, value).
    Fill,
    /// GATHER_ND(params, indices).
    GatherNd,
    /// MIRROR_PAD: `mode` is the schema's `MirrorPadMode` code (0 REFLECT, 1 SYMMETRIC).
    /// MIRROR_PAD(input, paddings).
    MirrorPad {
        /// The schema's `MirrorPadMode` code (0 REFLECT, 1 SYMMETRIC).
        mode: i8,
    },
    /// REVERSE_V2(input, axes).
    ReverseV2,
    /// SPACE_TO_BATCH_ND(input, block_shape, paddings).
    SpaceToBatchNd,
    /// SPACE_TO_DEPTH: moves spatial blocks into channels.
    SpaceToDepth {
        /// The spatial block's side.
        block_size: i32,
    },
    /// ZEROS_LIKE: zeros of the input's shape and type.
    ZerosLike,
    /// VAR_HANDLE: a resource tensor naming the resource variable `(container, shared_name)`
    /// (one per pair across all subgraphs, TFLite Micro's `micro_resource_variable.cc`).
    VarHandle {
        /// The variable's container (often empty).
        container: String,
        /// The variable's name within its container.
        shared_name: String,
    },
    /// ASSIGN_VARIABLE(resource, value): copies `value` into the resource variable.
    AssignVariable,
    /// READ_VARIABLE(resource) -> a copy of the resource variable.
    ReadVariable,
    // Elementwise math.
    /// ABS.
    Abs,
    /// NEG.
    Neg,
    /// CEIL.
    Ceil,
    /// FLOOR.
    Floor,
    /// ROUND (half to even).
    Round,
    /// SQRT.
    Sqrt,
    /// RSQRT: `1 / sqrt(x)`.
    Rsqrt,
    /// SQUARE.
    Square,
    /// SIN.
    Sin,
    /// COS.
    Cos,
    /// LOG (natural).
    Log,
    /// EXP.
    Exp,
    /// ELU: `x` for `x >= 0`, else `exp(x) - 1`.
    Elu,
    /// SQUARED_DIFFERENCE(a, b): `(a - b)^2` with broadcasting.
    SquaredDifference,
    /// FLOOR_DIV(a, b): `floor(a / b)`.
    FloorDiv,
    /// FLOOR_MOD(a, b): the remainder with the divisor's sign.
    FloorMod,
    /// LOG_SOFTMAX over the last dimension.
    LogSoftmax,
    /// L2_NORMALIZATION over the last dimension.
    L2Normalization {
        /// The fused activation.
        activation: Activation,
    },
    // Convolution family (issue 14).
    /// TRANSPOSE_CONV(output_shape, filter OHWI, input, bias?).
    TransposeConv(TransposeConvOptions),
    /// BATCH_MATMUL(lhs, rhs): `adj_x` / `adj_y` transpose the last two dimensions.
    BatchMatmul {
        /// `lhs` is stored transposed in its last two dimensions.
        adj_x: bool,
        /// `rhs` is stored transposed in its last two dimensions.
        adj_y: bool,
    },
    /// L2_POOL_2D(input): the root mean square of each window.
    L2Pool2d(Pool2dOptions),
    /// A builtin tflc does not know, or a custom op. The name is in `Operator::opcode`.
    Unsupported,
}

