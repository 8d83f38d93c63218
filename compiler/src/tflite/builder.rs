//! A small `.tflite` writer for tests, examples and the default model.
//!
//! ```
//! use tflc::ir::{DType, OpKind, FullyConnectedOptions};
//! use tflc::internal::tflite::builder::ModelBuilder;
//!
//! let mut b = ModelBuilder::new();
//! let x = b.activation("x", DType::I8, &[1, 4], Some((0.5, -1)));
//! let w = b.constant_i8("w", &[2, 4], &[1, 2, 3, 4, 5, 6, 7, 8], Some((0.25, 0)));
//! let bias = b.constant_i32("b", &[2], &[10, -10], Some((0.125, 0)));
//! let y = b.activation("y", DType::I8, &[1, 2], Some((1.0, 3)));
//! b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(w), Some(bias)], &[y]);
//! b.inputs(&[x]);
//! b.outputs(&[y]);
//! let bytes = b.finish();
//! let model = tflc::internal::tflite::read_model(&bytes).unwrap();
//! assert_eq!(model.main().ops.len(), 1);
//! ```
//!
//! Ops are given as [`OpKind`] values, so the builder writes exactly the options the reader
//! reads back (a round trip that the tests check for every kind).

use super::fb;
use crate::ir::{Activation, DType, DimFormat, IndexVector, OpKind, Padding, Quantization, Sparsity, TensorId};
use flatbuffers::{FlatBufferBuilder, UnionWIPOffset, WIPOffset};

/// One tensor to write.
#[derive(Debug, Clone)]
pub struct TensorSpec {
    /// The tensor's name.
    pub name: String,
    /// Its element type.
    pub dtype: DType,
    /// Its shape (negative dimensions can be written, for malformed-model tests).
    pub shape: Vec<i32>,
    /// The `shape_signature` to write, if any.
    pub shape_signature: Option<Vec<i32>>,
    /// Its quantization, if any.
    pub quant: Option<Quantization>,
    /// Constant data (little-endian bytes), if any.
    pub data: Option<Vec<u8>>,
    /// Written as a variable tensor.
    pub variable: bool,
}

/// How an operator's code is written.
#[derive(Debug, Clone, PartialEq)]
pub enum OpSpecCode {
    /// A kind the IR knows; code and options follow from it.
    Kind(OpKind),
    /// A raw builtin code without options (to write builtins tflc does not know).
    RawBuiltin(i32),
    /// A custom op with this `custom_code`.
    Custom(String),
}

#[derive(Debug, Clone)]
struct OpSpec {
    code: OpSpecCode,
    inputs: Vec<i32>,
    outputs: Vec<i32>,
    intermediates: Vec<i32>,
    custom_options: Option<Vec<u8>>,
    /// Its operator code's version (1 unless set).
    version: i32,
}

#[derive(Debug, Clone, Default)]
struct SubgraphSpec {
    name: String,
    tensors: Vec<TensorSpec>,
    /// Sparsity metadata to write, by tensor index (any metadata, valid or not).
    sparsity: std::collections::BTreeMap<usize, Sparsity>,
    ops: Vec<OpSpec>,
    inputs: Vec<i32>,
    outputs: Vec<i32>,
}

/// Where constant buffers go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BufferPlacement {
    /// Inside the flatbuffer (`Buffer.data`), as most converters write them.
    #[default]
    Inline,
    /// After the flatbuffer, referenced by `Buffer.offset`/`size` (large-model layout).
    Appended,
}

/// Writes a model with one or more subgraphs; methods act on the current subgraph.
#[derive(Debug, Clone)]
pub struct ModelBuilder {
    subgraphs: Vec<SubgraphSpec>,
    current: usize,
    description: String,
    metadata: Vec<(String, Vec<u8>)>,
    placement: BufferPlacement,
}

impl Default for ModelBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ModelBuilder {
    /// An empty model with one (current) subgraph, buffers inline.
    pub fn new() -> Self {
        Self {
            subgraphs: vec![SubgraphSpec { name: "main".into(), ..Default::default() }],
            current: 0,
            description: "built by tflc's model builder".into(),
            metadata: Vec::new(),
            placement: BufferPlacement::Inline,
        }
    }

    /// Sets the model's `description`.
    pub fn description(&mut self, d: &str) -> &mut Self {
        self.description = d.to_owned();
        self
    }

    /// Sets where constant buffers are written.
    pub fn buffer_placement(&mut self, p: BufferPlacement) -> &mut Self {
        self.placement = p;
        self
    }

    /// Adds a metadata entry (for example `OfflineMemoryAllocation`).
    pub fn metadata(&mut self, name: &str, data: Vec<u8>) -> &mut Self {
        self.metadata.push((name.to_owned(), data));
        self
    }

    /// Starts a new subgraph and makes it current; returns its index.
    pub fn new_subgraph(&mut self, name: &str) -> usize {
        self.subgraphs.push(SubgraphSpec { name: name.to_owned(), ..Default::default() });
        self.current = self.subgraphs.len() - 1;
        self.current
    }

    /// Makes subgraph `i` current.
    pub fn select_subgraph(&mut self, i: usize) {
        assert!(i < self.subgraphs.len(), "no subgraph {i}");
        self.current = i;
    }

    fn sg(&mut self) -> &mut SubgraphSpec {
        &mut self.subgraphs[self.current]
    }

    /// Adds any tensor.
    pub fn tensor(&mut self, spec: TensorSpec) -> TensorId {
        let sg = self.sg();
        sg.tensors.push(spec);
        TensorId::new(sg.tensors.len() - 1)
    }

    /// Adds a non-constant tensor, per-tensor quantized when `q = Some((scale, zero_point))`.
    pub fn activation(&mut self, name: &str, dtype: DType, shape: &[usize], q: Option<(f32, i64)>) -> TensorId {
        self.tensor(TensorSpec {
            name: name.to_owned(),
            dtype,
            shape: shape.iter().map(|&d| d as i32).collect(),
            shape_signature: None,
            quant: q.map(per_tensor),
            data: None,
            variable: false,
        })
    }

    /// Adds a constant tensor with raw little-endian bytes.
    pub fn constant(&mut self, name: &str, dtype: DType, shape: &[usize], data: Vec<u8>, quant: Option<Quantization>) -> TensorId {
        self.tensor(TensorSpec {
            name: name.to_owned(),
            dtype,
            shape: shape.iter().map(|&d| d as i32).collect(),
            shape_signature: None,
            quant,
            data: Some(data),
            variable: false,
        })
    }

    /// An int8 constant, per-tensor quantized by `q = (scale, zero_point)` when given.
    pub fn constant_i8(&mut self, name: &str, shape: &[usize], v: &[i8], q: Option<(f32, i64)>) -> TensorId {
        self.constant(name, DType::I8, shape, v.iter().map(|&x| x as u8).collect(), q.map(per_tensor))
    }

    /// An int8 constant quantized per channel along `axis`.
    pub fn constant_i8_per_axis(&mut self, name: &str, shape: &[usize], v: &[i8], scales: &[f32], axis: usize) -> TensorId {
        let q = Quantization { scale: scales.to_vec(), zero_point: vec![0; scales.len()], axis: Some(axis) };
        self.constant(name, DType::I8, shape, v.iter().map(|&x| x as u8).collect(), Some(q))
    }

    /// An int4 constant (TFLite's `INT4`) of `v` (each in -8..=7), packed as TFLite packs
    /// it: two elements a byte, flat over the tensor, element `2k` in the low nibble of byte
    /// `k`; an odd count leaves the last high nibble 0. Quantized by `quant` when given.
    pub fn constant_i4(&mut self, name: &str, shape: &[usize], v: &[i8], quant: Option<Quantization>) -> TensorId {
        self.constant(name, DType::I4, shape, pack_int4(v), quant)
    }

    /// An int4 constant quantized per channel along `axis` (zero points 0).
    pub fn constant_i4_per_axis(&mut self, name: &str, shape: &[usize], v: &[i8], scales: &[f32], axis: usize) -> TensorId {
        let q = Quantization { scale: scales.to_vec(), zero_point: vec![0; scales.len()], axis: Some(axis) };
        self.constant_i4(name, shape, v, Some(q))
    }

    /// An int32 constant (a bias), per-tensor quantized by `q` when given.
    pub fn constant_i32(&mut self, name: &str, shape: &[usize], v: &[i32], q: Option<(f32, i64)>) -> TensorId {
        self.constant(name, DType::I32, shape, v.iter().flat_map(|x| x.to_le_bytes()).collect(), q.map(per_tensor))
    }

    /// An int32 constant (bias) quantized per channel along axis 0.
    pub fn constant_i32_per_axis(&mut self, name: &str, shape: &[usize], v: &[i32], scales: &[f32]) -> TensorId {
        let q = Quantization { scale: scales.to_vec(), zero_point: vec![0; scales.len()], axis: Some(0) };
        self.constant(name, DType::I32, shape, v.iter().flat_map(|x| x.to_le_bytes()).collect(), Some(q))
    }

    /// A float32 constant.
    pub fn constant_f32(&mut self, name: &str, shape: &[usize], v: &[f32]) -> TensorId {
        self.constant(name, DType::F32, shape, v.iter().flat_map(|x| x.to_le_bytes()).collect(), None)
    }

    /// A sparse constant: `stored` holds its stored values (little-endian), `sparsity` how
    /// they map onto `shape` (written as given, so malformed metadata can be written too).
    pub fn constant_sparse(&mut self, name: &str, dtype: DType, shape: &[usize], stored: Vec<u8>, sparsity: Sparsity, quant: Option<Quantization>) -> TensorId {
        let t = self.constant(name, dtype, shape, stored, quant);
        self.sg().sparsity.insert(t.index(), sparsity);
        t
    }

    /// Adds an operator of a kind the IR knows.
    pub fn op(&mut self, kind: OpKind, inputs: &[Option<TensorId>], outputs: &[TensorId]) -> usize {
        self.op_spec(OpSpecCode::Kind(kind), inputs, outputs)
    }

    /// Adds an operator by raw code (unknown builtins, custom ops).
    pub fn op_spec(&mut self, code: OpSpecCode, inputs: &[Option<TensorId>], outputs: &[TensorId]) -> usize {
        let sg = self.sg();
        sg.ops.push(OpSpec {
            code,
            inputs: inputs.iter().map(|t| t.map_or(-1, |t| t.index() as i32)).collect(),
            outputs: outputs.iter().map(|t| t.index() as i32).collect(),
            intermediates: Vec::new(),
            custom_options: None,
            version: 1,
        });
        sg.ops.len() - 1
    }

    /// Sets the custom options (a FlexBuffer) of operator `op` of the current subgraph.
    pub fn custom_options(&mut self, op: usize, bytes: Vec<u8>) -> &mut Self {
        if let Some(o) = self.sg().ops.get_mut(op) {
            o.custom_options = Some(bytes);
        }
        self
    }

    /// Sets the version of operator `op`'s code (of the current subgraph); operators of one
    /// code and different versions get an operator code each.
    pub fn op_version(&mut self, op: usize, version: i32) -> &mut Self {
        if let Some(o) = self.sg().ops.get_mut(op) {
            o.version = version;
        }
        self
    }

    /// Adds an operator with raw tensor indices, for writing malformed models in tests.
    pub fn op_raw(&mut self, code: OpSpecCode, inputs: &[i32], outputs: &[i32]) -> usize {
        let sg = self.sg();
        sg.ops.push(OpSpec { code, inputs: inputs.to_vec(), outputs: outputs.to_vec(), intermediates: Vec::new(), custom_options: None, version: 1 });
        sg.ops.len() - 1
    }

    /// Sets the raw subgraph inputs, for malformed models in tests.
    pub fn inputs_raw(&mut self, ts: &[i32]) -> &mut Self {
        self.sg().inputs = ts.to_vec();
        self
    }

    /// Sets the current subgraph's inputs.
    pub fn inputs(&mut self, ts: &[TensorId]) -> &mut Self {
        self.sg().inputs = ts.iter().map(|t| t.index() as i32).collect();
        self
    }

    /// Sets the current subgraph's outputs.
    pub fn outputs(&mut self, ts: &[TensorId]) -> &mut Self {
        self.sg().outputs = ts.iter().map(|t| t.index() as i32).collect();
        self
    }

    /// Serialises the model.
    pub fn finish(&self) -> Vec<u8> {
        match self.placement {
            BufferPlacement::Inline => self.build(None),
            BufferPlacement::Appended => {
                // Pass 1 with placeholder offsets measures the flatbuffer; the offsets in
                // pass 2 have the same encoded size, so the layout does not move.
                let datas = self.buffer_datas();
                let placeholder: Vec<u64> = datas.iter().map(|_| 1).collect();
                let len = self.build(Some(&placeholder)).len();
                let mut offsets = Vec::with_capacity(datas.len());
                let mut pos = len.next_multiple_of(16) as u64;
                for d in &datas {
                    offsets.push(pos);
                    pos = (pos + d.len() as u64).next_multiple_of(16);
                }
                let mut out = self.build(Some(&offsets));
                assert_eq!(out.len(), len, "flatbuffer size changed between passes");
                for (d, &off) in datas.iter().zip(&offsets) {
                    out.resize(off as usize, 0);
                    out.extend_from_slice(d);
                }
                out
            }
        }
    }

    /// Constant data, in buffer order (buffer `i + 1`).
    fn buffer_datas(&self) -> Vec<&[u8]> {
        let mut v: Vec<&[u8]> = Vec::new();
        for sg in &self.subgraphs {
            for t in &sg.tensors {
                if let Some(d) = &t.data {
                    v.push(d);
                }
            }
        }
        for (_, d) in &self.metadata {
            v.push(d);
        }
        v
    }

    fn build(&self, appended_offsets: Option<&[u64]>) -> Vec<u8> {
        let mut fbb = FlatBufferBuilder::with_capacity(1024);
        // Buffer 0 is the empty sentinel; then one buffer per constant, then metadata.
        let datas = self.buffer_datas();
        let mut buffers = vec![fb::Buffer::create(&mut fbb, &fb::BufferArgs::default())];
        for (i, d) in datas.iter().enumerate() {
            let args = match appended_offsets {
                None => {
                    let v = fbb.create_vector(d);
                    fb::BufferArgs { data: Some(v), offset: 0, size: 0 }
                }
                Some(offs) => fb::BufferArgs { data: None, offset: offs[i], size: d.len() as u64 },
            };
            buffers.push(fb::Buffer::create(&mut fbb, &args));
        }

        // Operator codes, deduplicated in first-use order.
        let mut codes: Vec<(i32, Option<String>, i32)> = Vec::new();
        let mut next_buffer = 1u32;
        let mut fsubgraphs = Vec::new();
        for sg in &self.subgraphs {
            let mut tensors = Vec::new();
            for (ti, t) in sg.tensors.iter().enumerate() {
                let buffer = if t.data.is_some() {
                    next_buffer += 1;
                    next_buffer - 1
                } else {
                    0
                };
                let name = fbb.create_string(&t.name);
                let shape = fbb.create_vector(&t.shape);
                let shape_signature = t.shape_signature.as_ref().map(|s| fbb.create_vector(s));
                let quantization = t.quant.as_ref().map(|q| {
                    let scale = fbb.create_vector(&q.scale);
                    let zp = fbb.create_vector(&q.zero_point);
                    fb::QuantizationParameters::create(
                        &mut fbb,
                        &fb::QuantizationParametersArgs {
                            scale: Some(scale),
                            zero_point: Some(zp),
                            quantized_dimension: q.axis.unwrap_or(0) as i32,
                            ..Default::default()
                        },
                    )
                });
                let sparsity = sg.sparsity.get(&ti).map(|sp| write_sparsity(&mut fbb, sp));
                tensors.push(fb::Tensor::create(
                    &mut fbb,
                    &fb::TensorArgs {
                        sparsity,
                        shape: Some(shape),
                        type_: dtype_code(t.dtype),
                        buffer,
                        name: Some(name),
                        quantization,
                        is_variable: t.variable,
                        shape_signature,
                        ..Default::default()
                    },
                ));
            }
            let mut ops = Vec::new();
            for op in &sg.ops {
                let (code, custom, opt_type, options) = match &op.code {
                    OpSpecCode::Kind(kind) => {
                        let (code, ty, opts) = write_options(&mut fbb, kind);
                        (code, None, ty, opts)
                    }
                    OpSpecCode::RawBuiltin(c) => (*c, None, fb::BuiltinOptions::NONE, None),
                    OpSpecCode::Custom(name) => (fb::BuiltinOperator::CUSTOM.0, Some(name.clone()), fb::BuiltinOptions::NONE, None),
                };
                let key = (code, custom, op.version);
                let opcode_index = match codes.iter().position(|c| *c == key) {
                    Some(i) => i,
                    None => {
                        codes.push(key);
                        codes.len() - 1
                    }
                } as u32;
                let inputs = fbb.create_vector(&op.inputs);
                let outputs = fbb.create_vector(&op.outputs);
                let intermediates = (!op.intermediates.is_empty()).then(|| fbb.create_vector(&op.intermediates));
                let custom_options = op.custom_options.as_ref().map(|c| fbb.create_vector(c));
                ops.push(fb::Operator::create(
                    &mut fbb,
                    &fb::OperatorArgs {
                        opcode_index,
                        inputs: Some(inputs),
                        outputs: Some(outputs),
                        builtin_options_type: opt_type,
                        builtin_options: options,
                        custom_options,
                        intermediates,
                        ..Default::default()
                    },
                ));
            }
            let tensors = fbb.create_vector(&tensors);
            let operators = fbb.create_vector(&ops);
            let inputs = fbb.create_vector(&sg.inputs);
            let outputs = fbb.create_vector(&sg.outputs);
            let name = fbb.create_string(&sg.name);
            fsubgraphs.push(fb::SubGraph::create(
                &mut fbb,
                &fb::SubGraphArgs {
                    tensors: Some(tensors),
                    inputs: Some(inputs),
                    outputs: Some(outputs),
                    operators: Some(operators),
                    name: Some(name),
                    ..Default::default()
                },
            ));
        }
        let mut metadata = Vec::new();
        for (name, _) in &self.metadata {
            let n = fbb.create_string(name);
            metadata.push(fb::Metadata::create(&mut fbb, &fb::MetadataArgs { name: Some(n), buffer: next_buffer }));
            next_buffer += 1;
        }
        let fcodes: Vec<_> = codes
            .iter()
            .map(|(code, custom, version)| {
                let custom_code = custom.as_ref().map(|c| fbb.create_string(c));
                fb::OperatorCode::create(
                    &mut fbb,
                    &fb::OperatorCodeArgs {
                        deprecated_builtin_code: (*code).min(127) as i8,
                        custom_code,
                        version: *version,
                        builtin_code: fb::BuiltinOperator(*code),
                    },
                )
            })
            .collect();
        let operator_codes = fbb.create_vector(&fcodes);
        let subgraphs = fbb.create_vector(&fsubgraphs);
        let buffers = fbb.create_vector(&buffers);
        let description = fbb.create_string(&self.description);
        let metadata = (!metadata.is_empty()).then(|| fbb.create_vector(&metadata));
        let model = fb::Model::create(
            &mut fbb,
            &fb::ModelArgs {
                version: 3,
                operator_codes: Some(operator_codes),
                subgraphs: Some(subgraphs),
                description: Some(description),
                buffers: Some(buffers),
                metadata,
                ..Default::default()
            },
        );
        fb::finish_model_buffer(&mut fbb, model);
        fbb.finished_data().to_vec()
    }
}

fn per_tensor((scale, zp): (f32, i64)) -> Quantization {
    Quantization { scale: vec![scale], zero_point: vec![zp], axis: None }
}

fn dtype_code(d: DType) -> fb::TensorType {
    match d {
        DType::F32 => fb::TensorType::FLOAT32,
        DType::F16 => fb::TensorType::FLOAT16,
        DType::F64 => fb::TensorType::FLOAT64,
        DType::I8 => fb::TensorType::INT8,
        DType::U8 => fb::TensorType::UINT8,
        DType::I16 => fb::TensorType::INT16,
        DType::U16 => fb::TensorType::UINT16,
        DType::I32 => fb::TensorType::INT32,
        DType::U32 => fb::TensorType::UINT32,
        DType::I64 => fb::TensorType::INT64,
        DType::U64 => fb::TensorType::UINT64,
        DType::Bool => fb::TensorType::BOOL,
        DType::I4 => fb::TensorType::INT4,
        DType::String => fb::TensorType::STRING,
        DType::Resource => fb::TensorType::RESOURCE,
        DType::Other(c) => fb::TensorType(c),
    }
}

fn act(a: Activation) -> fb::ActivationFunctionType {
    match a {
        Activation::None => fb::ActivationFunctionType::NONE,
        Activation::Relu => fb::ActivationFunctionType::RELU,
        Activation::ReluN1To1 => fb::ActivationFunctionType::RELU_N1_TO_1,
        Activation::Relu6 => fb::ActivationFunctionType::RELU6,
        Activation::Tanh => fb::ActivationFunctionType::TANH,
        Activation::SignBit => fb::ActivationFunctionType::SIGN_BIT,
        Activation::Unknown(c) => fb::ActivationFunctionType(c),
    }
}

fn pad(p: Padding) -> fb::Padding {
    match p {
        Padding::Same => fb::Padding::SAME,
        Padding::Valid => fb::Padding::VALID,
        Padding::Unknown(c) => fb::Padding(c),
    }
}

type Written = (i32, fb::BuiltinOptions, Option<WIPOffset<UnionWIPOffset>>);

/// The builtin code and options table for `kind`: the inverse of the reader's mapping.
fn write_options(fbb: &mut FlatBufferBuilder<'_>, kind: &OpKind) -> Written {
    use fb::BuiltinOperator as B;
    use fb::BuiltinOptions as O;
    let none = |code: B| (code.0, O::NONE, None);
    match kind {
        OpKind::Conv2d(o) => {
            let t = fb::Conv2DOptions::create(
                fbb,
                &fb::Conv2DOptionsArgs {
                    padding: pad(o.padding),
                    stride_w: o.stride_w,
                    stride_h: o.stride_h,
                    fused_activation_function: act(o.activation),
                    dilation_w_factor: o.dilation_w,
                    dilation_h_factor: o.dilation_h,
                    ..Default::default()
                },
            );
            (B::CONV_2D.0, O::Conv2DOptions, Some(t.as_union_value()))
        }
        OpKind::DepthwiseConv2d(o) => {
            let t = fb::DepthwiseConv2DOptions::create(
                fbb,
                &fb::DepthwiseConv2DOptionsArgs {
                    padding: pad(o.padding),
                    stride_w: o.stride_w,
                    stride_h: o.stride_h,
                    depth_multiplier: o.depth_multiplier,
                    fused_activation_function: act(o.activation),
                    dilation_w_factor: o.dilation_w,
                    dilation_h_factor: o.dilation_h,
                },
            );
            (B::DEPTHWISE_CONV_2D.0, O::DepthwiseConv2DOptions, Some(t.as_union_value()))
        }
        OpKind::FullyConnected(o) => {
            let t = fb::FullyConnectedOptions::create(
                fbb,
                &fb::FullyConnectedOptionsArgs {
                    fused_activation_function: act(o.activation),
                    weights_format: if o.shuffled_weights {
                        fb::FullyConnectedOptionsWeightsFormat::SHUFFLED4x16INT8
                    } else {
                        fb::FullyConnectedOptionsWeightsFormat::DEFAULT
                    },
                    keep_num_dims: o.keep_num_dims,
                    asymmetric_quantize_inputs: o.asymmetric_quantize_inputs,
                    ..Default::default()
                },
            );
            (B::FULLY_CONNECTED.0, O::FullyConnectedOptions, Some(t.as_union_value()))
        }
        OpKind::AveragePool2d(o) | OpKind::MaxPool2d(o) | OpKind::L2Pool2d(o) => {
            let t = fb::Pool2DOptions::create(
                fbb,
                &fb::Pool2DOptionsArgs {
                    padding: pad(o.padding),
                    stride_w: o.stride_w,
                    stride_h: o.stride_h,
                    filter_width: o.filter_w,
                    filter_height: o.filter_h,
                    fused_activation_function: act(o.activation),
                },
            );
            let code = match kind {
                OpKind::AveragePool2d(_) => B::AVERAGE_POOL_2D,
                OpKind::L2Pool2d(_) => B::L2_POOL_2D,
                _ => B::MAX_POOL_2D,
            };
            (code.0, O::Pool2DOptions, Some(t.as_union_value()))
        }
        OpKind::Add { activation } => {
            let t = fb::AddOptions::create(fbb, &fb::AddOptionsArgs { fused_activation_function: act(*activation), ..Default::default() });
            (B::ADD.0, O::AddOptions, Some(t.as_union_value()))
        }
        OpKind::Sub { activation } => {
            let t = fb::SubOptions::create(fbb, &fb::SubOptionsArgs { fused_activation_function: act(*activation), ..Default::default() });
            (B::SUB.0, O::SubOptions, Some(t.as_union_value()))
        }
        OpKind::Mul { activation } => {
            let t = fb::MulOptions::create(fbb, &fb::MulOptionsArgs { fused_activation_function: act(*activation) });
            (B::MUL.0, O::MulOptions, Some(t.as_union_value()))
        }
        OpKind::Div { activation } => {
            let t = fb::DivOptions::create(fbb, &fb::DivOptionsArgs { fused_activation_function: act(*activation) });
            (B::DIV.0, O::DivOptions, Some(t.as_union_value()))
        }
        OpKind::Softmax { beta } => {
            let t = fb::SoftmaxOptions::create(fbb, &fb::SoftmaxOptionsArgs { beta: *beta });
            (B::SOFTMAX.0, O::SoftmaxOptions, Some(t.as_union_value()))
        }
        OpKind::Logistic => none(B::LOGISTIC),
        OpKind::Tanh => none(B::TANH),
        OpKind::HardSwish => none(B::HARD_SWISH),
        OpKind::Relu => none(B::RELU),
        OpKind::Relu6 => none(B::RELU6),
        OpKind::ReluN1To1 => none(B::RELU_N1_TO_1),
        OpKind::LeakyRelu { alpha } => {
            let t = fb::LeakyReluOptions::create(fbb, &fb::LeakyReluOptionsArgs { alpha: *alpha });
            (B::LEAKY_RELU.0, O::LeakyReluOptions, Some(t.as_union_value()))
        }
        OpKind::Prelu => none(B::PRELU),
        OpKind::Quantize => none(B::QUANTIZE),
        OpKind::Dequantize => none(B::DEQUANTIZE),
        OpKind::Densify => none(B::DENSIFY),
        OpKind::Pad => none(B::PAD),
        OpKind::PadV2 => none(B::PADV2),
        OpKind::Concatenation { axis, activation } => {
            let t = fb::ConcatenationOptions::create(
                fbb,
                &fb::ConcatenationOptionsArgs { axis: *axis, fused_activation_function: act(*activation) },
            );
            (B::CONCATENATION.0, O::ConcatenationOptions, Some(t.as_union_value()))
        }
        OpKind::Mean { keep_dims }
        | OpKind::Sum { keep_dims }
        | OpKind::ReduceMax { keep_dims }
        | OpKind::ReduceMin { keep_dims }
        | OpKind::ReduceAll { keep_dims } => {
            let t = fb::ReducerOptions::create(fbb, &fb::ReducerOptionsArgs { keep_dims: *keep_dims });
            let code = match kind {
                OpKind::Mean { .. } => B::MEAN,
                OpKind::Sum { .. } => B::SUM,
                OpKind::ReduceMax { .. } => B::REDUCE_MAX,
                OpKind::ReduceMin { .. } => B::REDUCE_MIN,
                _ => B::REDUCE_ALL,
            };
            (code.0, O::ReducerOptions, Some(t.as_union_value()))
        }
        OpKind::Transpose => none(B::TRANSPOSE),
        OpKind::StridedSlice(o) => {
            let t = fb::StridedSliceOptions::create(
                fbb,
                &fb::StridedSliceOptionsArgs {
                    begin_mask: o.begin_mask,
                    end_mask: o.end_mask,
                    ellipsis_mask: o.ellipsis_mask,
                    new_axis_mask: o.new_axis_mask,
                    shrink_axis_mask: o.shrink_axis_mask,
                    offset: o.offset,
                },
            );
            (B::STRIDED_SLICE.0, O::StridedSliceOptions, Some(t.as_union_value()))
        }
        OpKind::Slice => none(B::SLICE),
        OpKind::Split { num_splits } => {
            let t = fb::SplitOptions::create(fbb, &fb::SplitOptionsArgs { num_splits: *num_splits });
            (B::SPLIT.0, O::SplitOptions, Some(t.as_union_value()))
        }
        OpKind::SplitV { num_splits } => {
            let t = fb::SplitVOptions::create(fbb, &fb::SplitVOptionsArgs { num_splits: *num_splits });
            (B::SPLIT_V.0, O::SplitVOptions, Some(t.as_union_value()))
        }
        OpKind::Pack { values_count, axis } => {
            let t = fb::PackOptions::create(fbb, &fb::PackOptionsArgs { values_count: *values_count, axis: *axis });
            (B::PACK.0, O::PackOptions, Some(t.as_union_value()))
        }
        OpKind::Unpack { num, axis } => {
            let t = fb::UnpackOptions::create(fbb, &fb::UnpackOptionsArgs { num: *num, axis: *axis });
            (B::UNPACK.0, O::UnpackOptions, Some(t.as_union_value()))
        }
        OpKind::ResizeNearestNeighbor(o) => {
            let t = fb::ResizeNearestNeighborOptions::create(
                fbb,
                &fb::ResizeNearestNeighborOptionsArgs { align_corners: o.align_corners, half_pixel_centers: o.half_pixel_centers },
            );
            (B::RESIZE_NEAREST_NEIGHBOR.0, O::ResizeNearestNeighborOptions, Some(t.as_union_value()))
        }
        OpKind::ResizeBilinear(o) => {
            let t = fb::ResizeBilinearOptions::create(
                fbb,
                &fb::ResizeBilinearOptionsArgs { align_corners: o.align_corners, half_pixel_centers: o.half_pixel_centers },
            );
            (B::RESIZE_BILINEAR.0, O::ResizeBilinearOptions, Some(t.as_union_value()))
        }
        OpKind::Maximum => none(B::MAXIMUM),
        OpKind::Minimum => none(B::MINIMUM),
        OpKind::ArgMax => none(B::ARG_MAX),
        OpKind::ArgMin => none(B::ARG_MIN),
        OpKind::AddN => none(B::ADD_N),
        OpKind::Cumsum { exclusive, reverse } => {
            let t = fb::CumsumOptions::create(fbb, &fb::CumsumOptionsArgs { exclusive: *exclusive, reverse: *reverse });
            (B::CUMSUM.0, O::CumsumOptions, Some(t.as_union_value()))
        }
        OpKind::Equal => none(B::EQUAL),
        OpKind::NotEqual => none(B::NOT_EQUAL),
        OpKind::Greater => none(B::GREATER),
        OpKind::GreaterEqual => none(B::GREATER_EQUAL),
        OpKind::Less => none(B::LESS),
        OpKind::LessEqual => none(B::LESS_EQUAL),
        OpKind::LogicalAnd => none(B::LOGICAL_AND),
        OpKind::LogicalOr => none(B::LOGICAL_OR),
        OpKind::LogicalNot => none(B::LOGICAL_NOT),
        OpKind::SelectV2 => none(B::SELECT_V2),
        OpKind::Reshape { new_shape } => match new_shape {
            Some(s) => {
                let v = fbb.create_vector(s);
                let t = fb::ReshapeOptions::create(fbb, &fb::ReshapeOptionsArgs { new_shape: Some(v) });
                (B::RESHAPE.0, O::ReshapeOptions, Some(t.as_union_value()))
            }
            None => none(B::RESHAPE),
        },
        OpKind::Squeeze { squeeze_dims } => {
            let v = fbb.create_vector(squeeze_dims);
            let t = fb::SqueezeOptions::create(fbb, &fb::SqueezeOptionsArgs { squeeze_dims: Some(v) });
            (B::SQUEEZE.0, O::SqueezeOptions, Some(t.as_union_value()))
        }
        OpKind::ExpandDims => none(B::EXPAND_DIMS),
        OpKind::Cast => none(B::CAST),
        OpKind::Shape => none(B::SHAPE),
        OpKind::Gather { axis, batch_dims } => {
            let t = fb::GatherOptions::create(fbb, &fb::GatherOptionsArgs { axis: *axis, batch_dims: *batch_dims });
            (B::GATHER.0, O::GatherOptions, Some(t.as_union_value()))
        }
        OpKind::Svdf(o) => {
            let t = fb::SVDFOptions::create(
                fbb,
                &fb::SVDFOptionsArgs {
                    rank: o.rank,
                    fused_activation_function: act(o.activation),
                    asymmetric_quantize_inputs: o.asymmetric_quantize_inputs,
                },
            );
            (B::SVDF.0, O::SVDFOptions, Some(t.as_union_value()))
        }
        OpKind::UnidirectionalSequenceLstm(o) => {
            let t = fb::UnidirectionalSequenceLSTMOptions::create(
                fbb,
                &fb::UnidirectionalSequenceLSTMOptionsArgs {
                    fused_activation_function: act(o.activation),
                    cell_clip: o.cell_clip,
                    proj_clip: o.proj_clip,
                    time_major: o.time_major,
                    asymmetric_quantize_inputs: o.asymmetric_quantize_inputs,
                    diagonal_recurrent_tensors: o.diagonal_recurrent_tensors,
                },
            );
            (B::UNIDIRECTIONAL_SEQUENCE_LSTM.0, O::UnidirectionalSequenceLSTMOptions, Some(t.as_union_value()))
        }
        OpKind::If { then_subgraph, else_subgraph } => {
            let t = fb::IfOptions::create(
                fbb,
                &fb::IfOptionsArgs {
                    then_subgraph_index: then_subgraph.index() as i32,
                    else_subgraph_index: else_subgraph.index() as i32,
                },
            );
            (B::IF.0, O::IfOptions, Some(t.as_union_value()))
        }
        OpKind::While { cond_subgraph, body_subgraph } => {
            let t = fb::WhileOptions::create(
                fbb,
                &fb::WhileOptionsArgs {
                    cond_subgraph_index: cond_subgraph.index() as i32,
                    body_subgraph_index: body_subgraph.index() as i32,
                },
            );
            (B::WHILE.0, O::WhileOptions, Some(t.as_union_value()))
        }
        OpKind::CallOnce { init_subgraph } => {
            let t = fb::CallOnceOptions::create(fbb, &fb::CallOnceOptionsArgs { init_subgraph_index: init_subgraph.index() as i32 });
            (B::CALL_ONCE.0, O::CallOnceOptions, Some(t.as_union_value()))
        }
        OpKind::VarHandle { container, shared_name } => {
            let (c, n) = (fbb.create_string(container), fbb.create_string(shared_name));
            let t = fb::VarHandleOptions::create(fbb, &fb::VarHandleOptionsArgs { container: Some(c), shared_name: Some(n) });
            (B::VAR_HANDLE.0, O::VarHandleOptions, Some(t.as_union_value()))
        }
        OpKind::AssignVariable => (B::ASSIGN_VARIABLE.0, O::NONE, None),
        OpKind::ReadVariable => (B::READ_VARIABLE.0, O::NONE, None),
        // An unknown kind has no code of its own; callers use `OpSpecCode::RawBuiltin`.
        // Layout and indexing.
        OpKind::BatchToSpaceNd => none(B::BATCH_TO_SPACE_ND),
        OpKind::BroadcastArgs => none(B::BROADCAST_ARGS),
        OpKind::BroadcastTo => none(B::BROADCAST_TO),
        OpKind::DepthToSpace { block_size } => {
            let t = fb::DepthToSpaceOptions::create(fbb, &fb::DepthToSpaceOptionsArgs { block_size: *block_size });
            (B::DEPTH_TO_SPACE.0, O::DepthToSpaceOptions, Some(t.as_union_value()))
        }
        OpKind::DynamicUpdateSlice => none(B::DYNAMIC_UPDATE_SLICE),
        OpKind::EmbeddingLookup => none(B::EMBEDDING_LOOKUP),
        OpKind::Fill => none(B::FILL),
        OpKind::GatherNd => none(B::GATHER_ND),
        OpKind::MirrorPad { mode } => {
            let t = fb::MirrorPadOptions::create(fbb, &fb::MirrorPadOptionsArgs { mode: fb::MirrorPadMode(*mode) });
            (B::MIRROR_PAD.0, O::MirrorPadOptions, Some(t.as_union_value()))
        }
        OpKind::ReverseV2 => none(B::REVERSE_V2),
        OpKind::SpaceToBatchNd => none(B::SPACE_TO_BATCH_ND),
        OpKind::SpaceToDepth { block_size } => {
            let t = fb::SpaceToDepthOptions::create(fbb, &fb::SpaceToDepthOptionsArgs { block_size: *block_size });
            (B::SPACE_TO_DEPTH.0, O::SpaceToDepthOptions, Some(t.as_union_value()))
        }
        OpKind::ZerosLike => none(B::ZEROS_LIKE),
        // Elementwise math.
        OpKind::Abs => none(B::ABS),
        OpKind::Neg => none(B::NEG),
        OpKind::Ceil => none(B::CEIL),
        OpKind::Floor => none(B::FLOOR),
        OpKind::Round => none(B::ROUND),
        OpKind::Sqrt => none(B::SQRT),
        OpKind::Rsqrt => none(B::RSQRT),
        OpKind::Square => none(B::SQUARE),
        OpKind::Sin => none(B::SIN),
        OpKind::Cos => none(B::COS),
        OpKind::Log => none(B::LOG),
        OpKind::Exp => none(B::EXP),
        OpKind::Elu => none(B::ELU),
        OpKind::SquaredDifference => none(B::SQUARED_DIFFERENCE),
        OpKind::FloorDiv => none(B::FLOOR_DIV),
        OpKind::FloorMod => none(B::FLOOR_MOD),
        OpKind::LogSoftmax => none(B::LOG_SOFTMAX),
        OpKind::L2Normalization { activation } => {
            let t = fb::L2NormOptions::create(fbb, &fb::L2NormOptionsArgs { fused_activation_function: act(*activation) });
            (B::L2_NORMALIZATION.0, O::L2NormOptions, Some(t.as_union_value()))
        }
        // Convolution family (issue 14).
        OpKind::TransposeConv(o) => {
            let t = fb::TransposeConvOptions::create(
                fbb,
                &fb::TransposeConvOptionsArgs {
                    padding: pad(o.padding),
                    stride_w: o.stride_w,
                    stride_h: o.stride_h,
                    fused_activation_function: act(o.activation),
                    ..Default::default()
                },
            );
            (B::TRANSPOSE_CONV.0, O::TransposeConvOptions, Some(t.as_union_value()))
        }
        OpKind::BatchMatmul { adj_x, adj_y } => {
            let t = fb::BatchMatMulOptions::create(fbb, &fb::BatchMatMulOptionsArgs { adj_x: *adj_x, adj_y: *adj_y, ..Default::default() });
            (B::BATCH_MATMUL.0, O::BatchMatMulOptions, Some(t.as_union_value()))
        }
        OpKind::Unsupported => (fb::BuiltinOperator::CUSTOM.0, O::NONE, None),
    }
}

/// Writes `SparsityParameters` exactly as given.
fn write_sparsity<'b>(fbb: &mut FlatBufferBuilder<'b>, sp: &Sparsity) -> WIPOffset<fb::SparsityParameters<'b>> {
    fn vector<'b>(fbb: &mut FlatBufferBuilder<'b>, v: &Option<IndexVector>) -> (fb::SparseIndexVector, Option<WIPOffset<UnionWIPOffset>>) {
        match v {
            None => (fb::SparseIndexVector::NONE, None),
            Some(IndexVector::I32(v)) => {
                let values = Some(fbb.create_vector(v));
                (fb::SparseIndexVector::Int32Vector, Some(fb::Int32Vector::create(fbb, &fb::Int32VectorArgs { values }).as_union_value()))
            }
            Some(IndexVector::U16(v)) => {
                let values = Some(fbb.create_vector(v));
                (fb::SparseIndexVector::Uint16Vector, Some(fb::Uint16Vector::create(fbb, &fb::Uint16VectorArgs { values }).as_union_value()))
            }
            Some(IndexVector::U8(v)) => {
                let values = Some(fbb.create_vector(v));
                (fb::SparseIndexVector::Uint8Vector, Some(fb::Uint8Vector::create(fbb, &fb::Uint8VectorArgs { values }).as_union_value()))
            }
        }
    }
    let mut dims = Vec::with_capacity(sp.dim_metadata.len());
    for d in &sp.dim_metadata {
        let (array_segments_type, array_segments) = vector(fbb, &d.array_segments);
        let (array_indices_type, array_indices) = vector(fbb, &d.array_indices);
        let format = match d.format {
            DimFormat::Dense => fb::DimensionType::DENSE,
            DimFormat::SparseCsr => fb::DimensionType::SPARSE_CSR,
            DimFormat::Unknown(c) => fb::DimensionType(c),
        };
        dims.push(fb::DimensionMetadata::create(
            fbb,
            &fb::DimensionMetadataArgs { format, dense_size: d.dense_size, array_segments_type, array_segments, array_indices_type, array_indices },
        ));
    }
    let traversal_order = Some(fbb.create_vector(&sp.traversal_order));
    let block_map = (!sp.block_map.is_empty()).then(|| fbb.create_vector(&sp.block_map));
    let dim_metadata = Some(fbb.create_vector(&dims));
    fb::SparsityParameters::create(fbb, &fb::SparsityParametersArgs { traversal_order, block_map, dim_metadata })
}

/// TFLite's int4 packing of `v` (each value's low four bits): element `2k` in the low nibble
/// of byte `k`, element `2k + 1` in its high nibble.
pub fn pack_int4(v: &[i8]) -> Vec<u8> {
    v.chunks(2).map(|p| (p[0] as u8 & 0x0f) | (p.get(1).map_or(0, |&h| h as u8 & 0x0f) << 4)).collect()
}
