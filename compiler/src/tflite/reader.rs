//! Verifies a `.tflite` flatbuffer and reads it into the IR.

use super::fb;
use crate::error::{Location, ParseError};
use crate::index::IndexVec;
use crate::ir::{
    Activation, Conv2dOptions, DType, DepthwiseConv2dOptions, DimFormat, DimMetadata, IndexVector, Sparsity, FullyConnectedOptions, Metadata, Model,
    OfflineMemoryAllocation, OpCode, OpId, OpKind, Operator, Padding, Pool2dOptions, Quantization, ResizeOptions,
    SequenceLstmOptions, SignatureDef, StridedSliceOptions, Subgraph, SubgraphId, SvdfOptions, Tensor, TensorId,
    TransposeConvOptions,
};

type Result<T> = std::result::Result<T, ParseError>;

/// The largest tensor we accept (bytes). Far above any MCU model; it keeps size arithmetic
/// from overflowing on hostile files.
const MAX_TENSOR_BYTES: usize = 1 << 31;

/// The largest dense form of a sparse constant we accept (bytes): a few kilobytes of sparse
/// metadata can describe gigabytes, which the compiler would have to allocate.
const MAX_DENSIFIED_BYTES: usize = 1 << 28;

/// Verifies `bytes` as a TFLite flatbuffer and reads every subgraph into the IR.
///
/// The flatbuffers verifier runs before anything is read, so every later access is in
/// bounds. Constant data stays borrowed from `bytes`.
pub fn read_model(bytes: &[u8]) -> Result<Model<'_>> {
    if bytes.len() < 8 {
        return Err(ParseError::NotTflite { reason: format!("the file is {} bytes long", bytes.len()) });
    }
    if !fb::model_buffer_has_identifier(bytes) {
        return Err(ParseError::NotTflite { reason: "the file identifier is not \"TFL3\"".into() });
    }
    let opts = flatbuffers::VerifierOptions {
        max_depth: 64,
        max_tables: 10_000_000,
        max_apparent_size: 1 << 31,
        ignore_missing_null_terminator: false,
    };
    let fm = fb::root_as_model_with_opts(&opts, bytes).map_err(|e| ParseError::Corrupt { detail: e.to_string() })?;
    Reader { bytes, fm }.read()
}

struct Reader<'a> {
    bytes: &'a [u8],
    fm: fb::Model<'a>,
}

impl<'a> Reader<'a> {
    fn read(&self) -> Result<Model<'a>> {
        let buffers = self.read_buffers()?;
        let opcodes = self.read_opcodes();
        let fsubgraphs = self.fm.subgraphs().ok_or(ParseError::NoSubgraphs)?;
        if fsubgraphs.is_empty() {
            return Err(ParseError::NoSubgraphs);
        }
        let num_subgraphs = fsubgraphs.len();
        let mut subgraphs = IndexVec::with_capacity(num_subgraphs);
        for (si, fsg) in fsubgraphs.iter().enumerate() {
            let sg = read_subgraph(SubgraphId::new(si), fsg, &buffers, &opcodes, num_subgraphs)?;
            subgraphs.push(sg);
        }
        let signature_defs = self.read_signatures(&subgraphs)?;
        let metadata = self.read_metadata(&buffers)?;
        let offline_memory_allocation = read_offline_allocation(&metadata)?;
        Ok(Model {
            version: self.fm.version(),
            description: self.fm.description().map(str::to_owned),
            subgraphs,
            signature_defs,
            metadata,
            offline_memory_allocation,
        })
    }

    /// Each buffer's bytes: inline `data`, or `offset`/`size` into the file after the
    /// flatbuffer (models over 2 GB, and some converters' output).
    fn read_buffers(&self) -> Result<Vec<&'a [u8]>> {
        let Some(fbufs) = self.fm.buffers() else { return Ok(Vec::new()) };
        let mut out = Vec::with_capacity(fbufs.len());
        for (i, b) in fbufs.iter().enumerate() {
            let inline = b.data().map(|d| d.bytes()).unwrap_or(&[]);
            if !inline.is_empty() {
                out.push(inline);
            } else if b.offset() > 1 {
                let (offset, size) = (b.offset(), b.size());
                let end = offset.checked_add(size);
                match end {
                    Some(end) if end <= self.bytes.len() as u64 => {
                        out.push(&self.bytes[offset as usize..end as usize]);
                    }
                    _ => {
                        return Err(ParseError::BufferOutOfFile {
                            at: Location::default(),
                            buffer: i,
                            offset,
                            size,
                            file_len: self.bytes.len(),
                        })
                    }
                }
            } else {
                out.push(&[]);
            }
        }
        Ok(out)
    }

    /// Each operator code with its version (`OperatorCode.version`).
    fn read_opcodes(&self) -> Vec<(OpCode, i32)> {
        let Some(codes) = self.fm.operator_codes() else { return Vec::new() };
        codes
            .iter()
            .map(|c| {
                // Files written before builtin_code grew past 127 carry only the deprecated
                // byte; newer ones carry both. The larger of the two is the real code.
                let code = (c.deprecated_builtin_code() as i32).max(c.builtin_code().0);
                let opcode = if code == fb::BuiltinOperator::CUSTOM.0 {
                    OpCode::Custom(c.custom_code().unwrap_or("").to_owned())
                } else {
                    let name = fb::BuiltinOperator(code)
                        .variant_name()
                        .map(str::to_owned)
                        .unwrap_or_else(|| format!("BUILTIN_{code}"));
                    OpCode::Builtin { code, name }
                };
                (opcode, c.version())
            })
            .collect()
    }

    fn read_signatures(&self, subgraphs: &IndexVec<SubgraphId, Subgraph<'a>>) -> Result<Vec<SignatureDef>> {
        let Some(sigs) = self.fm.signature_defs() else { return Ok(Vec::new()) };
        let mut out = Vec::with_capacity(sigs.len());
        for s in sigs.iter() {
            let key = s.signature_key().unwrap_or("").to_owned();
            let si = s.subgraph_index() as usize;
            let Some(sg) = subgraphs.get(SubgraphId::new(si)) else {
                return Err(invalid(Location::default(), format!("signature \"{key}\" names subgraph {si}, which does not exist")));
            };
            let map = |v: Option<flatbuffers::Vector<'a, flatbuffers::ForwardsUOffset<fb::TensorMap<'a>>>>| -> Result<Vec<(String, TensorId)>> {
                let mut m = Vec::new();
                for t in v.iter().flatten() {
                    let ti = t.tensor_index() as usize;
                    if ti >= sg.tensors.len() {
                        return Err(invalid(
                            Location { subgraph: Some(si), tensor_index: Some(ti), ..Default::default() },
                            format!("signature \"{key}\" names a tensor that does not exist"),
                        ));
                    }
                    m.push((t.name().unwrap_or("").to_owned(), TensorId::new(ti)));
                }
                Ok(m)
            };
            out.push(SignatureDef { key: key.clone(), subgraph: SubgraphId::new(si), inputs: map(s.inputs())?, outputs: map(s.outputs())? });
        }
        Ok(out)
    }

    fn read_metadata(&self, buffers: &[&'a [u8]]) -> Result<Vec<Metadata<'a>>> {
        let Some(md) = self.fm.metadata() else { return Ok(Vec::new()) };
        let mut out = Vec::with_capacity(md.len());
        for m in md.iter() {
            let name = m.name().unwrap_or("").to_owned();
            let bi = m.buffer() as usize;
            let Some(data) = buffers.get(bi) else {
                return Err(invalid(Location::default(), format!("metadata \"{name}\" names buffer {bi}, which does not exist")));
            };
            out.push(Metadata { name, data });
        }
        Ok(out)
    }
}

/// `OfflineMemoryAllocation`: int32 little-endian `[version, subgraphs, tensors, offsets…]`.
fn read_offline_allocation(metadata: &[Metadata<'_>]) -> Result<Option<OfflineMemoryAllocation>> {
    let Some(m) = metadata.iter().find(|m| m.name == "OfflineMemoryAllocation") else { return Ok(None) };
    let words: Vec<i32> = m.data.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    if m.data.len() % 4 != 0 || words.len() < 3 {
        return Err(invalid(Location::default(), "OfflineMemoryAllocation metadata is malformed".into()));
    }
    let n = words[2];
    if n < 0 || words.len() - 3 != n as usize {
        return Err(invalid(
            Location::default(),
            format!("OfflineMemoryAllocation declares {n} tensors but holds {} offsets", words.len() - 3),
        ));
    }
    Ok(Some(OfflineMemoryAllocation { version: words[0], subgraphs: words[1], offsets: words[3..].to_vec() }))
}

fn invalid(at: Location, what: String) -> ParseError {
    ParseError::Invalid { at, what }
}

fn read_subgraph<'a>(
    id: SubgraphId,
    fsg: fb::SubGraph<'a>,
    buffers: &[&'a [u8]],
    opcodes: &[(OpCode, i32)],
    num_subgraphs: usize,
) -> Result<Subgraph<'a>> {
    let si = id.index();
    // The byte strings TFLite Micro's TFLM_DECODE reads (its inputs): their quantization is
    // never read, and TFLite Micro's compression library leaves the decoded tensor's
    // per-channel quantization on the encoded bytes, whose shape it does not fit.
    let decode_inputs: std::collections::BTreeSet<i32> = fsg
        .operators()
        .iter()
        .flatten()
        .filter(|fop| opcodes.get(fop.opcode_index() as usize).is_some_and(|(c, _)| matches!(c, OpCode::Custom(n) if n == "TFLM_DECODE")))
        .flat_map(|fop| fop.inputs().iter().flatten().collect::<Vec<i32>>())
        .collect();
    let mut tensors = IndexVec::new();
    for (ti, ft) in fsg.tensors().iter().flatten().enumerate() {
        tensors.push(read_tensor(si, ti, ft, buffers, decode_inputs.contains(&(ti as i32)))?);
    }
    let n_tensors = tensors.len();
    let tensor_ref = |at: &Location, what: &str, raw: i32| -> Result<TensorId> {
        if raw < 0 || raw as usize >= n_tensors {
            return Err(invalid(at.clone(), format!("{what} refers to tensor {raw}, but the subgraph has {n_tensors} tensors")));
        }
        Ok(TensorId::new(raw as usize))
    };
    let sg_at = Location { subgraph: Some(si), ..Default::default() };
    let mut inputs = Vec::new();
    for raw in fsg.inputs().iter().flatten() {
        inputs.push(tensor_ref(&sg_at, "a subgraph input", raw)?);
    }
    let mut outputs = Vec::new();
    for raw in fsg.outputs().iter().flatten() {
        outputs.push(tensor_ref(&sg_at, "a subgraph output", raw)?);
    }

    let mut ops = IndexVec::new();
    for (oi, fop) in fsg.operators().iter().flatten().enumerate() {
        let ci = fop.opcode_index() as usize;
        let Some((opcode, version)) = opcodes.get(ci).cloned() else {
            return Err(invalid(
                Location { subgraph: Some(si), op_index: Some(oi), ..Default::default() },
                format!("opcode index {ci} is out of range ({} operator codes)", opcodes.len()),
            ));
        };
        let at = Location { subgraph: Some(si), op_index: Some(oi), opcode: Some(opcode.to_string()), ..Default::default() };
        let mut op_inputs = Vec::new();
        for raw in fop.inputs().iter().flatten() {
            op_inputs.push(if raw == -1 { None } else { Some(tensor_ref(&at, "an input", raw)?) });
        }
        let mut op_outputs = Vec::new();
        for raw in fop.outputs().iter().flatten() {
            op_outputs.push(tensor_ref(&at, "an output", raw)?);
        }
        let mut intermediates = Vec::new();
        for raw in fop.intermediates().iter().flatten() {
            intermediates.push(tensor_ref(&at, "an intermediate", raw)?);
        }
        let kind = read_kind(&opcode, &fop, &at, num_subgraphs)?;
        let custom_options = fop.custom_options().map(|v| v.bytes());
        ops.push(Operator {
            id: OpId::new(oi),
            opcode,
            kind,
            inputs: op_inputs,
            outputs: op_outputs,
            intermediates,
            custom_options,
            version,
        });
    }
    // State tensors (TFLite Micro's persistent buffers) are the `passes::state` pass's.
    let sg = Subgraph { id, name: fsg.name().unwrap_or("").to_owned(), tensors, ops, inputs, outputs, folded: Default::default(), half_weights: Default::default(), int4_packed: Default::default(), lut_weights: Default::default(), int4_kept: Default::default(), custom_scratch: Default::default(), custom_kernels: Default::default() };
    check_sparse_tensors(&sg)?;
    Ok(sg)
}

fn read_dtype(t: fb::TensorType) -> DType {
    match t {
        fb::TensorType::FLOAT32 => DType::F32,
        fb::TensorType::FLOAT16 => DType::F16,
        fb::TensorType::FLOAT64 => DType::F64,
        fb::TensorType::INT8 => DType::I8,
        fb::TensorType::UINT8 => DType::U8,
        fb::TensorType::INT16 => DType::I16,
        fb::TensorType::UINT16 => DType::U16,
        fb::TensorType::INT32 => DType::I32,
        fb::TensorType::UINT32 => DType::U32,
        fb::TensorType::INT64 => DType::I64,
        fb::TensorType::UINT64 => DType::U64,
        fb::TensorType::BOOL => DType::Bool,
        fb::TensorType::INT4 => DType::I4,
        fb::TensorType::STRING => DType::String,
        fb::TensorType::RESOURCE => DType::Resource,
        other => DType::Other(other.0),
    }
}

/// `decode_input`: the tensor is an input of a TFLM_DECODE (a byte string): a per-axis
/// quantization that does not fit its shape is dropped instead of refused.
fn read_tensor<'a>(si: usize, ti: usize, ft: fb::Tensor<'a>, buffers: &[&'a [u8]], decode_input: bool) -> Result<Tensor<'a>> {
    let name = ft.name().unwrap_or("").to_owned();
    let at = Location { subgraph: Some(si), tensor_index: Some(ti), tensor_name: Some(name.clone()), ..Default::default() };
    let dtype = read_dtype(ft.type_());
    let raw_shape: Vec<i32> = ft.shape().map(|s| s.iter().collect()).unwrap_or_default();
    if raw_shape.iter().any(|&d| d < 0) {
        return Err(ParseError::DynamicShape { at, shape: raw_shape });
    }
    let shape: Vec<usize> = raw_shape.iter().map(|&d| d as usize).collect();
    let num_elements = shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d));
    let byte_size = num_elements.and_then(|n| dtype.byte_size_of(n));
    if num_elements.is_none() || byte_size.is_some_and(|b| b > MAX_TENSOR_BYTES) {
        return Err(invalid(at, format!("shape {shape:?} is too large")));
    }
    let shape_signature = ft.shape_signature().map(|s| s.iter().collect::<Vec<i32>>());

    let bi = ft.buffer() as usize;
    let data = match buffers.get(bi) {
        Some(d) if !d.is_empty() => Some(*d),
        Some(_) => None,
        None if bi == 0 => None,
        None => return Err(invalid(at, format!("buffer {bi} does not exist ({} buffers)", buffers.len()))),
    };
    // TFLite reads sparsity for constants only (a non-constant tensor's is ignored). A sparse
    // constant's buffer holds its stored values: `check_sparse_tensors` checks its size
    // against the metadata once the operators are known (for the error's location).
    let sparsity = match (data, ft.sparsity()) {
        (Some(_), Some(s)) => Some(std::sync::Arc::new(read_sparsity(s))),
        _ => None,
    };
    if let (Some(d), Some(expected), None) = (data, byte_size, &sparsity) {
        if d.len() != expected {
            return Err(ParseError::ConstantSize { at, dtype: dtype.name(), shape, expected, actual: d.len() });
        }
    }
    let quant = match read_quantization(ft.quantization(), &shape, &at) {
        Err(ParseError::Invalid { .. }) if decode_input && dtype == DType::U8 => None,
        q => q?,
    };
    Ok(Tensor { id: TensorId::new(ti), name, dtype, shape, shape_signature, quant, data, is_variable: ft.is_variable(), sparsity })
}

/// TFLite's `SparsityParameters` as stored (a missing vector reads as empty or `None`;
/// [`crate::ir::Sparsity::check`] says what is wrong with it).
fn read_sparsity(s: fb::SparsityParameters<'_>) -> Sparsity {
    let ints = |v: Option<flatbuffers::Vector<'_, i32>>| v.map(|v| v.iter().collect::<Vec<i32>>()).unwrap_or_default();
    let dim_metadata = s
        .dim_metadata()
        .iter()
        .flatten()
        .map(|d| {
            let format = match d.format() {
                fb::DimensionType::DENSE => DimFormat::Dense,
                fb::DimensionType::SPARSE_CSR => DimFormat::SparseCsr,
                other => DimFormat::Unknown(other.0),
            };
            let segments = index_vector(d.array_segments_type(), d.array_segments_as_int_32_vector(), d.array_segments_as_uint_16_vector(), d.array_segments_as_uint_8_vector());
            let indices = index_vector(d.array_indices_type(), d.array_indices_as_int_32_vector(), d.array_indices_as_uint_16_vector(), d.array_indices_as_uint_8_vector());
            DimMetadata { format, dense_size: d.dense_size(), array_segments: segments, array_indices: indices }
        })
        .collect();
    Sparsity { traversal_order: ints(s.traversal_order()), block_map: ints(s.block_map()), dim_metadata }
}

/// One `SparseIndexVector` union; `None` when absent or without `values`.
fn index_vector(ty: fb::SparseIndexVector, i32s: Option<fb::Int32Vector<'_>>, u16s: Option<fb::Uint16Vector<'_>>, u8s: Option<fb::Uint8Vector<'_>>) -> Option<IndexVector> {
    match ty {
        fb::SparseIndexVector::Int32Vector => i32s?.values().map(|v| IndexVector::I32(v.iter().collect())),
        fb::SparseIndexVector::Uint16Vector => u16s?.values().map(|v| IndexVector::U16(v.iter().collect())),
        fb::SparseIndexVector::Uint8Vector => u8s?.values().map(|v| IndexVector::U8(v.iter().collect())),
        _ => None,
    }
}

/// Checks every sparse constant of `sg` against its metadata (`Sparsity::check`); the
/// error names the tensor and the first operator that reads it.
fn check_sparse_tensors(sg: &Subgraph<'_>) -> Result<()> {
    for t in sg.tensors.iter() {
        let (Some(s), Some(data)) = (&t.sparsity, t.data) else { continue };
        let checked = s.check(&t.shape, t.dtype, data.len()).and_then(|layout| match layout.dense_bytes() {
            n if n > MAX_DENSIFIED_BYTES => Err(format!("it densifies to {n} bytes, over tflc's limit of {MAX_DENSIFIED_BYTES} for one constant")),
            _ => Ok(()),
        });
        if let Err(what) = checked {
            let reader = sg.ops.iter().find(|o| o.inputs.contains(&Some(t.id)));
            let at = Location {
                subgraph: Some(sg.id.index()),
                op_index: reader.map(|o| o.id.index()),
                opcode: reader.map(|o| o.opcode.to_string()),
                tensor_index: Some(t.id.index()),
                tensor_name: Some(t.name.clone()),
            };
            let shape = crate::text::shape(&t.shape);
            return Err(ParseError::Sparsity { at, what: format!("sparse {}{shape}: {what}", t.dtype.name()) });
        }
    }
    Ok(())
}

fn read_quantization(q: Option<fb::QuantizationParameters<'_>>, shape: &[usize], at: &Location) -> Result<Option<Quantization>> {
    let Some(q) = q else { return Ok(None) };
    let scale: Vec<f32> = q.scale().map(|v| v.iter().collect()).unwrap_or_default();
    if scale.is_empty() {
        return Ok(None);
    }
    let mut zero_point: Vec<i64> = q.zero_point().map(|v| v.iter().collect()).unwrap_or_default();
    if zero_point.is_empty() {
        zero_point = vec![0; scale.len()];
    }
    if zero_point.len() != scale.len() {
        return Err(invalid(
            at.clone(),
            format!("quantization has {} scales but {} zero points", scale.len(), zero_point.len()),
        ));
    }
    let axis = if scale.len() == 1 {
        None
    } else {
        let qd = q.quantized_dimension();
        // A 1-D tensor is quantized along its only axis whatever the file says
        // (tflm_person_detect_int8's biases carry the filter's quantized_dimension = 3).
        let axis = if shape.len() == 1 { 0 } else { qd.max(0) as usize };
        if qd < 0 || axis >= shape.len() || shape[axis] != scale.len() {
            return Err(invalid(
                at.clone(),
                format!(
                    "per-axis quantization along dimension {qd} with {} scales does not fit shape {shape:?}",
                    scale.len()
                ),
            ));
        }
        Some(axis)
    };
    Ok(Some(Quantization { scale, zero_point, axis }))
}

fn activation(a: fb::ActivationFunctionType) -> Activation {
    match a {
        fb::ActivationFunctionType::NONE => Activation::None,
        fb::ActivationFunctionType::RELU => Activation::Relu,
        fb::ActivationFunctionType::RELU_N1_TO_1 => Activation::ReluN1To1,
        fb::ActivationFunctionType::RELU6 => Activation::Relu6,
        fb::ActivationFunctionType::TANH => Activation::Tanh,
        fb::ActivationFunctionType::SIGN_BIT => Activation::SignBit,
        other => Activation::Unknown(other.0),
    }
}

fn padding(p: fb::Padding) -> Padding {
    match p {
        fb::Padding::SAME => Padding::Same,
        fb::Padding::VALID => Padding::Valid,
        other => Padding::Unknown(other.0),
    }
}

fn subgraph_ref(raw: i32, what: &str, at: &Location, num_subgraphs: usize) -> Result<SubgraphId> {
    if raw < 0 || raw as usize >= num_subgraphs {
        return Err(invalid(at.clone(), format!("{what} subgraph {raw} does not exist ({num_subgraphs} subgraphs)")));
    }
    Ok(SubgraphId::new(raw as usize))
}

/// Maps a builtin and its options table to `OpKind`. An absent options table reads as the
/// table's defaults, as TFLite does, except where those defaults cannot describe the op
/// (CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, MAX_POOL_2D: strides and window sizes of 0):
/// there a missing or wrong-type table is an error naming the table expected.
fn read_kind(opcode: &OpCode, op: &fb::Operator<'_>, at: &Location, num_subgraphs: usize) -> Result<OpKind> {
    use fb::BuiltinOperator as B;
    let OpCode::Builtin { code, .. } = opcode else { return Ok(OpKind::Unsupported) };
    let code = B(*code);
    let missing = |table: &str| {
        let found = op.builtin_options_type();
        let what = match found {
            fb::BuiltinOptions::NONE => "missing".to_string(),
            t => format!("of type {} instead", t.variant_name().unwrap_or("unknown")),
        };
        Err(invalid(at.clone(), format!("the {table} table (builtin_options) is {what}: the operator needs its strides and window")))
    };
    Ok(match code {
        B::CONV_2D => OpKind::Conv2d(match op.builtin_options_as_conv_2_doptions() {
            Some(o) => Conv2dOptions {
                padding: padding(o.padding()),
                stride_w: o.stride_w(),
                stride_h: o.stride_h(),
                dilation_w: o.dilation_w_factor(),
                dilation_h: o.dilation_h_factor(),
                activation: activation(o.fused_activation_function()),
            },
            None => return missing("Conv2DOptions"),
        }),
        B::DEPTHWISE_CONV_2D => OpKind::DepthwiseConv2d(match op.builtin_options_as_depthwise_conv_2_doptions() {
            Some(o) => DepthwiseConv2dOptions {
                padding: padding(o.padding()),
                stride_w: o.stride_w(),
                stride_h: o.stride_h(),
                depth_multiplier: o.depth_multiplier(),
                dilation_w: o.dilation_w_factor(),
                dilation_h: o.dilation_h_factor(),
                activation: activation(o.fused_activation_function()),
            },
            None => return missing("DepthwiseConv2DOptions"),
        }),
        B::FULLY_CONNECTED => OpKind::FullyConnected(match op.builtin_options_as_fully_connected_options() {
            Some(o) => FullyConnectedOptions {
                activation: activation(o.fused_activation_function()),
                shuffled_weights: o.weights_format() != fb::FullyConnectedOptionsWeightsFormat::DEFAULT,
                keep_num_dims: o.keep_num_dims(),
                asymmetric_quantize_inputs: o.asymmetric_quantize_inputs(),
            },
            None => FullyConnectedOptions::default(),
        }),
        B::AVERAGE_POOL_2D | B::MAX_POOL_2D | B::L2_POOL_2D => {
            let p = match op.builtin_options_as_pool_2_doptions() {
                Some(o) => Pool2dOptions {
                    padding: padding(o.padding()),
                    stride_w: o.stride_w(),
                    stride_h: o.stride_h(),
                    filter_w: o.filter_width(),
                    filter_h: o.filter_height(),
                    activation: activation(o.fused_activation_function()),
                },
                None => return missing("Pool2DOptions"),
            };
            if code == B::AVERAGE_POOL_2D {
                OpKind::AveragePool2d(p)
            } else if code == B::L2_POOL_2D {
                OpKind::L2Pool2d(p)
            } else {
                OpKind::MaxPool2d(p)
            }
        }
        B::ADD => OpKind::Add {
            activation: op.builtin_options_as_add_options().map(|o| activation(o.fused_activation_function())).unwrap_or_default(),
        },
        B::SUB => OpKind::Sub {
            activation: op.builtin_options_as_sub_options().map(|o| activation(o.fused_activation_function())).unwrap_or_default(),
        },
        B::MUL => OpKind::Mul {
            activation: op.builtin_options_as_mul_options().map(|o| activation(o.fused_activation_function())).unwrap_or_default(),
        },
        B::DIV => OpKind::Div {
            activation: op.builtin_options_as_div_options().map(|o| activation(o.fused_activation_function())).unwrap_or_default(),
        },
        B::SOFTMAX => OpKind::Softmax { beta: op.builtin_options_as_softmax_options().map(|o| o.beta()).unwrap_or(0.0) },
        B::LOGISTIC => OpKind::Logistic,
        B::TANH => OpKind::Tanh,
        B::HARD_SWISH => OpKind::HardSwish,
        B::RELU => OpKind::Relu,
        B::RELU6 => OpKind::Relu6,
        B::RELU_N1_TO_1 => OpKind::ReluN1To1,
        B::LEAKY_RELU => OpKind::LeakyRelu { alpha: op.builtin_options_as_leaky_relu_options().map(|o| o.alpha()).unwrap_or(0.0) },
        B::PRELU => OpKind::Prelu,
        B::QUANTIZE => OpKind::Quantize,
        B::DEQUANTIZE => OpKind::Dequantize,
        B::DENSIFY => OpKind::Densify,
        B::PAD => OpKind::Pad,
        B::PADV2 => OpKind::PadV2,
        B::CONCATENATION => {
            let (axis, act) = op
                .builtin_options_as_concatenation_options()
                .map(|o| (o.axis(), activation(o.fused_activation_function())))
                .unwrap_or((0, Activation::None));
            OpKind::Concatenation { axis, activation: act }
        }
        B::MEAN => OpKind::Mean { keep_dims: op.builtin_options_as_reducer_options().is_some_and(|o| o.keep_dims()) },
        B::SUM => OpKind::Sum { keep_dims: op.builtin_options_as_reducer_options().is_some_and(|o| o.keep_dims()) },
        B::ARG_MAX => OpKind::ArgMax,
        B::ARG_MIN => OpKind::ArgMin,
        B::CUMSUM => {
            let (exclusive, reverse) = op.builtin_options_as_cumsum_options().map(|o| (o.exclusive(), o.reverse())).unwrap_or((false, false));
            OpKind::Cumsum { exclusive, reverse }
        }
        B::ADD_N => OpKind::AddN,
        B::REDUCE_MAX => OpKind::ReduceMax { keep_dims: op.builtin_options_as_reducer_options().is_some_and(|o| o.keep_dims()) },
        B::REDUCE_MIN => OpKind::ReduceMin { keep_dims: op.builtin_options_as_reducer_options().is_some_and(|o| o.keep_dims()) },
        B::REDUCE_ALL => OpKind::ReduceAll { keep_dims: op.builtin_options_as_reducer_options().is_some_and(|o| o.keep_dims()) },
        B::TRANSPOSE => OpKind::Transpose,
        B::STRIDED_SLICE => OpKind::StridedSlice(match op.builtin_options_as_strided_slice_options() {
            Some(o) => StridedSliceOptions {
                begin_mask: o.begin_mask(),
                end_mask: o.end_mask(),
                ellipsis_mask: o.ellipsis_mask(),
                new_axis_mask: o.new_axis_mask(),
                shrink_axis_mask: o.shrink_axis_mask(),
                offset: o.offset(),
            },
            None => StridedSliceOptions::default(),
        }),
        B::SLICE => OpKind::Slice,
        B::SPLIT => OpKind::Split { num_splits: op.builtin_options_as_split_options().map(|o| o.num_splits()).unwrap_or(0) },
        B::SPLIT_V => OpKind::SplitV { num_splits: op.builtin_options_as_split_voptions().map(|o| o.num_splits()).unwrap_or(0) },
        B::PACK => {
            let (values_count, axis) = op.builtin_options_as_pack_options().map(|o| (o.values_count(), o.axis())).unwrap_or((0, 0));
            OpKind::Pack { values_count, axis }
        }
        B::UNPACK => {
            let (num, axis) = op.builtin_options_as_unpack_options().map(|o| (o.num(), o.axis())).unwrap_or((0, 0));
            OpKind::Unpack { num, axis }
        }
        B::RESIZE_NEAREST_NEIGHBOR => OpKind::ResizeNearestNeighbor(
            op.builtin_options_as_resize_nearest_neighbor_options()
                .map(|o| ResizeOptions { align_corners: o.align_corners(), half_pixel_centers: o.half_pixel_centers() })
                .unwrap_or_default(),
        ),
        B::RESIZE_BILINEAR => OpKind::ResizeBilinear(
            op.builtin_options_as_resize_bilinear_options()
                .map(|o| ResizeOptions { align_corners: o.align_corners(), half_pixel_centers: o.half_pixel_centers() })
                .unwrap_or_default(),
        ),
        B::MAXIMUM => OpKind::Maximum,
        B::MINIMUM => OpKind::Minimum,
        B::EQUAL => OpKind::Equal,
        B::NOT_EQUAL => OpKind::NotEqual,
        B::GREATER => OpKind::Greater,
        B::GREATER_EQUAL => OpKind::GreaterEqual,
        B::LESS => OpKind::Less,
        B::LESS_EQUAL => OpKind::LessEqual,
        B::LOGICAL_AND => OpKind::LogicalAnd,
        B::LOGICAL_OR => OpKind::LogicalOr,
        B::LOGICAL_NOT => OpKind::LogicalNot,
        B::SELECT_V2 => OpKind::SelectV2,
        B::RESHAPE => OpKind::Reshape {
            new_shape: op.builtin_options_as_reshape_options().and_then(|o| o.new_shape()).map(|v| v.iter().collect()),
        },
        B::SQUEEZE => OpKind::Squeeze {
            squeeze_dims: op
                .builtin_options_as_squeeze_options()
                .and_then(|o| o.squeeze_dims())
                .map(|v| v.iter().collect())
                .unwrap_or_default(),
        },
        B::EXPAND_DIMS => OpKind::ExpandDims,
        B::CAST => OpKind::Cast,
        B::SHAPE => OpKind::Shape,
        B::GATHER => {
            let (axis, batch_dims) = op.builtin_options_as_gather_options().map(|o| (o.axis(), o.batch_dims())).unwrap_or((0, 0));
            OpKind::Gather { axis, batch_dims }
        }
        B::SVDF => OpKind::Svdf(match op.builtin_options_as_svdfoptions() {
            Some(o) => SvdfOptions {
                rank: o.rank(),
                activation: activation(o.fused_activation_function()),
                asymmetric_quantize_inputs: o.asymmetric_quantize_inputs(),
            },
            None => SvdfOptions::default(),
        }),
        B::UNIDIRECTIONAL_SEQUENCE_LSTM => {
            OpKind::UnidirectionalSequenceLstm(match op.builtin_options_as_unidirectional_sequence_lstmoptions() {
                Some(o) => SequenceLstmOptions {
                    activation: activation(o.fused_activation_function()),
                    cell_clip: o.cell_clip(),
                    proj_clip: o.proj_clip(),
                    time_major: o.time_major(),
                    asymmetric_quantize_inputs: o.asymmetric_quantize_inputs(),
                    diagonal_recurrent_tensors: o.diagonal_recurrent_tensors(),
                },
                None => SequenceLstmOptions::default(),
            })
        }
        B::IF => {
            let (t, e) = op.builtin_options_as_if_options().map(|o| (o.then_subgraph_index(), o.else_subgraph_index())).unwrap_or((-1, -1));
            OpKind::If {
                then_subgraph: subgraph_ref(t, "IF's then", at, num_subgraphs)?,
                else_subgraph: subgraph_ref(e, "IF's else", at, num_subgraphs)?,
            }
        }
        B::WHILE => {
            let (c, b) = op.builtin_options_as_while_options().map(|o| (o.cond_subgraph_index(), o.body_subgraph_index())).unwrap_or((-1, -1));
            OpKind::While {
                cond_subgraph: subgraph_ref(c, "WHILE's cond", at, num_subgraphs)?,
                body_subgraph: subgraph_ref(b, "WHILE's body", at, num_subgraphs)?,
            }
        }
        B::CALL_ONCE => {
            let i = op.builtin_options_as_call_once_options().map(|o| o.init_subgraph_index()).unwrap_or(-1);
            OpKind::CallOnce { init_subgraph: subgraph_ref(i, "CALL_ONCE's init", at, num_subgraphs)? }
        }
        // Layout and indexing.
        B::BATCH_TO_SPACE_ND => OpKind::BatchToSpaceNd,
        B::BROADCAST_ARGS => OpKind::BroadcastArgs,
        B::BROADCAST_TO => OpKind::BroadcastTo,
        B::DEPTH_TO_SPACE => OpKind::DepthToSpace { block_size: op.builtin_options_as_depth_to_space_options().map(|o| o.block_size()).unwrap_or(0) },
        B::DYNAMIC_UPDATE_SLICE => OpKind::DynamicUpdateSlice,
        B::EMBEDDING_LOOKUP => OpKind::EmbeddingLookup,
        B::FILL => OpKind::Fill,
        B::GATHER_ND => OpKind::GatherNd,
        B::MIRROR_PAD => OpKind::MirrorPad { mode: op.builtin_options_as_mirror_pad_options().map(|o| o.mode().0).unwrap_or(0) },
        B::REVERSE_V2 => OpKind::ReverseV2,
        B::SPACE_TO_BATCH_ND => OpKind::SpaceToBatchNd,
        B::SPACE_TO_DEPTH => OpKind::SpaceToDepth { block_size: op.builtin_options_as_space_to_depth_options().map(|o| o.block_size()).unwrap_or(0) },
        B::ZEROS_LIKE => OpKind::ZerosLike,
        B::VAR_HANDLE => {
            let o = op.builtin_options_as_var_handle_options();
            let name = |f: Option<&str>| f.unwrap_or_default().to_string();
            OpKind::VarHandle { container: name(o.and_then(|o| o.container())), shared_name: name(o.and_then(|o| o.shared_name())) }
        }
        B::ASSIGN_VARIABLE => OpKind::AssignVariable,
        B::READ_VARIABLE => OpKind::ReadVariable,
        // Elementwise math.
        B::ABS => OpKind::Abs,
        B::NEG => OpKind::Neg,
        B::CEIL => OpKind::Ceil,
        B::FLOOR => OpKind::Floor,
        B::ROUND => OpKind::Round,
        B::SQRT => OpKind::Sqrt,
        B::RSQRT => OpKind::Rsqrt,
        B::SQUARE => OpKind::Square,
        B::SIN => OpKind::Sin,
        B::COS => OpKind::Cos,
        B::LOG => OpKind::Log,
        B::EXP => OpKind::Exp,
        B::ELU => OpKind::Elu,
        B::SQUARED_DIFFERENCE => OpKind::SquaredDifference,
        B::FLOOR_DIV => OpKind::FloorDiv,
        B::FLOOR_MOD => OpKind::FloorMod,
        B::LOG_SOFTMAX => OpKind::LogSoftmax,
        B::L2_NORMALIZATION => OpKind::L2Normalization {
            activation: op.builtin_options_as_l2_norm_options().map(|o| activation(o.fused_activation_function())).unwrap_or_default(),
        },
        // Convolution family (issue 14). An absent options table reads as its defaults
        // (strides 0, which lowering refuses).
        B::TRANSPOSE_CONV => OpKind::TransposeConv(match op.builtin_options_as_transpose_conv_options() {
            Some(o) => TransposeConvOptions {
                padding: padding(o.padding()),
                stride_w: o.stride_w(),
                stride_h: o.stride_h(),
                activation: activation(o.fused_activation_function()),
            },
            None => TransposeConvOptions::default(),
        }),
        B::BATCH_MATMUL => {
            let o = op.builtin_options_as_batch_mat_mul_options();
            OpKind::BatchMatmul { adj_x: o.is_some_and(|o| o.adj_x()), adj_y: o.is_some_and(|o| o.adj_y()) }
        }
        _ => OpKind::Unsupported,
    })
}
