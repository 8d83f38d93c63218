//! ADD, int8 activations (also float32 and int32), with numpy broadcasting and a fused
//! activation.
//!
//! Mirrors TFLite Micro `add.cc` / `add_common.cc` (`CalculateOpDataAdd`): the runtime's
//! [`prepare_add`] computes the left-shift-20 multipliers from the f32 scales and the
//! activation clamp; [`plan_broadcast`] turns the two operand shapes into the output walk.
//! This file also holds what the other broadcasting binary ops (SUB, MUL, MAXIMUM,
//! MINIMUM, PRELU) share: operand checks, the output-shape rule and the emitted
//! `Broadcast` literal.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::{array, float, int, EmitCx};
use crate::error::LowerError;
use crate::ir::{Activation, DType, OpKind, Tensor, TensorId};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use tflc_runtime::kernels::add::{add_f32, add_i32, add_s8, prepare_add, AddParams};
use tflc_runtime::kernels::nd::{
    activation_range_f32, activation_range_i32, is_dense, plan_broadcast, Broadcast, BroadcastPlan, PlainBinaryParams, MAX_RANK,
};
use tflc_runtime::prepare::FusedActivation;
use tflc_runtime::quant::QuantParams;

/// A placeholder broadcast for params stored without their (borrowed) broadcast.
pub(crate) const NO_BROADCAST: Broadcast<'static> = Broadcast { out_shape: &[], in1_strides: &[], in2_strides: &[] };

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

    /// The emitted `Broadcast { .. }` literal.
    pub(crate) fn emit_broadcast(&self, rt: &TokenStream) -> TokenStream {
        self.emit_broadcast_for(rt, false)
    }

    /// The emitted `Broadcast { .. }` literal, with the operands' strides exchanged when
    /// `swap`.
    pub(crate) fn emit_broadcast_for(&self, rt: &TokenStream, swap: bool) -> TokenStream {
        let b = self.plan.as_broadcast();
        let (i1, i2) = if swap { (b.in2_strides, b.in1_strides) } else { (b.in1_strides, b.in2_strides) };
        let (os, s1, s2) = (array(b.out_shape), array(i1), array(i2));
        quote! { #rt::kernels::nd::Broadcast { out_shape: &#os, in1_strides: &#s1, in2_strides: &#s2 } }
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
    /// then swaps the operands, so the params (and [`Self::emit_broadcast_for`]) must too.
    pub(crate) fn swapped(&self, cx: &EmitCx<'_, '_, '_>) -> bool {
        cx.is_in_place(self.input2, self.output) && !cx.is_in_place(self.input1, self.output)
    }

    /// Emits `in_place_path(&P, out, other);` when the plan put the output over an operand
    /// (operand 2 when [`Self::swapped`]: `P` must be the swapped params), otherwise
    /// [`Self::emit_call`] with `path`.
    pub(crate) fn emit_call_in_place(
        &self,
        cx: &mut EmitCx<'_, '_, '_>,
        path: TokenStream,
        in_place_path: TokenStream,
        params: &proc_macro2::Ident,
    ) -> TokenStream {
        let (over, other) = if self.swapped(cx) { (self.input2, self.input1) } else { (self.input1, self.input2) };
        if !cx.is_in_place(over, self.output) {
            return self.emit_call(cx, path, params);
        }
        let out = cx.output(self.output);
        let b = cx.input(other);
        quote! { #in_place_path(&#params, #out, #b); }
    }

    /// Emits `path(&P, x, y, out);` for a kernel with this operand order.
    pub(crate) fn emit_call(&self, cx: &mut EmitCx<'_, '_, '_>, path: TokenStream, params: &proc_macro2::Ident) -> TokenStream {
        let a = cx.input(self.input1);
        let b = cx.input(self.input2);
        let out = cx.output(self.output);
        quote! { #path(&#params, #a, #b, #out); }
    }
}

/// Emits the fields of an [`AddParams`] (shared with SUB, whose params are the same type).
pub(crate) fn emit_add_params(rt: &TokenStream, p: &AddParams<'_>, broadcast: TokenStream) -> TokenStream {
    let i = |v: i32| int(v as i64);
    let (o1, o2, oo, ls) = (i(p.input1_offset), i(p.input2_offset), i(p.output_offset), i(p.left_shift));
    let (m1, s1, m2, s2) = (i(p.input1_multiplier), i(p.input1_shift), i(p.input2_multiplier), i(p.input2_shift));
    let (mo, so, amin, amax) = (i(p.output_multiplier), i(p.output_shift), i(p.activation_min), i(p.activation_max));
    quote! {
        #rt::kernels::add::AddParams {
            input1_offset: #o1,
            input2_offset: #o2,
            output_offset: #oo,
            left_shift: #ls,
            input1_multiplier: #m1,
            input1_shift: #s1,
            input2_multiplier: #m2,
            input2_shift: #s2,
            output_multiplier: #mo,
            output_shift: #so,
            activation_min: #amin,
            activation_max: #amax,
            broadcast: #broadcast,
        }
    }
}

/// The element type of ADD/SUB/MUL and its compile-time parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum Arith<P> {
    /// int8, with the quantized parameters (their broadcast a placeholder: it borrows
    /// [`Binary::plan`]).
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

/// An `f32` bound as tokens (`f32::MAX` for the unbounded clamp).
fn f32_tokens(v: f32) -> TokenStream {
    if v == f32::MAX {
        quote! { f32::MAX }
    } else if v == f32::MIN {
        quote! { f32::MIN }
    } else if v < 0.0 {
        let a = float(-v);
        quote! { -#a }
    } else {
        float(v)
    }
}

/// An `i32` bound as tokens.
fn i32_tokens(v: i32) -> TokenStream {
    if v == i32::MIN {
        quote! { i32::MIN }
    } else {
        int(v as i64)
    }
}

/// A runtime float32 / int32 binary kernel (`add_f32`, `mul_i32`, ...).
pub(crate) type PlainKernel<T> = fn(&PlainBinaryParams<T>, &[T], &[T], &mut [T]);

impl Binary {
    /// Runs the float32 or int32 kernel of `arith` on the store.
    pub(crate) fn execute_plain<P>(
        &self,
        s: &mut TensorStore,
        arith: &Arith<P>,
        f: PlainKernel<f32>,
        i: PlainKernel<i32>,
    ) -> Result<(), ExecError> {
        let broadcast = self.plan.as_broadcast();
        let n = broadcast.out_len();
        let out = match *arith {
            Arith::F32 { min, max } => {
                let mut out = s.take_f32(self.output, n);
                let (a, b) = self.operands(s, TensorStore::f32)?;
                f(&PlainBinaryParams { activation_min: min, activation_max: max, broadcast }, a, b, &mut out);
                TensorData::F32(out)
            }
            Arith::I32 { min, max } => {
                let mut out = s.take_i32(self.output, n);
                let (a, b) = self.operands(s, TensorStore::i32)?;
                i(&PlainBinaryParams { activation_min: min, activation_max: max, broadcast }, a, b, &mut out);
                TensorData::I32(out)
            }
            Arith::S8(_) => return Err(ExecError("execute_plain on an int8 op".into())),
        };
        s.insert(self.output, out);
        Ok(())
    }

    /// Emits the float32 or int32 call `kernels::<module>::<module>_{f32,i32}` of `arith`.
    pub(crate) fn emit_plain<P>(&self, cx: &mut EmitCx<'_, '_, '_>, arith: &Arith<P>, module: &str) -> TokenStream {
        let rt = cx.rt().clone();
        let (t, min, max, suffix) = match *arith {
            Arith::F32 { min, max } => (quote! { f32 }, f32_tokens(min), f32_tokens(max), "f32"),
            Arith::I32 { min, max } => (quote! { i32 }, i32_tokens(min), i32_tokens(max), "i32"),
            Arith::S8(_) => return quote! { compile_error!("tflc: emit_plain on an int8 op"); },
        };
        let b = self.emit_broadcast(&rt);
        let p = cx.params(
            quote! { #rt::kernels::nd::PlainBinaryParams<'static, #t> },
            quote! { #rt::kernels::nd::PlainBinaryParams { activation_min: #min, activation_max: #max, broadcast: #b } },
        );
        let (m, f) = (format_ident!("{}", module), format_ident!("{}_{}", module, suffix));
        self.emit_call(cx, quote! { #rt::kernels::#m::#f }, &p)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Add {
    pub bin: Binary,
    pub params: Arith<AddParams<'static>>,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Add, LowerError> {
    let OpKind::Add { activation } = &cx.op.kind else { return Err(cx.invalid("not an ADD")) };
    let (bin, params) = lower_arith(cx, *activation, |[q1, q2, qo], act| prepare_add(q1, q2, qo, act, NO_BROADCAST))?;
    Ok(Add { bin, params })
}

impl Kernel for Add {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match &self.params {
            Arith::S8(p) => {
                let p = AddParams { broadcast: self.bin.plan.as_broadcast(), ..*p };
                self.bin.execute_s8(s, |a, b, out| add_s8(&p, a, b, out))
            }
            plain => self.bin.execute_plain(s, plain, add_f32, add_i32),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        match &self.params {
            Arith::S8(p) => {
                // Over operand 2: the same sum with the operands exchanged (integer addition
                // commutes, each operand keeps its own rescaling).
                let swap = self.bin.swapped(cx);
                let p = if swap {
                    AddParams {
                        input1_offset: p.input2_offset,
                        input2_offset: p.input1_offset,
                        input1_multiplier: p.input2_multiplier,
                        input2_multiplier: p.input1_multiplier,
                        input1_shift: p.input2_shift,
                        input2_shift: p.input1_shift,
                        ..*p
                    }
                } else {
                    *p
                };
                let value = emit_add_params(&rt, &p, self.bin.emit_broadcast_for(&rt, swap));
                let p = cx.params(quote! { #rt::kernels::add::AddParams<'static> }, value);
                self.bin.emit_call_in_place(cx, quote! { #rt::kernels::add::add_s8 }, quote! { #rt::kernels::add::add_s8_in_place }, &p)
            }
            plain => self.bin.emit_plain(cx, plain, "add"),
        }
    }

    /// int8 only (the float32 / int32 kernels have no in-place variant); either operand.
    fn in_place(&self) -> Vec<(usize, usize)> {
        if matches!(self.params, Arith::S8(_)) { self.bin.in_place_pairs(true) } else { Vec::new() }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::test_helpers::*;
    use super::*;
    use crate::ir::{Activation, DType};
    use crate::tflite::builder::ModelBuilder;

    fn model(a: (&[usize], Q), b: (&[usize], Q), out: (&[usize], Q), act: Activation) -> (Vec<u8>, [TensorId; 3]) {
        binary_model(OpKind::Add { activation: act }, DType::I8, a, b, out)
    }

    /// With all three scales equal, TFLite's ADD is exact integer arithmetic:
    /// `(a - za) + (b - zb) + zo`, clamped (multipliers 1/2, 1/2 and 2^-19 are powers of
    /// two, so no rounding happens).
    fn check_equal_scales(a_shape: &[usize], b_shape: &[usize], zps: [i64; 3], act: Activation, lo: i32, hi: i32) {
        let s = 0.0625;
        let av = i8s(1, a_shape.iter().product());
        let bv = i8s(2, b_shape.iter().product());
        let (out_shape, want) = broadcast_reference(a_shape, &av, b_shape, &bv, |a, b| {
            (a as i32 - zps[0] as i32 + b as i32 - zps[1] as i32 + zps[2] as i32).clamp(lo, hi) as i8
        });
        let (bytes, [x, y, z]) =
            model((a_shape, Some((s, zps[0]))), (b_shape, Some((s, zps[1]))), (&out_shape, Some((s, zps[2]))), act);
        let store = run_op0("add", &bytes, &[(x, TensorData::I8(av)), (y, TensorData::I8(bv))]);
        assert_eq!(out_i8(&store, z), want, "{a_shape:?} + {b_shape:?}");
    }

    #[test]
    fn broadcasting_every_pattern_saturates() {
        for (a, b) in BROADCAST_CASES {
            check_equal_scales(a, b, [3, -7, 1], Activation::None, -128, 127);
            check_equal_scales(a, b, [0, 0, 0], Activation::None, -128, 127);
        }
    }

    #[test]
    fn fused_activations_clamp() {
        // scale 1/16: RELU clamps at zo, RELU6 at zo + 96, RELU_N1_TO_1 at zo -/+ 16.
        check_equal_scales(&[4, 9], &[9], [0, 0, -20], Activation::Relu, -20, 127);
        check_equal_scales(&[4, 9], &[9], [0, 0, -20], Activation::Relu6, -20, 76);
        check_equal_scales(&[4, 9], &[9], [0, 0, -20], Activation::ReluN1To1, -36, -4);
    }

    #[test]
    fn different_scales_follow_the_real_sum() {
        // Not exact in fixed point: within one step of the real-valued result.
        let (sa, sb, so) = (0.02f32, 0.05f32, 0.07f32);
        let (bytes, [x, y, z]) = model((&[2, 8], Some((sa, -3))), (&[1, 8], Some((sb, 10))), (&[2, 8], Some((so, 5))), Activation::None);
        let av = i8s(3, 16);
        let bv = i8s(4, 8);
        let store = run_op0("add_scales", &bytes, &[(x, TensorData::I8(av.clone())), (y, TensorData::I8(bv.clone()))]);
        let got = out_i8(&store, z);
        for i in 0..16 {
            let real = sa as f64 * (av[i] as f64 + 3.0) + sb as f64 * (bv[i % 8] as f64 - 10.0);
            let want = ((real / so as f64).round() + 5.0).clamp(-128.0, 127.0);
            assert!((got[i] as f64 - want).abs() <= 1.0, "{i}: {} vs {want}", got[i]);
        }
    }

    #[test]
    fn constant_operand_is_a_weight() {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[1, 2, 3], Some((0.5, 0)));
        let c = m.constant_i8("c", &[3], &[1, -2, 100], Some((0.5, 0)));
        let z = m.activation("z", DType::I8, &[1, 2, 3], Some((0.5, 0)));
        m.op(OpKind::Add { activation: Activation::None }, &[Some(x), Some(c)], &[z]);
        m.inputs(&[x]);
        m.outputs(&[z]);
        let bytes = m.finish();
        let store = run_op0("add_const", &bytes, &[(x, TensorData::I8(vec![0, 0, 0, 5, 5, 100]))]);
        assert_eq!(out_i8(&store, z), vec![1, -2, 100, 6, 3, 127]);
        #[cfg(feature = "format")]
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, _) = model((&[1, 4, 6, 3], Some((0.5, -1))), (&[1, 1, 1, 3], Some((0.25, 2))), (&[1, 4, 6, 3], Some((1.0, 3))), Activation::Relu);
        insta::assert_snapshot!(emit_op0(&bytes));
    }

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

    #[test]
    fn float32_and_int32() {
        check_plain("add", |activation| OpKind::Add { activation }, |a, b| a + b, i32::wrapping_add);
    }

    #[test]
    fn malformed_models_are_errors() {
        check_malformed_binary(OpKind::Add { activation: Activation::None });
        let q = Some((0.5, 0));
        let (b, _) = model((&[3], q), (&[3], q), (&[3], q), Activation::Tanh);
        assert!(matches!(lower_op0(&b), Err(LowerError::Unsupported { .. })));
    }

    /// Cases the corpus lacks (rank 5, both operands stretching, unequal scales, RELU6),
    /// checked against TFLite Micro (`tools/op_test_vectors.py`).
    #[test]
    fn reference_vectors() {
        let (bytes, [x, y, z]) = model(
            (&[2, 3, 1, 2, 1], Some((0.031, -7))),
            (&[3, 2, 2, 5], Some((0.0123, 19))),
            (&[2, 3, 2, 2, 5], Some((0.027, -128))),
            Activation::Relu6,
        );
        let inputs = [(x, TensorData::I8(i8s(31, 12))), (y, TensorData::I8(i8s(32, 60)))];
        check_vector("add_rank5_relu6", &bytes, &inputs, z, ADD_RANK5_RELU6);
        let (bytes, [x, y, z]) = model((&[7, 1], Some((0.9, 3))), (&[1, 9], Some((0.0041, -2))), (&[7, 9], Some((0.5, 0))), Activation::None);
        let inputs = [(x, TensorData::I8(i8s(33, 7))), (y, TensorData::I8(i8s(34, 9)))];
        check_vector("add_scale_ratio", &bytes, &inputs, z, ADD_SCALE_RATIO);
    }


    const ADD_RANK5_RELU6: &[i8] = &[
        -128, -86, -92, -117, -128, -106, -128, -119, -103, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -116, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -90, -128, -128, -96, -111,
        -128, -125, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -89, -128, -66, -128, -128, -128, -118, -128, -128, -77, -116, -117, -83, -128, -128, -128, -117, -128, -128,
        49, -29, 23, -1, -25, -73, -88, -85, -43, -46, -50, -19, -44, 28, -31, -2, -47, -70, -8, -23,
    ];
    const ADD_SCALE_RATIO: &[i8] = &[
        93, 93, 94, 94, 93, 94, 94, 94, 94, -128, -128, -128, -128, -128, -128, -128, -128, -128, 127, 127,
        127, 127, 127, 127, 127, 127, 127, 46, 46, 47, 48, 46, 47, 47, 47, 48, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -73, -72, -71, -71, -72, -72, -72, -72, -71, -74, -74, -73, -73, -74, -73,
        -74, -74, -73,
    ];
}
