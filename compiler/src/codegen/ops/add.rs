//! ADD, int8 activations, with numpy broadcasting and a fused activation.
//!
//! Mirrors TFLite Micro `add.cc` / `add_common.cc` (`CalculateOpDataAdd`): the runtime's
//! [`prepare_add`] computes the left-shift-20 multipliers from the f32 scales and the
//! activation clamp; [`plan_broadcast`] turns the two operand shapes into the output walk.
//! This file also holds what the other broadcasting binary ops (SUB, MUL, MAXIMUM,
//! MINIMUM, PRELU) share: operand checks, the output-shape rule and the emitted
//! `Broadcast` literal.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::codegen::emit::{array, int, EmitCx};
use crate::error::LowerError;
use crate::ir::{OpKind, Tensor, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::add::{add_s8, prepare_add, AddParams};
use tflc_runtime::kernels::nd::{plan_broadcast, Broadcast, BroadcastPlan, MAX_RANK};
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

/// [`lower_binary`] for int8 operands and output, returning their per-tensor quantization.
pub(crate) fn lower_binary_s8(cx: &OpCx<'_, '_>) -> Result<(Binary, [QuantParams; 3]), LowerError> {
    let (b, [i1, i2, o]) = lower_binary(cx)?;
    let q = [cx.q_s8(i1)?, cx.q_s8(i2)?, cx.q_s8(o)?];
    Ok((b, q))
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
        let b = self.plan.as_broadcast();
        let (os, s1, s2) = (array(b.out_shape), array(b.in1_strides), array(b.in2_strides));
        quote! { #rt::kernels::nd::Broadcast { out_shape: &#os, in1_strides: &#s1, in2_strides: &#s2 } }
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

#[derive(Debug, Clone, PartialEq)]
pub struct Add {
    pub bin: Binary,
    /// Everything but the broadcast (which borrows `bin.plan`).
    pub params: AddParams<'static>,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Add, LowerError> {
    let OpKind::Add { activation } = &cx.op.kind else { return Err(cx.invalid("not an ADD")) };
    let (bin, [q1, q2, qo]) = lower_binary_s8(cx)?;
    let act = cx.fused_activation(*activation)?;
    let p = prepare_add(q1, q2, qo, act, NO_BROADCAST)
        .ok_or_else(|| cx.invalid("the input and output scales give a rescaling TFLite cannot quantize"))?;
    Ok(Add { bin, params: p })
}

impl Add {
    pub fn params(&self) -> AddParams<'_> {
        AddParams { broadcast: self.bin.plan.as_broadcast(), ..self.params }
    }
}

impl Kernel for Add {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = self.params();
        self.bin.execute_s8(s, |a, b, out| add_s8(&p, a, b, out))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let value = emit_add_params(&rt, &self.params, self.bin.emit_broadcast(&rt));
        let p = cx.params(quote! { #rt::kernels::add::AddParams<'static> }, value);
        self.bin.emit_call(cx, quote! { #rt::kernels::add::add_s8 }, &p)
    }
}

#[cfg(test)]
mod tests {
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
