//! The unary family: one input, one output of the same shape (RELU, RELU6,
//! RELU_N1_TO_1, LEAKY_RELU, TANH, LOGISTIC, HARD_SWISH, QUANTIZE, DEQUANTIZE, SOFTMAX). This file
//! holds their shared checks ([`lower_unary`]), reference execution ([`Unary::run`]) and
//! the emitted call of a kernel with an `_in_place` variant ([`Unary::emit_with`], with a
//! params const; [`Unary::emit_plain`], without),
//! plus [`UnaryS8`], the whole lowered op of the int8 transcendental unaries (TANH,
//! LOGISTIC, HARD_SWISH), whose builtin files only compute their params, and
//! [`UnaryF32`] / [`Transcendental`], their float32 form and the choice between the two.

use super::movement::{get, put, Elem};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::{EmitCx, InOut, Lit};
use crate::error::LowerError;
use crate::ir::{DType, Tensor, TensorId};
use super::target::{Arm, PerTarget};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use tflc_runtime::isa::TargetClass;
use tflc_runtime::quant::QuantParams;

/// The input and output of an op of this family (same shape).
#[derive(Debug, Clone, PartialEq)]
pub struct Unary {
    pub input: TensorId,
    pub output: TensorId,
    pub len: usize,
}

/// Checks a one-input, one-output elementwise op: the output is an activation with the
/// input's shape and, when `same_dtype`, its element type. Returns the two tensors.
pub(crate) fn lower_unary<'m, 'a>(cx: &OpCx<'m, 'a>, same_dtype: bool) -> Result<(Unary, [&'m Tensor<'a>; 2]), LowerError> {
    cx.expect_arity(1..=1, 1)?;
    let input = cx.input(0)?;
    let output = cx.output(0)?;
    cx.expect_activation(output)?;
    if output.shape != input.shape {
        return Err(cx.invalid_tensor(output, format!("output shape {:?}, but the input's is {:?}", output.shape, input.shape)));
    }
    if same_dtype {
        cx.expect_dtype(output, input.dtype)?;
    }
    Ok((Unary { input: input.id, output: output.id, len: input.num_elements() }, [input, output]))
}

/// [`lower_unary`] for int8 input and output; returns the tensors and their per-tensor
/// quantizations.
#[allow(clippy::type_complexity)]
pub(crate) fn lower_unary_s8<'m, 'a>(cx: &OpCx<'m, 'a>) -> Result<(Unary, [&'m Tensor<'a>; 2], [QuantParams; 2]), LowerError> {
    let (un, [input, output]) = lower_unary(cx, false)?;
    Ok((un, [input, output], [cx.q_s8(input)?, cx.q_s8(output)?]))
}

impl Unary {
    /// Runs an elementwise kernel from `I` to `O` on the store.
    pub(crate) fn run<I: Elem, O: Elem>(&self, s: &mut TensorStore, f: impl FnOnce(&[I], &mut [O])) -> Result<(), ExecError> {
        let x = get::<I>(s, self.input)?;
        if x.len() != self.len {
            return Err(ExecError(format!("input has {} elements, expected {}", x.len(), self.len)));
        }
        let mut out = vec![O::default(); self.len];
        f(x, &mut out);
        put(s, self.output, out);
        Ok(())
    }

    /// Runs an int8 elementwise kernel on the store.
    pub(crate) fn execute_s8(&self, s: &mut TensorStore, f: impl FnOnce(&[i8], &mut [i8])) -> Result<(), ExecError> {
        self.run(s, f)
    }

    /// Runs a float32 elementwise kernel on the store.
    pub(crate) fn execute_f32(&self, s: &mut TensorStore, f: impl FnOnce(&[f32], &mut [f32])) -> Result<(), ExecError> {
        self.run(s, f)
    }

    /// Emits an elementwise kernel call with the params const `P` of type `ty` (below the
    /// runtime path) holding `params`: `kernels::<module>::<func>_in_place(&P, data)` when the
    /// plan put the output over the input (only for an op that declared the pair), else
    /// `kernels::<module>::<func>(&P, x, y)`.
    pub(crate) fn emit_with(&self, cx: &mut EmitCx<'_, '_, '_>, ty: TokenStream, (module, func): (&str, &str), params: &impl Lit) -> TokenStream {
        let p = cx.params_lit(ty, params);
        let rt = cx.rt().clone();
        let m = format_ident!("{}", module);
        match cx.in_out(self.input, self.output) {
            InOut::InPlace(d) => {
                let f = format_ident!("{}_in_place", func);
                quote! { #rt::kernels::#m::#f(&#p, #d); }
            }
            InOut::Apart(x, y) => {
                let f = format_ident!("{}", func);
                quote! { #rt::kernels::#m::#f(&#p, #x, #y); }
            }
        }
    }

    /// Emits a kernel without a params const, its leading arguments `args` (`alpha,` or
    /// nothing): `kernels::<module>::<func>_in_place(<args> data)` when the plan put the
    /// output over the input (only for an op that declared the pair), else
    /// `kernels::<module>::<func>(<args> x, y)`.
    pub(crate) fn emit_plain(&self, cx: &mut EmitCx<'_, '_, '_>, module: &str, func: &str, args: TokenStream) -> TokenStream {
        let rt = cx.rt().clone();
        let m = format_ident!("{}", module);
        match cx.in_out(self.input, self.output) {
            InOut::InPlace(d) => {
                let f = format_ident!("{}_in_place", func);
                quote! { #rt::kernels::#m::#f(#args #d); }
            }
            InOut::Apart(x, y) => {
                let f = format_ident!("{}", func);
                quote! { #rt::kernels::#m::#f(#args #x, #y); }
            }
        }
    }
}

/// An int8 elementwise runtime kernel with compile-time parameters `Self` and an
/// `_in_place` variant: `kernels::<module>::<module>_s8(&Self, x, y)`.
pub trait S8Kernel: Lit + Clone + std::fmt::Debug {
    /// The runtime module and the params type in it: `("tanh", "TanhParams")`.
    const MODULE: (&'static str, &'static str);
    /// The runtime kernel `<module>_s8`, for `execute`.
    const RUN: fn(&Self, &[i8], &mut [i8]);
}

/// How an int8 transcendental runs on a target class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryForm {
    /// `P`'s kernel: TFLite Micro's fixed-point arithmetic per element (Arm builds: no
    /// table in flash, the instruction counts TFLite Micro is measured with).
    Arithmetic,
    /// A 256-entry table holding that arithmetic's result for every int8 code, computed
    /// here by the runtime's own kernel, read with `kernels::elementwise::lut_s8` (hosts:
    /// one load per element instead of tens of instructions). Bit-exact by construction.
    Table,
}

/// An int8 elementwise op whose lowering is only its params `P` (TANH, LOGISTIC,
/// HARD_SWISH): it runs and emits `P`'s kernel, or on hosts its table ([`UnaryForm`]), in
/// place when the plan allows.
#[derive(Debug, Clone)]
pub struct UnaryS8<P> {
    pub un: Unary,
    pub params: P,
    /// The form per target class; the `Table` arm's packed table is the 256 outputs,
    /// indexed by the input code's byte.
    pub arms: PerTarget<UnaryForm, i8>,
}

impl<P: S8Kernel> UnaryS8<P> {
    /// The op with its forms: the table is `P::RUN` over the 256 int8 codes.
    pub fn new(un: Unary, params: P) -> Self {
        let codes: Vec<i8> = (0..=255u8).map(|b| b as i8).collect();
        let mut table = vec![0i8; 256];
        P::RUN(&params, &codes, &mut table);
        let arms = PerTarget::select(
            |class| if class == TargetClass::ArmDsp { UnaryForm::Arithmetic } else { UnaryForm::Table },
            |form| if form == UnaryForm::Table { table.clone() } else { Vec::new() },
        );
        Self { un, params, arms }
    }
}

impl<P: S8Kernel> Kernel for UnaryS8<P> {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let Arm { variant, packed, .. } = self.arms.of(TargetClass::Host);
        match variant {
            UnaryForm::Arithmetic => self.un.execute_s8(s, |x, y| P::RUN(&self.params, x, y)),
            UnaryForm::Table => self.un.execute_s8(s, |x, y| tflc_runtime::kernels::elementwise::lut_s8(packed, x, y)),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let (m, ty) = P::MODULE;
        let (mi, ti) = (format_ident!("{}", m), format_ident!("{}", ty));
        cx.per_target(&self.arms.cfgs(), |cx, i| {
            let Arm { variant, packed, .. } = &self.arms.arms[i];
            match variant {
                UnaryForm::Arithmetic => self.un.emit_with(cx, quote! { kernels::#mi::#ti }, (m, &format!("{m}_s8")), &self.params),
                UnaryForm::Table => {
                    let table = cx.table_i8("lut", packed);
                    let rt = cx.rt().clone();
                    match cx.in_out(self.un.input, self.un.output) {
                        InOut::InPlace(d) => quote! { #rt::kernels::elementwise::lut_s8_in_place(#table, #d); },
                        InOut::Apart(x, y) => quote! { #rt::kernels::elementwise::lut_s8(#table, #x, #y); },
                    }
                }
            }
        })
    }

    fn in_place(&self) -> Vec<(usize, usize)> {
        vec![(0, 0)]
    }
}

/// A float32 elementwise op without parameters (TANH, LOGISTIC, HARD_SWISH):
/// `kernels::<module>::<module>_f32(x, y)`, or `<module>_f32_in_place(data)` when the plan
/// put the output over the input.
#[derive(Debug, Clone)]
pub struct UnaryF32 {
    pub un: Unary,
    /// The runtime module (`"tanh"`); the kernel is `<module>_f32`.
    pub module: &'static str,
    /// That kernel, for `execute`.
    pub run: fn(&[f32], &mut [f32]),
}

impl Kernel for UnaryF32 {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        self.un.execute_f32(s, self.run)
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        self.un.emit_plain(cx, self.module, &format!("{}_f32", self.module), TokenStream::new())
    }

    fn in_place(&self) -> Vec<(usize, usize)> {
        vec![(0, 0)]
    }
}

/// TANH, LOGISTIC or HARD_SWISH lowered: the int8 form with its params `P`, or float32.
#[derive(Debug, Clone)]
pub enum Transcendental<P> {
    S8(UnaryS8<P>),
    F32(UnaryF32),
    /// int16 LOGISTIC or TANH (16x8).
    S16(LutS16),
}

/// int16 LOGISTIC (`module` "logistic") or TANH ("tanh"): TFLite's int16 LUT kernels with the
/// input scaling TFLite Micro's Prepare computes
/// ([`tflc_runtime::kernels::logistic::prepare_lut_s16`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LutS16 {
    pub un: Unary,
    pub module: &'static str,
    pub params: tflc_runtime::kernels::logistic::LutS16Params,
}

crate::runtime_struct_lit!(kernels::logistic::LutS16Params { multiplier, shift });

impl Kernel for LutS16 {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = &self.params;
        if self.module == "tanh" {
            self.run(s, |x, y| tflc_runtime::kernels::tanh::tanh_s16(p, x, y))
        } else {
            self.run(s, |x, y| tflc_runtime::kernels::logistic::logistic_s16(p, x, y))
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let func = format!("{}_s16", self.module);
        self.un.emit_with(cx, quote! { kernels::logistic::LutS16Params }, (self.module, &func), &self.params)
    }

    fn in_place(&self) -> Vec<(usize, usize)> {
        vec![(0, 0)]
    }
}

impl LutS16 {
    fn run(&self, s: &mut TensorStore, f: impl FnOnce(&[i16], &mut [i16])) -> Result<(), ExecError> {
        self.un.run::<i16, i16>(s, f)
    }
}

/// int16 LOGISTIC or TANH (`module`): zero points 0 and output scale 2^-15, as TFLite Micro's
/// Prepare requires; the input an activation.
pub(crate) fn lower_lut_s16(cx: &OpCx<'_, '_>, module: &'static str) -> Result<LutS16, LowerError> {
    let (un, [input, output]) = lower_unary(cx, false)?;
    cx.expect_activation(input)?;
    let (qi, qo) = (cx.q_s16(input)?, cx.q_s16(output)?);
    let params = tflc_runtime::kernels::logistic::prepare_lut_s16(qi.scale, qo.scale, module == "tanh").ok_or_else(|| {
        output_q_error(cx, output, qo, &format!("int16 {}", module.to_uppercase()), "TFLite Micro requires scale 2^-15 and an input scale whose multiplier fits 15 bits")
    })?;
    Ok(LutS16 { un, module, params })
}

impl<P: S8Kernel> Kernel for Transcendental<P> {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self {
            Transcendental::S8(k) => k.execute(s),
            Transcendental::F32(k) => k.execute(s),
            Transcendental::S16(k) => k.execute(s),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        match self {
            Transcendental::S8(k) => k.emit(cx),
            Transcendental::F32(k) => k.emit(cx),
            Transcendental::S16(k) => k.emit(cx),
        }
    }

    fn in_place(&self) -> Vec<(usize, usize)> {
        match self {
            Transcendental::S8(k) => k.in_place(),
            Transcendental::F32(k) => k.in_place(),
            Transcendental::S16(k) => k.in_place(),
        }
    }
}

/// TANH, LOGISTIC or HARD_SWISH: the float32 form (`module`'s `<module>_f32`, `run`) when
/// the input is float32 (the output too, of the same shape; the input an activation), else
/// `s8` (the int8 lowering).
pub(crate) fn lower_transcendental_op<P>(
    cx: &OpCx<'_, '_>,
    module: &'static str,
    run: fn(&[f32], &mut [f32]),
    s8: impl FnOnce(&OpCx<'_, '_>) -> Result<UnaryS8<P>, LowerError>,
) -> Result<Transcendental<P>, LowerError> {
    if cx.input(0).is_ok_and(|t| t.dtype == DType::F32) {
        let (un, [input, _]) = lower_unary(cx, true)?;
        cx.expect_activation(input)?;
        return Ok(Transcendental::F32(UnaryF32 { un, module, run }));
    }
    if cx.input(0).is_ok_and(|t| t.dtype == DType::I16) && matches!(module, "tanh" | "logistic") {
        return lower_lut_s16(cx, module).map(Transcendental::S16);
    }
    s8(cx).map(Transcendental::S8)
}

/// [`lower_unary_s8`] for TANH, LOGISTIC and HARD_SWISH, whose input must also be an
/// activation (not a constant).
#[allow(clippy::type_complexity)]
pub(crate) fn lower_transcendental<'m, 'a>(cx: &OpCx<'m, 'a>) -> Result<(Unary, &'m Tensor<'a>, [QuantParams; 2]), LowerError> {
    let (un, [input, output], q) = lower_unary_s8(cx)?;
    cx.expect_activation(input)?;
    Ok((un, output, q))
}

/// The error for an output whose quantization `q` is not the fixed one the kernel of `what`
/// (`"int8 TANH"`) writes; `requirement` says which and who requires it (`"TFLite requires
/// scale 1/128, zero point 0"`).
pub(crate) fn output_q_error(cx: &OpCx<'_, '_>, output: &Tensor<'_>, q: QuantParams, what: &str, requirement: &str) -> LowerError {
    cx.unsupported_tensor(output, format!("{what} output quantization scale={} zp={} ({requirement})", q.scale, q.zero_point))
}

/// Test helpers of the int8 unary ops.
#[cfg(test)]
pub(crate) mod tests {
    use crate::ir::{DType, OpKind, TensorId};

    /// The Arm builds keep the per-element arithmetic (no table in flash); every host class
    /// gets the table, and each entry is the arithmetic kernel's output for that code, for
    /// the three ops and parameters that saturate and that do not.
    #[test]
    fn hosts_get_the_table_of_the_arithmetic() {
        use super::{Unary, UnaryForm, UnaryS8};
        use tflc_runtime::isa::TargetClass;
        use tflc_runtime::kernels::{hard_swish, logistic, tanh};
        let un = Unary { input: TensorId::new(0), output: TensorId::new(1), len: 256 };
        fn check<P: super::S8Kernel>(op: &UnaryS8<P>) {
            let codes: Vec<i8> = (0..=255u8).map(|b| b as i8).collect();
            let mut want = vec![0i8; 256];
            P::RUN(&op.params, &codes, &mut want);
            let arm = op.arms.of(TargetClass::ArmDsp);
            assert_eq!((arm.variant, arm.packed.len()), (UnaryForm::Arithmetic, 0));
            let host = op.arms.of(TargetClass::Host);
            assert_eq!(host.variant, UnaryForm::Table);
            let mut got = vec![0i8; 256];
            tflc_runtime::kernels::elementwise::lut_s8(&host.packed, &codes, &mut got);
            assert_eq!(got, want);
            assert!(want.iter().any(|&v| v != want[0]), "a constant table proves little");
        }
        for (scale, zp) in [(0.03, 20), (0.3, -5), (0.002, -128)] {
            check(&UnaryS8::new(un.clone(), logistic::prepare_logistic_s8(scale, zp, -128).expect("params")));
            check(&UnaryS8::new(un.clone(), tanh::prepare_tanh_s8(scale, zp)));
        }
        let hs = hard_swish::prepare_hard_swish_s8(0.05, 1, 0.03, -5).expect("params");
        check(&UnaryS8::new(un, hs));
    }

    /// A single element-wise op model for the tests of TANH, LOGISTIC and HARD_SWISH: input
    /// `shape` quantized `in_q`, output of `out_shape` quantized `out_q`; returns bytes, input
    /// and output.
    pub(crate) fn unary_s8_model(kind: OpKind, shape: &[usize], in_q: (f32, i64), out_shape: &[usize], out_q: (f32, i64)) -> (Vec<u8>, TensorId, TensorId) {
        let mut b = crate::tflite::builder::ModelBuilder::new();
        let x = b.activation("x", DType::I8, shape, Some(in_q));
        let y = b.activation("y", DType::I8, out_shape, Some(out_q));
        b.op(kind, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// Every int8 value once, ascending.
    pub(crate) fn all_i8() -> Vec<i8> {
        (-128..=127).collect()
    }

    /// The float32 inputs of the TANH, LOGISTIC and HARD_SWISH vectors: -20 to 19.9 by
    /// 0.1, -0.032 to 0.031 by 0.001, and the edges (signed zeros, tiny and huge values,
    /// LOGISTIC's cutoffs and HARD_SWISH's kinks, each with a neighbour).
    pub(crate) fn f32_inputs() -> Vec<f32> {
        let mut v: Vec<f32> = (0..400).map(|i| (i as f32 - 200.0) * 0.1).collect();
        v.extend((0..64).map(|i| (i as f32 - 32.0) * 1e-3));
        v.extend([
            0.0, -0.0, 1e-30, -1e-30, 1e-7, -1e-7, 16.619047, 16.61905, -9.0, -9.000001, -3.0, 3.0, -2.9999998, 3.0000002,
            60.0, -60.0, 100.0, -100.0, 1e10, -1e10, f32::MIN_POSITIVE, 1e-40,
        ]);
        v
    }

    /// Runs the float32 op `kind` on [`f32_inputs`] (dumped as `name`): the output must be
    /// within `ulps` of `want` (TFLite Micro's; 0: bit for bit) and within `rel` relative
    /// (plus 1e-38) of `real`, the definition in f64; NaN gives NaN and `±inf` gives `at_inf`.
    /// Returns how many outputs differ from `want`.
    pub(crate) fn check_f32(kind: OpKind, name: &str, want: &[f32], ulps: u32, real: fn(f64) -> f64, rel: f64, at_inf: [f32; 2]) -> usize {
        use super::super::test_helpers::{run_op0, unary_model};
        use super::super::TensorData;
        let xs = f32_inputs();
        let n = xs.len();
        let (bytes, [x, y]) = unary_model(kind.clone(), (DType::F32, &[n], None), (DType::F32, &[n], None));
        let s = run_op0(name, &bytes, &[(x, TensorData::F32(xs.clone()))]);
        let got = s.f32(y).expect("a float32 output");
        assert_eq!(want.len(), n, "{name}: vector length");
        let mut differ = 0;
        for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
            let d = (g.to_bits() as i64 - w.to_bits() as i64).unsigned_abs();
            assert!(d <= u64::from(ulps) && g.is_sign_negative() == w.is_sign_negative(), "{name}: input {:e}: {g:e}, TFLite Micro {w:e}", xs[i]);
            differ += usize::from(d != 0);
            let r = real(xs[i] as f64);
            assert!((g as f64 - r).abs() <= rel * r.abs() + 1e-38, "{name}: input {:e}: {g:e}, real {r:e}", xs[i]);
        }
        let (bytes, [x, y]) = unary_model(kind, (DType::F32, &[3], None), (DType::F32, &[3], None));
        let s = super::super::test_helpers::run_op0(&format!("{name}_special"), &bytes, &[(x, TensorData::F32(vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY]))]);
        let got = s.f32(y).expect("a float32 output");
        assert!(got[0].is_nan(), "{name}: NaN gives {}", got[0]);
        for (g, w) in got[1..].iter().zip(at_inf) {
            assert!(g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()), "{name}: infinity gives {g}, expected {w}");
        }
        differ
    }
}
