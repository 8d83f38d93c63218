//! The broadcasting binary family: ADD, SUB, MUL, MAXIMUM, MINIMUM and PRELU share the
//! operand checks, TFLite's output-shape rule (`CalculateShapeForBroadcast`), the walk
//! ([`plan_broadcast`]), the in-place rules and the emitted call; ADD, SUB and MUL also
//! share the element-type forms ([`Arith`]: int8 with quantized parameters, float32 and
//! int32 with only the fused activation's clamp).
//!
//! Parameters: the runtime structs borrow their [`Broadcast`] (slices of the plan), so a
//! lowered op holds its int8 struct with the [`NO_BROADCAST`] placeholder next to the
//! [`Binary`] that owns the plan, and builds the full struct in one `params` function used
//! by both `execute` and `emit` (the emitted `&[…]` literals are `'static` in a const).

use super::{ExecError, OpCx, TensorData, TensorStore};
use crate::emit::{EmitCx, Lit};
use crate::error::LowerError;
use crate::ir::{Activation, DType, Tensor, TensorId};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use tflc_runtime::kernels::nd::{
    activation_range_f32, activation_range_i32, is_dense, plan_broadcast, Broadcast, BroadcastPlan, PlainBinaryParams, MAX_RANK,
};
use tflc_runtime::prepare::FusedActivation;
use tflc_runtime::quant::QuantParams;

/// The placeholder broadcast of params held without their (borrowed) broadcast.
pub(crate) const NO_BROADCAST: Broadcast<'static> = Broadcast { out_shape: &[], in1_strides: &[], in2_strides: &[] };

crate::runtime_struct_lit!(kernels::nd::Broadcast<'a> { out_shape, in1_strides, in2_strides });
crate::runtime_struct_lit!(kernels::nd::PlainBinaryParams<'a, T> { activation_min, activation_max, broadcast });

/// The operands of a broadcasting binary op and their walk onto the output.
#[derive(Debug, Clone, PartialEq)]
pub struct Binary {
    pub input1: TensorId,
    pub input2: TensorId,
    pub output: TensorId,
    pub input1_len: usize,
    pub input2_len: usize,
    pub plan: BroadcastPlan,
}

/// The numpy/TFLite broadcast shape of `a` and `b` (right-aligned, 1s stretch), or `None`
/// when they are incompatible.
pub(crate) fn broadcast_shape(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    (0..rank)
        .map(|i| {
            let da = if i + a.len() >= rank { a.get(i + a.len() - rank).copied() } else { Some(1) };
            let db = if i + b.len() >= rank { b.get(i + b.len() - rank).copied() } else { Some(1) };
            match (da?, db?) {
                (x, y) if x == y => Some(x),
                (1, y) => Some(y),
                (x, 1) => Some(x),
                _ => None,
            }
        })
        .collect()
}

/// Checks a two-input, one-output op whose operands broadcast onto the output (TFLite's
/// `CalculateShapeForBroadcast`; the output tensor must have exactly that shape) and plans
/// the walk. Element types are checked by the caller.
pub(crate) fn lower_binary<'m, 'a>(cx: &OpCx<'m, 'a>) -> Result<(Binary, [&'m Tensor<'a>; 3]), LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let input1 = cx.input(0)?;
    let input2 = cx.input(1)?;
    let output = cx.output(0)?;
    cx.expect_activation(output)?;
    if input1.shape.len().max(input2.shape.len()) > MAX_RANK {
        return Err(cx.unsupported(format!("operands of rank above {MAX_RANK}")));
    }
    let shape = broadcast_shape(&input1.shape, &input2.shape).ok_or_else(|| {
        cx.invalid_tensor(input2, format!("shapes {:?} and {:?} do not broadcast", input1.shape, input2.shape))
    })?;
    if output.shape != shape {
        return Err(cx.invalid_tensor(output, format!("output shape {:?}, but the operands broadcast to {shape:?}", output.shape)));
    }
    let plan = plan_broadcast(&input1.shape, &input2.shape)
        .ok_or_else(|| cx.invalid(format!("shapes {:?} and {:?} do not broadcast", input1.shape, input2.shape)))?;
    let b = Binary {
        input1: input1.id,
        input2: input2.id,
        output: output.id,
        input1_len: input1.num_elements(),
        input2_len: input2.num_elements(),
        plan,
    };
    Ok((b, [input1, input2, output]))
}

impl Binary {
    /// The walk, with the operands' strides exchanged when `swap` (see [`Self::swapped`]).
    pub(crate) fn broadcast(&self, swap: bool) -> Broadcast<'_> {
        let b = self.plan.as_broadcast();
        if swap {
            Broadcast { in1_strides: b.in2_strides, in2_strides: b.in1_strides, ..b }
        } else {
            b
        }
    }

    /// The operands' data from `s`, with their lengths checked.
    pub(crate) fn operands<'s, T>(
        &self,
        s: &'s TensorStore,
        get: impl Fn(&'s TensorStore, TensorId) -> Result<&'s [T], ExecError>,
    ) -> Result<(&'s [T], &'s [T]), ExecError> {
        let a = get(s, self.input1)?;
        let b = get(s, self.input2)?;
        if a.len() != self.input1_len || b.len() != self.input2_len {
            return Err(ExecError(format!(
                "operand lengths {} and {} (expected {} and {})",
                a.len(),
                b.len(),
                self.input1_len,
                self.input2_len
            )));
        }
        Ok((a, b))
    }

    /// Runs an int8 binary kernel on the store.
    pub(crate) fn execute_s8(&self, s: &mut TensorStore, f: impl FnOnce(&[i8], &[i8], &mut [i8])) -> Result<(), ExecError> {
        let mut out = s.take_i8(self.output, self.plan.as_broadcast().out_len());
        let (a, b) = self.operands(s, TensorStore::i8)?;
        f(a, b, &mut out);
        s.insert(self.output, TensorData::I8(out));
        Ok(())
    }

    /// The operands the output can overwrite (the runtime's `*_in_place` precondition): `(0,
    /// 0)` when operand 1 has the output's full shape (dense strides, as many elements), and
    /// for a `symmetric` op (`f(a, b) == f(b, a)` exactly) `(1, 0)` when operand 2 has; none
    /// when both operands are one tensor. Element types are the caller's business.
    pub(crate) fn in_place_pairs(&self, symmetric: bool) -> Vec<(usize, usize)> {
        let b = self.plan.as_broadcast();
        let mut pairs = Vec::new();
        if self.input1 == self.input2 {
            return pairs;
        }
        if self.input1_len == b.out_len() && is_dense(b.out_shape, b.in1_strides) {
            pairs.push((0, 0));
        }
        if symmetric && self.input2_len == b.out_len() && is_dense(b.out_shape, b.in2_strides) {
            pairs.push((1, 0));
        }
        pairs
    }

    /// Whether the plan put the output over operand 2 (and not over operand 1): the call
    /// then swaps the operands, so the params (and [`Self::broadcast`]) must too.
    pub(crate) fn swapped(&self, cx: &EmitCx<'_, '_, '_>) -> bool {
        cx.is_in_place(self.input2, self.output) && !cx.is_in_place(self.input1, self.output)
    }

    /// Emits a kernel with an `_in_place` variant: the params const `P` of type `ty` (below
    /// the runtime path) holding `params(swap)`, then `kernels::<module>::<func>(&P, x, y,
    /// out)`, or `<func>_in_place(&P, out, other)` when the plan put the output over an
    /// operand (`swap` when that is operand 2, see [`Self::swapped`]).
    pub(crate) fn emit_in_place_capable<P: Lit>(
        &self,
        cx: &mut EmitCx<'_, '_, '_>,
        ty: TokenStream,
        (module, func): (&str, &str),
        params: impl FnOnce(bool) -> P,
    ) -> TokenStream {
        let swap = self.swapped(cx);
        let p = cx.params_lit(ty, &params(swap));
        let (over, other) = if swap { (self.input2, self.input1) } else { (self.input1, self.input2) };
        let f = kernel_path(cx, module, func);
        if !cx.is_in_place(over, self.output) {
            return self.emit_call(cx, f, &p);
        }
        let f = kernel_path(cx, module, &format!("{func}_in_place"));
        let out = cx.output(self.output);
        let b = cx.input(other);
        quote! { #f(&#p, #out, #b); }
    }

    /// Emits `path(&P, x, y, out);` for a kernel with this operand order.
    pub(crate) fn emit_call(&self, cx: &mut EmitCx<'_, '_, '_>, path: TokenStream, params: &Ident) -> TokenStream {
        let a = cx.input(self.input1);
        let b = cx.input(self.input2);
        let out = cx.output(self.output);
        quote! { #path(&#params, #a, #b, #out); }
    }
}

/// `<rt>::kernels::<module>::<func>`.
fn kernel_path(cx: &EmitCx<'_, '_, '_>, module: &str, func: &str) -> TokenStream {
    let rt = cx.rt();
    let (m, f) = (format_ident!("{}", module), format_ident!("{}", func));
    quote! { #rt::kernels::#m::#f }
}

/// The element type of ADD/SUB/MUL and its compile-time parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum Arith<P> {
    /// int8, with the quantized parameters (their broadcast the [`NO_BROADCAST`]
    /// placeholder: the real one borrows [`Binary::plan`]).
    S8(P),
    /// float32 (TFLite's unquantized path): only the fused activation's clamp.
    F32 { min: f32, max: f32 },
    /// int32 (wrapping, as the runtime documents): only the fused activation's clamp.
    I32 { min: i32, max: i32 },
}

/// Checks ADD, SUB or MUL: int8 operands and output (their quantizations go to `s8`,
/// which mirrors TFLite's Prepare and returns `None` where it fails), or float32 / int32
/// throughout (TFLite's `CalculateActivationRange`).
pub(crate) fn lower_arith<P>(
    cx: &OpCx<'_, '_>,
    activation: Activation,
    s8: impl FnOnce([QuantParams; 3], FusedActivation) -> Option<P>,
) -> Result<(Binary, Arith<P>), LowerError> {
    let (bin, [i1, i2, o]) = lower_binary(cx)?;
    let act = cx.fused_activation(activation)?;
    let arith = match o.dtype {
        DType::I8 => {
            let q = [cx.q_s8(i1)?, cx.q_s8(i2)?, cx.q_s8(o)?];
            Arith::S8(s8(q, act).ok_or_else(|| cx.invalid("the input and output scales give a rescaling TFLite cannot quantize"))?)
        }
        DType::F32 | DType::I32 => {
            cx.expect_dtype(i1, o.dtype)?;
            cx.expect_dtype(i2, o.dtype)?;
            if o.dtype == DType::F32 {
                let (min, max) = activation_range_f32(act);
                Arith::F32 { min, max }
            } else {
                let (min, max) = activation_range_i32(act);
                Arith::I32 { min, max }
            }
        }
        other => return Err(cx.unsupported_tensor(o, format!("element type {other}"))),
    };
    Ok((bin, arith))
}

/// The runtime int8 kernel of an [`ArithKernel`] (`add_s8`).
pub type ArithS8<K> = fn(&<K as ArithKernel>::Params<'_>, &[i8], &[i8], &mut [i8]);

/// A runtime float32 / int32 binary kernel (`add_f32`, `mul_i32`, ...).
pub(crate) type PlainKernel<T> = fn(&PlainBinaryParams<T>, &[T], &[T], &mut [T]);

/// An ADD, SUB or MUL (`K` says which): operands, and the parameters of its element type.
#[derive(Debug, Clone)]
pub struct ArithOp<K: ArithKernel> {
    pub bin: Binary,
    pub params: Arith<K::Params<'static>>,
}

/// What distinguishes ADD, SUB and MUL for [`ArithOp`]: the runtime module, its kernels,
/// and the int8 parameters.
pub trait ArithKernel: std::fmt::Debug + Clone {
    /// The runtime's int8 parameter struct (`AddParams<'b>`); [`ArithOp`] holds it with
    /// the [`NO_BROADCAST`] placeholder.
    type Params<'b>: Lit + Copy + std::fmt::Debug;
    /// The runtime module (`add`) and its params type (`AddParams`): kernels
    /// `<module>_<t>` and `<module>_<t>_in_place` for `t` in `s8`, `s16`, `f32`, `i32`.
    const MODULE: (&'static str, &'static str);
    /// Whether the op commutes exactly in every element type, so that the output may also
    /// overwrite operand 2 (the call then exchanges the operands: [`Self::params`] with
    /// `swap`, or the float32 / int32 walk's strides). ADD and MUL: integer addition and
    /// multiplication commute, and so do IEEE 754's (only the payload of NaN op NaN is left
    /// open, by IEEE 754 and Rust alike, and LLVM commutes `fadd` / `fmul` itself).
    const SYMMETRIC: bool;
    const S8: ArithS8<Self>;
    const F32: PlainKernel<f32>;
    const I32: PlainKernel<i32>;
    /// The params the int8 kernel takes: `held` with the walk `broadcast`, and with the
    /// operands exchanged when `swap` (only asked of a [`Self::SYMMETRIC`] op).
    fn params<'b>(held: &Self::Params<'static>, broadcast: Broadcast<'b>, swap: bool) -> Self::Params<'b>;
}

impl<K: ArithKernel> ArithOp<K> {
    /// The float32 / int32 params: the clamp and the walk (its operands exchanged when
    /// `swap`, see [`Binary::swapped`]).
    fn plain<T>(&self, activation_min: T, activation_max: T, swap: bool) -> PlainBinaryParams<'_, T> {
        PlainBinaryParams { activation_min, activation_max, broadcast: self.bin.broadcast(swap) }
    }
}

impl<K: ArithKernel> super::Kernel for ArithOp<K> {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let n = self.bin.plan.as_broadcast().out_len();
        let out = match &self.params {
            Arith::S8(held) => {
                let p = K::params(held, self.bin.broadcast(false), false);
                return self.bin.execute_s8(s, |a, b, out| K::S8(&p, a, b, out));
            }
            &Arith::F32 { min, max } => {
                let mut out = s.take_f32(self.bin.output, n);
                let (a, b) = self.bin.operands(s, TensorStore::f32)?;
                K::F32(&self.plain(min, max, false), a, b, &mut out);
                TensorData::F32(out)
            }
            &Arith::I32 { min, max } => {
                let mut out = s.take_i32(self.bin.output, n);
                let (a, b) = self.bin.operands(s, TensorStore::i32)?;
                K::I32(&self.plain(min, max, false), a, b, &mut out);
                TensorData::I32(out)
            }
        };
        s.insert(self.bin.output, out);
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let (m, ty) = K::MODULE;
        let bin = &self.bin;
        match &self.params {
            Arith::S8(held) => {
                let (mi, ti) = (format_ident!("{}", m), format_ident!("{}", ty));
                let ty = quote! { kernels::#mi::#ti<'static> };
                bin.emit_in_place_capable(cx, ty, (m, &format!("{m}_s8")), |swap| K::params(held, bin.broadcast(swap), swap))
            }
            &Arith::F32 { min, max } => {
                let ty = quote! { kernels::nd::PlainBinaryParams<'static, f32> };
                bin.emit_in_place_capable(cx, ty, (m, &format!("{m}_f32")), |swap| self.plain(min, max, swap))
            }
            &Arith::I32 { min, max } => {
                let ty = quote! { kernels::nd::PlainBinaryParams<'static, i32> };
                bin.emit_in_place_capable(cx, ty, (m, &format!("{m}_i32")), |swap| self.plain(min, max, swap))
            }
        }
    }

    /// Every element type (`<module>_s8_in_place`, `_f32_in_place`, `_i32_in_place`):
    /// operand 1, and operand 2 too for a [`ArithKernel::SYMMETRIC`] op.
    fn in_place(&self) -> Vec<(usize, usize)> {
        self.bin.in_place_pairs(K::SYMMETRIC)
    }
}

/// Lowers ADD, SUB or MUL: `prepare` is the runtime's Prepare of the int8 form.
pub(crate) fn lower_arith_op<K: ArithKernel>(
    cx: &OpCx<'_, '_>,
    activation: Activation,
    prepare: fn(QuantParams, QuantParams, QuantParams, FusedActivation, Broadcast<'static>) -> Option<K::Params<'static>>,
) -> Result<ArithOp<K>, LowerError> {
    let (bin, params) = lower_arith(cx, activation, |[q1, q2, qo], act| prepare(q1, q2, qo, act, NO_BROADCAST))?;
    Ok(ArithOp { bin, params })
}

/// The runtime int16 kernel of a 16x8 ADD, SUB or MUL (`add_s16`).
pub type ArithS16<K> = fn(&<K as ArithKernel>::Params<'_>, &[i16], &[i16], &mut [i16]);

/// A 16x8 ADD, SUB or MUL: int16 operands and output, the int8 form's parameter struct
/// (held with the [`NO_BROADCAST`] placeholder) and the op's int16 kernel; in place as the
/// int8 form (`<module>_s16_in_place`).
#[derive(Debug, Clone)]
pub struct ArithS16Op<K: ArithKernel> {
    pub bin: Binary,
    pub params: K::Params<'static>,
    pub kernel: ArithS16<K>,
}

/// ADD, SUB or MUL in any of its element types: the int8 / float32 / int32 forms
/// ([`ArithOp`]) or the 16x8 one.
#[derive(Debug, Clone)]
pub enum ArithAny<K: ArithKernel> {
    Base(ArithOp<K>),
    S16(ArithS16Op<K>),
}

impl<K: ArithKernel> super::Kernel for ArithS16Op<K> {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let mut out = s.take_i16(self.bin.output, self.bin.plan.as_broadcast().out_len());
        let (a, b) = self.bin.operands(s, TensorStore::i16)?;
        (self.kernel)(&K::params(&self.params, self.bin.broadcast(false), false), a, b, &mut out);
        s.insert(self.bin.output, TensorData::I16(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let (m, ty) = K::MODULE;
        let (mi, ti) = (format_ident!("{}", m), format_ident!("{}", ty));
        let bin = &self.bin;
        bin.emit_in_place_capable(cx, quote! { kernels::#mi::#ti<'static> }, (m, &format!("{m}_s16")), |swap| K::params(&self.params, bin.broadcast(swap), swap))
    }

    /// As the int8 form: operand 1, and operand 2 too for a symmetric op (the int16
    /// arithmetic is the int8 one with other shifts and clamps, so the swapped params
    /// give the same values).
    fn in_place(&self) -> Vec<(usize, usize)> {
        self.bin.in_place_pairs(K::SYMMETRIC)
    }
}

impl<K: ArithKernel> super::Kernel for ArithAny<K> {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self {
            ArithAny::Base(k) => k.execute(s),
            ArithAny::S16(k) => k.execute(s),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        match self {
            ArithAny::Base(k) => k.emit(cx),
            ArithAny::S16(k) => k.emit(cx),
        }
    }

    fn in_place(&self) -> Vec<(usize, usize)> {
        match self {
            ArithAny::Base(k) => k.in_place(),
            ArithAny::S16(k) => k.in_place(),
        }
    }
}

/// The Prepare of a 16x8 form (`prepare_add_s16`): `None` where TFLite Micro fails.
pub(crate) type PrepareS16<K> = fn(QuantParams, QuantParams, QuantParams, FusedActivation, Broadcast<'static>) -> Option<<K as ArithKernel>::Params<'static>>;

/// Lowers the 16x8 form of ADD, SUB or MUL when the output is int16 (`None` otherwise):
/// both operands int16 too, per-tensor quantized with zero points in the int16 range
/// (TFLite Micro's MUL further needs them 0, which its `prepare` checks).
pub(crate) fn lower_arith_s16<K: ArithKernel>(
    cx: &OpCx<'_, '_>,
    activation: Activation,
    prepare: PrepareS16<K>,
    kernel: ArithS16<K>,
) -> Result<Option<ArithS16Op<K>>, LowerError> {
    let Some(o) = cx.op.outputs.first().map(|&t| cx.sg.tensor(t)) else { return Ok(None) };
    if o.dtype != DType::I16 {
        return Ok(None);
    }
    let (bin, [i1, i2, o]) = lower_binary(cx)?;
    let act = cx.fused_activation(activation)?;
    let mut q = [QuantParams { scale: 0.0, zero_point: 0 }; 3];
    for (k, t) in [i1, i2, o].into_iter().enumerate() {
        cx.expect_dtype(t, DType::I16)?;
        q[k] = cx.per_tensor_q(t)?;
        if i16::try_from(q[k].zero_point).is_err() {
            return Err(cx.invalid_tensor(t, format!("int16 zero point {} is out of range", q[k].zero_point)));
        }
    }
    let params = prepare(q[0], q[1], q[2], act, NO_BROADCAST)
        .ok_or_else(|| cx.unsupported("the int16 scales or zero points give parameters TFLite Micro refuses"))?;
    Ok(Some(ArithS16Op { bin, params, kernel }))
}

/// Tests every broadcasting binary op shares.
#[cfg(test)]
pub(crate) mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{Activation, DType, OpKind};
    use crate::tflite::builder::ModelBuilder;

    /// float32 and int32 ADD/SUB/MUL against the obvious arithmetic with TFLite's clamp
    /// (`min(max(x, lo), hi)`), every broadcasting pattern; int32 wraps.
    pub(crate) fn check_plain(name: &str, kind: fn(Activation) -> OpKind, f: fn(f32, f32) -> f32, i: fn(i32, i32) -> i32) {
        for (a_shape, b_shape) in BROADCAST_CASES {
            let (na, nb) = (a_shape.iter().product(), b_shape.iter().product());
            let af: Vec<f32> = i8s(71, na).iter().map(|&v| v as f32 * 0.037).collect();
            let bf: Vec<f32> = i8s(72, nb).iter().map(|&v| v as f32 * -0.051).collect();
            for (act, lo, hi) in [(Activation::None, f32::MIN, f32::MAX), (Activation::Relu6, 0.0, 6.0), (Activation::ReluN1To1, -1.0, 1.0)] {
                let (out_shape, want) = broadcast_reference(a_shape, &af, b_shape, &bf, |a, b| f(a, b).max(lo).min(hi));
                let (bytes, [x, y, z]) = binary_model(kind(act), DType::F32, (a_shape, None), (b_shape, None), (&out_shape, None));
                let store = run_op0("plain_f32", &bytes, &[(x, TensorData::F32(af.clone())), (y, TensorData::F32(bf.clone()))]);
                assert_eq!(store.f32(z).unwrap(), &want[..], "{act:?} {a_shape:?} {b_shape:?}");
            }
            let ai: Vec<i32> = i8s(73, na).iter().map(|&v| v as i32 * 16_777_259).collect();
            let bi: Vec<i32> = i8s(74, nb).iter().map(|&v| v as i32 * 9_999_991).collect();
            for (act, lo, hi) in [(Activation::None, i32::MIN, i32::MAX), (Activation::Relu, 0, i32::MAX)] {
                let (out_shape, want) = broadcast_reference(a_shape, &ai, b_shape, &bi, |a, b| i(a, b).clamp(lo, hi));
                let (bytes, [x, y, z]) = binary_model(kind(act), DType::I32, (a_shape, None), (b_shape, None), (&out_shape, None));
                let store = run_op0("plain_i32", &bytes, &[(x, TensorData::I32(ai.clone())), (y, TensorData::I32(bi.clone()))]);
                assert_eq!(store.i32(z).unwrap(), &want[..], "{act:?} {a_shape:?} {b_shape:?}");
            }
        }
        // Mixed element types are refused.
        let (bytes, _) = binary_model(kind(Activation::None), DType::F32, (&[3], None), (&[3], None), (&[3], None));
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::F32, &[3], None);
        let y = m.activation("y", DType::I32, &[3], None);
        let z = m.activation("z", DType::F32, &[3], None);
        m.op(kind(Activation::None), &[Some(x), Some(y)], &[z]);
        assert!(matches!(lower_op0(&m.finish()), Err(LowerError::Unsupported { .. })));
        #[cfg(feature = "format")]
        insta::assert_snapshot!(format!("{name}_f32"), emit_op0(&bytes));
        let (bytes, _) = binary_model(kind(Activation::Relu), DType::I32, (&[2, 3], None), (&[3], None), (&[2, 3], None));
        #[cfg(feature = "format")]
        insta::assert_snapshot!(format!("{name}_i32"), emit_op0(&bytes));
        let _ = (name, bytes);
    }
}
