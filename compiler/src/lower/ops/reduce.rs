//! The reduction family: SUM, REDUCE_MAX, REDUCE_MIN and REDUCE_ALL (this file), and the
//! axis handling MEAN shares ([`reduced_axes`]).
//!
//! Mirrors TFLite Micro `reduce.cc` / `reduce_common.cc`:
//! - the axes are a constant int32 input (`PrepareSimple` requires int32; tflc needs it
//!   constant), resolved as `ResolveAxis` does (negative axes count from the end,
//!   duplicates are ignored, out of range is an error); an empty axes tensor reduces
//!   nothing;
//! - SUM takes float32, int8 and int16 (`PrepareMeanOrSumHelper`:
//!   `QuantizeMultiplier(double(in_scale) / double(out_scale))`, then `QuantizedMeanOrSum`
//!   with `compute_sum`);
//! - REDUCE_MAX / REDUCE_MIN take float32 and int8, int8 only with the input's scale and
//!   zero point on the output (`EvalMinMaxHelper`'s `TF_LITE_ENSURE_EQ`s);
//! - REDUCE_ALL takes bool (`PrepareAllHelper`);
//! - float32 MEAN (`EvalMeanHelper`'s float case) is SUM's walk then one division per
//!   output (int8 MEAN is `mean.rs`'s own kernel).
//!
//! The runtime walk is [`tflc_runtime::kernels::reduce`]; the output must have the shape
//! TFLite's Prepare gives (the reduced dimensions dropped, or 1 with `keep_dims`).

use super::comparison::{bool_bytes, put_bool_bytes};
use super::movement::{get, put};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, Tensor, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::nd::MAX_RANK;
use tflc_runtime::kernels::reduce::{self as rk, QuantizedSumParams, ReduceParams};

crate::runtime_struct_lit!(kernels::reduce::ReduceParams<'a> { input_shape, output_strides });
crate::runtime_struct_lit!(kernels::reduce::QuantizedSumParams<'a> {
    reduce,
    multiplier,
    shift,
    input_zero_point,
    output_zero_point,
    reduced_count,
});

/// TFLite `ResolveAxis`: the distinct axes in `0..rank`, in first-seen order; `None` if
/// one is out of range.
pub(crate) fn resolve_axes(rank: usize, axes: &[i32]) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for &a in axes {
        let r = i64::try_from(rank).ok()?;
        let a = if a < 0 {
            i64::from(a) + r
        } else {
            i64::from(a)
        };
        if !(0..r).contains(&a) {
            return None;
        }
        let a = a as usize;
        if !out.contains(&a) {
            out.push(a);
        }
    }
    Some(out)
}

/// The axes of a reduction (input 1, a constant int32 tensor; an empty one has no buffer
/// and means none), resolved against `input`, with `output`'s shape checked against what
/// TFLite's Prepare gives for `keep_dims`.
pub(crate) fn reduced_axes(
    cx: &OpCx<'_, '_>,
    input: &Tensor<'_>,
    axis: &Tensor<'_>,
    output: &Tensor<'_>,
    keep_dims: bool,
) -> Result<Vec<usize>, LowerError> {
    let axes = if axis.num_elements() == 0 && axis.dtype == DType::I32 {
        Vec::new()
    } else {
        cx.const_i32(axis)?
    };
    let rank = input.shape.len();
    let resolved = resolve_axes(rank, &axes).ok_or_else(|| {
        cx.invalid_tensor(
            axis,
            format!("axes {axes:?} are out of range for rank {rank}"),
        )
    })?;
    let expected: Vec<usize> = input
        .shape
        .iter()
        .enumerate()
        .filter_map(|(d, &n)| match (resolved.contains(&d), keep_dims) {
            (true, true) => Some(1),
            (true, false) => None,
            (false, _) => Some(n),
        })
        .collect();
    if output.shape != expected {
        return Err(cx.invalid_tensor(
            output,
            format!(
                "output shape {:?}, but reducing {:?} over axes {resolved:?} gives {expected:?}",
                output.shape, input.shape
            ),
        ));
    }
    Ok(resolved)
}

/// Which reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceOp {
    Sum,
    /// float32 MEAN.
    Mean,
    Max,
    Min,
    All,
}

impl ReduceOp {
    fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "SUM",
            ReduceOp::Mean => "MEAN",
            ReduceOp::Max => "REDUCE_MAX",
            ReduceOp::Min => "REDUCE_MIN",
            ReduceOp::All => "REDUCE_ALL",
        }
    }
}

/// The requantization of a quantized SUM (everything of [`QuantizedSumParams`] but the walk).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SumQuant {
    pub multiplier: i32,
    pub shift: i32,
    pub input_zero_point: i32,
    pub output_zero_point: i32,
    pub reduced_count: i32,
}

/// The element type of a lowered reduction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReduceType {
    F32,
    /// int8 MAX / MIN (the values compared raw).
    S8,
    Bool,
    SumS8(SumQuant),
    SumS16(SumQuant),
}

/// A lowered reduction.
#[derive(Debug, Clone, PartialEq)]
pub struct Reduce {
    pub input: TensorId,
    pub output: TensorId,
    pub op: ReduceOp,
    pub ty: ReduceType,
    pub input_shape: Vec<usize>,
    pub output_strides: Vec<usize>,
    pub input_len: usize,
    pub output_len: usize,
}

/// Lowers SUM / REDUCE_MAX / REDUCE_MIN / REDUCE_ALL.
pub(crate) fn lower_reduce(
    cx: &OpCx<'_, '_>,
    op: ReduceOp,
    keep_dims: bool,
) -> Result<Reduce, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let (input, axis, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    cx.expect_activation(output)?;
    if input.shape.len() > MAX_RANK {
        return Err(cx.unsupported_tensor(
            input,
            format!(
                "input of rank {} (tflc reduces ranks up to {MAX_RANK})",
                input.shape.len()
            ),
        ));
    }
    cx.expect_dtype(output, input.dtype)?;
    let resolved = reduced_axes(cx, input, axis, output, keep_dims)?;
    let count: usize = resolved.iter().map(|&d| input.shape[d]).product();
    let refuse = |types: &str| {
        cx.unsupported_tensor(
            input,
            format!(
                "element type {} (TFLite Micro's {} takes {types})",
                input.dtype,
                op.name()
            ),
        )
    };
    let ty = match (op, input.dtype) {
        (ReduceOp::All, DType::Bool) => ReduceType::Bool,
        (ReduceOp::All, _) => return Err(refuse("bool")),
        (ReduceOp::Mean, DType::F32) if input.num_elements() == 0 => {
            return Err(cx.unsupported_tensor(input, format!("input of shape {:?} is empty", input.shape)));
        }
        (ReduceOp::Mean, DType::F32) => ReduceType::F32,
        (ReduceOp::Mean, _) => return Err(refuse("float32, int8 and int16")),
        (_, DType::F32) => ReduceType::F32,
        (ReduceOp::Max | ReduceOp::Min, DType::I8) => {
            let (qi, qo) = (cx.q_s8(input)?, cx.q_s8(output)?);
            if f64::from(qi.scale) != f64::from(qo.scale) || qi.zero_point != qo.zero_point {
                return Err(cx.unsupported_tensor(
                    output,
                    format!(
                        "quantization ({}, {}) differs from the input's ({}, {}) (TFLite Micro's {} requires them equal)",
                        qo.scale,
                        qo.zero_point,
                        qi.scale,
                        qi.zero_point,
                        op.name()
                    ),
                ));
            }
            ReduceType::S8
        }
        (ReduceOp::Max | ReduceOp::Min, _) => return Err(refuse("float32 and int8")),
        (ReduceOp::Sum, DType::I8 | DType::I16) => {
            let (qi, qo) = if input.dtype == DType::I8 {
                (cx.q_s8(input)?, cx.q_s8(output)?)
            } else {
                (cx.per_tensor_q(input)?, cx.per_tensor_q(output)?)
            };
            let (multiplier, shift) = tflc_runtime::prepare::quantize_multiplier(
                f64::from(qi.scale) / f64::from(qo.scale),
            )
            .ok_or_else(|| {
                cx.invalid(format!(
                    "the scale ratio {} / {} cannot be quantized",
                    qi.scale, qo.scale
                ))
            })?;
            let reduced_count = i32::try_from(count).map_err(|_| {
                cx.unsupported_tensor(input, format!("{count} elements reduced into one"))
            })?;
            let q = SumQuant {
                multiplier,
                shift,
                input_zero_point: qi.zero_point,
                output_zero_point: qo.zero_point,
                reduced_count,
            };
            if input.dtype == DType::I8 {
                ReduceType::SumS8(q)
            } else {
                ReduceType::SumS16(q)
            }
        }
        (ReduceOp::Sum, _) => return Err(refuse("float32, int8 and int16")),
    };
    // Output strides: row-major over the kept dimensions, 0 on the reduced ones.
    let mut output_strides = vec![0; input.shape.len()];
    let mut acc = 1;
    for d in (0..input.shape.len()).rev() {
        if !resolved.contains(&d) {
            output_strides[d] = acc;
            acc *= input.shape[d];
        }
    }
    Ok(Reduce {
        input: input.id,
        output: output.id,
        op,
        ty,
        input_shape: input.shape.clone(),
        output_strides,
        input_len: input.num_elements(),
        output_len: output.num_elements(),
    })
}

impl Reduce {
    fn params(&self) -> ReduceParams<'_> {
        ReduceParams {
            input_shape: &self.input_shape,
            output_strides: &self.output_strides,
        }
    }

    fn quantized(&self, q: SumQuant) -> QuantizedSumParams<'_> {
        QuantizedSumParams {
            reduce: self.params(),
            multiplier: q.multiplier,
            shift: q.shift,
            input_zero_point: q.input_zero_point,
            output_zero_point: q.output_zero_point,
            reduced_count: q.reduced_count,
        }
    }

    fn check_len(&self, n: usize) -> Result<(), ExecError> {
        if n != self.input_len {
            return Err(ExecError(format!(
                "{}: input has {n} elements, expected {}",
                self.op.name(),
                self.input_len
            )));
        }
        Ok(())
    }

    /// The number of input elements reduced into each output (float32 MEAN's divisor).
    fn reduced_count(&self) -> f32 {
        self.input_shape.iter().zip(&self.output_strides).filter(|(_, &s)| s == 0).map(|(&n, _)| n).product::<usize>() as f32
    }

    /// The kernel function of this op and type.
    fn func(&self) -> &'static str {
        match (self.op, self.ty) {
            (_, ReduceType::SumS8(_)) => "sum_s8",
            (_, ReduceType::SumS16(_)) => "sum_s16",
            (ReduceOp::Sum, _) => "sum_f32",
            (ReduceOp::Mean, _) => "mean_f32",
            (ReduceOp::Max, _) => "reduce_max",
            (ReduceOp::Min, _) => "reduce_min",
            (ReduceOp::All, _) => "reduce_all",
        }
    }
}

impl Kernel for Reduce {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = self.params();
        match self.ty {
            ReduceType::Bool => {
                let x = bool_bytes(s, self.input)?;
                self.check_len(x.len())?;
                let mut out = vec![0u8; self.output_len];
                rk::reduce_all(&p, &x, &mut out);
                put_bool_bytes(s, self.output, &out);
            }
            ReduceType::F32 => {
                let x = get::<f32>(s, self.input)?;
                self.check_len(x.len())?;
                let mut out = vec![0f32; self.output_len];
                match self.op {
                    ReduceOp::Sum => rk::sum_f32(&p, x, &mut out),
                    ReduceOp::Mean => rk::mean_f32(&p, self.reduced_count(), x, &mut out),
                    ReduceOp::Max => rk::reduce_max(&p, x, &mut out),
                    _ => rk::reduce_min(&p, x, &mut out),
                }
                put(s, self.output, out);
            }
            ReduceType::S8 => {
                let x = get::<i8>(s, self.input)?;
                self.check_len(x.len())?;
                let mut out = vec![0i8; self.output_len];
                match self.op {
                    ReduceOp::Max => rk::reduce_max(&p, x, &mut out),
                    _ => rk::reduce_min(&p, x, &mut out),
                }
                put(s, self.output, out);
            }
            ReduceType::SumS8(q) => {
                let x = get::<i8>(s, self.input)?;
                self.check_len(x.len())?;
                let mut out = vec![0i8; self.output_len];
                rk::sum_s8(
                    &self.quantized(q),
                    x,
                    &mut out,
                    &mut vec![0; self.output_len],
                );
                put(s, self.output, out);
            }
            ReduceType::SumS16(q) => {
                let x = get::<i16>(s, self.input)?;
                self.check_len(x.len())?;
                let mut out = vec![0i16; self.output_len];
                rk::sum_s16(
                    &self.quantized(q),
                    x,
                    &mut out,
                    &mut vec![0; self.output_len],
                );
                put(s, self.output, out);
            }
        }
        Ok(())
    }

    fn scratch_bytes(&self) -> usize {
        match self.ty {
            ReduceType::SumS8(_) | ReduceType::SumS16(_) => self.output_len * 4,
            _ => 0,
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let f = quote::format_ident!("{}", self.func());
        match self.ty {
            ReduceType::SumS8(q) | ReduceType::SumS16(q) => {
                let p = cx.params_lit(
                    quote! { kernels::reduce::QuantizedSumParams<'static> },
                    &self.quantized(q),
                );
                let (x, y) = (cx.input(self.input), cx.output(self.output));
                let scratch = cx.scratch();
                quote! { #rt::kernels::reduce::#f(&#p, #x, #y, #rt::__private::as_i32_mut(#scratch)); }
            }
            ReduceType::Bool => {
                let p = cx.params_lit(
                    quote! { kernels::reduce::ReduceParams<'static> },
                    &self.params(),
                );
                let (x, y) = (cx.input_bytes(self.input), cx.output_bytes(self.output));
                quote! { #rt::kernels::reduce::#f(&#p, #x, #y); }
            }
            ReduceType::F32 | ReduceType::S8 => {
                let p = cx.params_lit(
                    quote! { kernels::reduce::ReduceParams<'static> },
                    &self.params(),
                );
                let (x, y) = (cx.input(self.input), cx.output(self.output));
                if self.op == ReduceOp::Mean {
                    let n = self.reduced_count();
                    return quote! { #rt::kernels::reduce::#f(&#p, #n, #x, #y); };
                }
                quote! { #rt::kernels::reduce::#f(&#p, #x, #y); }
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::ir::OpKind;

    /// One reduction of `kind`: input `shape` of `dtype` quantized `qi`, axes constant,
    /// output `out_shape` quantized `qo`.
    pub(crate) fn model(
        kind: OpKind,
        dtype: DType,
        shape: &[usize],
        qi: Q,
        axes: &[i32],
        out_shape: &[usize],
        qo: Q,
    ) -> (Vec<u8>, [TensorId; 2]) {
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", dtype, shape, qi);
        let a = m.constant_i32("axes", &[axes.len()], axes, None);
        let y = m.activation("y", dtype, out_shape, qo);
        m.op(kind, &[Some(x), Some(a)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        (m.finish(), [x, y])
    }

    /// Looks up the committed vector `name` (empty while generating).
    pub(crate) fn vector<'v, T>(vectors: &'v [(&str, &'v [T])], name: &str) -> &'v [T] {
        vectors
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(&[], |(_, v)| *v)
    }

    /// Runs op 0 and compares output `out` (of the element type of `want`) with the vector.
    pub(crate) fn check<T: super::super::movement::Elem + PartialEq>(
        name: &str,
        bytes: &[u8],
        inputs: &[(TensorId, TensorData)],
        out: TensorId,
        want: &[T],
    ) {
        let s = run_op0(name, bytes, inputs);
        if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
            return;
        }
        let got = s.get(out).expect("output").to_le_bytes();
        assert_eq!(
            got,
            T::wrap(want.to_vec()).to_le_bytes(),
            "{name}: differs from TFLite Micro's output (bit for bit)"
        );
    }

    /// The axis cases every reduction runs: (input shape, axes, keep_dims, output shape).
    /// (input shape, axes, keep_dims, output shape).
    pub(crate) type AxisCase = (&'static [usize], &'static [i32], bool, &'static [usize]);

    pub(crate) const AXES: &[AxisCase] = &[
        (&[2, 3, 4], &[1], false, &[2, 4]),
        (&[2, 3, 4], &[-1, 0], true, &[1, 3, 1]),
        (&[2, 3, 4], &[0, 1, 2, 1], false, &[]),
        (&[1, 5, 1, 6], &[], false, &[1, 5, 1, 6]),
        (&[3, 1, 8], &[1], true, &[3, 1, 8]),
        (&[2, 2, 2, 2, 4], &[4, 2], false, &[2, 2, 2]),
    ];

    /// The malformed variants every reduction refuses: axes out of range, axes not
    /// constant or not int32, an output of the wrong shape, a missing operand.
    pub(crate) fn check_malformed(kind: OpKind, dtype: DType, q: Q) {
        expect_invalid(&model(kind.clone(), dtype, &[2, 3], q, &[2], &[2], q).0);
        expect_invalid(&model(kind.clone(), dtype, &[2, 3], q, &[-3], &[2], q).0);
        expect_invalid(&model(kind.clone(), dtype, &[2, 3], q, &[1], &[2, 1], q).0);
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", dtype, &[2, 3], q);
        let a = m.activation("axes", DType::I32, &[1], None);
        let y = m.activation("y", dtype, &[2], q);
        m.op(kind.clone(), &[Some(x), Some(a)], &[y]);
        expect_unsupported(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", dtype, &[2, 3], q);
        let a = m.constant_f32("axes", &[1], &[1.0]);
        let y = m.activation("y", dtype, &[2], q);
        m.op(kind.clone(), &[Some(x), Some(a)], &[y]);
        expect_unsupported(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", dtype, &[2, 3], q);
        let y = m.activation("y", dtype, &[2], q);
        m.op(kind, &[Some(x), None], &[y]);
        expect_invalid(&m.finish());
    }

    /// The naive reduction of `x` (shape `shape`) over `axes` with `f` from `init`, in the
    /// input's row-major order.
    /// REDUCE_MAX (`max`) or REDUCE_MIN: every axis case in float32 (NaN, infinities, -0.0
    /// among the values) and int8, against the naive reduction and TFLite Micro's vectors
    /// (`<name>_f32_<k>`, `<name>_s8_<k>`).
    pub(crate) fn extremum_against_tflite_micro(name: &str, max: bool, kind: fn(bool) -> OpKind, f32s: &[(&str, &[f32])], s8s: &[(&str, &[i8])]) {
        let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 0.0];
        let pick_f = |cur: f32, v: f32| if (max && v > cur) || (!max && v < cur) { v } else { cur };
        let pick_q = |cur: i8, v: i8| if (max && v > cur) || (!max && v < cur) { v } else { cur };
        for (k, &(shape, axes, keep_dims, out_shape)) in AXES.iter().enumerate() {
            let n: usize = shape.iter().product();
            let resolved = resolve_axes(shape.len(), axes).unwrap();
            let mut xf: Vec<f32> = i8s(110 + k as u64, n).iter().map(|&q| f32::from(q) * 0.5).collect();
            for (i, v) in specials.iter().enumerate() {
                if let Some(x) = xf.get_mut(i * 5) {
                    *x = *v;
                }
            }
            let (bytes, [x, y]) = model(kind(keep_dims), DType::F32, shape, None, axes, out_shape, None);
            let vname = format!("{name}_f32_{k}");
            let init = if max { -f32::MAX } else { f32::MAX };
            let s = run_op0(&vname, &bytes, &[(x, TensorData::F32(xf.clone()))]);
            let want = naive(shape, &xf, &resolved, init, pick_f);
            match s.get(y) {
                Some(TensorData::F32(got)) => assert_eq!(got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), want.iter().map(|v| v.to_bits()).collect::<Vec<_>>()),
                other => panic!("{other:?}"),
            }
            check(&vname, &bytes, &[(x, TensorData::F32(xf))], y, vector(f32s, &vname));
            let (bytes, [x, y]) = model(kind(keep_dims), DType::I8, shape, Some((0.05, -7)), axes, out_shape, Some((0.05, -7)));
            let vname = format!("{name}_s8_{k}");
            let xq = i8s(120 + k as u64, n);
            let s = run_op0(&vname, &bytes, &[(x, TensorData::I8(xq.clone()))]);
            let init = if max { i8::MIN } else { i8::MAX };
            assert_eq!(s.get(y), Some(&TensorData::I8(naive(shape, &xq, &resolved, init, pick_q))));
            check(&vname, &bytes, &[(x, TensorData::I8(xq))], y, vector(s8s, &vname));
        }
    }

    /// REDUCE_MAX / REDUCE_MIN refusals: malformed operands, int8 with different input and
    /// output quantization, int16 and int32 (TFLite Micro has neither).
    pub(crate) fn extremum_refusals(kind: OpKind) {
        check_malformed(kind.clone(), DType::I8, Some((0.5, 0)));
        check_malformed(kind.clone(), DType::F32, None);
        let e = lower_op0(&model(kind.clone(), DType::I8, &[2, 3], Some((0.5, 0)), &[1], &[2], Some((0.25, 0))).0).unwrap_err().to_string();
        assert!(e.contains("requires them equal"), "{e}");
        expect_unsupported(&model(kind.clone(), DType::I8, &[2, 3], Some((0.5, 0)), &[1], &[2], Some((0.5, 1))).0);
        expect_unsupported(&model(kind.clone(), DType::I16, &[2, 3], Some((0.5, 0)), &[1], &[2], Some((0.5, 0))).0);
        expect_unsupported(&model(kind, DType::I32, &[2, 3], None, &[1], &[2], None).0);
    }

    pub(crate) fn naive<T: Copy>(
        shape: &[usize],
        x: &[T],
        axes: &[usize],
        init: T,
        f: impl Fn(T, T) -> T,
    ) -> Vec<T> {
        let out_len: usize = shape
            .iter()
            .enumerate()
            .filter(|(d, _)| !axes.contains(d))
            .map(|(_, &n)| n)
            .product();
        let mut out = vec![init; out_len];
        for (i, &v) in x.iter().enumerate() {
            let (mut rem, mut o, mut stride) = (i, 0, 1);
            for d in (0..shape.len()).rev() {
                let c = rem % shape[d];
                rem /= shape[d];
                if !axes.contains(&d) {
                    o += c * stride;
                    stride *= shape[d];
                }
            }
            out[o] = f(out[o], v);
        }
        out
    }
}
