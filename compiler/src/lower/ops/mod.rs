//! Lowering: one file per TFLite builtin, one registry (`ops!`).
//!
//! `lower(subgraph, op)` checks an operator (element types, shapes, quantization) and
//! computes everything the kernel needs at compile time (multipliers, shifts, folded
//! offsets, clamp ranges, padding, tables). The result is a [`Kernel`]: it can run on
//! concrete tensors (`execute`, the reference path used by the op-by-op conformance test
//! and the interpreter) and, later, emit its call for the generated module.
//!
//! What several builtins share lives in a family module, not in the first op file that
//! needed it: `binary` (broadcasting two-operand ops), `unary` (one input, one output of the
//! same shape), `movement` (element-generic data movement). The convolution family is
//! CONV_2D's, DEPTHWISE_CONV_2D's, FULLY_CONNECTED's and the pools'.
//!
//! Unsupported ops return `LowerError::Unsupported` naming op index, opcode and tensor;
//! nothing here panics on model data.

use crate::emit::EmitCx;
use crate::error::{LowerError, Location};
use crate::ir::{Activation, DType, Operator, Subgraph, Tensor, TensorId};
use std::collections::BTreeMap;
use tflc_runtime::prepare::FusedActivation;
use tflc_runtime::quant::QuantParams;

/// A lowered operator.
pub trait Kernel: std::fmt::Debug {
    /// Runs the kernel on the tensors in `store`: reads its inputs, writes its outputs.
    fn execute(&self, store: &mut TensorStore) -> Result<(), ExecError>;

    /// Emits the kernel call for the generated `run()`: arena views and constants come from
    /// `cx` (`cx.input(t)`, `cx.output(t)`), parameters become a module const
    /// (`cx.params(ty, value)`).
    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> proc_macro2::TokenStream;

    /// The filter this kernel reads kept LUT-compressed in flash (TFLM_DECODE's output,
    /// `decode::kept_lut`) and the weight-blob bytes its tables and indices take. Default:
    /// none.
    fn kept_compressed(&self) -> Option<(TensorId, usize)> {
        None
    }

    /// The int4 filter this kernel's microcontroller calls read packed in flash
    /// (`int4::kept_int4`) and the weight-blob bytes of its nibbles. Default: none.
    fn kept_int4(&self) -> Option<(TensorId, usize)> {
        None
    }

    /// True for a pure view (RESHAPE, SQUEEZE, EXPAND_DIMS): its output may share input
    /// 0's bytes, and then it emits no code. The one place that decides it: the lowering
    /// phase hands it to the planner ([`Capabilities::is_view`](crate::lower::Capabilities)),
    /// which decides where the alias is legal.
    fn is_view(&self) -> bool {
        false
    }

    /// Evaluated at compile time (`passes::fold`): the outputs are constants holding the
    /// result, the kernel runs nothing and emits no code. The one place that decides it; the
    /// planner (which then owes the outputs no arena bytes) and codegen read it from
    /// [`Capabilities::folded`](crate::lower::Capabilities).
    fn is_folded(&self) -> bool {
        false
    }

    /// The (input index, output index) pairs whose output this kernel can write over the
    /// input: the runtime has an `_in_place` variant that reads element `i` before writing
    /// element `i`, the two have the same element type and count, and the op reads that
    /// input nowhere else. The planner may then place them at one offset; `emit` learns it
    /// through [`EmitCx::is_in_place`] / [`EmitCx::in_out`]. `execute` is unaffected (it is
    /// always out of place). Default: none.
    fn in_place(&self) -> Vec<(usize, usize)> {
        Vec::new()
    }

    /// `(input index, output index, bound)`: the kernel can run with its output written over
    /// the consumed part of the input, at any `offset(output) - offset(input)` (bytes) within
    /// the [`DeltaBound`](crate::ir::DeltaBound), besides the disjoint placements. Declared
    /// from the row driver's traversal ([`tflc_runtime::kernels::overlap::Rows::max_delta`], the
    /// one place for every window family); `emit` learns it through
    /// [`EmitCx::overlapped`] and then runs the kernel through that driver on one view of
    /// both tensors. `execute` is unaffected. Default: none.
    fn overlap(&self) -> Vec<(usize, usize, crate::ir::DeltaBound)> {
        Vec::new()
    }

    /// Bytes of arena workspace the kernel needs while it runs (live at its step only; the
    /// planner places it, `emit` reaches it through [`EmitCx::scratch`]). Default: none.
    fn scratch_bytes(&self) -> usize {
        0
    }

    /// The operator can end the run early, as TFLite Micro's CIRCULAR_BUFFER returns
    /// `kTfLiteAbort` until its period has passed: `execute` then calls
    /// [`TensorStore::stop`], and `emit` gives an expression that is `false` (codegen then
    /// returns `RunStatus::Stopped` from `run()`). The planner keeps it a barrier of the file
    /// order. Default: false.
    fn stops(&self) -> bool {
        false
    }

    /// A control-flow operator (IF, WHILE, CALL_ONCE): the subgraphs it calls and the
    /// tensors it passes. Codegen emits it as calls of the callees' functions, the planner
    /// gives it the callees' frame, `interp` runs the callees. Default: none.
    fn control_flow(&self) -> Option<&control_flow::ControlFlow> {
        None
    }

    /// A custom operator whose kernel the caller provides (`user_custom`): codegen emits its
    /// call through the module's `CustomOps` trait, `execute` refuses it. Default: none.
    fn user_custom(&self) -> Option<&user_custom::UserCustom> {
        None
    }
}

/// An operator evaluated at compile time (`passes::fold`, listed in
/// [`Subgraph::folded`]): its outputs are constants that hold the result, so it runs nothing
/// and emits no code (codegen says so in a comment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FoldedOp;

impl Kernel for FoldedOp {
    fn is_folded(&self) -> bool {
        true
    }

    /// The store holds the folded outputs with the other constants.
    fn execute(&self, _: &mut TensorStore) -> Result<(), ExecError> {
        Ok(())
    }

    fn emit(&self, _: &mut EmitCx<'_, '_, '_>) -> proc_macro2::TokenStream {
        proc_macro2::TokenStream::new()
    }
}

/// The registry: which `OpKind` lowers in which module, with which of its typed options.
/// Adding an op is one line here and one file `ops/<builtin>.rs` with
/// `pub(crate) fn lower(cx: &OpCx, <options>) -> Result<impl Kernel, LowerError>`: the entry
/// `OpKind::Softmax { beta } => softmax(*beta)` calls `softmax::lower(&cx, *beta)`, so no
/// lowering matches its own `OpKind` again.
macro_rules! ops {
    ($($pat:pat => $module:ident $(($($arg:expr),*))?),* $(,)?) => {
        $(pub(crate) mod $module;)*

        /// The TFLite builtins that lower, by module name (`conv_2d` is `CONV_2D`).
        pub const LOWERED: &[&str] = &[$(stringify!($module)),*];

        /// Lowers `op` of `sg` to its kernel.
        pub fn lower<'m, 'a>(sg: &'m Subgraph<'a>, op: &'m Operator<'a>) -> Result<Box<dyn Kernel>, LowerError> {
            use crate::ir::OpKind;
            let cx = OpCx { sg, op };
            if sg.folded.contains(&op.id) {
                return Ok(Box::new(FoldedOp));
            }
            cx.check_quantization()?;
            match &op.kind {
                $($pat => Ok(Box::new($module::lower(&cx $($(, $arg)*)?)?)),)*
                #[allow(unreachable_patterns)]
                _ => Err(cx.unsupported(op.unsupported_reason().unwrap_or("tflc has no kernel for this operator yet"))),
            }
        }
    };
}

ops! {
    OpKind::Add { activation } => add(*activation),
    OpKind::AssignVariable => assign_variable,
    OpKind::AddN => add_n,
    OpKind::ArgMax => arg_max,
    OpKind::ArgMin => arg_min,
    OpKind::CallOnce { init_subgraph } => call_once(*init_subgraph),
    OpKind::AveragePool2d(o) => average_pool_2d(o),
    OpKind::Cast => cast,
    OpKind::Concatenation { axis, activation } => concatenation(*axis, *activation),
    OpKind::Conv2d(o) => conv_2d(o),
    OpKind::Cumsum { exclusive, reverse } => cumsum(*exclusive, *reverse),
    OpKind::DepthwiseConv2d(o) => depthwise_conv_2d(o),
    OpKind::Dequantize => dequantize,
    OpKind::Densify => densify,
    OpKind::Div { activation } => div(*activation),
    OpKind::Equal => equal,
    OpKind::ExpandDims => expand_dims,
    OpKind::FullyConnected(o) => fully_connected(o),
    OpKind::Greater => greater,
    OpKind::GreaterEqual => greater_equal,
    OpKind::HardSwish => hard_swish,
    OpKind::If { then_subgraph, else_subgraph } => if_(*then_subgraph, *else_subgraph),
    OpKind::LeakyRelu { alpha } => leaky_relu(*alpha),
    OpKind::Less => less,
    OpKind::LessEqual => less_equal,
    OpKind::LogicalAnd => logical_and,
    OpKind::LogicalNot => logical_not,
    OpKind::LogicalOr => logical_or,
    OpKind::Logistic => logistic,
    OpKind::MaxPool2d(o) => max_pool_2d(o),
    OpKind::Maximum => maximum,
    OpKind::Mean { keep_dims } => mean(*keep_dims),
    OpKind::Minimum => minimum,
    OpKind::Mul { activation } => mul(*activation),
    OpKind::NotEqual => not_equal,
    OpKind::Pack { values_count, axis } => pack(*values_count, *axis),
    OpKind::Pad => pad,
    OpKind::PadV2 => padv2,
    OpKind::Prelu => prelu,
    OpKind::Quantize => quantize,
    OpKind::ReadVariable => read_variable,
    OpKind::ReduceAll { keep_dims } => reduce_all(*keep_dims),
    OpKind::ReduceMax { keep_dims } => reduce_max(*keep_dims),
    OpKind::ReduceMin { keep_dims } => reduce_min(*keep_dims),
    OpKind::Relu => relu,
    OpKind::Relu6 => relu6,
    OpKind::ReluN1To1 => relu_n1_to_1,
    OpKind::Reshape { new_shape } => reshape(new_shape.as_deref()),
    OpKind::ResizeBilinear(o) => resize_bilinear(o),
    OpKind::ResizeNearestNeighbor(o) => resize_nearest_neighbor(o),
    OpKind::SelectV2 => select_v2,
    OpKind::Slice => slice,
    OpKind::Softmax { beta } => softmax(*beta),
    OpKind::Split { num_splits } => split(*num_splits),
    OpKind::SplitV { num_splits } => split_v(*num_splits),
    OpKind::Squeeze { squeeze_dims } => squeeze(squeeze_dims),
    OpKind::StridedSlice(o) => strided_slice(o),
    OpKind::Sub { activation } => sub(*activation),
    OpKind::Sum { keep_dims } => sum(*keep_dims),
    OpKind::Svdf(o) => svdf(o),
    OpKind::Tanh => tanh,
    OpKind::Transpose => transpose,
    OpKind::UnidirectionalSequenceLstm(o) => unidirectional_sequence_lstm(o),
    OpKind::Unpack { num, axis } => unpack(*num, *axis),
    OpKind::VarHandle { .. } => var_handle,
    OpKind::While { cond_subgraph, body_subgraph } => while_(*cond_subgraph, *body_subgraph),
    // Layout and indexing (issue 14).
    OpKind::BatchToSpaceNd => batch_to_space_nd,
    OpKind::BroadcastArgs => broadcast_args,
    OpKind::BroadcastTo => broadcast_to,
    OpKind::DepthToSpace { block_size } => depth_to_space(*block_size),
    OpKind::DynamicUpdateSlice => dynamic_update_slice,
    OpKind::EmbeddingLookup => embedding_lookup,
    OpKind::Fill => fill,
    OpKind::Gather { axis, batch_dims } => gather(*axis, *batch_dims),
    OpKind::GatherNd => gather_nd,
    OpKind::MirrorPad { mode } => mirror_pad(*mode),
    OpKind::ReverseV2 => reverse_v2,
    OpKind::SpaceToBatchNd => space_to_batch_nd,
    OpKind::SpaceToDepth { block_size } => space_to_depth(*block_size),
    OpKind::ZerosLike => zeros_like,
    // Elementwise math (issue 14): the `math` family.
    OpKind::Abs => abs,
    OpKind::Ceil => ceil,
    OpKind::Elu => elu,
    OpKind::Exp => exp,
    OpKind::Floor => floor,
    OpKind::FloorDiv => floor_div,
    OpKind::FloorMod => floor_mod,
    OpKind::L2Normalization { activation } => l2_normalization(*activation),
    OpKind::Log => log,
    OpKind::LogSoftmax => log_softmax,
    OpKind::Neg => neg,
    OpKind::Round => round,
    OpKind::Rsqrt => rsqrt,
    OpKind::Sin => sin,
    OpKind::Cos => cos,
    OpKind::Sqrt => sqrt,
    OpKind::Square => square,
    OpKind::SquaredDifference => squared_difference,
    // Convolution family (issue 14).
    OpKind::TransposeConv(o) => transpose_conv(o),
    OpKind::BatchMatmul { adj_x, adj_y } => batch_matmul(*adj_x, *adj_y),
    OpKind::L2Pool2d(o) => l2_pool_2d(o),
    // Custom ops: TFLite_Detection_PostProcess, TFLM_DECODE, CIRCULAR_BUFFER, TFLite Micro's
    // signal library and MediaPipe's operators (`custom::lower` dispatches by name; any
    // other custom code is the caller's kernel).
    OpKind::Unsupported => custom,
}

// Op families: what several builtins share (their builtin files keep only their specifics).
pub(crate) mod arg_min_max;
pub(crate) mod binary;
pub(crate) mod comparison;
pub mod control_flow;
pub(crate) mod conv_common;
pub(crate) mod conv_family;
pub(crate) mod circular_buffer;
pub(crate) mod decode;
pub(crate) mod int4;
pub(crate) mod detection_postprocess;
pub(crate) mod convolution_2d_transpose_bias;
pub(crate) mod max_pooling_with_argmax_2d;
pub(crate) mod max_unpooling_2d;
pub(crate) mod landmarks_to_transform_matrix;
pub(crate) mod transform_landmarks;
pub(crate) mod transform_tensor_bilinear;
pub mod mediapipe;
pub(crate) mod logical;
pub(crate) mod math;
pub(crate) mod movement;
pub(crate) mod pool_2d;
pub(crate) mod resource_variable;
pub(crate) mod signal;
pub(crate) mod reduce;
pub(crate) mod target;
pub(crate) mod unary;
pub mod user_custom;

#[cfg(test)]
mod test_helpers;
#[cfg(test)]
mod tests_16x8;
#[cfg(test)]
mod tests_int4;
#[cfg(test)]
mod tests_lut;
#[cfg(test)]
mod tests_16x8_elementwise;

/// Errors while executing a lowered kernel on concrete tensors (a missing or mistyped
/// tensor in the store).
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
#[error("{0}")]
pub struct ExecError(pub String);

/// Typed tensor contents for reference execution.
#[derive(Debug, Clone, PartialEq)]
pub enum TensorData {
    /// int8 elements.
    I8(Vec<i8>),
    /// uint8 elements.
    U8(Vec<u8>),
    /// int16 elements.
    I16(Vec<i16>),
    /// int32 elements.
    I32(Vec<i32>),
    /// int64 elements.
    I64(Vec<i64>),
    /// uint32 elements.
    U32(Vec<u32>),
    /// uint64 elements.
    U64(Vec<u64>),
    /// float32 elements.
    F32(Vec<f32>),
    /// bool elements.
    Bool(Vec<bool>),
}

impl TensorData {
    /// Decodes little-endian bytes of `dtype`; `None` for a type this store does not hold
    /// or a length that is not a whole number of elements.
    pub fn from_le_bytes(dtype: DType, b: &[u8]) -> Option<Self> {
        fn chunks<const N: usize, T>(b: &[u8], f: fn([u8; N]) -> T) -> Option<Vec<T>> {
            if !b.len().is_multiple_of(N) {
                return None;
            }
            Some(b.chunks_exact(N).map(|c| f(c.try_into().unwrap_or([0; N]))).collect())
        }
        Some(match dtype {
            DType::I8 => TensorData::I8(b.iter().map(|&x| x as i8).collect()),
            DType::U8 => TensorData::U8(b.to_vec()),
            DType::Bool => TensorData::Bool(b.iter().map(|&x| x != 0).collect()),
            DType::I16 => TensorData::I16(chunks(b, i16::from_le_bytes)?),
            DType::I32 => TensorData::I32(chunks(b, i32::from_le_bytes)?),
            DType::I64 => TensorData::I64(chunks(b, i64::from_le_bytes)?),
            DType::U32 => TensorData::U32(chunks(b, u32::from_le_bytes)?),
            DType::U64 => TensorData::U64(chunks(b, u64::from_le_bytes)?),
            DType::F32 => TensorData::F32(chunks(b, f32::from_le_bytes)?),
            _ => return None,
        })
    }

    /// The elements as little-endian bytes (bools as 0 or 1), as the arena holds them.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        match self {
            TensorData::I8(v) => v.iter().map(|&x| x as u8).collect(),
            TensorData::U8(v) => v.clone(),
            TensorData::Bool(v) => v.iter().map(|&x| x as u8).collect(),
            TensorData::I16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            TensorData::I32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            TensorData::I64(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            TensorData::U32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            TensorData::U64(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            TensorData::F32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        }
    }
}

/// Tensor contents by id, for reference execution.
#[derive(Debug, Clone, Default)]
pub struct TensorStore {
    map: BTreeMap<TensorId, TensorData>,
    /// An operator asked to end the run ([`TensorStore::stop`]).
    stopped: bool,
}

macro_rules! typed_access {
    ($get:ident, $take:ident, $variant:ident, $t:ty) => {
        /// The tensor's contents, which must be of this element type.
        pub fn $get(&self, t: TensorId) -> Result<&[$t], ExecError> {
            match self.map.get(&t) {
                Some(TensorData::$variant(v)) => Ok(v),
                Some(other) => Err(ExecError(format!("tensor {t} holds {other:?}-typed data, not {}", stringify!($t)))),
                None => Err(ExecError(format!("tensor {t} has no data"))),
            }
        }
        /// Removes the tensor's buffer for writing (or makes a zeroed one of `len`).
        pub fn $take(&mut self, t: TensorId, len: usize) -> Vec<$t> {
            match self.map.remove(&t) {
                Some(TensorData::$variant(mut v)) => {
                    v.resize(len, Default::default());
                    v
                }
                _ => vec![Default::default(); len],
            }
        }
    };
}

impl TensorStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// A store holding every constant tensor of `sg` whose type it can hold, and every
    /// variable tensor at its reset value ([`Tensor::reset_byte`]), as TFLite Micro holds
    /// them before the first run.
    pub fn with_constants(sg: &Subgraph<'_>) -> Self {
        let mut s = Self::new();
        for t in sg.tensors.iter() {
            if let Some(d) = t.data.and_then(|b| TensorData::from_le_bytes(t.dtype, b)) {
                s.insert(t.id, d);
            } else if t.is_variable && !t.is_constant() {
                let bytes = vec![t.reset_byte(); t.byte_size().unwrap_or(0)];
                if let Some(d) = TensorData::from_le_bytes(t.dtype, &bytes) {
                    s.insert(t.id, d);
                }
            }
        }
        s
    }

    /// Ends the run after the operator executing now ([`Kernel::stops`]: TFLite Micro's
    /// `kTfLiteAbort`).
    pub fn stop(&mut self) {
        self.stopped = true;
    }

    /// Whether an operator asked to end the run since the last call; clears the request.
    pub fn take_stop(&mut self) -> bool {
        std::mem::take(&mut self.stopped)
    }

    /// Stores `d` as tensor `t`'s contents, replacing any earlier.
    pub fn insert(&mut self, t: TensorId, d: TensorData) {
        self.map.insert(t, d);
    }

    /// Tensor `t`'s contents, if stored.
    pub fn get(&self, t: TensorId) -> Option<&TensorData> {
        self.map.get(&t)
    }

    /// The tensor's contents as `T`: the typed accessors' generic form.
    pub(crate) fn get_as<T: movement::Elem>(&self, t: TensorId) -> Result<&[T], ExecError> {
        match self.map.get(&t) {
            Some(d) => T::slice(d).ok_or_else(|| ExecError(format!("tensor {t} holds {d:?}-typed data, not {}", std::any::type_name::<T>()))),
            None => Err(ExecError(format!("tensor {t} has no data"))),
        }
    }

    /// Removes the tensor's buffer of `T` for writing (or makes a zeroed one of `len`): the
    /// typed `take_*`'s generic form.
    pub(crate) fn take_as<T: movement::Elem>(&mut self, t: TensorId, len: usize) -> Vec<T> {
        match self.map.remove(&t).and_then(T::unwrap) {
            Some(mut v) => {
                v.resize(len, T::default());
                v
            }
            None => vec![T::default(); len],
        }
    }

    typed_access!(i8, take_i8, I8, i8);
    typed_access!(i16, take_i16, I16, i16);
    typed_access!(i32, take_i32, I32, i32);
    typed_access!(i64, take_i64, I64, i64);
    typed_access!(f32, take_f32, F32, f32);
    typed_access!(u8, take_u8, U8, u8);
    typed_access!(u32, take_u32, U32, u32);
    typed_access!(u64, take_u64, U64, u64);
}

/// The operator being lowered, with helpers that turn every malformed case into an error
/// naming op index, opcode and tensor.
pub struct OpCx<'m, 'a> {
    /// The subgraph the operator belongs to.
    pub sg: &'m Subgraph<'a>,
    /// The operator.
    pub op: &'m Operator<'a>,
}

impl<'m, 'a> OpCx<'m, 'a> {
    /// The float16 source (binary16 bits) of weight tensor `t` when the compile keeps it in
    /// flash ([`Subgraph::half_weights`]): the input of the folded DEQUANTIZE that made `t`,
    /// whose exact widening is `t`'s float32 data. `None` otherwise.
    pub fn half_weights(&self, t: &Tensor<'_>) -> Option<Vec<u16>> {
        if !self.sg.half_weights.contains(&t.id) {
            return None;
        }
        let producer = self.sg.ops.iter().find(|o| o.outputs.contains(&t.id) && o.kind == crate::ir::OpKind::Dequantize)?;
        let source = self.sg.tensors.get((*producer.inputs.first()?)?)?;
        let data = source.data.filter(|d| source.dtype == DType::F16 && d.len() == 2 * t.num_elements())?;
        Some(data.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect())
    }

    /// Every operand's quantization scales, per tensor and per channel alike, are finite and
    /// positive (a zero or negative scale makes every requantization multiplier meaningless).
    /// Float tensors are not checked: their quantization, if any, is unused.
    pub fn check_quantization(&self) -> Result<(), LowerError> {
        let operands = self.op.inputs.iter().flatten().chain(&self.op.outputs);
        for &id in operands {
            let t = self.sg.tensor(id);
            if matches!(t.dtype, DType::F32 | DType::F16 | DType::F64) {
                continue;
            }
            let Some(q) = &t.quant else { continue };
            if let Some((c, &scale)) = q.scale.iter().enumerate().find(|(_, s)| !(s.is_finite() && **s > 0.0)) {
                let which = if q.scale.len() > 1 { format!("channel {c}: ") } else { String::new() };
                return Err(self.invalid_tensor(t, format!("{which}quantization scale {scale} is not positive")));
            }
        }
        Ok(())
    }

    fn at(&self, t: Option<&Tensor<'_>>) -> Location {
        Location {
            subgraph: Some(self.sg.id.index()),
            op_index: Some(self.op.id.index()),
            opcode: Some(self.op.opcode.to_string()),
            tensor_index: t.map(|t| t.id.index()),
            tensor_name: t.map(|t| t.name.clone()),
        }
    }

    /// An [`LowerError::Unsupported`] at this operator.
    pub fn unsupported(&self, reason: impl Into<String>) -> LowerError {
        LowerError::Unsupported { at: self.at(None), reason: reason.into() }
    }

    /// An [`LowerError::Unsupported`] at this operator and tensor `t`.
    pub fn unsupported_tensor(&self, t: &Tensor<'_>, reason: impl Into<String>) -> LowerError {
        LowerError::Unsupported { at: self.at(Some(t)), reason: reason.into() }
    }

    /// An [`LowerError::Invalid`] at this operator.
    pub fn invalid(&self, what: impl Into<String>) -> LowerError {
        LowerError::Invalid { at: self.at(None), what: what.into() }
    }

    /// An [`LowerError::Invalid`] at this operator and tensor `t`.
    pub fn invalid_tensor(&self, t: &Tensor<'_>, what: impl Into<String>) -> LowerError {
        LowerError::Invalid { at: self.at(Some(t)), what: what.into() }
    }

    /// Input `i`, which must be present.
    pub fn input(&self, i: usize) -> Result<&'m Tensor<'a>, LowerError> {
        match self.op.input(i) {
            Some(t) => Ok(self.sg.tensor(t)),
            None => Err(self.invalid(format!("input {i} is missing"))),
        }
    }

    /// Input `i` if present (optional inputs such as a bias).
    pub fn optional_input(&self, i: usize) -> Option<&'m Tensor<'a>> {
        self.op.input(i).map(|t| self.sg.tensor(t))
    }

    /// Output `i`, which must be present.
    pub fn output(&self, i: usize) -> Result<&'m Tensor<'a>, LowerError> {
        match self.op.outputs.get(i) {
            Some(&t) => Ok(self.sg.tensor(t)),
            None => Err(self.invalid(format!("output {i} is missing"))),
        }
    }

    /// Checks that the op has `n_in` inputs (counting omitted optional ones) and `n_out`
    /// outputs.
    pub fn expect_arity(&self, n_in: std::ops::RangeInclusive<usize>, n_out: usize) -> Result<(), LowerError> {
        if !n_in.contains(&self.op.inputs.len()) || self.op.outputs.len() != n_out {
            let (lo, hi) = (*n_in.start(), *n_in.end());
            let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
            let inputs = match hi - lo {
                0 => plural(lo, "input"),
                1 => format!("{lo} or {}", plural(hi, "input")),
                _ => format!("{lo} to {}", plural(hi, "input")),
            };
            return Err(self.invalid(format!(
                "expected {inputs} and {}, found {} and {}",
                plural(n_out, "output"),
                plural(self.op.inputs.len(), "input"),
                plural(self.op.outputs.len(), "output")
            )));
        }
        Ok(())
    }

    /// Checks that `t` has element type `dtype` (else unsupported, naming both types).
    pub fn expect_dtype(&self, t: &Tensor<'_>, dtype: DType) -> Result<(), LowerError> {
        if t.dtype != dtype {
            return Err(self.unsupported_tensor(t, format!("element type {} (expected {dtype})", t.dtype)));
        }
        Ok(())
    }

    /// A non-constant tensor (an activation).
    pub fn expect_activation(&self, t: &Tensor<'_>) -> Result<(), LowerError> {
        if t.is_constant() {
            return Err(self.unsupported_tensor(t, "a constant where the kernel expects an activation"));
        }
        Ok(())
    }

    /// A constant tensor.
    pub fn expect_constant(&self, t: &Tensor<'a>) -> Result<&'a [u8], LowerError> {
        t.data.ok_or_else(|| self.unsupported_tensor(t, "a non-constant tensor where the kernel expects a constant"))
    }

    /// Constant int32 data (biases, shape operands).
    pub fn const_i32(&self, t: &Tensor<'_>) -> Result<Vec<i32>, LowerError> {
        self.expect_dtype(t, DType::I32)?;
        let d = self.expect_constant(t)?;
        match TensorData::from_le_bytes(DType::I32, d) {
            Some(TensorData::I32(v)) => Ok(v),
            _ => Err(self.invalid_tensor(t, "malformed int32 constant")),
        }
    }

    /// Constant int64 data (the biases of 16x8 kernels).
    pub fn const_i64(&self, t: &Tensor<'_>) -> Result<Vec<i64>, LowerError> {
        self.expect_dtype(t, DType::I64)?;
        let d = self.expect_constant(t)?;
        match TensorData::from_le_bytes(DType::I64, d) {
            Some(TensorData::I64(v)) => Ok(v),
            _ => Err(self.invalid_tensor(t, "malformed int64 constant")),
        }
    }

    /// The per-tensor quantization of an int16 activation, whose zero point must be 0
    /// (TFLite's 16x8 kernels require symmetric int16).
    pub fn q_s16(&self, t: &Tensor<'_>) -> Result<QuantParams, LowerError> {
        self.expect_dtype(t, DType::I16)?;
        let q = self.per_tensor_q(t)?;
        if q.zero_point != 0 {
            return Err(self.unsupported_tensor(t, format!("int16 zero point {} (TFLite requires 0)", q.zero_point)));
        }
        Ok(q)
    }

    /// The int16 clamp range of a fused activation on an output quantized as `out`.
    pub fn activation_range_s16(&self, a: Activation, out: QuantParams) -> Result<(i32, i32), LowerError> {
        let kind = self.fused_activation(a)?;
        tflc_runtime::prepare::activation_range_s16(kind, out.scale, out.zero_point)
            .ok_or_else(|| self.invalid(format!("fused activation {a} cannot be expressed in the output quantization")))
    }

    /// A constant int32 bias of exactly `n` entries (`what` names them in the error), or an
    /// empty vector when there is none.
    pub fn bias_i32(&self, bias: Option<&Tensor<'a>>, n: usize, what: &str) -> Result<Vec<i32>, LowerError> {
        let Some(b) = bias else { return Ok(Vec::new()) };
        let v = self.const_i32(b)?;
        if v.len() != n {
            return Err(self.invalid_tensor(b, format!("bias has {} entries for {n} {what}", v.len())));
        }
        Ok(v)
    }

    /// The clamp range of a fused activation for an int8 or (`int16`) int16 output.
    pub fn activation_range(&self, a: Activation, out: QuantParams, int16: bool) -> Result<(i32, i32), LowerError> {
        if int16 {
            self.activation_range_s16(a, out)
        } else {
            self.activation_range_s8(a, out)
        }
    }

    /// The shape of `t`, which must have rank 4.
    pub fn shape4(&self, t: &Tensor<'_>) -> Result<[usize; 4], LowerError> {
        match t.shape.as_slice() {
            &[a, b, c, d] => Ok([a, b, c, d]),
            s => Err(self.unsupported_tensor(t, format!("shape {s:?} (expected rank 4)"))),
        }
    }

    /// The per-tensor scale and zero point of `t` (zero point as i32).
    pub fn per_tensor_q(&self, t: &Tensor<'_>) -> Result<QuantParams, LowerError> {
        let q = t.quant.as_ref().ok_or_else(|| self.unsupported_tensor(t, "not quantized"))?;
        let (scale, zp) = q.per_tensor().ok_or_else(|| self.unsupported_tensor(t, "per-axis quantization where per-tensor is required"))?;
        if !(scale.is_finite() && scale > 0.0) {
            return Err(self.invalid_tensor(t, format!("quantization scale {scale} is not positive")));
        }
        let zp = i32::try_from(zp).map_err(|_| self.invalid_tensor(t, format!("zero point {zp} is out of range")))?;
        Ok(QuantParams { scale, zero_point: zp })
    }

    /// The per-tensor quantization of an int8 activation; its zero point in -128..=127.
    pub fn q_s8(&self, t: &Tensor<'_>) -> Result<QuantParams, LowerError> {
        self.expect_dtype(t, DType::I8)?;
        let q = self.per_tensor_q(t)?;
        if !(-128..=127).contains(&q.zero_point) {
            return Err(self.invalid_tensor(t, format!("int8 zero point {} is out of range", q.zero_point)));
        }
        Ok(q)
    }

    /// The int8 clamp range of a fused activation on an output quantized as `out`
    /// (TFLite `CalculateActivationRangeQuantized`).
    pub fn activation_range_s8(&self, a: Activation, out: QuantParams) -> Result<(i32, i32), LowerError> {
        let kind = self.fused_activation(a)?;
        tflc_runtime::prepare::activation_range_s8(kind, out.scale, out.zero_point)
            .ok_or_else(|| self.invalid(format!("fused activation {a} cannot be expressed in the output quantization")))
    }

    /// Maps a fused activation to the clamp kind; TANH/SIGN_BIT fused are unsupported.
    pub fn fused_activation(&self, a: Activation) -> Result<FusedActivation, LowerError> {
        Ok(match a {
            Activation::None => FusedActivation::None,
            Activation::Relu => FusedActivation::Relu,
            Activation::Relu6 => FusedActivation::Relu6,
            Activation::ReluN1To1 => FusedActivation::ReluN1To1,
            other => return Err(self.unsupported(format!("fused activation {other}"))),
        })
    }
}

/// The overlap declaration of a window kernel (input 0, output 0) run through the runtime's
/// row driver, in bytes of `elem`-byte elements: forward
/// ([`Rows::max_delta`](tflc_runtime::kernels::overlap::Rows::max_delta), the output below
/// the input) or reversed ([`Rows::min_delta`](tflc_runtime::kernels::overlap::Rows::min_delta),
/// the output above it: an output that grows, e.g. an expanding 1x1 convolution), whichever
/// lets the pair share more bytes (forward on ties). One declaration per pair: the driver
/// takes the direction from the placement. None when the driver cannot run it (batches,
/// all-padding rows) or neither bound leaves anything to share.
pub(crate) fn window_overlap(
    rows: Option<tflc_runtime::kernels::overlap::Rows>,
    elem: usize,
) -> Vec<(usize, usize, crate::ir::DeltaBound)> {
    use crate::ir::DeltaBound;
    let Some(rows) = rows else { return Vec::new() };
    let e = elem as i64;
    let in_bytes = (rows.in_h * rows.in_row) as i64 * e;
    let out_bytes = (rows.out_h * rows.out_row) as i64 * e;
    // Bytes shared at the bound: the output [d, d + out) against the input [0, in).
    let shared = |d: i64| (d + out_bytes).min(in_bytes) - d.max(0);
    let forward = rows.max_delta().map(|d| d.saturating_mul(e).min(0));
    let reversed = rows.min_delta().map(|d| d.saturating_mul(e).max(0));
    let best = match (forward, reversed) {
        (Some(f), Some(r)) if shared(r) > shared(f) => Some(DeltaBound::AtLeast(r)),
        (Some(f), _) => Some(DeltaBound::AtMost(f)),
        (None, Some(r)) => Some(DeltaBound::AtLeast(r)),
        (None, None) => None,
    };
    match best {
        Some(DeltaBound::AtMost(d)) if shared(d) > 0 => vec![(0, 0, DeltaBound::AtMost(d))],
        Some(DeltaBound::AtLeast(d)) if shared(d) > 0 => vec![(0, 0, DeltaBound::AtLeast(d))],
        _ => Vec::new(),
    }
}

/// The overlap declaration of a copy whose output grows (PAD, CONCATENATION), input `input`
/// over output 0, in bytes of `elem`-byte elements: reversed, from the smallest delta
/// (elements) the runtime's walk allows (`tflc_runtime::kernels::overlap::{pad_min_delta,
/// concatenation_min_delta}`, the one place per family: the kernel walks and checks the same
/// steps). Usually `-o(0)`, the input at or above its own place in the output, so the pair
/// costs the output's bytes alone. None when the walk has nothing to stream or the two could
/// share nothing.
pub(crate) fn copy_overlap(
    min_delta: Option<i64>,
    input: usize,
    input_len: usize,
    output_len: usize,
    elem: usize,
) -> Vec<(usize, usize, crate::ir::DeltaBound)> {
    let Some(d) = min_delta else { return Vec::new() };
    let e = elem as i64;
    let (in_bytes, out_bytes) = ((input_len as i64).saturating_mul(e), (output_len as i64).saturating_mul(e));
    let d = d.saturating_mul(e);
    // The most bytes the pair can share at a delta the bound allows: the output [delta, delta
    // + out) against the input [0, in), at the bound or, if that is lower, where the smaller
    // one lies inside the larger.
    let delta = d.max((in_bytes - out_bytes).min(0));
    let shared = (delta.saturating_add(out_bytes)).min(in_bytes) - delta.max(0);
    if shared > 0 {
        vec![(input, 0, crate::ir::DeltaBound::AtLeast(d))]
    } else {
        Vec::new()
    }
}
