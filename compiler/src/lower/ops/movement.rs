//! Shared pieces of the data-movement lowerings (RESHAPE, SQUEEZE, EXPAND_DIMS, PAD,
//! PADV2, CONCATENATION, TRANSPOSE, SLICE, STRIDED_SLICE, SPLIT, SPLIT_V, PACK, UNPACK,
//! RESIZE_*): these kernels move elements without arithmetic, so they run on any element
//! type the generated code has views for (int8, uint8, int16, int32, float32), with one
//! runtime kernel that is generic over the element (`_s8` names for int8).
//!
//! Policy: an output of a data-movement op holds its input's raw values, so every output
//! must have its input's element type and quantization (TFLite Micro copies bytes and
//! would silently mislabel them otherwise); a difference is `Unsupported` (it would need
//! a requantization that TFLite Micro does not do).

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::{int, EmitCx, Lit};
use crate::error::LowerError;
use crate::ir::{DType, Tensor, TensorId};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use tflc_runtime::kernels::concatenation::{concatenation, ConcatenationParams};
use tflc_runtime::kernels::nd::GatherPlan;

/// An element type the data-movement kernels run on in reference execution.
pub(crate) trait Elem: Copy + Default + std::fmt::Debug + 'static {
    fn slice(d: &TensorData) -> Option<&[Self]>;
    fn wrap(v: Vec<Self>) -> TensorData;
    /// `d`'s elements when it holds this type.
    fn unwrap(d: TensorData) -> Option<Vec<Self>>;
}

macro_rules! elem {
    ($($t:ty => $variant:ident),*) => {$(
        impl Elem for $t {
            fn slice(d: &TensorData) -> Option<&[Self]> {
                match d {
                    TensorData::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn wrap(v: Vec<Self>) -> TensorData {
                TensorData::$variant(v)
            }
            fn unwrap(d: TensorData) -> Option<Vec<Self>> {
                match d {
                    TensorData::$variant(v) => Some(v),
                    _ => None,
                }
            }
        }
    )*};
}
elem!(i8 => I8, u8 => U8, i16 => I16, i32 => I32, i64 => I64, f32 => F32, bool => Bool);

/// Runs `$body` with the type alias `$T` bound to the Rust element type of `$dtype`.
macro_rules! with_elem {
    ($dtype:expr, $T:ident => $body:expr) => {
        match $dtype {
            $crate::ir::DType::I8 => {
                type $T = i8;
                $body
            }
            $crate::ir::DType::U8 => {
                type $T = u8;
                $body
            }
            $crate::ir::DType::I16 => {
                type $T = i16;
                $body
            }
            $crate::ir::DType::I32 => {
                type $T = i32;
                $body
            }
            $crate::ir::DType::F32 => {
                type $T = f32;
                $body
            }
            other => Err($crate::lower::ops::ExecError(format!("element type {other} is not movable"))),
        }
    };
}
pub(crate) use with_elem;

/// The contents of `t`, which must hold `T`.
pub(crate) fn get<T: Elem>(s: &TensorStore, t: TensorId) -> Result<&[T], ExecError> {
    match s.get(t) {
        Some(d) => T::slice(d).ok_or_else(|| ExecError(format!("tensor {t} holds {d:?}, not {}", std::any::type_name::<T>()))),
        None => Err(ExecError(format!("tensor {t} has no data"))),
    }
}

/// Stores `v` as the contents of `t`.
pub(crate) fn put<T: Elem>(s: &mut TensorStore, t: TensorId, v: Vec<T>) {
    s.insert(t, T::wrap(v));
}

/// The element types the data-movement kernels accept (those with arena views).
pub(crate) fn movable_dtype(cx: &OpCx<'_, '_>, t: &Tensor<'_>) -> Result<DType, LowerError> {
    match t.dtype {
        DType::I8 | DType::U8 | DType::I16 | DType::I32 | DType::F32 => Ok(t.dtype),
        other => Err(cx.unsupported_tensor(t, format!("element type {other}"))),
    }
}

/// `out` must carry `input`'s element type and quantization (see the module docs).
pub(crate) fn expect_same_type_and_quant(cx: &OpCx<'_, '_>, input: &Tensor<'_>, out: &Tensor<'_>) -> Result<(), LowerError> {
    if out.dtype != input.dtype {
        return Err(cx.invalid_tensor(out, format!("element type {} differs from the input's {}", out.dtype, input.dtype)));
    }
    if out.quant != input.quant {
        return Err(cx.unsupported_tensor(
            out,
            format!(
                "quantization {} differs from tensor {}'s {}: the op would need a requantization",
                describe_quant(out),
                input.id,
                describe_quant(input)
            ),
        ));
    }
    Ok(())
}

fn describe_quant(t: &Tensor<'_>) -> String {
    match &t.quant {
        None => "none".to_owned(),
        Some(q) => match q.per_tensor() {
            Some((s, z)) => format!("scale={s} zp={z}"),
            None => format!("per-axis ({} scales)", q.scale.len()),
        },
    }
}

/// Constant integer data of an int32 or int64 tensor (shape operands, axes, paddings).
pub(crate) fn const_ints(cx: &OpCx<'_, '_>, t: &Tensor<'_>) -> Result<Vec<i64>, LowerError> {
    let d = cx.expect_constant(t)?;
    match (t.dtype, TensorData::from_le_bytes(t.dtype, d)) {
        (DType::I32, Some(TensorData::I32(v))) => Ok(v.into_iter().map(i64::from).collect()),
        (DType::I64, Some(TensorData::I64(v))) => Ok(v),
        (DType::I32 | DType::I64, _) => Err(cx.invalid_tensor(t, "malformed integer constant")),
        (other, _) => Err(cx.unsupported_tensor(t, format!("element type {other} (expected int32 or int64)"))),
    }
}

/// A constant int32 tensor's values, which must be exactly `n` (a scalar counts as one).
pub(crate) fn const_i32_exact(cx: &OpCx<'_, '_>, t: &Tensor<'_>, n: usize, what: &str) -> Result<Vec<i32>, LowerError> {
    let v = cx.const_i32(t)?;
    if v.len() != n {
        return Err(cx.invalid_tensor(t, format!("{what} has {} values, expected {n}", v.len())));
    }
    Ok(v)
}

/// The single value of a constant int32 axis tensor (shape `[]` or `[1]`).
pub(crate) fn const_axis(cx: &OpCx<'_, '_>, t: &Tensor<'_>) -> Result<i64, LowerError> {
    let v = cx.const_i32(t)?;
    match v.as_slice() {
        [a] if t.shape.len() <= 1 => Ok(i64::from(*a)),
        _ => Err(cx.invalid_tensor(t, format!("the axis must be a single value, found shape {:?}", t.shape))),
    }
}

/// TFLite's negative-axis convention over `rank` positions (`axis < 0` counts from the end).
pub(crate) fn resolve_axis(cx: &OpCx<'_, '_>, axis: i64, rank: usize) -> Result<usize, LowerError> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if a < 0 || a >= r {
        return Err(cx.invalid(format!("axis {axis} is out of range for rank {rank}")));
    }
    Ok(a as usize)
}

/// A non-negative count from the options (`num_splits`, `values_count`, ...).
pub(crate) fn count(cx: &OpCx<'_, '_>, what: &str, v: i32) -> Result<usize, LowerError> {
    usize::try_from(v).map_err(|_| cx.invalid(format!("{what} is {v}")))
}

/// Each output appears once and is not an input (the arena views would alias).
pub(crate) fn expect_distinct_outputs(cx: &OpCx<'_, '_>) -> Result<(), LowerError> {
    for (i, t) in cx.op.outputs.iter().enumerate() {
        if cx.op.outputs[..i].contains(t) || cx.op.present_inputs().any(|x| x == *t) {
            return Err(cx.invalid_tensor(cx.sg.tensor(*t), "the tensor is written twice or is also an input"));
        }
    }
    Ok(())
}

/// The output's shape must be `want`.
pub(crate) fn expect_shape(cx: &OpCx<'_, '_>, t: &Tensor<'_>, want: &[usize]) -> Result<(), LowerError> {
    if t.shape != want {
        return Err(cx.invalid_tensor(t, format!("shape {:?}, but the op's semantics give {want:?}", t.shape)));
    }
    Ok(())
}

crate::runtime_struct_lit!(kernels::nd::StridedCopyParams<'a> { base, shape, strides });
crate::runtime_struct_lit!(kernels::concatenation::ConcatenationParams<'a> { outer, output_row, offsets, lens });

/// The runtime side of a data-movement op: `kernels::<module>::<func>` (`<func>_s8` for
/// int8), taking `&<module>::<params>`, the op's alias of the family's shared params struct
/// (`slice::SliceParams` for `nd::StridedCopyParams`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveKernel {
    /// The builtin, for messages.
    pub op: &'static str,
    pub module: &'static str,
    pub func: &'static str,
    pub params: &'static str,
}

impl MoveKernel {
    /// The kernel's path for element type `dtype`.
    fn path(&self, cx: &EmitCx<'_, '_, '_>, dtype: DType) -> TokenStream {
        kernel_fn(cx, self.module, self.func, dtype)
    }

    /// The params type, `<rt>::kernels::<module>::<params>`.
    fn ty(&self, rt: &TokenStream) -> TokenStream {
        let (m, ty) = (format_ident!("{}", self.module), format_ident!("{}", self.params));
        quote! { #rt::kernels::#m::#ty }
    }

    /// `value`'s literal spelled through the op's alias (`…::slice::SliceParams { … }`):
    /// the fields are those of the shared struct's exhaustive [`Lit`]
    /// (`runtime_struct_lit!`, whose literal ends with them), only the path differs.
    fn lit(&self, rt: &TokenStream, value: &impl Lit) -> TokenStream {
        let ty = self.ty(rt);
        let fields = value.lit(rt).into_iter().last();
        quote! { #ty #fields }
    }

    /// Declares the params const of `values` (an array when there are several) and
    /// returns its name.
    fn params_const(&self, cx: &mut EmitCx<'_, '_, '_>, values: &[impl Lit]) -> Ident {
        let rt = cx.rt().clone();
        let ty = self.ty(&rt);
        let lits: Vec<TokenStream> = values.iter().map(|v| self.lit(&rt, v)).collect();
        match lits.as_slice() {
            [lit] => cx.params(quote! { #ty<'static> }, lit.clone()),
            _ => {
                let n = int(lits.len() as i64);
                cx.params(quote! { [#ty<'static>; #n] }, quote! { [#(#lits),*] })
            }
        }
    }
}

/// The path of a data-movement kernel: `<rt>::kernels::<module>::<name>_s8` for int8, the
/// generic `<rt>::kernels::<module>::<name>` otherwise.
pub(crate) fn kernel_fn(cx: &EmitCx<'_, '_, '_>, module: &str, name: &str, dtype: DType) -> TokenStream {
    let rt = cx.rt().clone();
    let m = format_ident!("{}", module);
    let f = if dtype == DType::I8 { format_ident!("{}_s8", name) } else { format_ident!("{}", name) };
    quote! { #rt::kernels::#m::#f }
}

/// A data-movement op whose every output is one strided copy of its single input
/// (TRANSPOSE, SLICE, STRIDED_SLICE: one output; SPLIT, SPLIT_V, UNPACK: several): one
/// plan per output, each emitted as the `StridedCopyParams` it gives
/// ([`GatherPlan::as_params`], which borrows the plan).
#[derive(Debug, Clone, PartialEq)]
pub struct StridedCopy {
    pub kernel: MoveKernel,
    pub input: TensorId,
    pub input_len: usize,
    pub outputs: Vec<TensorId>,
    pub dtype: DType,
    /// One plan per output.
    pub plans: Vec<GatherPlan>,
}

impl StridedCopy {
    /// A copy of `input` into `outputs` by `kernel`, one plan per output.
    pub(crate) fn new(kernel: MoveKernel, input: &Tensor<'_>, dtype: DType, outputs: Vec<TensorId>, plans: Vec<GatherPlan>) -> Self {
        StridedCopy { kernel, input: input.id, input_len: input.num_elements(), outputs, dtype, plans }
    }

    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let x = get::<T>(s, self.input)?;
        if x.len() != self.input_len {
            return Err(ExecError(format!("{}: input {} has {} elements, expected {}", self.kernel.op, self.input, x.len(), self.input_len)));
        }
        let mut ys = Vec::with_capacity(self.plans.len());
        for plan in &self.plans {
            let p = plan.as_params();
            let mut y = vec![T::default(); p.out_len()];
            tflc_runtime::kernels::nd::strided_copy(&p, x, &mut y);
            ys.push(y);
        }
        for (&t, y) in self.outputs.iter().zip(ys) {
            put(s, t, y);
        }
        Ok(())
    }
}

impl Kernel for StridedCopy {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let params: Vec<_> = self.plans.iter().map(GatherPlan::as_params).collect();
        let p = self.kernel.params_const(cx, &params);
        let f = self.kernel.path(cx, self.dtype);
        let x = cx.input(self.input);
        if let [out] = self.outputs.as_slice() {
            let y = cx.output(*out);
            return quote! { #f(&#p, #x, #y); };
        }
        let calls: Vec<TokenStream> = (0..self.outputs.len())
            .map(|k| {
                let y = cx.output(self.outputs[k]);
                let k = int(k as i64);
                quote! { #f(&#p[#k], #x, #y); }
            })
            .collect();
        quote! { #(#calls)* }
    }
}

/// A copy of whole rows: per outer row, the inputs' rows side by side (CONCATENATION, and
/// PACK, where every input contributes equal rows). Owns the offsets and lengths its
/// `ConcatenationParams` borrows ([`Self::params`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Concatenation {
    pub kernel: MoveKernel,
    pub inputs: Vec<TensorId>,
    pub output: TensorId,
    pub dtype: DType,
    pub outer: usize,
    pub output_row: usize,
    pub offsets: Vec<usize>,
    pub lens: Vec<usize>,
}

impl Concatenation {
    pub fn params(&self) -> ConcatenationParams<'_> {
        ConcatenationParams { outer: self.outer, output_row: self.output_row, offsets: &self.offsets, lens: &self.lens }
    }

    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let xs = self.inputs.iter().map(|&t| get::<T>(s, t)).collect::<Result<Vec<_>, _>>()?;
        for (k, x) in xs.iter().enumerate() {
            if x.len() != self.outer * self.lens[k] {
                return Err(ExecError(format!("input {} has {} elements, expected {}", self.inputs[k], x.len(), self.outer * self.lens[k])));
            }
        }
        let mut y = vec![T::default(); self.outer * self.output_row];
        concatenation(&self.params(), &xs, &mut y);
        put(s, self.output, y);
        Ok(())
    }
}

impl Kernel for Concatenation {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = self.kernel.params_const(cx, &[self.params()]);
        let overlapped = self.inputs.iter().enumerate().find_map(|(k, &t)| cx.overlapped(t, self.output).map(|v| (k, v)));
        if let Some((k, (span, input_at, output_at))) = overlapped {
            let others: Vec<TokenStream> =
                self.inputs.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, &t)| cx.input(t)).collect();
            let rt = cx.rt().clone();
            let index = crate::emit::int(k as i64);
            return quote! {
                #rt::kernels::overlap::concatenation_overlapped(&#p, #index, &[#(#others),*], #span, #input_at, #output_at);
            };
        }
        let f = self.kernel.path(cx, self.dtype);
        let xs: Vec<TokenStream> = self.inputs.iter().map(|&t| cx.input(t)).collect();
        let y = cx.output(self.output);
        quote! { #f(&#p, &[#(#xs),*], #y); }
    }

    /// The output over its largest input (the first of equals), walked from its end
    /// (`tflc_runtime::kernels::overlap::concatenation_overlapped`): that input may sit at its
    /// own place inside the output. One input only: codegen hands an op one overlapped pair.
    fn overlap(&self) -> Vec<(usize, usize, crate::ir::DeltaBound)> {
        let Some(k) = (0..self.inputs.len()).rev().max_by_key(|&k| self.lens[k]) else { return Vec::new() };
        // An input given twice is read twice: the planner would refuse it anyway.
        if self.inputs.iter().filter(|&&t| t == self.inputs[k]).count() > 1 {
            return Vec::new();
        }
        // Overlapped, the kernel gets a typed view of the arena span: only types that have one.
        let elem = self.dtype.arena_elem().and(self.dtype.size()).unwrap_or(0);
        let min = tflc_runtime::kernels::overlap::concatenation_min_delta(&self.params(), k);
        super::copy_overlap(min, k, self.outer * self.lens[k], self.outer * self.output_row, elem)
    }
}

/// Checks a one-output copy of input 0 (TRANSPOSE, SLICE, STRIDED_SLICE): `n_in` inputs,
/// a movable input, and an output of its element type and quantization that is not an
/// input. Returns input, output and element type.
pub(crate) fn lower_copy<'m, 'a>(cx: &OpCx<'m, 'a>, n_in: usize) -> Result<(&'m Tensor<'a>, &'m Tensor<'a>, DType), LowerError> {
    cx.expect_arity(n_in..=n_in, 1)?;
    let input = cx.input(0)?;
    let output = cx.output(0)?;
    let dtype = movable_dtype(cx, input)?;
    expect_same_type_and_quant(cx, input, output)?;
    expect_distinct_outputs(cx)?;
    Ok((input, output, dtype))
}

/// The outputs of a multi-output strided copy (SPLIT, SPLIT_V, UNPACK): output `k` of `n`
/// must carry the input's element type and quantization and the shape `part(k)` gives,
/// and is copied by the plan it gives (called for `k` in order); no output may repeat or
/// be an input.
pub(crate) fn copy_to_outputs(
    cx: &OpCx<'_, '_>,
    kernel: MoveKernel,
    input: &Tensor<'_>,
    dtype: DType,
    n: usize,
    mut part: impl FnMut(usize) -> (Vec<usize>, Option<GatherPlan>),
) -> Result<StridedCopy, LowerError> {
    let mut outputs = Vec::with_capacity(n);
    let mut plans = Vec::with_capacity(n);
    for k in 0..n {
        let out = cx.output(k)?;
        expect_same_type_and_quant(cx, input, out)?;
        let (want, p) = part(k);
        expect_shape(cx, out, &want)?;
        outputs.push(out.id);
        plans.push(plan(cx, p, kernel.op)?);
    }
    expect_distinct_outputs(cx)?;
    Ok(StridedCopy::new(kernel, input, dtype, outputs, plans))
}

/// A plan from a runtime `prepare_*` helper, or an error naming the op.
pub(crate) fn plan(cx: &OpCx<'_, '_>, p: Option<GatherPlan>, what: &str) -> Result<GatherPlan, LowerError> {
    p.ok_or_else(|| cx.unsupported(format!("{what}: the copy cannot be planned (rank above {} or out of bounds)", tflc_runtime::kernels::nd::MAX_RANK)))
}

/// The element type of a copy op limited to `allowed` (what TFLite Micro's kernel has a
/// case for, among the types tflc can move): anything else is `Unsupported`, naming `t`.
pub(crate) fn expect_one_of(cx: &OpCx<'_, '_>, t: &Tensor<'_>, allowed: &[DType], op: &str) -> Result<(), LowerError> {
    if allowed.contains(&t.dtype) {
        return Ok(());
    }
    let names: Vec<String> = allowed.iter().map(|d| d.to_string()).collect();
    Err(cx.unsupported_tensor(t, format!("element type {} ({op} lowers {})", t.dtype, names.join(", "))))
}

/// The checked operands of BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND (see [`lower_batch_space`]).
pub(crate) struct BatchSpace<'m, 'a> {
    pub input: &'m Tensor<'a>,
    pub output: &'m Tensor<'a>,
    pub dtype: DType,
    /// The input as `[batch, height, width, depth]` (width 1 for rank 3, as TFLite extends it).
    pub input4: [usize; 4],
    /// `[block_height, block_width]` (`block_width` 1 for rank 3).
    pub block: [usize; 2],
    /// `[[top, bottom], [left, right]]` crops or paddings (`[0, 0]` for rank 3's width).
    pub pairs: [[usize; 2]; 2],
}

/// Checks a BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND op (`op` names it): three inputs, an
/// int8 or float32 input of rank 3 or 4 (TFLite Micro's kernels), an output of its rank,
/// element type and quantization; constant int32 `block_shape` (`[rank - 2]`, each
/// positive) and `crops` / `paddings` (`[rank - 2, 2]`, none negative: TFLite's rule;
/// TFLite Micro does not check and would index out of bounds). Output shapes are the
/// caller's.
pub(crate) fn lower_batch_space<'m, 'a>(cx: &OpCx<'m, 'a>, op: &str) -> Result<BatchSpace<'m, 'a>, LowerError> {
    let (input, output, dtype) = lower_copy(cx, 3)?;
    expect_one_of(cx, input, &[DType::I8, DType::F32], op)?;
    let rank = input.shape.len();
    if !(3..=4).contains(&rank) {
        return Err(cx.unsupported_tensor(input, format!("rank {rank} (TFLite Micro's {op} takes rank 3 or 4)")));
    }
    if output.shape.len() != rank {
        return Err(cx.invalid_tensor(output, format!("rank {}, the input's is {rank}", output.shape.len())));
    }
    let spatial = rank - 2;
    let block_t = cx.input(1)?;
    if block_t.shape != [spatial] {
        return Err(cx.invalid_tensor(block_t, format!("shape {:?}, expected [{spatial}]", block_t.shape)));
    }
    let block_v = const_i32_exact(cx, block_t, spatial, "block_shape")?;
    let mut block = [1usize; 2];
    for (k, &v) in block_v.iter().enumerate() {
        block[k] = usize::try_from(v).ok().filter(|&v| v > 0).ok_or_else(|| cx.invalid_tensor(block_t, format!("block_shape {block_v:?} is not positive")))?;
    }
    let pairs_t = cx.input(2)?;
    if pairs_t.shape != [spatial, 2] {
        return Err(cx.invalid_tensor(pairs_t, format!("shape {:?}, expected [{spatial}, 2]", pairs_t.shape)));
    }
    let pv = const_i32_exact(cx, pairs_t, spatial * 2, "crops / paddings")?;
    let mut pairs = [[0usize; 2]; 2];
    for (k, &v) in pv.iter().enumerate() {
        pairs[k / 2][k % 2] = usize::try_from(v).map_err(|_| cx.invalid_tensor(pairs_t, format!("{pv:?} has a negative entry")))?;
    }
    let s = &input.shape;
    let input4 = if rank == 4 { [s[0], s[1], s[2], s[3]] } else { [s[0], s[1], 1, s[2]] };
    Ok(BatchSpace { input, output, dtype, input4, block, pairs })
}

/// The output shape `[b, h, w, d]` in the op's rank (`w` dropped for rank 3).
pub(crate) fn unextend(rank: usize, [b, h, w, d]: [usize; 4]) -> Vec<usize> {
    if rank == 4 {
        vec![b, h, w, d]
    } else {
        vec![b, h, d]
    }
}

/// The checked operands of RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR (see [`lower_resize`]).
pub(crate) struct Resize<'m, 'a> {
    pub input: &'m Tensor<'a>,
    pub output: &'m Tensor<'a>,
    /// `[batches, height, width, depth]` of the input.
    pub input_shape: [usize; 4],
    /// The constant `size` operand: the output's `[height, width]`.
    pub output_hw: [usize; 2],
}

/// Checks a RESIZE_* op: an NHWC input that is not empty, a constant int32 `size = [height,
/// width]` (each positive), an output of shape `[batches, height, width, depth]` (not
/// empty, which also bounds the per-row and per-column tables by the output's size) with
/// the input's element type and quantization. Element types are the caller's business.
pub(crate) fn lower_resize<'m, 'a>(cx: &OpCx<'m, 'a>) -> Result<Resize<'m, 'a>, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let input = cx.input(0)?;
    let output = cx.output(0)?;
    expect_same_type_and_quant(cx, input, output)?;
    expect_distinct_outputs(cx)?;
    let [batches, ih, iw, depth] = cx.shape4(input)?;
    if ih == 0 || iw == 0 {
        return Err(cx.invalid_tensor(input, "an empty image cannot be resized"));
    }
    let size = cx.input(1)?;
    if size.shape.len() != 1 {
        return Err(cx.invalid_tensor(size, format!("shape {:?}, expected [2]", size.shape)));
    }
    let v = const_i32_exact(cx, size, 2, "size")?;
    let pos = |x: i32| usize::try_from(x).ok().filter(|&x| x > 0);
    let (Some(oh), Some(ow)) = (pos(v[0]), pos(v[1])) else {
        return Err(cx.invalid_tensor(size, format!("size {v:?} is not positive")));
    };
    expect_shape(cx, output, &[batches, oh, ow, depth])?;
    if output.num_elements() == 0 {
        return Err(cx.unsupported_tensor(output, "an empty output"));
    }
    Ok(Resize { input, output, input_shape: [batches, ih, iw, depth], output_hw: [oh, ow] })
}

/// A view op (RESHAPE, SQUEEZE, EXPAND_DIMS): the output is the input's bytes under a new
/// shape. The planner normally aliases the two and no code is emitted; otherwise this is
/// a plain copy.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    /// The builtin, for messages.
    pub op: &'static str,
    pub input: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub len: usize,
}

/// Lowers a view op whose output shape has already been checked: element type,
/// quantization and element count must be the input's.
pub(crate) fn lower_view(cx: &OpCx<'_, '_>, op: &'static str, input: &Tensor<'_>, output: &Tensor<'_>) -> Result<View, LowerError> {
    let dtype = movable_dtype(cx, input)?;
    expect_same_type_and_quant(cx, input, output)?;
    if input.num_elements() != output.num_elements() {
        return Err(cx.invalid_tensor(
            output,
            format!("{} elements, but the input {} has {}", output.num_elements(), input.id, input.num_elements()),
        ));
    }
    expect_distinct_outputs(cx)?;
    Ok(View { op, input: input.id, output: output.id, dtype, len: input.num_elements() })
}

impl View {
    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let x = get::<T>(s, self.input)?;
        if x.len() != self.len {
            return Err(ExecError(format!("{}: input {} has {} elements, expected {}", self.op, self.input, x.len(), self.len)));
        }
        let mut y = vec![T::default(); self.len];
        tflc_runtime::kernels::reshape::reshape(x, &mut y);
        put(s, self.output, y);
        Ok(())
    }
}

impl Kernel for View {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let f = kernel_fn(cx, "reshape", "reshape", self.dtype);
        let x = cx.input(self.input);
        let y = cx.output(self.output);
        quote! { #f(#x, #y); }
    }

    fn is_view(&self) -> bool {
        true
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Helpers for the data-movement op tests: lower op 0 of a built model, run it, emit it.

    pub(crate) use super::super::test_helpers::{i8s, lower_op0};
    use super::super::{lower, TensorData, TensorStore};
    use crate::emit::{EmitCx, Items};
    use crate::error::LowerError;
    use crate::ir::TensorId;

    /// The lowering error of op 0 (panics if it lowers).
    pub(crate) fn lower_err(bytes: &[u8]) -> LowerError {
        match lower_op0(bytes) {
            Ok(k) => panic!("expected a lowering error, got {k:?}"),
            Err(e) => e,
        }
    }

    /// Lowers op 0 and runs it on `inputs`; returns the store.
    pub(crate) fn run_op0(bytes: &[u8], inputs: &[(TensorId, TensorData)]) -> TensorStore {
        let model = crate::passes::read_model(bytes).expect("the test model parses");
        let sg = model.main();
        let kernel = lower(sg, &sg.ops[crate::ir::OpId::new(0)]).unwrap_or_else(|e| panic!("lowering failed: {e}"));
        let mut store = TensorStore::with_constants(sg);
        for (t, d) in inputs {
            store.insert(*t, d.clone());
        }
        kernel.execute(&mut store).unwrap_or_else(|e| panic!("execution failed: {e}"));
        if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
            dump(std::path::Path::new(&dir), bytes, sg, inputs, &store);
        }
        store
    }

    /// With `TFLC_DUMP_OP_MODELS=<dir>`: writes the model, its graph inputs and our outputs
    /// (`<test>_<n>.tflite`, `.in<i>.bin` in subgraph-input order, `.out<k>.bin`), so that
    /// they can be compared with the pip reference interpreters (`tflite-micro`).
    fn dump(dir: &std::path::Path, bytes: &[u8], sg: &crate::ir::Subgraph<'_>, inputs: &[(TensorId, TensorData)], store: &TensorStore) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let test = std::thread::current().name().unwrap_or("op").replace("::", "_");
        let name = format!("{test}_{}", N.fetch_add(1, Ordering::Relaxed));
        std::fs::create_dir_all(dir).expect("dump dir");
        std::fs::write(dir.join(format!("{name}.tflite")), bytes).expect("dump model");
        for (i, t) in sg.inputs.iter().enumerate() {
            if let Some((_, d)) = inputs.iter().find(|(x, _)| x == t) {
                std::fs::write(dir.join(format!("{name}.in{i}.bin")), d.to_le_bytes()).expect("dump input");
            }
        }
        for (k, t) in sg.outputs.iter().enumerate() {
            if let Some(d) = store.get(*t) {
                std::fs::write(dir.join(format!("{name}.out{k}.bin")), d.to_le_bytes()).expect("dump output");
            }
        }
    }

    /// The int8 contents of `t`.
    pub(crate) fn i8_of(store: &TensorStore, t: TensorId) -> Vec<i8> {
        store.i8(t).expect("int8 data").to_vec()
    }

    /// Op 0's emitted params and call, as one token string (`::tflc_runtime` as runtime
    /// path), plus the number of arena inputs and outputs it requested.
    pub(crate) fn emit_op0(bytes: &[u8]) -> (String, usize, usize) {
        use quote::quote;
        let model = crate::passes::read_model(bytes).expect("the test model parses");
        let sg = model.main();
        let kernel = lower(sg, &sg.ops[crate::ir::OpId::new(0)]).expect("lowers");
        let rt = quote! { ::tflc_runtime };
        let mut items = Items::default();
        let (call, ni, no) = {
            let mut cx = EmitCx::new(&rt, sg, 0, &mut items);
            let call = kernel.emit(&mut cx);
            (call, cx.ins.len(), cx.outs.len())
        };
        let consts = &items.consts;
        let file = quote! { #(#consts)* fn run() { #call } };
        // The emitted code must at least parse as Rust.
        let parsed: syn::File = syn::parse2(file.clone()).expect("emitted code parses");
        drop(parsed);
        (file.to_string(), ni, no)
    }

    /// Row-major multi-index of flat position `i` in `shape`.
    pub(crate) fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
        let mut idx = vec![0; shape.len()];
        for d in (0..shape.len()).rev() {
            idx[d] = i % shape[d];
            i /= shape[d];
        }
        idx
    }

    /// Row-major flat position of `idx` in `shape`.
    pub(crate) fn ravel(idx: &[usize], shape: &[usize]) -> usize {
        idx.iter().zip(shape).fold(0, |acc, (&i, &n)| acc * n + i)
    }
}

#[cfg(test)]
mod robustness {
    //! Random single-op models for every data-movement op, valid ones and ones with one
    //! random defect (a dimension, element type, quantization, option or constant changed,
    //! an input dropped, an output removed or added): lowering must return a result, never
    //! panic, and whatever lowers must execute on inputs of the declared shapes (the
    //! compile-time plan fits the tensors), fill every output, and emit.

    use super::super::{lower, TensorData, TensorStore};
    use super::testing::emit_op0;
    use crate::ir::{Activation, DType, OpKind, ResizeOptions, StridedSliceOptions};
    use crate::tflite::builder::ModelBuilder;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
        fn int(&mut self, lo: i64, hi: i64) -> i64 {
            lo + self.below((hi - lo + 1) as usize) as i64
        }
        fn shape(&mut self, lo: usize, hi: usize) -> Vec<usize> {
            let r = lo + self.below(hi - lo + 1);
            (0..r).map(|_| if self.below(12) == 0 { 0 } else { self.int(1, 4) as usize }).collect()
        }
        fn axis(&mut self, rank: usize) -> i64 {
            let a = self.below(rank.max(1)) as i64;
            if self.below(2) == 0 { a } else { a - rank as i64 }
        }
    }

    #[derive(Clone, Debug)]
    enum T {
        Act(Vec<usize>, DType, Option<(f32, i64)>),
        I32(Vec<usize>, Vec<i32>),
        Raw(Vec<usize>, DType, Vec<u8>),
    }

    fn i32v(v: &[i64]) -> T {
        T::I32(vec![v.len()], v.iter().map(|&x| x as i32).collect())
    }

    struct Spec {
        kind: OpKind,
        ins: Vec<Option<T>>,
        outs: Vec<T>,
    }

    /// A valid model of a random data-movement op.
    fn valid(r: &mut Rng) -> Spec {
        let dtype = [DType::I8, DType::I8, DType::I8, DType::I16, DType::I32, DType::F32][r.below(6)];
        let q = if dtype == DType::F32 || dtype == DType::I32 { None } else { Some((0.5, if dtype == DType::I8 { -3 } else { 0 })) };
        let act = |s: &[usize]| T::Act(s.to_vec(), dtype, q);
        let x = r.shape(1, 5);
        let rank = x.len();
        match r.below(15) {
            0 => {
                let n: usize = x.iter().product();
                let out = if r.below(2) == 0 { vec![n] } else { x.iter().rev().copied().collect() };
                let mut req: Vec<i64> = out.iter().map(|&d| d as i64).collect();
                if n > 0 && r.below(2) == 0 {
                    let i = r.below(req.len());
                    req[i] = -1;
                }
                Spec { kind: OpKind::Reshape { new_shape: None }, ins: vec![Some(act(&x)), Some(i32v(&req))], outs: vec![act(&out)] }
            }
            1 => {
                let mut s = x.clone();
                let i = r.below(rank + 1);
                s.insert(i, 1);
                let dims = if r.below(2) == 0 { vec![] } else { vec![i as i32 - if r.below(2) == 0 { 0 } else { s.len() as i32 }] };
                let out: Vec<usize> = if dims.is_empty() { s.iter().copied().filter(|&d| d != 1).collect() } else { x.clone() };
                Spec { kind: OpKind::Squeeze { squeeze_dims: dims }, ins: vec![Some(act(&s))], outs: vec![act(&out)] }
            }
            2 => {
                let a = r.int(-(rank as i64) - 1, rank as i64);
                let mut out = x.clone();
                out.insert(if a < 0 { (a + rank as i64 + 1) as usize } else { a as usize }, 1);
                Spec { kind: OpKind::ExpandDims, ins: vec![Some(act(&x)), Some(T::I32(vec![], vec![a as i32]))], outs: vec![act(&out)] }
            }
            3 | 4 => {
                let p: Vec<i32> = (0..2 * rank).map(|_| r.int(0, 2) as i32).collect();
                let out: Vec<usize> = (0..rank).map(|d| x[d] + (p[2 * d] + p[2 * d + 1]) as usize).collect();
                let mut ins = vec![Some(act(&x)), Some(T::I32(vec![rank, 2], p))];
                if r.below(2) == 0 {
                    let bytes = match dtype {
                        DType::I8 => vec![7],
                        DType::I16 => 7i16.to_le_bytes().to_vec(),
                        DType::I32 => 7i32.to_le_bytes().to_vec(),
                        _ => 7f32.to_le_bytes().to_vec(),
                    };
                    ins.push(Some(T::Raw(vec![], dtype, bytes)));
                }
                Spec { kind: if ins.len() == 3 { OpKind::PadV2 } else { OpKind::Pad }, ins, outs: vec![act(&out)] }
            }
            5 => {
                let a = r.axis(rank);
                let au = if a < 0 { (a + rank as i64) as usize } else { a as usize };
                let mut out = x.clone();
                out[au] = 0;
                let ins: Vec<Option<T>> = (0..1 + r.below(3))
                    .map(|_| {
                        let mut s = x.clone();
                        s[au] = r.below(4);
                        out[au] += s[au];
                        Some(act(&s))
                    })
                    .collect();
                Spec { kind: OpKind::Concatenation { axis: a as i32, activation: Activation::None }, ins, outs: vec![act(&out)] }
            }
            6 => {
                let mut perm: Vec<usize> = (0..rank).collect();
                for i in (1..rank).rev() {
                    perm.swap(i, r.below(i + 1));
                }
                let out: Vec<usize> = perm.iter().map(|&d| x[d]).collect();
                let p: Vec<i64> = perm.iter().map(|&d| d as i64).collect();
                Spec { kind: OpKind::Transpose, ins: vec![Some(act(&x)), Some(i32v(&p))], outs: vec![act(&out)] }
            }
            7 => {
                let v = |r: &mut Rng| (0..rank).map(|_| r.int(-5, 5)).collect::<Vec<i64>>();
                let (b, e) = (v(r), v(r));
                let st: Vec<i64> = (0..rank).map(|_| [1, 2, -1, -2, 3][r.below(5)]).collect();
                let (bm, em, sm) = (r.int(0, 31) as u32, r.int(0, 31) as u32, if r.below(3) == 0 { r.int(0, 31) as u32 } else { 0 });
                let bi: Vec<i32> = b.iter().map(|&x| x as i32).collect();
                let ei: Vec<i32> = e.iter().map(|&x| x as i32).collect();
                let si: Vec<i32> = st.iter().map(|&x| x as i32).collect();
                let bounds_of = |sm| tflc_runtime::kernels::strided_slice::strided_slice_bounds(&x, &bi, &ei, &si, bm, em, sm, false);
                // Shrunk axes must select one element (see strided_slice.rs).
                let one = |sm: u32| bounds_of(sm).is_some_and(|bd| (0..rank).all(|d| sm & (1 << d) == 0 || bd.count[5 - rank + d] == 1));
                let sm = if one(sm) { sm } else { 0 };
                let bounds = bounds_of(sm);
                let out: Vec<usize> = match bounds {
                    Some(bd) => (0..rank).filter(|&d| sm & (1 << d) == 0).map(|d| bd.count[5 - rank + d]).collect(),
                    None => x.clone(),
                };
                let o = StridedSliceOptions { begin_mask: bm as i32, end_mask: em as i32, shrink_axis_mask: sm as i32, ..Default::default() };
                Spec { kind: OpKind::StridedSlice(o), ins: vec![Some(act(&x)), Some(i32v(&b)), Some(i32v(&e)), Some(i32v(&st))], outs: vec![act(&out)] }
            }
            8 => {
                let b: Vec<i64> = x.iter().map(|&d| r.int(0, d as i64)).collect();
                let sz: Vec<i64> = x.iter().zip(&b).map(|(&d, &b)| if r.below(3) == 0 { -1 } else { r.int(0, d as i64 - b) }).collect();
                let out: Vec<usize> = (0..rank).map(|d| if sz[d] == -1 { x[d] - b[d] as usize } else { sz[d] as usize }).collect();
                Spec { kind: OpKind::Slice, ins: vec![Some(act(&x)), Some(i32v(&b)), Some(i32v(&sz))], outs: vec![act(&out)] }
            }
            9 => {
                let a = r.axis(rank);
                let au = if a < 0 { (a + rank as i64) as usize } else { a as usize };
                let n = (1..=4).filter(|&n| x[au].is_multiple_of(n)).nth(r.below(2)).unwrap_or(1);
                let mut out = x.clone();
                out[au] /= n;
                Spec {
                    kind: OpKind::Split { num_splits: n as i32 },
                    ins: vec![Some(T::I32(vec![], vec![a as i32])), Some(act(&x))],
                    outs: (0..n).map(|_| act(&out)).collect(),
                }
            }
            10 => {
                let a = r.axis(rank);
                let au = if a < 0 { (a + rank as i64) as usize } else { a as usize };
                let mut left = x[au];
                let mut sizes = Vec::new();
                while left > 0 && sizes.len() < 3 {
                    let s = r.int(0, left as i64) as usize;
                    sizes.push(s);
                    left -= s;
                }
                sizes.push(left);
                let outs = sizes.iter().map(|&s| {
                    let mut o = x.clone();
                    o[au] = s;
                    act(&o)
                });
                let outs: Vec<T> = outs.collect();
                let mut req: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
                let i = r.below(req.len());
                if r.below(2) == 0 {
                    req[i] = -1;
                }
                Spec {
                    kind: OpKind::SplitV { num_splits: sizes.len() as i32 },
                    ins: vec![Some(act(&x)), Some(i32v(&req)), Some(T::I32(vec![], vec![a as i32]))],
                    outs,
                }
            }
            11 => {
                let n = 1 + r.below(3);
                let a = r.int(-(rank as i64) - 1, rank as i64);
                let mut out = x.clone();
                out.insert(if a < 0 { (a + rank as i64 + 1) as usize } else { a as usize }, n);
                Spec { kind: OpKind::Pack { values_count: n as i32, axis: a as i32 }, ins: (0..n).map(|_| Some(act(&x))).collect(), outs: vec![act(&out)] }
            }
            12 => {
                let a = r.axis(rank);
                let au = if a < 0 { (a + rank as i64) as usize } else { a as usize };
                let mut out = x.clone();
                let n = out.remove(au);
                Spec { kind: OpKind::Unpack { num: n as i32, axis: a as i32 }, ins: vec![Some(act(&x))], outs: (0..n).map(|_| act(&out)).collect() }
            }
            k => {
                let s4: Vec<usize> = (0..4).map(|_| r.int(1, 4) as usize).collect();
                let (h, w) = (r.int(1, 6), r.int(1, 6));
                let out = vec![s4[0], h as usize, w as usize, s4[3]];
                let mut o = ResizeOptions { align_corners: r.below(2) == 0, half_pixel_centers: r.below(2) == 0 };
                if k != 13 && o.align_corners {
                    // RESIZE_BILINEAR refuses both flags together.
                    o.half_pixel_centers = false;
                }
                let kind = if k == 13 { OpKind::ResizeNearestNeighbor(o) } else { OpKind::ResizeBilinear(o) };
                let (d, q) = if k == 13 { (dtype, q) } else { (DType::I8, Some((0.5, -3))) };
                Spec { kind, ins: vec![Some(T::Act(s4, d, q)), Some(i32v(&[h, w]))], outs: vec![T::Act(out, d, q)] }
            }
        }
    }

    /// One random defect.
    fn mutate(r: &mut Rng, s: &mut Spec) {
        let pick_dims = |r: &mut Rng, shape: &mut Vec<usize>| match r.below(3) {
            0 if !shape.is_empty() => {
                let i = r.below(shape.len());
                shape[i] = (shape[i] + 1 + r.below(2)) % 6;
            }
            1 => shape.push(1 + r.below(2)),
            _ => {
                shape.pop();
            }
        };
        match r.below(9) {
            0 | 1 => {
                let i = r.below(s.outs.len());
                if let Some(T::Act(sh, _, _)) = s.outs.get_mut(i) {
                    pick_dims(r, sh);
                }
            }
            2 => {
                let n = s.ins.len();
                if let Some(Some(t)) = s.ins.get_mut(r.below(n)) {
                    match t {
                        T::Act(sh, _, _) | T::Raw(sh, _, _) => pick_dims(r, sh),
                        T::I32(sh, v) => {
                            if !v.is_empty() && r.below(2) == 0 {
                                let i = r.below(v.len());
                                v[i] = [i32::MIN, i32::MAX, -1, 0, 5, -7][r.below(6)];
                            } else {
                                v.push(r.int(-3, 3) as i32);
                                *sh = vec![v.len()];
                            }
                        }
                    }
                }
            }
            3 => {
                let i = r.below(s.outs.len());
                if let Some(T::Act(_, d, q)) = s.outs.get_mut(i) {
                    if r.below(2) == 0 {
                        *d = [DType::I8, DType::I16, DType::Bool, DType::I64][r.below(4)];
                    } else {
                        *q = Some((0.25, 1));
                    }
                }
            }
            4 => {
                let n = s.ins.len();
                if n > 0 {
                    s.ins[r.below(n)] = None;
                }
            }
            5 => {
                s.outs.pop();
            }
            6 => {
                let o = s.outs.first().cloned();
                if let Some(o) = o {
                    s.outs.push(o);
                }
            }
            7 => {
                // A computed operand where a constant is expected.
                let n = s.ins.len();
                if let Some(Some(t @ T::I32(..))) = s.ins.get_mut(r.below(n)) {
                    if let T::I32(sh, _) = t {
                        *t = T::Act(sh.clone(), DType::I32, None);
                    }
                }
            }
            _ => {
                let d = r.int(-3, 5) as i32;
                match &mut s.kind {
                    OpKind::Concatenation { axis, .. } | OpKind::Pack { axis, .. } | OpKind::Unpack { axis, .. } => *axis = d,
                    OpKind::Split { num_splits } | OpKind::SplitV { num_splits } => *num_splits = d,
                    OpKind::Squeeze { squeeze_dims } => squeeze_dims.push(d),
                    OpKind::Reshape { new_shape } => *new_shape = Some(vec![d, -1]),
                    OpKind::StridedSlice(o) => o.shrink_axis_mask ^= 1 << r.below(5),
                    OpKind::ResizeBilinear(o) | OpKind::ResizeNearestNeighbor(o) => o.align_corners = !o.align_corners,
                    _ => {}
                }
            }
        }
    }

    fn build(s: &Spec) -> Vec<u8> {
        let mut b = ModelBuilder::new();
        let mut graph_ins = Vec::new();
        let mut ins = Vec::new();
        for (i, t) in s.ins.iter().enumerate() {
            let id = t.as_ref().map(|t| match t {
                T::Act(sh, d, q) => {
                    let id = b.activation(&format!("x{i}"), *d, sh, *q);
                    graph_ins.push(id);
                    id
                }
                T::I32(sh, v) => b.constant_i32(&format!("c{i}"), sh, v, None),
                T::Raw(sh, d, v) => {
                    // Pad values carry the activations' quantization, as converters write them.
                    let q = (*d == DType::I8 || *d == DType::I16).then(|| crate::ir::Quantization {
                        scale: vec![0.5],
                        zero_point: vec![if *d == DType::I8 { -3 } else { 0 }],
                        axis: None,
                    });
                    b.constant(&format!("c{i}"), *d, sh, v.clone(), q)
                }
            });
            ins.push(id);
        }
        let outs: Vec<_> = s
            .outs
            .iter()
            .enumerate()
            .map(|(i, t)| match t {
                T::Act(sh, d, q) => b.activation(&format!("y{i}"), *d, sh, *q),
                T::I32(sh, _) | T::Raw(sh, _, _) => b.activation(&format!("y{i}"), DType::I32, sh, None),
            })
            .collect();
        b.op(s.kind.clone(), &ins, &outs);
        b.inputs(&graph_ins).outputs(&outs);
        b.finish()
    }

    fn data(dtype: DType, n: usize) -> Option<TensorData> {
        Some(match dtype {
            DType::I8 => TensorData::I8((0..n).map(|i| i as i8).collect()),
            DType::I16 => TensorData::I16((0..n).map(|i| i as i16).collect()),
            DType::I32 => TensorData::I32((0..n).map(|i| i as i32).collect()),
            DType::F32 => TensorData::F32((0..n).map(|i| i as f32).collect()),
            _ => return None,
        })
    }

    #[test]
    fn random_models_never_panic() {
        let mut r = Rng(0x0d47_a5ee_d000_0001);
        let (mut valid_lowered, mut valid_total, mut broken_lowered, mut total) = (0, 0, 0, 0);
        let iterations: usize = std::env::var("TFLC_ROBUSTNESS_ITERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(4000);
        for _ in 0..iterations {
            let mut spec = valid(&mut r);
            let broken = r.below(2) == 0;
            if broken {
                mutate(&mut r, &mut spec);
            }
            let bytes = build(&spec);
            let Ok(m) = crate::passes::read_model(&bytes) else { continue };
            let sg = m.main();
            let Some(op) = sg.ops.iter().next() else { continue };
            total += 1;
            valid_total += usize::from(!broken);
            let kernel = match lower(sg, op) {
                Ok(k) => k,
                Err(e) => {
                    // Empty tensors and ranks beyond the kernels' limits are refused on purpose.
                    let refusable = sg.tensors.iter().any(|t| t.num_elements() == 0) || format!("{e}").contains("rank");
                    assert!(broken || refusable, "a valid {:?} does not lower: {e}", op.kind);
                    continue;
                }
            };
            if broken {
                broken_lowered += 1;
            } else {
                valid_lowered += 1;
            }
            let mut store = TensorStore::with_constants(sg);
            for &t in &sg.inputs {
                let tensor = sg.tensor(t);
                if let Some(d) = data(tensor.dtype, tensor.num_elements()) {
                    store.insert(t, d);
                }
            }
            kernel.execute(&mut store).unwrap_or_else(|e| panic!("{:?}: lowered but does not execute: {e}", op.kind));
            for &t in &op.outputs {
                let got = store.get(t).map(|d| d.to_le_bytes().len());
                assert_eq!(got, sg.tensor(t).byte_size(), "{:?}: output {t} has the wrong size; inputs {:?}, outputs {:?}", op.kind, spec.ins, spec.outs);
            }
            let _ = emit_op0(&bytes);
        }
        // Both outcomes are reached.
        eprintln!("{valid_lowered} of {valid_total} valid models lowered, {broken_lowered} broken ones lowered, {total} in all");
        assert!(total > iterations * 7 / 8 && valid_lowered * 10 > valid_total * 8 && broken_lowered < total / 4, "{valid_lowered} of {valid_total} valid, {broken_lowered} broken lowered, {total} total");
    }
}
