//! TFLM_DECODE, TFLite Micro's compressed-tensor decode (`decode.cc` and its `DecodeState`
//! types at 90b983c2b3f1): decoded at compile time. Its inputs are always constants
//! (Prepare requires it), so the decoded tensor is a constant too: this lowering decodes
//! every output into bytes, and constant folding (`passes::fold`, which folds TFLM_DECODE
//! whatever its size) makes them the output's data. No kernel runs on the device.
//!
//! Inputs come in pairs (encoded data, ancillary data), one pair per output. The ancillary
//! tensor starts with the 16-byte Decode Common Metadata: byte 0 the type, byte 1 the DCM
//! version (1), byte 4 the type's own version (1); the type's tables follow at byte 16.
//! - LUT (type 0, `DecodeStateLut`): byte 5's low 3 bits are the index width (1..=7), byte
//!   6 the value table's stride per channel (in elements); the indices are an MSB-first
//!   bit string; element `k` is `table[channel * stride + index_k]`. Channels come from the
//!   output's quantization (one per scale): along axis 0, or, when the quantized dimension
//!   is the last and there are several, interleaved (`use_alternate_axis_`). bool, int8,
//!   int16, int32, int64, float32 (the table holds the output's elements).
//! - Prune (type 2, `DecodeStatePrune`): the encoded data is a bit mask (MSB first), the
//!   table the kept values in order; a cleared bit gives the channel's zero point (int8
//!   outputs with several channels: each channel's; otherwise the first, truncated to
//!   int8, then widened as TFLite Micro's `*buffer++ = single_zero_point_` does; float32
//!   takes the zero pattern of its int32 view). Non-int8 outputs with a non-zero zero point
//!   are refused ("All zero-points must be zero").
//! - Huffman (type 1, `DecodeStateHuffman`): byte 5 gives the table width (bit 0: 32-bit
//!   entries, else 16-bit, int8 output only) and the first lookup's bit count (high
//!   nibble + 1); the codewords are big-endian 32-bit words read as TFLite Micro's
//!   `GetNextBits`/`PutBackBits` do; each symbol is the table entry truncated to the output
//!   type (int8, int16).
//!
//! TFLite Micro does not check its reads against the tensors' sizes; tflc does: an index,
//! table offset or codeword past the data it was given is an error naming the op and tensor.
//! A custom decode type (127) and any other type are refused as TFLite Micro refuses them.
//! Where TFLite Micro's `quantized_dimension` is not 0 on a tensor with one scale (which it
//! refuses), tflc, whose reader keeps the axis of per-channel tensors only, decodes it.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, Tensor, TensorId};
use proc_macro2::TokenStream;
use quote::quote;

/// A TFLM_DECODE, its outputs decoded.
#[derive(Debug, Clone)]
pub struct Decode {
    outputs: Vec<(TensorId, TensorData)>,
}

const DCM_SIZE: usize = 16;
const TYPE_LUT: u8 = 0;
const TYPE_HUFFMAN: u8 = 1;
const TYPE_PRUNE: u8 = 2;
const TYPE_CUSTOM: u8 = 127;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Decode, LowerError> {
    let (n_in, n_out) = (cx.op.inputs.len(), cx.op.outputs.len());
    if n_out == 0 || n_in != 2 * n_out {
        return Err(cx.invalid(format!("TFLite Micro requires one or more outputs and two inputs per output, found {n_in} and {n_out}")));
    }
    let mut outputs = Vec::with_capacity(n_out);
    for k in 0..n_out {
        let (input, ancillary, output) = (cx.input(2 * k)?, cx.input(2 * k + 1)?, cx.output(k)?);
        let data = cx.expect_constant(input)?;
        let anc = cx.expect_constant(ancillary)?;
        if cx.sg.outputs.contains(&output.id) || output.is_variable {
            return Err(cx.unsupported_tensor(output, "a model output or variable tensor: tflc decodes TFLM_DECODE at compile time into a constant"));
        }
        if anc.len() < DCM_SIZE {
            return Err(cx.invalid_tensor(ancillary, format!("{} bytes: the Decode Common Metadata takes 16", anc.len())));
        }
        if anc[1] != 1 {
            return Err(cx.unsupported_tensor(ancillary, format!("DCM version {} (TFLite Micro requires 1)", anc[1])));
        }
        let bytes = match anc[0] {
            TYPE_LUT => lut(cx, data, anc, ancillary, output)?,
            TYPE_PRUNE => prune(cx, data, anc, ancillary, output)?,
            TYPE_HUFFMAN => huffman(cx, data, anc, input, ancillary, output)?,
            TYPE_CUSTOM => return Err(cx.unsupported_tensor(ancillary, "custom decode type 127 (TFLite Micro: \"Custom decode type not yet supported\")")),
            t => return Err(cx.unsupported_tensor(ancillary, format!("decode type {t} (TFLite Micro has LUT 0, Huffman 1, prune 2)"))),
        };
        let d = TensorData::from_le_bytes(output.dtype, &bytes).ok_or_else(|| cx.invalid_tensor(output, "the decoded bytes do not make the output's elements"))?;
        outputs.push((output.id, d));
    }
    Ok(Decode { outputs })
}

/// The type's own version at byte 4 must be 1 (every decode state's `Setup`).
fn type_version(cx: &OpCx<'_, '_>, anc: &[u8], ancillary: &Tensor<'_>) -> Result<(), LowerError> {
    if anc[4] != 1 {
        return Err(cx.unsupported_tensor(ancillary, format!("unsupported version {} (TFLite Micro requires 1)", anc[4])));
    }
    Ok(())
}

/// Element size of the output types LUT and prune decode (`bool` is one byte).
fn element_size(cx: &OpCx<'_, '_>, output: &Tensor<'_>) -> Result<usize, LowerError> {
    match output.dtype {
        DType::Bool | DType::I8 => Ok(1),
        DType::I16 => Ok(2),
        DType::I32 | DType::F32 => Ok(4),
        DType::I64 => Ok(8),
        t => Err(cx.unsupported_tensor(output, format!("unsupported tensor type {t} (TFLite Micro decodes bool, int8, int16, int32, int64, float32)"))),
    }
}

/// `(num_channels, use_alternate_axis, elements_per_channel, count)` from the output's
/// quantization, as the LUT and prune `Setup`s resolve them.
fn channels(cx: &OpCx<'_, '_>, output: &Tensor<'_>) -> Result<(usize, bool, usize, usize), LowerError> {
    let count = output.num_elements();
    let (mut n, mut alternate) = (1, false);
    if let Some(q) = output.quant.as_ref().filter(|q| !q.scale.is_empty()) {
        n = q.scale.len();
        let axis = q.axis.unwrap_or(0);
        if axis + 1 == output.shape.len() && n > 1 {
            alternate = true;
        } else if axis != 0 {
            return Err(cx.unsupported_tensor(output, format!("unsupported quantization axis {axis} (TFLite Micro decodes along axis 0 or the last)")));
        }
    }
    if !count.is_multiple_of(n) {
        return Err(cx.invalid_tensor(output, format!("{count} elements in {n} channels")));
    }
    Ok((n, alternate, if alternate { 1 } else { count / n }, count))
}

/// Bit `k` of an MSB-first bit string.
fn bit(data: &[u8], k: usize) -> Option<u8> {
    data.get(k >> 3).map(|b| (b >> (!k & 7)) & 1)
}

/// Index `k` of `width` bits of an MSB-first bit string (`GetNextTableIndexWidth<N>`).
fn index(data: &[u8], k: usize, width: usize) -> Option<usize> {
    (0..width).try_fold(0usize, |acc, j| bit(data, k * width + j).map(|b| acc << 1 | usize::from(b)))
}

/// `DecodeStateLut::DecompressToBufferWidthAny` (the width-2/3/4 int8 fast paths give the
/// same elements).
fn lut(cx: &OpCx<'_, '_>, data: &[u8], anc: &[u8], ancillary: &Tensor<'_>, output: &Tensor<'_>) -> Result<Vec<u8>, LowerError> {
    type_version(cx, anc, ancillary)?;
    let (channels, alternate, per_channel, count) = channels(cx, output)?;
    let size = element_size(cx, output)?;
    let width = usize::from(anc[5] & 0x07);
    let stride = usize::from(anc[6]);
    if width == 0 {
        return Err(cx.invalid_tensor(ancillary, "index width 0 (TFLite Micro requires 1 to 7 bits)"));
    }
    let table = &anc[DCM_SIZE..];
    let mut out = Vec::with_capacity(count * size);
    for k in 0..count {
        let channel = if alternate { k % channels } else { k / per_channel };
        let i = index(data, k, width).ok_or_else(|| cx.invalid(format!("the encoded indices end before element {k} of {count}")))?;
        let at = (channel * stride + i) * size;
        let v = table.get(at..at + size).ok_or_else(|| cx.invalid_tensor(ancillary, format!("element {k} reads value {i} of channel {channel} past the value table")))?;
        out.extend_from_slice(v);
    }
    check_bools(cx, output, &out)?;
    Ok(out)
}

/// A bool output takes bytes 0 and 1 only (any other is not a C++ `bool`).
fn check_bools(cx: &OpCx<'_, '_>, output: &Tensor<'_>, out: &[u8]) -> Result<(), LowerError> {
    if output.dtype == DType::Bool && out.iter().any(|&b| b > 1) {
        return Err(cx.invalid_tensor(output, "a decoded bool other than 0 or 1"));
    }
    Ok(())
}

/// `DecodeStatePrune::DecompressToBuffer<T>` and `DecompressToBufferPerChannelInt8`.
fn prune(cx: &OpCx<'_, '_>, data: &[u8], anc: &[u8], ancillary: &Tensor<'_>, output: &Tensor<'_>) -> Result<Vec<u8>, LowerError> {
    type_version(cx, anc, ancillary)?;
    let (channels, alternate, per_channel, count) = channels(cx, output)?;
    let size = element_size(cx, output)?;
    let zps: Vec<i64> = output.quant.as_ref().filter(|q| !q.scale.is_empty()).map(|q| q.zero_point.clone()).unwrap_or_default();
    let non_zero = zps.iter().any(|&z| z != 0);
    if output.dtype != DType::I8 && non_zero {
        return Err(cx.invalid_tensor(output, "All zero-points must be zero (TFLite Micro, for outputs other than int8)"));
    }
    let per_channel_zp = output.dtype == DType::I8 && channels > 1 && non_zero;
    // `single_zero_point_` is an int8: the first zero point truncated, widened to T.
    let single = zps.first().map_or(0, |&z| z as i8);
    let table = &anc[DCM_SIZE..];
    let mut next = 0;
    let mut out = Vec::with_capacity(count * size);
    for k in 0..count {
        let b = bit(data, k).ok_or_else(|| cx.invalid(format!("the prune mask ends before element {k} of {count}")))?;
        if b == 1 {
            let v = table.get(next..next + size).ok_or_else(|| cx.invalid_tensor(ancillary, format!("element {k} reads past the {} kept values", table.len() / size)))?;
            out.extend_from_slice(v);
            next += size;
        } else {
            let zp = if per_channel_zp {
                let channel = if alternate { k % channels } else { k / per_channel };
                zps.get(channel).map_or(0, |&z| z as i8)
            } else {
                single
            };
            // Sign-extended to the element's width (float32 decodes through int32).
            out.extend_from_slice(&i64::from(zp).to_le_bytes()[..size]);
        }
    }
    check_bools(cx, output, &out)?;
    Ok(out)
}

/// TFLite Micro's codeword bit string: big-endian 32-bit words (`InitNextBits`,
/// `GetNextBits`, `PutBackBits`), every word read checked.
struct Bits<'d> {
    words: &'d [u8],
    offset: u32,
    hold: u32,
    /// Index of the next word.
    next: usize,
}

impl Bits<'_> {
    fn word(&self, i: usize) -> Option<u32> {
        self.words.get(4 * i..4 * i + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn get(&mut self, mut count: u32) -> Option<u32> {
        let mut output = 0;
        if count > self.offset {
            let mask = (1u32 << self.offset) - 1;
            output = (self.hold & mask) << (count - self.offset);
            count -= self.offset;
            self.hold = self.word(self.next)?;
            self.next += 1;
            self.offset = 32;
        }
        let mask = (1u32 << count) - 1;
        output |= (self.hold >> (self.offset - count)) & mask;
        self.offset -= count;
        Some(output)
    }

    fn put_back(&mut self, count: u32) -> Option<()> {
        self.offset += count;
        if self.offset > 32 {
            self.offset -= 32;
            self.next = self.next.checked_sub(1)?;
            self.hold = self.word(self.next.checked_sub(1)?)?;
        }
        Some(())
    }
}

/// `DecompressToBufferWith16BitTable` / `DecompressToBufferWith32BitTable<T>`.
fn huffman(cx: &OpCx<'_, '_>, data: &[u8], anc: &[u8], input: &Tensor<'_>, ancillary: &Tensor<'_>, output: &Tensor<'_>) -> Result<Vec<u8>, LowerError> {
    type_version(cx, anc, ancillary)?;
    let wide = anc[5] & 0x01 != 0;
    let initial = u32::from((anc[5] & 0xF0) >> 4) + 1;
    let size = match (output.dtype, wide) {
        (DType::I8, _) => 1,
        (DType::I16, true) => 2,
        (t, _) => {
            return Err(cx.unsupported_tensor(output, format!("{t} output with {} table entries (TFLite Micro: int8, or int16 with 32-bit entries)", if wide { 32 } else { 16 })))
        }
    };
    let table = &anc[DCM_SIZE..];
    let entry = |i: usize| -> Option<u32> {
        if wide {
            table.get(4 * i..4 * i + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        } else {
            table.get(2 * i..2 * i + 2).map(|b| u32::from(u16::from_le_bytes([b[0], b[1]])))
        }
    };
    // (symbol found, count field, value field) of an entry.
    let fields = |v: u32| if wide { (v & 0x8000_0000 != 0, (v & 0x7800_0000) >> 27, v & 0x07FF_FFFF) } else { (v & 0x8000 != 0, (v & 0x7800) >> 11, v & 0x07FF) };
    let count = output.num_elements();
    let past = |what: &str, k: usize| cx.invalid_tensor(if what == "codewords" { input } else { ancillary }, format!("symbol {k} of {count} reads past the {what}"));
    let mut bits = Bits { words: data, offset: 0, hold: 0, next: 0 };
    if count > 0 {
        bits.hold = bits.word(0).ok_or_else(|| past("codewords", 0))?;
        bits.offset = 32;
        bits.next = 1;
    }
    let mut out = Vec::with_capacity(count * size);
    for k in 0..count {
        let mut used = initial;
        let mut offset = bits.get(used).ok_or_else(|| past("codewords", k))? as usize;
        let mut value = entry(offset).ok_or_else(|| past("Huffman tables", k))?;
        loop {
            let (found, n, next) = fields(value);
            if found {
                break;
            }
            used = n + 1;
            let i = bits.get(used).ok_or_else(|| past("codewords", k))? as usize;
            offset = offset.checked_add(next as usize + i).ok_or_else(|| past("Huffman tables", k))?;
            value = entry(offset).ok_or_else(|| past("Huffman tables", k))?;
        }
        out.extend_from_slice(&value.to_le_bytes()[..size]);
        let (_, residual, _) = fields(value);
        if used > residual {
            bits.put_back(used - residual).ok_or_else(|| past("codewords", k))?;
        }
    }
    Ok(out)
}

/// How an op's kernel reads a filter's weights by output channel: CONV_2D and
/// FULLY_CONNECTED as stored (`[channels, row]`), DEPTHWISE_CONV_2D transposed (`[taps,
/// channels]` stored, `[channels, taps]` read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LutLayout {
    /// Output channel `c` is elements `c * row .. (c + 1) * row`.
    Rows,
    /// Element `t * channels + c` is tap `t` of output channel `c`.
    Depthwise,
}

/// A filter kept in TFLite Micro's LUT form for the `_lut` kernels
/// (`tflc_runtime::kernels::lut::LutWeights`): the value tables as the file stores them, the
/// indices at their width in the order the kernel reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct LutFilter {
    /// Bits per index (1..=7).
    pub width: u8,
    /// Entries between two channels' tables.
    pub stride: usize,
    /// A table per output channel (else one for all).
    pub per_channel: bool,
    /// The value tables (the ancillary tensor after its 16-byte header).
    pub table: Vec<i8>,
    /// The indices, one run of `row` per output channel.
    pub indices: Vec<u8>,
    /// Bytes the file stores for this tensor (encoded plus ancillary data).
    pub stored_bytes: usize,
}

impl LutFilter {
    /// The runtime's view of it.
    pub fn view(&self) -> tflc_runtime::kernels::lut::LutWeights<'_> {
        tflc_runtime::kernels::lut::LutWeights { width: self.width, stride: self.stride, per_channel: self.per_channel, table: &self.table, indices: &self.indices }
    }

    /// `reference` (the op's output on the decoded filter) against `lut` (the `_lut`
    /// kernel's on this form): the interpreter runs both, so every run of a compressed
    /// model checks the kernel the generated code calls.
    pub fn check(op: &str, reference: &[i8], lut: &[i8]) -> Result<(), ExecError> {
        match reference.iter().zip(lut).position(|(a, b)| a != b) {
            None if reference.len() == lut.len() => Ok(()),
            at => Err(ExecError(format!("{op}: the kernel on the LUT-compressed filter differs from the decoded filter's (element {at:?}); this is a bug in tflc, please report it"))),
        }
    }
}

/// The LUT form of `filter` (`channels` output channels) when the compile keeps it
/// compressed ([`crate::ir::Subgraph::lut_weights`]) and the `_lut` kernel reads it exactly:
/// the TFLM_DECODE that made it is of the LUT type (1..=7 bits), every index the kernel will
/// read is inside the value table, and decoding the kept form the way the kernel does gives
/// the bytes TFLite Micro's decode gave (`filter`'s data, decoded by [`lower`] and folded).
/// `None` otherwise, and when the kept form (tables and indices) would not be smaller than
/// the decoded int8 filter: the filter is then read decoded, as before, which is always
/// exact.
/// The TFLM_DECODE's own checks (short indices, indices past the table, widths, versions)
/// ran when it folded; a model failing them never gets here (the op's lowering refuses it).
pub(crate) fn kept_lut(cx: &OpCx<'_, '_>, filter: &Tensor<'_>, channels: usize, layout: LutLayout) -> Option<LutFilter> {
    if !cx.sg.lut_weights.contains(&filter.id) || filter.dtype != DType::I8 || channels == 0 {
        return None;
    }
    let decoded = filter.data?;
    let producer = cx.sg.ops.iter().find(|o| o.outputs.contains(&filter.id) && matches!(&o.opcode, crate::ir::OpCode::Custom(c) if c == "TFLM_DECODE"))?;
    let k = producer.outputs.iter().position(|&t| t == filter.id)?;
    let encoded = cx.sg.tensors.get((*producer.inputs.get(2 * k)?)?)?.data?;
    let anc = cx.sg.tensors.get((*producer.inputs.get(2 * k + 1)?)?)?.data?;
    if anc.len() < DCM_SIZE || anc[0] != TYPE_LUT {
        return None;
    }
    let width = anc[5] & 0x07;
    let stride = usize::from(anc[6]);
    let count = filter.num_elements();
    if width == 0 || decoded.len() != count || !count.is_multiple_of(channels) {
        return None;
    }
    let w = usize::from(width);
    let row = count / channels;
    let table: Vec<i8> = anc[DCM_SIZE..].iter().map(|&b| b as i8).collect();
    let per_channel = filter.quant.as_ref().is_some_and(|q| q.scale.len() > 1);
    // The indices in the kernel's order: element `j` of channel `c`'s run is stored element
    // `source(c, j)`.
    let source = |c: usize, j: usize| match layout {
        LutLayout::Rows => c * row + j,
        LutLayout::Depthwise => j * channels + c,
    };
    let mut indices = vec![0u8; (count * w).div_ceil(8)];
    for c in 0..channels {
        let base = if per_channel { c * stride } else { 0 };
        for j in 0..row {
            let s = source(c, j);
            let i = index(encoded, s, w)?;
            // The kernel reads `table[base + i]`; TFLite Micro's decode gave `decoded[s]`.
            if table.get(base + i).map(|&v| v as u8) != decoded.get(s).copied() {
                return None;
            }
            let at = (c * row + j) * w;
            for b in 0..w {
                if i >> (w - 1 - b) & 1 == 1 {
                    indices[(at + b) / 8] |= 0x80 >> ((at + b) % 8);
                }
            }
        }
    }
    // Kept only where it makes the firmware smaller: the value tables can outweigh the
    // weights (a 3x3 depthwise filter with a 16-entry table per channel).
    if table.len() + indices.len() >= count {
        return None;
    }
    Some(LutFilter { width, stride, per_channel, table, indices, stored_bytes: encoded.len() + anc.len() })
}

/// The `&LutWeights { … }` argument of a `_lut` kernel call: the value tables and the
/// indices as two tables of the weight blob.
pub(crate) fn emit_lut(cx: &mut EmitCx<'_, '_, '_>, lut: &LutFilter) -> TokenStream {
    let rt = cx.rt().clone();
    let table = cx.table_i8("lut_table", &lut.table);
    let indices = cx.table_u8("lut_indices", &lut.indices);
    let width = proc_macro2::Literal::u8_unsuffixed(lut.width);
    let stride = proc_macro2::Literal::usize_unsuffixed(lut.stride);
    let per_channel = lut.per_channel;
    quote! { &#rt::kernels::lut::LutWeights { width: #width, stride: #stride, per_channel: #per_channel, table: #table, indices: #indices } }
}

impl Kernel for Decode {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        for (t, d) in &self.outputs {
            s.insert(*t, d.clone());
        }
        Ok(())
    }

    /// Never reached: constant folding always folds TFLM_DECODE (its inputs are constants,
    /// and the lowering refuses outputs folding would skip); if it were, the build says so
    /// rather than compute anything.
    fn emit(&self, _: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        quote! { compile_error!("tflc: TFLM_DECODE was not decoded at compile time"); }
    }
}

#[cfg(test)]
mod tests {
    //! Builder models with TFLM_DECODE feeding a kernel (FULLY_CONNECTED and
    //! DEPTHWISE_CONV_2D for per-channel LUT weights, ADD for the rest), encoded by the
    //! test's own straightforward encoders: the decoded constant must be the encoded values
    //! (an independent oracle), and the consumer's output TFLite Micro's (its interpreter
    //! decodes at run time; `tools/op_test_vectors.py --bits` on the dumped models).
    use super::super::test_helpers::*;
    use crate::ir::{Activation, DType, OpKind, Quantization, TensorId};
    use crate::tflite::builder::{ModelBuilder, OpSpecCode, TensorSpec};

    /// Indices of `width` bits, MSB first, padded to whole `pad`-byte groups.
    fn pack(indices: &[usize], width: usize, pad: usize) -> Vec<u8> {
        let mut out = vec![0u8; (indices.len() * width).div_ceil(8).div_ceil(pad) * pad];
        for (k, &i) in indices.iter().enumerate() {
            for j in 0..width {
                if i >> (width - 1 - j) & 1 == 1 {
                    let b = k * width + j;
                    out[b / 8] |= 0x80 >> (b % 8);
                }
            }
        }
        out
    }

    /// The 16-byte Decode Common Metadata, then `tables`.
    fn ancillary(ty: u8, b5: u8, b6: u8, tables: &[u8]) -> Vec<u8> {
        let mut a = vec![ty, 1, 0, 0, 1, b5, b6, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        a.extend_from_slice(tables);
        a
    }

    struct Built {
        bytes: Vec<u8>,
        decoded: TensorId,
    }

    /// DECODE(encoded, ancillary) -> `decoded` (dtype, shape, quant), then `consumer`
    /// (given the builder, the decoded tensor and the input `x`) producing the model output.
    fn build(
        dtype: DType,
        shape: &[usize],
        quant: Option<Quantization>,
        encoded: Vec<u8>,
        anc: Vec<u8>,
        x: (DType, &[usize], Q),
        consumer: impl FnOnce(&mut ModelBuilder, TensorId, TensorId) -> TensorId,
    ) -> Built {
        let mut m = ModelBuilder::new();
        let e = m.constant("encoded", DType::U8, &[encoded.len()], encoded, None);
        let a = m.constant("ancillary", DType::U8, &[anc.len()], anc, None);
        let decoded = m.tensor(TensorSpec {
            name: "decoded".into(),
            dtype,
            shape: shape.iter().map(|&d| d as i32).collect(),
            shape_signature: None,
            quant,
            data: None,
            variable: false,
        });
        m.op_spec(OpSpecCode::Custom("TFLM_DECODE".into()), &[Some(e), Some(a)], &[decoded]);
        let xi = m.activation("x", x.0, x.1, x.2);
        let y = consumer(&mut m, decoded, xi);
        m.inputs(&[xi]).outputs(&[y]);
        Built { bytes: m.finish(), decoded }
    }

    /// The decoded constant (op 0 lowered and run) must be `want` (little-endian bytes);
    /// the whole model run by tflc (decode folded) must give TFLite Micro's output bits.
    fn check(name: &str, b: &Built, want_decoded: &[u8], x: &[u8], want: &[i64]) {
        let kernel = lower_op0(&b.bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut store = super::super::TensorStore::new();
        kernel.execute(&mut store).unwrap();
        assert_eq!(store.get(b.decoded).unwrap().to_le_bytes(), want_decoded, "{name}: decoded constant");
        if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(format!("{name}.tflite")), &b.bytes).unwrap();
            std::fs::write(dir.join(format!("{name}.in0.bin")), x).unwrap();
            if want.is_empty() {
                return;
            }
        }
        let model = crate::passes::read_model(&b.bytes).unwrap();
        let folded = crate::passes::fold::FoldedModel::of(&model);
        assert_eq!(folded.count(), 1, "{name}: TFLM_DECODE folds");
        let out = crate::interp::run(&model, &[x]).unwrap_or_else(|e| panic!("{name}: {e}"));
        // float32 as bit patterns, integers as values.
        let got: Vec<i64> = match model.main().tensor(model.main().outputs[0]).dtype {
            DType::F32 => out[0].chunks(4).map(|c| i64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]]))).collect(),
            DType::I16 => out[0].chunks(2).map(|c| i64::from(i16::from_le_bytes([c[0], c[1]]))).collect(),
            _ => out[0].iter().map(|&v| i64::from(v as i8)).collect(),
        };
        assert_eq!(got, want, "{name}: differs from TFLite Micro");
    }

    fn per_channel(n: usize, axis: usize) -> Quantization {
        Quantization { scale: (0..n).map(|c| 0.01 + 0.005 * c as f32).collect(), zero_point: vec![0; n], axis: Some(axis) }
    }

    /// LUT, int8, 3-bit indices, 4 channels along axis 0 (stride 8): FULLY_CONNECTED weights.
    #[test]
    fn lut_per_channel_weights() {
        let tables: Vec<i8> = i8s(1, 32);
        let idx: Vec<usize> = i8s(2, 40).iter().map(|&v| v as u8 as usize % 8).collect();
        let want: Vec<u8> = idx.iter().enumerate().map(|(k, &i)| tables[(k / 10) * 8 + i] as u8).collect();
        let anc = ancillary(0, 3, 8, &tables.iter().map(|&v| v as u8).collect::<Vec<_>>());
        let b = build(DType::I8, &[4, 10], Some(per_channel(4, 0)), pack(&idx, 3, 1), anc, (DType::I8, &[1, 10], Some((0.05, 3))), |m, w, x| {
            let bias = m.constant_i32_per_axis("bias", &[4], &[100, -50, 7, 0], &[0.0005, 0.00075, 0.001, 0.00125]);
            let y = m.activation("y", DType::I8, &[1, 4], Some((0.4, -5)));
            m.op(OpKind::FullyConnected(Default::default()), &[Some(x), Some(w), Some(bias)], &[y]);
            y
        });
        check("decode_lut_fc", &b, &want, &i8s(3, 10).iter().map(|&v| v as u8).collect::<Vec<_>>(), WANT_LUT_FC);
    }

    /// LUT, int8, 5-bit indices, 4 channels on the last axis (interleaved, stride 32):
    /// DEPTHWISE_CONV_2D weights `[1, 2, 2, 4]`.
    #[test]
    fn lut_last_axis_weights() {
        let tables: Vec<i8> = i8s(4, 128);
        let idx: Vec<usize> = i8s(5, 16).iter().map(|&v| v as u8 as usize % 32).collect();
        let want: Vec<u8> = idx.iter().enumerate().map(|(k, &i)| tables[(k % 4) * 32 + i] as u8).collect();
        let anc = ancillary(0, 5, 32, &tables.iter().map(|&v| v as u8).collect::<Vec<_>>());
        let b = build(DType::I8, &[1, 2, 2, 4], Some(per_channel(4, 3)), pack(&idx, 5, 1), anc, (DType::I8, &[1, 2, 2, 4], Some((0.05, -2))), |m, w, x| {
            let bias = m.constant_i32_per_axis("bias", &[4], &[10, -20, 30, -40], &[0.0005, 0.00075, 0.001, 0.00125]);
            let y = m.activation("y", DType::I8, &[1, 1, 1, 4], Some((0.25, 1)));
            let o = crate::ir::DepthwiseConv2dOptions {
                padding: crate::ir::Padding::Valid,
                stride_w: 1,
                stride_h: 1,
                depth_multiplier: 1,
                dilation_w: 1,
                dilation_h: 1,
                activation: Activation::None,
            };
            m.op(OpKind::DepthwiseConv2d(o), &[Some(x), Some(w), Some(bias)], &[y]);
            y
        });
        check("decode_lut_dw", &b, &want, &i8s(6, 16).iter().map(|&v| v as u8).collect::<Vec<_>>(), WANT_LUT_DW);
    }

    fn add(m: &mut ModelBuilder, a: TensorId, x: TensorId, dtype: DType, shape: &[usize], q: Q) -> TensorId {
        let y = m.activation("y", dtype, shape, q);
        m.op(OpKind::Add { activation: Activation::None }, &[Some(a), Some(x)], &[y]);
        y
    }

    /// Prune, float32 (zeros where the mask is clear), into a float ADD.
    #[test]
    fn prune_f32() {
        let mask: Vec<usize> = i8s(7, 20).iter().map(|&v| usize::from(v > 30)).collect();
        let kept: Vec<f32> = (0..mask.iter().sum::<usize>()).map(|i| i as f32 * 0.75 - 3.0).collect();
        let mut it = kept.iter();
        let want: Vec<u8> = mask.iter().flat_map(|&b| if b == 1 { it.next().copied().unwrap() } else { 0.0 }.to_le_bytes()).collect();
        let anc = ancillary(2, 0, 0, &kept.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>());
        let b = build(DType::F32, &[20], None, pack(&mask, 1, 1), anc, (DType::F32, &[20], None), |m, d, x| add(m, d, x, DType::F32, &[20], None));
        let x: Vec<u8> = (0..20).flat_map(|i| (i as f32 * 0.1 - 1.0).to_le_bytes()).collect();
        check("decode_prune_f32", &b, &want, &x, WANT_PRUNE_F32);
    }

    /// Prune, int8 with zero point 5 (the cleared elements), into an int8 ADD.
    #[test]
    fn prune_int8_zero_point() {
        let mask: Vec<usize> = i8s(8, 24).iter().map(|&v| usize::from(v < 0)).collect();
        let kept: Vec<i8> = i8s(9, mask.iter().sum::<usize>());
        let mut it = kept.iter();
        let want: Vec<u8> = mask.iter().map(|&b| if b == 1 { *it.next().unwrap() as u8 } else { 5 }).collect();
        let anc = ancillary(2, 0, 0, &kept.iter().map(|&v| v as u8).collect::<Vec<_>>());
        let q = Some((0.04, 5));
        let b = build(DType::I8, &[24], q.map(|(s, z)| Quantization { scale: vec![s], zero_point: vec![z], axis: None }), pack(&mask, 1, 1), anc, (DType::I8, &[24], Some((0.03, -7))), |m, d, x| {
            add(m, d, x, DType::I8, &[24], Some((0.05, 2)))
        });
        check("decode_prune_i8", &b, &want, &i8s(10, 24).iter().map(|&v| v as u8).collect::<Vec<_>>(), WANT_PRUNE_I8);
    }

    /// A Huffman table in TFLite Micro's layout for the code A = 0, B = 10, C = 110,
    /// D = 111: a 2-bit first lookup and a 1-bit second level behind `11` (a pointer entry:
    /// count + 1 bits to read, the offset past it). Entries as `(found, count, value)`; a
    /// symbol's count is how many bits of its lookup the code takes (A takes 1 of 2: one is
    /// put back).
    fn huffman_table(symbols: [u32; 4]) -> [(bool, u32, u32); 6] {
        let [a, b, c, d] = symbols;
        [(true, 1, a), (true, 1, a), (true, 2, b), (false, 0, 1), (true, 1, c), (true, 1, d)]
    }

    fn huffman_bits(seq: &[usize]) -> Vec<usize> {
        seq.iter().flat_map(|&s| match s { 0 => vec![0], 1 => vec![1, 0], 2 => vec![1, 1, 0], _ => vec![1, 1, 1] }).collect()
    }

    /// Huffman, int8, 16-bit table entries: 60 symbols (codewords across several words, A's
    /// put-back across a word boundary), into an int8 ADD.
    #[test]
    fn huffman_int8() {
        let syms = [-128i8, 5, 127, -3];
        let seq: Vec<usize> = i8s(11, 60).iter().map(|&v| (v as u8 as usize) % 4).collect();
        let want: Vec<u8> = seq.iter().map(|&s| syms[s] as u8).collect();
        let table: Vec<u8> = huffman_table(syms.map(|s| s as u8 as u32))
            .iter()
            .flat_map(|&(f, n, v)| ((u16::from(f) << 15) | ((n as u16) << 11) | v as u16).to_le_bytes())
            .collect();
        let anc = ancillary(1, 0x10, 0, &table);
        let q = Some(Quantization { scale: vec![0.05], zero_point: vec![0], axis: None });
        let b = build(DType::I8, &[60], q, pack(&huffman_bits(&seq), 1, 4), anc, (DType::I8, &[60], Some((0.05, 0))), |m, d, x| add(m, d, x, DType::I8, &[60], Some((0.1, 0))));
        check("decode_huffman_i8", &b, &want, &i8s(12, 60).iter().map(|&v| v as u8).collect::<Vec<_>>(), WANT_HUFFMAN_I8);
    }

    /// Huffman, int16, 32-bit table entries, into a 16x8 ADD.
    #[test]
    fn huffman_int16() {
        let syms = [-32768i16, 1000, 32767, -7];
        let seq: Vec<usize> = i8s(13, 40).iter().map(|&v| (v as u8 as usize / 3) % 4).collect();
        let want: Vec<u8> = seq.iter().flat_map(|&s| syms[s].to_le_bytes()).collect();
        let table: Vec<u8> = huffman_table(syms.map(|s| s as u16 as u32))
            .iter()
            .flat_map(|&(f, n, v)| ((u32::from(f) << 31) | (n << 27) | v).to_le_bytes())
            .collect();
        let anc = ancillary(1, 0x11, 0, &table);
        let q = Some(Quantization { scale: vec![0.001], zero_point: vec![0], axis: None });
        let b = build(DType::I16, &[40], q, pack(&huffman_bits(&seq), 1, 4), anc, (DType::I16, &[40], Some((0.002, 0))), |m, d, x| add(m, d, x, DType::I16, &[40], Some((0.003, 0))));
        let x: Vec<u8> = (0..40).flat_map(|i: i32| ((i * 1500 - 30000) as i16).to_le_bytes()).collect();
        check("decode_huffman_i16", &b, &want, &x, WANT_HUFFMAN_I16);
    }

    /// TFLite Micro's refusals and tflc's bounds checks, each an error naming the tensor.
    #[test]
    fn refusals() {
        let lower = |anc: Vec<u8>, enc: Vec<u8>, dtype: DType| {
            let b = build(dtype, &[8], None, enc, anc, (dtype, &[8], None), |m, d, x| {
                let y = m.activation("y", dtype, &[8], None);
                m.op(OpKind::Add { activation: Activation::None }, &[Some(d), Some(x)], &[y]);
                y
            });
            lower_op0(&b.bytes).map(|_| ()).map_err(|e| e.to_string())
        };
        let table: Vec<u8> = (0..4).flat_map(|i: i32| (i as f32).to_le_bytes()).collect();
        assert!(lower(ancillary(0, 2, 4, &table), vec![0x1b, 0x1b], DType::F32).is_ok());
        for (anc, enc, dtype, needle) in [
            (ancillary(0, 2, 4, &table), vec![0x1b], DType::F32, "end before element 4"),
            (ancillary(0, 3, 4, &table), vec![0xff; 3], DType::F32, "past the value table"),
            (ancillary(0, 0, 4, &table), vec![0; 2], DType::F32, "width 0"),
            (ancillary(127, 2, 4, &table), vec![0; 2], DType::F32, "custom decode type"),
            (ancillary(9, 2, 4, &table), vec![0; 2], DType::F32, "decode type 9"),
            (ancillary(0, 2, 4, &table)[..10].to_vec(), vec![0; 2], DType::F32, "16"),
            ({ let mut a = ancillary(0, 2, 4, &table); a[1] = 2; a }, vec![0; 2], DType::F32, "DCM version 2"),
            ({ let mut a = ancillary(0, 2, 4, &table); a[4] = 3; a }, vec![0; 2], DType::F32, "version 3"),
            (ancillary(2, 0, 0, &table), vec![0xff], DType::F32, "past the 4 kept values"),
            (ancillary(1, 0x10, 0, &[0; 12]), vec![0; 4], DType::I16, "int16 output with 16"),
            (ancillary(1, 0x10, 0, &[5, 0]), vec![0; 4], DType::I8, "past the Huffman tables"),
            (ancillary(0, 2, 4, &table), vec![0; 2], DType::U32, "unsupported tensor type"),
        ] {
            let e = lower(anc, enc, dtype).unwrap_err();
            assert!(e.contains(needle), "{needle}: {e}");
        }
    }

    const WANT_LUT_FC: &[i64] = &[17, -67, 4, -128];
    const WANT_LUT_DW: &[i64] = &[5, -25, -11, -6];
    const WANT_PRUNE_F32: &[i64] = &[3229614080, 3226048922, 3209481421, 3207803699, 3206125978, 3204448256, 3201092812, 3197737370, 3192704204, 3184315592, 0, 3216192307, 1045220560, 3202770532, 1053609164, 1067450368, 1058642330, 1060320052, 1061997774, 1063675494];
    const WANT_PRUNE_I8: &[i64] = &[-50, -81, -11, 50, -39, -37, 62, -35, 49, 7, 19, 7, 18, -19, -56, -47, 33, -21, -6, -19, 127, -75, -123, -69];
    const WANT_HUFFMAN_I8: &[i64] = &[-73, -10, 106, 63, -1, 50, -99, 13, 22, -93, 4, 83, 114, -62, 105, -124, -99, -11, 60, -60, -18, 55, 0, 12, 62, -87, 5, 34, 21, -60, 12, -83, 61, 82, -5, -5, -35, 39, -8, -61, 96, -22, 48, -78, -55, 31, 68, 37, -116, -12, 90, 0, -20, 65, 50, -16, 13, 34, 30, 33];
    const WANT_HUFFMAN_I16: &[i64] = &[-20002, -19002, -7078, -16667, -16002, -25923, -3078, -23923, -22923, -11002, -9667, -8667, -18923, -7002, -5667, 5922, -14923, -13923, -2002, -1002, 10922, 998, 1998, 13922, 14922, 4998, -4923, 7333, 18922, -1923, -923, 10998, 22922, 12998, 14333, 25922, 26922, 27922, 7077, 19333];
}
