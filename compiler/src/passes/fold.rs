//! Constant folding: every operator whose result is known at compile time is evaluated by
//! the compiler and its outputs become constant data (in flash); it runs no code on the
//! device and owes the arena nothing. Two kinds are folded:
//!
//! - SHAPE: shapes are static (tflc compiles for TFLite's `shape`, as TFLite Micro does), so
//!   its output is the input's shape, whatever the input's data.
//! - Any other operator whose inputs are all constant (or were folded before it): it runs
//!   through its own lowering and kernel (`Kernel::execute`, the same code and parameters
//!   the generated call would use), so the constant is exactly what the kernel computes at
//!   run time. This covers the converter's shape chains (SHAPE -> STRIDED_SLICE -> PACK ->
//!   RESHAPE of a model with a `None` batch), arithmetic and data movement on constants.
//! - A DEQUANTIZE of a constant (float16 weights, int8 constants): float16 widens exactly
//!   (`static_cast<float>` of TFLite's `Eigen::half`), per-tensor int8 as the runtime's
//!   `dequantize_s8_f32` (TFLite's `double` product rounded once). This is how float16-weight
//!   models (the converter's float16 quantization) compile to float32 kernels.
//!
//! - Sparse constants (TFLite's `SparsityParameters`, checked by the reader) are densified
//!   first, exactly as TFLite's `FormatConverter<T>::SparseToDense` ([`Sparsity::densify`]),
//!   whatever reads them; a DENSIFY of one always folds to that dense constant (its output
//!   then feeds a DEQUANTIZE, which folds in turn, or a kernel directly). The sparse bytes
//!   never reach flash: a constant goes into the weight blob only when a kernel reads it.
//!
//! - int4 constants (TFLite's `INT4`: two elements a byte, low nibble first, two's
//!   complement) are unpacked to int8 first, exactly as TFLite's
//!   `tensor_utils::UnpackDenseInt4IntoInt8`, when every reader takes them: the filter
//!   (input 1 only) of a CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED on int8 activations
//!   (TFLite Micro unpacks the filter into scratch and runs its int8 kernel), or a
//!   DEQUANTIZE (whose fold then dequantizes the unpacked values, per channel when the
//!   tensor is quantized per channel). The unpacked tensor is an int8 constant for every
//!   later phase; [`Subgraph::int4_packed`] keeps the packed bytes. Any other int4 tensor
//!   stays int4, and the operators reading it refuse it by name. Those only filters read
//!   ([`Folded::int4_filters`]) are listed in [`Subgraph::int4_kept`] unless the compile
//!   unpacks weights (`CompileOptions::decode_weights`): the Arm and RV32 calls of those
//!   kernels then read the nibbles (`lower::ops::int4`, `tflc_runtime::kernels::int4`).
//!
//! A TFLM_DECODE of the LUT type whose int8 output every reader takes as the filter of an
//! int8 CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED ([`int4_reader`]'s rule) is listed in
//! [`Folded::lut`]; unless the compile decodes weights (`CompileOptions::decode_weights`),
//! [`FoldedModel::apply_with`] lists it in [`Subgraph::lut_weights`], and those kernels then
//! read the value tables and packed indices from flash and decode as they go
//! (`lower::ops::decode::kept_lut`, `tflc_runtime::kernels::lut`). The decoded bytes stay
//! the tensor's data for every other phase (the interpreter runs the int8 kernels on them).
//!
//! With `keep_f16_weights` ([`FoldedModel::apply_with`]), a folded float16 DEQUANTIZE whose
//! every reader is the filter of a CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED is also
//! listed in [`Subgraph::half_weights`]: those kernels' Arm calls then read the float16
//! source from flash and widen each weight as they go (the same exact widening, so the same
//! bits), and the float32 copy is not emitted for them.
//!
//! Not folded: operators reading or writing a variable (state) tensor, operators whose
//! outputs are subgraph outputs (the caller reads those from the arena), and results larger
//! than [`MAX_GROWTH`] times their inputs and over [`SMALL_RESULT`] bytes (a BROADCAST_TO or
//! FILL of a few constants would turn a few bytes of flash into a large table; the kernel then
//! runs on the device), except TFLite Micro's TFLM_DECODE, which always folds (decoding
//! compressed weights at compile time is tflc's implementation of it). Folding repeats until nothing more folds, since an operator can
//! need a folded constant to lower at all (RESHAPE's shape operand).
//!
//! The lowering phase learns what was folded from [`Subgraph::folded`]: the operator lowers
//! to a kernel with [`Kernel::is_folded`](crate::lower::ops::Kernel::is_folded), which the
//! planner and codegen read.

use crate::ir::{DType, Model, OpCode, OpId, OpKind, Subgraph, Tensor, TensorId};
#[cfg(doc)]
use crate::ir::Sparsity;
use crate::lower::ops::{TensorData, TensorStore};
use std::collections::BTreeMap;
use tflc_runtime::kernels::dequantize::{dequantize_s8_f32, DequantizeParams};

/// Operators that always fold: SHAPE (its result depends on static shapes only, so it has
/// no lowering of its own), TFLite Micro's custom TFLM_DECODE (constant inputs, decoded
/// by its lowering, `lower::ops::decode`; no device kernel) and DENSIFY (a sparse constant
/// densified; its lowering only explains why one could not fold).
pub const ALWAYS_FOLDED: &[&str] = &["SHAPE", "TFLM_DECODE", "DENSIFY"];

/// A folded result may be this many times its inputs' bytes...
pub const MAX_GROWTH: usize = 4;
/// ...or any size up to this many bytes.
pub const SMALL_RESULT: usize = 16 * 1024;

/// The constants a subgraph's folding computed: per folded output tensor its little-endian
/// bytes, and the operators that produced them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Folded {
    data: BTreeMap<TensorId, Vec<u8>>,
    /// Folded operators, in file order, with the tensors each one made constant.
    pub ops: Vec<(OpId, Vec<TensorId>)>,
    /// The folded float16 weights that every reader could take as float16
    /// ([`Subgraph::half_weights`] when kept).
    pub half: std::collections::BTreeSet<TensorId>,
    /// The sparse constants densified (their dense bytes are in `data`; the applied model
    /// has no sparsity metadata on them).
    pub densified: std::collections::BTreeSet<TensorId>,
    /// The int4 constants unpacked to int8 (their int8 bytes are in `data`; the applied
    /// model types them int8 and lists their packed bytes in [`Subgraph::int4_packed`]).
    pub unpacked_int4: std::collections::BTreeSet<TensorId>,
    /// Of them, those whose every reader is the filter of an int8 CONV_2D,
    /// DEPTHWISE_CONV_2D or FULLY_CONNECTED (no DEQUANTIZE): kernels can read them packed
    /// ([`Subgraph::int4_kept`] when kept).
    pub int4_filters: std::collections::BTreeSet<TensorId>,
    /// The outputs of folded LUT-type TFLM_DECODE ops (int8) that every reader takes as
    /// the filter of an int8 CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED: kernels can read
    /// them compressed ([`Subgraph::lut_weights`] when kept).
    pub lut: std::collections::BTreeSet<TensorId>,
}

/// Which folded weights [`FoldedModel::apply_with`] keeps in their compact source form
/// for the kernels that read it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeptWeights {
    /// Float16 weights ([`Subgraph::half_weights`], `CompileOptions::keep_f16_weights`).
    pub f16: bool,
    /// LUT-compressed weights ([`Subgraph::lut_weights`]; `CompileOptions::decode_weights`
    /// off).
    pub lut: bool,
    /// int4 filters packed ([`Subgraph::int4_kept`]; `CompileOptions::decode_weights` off).
    pub int4: bool,
}

/// The folding of every subgraph of a model (indexed like `model.subgraphs`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FoldedModel {
    /// One folding per subgraph, indexed like `model.subgraphs`.
    pub subgraphs: Vec<Folded>,
}

impl FoldedModel {
    /// Folds every subgraph of `model`.
    pub fn of(model: &Model<'_>) -> FoldedModel {
        FoldedModel { subgraphs: model.subgraphs.iter().map(Folded::of).collect() }
    }

    /// Folded operators over all subgraphs.
    pub fn count(&self) -> usize {
        self.subgraphs.iter().map(|f| f.ops.len()).sum()
    }

    /// `model` with the folded tensors constant, borrowing their data from `self`.
    pub fn apply<'f, 'a: 'f>(&'f self, model: &Model<'a>) -> Model<'f> {
        self.apply_with(model, KeptWeights::default())
    }

    /// [`FoldedModel::apply`], and with `keep.f16` the float16 weights every reader can take
    /// as float16 listed in [`Subgraph::half_weights`], with `keep.lut` the LUT-compressed
    /// weights every reader can take compressed in [`Subgraph::lut_weights`].
    pub fn apply_with<'f, 'a: 'f>(&'f self, model: &Model<'a>, keep: KeptWeights) -> Model<'f> {
        let mut out: Model<'f> = model.clone();
        for (sg, folded) in out.subgraphs.iter_mut().zip(&self.subgraphs) {
            folded.apply_to(sg);
            if keep.f16 {
                sg.half_weights.extend(folded.half.iter().copied());
            }
            if keep.lut {
                sg.lut_weights.extend(folded.lut.iter().copied());
            }
            if keep.int4 {
                sg.int4_kept.extend(folded.int4_filters.iter().copied());
            }
        }
        out
    }
}

impl Folded {
    /// What folding `sg` computes (nothing for a graph without foldable operators).
    pub fn of(sg: &Subgraph<'_>) -> Folded {
        let mut f = Folded::default();
        densify(sg, &mut f);
        unpack_int4(sg, &mut f);
        // Rounds: an operator that could not lower before (a RESHAPE whose shape operand was
        // not constant yet) may lower once its inputs are folded. Each round folds at least
        // one operator, so there are at most as many rounds as operators.
        loop {
            let mut work = sg.clone();
            f.apply_to(&mut work);
            let found = round(&work);
            if found.is_empty() {
                break;
            }
            for (op, results) in found {
                let mut tensors = Vec::new();
                for (t, d) in results {
                    f.data.insert(t, d.to_le_bytes());
                    tensors.push(t);
                }
                f.ops.push((op, tensors));
            }
        }
        f.ops.sort_by_key(|(op, _)| *op);
        f.half = f.ops.iter().filter_map(|(op, ts)| half_weight(sg, *op, ts)).collect();
        f.lut = f.ops.iter().flat_map(|(op, ts)| lut_weights(sg, *op, ts)).collect();
        f
    }
}

/// Densifies every sparse constant of `sg` into `f`, and folds each DENSIFY of one to the
/// dense bytes (unless its output must stay in the arena: a subgraph output or a variable,
/// which DENSIFY's lowering then refuses by name).
fn densify(sg: &Subgraph<'_>, f: &mut Folded) {
    for t in sg.tensors.iter() {
        let (Some(sparsity), Some(data)) = (&t.sparsity, t.data) else { continue };
        // The reader checked the metadata; a model built in memory may not have been.
        if let Ok(dense) = sparsity.densify(&t.shape, t.dtype, data) {
            f.data.insert(t.id, dense);
            f.densified.insert(t.id);
        }
    }
    for op in sg.ops.iter().filter(|o| o.kind == OpKind::Densify) {
        let (&[Some(x)], &[y]) = (op.inputs.as_slice(), op.outputs.as_slice()) else { continue };
        let (Some(xt), Some(yt)) = (sg.tensors.get(x), sg.tensors.get(y)) else { continue };
        let foldable = f.densified.contains(&x)
            && yt.dtype == xt.dtype
            && yt.shape == xt.shape
            && !yt.is_constant()
            && !yt.is_variable
            && !sg.outputs.contains(&y)
            && !f.data.contains_key(&y);
        if let (true, Some(dense)) = (foldable, f.data.get(&x).cloned()) {
            f.data.insert(y, dense);
            f.ops.push((op.id, vec![y]));
        }
    }
}

/// Unpacks every int4 constant of `sg` whose every reader takes it as int8 (the module
/// doc) into `f`.
fn unpack_int4(sg: &Subgraph<'_>, f: &mut Folded) {
    for t in sg.tensors.iter() {
        let Some(packed) = t.data else { continue };
        let n = t.num_elements();
        if t.dtype != DType::I4 || t.sparsity.is_some() || packed.len() != n.div_ceil(2) || sg.outputs.contains(&t.id) {
            continue;
        }
        let mut readers = sg.ops.iter().filter(|o| o.inputs.contains(&Some(t.id))).peekable();
        if readers.peek().is_none() || !readers.all(|o| int4_reader(sg, o, t.id)) {
            continue;
        }
        let mut unpacked = vec![0i8; n];
        tflc_runtime::quant::unpack_int4(packed, &mut unpacked);
        f.data.insert(t.id, unpacked.iter().map(|&v| v as u8).collect());
        f.unpacked_int4.insert(t.id);
        if sg.ops.iter().filter(|o| o.inputs.contains(&Some(t.id))).all(|o| o.kind != OpKind::Dequantize) {
            f.int4_filters.insert(t.id);
        }
    }
}

/// Whether operator `o` takes int4 constant `t` as TFLite Micro does, unpacked to int8: as
/// the filter (input 1, and no other input) of an int8 CONV_2D, DEPTHWISE_CONV_2D or
/// FULLY_CONNECTED, or as a DEQUANTIZE's input.
pub fn int4_reader(sg: &Subgraph<'_>, o: &crate::ir::Operator<'_>, t: TensorId) -> bool {
    match o.kind {
        OpKind::Conv2d(_) | OpKind::DepthwiseConv2d(_) | OpKind::FullyConnected(_) => {
            let int8_input = o.inputs.first().copied().flatten().and_then(|x| sg.tensors.get(x)).is_some_and(|x| x.dtype == DType::I8);
            int8_input && o.inputs.iter().enumerate().all(|(i, x)| (*x == Some(t)) == (i == 1))
        }
        OpKind::Dequantize => true,
        _ => false,
    }
}

/// The outputs of folded operator `op` (made constant as `outputs`) when it is a
/// TFLM_DECODE: each int8 output decoded from the LUT type (ancillary byte 0 is 0) whose
/// every reader takes it as the filter of an int8 CONV_2D, DEPTHWISE_CONV_2D or
/// FULLY_CONNECTED ([`int4_reader`]'s rule, without DEQUANTIZE).
fn lut_weights(sg: &Subgraph<'_>, op: OpId, outputs: &[TensorId]) -> Vec<TensorId> {
    let Some(operator) = sg.ops.get(op) else { return Vec::new() };
    if !matches!(&operator.opcode, OpCode::Custom(c) if c == "TFLM_DECODE") {
        return Vec::new();
    }
    let mut kept = Vec::new();
    for (k, &y) in operator.outputs.iter().enumerate() {
        let ancillary = operator.inputs.get(2 * k + 1).copied().flatten().and_then(|a| sg.tensors.get(a)).and_then(|a| a.data);
        let is_lut = ancillary.and_then(|a| a.first()) == Some(&0);
        let int8 = sg.tensors.get(y).is_some_and(|t| t.dtype == DType::I8);
        if !(is_lut && int8 && outputs.contains(&y)) || sg.outputs.contains(&y) {
            continue;
        }
        let mut readers = sg.ops.iter().filter(|o| o.inputs.contains(&Some(y))).peekable();
        if readers.peek().is_some() && readers.all(|o| o.kind != OpKind::Dequantize && int4_reader(sg, o, y)) {
            kept.push(y);
        }
    }
    kept
}

/// The output of folded operator `op` (made constant as `outputs`) when it is a DEQUANTIZE
/// of a float16 constant whose every reader takes float16 weights: CONV_2D,
/// DEPTHWISE_CONV_2D or FULLY_CONNECTED reading it as its filter (input 1) only.
fn half_weight(sg: &Subgraph<'_>, op: OpId, outputs: &[TensorId]) -> Option<TensorId> {
    let operator = sg.ops.get(op)?;
    let (&[Some(x)], &[y]) = (operator.inputs.as_slice(), outputs) else { return None };
    if operator.kind != OpKind::Dequantize || sg.tensors.get(x)?.dtype != DType::F16 || sg.outputs.contains(&y) {
        return None;
    }
    let mut readers = sg.ops.iter().filter(|o| o.inputs.contains(&Some(y))).peekable();
    readers.peek()?;
    let takes_f16 = |o: &crate::ir::Operator<'_>| {
        matches!(o.kind, OpKind::Conv2d(_) | OpKind::DepthwiseConv2d(_) | OpKind::FullyConnected(_))
            && o.inputs.iter().enumerate().all(|(i, t)| (*t == Some(y)) == (i == 1))
    };
    readers.all(takes_f16).then_some(y)
}

/// What one pass over `sg` (with the folds so far applied) folds, in file order.
fn round(sg: &Subgraph<'_>) -> Vec<(OpId, Vec<(TensorId, TensorData)>)> {
    let mut found = Vec::new();
    // Values computed in this round, so that a chain folds in one round when its ops
    // lower without constant operands.
    let mut computed: BTreeMap<TensorId, TensorData> = BTreeMap::new();
    let known = |t: TensorId, computed: &BTreeMap<TensorId, TensorData>| computed.contains_key(&t) || sg.tensors.get(t).is_some_and(|x| x.is_constant());
    for op in sg.ops.iter() {
        if sg.folded.contains(&op.id) || op.outputs.is_empty() {
            continue;
        }
        let outs: Option<Vec<&Tensor<'_>>> = op.outputs.iter().map(|&t| sg.tensors.get(t)).collect();
        let Some(outs) = outs else { continue };
        let ins: Option<Vec<&Tensor<'_>>> = op.present_inputs().map(|t| sg.tensors.get(t)).collect();
        let Some(ins) = ins else { continue };
        if outs.iter().any(|t| t.is_constant() || t.is_variable || sg.outputs.contains(&t.id) || computed.contains_key(&t.id))
            || ins.iter().any(|t| t.is_variable)
            // Resource handles are resolved by `passes::resources`, not evaluated.
            || ins.iter().chain(&outs).any(|t| t.dtype == DType::Resource)
        {
            continue;
        }
        let results = if op.kind == OpKind::Shape {
            match (ins.first(), outs.as_slice()) {
                (Some(x), [y]) if ins.len() == 1 => shape_of(x, y).map(|d| vec![(y.id, d)]),
                _ => None,
            }
        } else if op.kind == OpKind::Dequantize {
            // Constant DEQUANTIZE: its own exact widening (float16 has no runtime kernel).
            match (ins.as_slice(), outs.as_slice()) {
                ([x], [y]) if x.is_constant() && y.dtype == DType::F32 && y.shape == x.shape => dequantize_constant(x)
                    .filter(|v| v.len() == y.num_elements())
                    .map(|v| vec![(y.id, TensorData::F32(v))]),
                _ => None,
            }
        } else if !ins.is_empty() && ins.iter().all(|t| known(t.id, &computed)) {
            evaluate(sg, op.id, &ins, &outs, &computed)
        } else {
            None
        };
        let Some(results) = results else { continue };
        let in_bytes: usize = ins.iter().filter_map(|t| t.byte_size()).sum();
        let out_bytes: usize = outs.iter().filter_map(|t| t.byte_size()).sum();
        // TFLM_DECODE always folds: tflc has no device kernel for it (`lower::ops::decode`).
        let decode = matches!(&op.opcode, OpCode::Custom(c) if c == "TFLM_DECODE");
        if out_bytes > SMALL_RESULT && out_bytes > in_bytes.saturating_mul(MAX_GROWTH) && !decode {
            continue;
        }
        for (t, d) in &results {
            computed.insert(*t, d.clone());
        }
        found.push((op.id, results));
    }
    found
}

impl Folded {
    /// Makes the folded tensors of `sg` constant, with data borrowed from `self`, and marks
    /// the folded operators.
    fn apply_to<'f>(&'f self, sg: &mut Subgraph<'f>) {
        for (&t, bytes) in &self.data {
            if let Some(tensor) = sg.tensors.get_mut(t) {
                if self.unpacked_int4.contains(&t) && tensor.dtype == DType::I4 {
                    if let Some(packed) = tensor.data {
                        sg.int4_packed.insert(t, packed);
                    }
                    tensor.dtype = DType::I8;
                }
                tensor.data = Some(bytes);
                if self.densified.contains(&t) {
                    tensor.sparsity = None;
                }
            }
        }
        sg.folded.extend(self.ops.iter().map(|(op, _)| *op));
    }

    /// Whether `op` was folded.
    pub fn contains(&self, op: OpId) -> bool {
        self.ops.iter().any(|(o, _)| *o == op)
    }
}

/// SHAPE's result: the input's static shape, as the output's int32 or int64 elements.
fn shape_of(x: &Tensor<'_>, y: &Tensor<'_>) -> Option<TensorData> {
    if y.shape != [x.shape.len()] {
        return None;
    }
    match y.dtype {
        DType::I32 => x.shape.iter().map(|&d| i32::try_from(d).ok()).collect::<Option<Vec<_>>>().map(TensorData::I32),
        DType::I64 => x.shape.iter().map(|&d| i64::try_from(d).ok()).collect::<Option<Vec<_>>>().map(TensorData::I64),
        _ => None,
    }
}

/// Runs operator `op` of `sg` on constant inputs through its lowering and kernel; its
/// outputs, when it lowers and runs and every output has the declared type and size.
fn evaluate(sg: &Subgraph<'_>, op: OpId, ins: &[&Tensor<'_>], outs: &[&Tensor<'_>], computed: &BTreeMap<TensorId, TensorData>) -> Option<Vec<(TensorId, TensorData)>> {
    let operator = sg.ops.get(op)?;
    let kernel = crate::lower::ops::lower(sg, operator).ok()?;
    if kernel.is_folded() {
        return None;
    }
    let mut store = TensorStore::new();
    for x in ins {
        let d = match computed.get(&x.id) {
            Some(d) => d.clone(),
            None => TensorData::from_le_bytes(x.dtype, x.data?)?,
        };
        store.insert(x.id, d);
    }
    kernel.execute(&mut store).ok()?;
    outs.iter()
        .map(|y| {
            let d = store.get(y.id)?;
            (d.to_le_bytes().len() == y.byte_size()?).then(|| (y.id, d.clone()))
        })
        .collect()
}

/// The float32 values of a constant DEQUANTIZE input, when it can be folded.
fn dequantize_constant(x: &Tensor<'_>) -> Option<Vec<f32>> {
    let data = x.data?;
    match x.dtype {
        DType::F16 => {
            if !data.len().is_multiple_of(2) {
                return None;
            }
            Some(data.chunks_exact(2).map(|c| f16_to_f32(u16::from_le_bytes([c[0], c[1]]))).collect())
        }
        DType::I8 if x.quant.as_ref()?.axis.is_some() => dequantize_per_channel(x, data),
        DType::I8 => {
            let (scale, zero_point) = x.quant.as_ref()?.per_tensor()?;
            let zero_point = i32::try_from(zero_point).ok()?;
            if !(scale.is_finite() && scale > 0.0) {
                return None;
            }
            let q: Vec<i8> = data.iter().map(|&b| b as i8).collect();
            let mut out = vec![0f32; q.len()];
            dequantize_s8_f32(&DequantizeParams { scale, zero_point }, &q, &mut out);
            Some(out)
        }
        _ => None,
    }
}

/// TFLite's `reference_ops::PerChannelDequantize` of an int8 constant (or an int4 one
/// unpacked): `float(scale[c] * (q - zero_point[c]))` for channel `c` along the quantized
/// axis, each channel as the per-tensor `dequantize_s8_f32` (the float product of a float
/// scale and a small integer is the double product rounded once).
fn dequantize_per_channel(x: &Tensor<'_>, data: &[u8]) -> Option<Vec<f32>> {
    let q = x.quant.as_ref()?;
    let axis = q.axis?;
    let channels = *x.shape.get(axis)?;
    if channels != q.scale.len() || q.zero_point.len() != channels || data.len() != x.num_elements() {
        return None;
    }
    let inner: usize = x.shape[axis + 1..].iter().product();
    let mut params = Vec::with_capacity(channels);
    for (&scale, &zero_point) in q.scale.iter().zip(&q.zero_point) {
        if !(scale.is_finite() && scale > 0.0) {
            return None;
        }
        params.push(DequantizeParams { scale, zero_point: i32::try_from(zero_point).ok()? });
    }
    let q8: Vec<i8> = data.iter().map(|&b| b as i8).collect();
    let mut out = vec![0f32; q8.len()];
    if inner == 0 {
        return Some(out);
    }
    for (k, (src, dst)) in q8.chunks(inner).zip(out.chunks_mut(inner)).enumerate() {
        dequantize_s8_f32(&params[k % channels], src, dst);
    }
    Some(out)
}

pub use tflc_runtime::math::f16_to_f32;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::OpKind;
    use crate::tflite::builder::ModelBuilder;

    #[test]
    fn constant_dequantize_becomes_float32_data() {
        let mut m = ModelBuilder::new();
        let halves: Vec<u8> = [0x3c00u16, 0xc000, 0x0001, 0x7bff].iter().flat_map(|h| h.to_le_bytes()).collect();
        let w16 = m.constant("w16", DType::F16, &[4], halves, None);
        let w = m.activation("w", DType::F32, &[4], None);
        let x = m.activation("x", DType::F32, &[4], None);
        let y = m.activation("y", DType::F32, &[4], None);
        m.op(OpKind::Dequantize, &[Some(w16)], &[w]);
        m.op(OpKind::Add { activation: crate::ir::Activation::None }, &[Some(x), Some(w)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let bytes = m.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        let folded = FoldedModel::of(&model);
        assert_eq!(folded.subgraphs[0].ops, [(crate::ir::OpId::new(0), vec![w])]);
        let model = folded.apply(&model);
        let t = model.main().tensor(w);
        let values: Vec<f32> = t.data.unwrap().chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(values, [1.0, -2.0, 2f32.powi(-24), 65504.0]);
        // A DEQUANTIZE of an activation is not folded.
        assert!(!folded.subgraphs[0].contains(crate::ir::OpId::new(1)));
        // Lowering reports the fold, the planner accepts the constant output, and codegen
        // emits no code for it.
        let lowered = crate::lower::lower_subgraph(model.main());
        assert_eq!(lowered.folded(), [crate::ir::OpId::new(0)]);
        let code = crate::compile(&bytes, &crate::CompileOptions::default()).unwrap().code;
        assert!(code.contains("op 0: DEQUANTIZE") && code.contains("folded at compile time, no code"), "{code}");
        assert_eq!(code.matches("rt::__private::io(").count(), 1, "{code}");
    }

    /// A float16-weight CONV_2D, FULLY_CONNECTED and DEPTHWISE_CONV_2D (filters through
    /// DEQUANTIZE), plus one float16 constant that an ADD also reads.
    fn half_weight_model() -> Vec<u8> {
        use crate::ir::{Activation, Conv2dOptions, DepthwiseConv2dOptions, FullyConnectedOptions, Padding};
        let halves = |n: usize| -> Vec<u8> { (0..n).flat_map(|i| ((0x3000u16 + (i as u16 * 37) % 0x1000) | ((i as u16 % 3) << 15)).to_le_bytes()).collect() };
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::F32, &[1, 3, 3, 2], None);
        let f16 = m.constant("f16", DType::F16, &[4, 3, 3, 2], halves(72), None);
        let f = m.activation("f", DType::F32, &[4, 3, 3, 2], None);
        let c = m.activation("c", DType::F32, &[1, 3, 3, 4], None);
        let w16 = m.constant("w16", DType::F16, &[5, 36], halves(180), None);
        let w = m.activation("w", DType::F32, &[5, 36], None);
        let y = m.activation("y", DType::F32, &[1, 5], None);
        let a16 = m.constant("a16", DType::F16, &[5], halves(5), None);
        let a = m.activation("a", DType::F32, &[5], None);
        let z = m.activation("z", DType::F32, &[1, 5], None);
        let q = m.activation("q", DType::F32, &[1, 5], None);
        let v16 = m.constant("v16", DType::F16, &[5, 5], halves(25), None);
        let v = m.activation("v", DType::F32, &[5, 5], None);
        m.op(OpKind::Dequantize, &[Some(f16)], &[f]);
        let conv = Conv2dOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, activation: Activation::Relu, ..Default::default() };
        m.op(OpKind::Conv2d(conv), &[Some(x), Some(f), None], &[c]);
        m.op(OpKind::Dequantize, &[Some(w16)], &[w]);
        let fc = FullyConnectedOptions { activation: Activation::None, ..Default::default() };
        m.op(OpKind::FullyConnected(fc.clone()), &[Some(c), Some(w), None], &[y]);
        m.op(OpKind::Dequantize, &[Some(a16)], &[a]);
        // `a` is a FULLY_CONNECTED bias and an ADD operand: neither reads float16.
        m.op(OpKind::Add { activation: Activation::None }, &[Some(y), Some(a)], &[z]);
        m.op(OpKind::Dequantize, &[Some(v16)], &[v]);
        m.op(OpKind::FullyConnected(fc), &[Some(z), Some(v), Some(a)], &[q]);
        // A float16-weight DEPTHWISE_CONV_2D (depth multiplier 1, 3x3) on the conv's output.
        let d16 = m.constant("d16", DType::F16, &[1, 3, 3, 4], halves(36), None);
        let d = m.activation("d", DType::F32, &[1, 3, 3, 4], None);
        let e = m.activation("e", DType::F32, &[1, 3, 3, 4], None);
        m.op(OpKind::Dequantize, &[Some(d16)], &[d]);
        let dw = DepthwiseConv2dOptions { stride_w: 1, stride_h: 1, depth_multiplier: 1, dilation_w: 1, dilation_h: 1, ..Default::default() };
        m.op(OpKind::DepthwiseConv2d(dw), &[Some(c), Some(d), None], &[e]);
        m.inputs(&[x]).outputs(&[q, e]);
        m.finish()
    }

    #[test]
    fn float16_weights_stay_float16_where_asked() {
        let bytes = half_weight_model();
        let model = crate::passes::read_model(&bytes).unwrap();
        let folded = FoldedModel::of(&model);
        // The conv, FC and depthwise filters (read as filters only), not the ADD operand.
        assert_eq!(folded.subgraphs[0].half, [TensorId::new(2), TensorId::new(5), TensorId::new(12), TensorId::new(14)].into_iter().collect());
        assert!(folded.apply(&model).main().half_weights.is_empty());
        assert_eq!(folded.apply_with(&model, KeptWeights { f16: true, lut: false, int4: false }).main().half_weights.len(), 4);

        let plain = crate::compile(&bytes, &crate::CompileOptions::default()).unwrap();
        let kept = crate::compile(&bytes, &crate::CompileOptions { keep_f16_weights: true, ..Default::default() }).unwrap();
        // Arm calls read the halves; hosts keep their packed float32 tables.
        assert!(!plain.code.contains("_f16w"), "{}", plain.code);
        assert_eq!(kept.code.matches("::conv_2d_f32_f16w_blocked(").count(), 1, "{}", kept.code);
        assert_eq!(kept.code.matches("fully_connected_f32_f16w_blocked(").count(), 2, "{}", kept.code);
        assert_eq!(kept.code.matches("depthwise_conv_2d_f32_f16w_blocked(").count(), 1, "{}", kept.code);
        assert!(kept.code.contains("conv_2d_f32_packed(") && kept.code.contains("fully_connected_f32_packed("), "{}", kept.code);
        assert!(kept.code.contains("depthwise_conv_2d_f32_packed("), "{}", kept.code);
        let arm = |c: &crate::Compiled| c.scoped_weights.iter().find(|(s, _)| *s == "arm").map_or(0, |(_, b)| b.len()) + c.weights.len();
        // 72 + 180 + 25 float32 weights (1,108 bytes, packed in blocks of four channels:
        // 1,168) become half as many bytes.
        assert!(arm(&kept) + 550 <= arm(&plain), "arm blob {} with, {} without", arm(&kept), arm(&plain));
    }

    /// What the converter emits for a Keras model with a `None` batch before its classifier
    /// (`keras.applications.MobileNetV3Small` and the like): the batch read back from SHAPE,
    /// packed with the flattened size into RESHAPE's shape operand.
    fn none_batch_model() -> (Vec<u8>, [TensorId; 2]) {
        use crate::ir::{Activation, FullyConnectedOptions, StridedSliceOptions};
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[1, 2, 2, 3], Some((0.05, -3)));
        let shape = m.activation("shape", DType::I32, &[4], None);
        let begin = m.constant_i32("begin", &[1], &[0], None);
        let end = m.constant_i32("end", &[1], &[1], None);
        let strides = m.constant_i32("strides", &[1], &[1], None);
        let batch = m.activation("batch", DType::I32, &[], None);
        let flat = m.constant_i32("flat", &[], &[12], None);
        let new_shape = m.activation("new_shape", DType::I32, &[2], None);
        let flattened = m.activation("flattened", DType::I8, &[1, 12], Some((0.05, -3)));
        let w: Vec<i8> = (0..4 * 12).map(|i| ((i * 37) % 255 - 127) as i8).collect();
        let w = m.constant_i8("w", &[4, 12], &w, Some((0.01, 0)));
        let b = m.constant_i32("b", &[4], &[100, -200, 300, -400], Some((0.0005, 0)));
        let y = m.activation("y", DType::I8, &[1, 4], Some((0.1, 5)));
        m.op(OpKind::Shape, &[Some(x)], &[shape]);
        let slice = StridedSliceOptions { shrink_axis_mask: 1, ..Default::default() };
        m.op(OpKind::StridedSlice(slice), &[Some(shape), Some(begin), Some(end), Some(strides)], &[batch]);
        m.op(OpKind::Pack { values_count: 2, axis: 0 }, &[Some(batch), Some(flat)], &[new_shape]);
        m.op(OpKind::Reshape { new_shape: None }, &[Some(x), Some(new_shape)], &[flattened]);
        let fc = FullyConnectedOptions { activation: Activation::None, ..Default::default() };
        m.op(OpKind::FullyConnected(fc), &[Some(flattened), Some(w), Some(b)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        (m.finish(), [x, y])
    }

    #[test]
    fn shape_chain_folds_and_the_model_compiles() {
        let (bytes, _) = none_batch_model();
        let model = crate::passes::read_model(&bytes).unwrap();
        let folded = FoldedModel::of(&model);
        let ops: Vec<usize> = folded.subgraphs[0].ops.iter().map(|(op, _)| op.index()).collect();
        // SHAPE, STRIDED_SLICE and PACK fold; RESHAPE of the activation stays (a view), the FC runs.
        assert_eq!(ops, [0, 1, 2]);
        let applied = folded.apply(&model);
        let sg = applied.main();
        let data = |t: usize| sg.tensors[TensorId::new(t)].data.map(|d| d.to_vec());
        assert_eq!(data(1), Some([1i32, 2, 2, 3].iter().flat_map(|v| v.to_le_bytes()).collect()));
        assert_eq!(data(5), Some(1i32.to_le_bytes().to_vec()));
        assert_eq!(data(7), Some([1i32, 12].iter().flat_map(|v| v.to_le_bytes()).collect()));
        // The model compiles: three ops folded, RESHAPE a view, one kernel call (the FC).
        let code = crate::compile(&bytes, &crate::CompileOptions::default()).unwrap().code;
        assert_eq!(code.matches("folded at compile time, no code").count(), 3, "{code}");
        assert!(code.contains("fully_connected"), "{code}");
        // And it computes what the same graph without the shape chain computes (a RESHAPE
        // with a constant shape operand).
        let input: Vec<u8> = (0..12).map(|i| (i * 21) as u8).collect();
        let got = crate::interp::run(&model, &[&input]).unwrap();
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[1, 2, 2, 3], Some((0.05, -3)));
        let new_shape = m.constant_i32("new_shape", &[2], &[1, 12], None);
        let flattened = m.activation("flattened", DType::I8, &[1, 12], Some((0.05, -3)));
        let w: Vec<i8> = (0..4 * 12).map(|i| ((i * 37) % 255 - 127) as i8).collect();
        let w = m.constant_i8("w", &[4, 12], &w, Some((0.01, 0)));
        let b = m.constant_i32("b", &[4], &[100, -200, 300, -400], Some((0.0005, 0)));
        let y = m.activation("y", DType::I8, &[1, 4], Some((0.1, 5)));
        m.op(OpKind::Reshape { new_shape: None }, &[Some(x), Some(new_shape)], &[flattened]);
        let fc = crate::ir::FullyConnectedOptions { activation: crate::ir::Activation::None, ..Default::default() };
        m.op(OpKind::FullyConnected(fc), &[Some(flattened), Some(w), Some(b)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let plain = m.finish();
        let want = crate::interp::run(&crate::passes::read_model(&plain).unwrap(), &[&input]).unwrap();
        assert_eq!(got, want);
    }

    #[test]
    fn arithmetic_on_constants_folds_through_its_kernel() {
        // ADD of two int8 constants (with its requantization): the folded constant is what
        // the ADD kernel computes, and the graph's second ADD reads it as a weight.
        let mut m = ModelBuilder::new();
        let a = m.constant_i8("a", &[6], &[-128, -5, 0, 7, 100, 127], Some((0.02, 1)));
        let b = m.constant_i8("b", &[6], &[127, 3, -9, 7, 50, 127], Some((0.03, -2)));
        let c = m.activation("c", DType::I8, &[6], Some((0.04, 0)));
        let x = m.activation("x", DType::I8, &[6], Some((0.04, 0)));
        let y = m.activation("y", DType::I8, &[6], Some((0.08, 3)));
        m.op(OpKind::Add { activation: crate::ir::Activation::None }, &[Some(a), Some(b)], &[c]);
        m.op(OpKind::Add { activation: crate::ir::Activation::None }, &[Some(x), Some(c)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let bytes = m.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        let folded = FoldedModel::of(&model);
        assert_eq!(folded.subgraphs[0].ops, [(crate::ir::OpId::new(0), vec![c])]);
        // The constant equals the ADD kernel's output on the same operands.
        let sg = model.main();
        let kernel = crate::lower::ops::lower(sg, &sg.ops[crate::ir::OpId::new(0)]).unwrap();
        let mut store = TensorStore::with_constants(sg);
        kernel.execute(&mut store).unwrap();
        let want = store.get(c).unwrap().to_le_bytes();
        let applied = folded.apply(&model);
        assert_eq!(applied.main().tensor(c).data.map(|d| d.to_vec()), Some(want));
        let code = crate::compile(&bytes, &crate::CompileOptions::default()).unwrap().code;
        assert_eq!(code.matches("folded at compile time, no code").count(), 1, "{code}");
    }

    #[test]
    fn outputs_variables_and_activations_are_not_folded() {
        // A constant-input op whose output is the graph's output stays a kernel call.
        let mut m = ModelBuilder::new();
        let a = m.constant_i8("a", &[3], &[1, 2, 3], Some((0.5, 0)));
        let b = m.constant_i8("b", &[3], &[4, 5, 6], Some((0.5, 0)));
        let x = m.activation("x", DType::I8, &[3], Some((0.5, 0)));
        let y = m.activation("y", DType::I8, &[3], Some((1.0, 0)));
        let z = m.activation("z", DType::I8, &[3], Some((1.0, 0)));
        m.op(OpKind::Add { activation: crate::ir::Activation::None }, &[Some(a), Some(b)], &[y]);
        m.op(OpKind::Add { activation: crate::ir::Activation::None }, &[Some(x), Some(b)], &[z]);
        m.inputs(&[x]).outputs(&[y, z]);
        let bytes = m.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        assert!(FoldedModel::of(&model).subgraphs[0].ops.is_empty());
    }
}
