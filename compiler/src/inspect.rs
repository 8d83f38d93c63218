//! `tflc inspect`: a summary of a model for people (`render_text`) and scripts (JSON).
//!
//! Lowers each subgraph once ([`lower_subgraph`]): MACs are the lowered ops' capability,
//! unsupported operators are the lowering errors.

use crate::error::LowerError;
use crate::ir::{DType, Model, Tensor, TensorId};
use crate::lower::lower_subgraph;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Everything `tflc inspect` reports.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Number of subgraphs in the file.
    pub subgraphs: usize,
    /// Subgraph 0's inputs, in the subgraph's order.
    pub inputs: Vec<IoInfo>,
    /// Subgraph 0's outputs, in the subgraph's order.
    pub outputs: Vec<IoInfo>,
    /// The operators of every subgraph, subgraph by subgraph, in file order.
    pub operators: Vec<OpInfo>,
    /// The tensors of every subgraph.
    pub tensors: Vec<TensorInfo>,
    /// Bytes of constant data (each buffer counted once).
    pub weight_bytes: usize,
    /// Bytes of all non-constant tensors of subgraph 0 (the arena if nothing were reused).
    pub activation_bytes: usize,
    /// Multiply-accumulates of one pass over every operator of every subgraph (saturating).
    pub total_macs: u64,
    /// Operators that tflc cannot compile, with the reason.
    pub unsupported: Vec<UnsupportedOp>,
    /// Operators folded at compile time (`passes::fold`): SHAPE, a DEQUANTIZE of a constant,
    /// any operator on constants; their outputs become constants in flash, no code runs.
    pub folded: Vec<FoldedOp>,
    /// Subgraph 0's memory plan as `tflc compile` would make it (or why it cannot be made).
    pub plan: PlanInfo,
    /// Constants the file stores sparse (TFLite's `SparsityParameters`), densified at
    /// compile time.
    pub sparse: Vec<SparseInfo>,
    /// int4 constants (TFLite's packed `INT4`), and whether compiling unpacks them to int8.
    pub int4: Vec<Int4Info>,
    /// The int4 filters a default compile keeps packed for Arm and RV32.
    pub int4_kept: KeptInt4,
    /// TFLite Micro's compressed tensors (TFLM_DECODE outputs): bytes stored, decoded, and
    /// in flash as a default compile lays them out.
    pub compressed: CompressedWeights,
}

/// TFLite Micro's compressed tensors (the outputs of folded TFLM_DECODE ops) of a model,
/// and what they take in flash as compiled: the value tables and indices of those the
/// `_lut` kernels read compressed, the decoded bytes of the others (Huffman, prune, or
/// with `decode_weights`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CompressedWeights {
    /// Compressed tensors.
    pub tensors: usize,
    /// Of them, kept compressed in flash.
    pub kept: usize,
    /// Bytes the file stores for them (encoded data plus ancillary data).
    pub stored_bytes: usize,
    /// Bytes of their decoded form.
    pub decoded_bytes: usize,
    /// Bytes they take in the weight blob as compiled.
    pub flash_bytes: usize,
}

/// [`CompressedWeights`] of `model` (folded, as lowered) given what the lowered kernels keep
/// compressed (`Kernel::kept_compressed`: per subgraph and tensor, the blob bytes; a tensor
/// read compressed by several ops counts each copy).
pub fn compressed_weights(model: &Model<'_>, kept: &BTreeMap<(usize, TensorId), usize>) -> CompressedWeights {
    let mut c = CompressedWeights::default();
    for sg in model.subgraphs.iter() {
        let s = sg.id.index();
        for op in sg.ops.iter().filter(|o| sg.folded.contains(&o.id) && matches!(&o.opcode, crate::ir::OpCode::Custom(n) if n == "TFLM_DECODE")) {
            for (k, &y) in op.outputs.iter().enumerate() {
                let data = |i: usize| op.inputs.get(i).copied().flatten().and_then(|t| sg.tensors.get(t)).and_then(|t| t.data).map_or(0, <[u8]>::len);
                let decoded = sg.tensors.get(y).and_then(|t| t.data).map_or(0, <[u8]>::len);
                c.tensors += 1;
                c.stored_bytes += data(2 * k) + data(2 * k + 1);
                c.decoded_bytes += decoded;
                match kept.get(&(s, y)) {
                    Some(&b) => {
                        c.kept += 1;
                        c.flash_bytes += b;
                    }
                    None => c.flash_bytes += decoded,
                }
            }
        }
    }
    c
}

/// The int4 filters a compile keeps packed in the microcontroller builds' flash (Arm and
/// 32-bit RISC-V; `Kernel::kept_int4`), whose kernels unpack them as they read them; hosts
/// (and every target with `decode_weights`) read them unpacked to int8.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct KeptInt4 {
    /// Filters read packed (a tensor read by several ops counts once per op).
    pub filters: usize,
    /// Bytes of their nibbles in the microcontroller builds' weight blob.
    pub packed_bytes: usize,
    /// Bytes the same filters take unpacked to int8.
    pub unpacked_bytes: usize,
}

/// [`KeptInt4`] of the lowered subgraphs (`kept`: per op, the tensor and its packed bytes).
pub fn kept_int4(model: &Model<'_>, kept: &[(usize, TensorId, usize)]) -> KeptInt4 {
    let mut k = KeptInt4::default();
    for &(s, t, bytes) in kept {
        k.filters += 1;
        k.packed_bytes += bytes;
        k.unpacked_bytes += model.subgraphs.as_slice().get(s).map_or(0, |sg| sg.tensor(t).num_elements());
    }
    k
}

#[derive(Debug, Clone, Serialize)]
/// An int4 constant: the bytes the file stores (two elements a byte) and the bytes of its
/// int8 form, which the compile uses when it unpacks it (`passes::fold`).
pub struct Int4Info {
    /// Its subgraph's index.
    pub subgraph: usize,
    /// The tensor's index in the subgraph.
    pub tensor: TensorId,
    /// Its name.
    pub name: String,
    /// Its shape.
    pub shape: Vec<usize>,
    /// Bytes the file stores (packed).
    pub stored_bytes: usize,
    /// Bytes of the unpacked int8 form (one per element).
    pub unpacked_bytes: usize,
    /// Whether compiling unpacks it (every reader takes it as an int8 filter or DEQUANTIZE
    /// input); if not, the operators reading it refuse it.
    pub unpacked: bool,
}

#[derive(Debug, Clone, Serialize)]
/// A constant the file stores sparse, and what its dense form takes in flash.
pub struct SparseInfo {
    /// Its subgraph's index.
    pub subgraph: usize,
    /// The tensor's index in the subgraph.
    pub tensor: TensorId,
    /// Its name.
    pub name: String,
    /// Its element type.
    pub dtype: DType,
    /// Its (dense) shape.
    pub shape: Vec<usize>,
    /// The storage format in short (`CSR in d1, blocks 4 over dims [1], uint8 indices`).
    pub format: String,
    /// Values the file stores.
    pub stored_values: usize,
    /// Elements of the dense tensor.
    pub dense_elements: usize,
    /// Bytes of the stored values in the file.
    pub stored_bytes: usize,
    /// Bytes of the segment and index vectors in the file.
    pub index_bytes: usize,
    /// Bytes of the dense tensor.
    pub dense_bytes: usize,
    /// The constants kernels read from flash in its place: the tensor itself (densified)
    /// when a kernel reads it, else what the folded operators made of it (DENSIFY's output,
    /// or a DEQUANTIZE's float32 after it); each with its type and bytes.
    pub in_flash: Vec<FlashConstant>,
}

#[derive(Debug, Clone, Serialize)]
/// A constant in flash.
pub struct FlashConstant {
    /// The tensor.
    pub tensor: TensorId,
    /// Its element type.
    pub dtype: DType,
    /// Its bytes.
    pub bytes: usize,
}

/// The sparse constants of `model` (as read) and, following the folded operators from each,
/// the constants that kernels read in its place.
fn sparse_infos(model: &Model<'_>, folding: &crate::passes::fold::FoldedModel) -> Vec<SparseInfo> {
    let mut out = Vec::new();
    for (sg, folded) in model.subgraphs.iter().zip(&folding.subgraphs) {
        for t in sg.tensors.iter() {
            let (Some(sp), Some(data)) = (&t.sparsity, t.data) else { continue };
            let Ok(layout) = sp.check(&t.shape, t.dtype, data.len()) else { continue };
            // Walk the folded operators downstream of `t`; a tensor some unfolded operator
            // reads is in flash.
            let mut in_flash = Vec::new();
            let mut pending = vec![t.id];
            let mut seen = BTreeSet::new();
            while let Some(x) = pending.pop() {
                if !seen.insert(x) {
                    continue;
                }
                let readers = sg.ops.iter().filter(|o| o.inputs.contains(&Some(x)));
                let mut kernel_reads = false;
                for o in readers {
                    if folded.contains(o.id) {
                        pending.extend(o.outputs.iter().copied());
                    } else {
                        kernel_reads = true;
                    }
                }
                if kernel_reads {
                    let xt = sg.tensor(x);
                    in_flash.push(FlashConstant { tensor: x, dtype: xt.dtype, bytes: xt.byte_size().unwrap_or(0) });
                }
            }
            in_flash.sort_by_key(|f| f.tensor);
            out.push(SparseInfo {
                subgraph: sg.id.index(),
                tensor: t.id,
                name: t.name.clone(),
                dtype: t.dtype,
                shape: t.shape.clone(),
                format: sp.describe(),
                stored_values: layout.stored,
                dense_elements: layout.dense_elements,
                stored_bytes: layout.stored_bytes(),
                index_bytes: sp.index_bytes(),
                dense_bytes: layout.dense_bytes(),
                in_flash,
            });
        }
    }
    out
}

/// What the planner proved about subgraph 0 (`tflc plan` has the details).
#[derive(Debug, Clone, Serialize)]
pub struct PlanInfo {
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Arena size in bytes, when a plan was made.
    pub arena_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// No placement of the chosen order fits in fewer bytes, when a plan was made.
    pub lower_bound_bytes: Option<u64>,
    /// The chosen order's peak of live bytes is minimal over all orders.
    pub order_optimal: bool,
    /// `arena_bytes` is minimal for the chosen order.
    pub offsets_optimal: bool,
    /// The planner's work budget ran out (the plan is valid, not proven optimal).
    pub budget_exhausted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Why no plan could be made.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
/// An operator folded at compile time.
pub struct FoldedOp {
    /// Its subgraph's index.
    pub subgraph: usize,
    /// Its index in the subgraph.
    pub index: usize,
    /// Its opcode (`DEQUANTIZE`, `CUSTOM:Name`).
    pub opcode: String,
    /// The tensors that became constant.
    pub tensors: Vec<TensorId>,
}

#[derive(Debug, Clone, Serialize)]
/// A model input or output.
pub struct IoInfo {
    /// The tensor's index in subgraph 0.
    pub tensor: TensorId,
    /// The tensor's name.
    pub name: String,
    /// Its element type.
    pub dtype: DType,
    /// Its (static) shape.
    pub shape: Vec<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The file's `shape_signature`, where a `-1` marks a dimension the converter left dynamic.
    pub shape_signature: Option<Vec<i32>>,
    /// `shape_signature` marks a dimension as dynamic (`shape` holds the size it was fixed to).
    pub dynamic_signature: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Per-tensor quantization scale, when quantized.
    pub scale: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Per-tensor quantization zero point, when quantized.
    pub zero_point: Option<i64>,
}

#[derive(Debug, Clone, Serialize)]
/// An operator.
pub struct OpInfo {
    /// Its subgraph's index.
    pub subgraph: usize,
    /// Its index in the subgraph.
    pub index: usize,
    /// Its opcode (`CONV_2D`, `CUSTOM:Name`).
    pub opcode: String,
    /// Tensor indices; `-1` for an omitted optional input.
    pub inputs: Vec<i64>,
    /// Output tensor indices.
    pub outputs: Vec<i64>,
    /// The shape of each input (`None` for an omitted optional input).
    pub input_shapes: Vec<Option<Vec<usize>>>,
    /// The shape of each output.
    pub output_shapes: Vec<Vec<usize>>,
    /// Multiply-accumulates of one run (counted from its shapes, whether or not it lowers).
    pub macs: u64,
}

#[derive(Debug, Clone, Serialize)]
/// A tensor.
pub struct TensorInfo {
    /// Its subgraph's index.
    pub subgraph: usize,
    /// Its index in the subgraph.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Its element type.
    pub dtype: DType,
    /// Its (static) shape.
    pub shape: Vec<usize>,
    /// It has constant data in the file.
    pub constant: bool,
    /// It is a variable (state kept across runs).
    pub variable: bool,
    /// Its size in bytes (`None` when the type has no fixed size, or it overflows).
    pub bytes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Its quantization, when it has one.
    pub quantization: Option<crate::ir::Quantization>,
}

#[derive(Debug, Clone, Serialize)]
/// An operator tflc cannot compile.
pub struct UnsupportedOp {
    /// Its subgraph's index.
    pub subgraph: usize,
    /// Its index in the subgraph.
    pub index: usize,
    /// Its opcode.
    pub opcode: String,
    /// Why it does not lower.
    pub reason: String,
}

fn with_tensor(reason: String, at: &crate::error::Location) -> String {
    match (at.tensor_index, &at.tensor_name) {
        (Some(i), Some(n)) => format!("{reason} (tensor {i} \"{}\")", n.split(';').next().unwrap_or("")),
        _ => reason,
    }
}

fn io_info(t: &Tensor<'_>) -> IoInfo {
    let pt = t.quant.as_ref().and_then(|q| q.per_tensor());
    IoInfo {
        tensor: t.id,
        name: t.name.clone(),
        dtype: t.dtype,
        shape: t.shape.clone(),
        shape_signature: t.shape_signature.clone(),
        dynamic_signature: t.has_dynamic_signature(),
        scale: pt.map(|p| p.0),
        zero_point: pt.map(|p| p.1),
    }
}

/// Builds the summary of a model.
pub fn summarize(model: &Model<'_>) -> Summary {
    // A model whose resource variables do not resolve is shown as read (lowering then
    // names the operators).
    let resolved = crate::passes::resources::resolve(model).ok().flatten();
    let model = resolved.as_ref().map_or(model, |r| &r.0);
    let folding = crate::passes::fold::FoldedModel::of(model);
    let sparse = sparse_infos(model, &folding);
    let read = model;
    let int4: Vec<Int4Info> = model
        .subgraphs
        .iter()
        .zip(&folding.subgraphs)
        .flat_map(|(sg, f)| {
            sg.tensors.iter().filter(|t| t.dtype == DType::I4 && t.is_constant()).map(move |t| Int4Info {
                subgraph: sg.id.index(),
                tensor: t.id,
                name: t.name.clone(),
                shape: t.shape.clone(),
                stored_bytes: t.data.map_or(0, <[u8]>::len),
                unpacked_bytes: t.num_elements(),
                unpacked: f.unpacked_int4.contains(&t.id),
            })
        })
        .collect();
    // As a default compile folds: LUT-compressed filters kept for the `_lut` kernels.
    let model = &folding.apply_with(model, crate::passes::fold::KeptWeights { f16: false, lut: true, int4: true });
    let folded = folding
        .subgraphs
        .iter()
        .enumerate()
        .flat_map(|(s, f)| f.ops.iter().map(move |(op, tensors)| (s, *op, tensors)))
        .map(|(s, op, tensors)| FoldedOp { subgraph: s, index: op.index(), opcode: model.subgraphs.as_slice()[s].ops[op].opcode.to_string(), tensors: tensors.clone() })
        .collect();
    let main = model.main();
    let mut operators = Vec::new();
    let mut tensors = Vec::new();
    let mut unsupported = Vec::new();
    let mut weight_buffers = BTreeSet::new();
    let mut weight_bytes = 0;
    let mut total_macs: u64 = 0;
    let mut kept = BTreeMap::new();
    let mut int4_kept = Vec::new();
    for sg in model.subgraphs.iter() {
        let s = sg.id.index();
        let lowered = lower_subgraph(sg);
        total_macs = total_macs.saturating_add(lowered.total_macs());
        for (t, b) in lowered.ops.iter().filter_map(|l| l.kernel.as_ref().ok()?.kept_compressed()) {
            *kept.entry((s, t)).or_insert(0) += b;
        }
        int4_kept.extend(lowered.ops.iter().filter_map(|l| l.kernel.as_ref().ok()?.kept_int4()).map(|(t, b)| (s, t, b)));
        for (op, l) in sg.ops.iter().zip(lowered.ops.iter()) {
            let m = l.caps.macs;
            operators.push(OpInfo {
                subgraph: s,
                index: op.id.index(),
                opcode: op.opcode.to_string(),
                inputs: op.inputs.iter().map(|t| t.map_or(-1, |t| t.index() as i64)).collect(),
                outputs: op.outputs.iter().map(|t| t.index() as i64).collect(),
                input_shapes: op.inputs.iter().map(|t| t.map(|t| sg.tensor(t).shape.clone())).collect(),
                output_shapes: op.outputs.iter().map(|&t| sg.tensor(t).shape.clone()).collect(),
                macs: m,
            });
            // What the compiler would say: lowering's error (the IR's
            // `Operator::unsupported_reason` for unknown and custom ops, then the kernel's
            // checks of element types, shapes, options).
            let reason = match &l.kernel {
                Ok(_) => None,
                Err(LowerError::Unsupported { reason, at }) => Some(with_tensor(reason.clone(), at)),
                Err(e @ LowerError::Invalid { .. }) => Some(format!("invalid: {e}")),
            };
            if let Some(reason) = reason {
                unsupported.push(UnsupportedOp { subgraph: s, index: op.id.index(), opcode: op.opcode.to_string(), reason });
            }
        }
        let densified = folding.subgraphs.get(s).map(|f| &f.densified);
        // TFLM_DECODE's outputs: the file stores their encoded inputs (counted as
        // themselves), not the decoded bytes (`compressed` reports both).
        let decoded: BTreeSet<TensorId> = sg
            .ops
            .iter()
            .filter(|o| sg.folded.contains(&o.id) && matches!(&o.opcode, crate::ir::OpCode::Custom(n) if n == "TFLM_DECODE"))
            .flat_map(|o| o.outputs.iter().copied())
            .collect();
        for t in sg.tensors.iter() {
            if decoded.contains(&t.id) {
                // Not stored by the file.
            } else if densified.is_some_and(|d| d.contains(&t.id)) {
                // Count what the file stores, not the compiler's dense copy (the constants
                // kernels read in its place are counted as themselves).
                weight_bytes += sparse.iter().find(|i| i.subgraph == s && i.tensor == t.id).map_or(0, |i| i.stored_bytes + i.index_bytes);
            } else if let Some(&packed) = sg.int4_packed.get(&t.id) {
                // An unpacked int4 constant: count what the file stores.
                if weight_buffers.insert((packed.as_ptr() as usize, packed.len())) {
                    weight_bytes += packed.len();
                }
            } else if let Some(d) = t.data {
                // Tensors may share a buffer; count each byte range once.
                if weight_buffers.insert((d.as_ptr() as usize, d.len())) {
                    weight_bytes += d.len();
                }
            }
            // Tensors as the file stores them (an unpacked int4 constant is int4 here).
            let as_read = read.subgraphs.as_slice().get(s).map_or(t, |r| r.tensor(t.id));
            tensors.push(TensorInfo {
                subgraph: s,
                index: t.id.index(),
                name: t.name.clone(),
                dtype: as_read.dtype,
                shape: t.shape.clone(),
                constant: t.is_constant(),
                variable: t.is_variable,
                bytes: as_read.byte_size(),
                quantization: t.quant.clone(),
            });
        }
    }
    let activation_bytes = main.tensors.iter().filter(|t| !t.is_constant()).filter_map(|t| t.byte_size()).sum();
    let lowered = lower_subgraph(main);
    let plan = match crate::plan::plan_subgraph(main, &crate::plan::PlanOptions::default().with_caps(lowered.memory_caps())) {
        Ok(sp) => PlanInfo {
            arena_bytes: Some(sp.plan.arena_bytes),
            lower_bound_bytes: Some(sp.plan.lower_bound_bytes),
            order_optimal: sp.plan.order_optimal,
            offsets_optimal: sp.plan.offsets_optimal,
            budget_exhausted: sp.plan.stats.budget_exhausted,
            error: None,
        },
        Err(e) => PlanInfo {
            arena_bytes: None,
            lower_bound_bytes: None,
            order_optimal: false,
            offsets_optimal: false,
            budget_exhausted: false,
            error: Some(e.to_string()),
        },
    };
    Summary {
        subgraphs: model.subgraphs.len(),
        inputs: main.inputs.iter().map(|&t| io_info(main.tensor(t))).collect(),
        outputs: main.outputs.iter().map(|&t| io_info(main.tensor(t))).collect(),
        operators,
        tensors,
        weight_bytes,
        activation_bytes,
        total_macs,
        unsupported,
        plan,
        folded,
        sparse,
        int4,
        int4_kept: kept_int4(model, &int4_kept),
        compressed: compressed_weights(model, &kept),
    }
}

impl Summary {
    /// The summary as pretty-printed JSON (`tflc inspect --json`).
    pub fn to_json(&self) -> String {
        // Serializing plain data structures cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The human-readable report.
    pub fn render_text(&self, title: &str) -> String {
        let mut s = String::new();
        let n_ops = self.operators.len();
        let _ = writeln!(s, "{title}: {} subgraph(s), {n_ops} operator(s)", self.subgraphs);
        for (label, list) in [("inputs", &self.inputs), ("outputs", &self.outputs)] {
            let _ = writeln!(s, "\n{label}:");
            for io in list {
                let _ = write!(s, "  {} {:?} {}{}", io.tensor, io.name, io.dtype, fmt_shape(&io.shape));
                if let (Some(sc), Some(zp)) = (io.scale, io.zero_point) {
                    let _ = write!(s, " scale={sc} zero_point={zp}");
                }
                if io.dynamic_signature {
                    if let Some(sig) = &io.shape_signature {
                        let _ = write!(s, " (signature {sig:?} is dynamic; compiled for {})", fmt_shape(&io.shape));
                    }
                }
                s.push('\n');
            }
        }
        let mut current_sg = usize::MAX;
        for op in &self.operators {
            if op.subgraph != current_sg {
                current_sg = op.subgraph;
                let _ = writeln!(s, "\noperators of subgraph {current_sg}:");
                let _ = writeln!(s, "  {:>4}  {:<28} {:<60} {:>12}", "op", "opcode", "inputs -> outputs", "MACs");
            }
            let ins: Vec<String> = op
                .inputs
                .iter()
                .zip(&op.input_shapes)
                .map(|(t, sh)| match sh {
                    Some(sh) => format!("t{t}{}", fmt_shape(sh)),
                    None => "-".to_owned(),
                })
                .collect();
            let outs: Vec<String> =
                op.outputs.iter().zip(&op.output_shapes).map(|(t, sh)| format!("t{t}{}", fmt_shape(sh))).collect();
            let io = format!("{} -> {}", ins.join(", "), outs.join(", "));
            let macs = if op.macs > 0 { group(op.macs) } else { String::new() };
            let _ = writeln!(s, "  {:>4}  {:<28} {:<60} {:>12}", op.index, op.opcode, io, macs);
        }
        let _ = writeln!(s, "\nweights:     {} bytes", group(self.weight_bytes as u64));
        let _ = writeln!(s, "activations: {} bytes (sum of all, before planning)", group(self.activation_bytes as u64));
        let proven = |p: bool| if p { "optimal" } else { "heuristic" };
        match (&self.plan.error, self.plan.arena_bytes, self.plan.lower_bound_bytes) {
            (Some(e), _, _) => {
                let _ = writeln!(s, "arena:       cannot be planned: {e}");
            }
            (None, Some(a), Some(lb)) => {
                let _ = writeln!(
                    s,
                    "arena:       {} bytes (lower bound {}; order {}, offsets {}{})",
                    group(a),
                    group(lb),
                    proven(self.plan.order_optimal),
                    proven(self.plan.offsets_optimal),
                    if self.plan.budget_exhausted { "; work budget exhausted" } else { "" }
                );
            }
            _ => {}
        }
        let _ = writeln!(s, "MACs:        {}", group(self.total_macs));
        if !self.folded.is_empty() {
            let _ = writeln!(
                s,
                "folded:      {} operator(s) evaluated at compile time: their results are constants in flash, no code at run time",
                self.folded.len()
            );
            for f in &self.folded {
                let outs: Vec<String> = f.tensors.iter().map(|t| t.to_string()).collect();
                let sg = if f.subgraph == 0 { String::new() } else { format!("subgraph {} ", f.subgraph) };
                let _ = writeln!(s, "  {sg}op {} {} -> {}", f.index, f.opcode, outs.join(", "));
            }
        }
        if !self.int4.is_empty() {
            let stored: usize = self.int4.iter().map(|i| i.stored_bytes).sum();
            let unpacked: usize = self.int4.iter().filter(|i| i.unpacked).map(|i| i.unpacked_bytes).sum();
            let _ = writeln!(
                s,
                "int4:        {} constant(s), {} bytes stored packed, {} bytes unpacked to int8",
                self.int4.len(),
                group(stored as u64),
                group(unpacked as u64)
            );
            let k = &self.int4_kept;
            if k.filters > 0 {
                let _ = writeln!(
                    s,
                    "  kept packed for Arm and RV32: {} filter(s), {} bytes in flash there instead of {} (hosts and --decode-weights unpack them)",
                    k.filters,
                    group(k.packed_bytes as u64),
                    group(k.unpacked_bytes as u64)
                );
            }
            for i in &self.int4 {
                let sg = if i.subgraph == 0 { String::new() } else { format!("subgraph {} ", i.subgraph) };
                let what = if i.unpacked { format!("unpacked: {} bytes", group(i.unpacked_bytes as u64)) } else { "not unpacked (refused by its readers)".to_owned() };
                let _ = writeln!(s, "  {sg}{} {:?} int4{}: {} bytes stored, {what}", i.tensor, i.name, fmt_shape(&i.shape), group(i.stored_bytes as u64));
            }
        }
        let c = &self.compressed;
        if c.tensors > 0 {
            let _ = writeln!(
                s,
                "compressed:  {} TFLite Micro compressed tensor(s) (TFLM_DECODE): {} bytes stored, {} bytes decoded; in flash as compiled {} bytes ({} kept compressed, the rest decoded; --decode-weights decodes all)",
                c.tensors,
                group(c.stored_bytes as u64),
                group(c.decoded_bytes as u64),
                group(c.flash_bytes as u64),
                c.kept
            );
        }
        if !self.sparse.is_empty() {
            let _ = writeln!(s, "sparse:      {} constant(s) stored sparse, densified at compile time", self.sparse.len());
            for sp in &self.sparse {
                let sg = if sp.subgraph == 0 { String::new() } else { format!("subgraph {} ", sp.subgraph) };
                let flash: Vec<String> = sp
                    .in_flash
                    .iter()
                    .map(|f| format!("{} {} ({} bytes)", f.tensor, f.dtype, group(f.bytes as u64)))
                    .collect();
                let flash = if flash.is_empty() { "no kernel reads it".to_owned() } else { format!("in flash as {}", flash.join(", ")) };
                let _ = writeln!(
                    s,
                    "  {sg}{} {:?} {}{}: {} of {} values stored ({} bytes + {} bytes of indices; {}); dense {} bytes, {flash}",
                    sp.tensor,
                    sp.name.split(';').next().unwrap_or(""),
                    sp.dtype,
                    fmt_shape(&sp.shape),
                    group(sp.stored_values as u64),
                    group(sp.dense_elements as u64),
                    group(sp.stored_bytes as u64),
                    group(sp.index_bytes as u64),
                    sp.format,
                    group(sp.dense_bytes as u64),
                );
            }
        }
        if self.unsupported.is_empty() {
            let _ = writeln!(s, "unsupported: none");
        } else {
            let _ = writeln!(s, "unsupported: {} operator(s)", self.unsupported.len());
            for u in &self.unsupported {
                let sg = if u.subgraph != 0 { format!("subgraph {}, ", u.subgraph) } else { String::new() };
                let _ = writeln!(s, "  {sg}op {} {}: {}", u.index, u.opcode, u.reason);
            }
        }
        s
    }
}

use crate::text::{group, shape as fmt_shape};

#[cfg(test)]
mod tests {
    use super::*;

    /// MACs come from the lowered ops' capabilities, unsupported operators from the
    /// lowering errors (the IR's reason for a custom op, the kernel's for a bad tensor).
    #[test]
    fn macs_and_unsupported_come_from_lowering() {
        let bytes = crate::testing::models::tiny_cnn();
        let model = crate::passes::read_model(&bytes).unwrap();
        let s = summarize(&model);
        let lowered = lower_subgraph(model.main());
        assert!(s.total_macs > 0);
        assert_eq!(s.total_macs, lowered.total_macs());
        for (info, l) in s.operators.iter().zip(lowered.ops.iter()) {
            assert_eq!(info.macs, l.caps.macs);
        }
        assert!(s.unsupported.is_empty());

        // A custom operator tflc has no kernel for is the caller's: it compiles.
        let model_bytes = crate::testing::models::unsupported_custom_op();
        let model = crate::passes::read_model(&model_bytes).unwrap();
        assert!(summarize(&model).unsupported.is_empty());
        let model_bytes = crate::testing::models::dynamic_custom_op();
        let model = crate::passes::read_model(&model_bytes).unwrap();
        let s = summarize(&model);
        assert_eq!(s.unsupported.len(), 1);
        assert!(s.unsupported[0].reason.contains("unknown at compile time"), "{}", s.unsupported[0].reason);

        let model_bytes = crate::testing::models::unsupported_int16_conv();
        let model = crate::passes::read_model(&model_bytes).unwrap();
        let s = summarize(&model);
        assert_eq!(s.unsupported.len(), 1);
        assert!(s.unsupported[0].reason.contains("int32 bias on int16 activations (tflc implements the int64 bias) (tensor"), "{}", s.unsupported[0].reason);
        // An operator that does not lower still reports its MACs.
        assert!(s.operators[0].macs > 0 && s.total_macs == s.operators[0].macs);
    }

    /// Sparse constants are listed with their stored and dense sizes, and the constants
    /// kernels read in their place (through DENSIFY, and DEQUANTIZE for float16).
    #[test]
    fn sparse_constants_are_listed_with_their_flash_size() {
        let bytes = crate::testing::models::sparse_weights();
        let model = crate::passes::read_model(&bytes).unwrap();
        let s = summarize(&model);
        assert!(s.unsupported.is_empty(), "{:?}", s.unsupported);
        assert_eq!(s.sparse.len(), 2);
        let conv = &s.sparse[0];
        assert_eq!((conv.tensor.index(), conv.dtype, conv.dense_elements, conv.dense_bytes), (1, DType::F16, 72, 144));
        assert_eq!(conv.stored_bytes, conv.stored_values * 2);
        assert_eq!(conv.in_flash.iter().map(|f| (f.tensor.index(), f.dtype, f.bytes)).collect::<Vec<_>>(), [(3, DType::F32, 288)]);
        let fc = &s.sparse[1];
        assert_eq!((fc.dense_elements, fc.dense_bytes, fc.stored_values), (192, 768, 96));
        assert_eq!(fc.format, "CSR in d1, blocks 4 over dims [1], uint16 indices");
        assert_eq!(fc.in_flash.len(), 1);
        let text = s.render_text("m");
        assert!(text.contains("sparse:      2 constant(s) stored sparse, densified at compile time"), "{text}");
        assert!(text.contains("t1 \"conv/filter_sparse\" float16[4,3,3,2]: "), "{text}");
        assert!(text.contains("dense 768 bytes, in flash as t8 float32 (768 bytes)"), "{text}");
        assert_eq!(s.folded.len(), 3, "{text}");
    }
}
