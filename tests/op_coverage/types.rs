//! Coverage per (operator, element type): for int8, int16 (16x8) and float32, what TFLite
//! Micro's kernels accept (read from their type switches, [`TFLM_TYPES`]) against what tflc
//! compiles, found by compiling a small single-op model per pair ([`probe`]: the whole
//! pipeline, `tflc::compile`, not a list). The element type of a row is that of the
//! operator's data input (input 0; the table for EMBEDDING_LOOKUP, the value for FILL; the
//! input for QUANTIZE, DEQUANTIZE and CAST).

use tflc::ir::{
    Activation, Conv2dOptions, DType, DepthwiseConv2dOptions, FullyConnectedOptions, OpKind, Padding, Pool2dOptions, Quantization,
    ResizeOptions, SequenceLstmOptions, StridedSliceOptions, SvdfOptions, TransposeConvOptions,
};
use tflc::internal::tflite::builder::{ModelBuilder, TensorSpec};

/// The element types of the table's columns.
pub const TYPES: [DType; 3] = [DType::I8, DType::I16, DType::F32];

/// (operator, type) pairs TFLite Micro accepts but computes nothing defined for, which tflc
/// refuses on purpose (with this reason): they are not gaps to close.
pub const TFLM_UNDEFINED: &[(&str, DType, &str)] = &[(
    "GREATER",
    DType::I16,
    "TFLite Micro's Eval has an int16 case but its Prepare computes the rescaling parameters for int8 only, so int16 compares with whatever its persistent buffer holds: every output false on a fresh arena (the PyPI release, run with tools/op_type_check.py's inputs and others), anything on a reused one; GREATER_EQUAL, LESS, LESS_EQUAL, EQUAL and NOT_EQUAL refuse int16",
)];

/// What TFLite Micro's kernel accepts as the data input's element type, among int8, int16
/// and float32, per builtin: the `case kTfLite…` / `type == kTfLite…` switches of Prepare and
/// Eval in `tensorflow/lite/micro/kernels/*.cc` at commit 90b983c2b3f1; where the PyPI
/// release (tflite-micro 0.dev20261023182759) accepts more, the release (RSQRT int16, whose
/// Prepare the pinned commit refused). Operators that move bytes whatever their type
/// (RESHAPE, SQUEEZE, BROADCAST_TO: `memcpy` or a generic template) accept all three.
/// Builtins without an int8, int16 or float32 data input (LOGICAL_*, REDUCE_ALL, SHAPE,
/// BROADCAST_ARGS, control flow, resource variables) are not rows. Checked against real runs
/// of the release: `tools/op_type_check.py` runs every probe model in it, and each of the 264
/// probed (operator, type) pairs runs exactly where this list says (FILL int16: the pinned
/// commit's dims switch takes int16, its value switch does not; PRELU int16 takes int8 alpha).
pub const TFLM_TYPES: &[(&str, &[DType])] = {
    use DType::{F32, I16, I8};
    &[
        ("ABS", &[I8, I16, F32]),
        ("ADD", &[I8, I16, F32]),
        ("ADD_N", &[I8, F32]),
        ("ARG_MAX", &[I8, F32]),
        ("ARG_MIN", &[I8, F32]),
        ("AVERAGE_POOL_2D", &[I8, I16, F32]),
        ("BATCH_MATMUL", &[I8, I16, F32]),
        ("BATCH_TO_SPACE_ND", &[I8, F32]),
        ("BROADCAST_TO", &[I8, I16, F32]),
        ("CAST", &[I8, I16, F32]),
        ("CEIL", &[F32]),
        ("CONCATENATION", &[I8, I16, F32]),
        ("CONV_2D", &[I8, I16, F32]),
        ("COS", &[F32]),
        ("CUMSUM", &[I8, F32]),
        ("DEPTH_TO_SPACE", &[I8, F32]),
        ("DEPTHWISE_CONV_2D", &[I8, I16, F32]),
        ("DEQUANTIZE", &[I8, I16]),
        ("DIV", &[I8, F32]),
        ("DYNAMIC_UPDATE_SLICE", &[I8, I16, F32]),
        ("ELU", &[I8, F32]),
        ("EMBEDDING_LOOKUP", &[I8, F32]),
        ("EQUAL", &[I8, F32]),
        ("EXP", &[F32]),
        ("EXPAND_DIMS", &[I8, I16, F32]),
        ("FILL", &[I8, F32]),
        ("FLOOR", &[F32]),
        ("FLOOR_DIV", &[F32]),
        ("FLOOR_MOD", &[F32]),
        ("FULLY_CONNECTED", &[I8, I16, F32]),
        ("GATHER", &[I8, F32]),
        ("GATHER_ND", &[I8, F32]),
        ("GREATER", &[I8, I16, F32]),
        ("GREATER_EQUAL", &[I8, F32]),
        ("HARD_SWISH", &[I8, F32]),
        ("L2_NORMALIZATION", &[I8, F32]),
        ("L2_POOL_2D", &[F32]),
        ("LEAKY_RELU", &[I8, I16, F32]),
        ("LESS", &[I8, F32]),
        ("LESS_EQUAL", &[I8, F32]),
        ("LOG", &[F32]),
        ("LOGISTIC", &[I8, I16, F32]),
        ("LOG_SOFTMAX", &[I8, F32]),
        ("MAXIMUM", &[I8, I16, F32]),
        ("MAX_POOL_2D", &[I8, I16, F32]),
        ("MEAN", &[I8, I16, F32]),
        ("MINIMUM", &[I8, I16, F32]),
        ("MIRROR_PAD", &[I8, F32]),
        ("MUL", &[I8, I16, F32]),
        ("NEG", &[F32]),
        ("NOT_EQUAL", &[I8, F32]),
        ("PACK", &[I8, I16, F32]),
        ("PAD", &[I8, I16, F32]),
        ("PADV2", &[I8, I16, F32]),
        ("PRELU", &[I8, I16, F32]),
        ("QUANTIZE", &[I8, I16, F32]),
        ("REDUCE_MAX", &[I8, F32]),
        ("REDUCE_MIN", &[I8, F32]),
        ("RELU", &[I8, I16, F32]),
        ("RELU6", &[I8, I16, F32]),
        ("RESHAPE", &[I8, I16, F32]),
        ("RESIZE_BILINEAR", &[I8, F32]),
        ("RESIZE_NEAREST_NEIGHBOR", &[I8, I16, F32]),
        ("REVERSE_V2", &[I8, I16, F32]),
        ("ROUND", &[F32]),
        ("RSQRT", &[I8, I16, F32]),
        ("SELECT_V2", &[I8, I16, F32]),
        ("SIN", &[F32]),
        ("SLICE", &[I8, I16, F32]),
        ("SOFTMAX", &[I8, I16, F32]),
        ("SPACE_TO_BATCH_ND", &[I8, F32]),
        ("SPACE_TO_DEPTH", &[I8, F32]),
        ("SPLIT", &[I8, I16, F32]),
        ("SPLIT_V", &[I8, I16, F32]),
        ("SQRT", &[F32]),
        ("SQUARE", &[F32]),
        ("SQUARED_DIFFERENCE", &[I8, I16, F32]),
        ("SQUEEZE", &[I8, I16, F32]),
        ("STRIDED_SLICE", &[I8, I16, F32]),
        ("SUB", &[I8, I16, F32]),
        ("SUM", &[I8, I16, F32]),
        ("SVDF", &[I8, F32]),
        ("TANH", &[I8, I16, F32]),
        ("TRANSPOSE", &[I8, I16, F32]),
        ("TRANSPOSE_CONV", &[I8, I16, F32]),
        ("UNIDIRECTIONAL_SEQUENCE_LSTM", &[I8, I16, F32]),
        ("UNPACK", &[I8, I16, F32]),
        ("ZEROS_LIKE", &[I8, F32]),
    ]
};

/// The short name of a column's element type.
pub fn short(d: DType) -> &'static str {
    match d {
        DType::I8 => "int8",
        DType::I16 => "int16",
        _ => "float32",
    }
}

/// A single-op model under construction, its data type fixed.
struct P {
    b: ModelBuilder,
    d: DType,
}

const S: [usize; 4] = [1, 4, 4, 2];

impl P {
    /// The data type's usual quantization (int16: symmetric, as 16x8 models have it).
    fn q(&self) -> Option<(f32, i64)> {
        match self.d {
            DType::I8 => Some((0.05, 3)),
            DType::I16 => Some((0.001, 0)),
            _ => None,
        }
    }
    fn act(&mut self, name: &str, shape: &[usize]) -> tflc::ir::TensorId {
        let (d, q) = (self.d, self.q());
        self.b.activation(name, d, shape, q)
    }
    /// An output with the quantization TFLite Micro requires of `op` (fixed for some
    /// activations), else the usual one.
    fn out(&mut self, op: &str, shape: &[usize]) -> tflc::ir::TensorId {
        let fixed = match (op, self.d) {
            ("LOGISTIC" | "SOFTMAX", DType::I8) => Some((1.0 / 256.0, -128)),
            ("TANH" | "L2_NORMALIZATION", DType::I8) => Some((1.0 / 128.0, 0)),
            ("LOG_SOFTMAX", DType::I8) => Some((16.0 / 256.0, 127)),
            ("LOGISTIC" | "SOFTMAX" | "TANH", DType::I16) => Some((1.0 / 32768.0, 0)),
            _ => None,
        };
        match fixed {
            Some(q) => {
                let d = self.d;
                self.b.activation("y", d, shape, Some(q))
            }
            None => self.act("y", shape),
        }
    }
    /// A constant of the data type: `n` values (int8/int16 quantized as the activations).
    fn data_const(&mut self, name: &str, shape: &[usize], sym: bool) -> tflc::ir::TensorId {
        let n: usize = shape.iter().product();
        let q = self.q().map(|(s, z)| Quantization { scale: vec![s], zero_point: vec![if sym { 0 } else { z }], axis: None });
        let bytes: Vec<u8> = match self.d {
            DType::I8 => (0..n).map(|i| (i as i8).wrapping_mul(7) as u8).collect(),
            DType::I16 => (0..n).flat_map(|i| ((i as i16) * 301).to_le_bytes()).collect(),
            _ => (0..n).flat_map(|i| (i as f32 * 0.25 - 1.0).to_le_bytes()).collect(),
        };
        let d = self.d;
        self.b.constant(name, d, shape, bytes, q)
    }
    /// Weights: int8 symmetric for int8 and int16 data, float32 for float32.
    fn weights(&mut self, name: &str, shape: &[usize]) -> tflc::ir::TensorId {
        let n: usize = shape.iter().product();
        if self.d == DType::F32 {
            let v: Vec<f32> = (0..n).map(|i| (i % 7) as f32 * 0.1 - 0.3).collect();
            return self.b.constant_f32(name, shape, &v);
        }
        let v: Vec<i8> = (0..n).map(|i| ((i * 13) % 21) as i8 - 10).collect();
        self.b.constant_i8(name, shape, &v, Some((0.02, 0)))
    }
    /// A bias of `n`: int32 (int8 data), int64 (int16), float32.
    fn bias(&mut self, n: usize) -> tflc::ir::TensorId {
        let s = self.q().map_or(1.0, |q| q.0) * 0.02;
        let q = Quantization { scale: vec![s], zero_point: vec![0], axis: None };
        match self.d {
            DType::I8 => self.b.constant("bias", DType::I32, &[n], (0..n as i32).flat_map(|v| (v * 10).to_le_bytes()).collect(), Some(q)),
            DType::I16 => self.b.constant("bias", DType::I64, &[n], (0..n as i64).flat_map(|v| (v * 10).to_le_bytes()).collect(), Some(q)),
            _ => self.b.constant_f32("bias", &[n], &vec![0.1; n]),
        }
    }
    /// A variable (state) tensor of `dtype`, quantized as `q`.
    fn state(
        &mut self,
        name: &str,
        dtype: DType,
        shape: &[usize],
        q: Option<(f32, i64)>,
    ) -> tflc::ir::TensorId {
        self.b.tensor(TensorSpec {
            name: name.into(),
            dtype,
            shape: shape.iter().map(|&d| d as i32).collect(),
            shape_signature: None,
            quant: q.map(|(s, z)| Quantization {
                scale: vec![s],
                zero_point: vec![z],
                axis: None,
            }),
            data: None,
            variable: true,
        })
    }
    fn i32s(&mut self, name: &str, shape: &[usize], v: &[i32]) -> tflc::ir::TensorId {
        self.b.constant_i32(name, shape, v, None)
    }
}

/// Builds the single-op model of `op` on `d` data; `None` when this table has no recipe
/// for `op`.
fn model(op: &str, d: DType) -> Option<Vec<u8>> {
    let mut p = P { b: ModelBuilder::new(), d };
    let none = Activation::None;
    let unary = |k: OpKind| Some(k);
    // Same-shape unaries.
    let un = match op {
        "ABS" => unary(OpKind::Abs),
        "CEIL" => unary(OpKind::Ceil),
        "COS" => unary(OpKind::Cos),
        "ELU" => unary(OpKind::Elu),
        "EXP" => unary(OpKind::Exp),
        "FLOOR" => unary(OpKind::Floor),
        "HARD_SWISH" => unary(OpKind::HardSwish),
        "LEAKY_RELU" => unary(OpKind::LeakyRelu { alpha: 0.2 }),
        "LOG" => unary(OpKind::Log),
        "LOGISTIC" => unary(OpKind::Logistic),
        "NEG" => unary(OpKind::Neg),
        "RELU" => unary(OpKind::Relu),
        "RELU6" => unary(OpKind::Relu6),
        "ROUND" => unary(OpKind::Round),
        "RSQRT" => unary(OpKind::Rsqrt),
        "SIN" => unary(OpKind::Sin),
        "SQRT" => unary(OpKind::Sqrt),
        "SQUARE" => unary(OpKind::Square),
        "TANH" => unary(OpKind::Tanh),
        "ZEROS_LIKE" => unary(OpKind::ZerosLike),
        "L2_NORMALIZATION" => unary(OpKind::L2Normalization { activation: none }),
        "LOG_SOFTMAX" => unary(OpKind::LogSoftmax),
        "SOFTMAX" => unary(OpKind::Softmax { beta: 1.0 }),
        _ => None,
    };
    if let Some(k) = un {
        let x = p.act("x", &S);
        let y = p.out(op, &S);
        p.b.op(k, &[Some(x)], &[y]);
        p.b.inputs(&[x]).outputs(&[y]);
        return Some(p.b.finish());
    }
    let bin = match op {
        "ADD" => Some(OpKind::Add { activation: none }),
        "SUB" => Some(OpKind::Sub { activation: none }),
        "MUL" => Some(OpKind::Mul { activation: none }),
        "DIV" => Some(OpKind::Div { activation: none }),
        "MAXIMUM" => Some(OpKind::Maximum),
        "MINIMUM" => Some(OpKind::Minimum),
        "SQUARED_DIFFERENCE" => Some(OpKind::SquaredDifference),
        "FLOOR_DIV" => Some(OpKind::FloorDiv),
        "FLOOR_MOD" => Some(OpKind::FloorMod),
        "ADD_N" => Some(OpKind::AddN),
        _ => None,
    };
    if let Some(k) = bin {
        let (x, z) = (p.act("x", &S), p.act("z", &S));
        let y = p.out(op, &S);
        p.b.op(k, &[Some(x), Some(z)], &[y]);
        p.b.inputs(&[x, z]).outputs(&[y]);
        return Some(p.b.finish());
    }
    let cmp = match op {
        "EQUAL" => Some(OpKind::Equal),
        "NOT_EQUAL" => Some(OpKind::NotEqual),
        "GREATER" => Some(OpKind::Greater),
        "GREATER_EQUAL" => Some(OpKind::GreaterEqual),
        "LESS" => Some(OpKind::Less),
        "LESS_EQUAL" => Some(OpKind::LessEqual),
        _ => None,
    };
    if let Some(k) = cmp {
        let (x, z) = (p.act("x", &S), p.act("z", &S));
        let y = p.b.activation("y", DType::Bool, &S, None);
        p.b.op(k, &[Some(x), Some(z)], &[y]);
        p.b.inputs(&[x, z]).outputs(&[y]);
        return Some(p.b.finish());
    }
    let red = match op {
        "MEAN" => Some(OpKind::Mean { keep_dims: false }),
        "SUM" => Some(OpKind::Sum { keep_dims: false }),
        "REDUCE_MAX" => Some(OpKind::ReduceMax { keep_dims: false }),
        "REDUCE_MIN" => Some(OpKind::ReduceMin { keep_dims: false }),
        _ => None,
    };
    if let Some(k) = red {
        let x = p.act("x", &S);
        let axes = p.i32s("axes", &[2], &[1, 2]);
        let y = p.out(op, &[1, 2]);
        p.b.op(k, &[Some(x), Some(axes)], &[y]);
        p.b.inputs(&[x]).outputs(&[y]);
        return Some(p.b.finish());
    }
    let pool = |padding| Pool2dOptions { padding, stride_w: 2, stride_h: 2, filter_w: 2, filter_h: 2, activation: none };
    let pk = match op {
        "AVERAGE_POOL_2D" => Some(OpKind::AveragePool2d(pool(Padding::Valid))),
        "MAX_POOL_2D" => Some(OpKind::MaxPool2d(pool(Padding::Valid))),
        "L2_POOL_2D" => Some(OpKind::L2Pool2d(pool(Padding::Valid))),
        _ => None,
    };
    if let Some(k) = pk {
        let x = p.act("x", &S);
        let y = p.out(op, &[1, 2, 2, 2]);
        p.b.op(k, &[Some(x)], &[y]);
        p.b.inputs(&[x]).outputs(&[y]);
        return Some(p.b.finish());
    }
    // One data input, one output, constant int32 operands.
    let with_consts = |p: &mut P, k: OpKind, in_shape: &[usize], consts: &[(&[usize], &[i32])], out_shape: &[usize]| {
        let x = p.act("x", in_shape);
        let mut ins = vec![Some(x)];
        for (i, (shape, v)) in consts.iter().enumerate() {
            ins.push(Some(p.i32s(&format!("c{i}"), shape, v)));
        }
        let y = p.out(op, out_shape);
        p.b.op(k, &ins, &[y]);
        p.b.inputs(&[x]).outputs(&[y]);
        Some(p.b.finish())
    };
    let zeros_4x2: [i32; 8] = [0, 0, 1, 1, 1, 1, 0, 0];
    match op {
        "RESHAPE" => return with_consts(&mut p, OpKind::Reshape { new_shape: Some(vec![1, 32]) }, &S, &[(&[2], &[1, 32])], &[1, 32]),
        "SQUEEZE" => return with_consts(&mut p, OpKind::Squeeze { squeeze_dims: vec![0] }, &S, &[], &[4, 4, 2]),
        "EXPAND_DIMS" => return with_consts(&mut p, OpKind::ExpandDims, &S, &[(&[], &[0])], &[1, 1, 4, 4, 2]),
        "TRANSPOSE" => return with_consts(&mut p, OpKind::Transpose, &S, &[(&[4], &[0, 2, 1, 3])], &S),
        "PAD" => return with_consts(&mut p, OpKind::Pad, &S, &[(&[4, 2], &zeros_4x2)], &[1, 6, 6, 2]),
        "MIRROR_PAD" => return with_consts(&mut p, OpKind::MirrorPad { mode: 0 }, &S, &[(&[4, 2], &zeros_4x2)], &[1, 6, 6, 2]),
        "SLICE" => return with_consts(&mut p, OpKind::Slice, &S, &[(&[4], &[0, 1, 1, 0]), (&[4], &[1, 2, 2, 2])], &[1, 2, 2, 2]),
        "STRIDED_SLICE" => {
            return with_consts(&mut p, OpKind::StridedSlice(StridedSliceOptions::default()), &S, &[(&[4], &[0, 0, 0, 0]), (&[4], &[1, 4, 4, 2]), (&[4], &[1, 2, 2, 1])], &[1, 2, 2, 2])
        }
        "GATHER" => return with_consts(&mut p, OpKind::Gather { axis: 1, batch_dims: 0 }, &S, &[(&[2], &[3, 0])], &[1, 2, 4, 2]),
        "GATHER_ND" => return with_consts(&mut p, OpKind::GatherNd, &S, &[(&[2, 2], &[0, 1, 0, 3])], &[2, 4, 2]),
        "BATCH_TO_SPACE_ND" => return with_consts(&mut p, OpKind::BatchToSpaceNd, &[4, 2, 2, 2], &[(&[2], &[2, 2]), (&[2, 2], &[0, 0, 0, 0])], &S),
        "SPACE_TO_BATCH_ND" => return with_consts(&mut p, OpKind::SpaceToBatchNd, &S, &[(&[2], &[2, 2]), (&[2, 2], &[0, 0, 0, 0])], &[4, 2, 2, 2]),
        "DEPTH_TO_SPACE" => return with_consts(&mut p, OpKind::DepthToSpace { block_size: 2 }, &[1, 2, 2, 8], &[], &S),
        "SPACE_TO_DEPTH" => return with_consts(&mut p, OpKind::SpaceToDepth { block_size: 2 }, &S, &[], &[1, 2, 2, 8]),
        "RESIZE_BILINEAR" => return with_consts(&mut p, OpKind::ResizeBilinear(ResizeOptions::default()), &S, &[(&[2], &[8, 8])], &[1, 8, 8, 2]),
        "RESIZE_NEAREST_NEIGHBOR" => return with_consts(&mut p, OpKind::ResizeNearestNeighbor(ResizeOptions::default()), &S, &[(&[2], &[8, 8])], &[1, 8, 8, 2]),
        "BROADCAST_TO" => return with_consts(&mut p, OpKind::BroadcastTo, &[1, 1, 4, 2], &[(&[4], &[1, 4, 4, 2])], &S),
        "REVERSE_V2" => return with_consts(&mut p, OpKind::ReverseV2, &S, &[(&[1], &[1])], &S),
        "CUMSUM" => return with_consts(&mut p, OpKind::Cumsum { exclusive: false, reverse: false }, &S, &[(&[], &[1])], &S),
        _ => {}
    }
    match op {
        "ARG_MAX" | "ARG_MIN" => {
            let x = p.act("x", &S);
            let axis = p.i32s("axis", &[1], &[3]);
            let y = p.b.activation("y", DType::I32, &[1, 4, 4], None);
            p.b.op(if op == "ARG_MAX" { OpKind::ArgMax } else { OpKind::ArgMin }, &[Some(x), Some(axis)], &[y]);
            p.b.inputs(&[x]).outputs(&[y]);
        }
        "PADV2" => {
            let x = p.act("x", &S);
            let pads = p.i32s("pads", &[4, 2], &zeros_4x2);
            let c = p.data_const("value", &[], false);
            let y = p.out(op, &[1, 6, 6, 2]);
            p.b.op(OpKind::PadV2, &[Some(x), Some(pads), Some(c)], &[y]);
            p.b.inputs(&[x]).outputs(&[y]);
        }
        "PRELU" => {
            let x = p.act("x", &S);
            // int16 PRELU takes int8 alpha (TFLite Micro's Prepare checks).
            let a = if d == DType::I16 { p.b.constant_i8("alpha", &[2], &[10, -20], Some((0.01, 0))) } else { p.data_const("alpha", &[2], false) };
            let y = p.out(op, &S);
            p.b.op(OpKind::Prelu, &[Some(x), Some(a)], &[y]);
            p.b.inputs(&[x]).outputs(&[y]);
        }
        "CONCATENATION" | "PACK" => {
            let (x, z) = (p.act("x", &S), p.act("z", &S));
            let (k, shape) = if op == "PACK" { (OpKind::Pack { values_count: 2, axis: 0 }, vec![2, 1, 4, 4, 2]) } else { (OpKind::Concatenation { axis: 3, activation: none }, vec![1, 4, 4, 4]) };
            let y = p.out(op, &shape);
            p.b.op(k, &[Some(x), Some(z)], &[y]);
            p.b.inputs(&[x, z]).outputs(&[y]);
        }
        "UNPACK" => {
            let x = p.act("x", &S);
            let ys: Vec<_> = (0..4).map(|i| p.act(&format!("y{i}"), &[1, 4, 2])).collect();
            p.b.op(OpKind::Unpack { num: 4, axis: 1 }, &[Some(x)], &ys);
            p.b.inputs(&[x]).outputs(&ys);
        }
        "SPLIT" | "SPLIT_V" => {
            let x = p.act("x", &S);
            let ys: Vec<_> = (0..2).map(|i| p.act(&format!("y{i}"), &[1, 4, 4, 1])).collect();
            if op == "SPLIT" {
                let axis = p.i32s("axis", &[], &[3]);
                p.b.op(OpKind::Split { num_splits: 2 }, &[Some(axis), Some(x)], &ys);
            } else {
                let sizes = p.i32s("sizes", &[2], &[1, 1]);
                let axis = p.i32s("axis", &[], &[3]);
                p.b.op(OpKind::SplitV { num_splits: 2 }, &[Some(x), Some(sizes), Some(axis)], &ys);
            }
            p.b.inputs(&[x]).outputs(&ys);
        }
        "SELECT_V2" => {
            let c = p.b.activation("c", DType::Bool, &S, None);
            let (x, z) = (p.act("x", &S), p.act("z", &S));
            let y = p.out(op, &S);
            p.b.op(OpKind::SelectV2, &[Some(c), Some(x), Some(z)], &[y]);
            p.b.inputs(&[c, x, z]).outputs(&[y]);
        }
        "DYNAMIC_UPDATE_SLICE" => {
            let (x, u) = (p.act("x", &S), p.act("u", &[1, 2, 2, 2]));
            let start = p.i32s("start", &[4], &[0, 1, 1, 0]);
            let y = p.out(op, &S);
            p.b.op(OpKind::DynamicUpdateSlice, &[Some(x), Some(u), Some(start)], &[y]);
            p.b.inputs(&[x, u]).outputs(&[y]);
        }
        "FILL" => {
            let dims = p.i32s("dims", &[4], &[1, 4, 4, 2]);
            let v = p.act("value", &[]);
            let y = p.out(op, &S);
            p.b.op(OpKind::Fill, &[Some(dims), Some(v)], &[y]);
            p.b.inputs(&[v]).outputs(&[y]);
        }
        "EMBEDDING_LOOKUP" => {
            let ids = p.b.activation("ids", DType::I32, &[2], None);
            let table = p.data_const("table", &[5, 4], false);
            let y = p.out(op, &[2, 4]);
            p.b.op(OpKind::EmbeddingLookup, &[Some(ids), Some(table)], &[y]);
            p.b.inputs(&[ids]).outputs(&[y]);
        }
        "QUANTIZE" => {
            let x = p.act("x", &S);
            // float32 -> int8; int8 -> int8 and int16 -> int16 requantizing.
            let (od, oq) = match d {
                DType::F32 => (DType::I8, (0.05, 3)),
                DType::I8 => (DType::I8, (0.07, -5)),
                _ => (DType::I16, (0.0015, 0)),
            };
            let y = p.b.activation("y", od, &S, Some(oq));
            p.b.op(OpKind::Quantize, &[Some(x)], &[y]);
            p.b.inputs(&[x]).outputs(&[y]);
        }
        "DEQUANTIZE" | "CAST" => {
            let x = p.act("x", &S);
            let (k, od) = if op == "CAST" { (OpKind::Cast, DType::I32) } else { (OpKind::Dequantize, DType::F32) };
            let y = p.b.activation("y", od, &S, None);
            p.b.op(k, &[Some(x)], &[y]);
            p.b.inputs(&[x]).outputs(&[y]);
        }
        "CONV_2D" | "DEPTHWISE_CONV_2D" => {
            let x = p.act("x", &S);
            let (k, w, n) = if op == "CONV_2D" {
                let o = Conv2dOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, dilation_w: 1, dilation_h: 1, activation: none };
                (OpKind::Conv2d(o), p.weights("w", &[3, 3, 3, 2]), 3)
            } else {
                let o = DepthwiseConv2dOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, depth_multiplier: 1, dilation_w: 1, dilation_h: 1, activation: none };
                (OpKind::DepthwiseConv2d(o), p.weights("w", &[1, 3, 3, 2]), 2)
            };
            let bias = p.bias(n);
            let y = p.out(op, &[1, 4, 4, n]);
            p.b.op(k, &[Some(x), Some(w), Some(bias)], &[y]);
            p.b.inputs(&[x]).outputs(&[y]);
        }
        "SVDF" => {
            // units 2, rank 1, memory 3, input 4; the state in the data type.
            let x = p.act("x", &[1, 4]);
            let wf = p.weights("weights_feature", &[2, 4]);
            let wt = p.weights("weights_time", &[2, 3]);
            let bias = p.bias(2);
            let (d, q) = (p.d, p.q());
            let state = p.state("state", d, &[1, 6], q);
            let y = p.out(op, &[1, 2]);
            let o = SvdfOptions {
                rank: 1,
                activation: none,
                asymmetric_quantize_inputs: false,
            };
            p.b.op(
                OpKind::Svdf(o),
                &[Some(x), Some(wf), Some(wt), Some(bias), Some(state)],
                &[y],
            );
            p.b.inputs(&[x]).outputs(&[y]);
        }
        "UNIDIRECTIONAL_SEQUENCE_LSTM" => {
            // One batch row of two steps, 3 inputs, 2 units: every gate's weights and bias,
            // the hidden state in the data type, the cell int16 (float32 for float32).
            let x = p.act("x", &[1, 2, 3]);
            let mut inputs = vec![Some(x)];
            for g in 0..4 {
                inputs.push(Some(p.weights(&format!("input_weights{g}"), &[2, 3])));
            }
            for g in 0..4 {
                inputs.push(Some(p.weights(&format!("recurrent_weights{g}"), &[2, 2])));
            }
            inputs.extend([None, None, None]);
            for _ in 0..4 {
                inputs.push(Some(p.bias(2)));
            }
            inputs.extend([None, None]);
            let (d, q) = (p.d, p.q());
            let h = p.state("hidden", d, &[1, 2], q);
            let c = if d == DType::F32 {
                p.state("cell", DType::F32, &[1, 2], None)
            } else {
                p.state("cell", DType::I16, &[1, 2], Some((1.0 / 2048.0, 0)))
            };
            inputs.extend([Some(h), Some(c), None, None, None, None]);
            let y = p.out(op, &[1, 2, 2]);
            let o = SequenceLstmOptions {
                activation: Activation::Tanh,
                cell_clip: 0.0,
                proj_clip: 0.0,
                time_major: false,
                asymmetric_quantize_inputs: false,
                diagonal_recurrent_tensors: false,
            };
            p.b.op(OpKind::UnidirectionalSequenceLstm(o), &inputs, &[y]);
            p.b.inputs(&[x]).outputs(&[y]);
        }
        "FULLY_CONNECTED" => {
            let x = p.act("x", &[1, 8]);
            let w = p.weights("w", &[3, 8]);
            let bias = p.bias(3);
            let y = p.out(op, &[1, 3]);
            p.b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(w), Some(bias)], &[y]);
            p.b.inputs(&[x]).outputs(&[y]);
        }
        "TRANSPOSE_CONV" => {
            let shape = p.i32s("output_shape", &[4], &[1, 4, 4, 3]);
            let w = p.weights("w", &[3, 3, 3, 2]);
            let x = p.act("x", &S);
            let y = p.out(op, &[1, 4, 4, 3]);
            let o = TransposeConvOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, activation: none };
            p.b.op(OpKind::TransposeConv(o), &[Some(shape), Some(w), Some(x), None], &[y]);
            p.b.inputs(&[x]).outputs(&[y]);
        }
        "BATCH_MATMUL" => {
            let (x, z) = (p.act("x", &[1, 4, 2]), p.act("z", &[1, 2, 3]));
            let y = p.out(op, &[1, 4, 3]);
            p.b.op(OpKind::BatchMatmul { adj_x: false, adj_y: false }, &[Some(x), Some(z)], &[y]);
            p.b.inputs(&[x, z]).outputs(&[y]);
        }
        _ => return None,
    }
    Some(p.b.finish())
}

/// Whether tflc compiles `op` on `d` data: `None` without a recipe, else the compile result
/// (the error's first line).
///
/// Under `TFLC_DUMP_TYPE_MODELS=<dir>` each model is also written to
/// `<dir>/<op>_<type>.tflite`, for `tools/op_type_check.py` to run in TFLite Micro (the check
/// of [`TFLM_TYPES`] against the PyPI release).
pub fn probe(op: &str, d: DType) -> Option<Result<(), String>> {
    let bytes = model(op, d)?;
    if let Some(dir) = std::env::var_os("TFLC_DUMP_TYPE_MODELS") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("create the dump directory");
        std::fs::write(dir.join(format!("{op}_{}.tflite", short(d))), &bytes).expect("write a probe model");
    }
    Some(tflc::compile(&bytes, &tflc::CompileOptions::default()).map(|_| ()).map_err(|e| {
        let s = format!("{e:#}");
        s.lines().last().unwrap_or_default().to_string()
    }))
}
