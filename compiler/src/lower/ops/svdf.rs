//! SVDF, int8 input and output, int8 feature weights, int8 time weights, int32 bias and an
//! int8 variable state (the layout of TFLite Micro's int8 SVDF).
//!
//! Mirrors TFLite Micro `svdf_common.cc` (`PrepareSvdf` and `EvalIntegerSvdfReference`):
//! inputs are `[input, weights_feature, weights_time, bias, activation_state]`; the state
//! must be a variable tensor of shape `[batches, memory_size * num_filters]`; the two
//! multipliers are `QuantizeMultiplier` of `input_scale * feature_scale / state_scale` and
//! `state_scale * time_scale / output_scale`, each product taken in `float` as in C++, and
//! the bias scale must be within 1e-5 of `state_scale * time_scale`. TFLite Micro's
//! Prepare reads the bias scale unconditionally on this path, so a bias is required. The
//! fused activation is ignored on the integer path (TFLite Micro does not apply it).
//!
//! float32 (all of input, weights, bias, state and output; the bias required, as TFLite
//! Micro's float path reads it unconditionally) is TFLite
//! Micro's `EvalFloatSvdfReference` with its fused activation ([`SvdfF32`]).
//!
//! The state is read and written in place: the kernel gets it as an output of the op, and
//! the generated `Model::new()` fills it with its reset value
//! ([`crate::ir::Tensor::reset_byte`]).

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{Activation, DType, SvdfOptions, Tensor, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::svdf::{svdf_f32, svdf_s8, SvdfActivation, SvdfF32Params, SvdfParams};
use tflc_runtime::prepare::quantize_multiplier;

crate::runtime_struct_lit!(kernels::svdf::SvdfParams {
    batches,
    input_size,
    num_filters,
    num_units,
    rank,
    memory_size,
    input_zero_point,
    state_zero_point,
    output_zero_point,
    feature_multiplier,
    feature_shift,
    output_multiplier,
    output_shift,
});

crate::runtime_struct_lit!(kernels::svdf::SvdfF32Params { batches, input_size, num_filters, num_units, rank, memory_size, activation });

impl crate::emit::Lit for SvdfActivation {
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let v = quote::format_ident!("{}", format!("{self:?}"));
        quote! { #rt::kernels::svdf::SvdfActivation::#v }
    }
}

/// A lowered SVDF: int8 or float32.
#[derive(Debug, Clone)]
pub enum SvdfOp {
    S8(Svdf),
    F32(SvdfF32),
}

impl Kernel for SvdfOp {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self {
            SvdfOp::S8(k) => k.execute(s),
            SvdfOp::F32(k) => k.execute(s),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        match self {
            SvdfOp::S8(k) => k.emit(cx),
            SvdfOp::F32(k) => k.emit(cx),
        }
    }
}

/// float32 SVDF.
#[derive(Debug, Clone)]
pub struct SvdfF32 {
    pub input: TensorId,
    pub weights_feature: TensorId,
    pub weights_time: TensorId,
    pub bias: Option<TensorId>,
    pub state: TensorId,
    pub output: TensorId,
    pub params: SvdfF32Params,
}

/// The shapes every SVDF checks (TFLite Micro's `PrepareSvdf`):
/// `(batches, input_size, num_filters, num_units, rank, memory_size)`.
fn svdf_shapes(cx: &OpCx<'_, '_>, o: &SvdfOptions, bias: Option<&Tensor<'_>>) -> Result<(usize, usize, usize, usize, usize, usize), LowerError> {
    let (input, wf, wt, state, output) = (cx.input(0)?, cx.input(1)?, cx.input(2)?, cx.input(4)?, cx.output(0)?);
    let (batches, input_size) = rank2(cx, input, "input")?;
    let (num_filters, wf_cols) = rank2(cx, wf, "feature weights")?;
    let (wt_rows, memory_size) = rank2(cx, wt, "time weights")?;
    let rank = usize::try_from(o.rank).ok().filter(|&r| r > 0).ok_or_else(|| cx.invalid(format!("rank {} (SVDF needs a positive rank)", o.rank)))?;
    if num_filters == 0 || num_filters % rank != 0 {
        return Err(cx.invalid_tensor(wf, format!("{num_filters} filters are not a multiple of rank {rank}")));
    }
    let num_units = num_filters / rank;
    if wf_cols != input_size {
        return Err(cx.invalid_tensor(wf, format!("feature weights have {wf_cols} columns for input size {input_size}")));
    }
    if wt_rows != num_filters || memory_size == 0 {
        return Err(cx.invalid_tensor(wt, format!("time weights of shape {:?} for {num_filters} filters", wt.shape)));
    }
    if let Some(bias) = bias {
        if bias.shape != [num_units] {
            return Err(cx.invalid_tensor(bias, format!("bias of shape {:?} for {num_units} units", bias.shape)));
        }
    }
    if state.shape != [batches, memory_size * num_filters] {
        return Err(cx.invalid_tensor(
            state,
            format!("state of shape {:?}, expected [{batches}, {}]", state.shape, memory_size * num_filters),
        ));
    }
    if output.shape != [batches, num_units] {
        return Err(cx.invalid_tensor(output, format!("output of shape {:?}, expected [{batches}, {num_units}]", output.shape)));
    }
    if !state.is_variable || state.is_constant() {
        return Err(cx.invalid_tensor(state, "the SVDF state must be a variable tensor"));
    }
    Ok((batches, input_size, num_filters, num_units, rank, memory_size))
}

/// float32 SVDF: every tensor float32 (TFLite Micro's `PrepareSvdf` float checks), weights
/// and bias constant, the activation one `ActivationValFloat` knows.
fn lower_f32(cx: &OpCx<'_, '_>, o: &SvdfOptions) -> Result<SvdfF32, LowerError> {
    cx.expect_arity(4..=5, 1)?;
    let (input, wf, wt, output, state) = (cx.input(0)?, cx.input(1)?, cx.input(2)?, cx.output(0)?, cx.input(4)?);
    let bias = Some(cx.optional_input(3).ok_or_else(|| {
        cx.unsupported("a float32 SVDF without a bias (TFLite Micro's float path reads the bias unconditionally)")
    })?);
    cx.expect_activation(input)?;
    for t in [wf, wt, state, output].into_iter().chain(bias) {
        cx.expect_dtype(t, DType::F32)?;
    }
    for t in [wf, wt].into_iter().chain(bias) {
        cx.expect_constant(t)?;
    }
    let activation = match o.activation {
        Activation::None => SvdfActivation::None,
        Activation::Relu => SvdfActivation::Relu,
        Activation::ReluN1To1 => SvdfActivation::ReluN1To1,
        Activation::Relu6 => SvdfActivation::Relu6,
        Activation::Tanh => SvdfActivation::Tanh,
        Activation::SignBit => SvdfActivation::SignBit,
        Activation::Unknown(c) => return Err(cx.unsupported(format!("fused activation code {c}"))),
    };
    let (batches, input_size, num_filters, num_units, rank, memory_size) = svdf_shapes(cx, o, bias)?;
    Ok(SvdfF32 {
        input: input.id,
        weights_feature: wf.id,
        weights_time: wt.id,
        bias: bias.map(|t| t.id),
        state: state.id,
        output: output.id,
        params: SvdfF32Params { batches, input_size, num_filters, num_units, rank, memory_size, activation },
    })
}

impl Kernel for SvdfF32 {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = &self.params;
        let mut state = s.f32(self.state)?.to_vec();
        if state.len() != p.batches * p.num_filters * p.memory_size {
            return Err(ExecError(format!("SVDF: state has {} elements", state.len())));
        }
        let input = s.f32(self.input)?;
        if input.len() != p.batches * p.input_size {
            return Err(ExecError(format!("SVDF: input has {} elements", input.len())));
        }
        let (wf, wt) = (s.f32(self.weights_feature)?, s.f32(self.weights_time)?);
        let bias = match self.bias {
            Some(b) => s.f32(b)?,
            None => &[],
        };
        if wf.len() != p.num_filters * p.input_size || wt.len() != p.num_filters * p.memory_size || !(bias.is_empty() || bias.len() == p.num_units) {
            return Err(ExecError("SVDF: malformed weights".into()));
        }
        let mut out = vec![0f32; p.batches * p.num_units];
        svdf_f32(p, input, wf, wt, bias, &mut state, &mut out);
        s.insert(self.state, TensorData::F32(state));
        s.insert(self.output, TensorData::F32(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let params = cx.params_lit(quote! { kernels::svdf::SvdfF32Params }, &self.params);
        let input = cx.input(self.input);
        let wf = cx.input(self.weights_feature);
        let wt = cx.input(self.weights_time);
        let bias = match self.bias {
            Some(b) => cx.input(b),
            None => quote! { &[] },
        };
        let state = cx.output(self.state);
        let output = cx.output(self.output);
        quote! { #rt::kernels::svdf::svdf_f32(&#params, #input, #wf, #wt, #bias, #state, #output); }
    }
}

#[derive(Debug, Clone)]
pub struct Svdf {
    pub input: TensorId,
    pub weights_feature: TensorId,
    pub weights_time: TensorId,
    pub bias: TensorId,
    pub state: TensorId,
    pub output: TensorId,
    pub params: SvdfParams,
    /// Constant data, decoded for `execute`.
    pub weights_feature_data: Vec<i8>,
    pub weights_time_data: Vec<i8>,
    pub bias_data: Vec<i32>,
}

fn rank2(cx: &OpCx<'_, '_>, t: &Tensor<'_>, what: &str) -> Result<(usize, usize), LowerError> {
    match t.shape.as_slice() {
        &[a, b] => Ok((a, b)),
        s => Err(cx.unsupported_tensor(t, format!("{what} of shape {s:?} (expected rank 2)"))),
    }
}

fn const_i8(cx: &OpCx<'_, '_>, t: &Tensor<'_>) -> Result<Vec<i8>, LowerError> {
    cx.expect_dtype(t, DType::I8)?;
    let d = cx.expect_constant(t)?;
    Ok(d.iter().map(|&b| b as i8).collect())
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &SvdfOptions) -> Result<SvdfOp, LowerError> {
    if cx.input(0).is_ok_and(|t| t.dtype == DType::F32) {
        return lower_f32(cx, o).map(SvdfOp::F32);
    }
    lower_s8(cx, o).map(SvdfOp::S8)
}

fn lower_s8(cx: &OpCx<'_, '_>, o: &SvdfOptions) -> Result<Svdf, LowerError> {
    cx.expect_arity(5..=5, 1)?;
    let input = cx.input(0)?;
    let wf = cx.input(1)?;
    let wt = cx.input(2)?;
    let output = cx.output(0)?;
    let state = cx.input(4)?;
    let bias = cx
        .optional_input(3)
        .ok_or_else(|| cx.unsupported("an int8 SVDF without a bias (TFLite Micro requires one)"))?;

    cx.expect_activation(input)?;
    let in_q = cx.q_s8(input)?;
    let out_q = cx.q_s8(output)?;
    if wt.dtype != DType::I8 || state.dtype != DType::I8 {
        return Err(cx.unsupported_tensor(
            wt,
            format!(
                "time weights {} and state {} (tflc implements SVDF with int8 time weights and int8 state)",
                wt.dtype, state.dtype
            ),
        ));
    }
    let st_q = cx.q_s8(state)?;
    if !state.is_variable || state.is_constant() {
        return Err(cx.invalid_tensor(state, "the SVDF state must be a variable tensor"));
    }
    let wf_q = cx.per_tensor_q(wf)?;
    let wt_q = cx.per_tensor_q(wt)?;
    let b_q = cx.per_tensor_q(bias)?;
    let weights_feature_data = const_i8(cx, wf)?;
    let weights_time_data = const_i8(cx, wt)?;
    let bias_data = cx.const_i32(bias)?;

    let (batches, input_size, num_filters, num_units, rank, memory_size) = svdf_shapes(cx, o, Some(bias))?;
    // The accumulator is int32, like TFLite Micro's; the bias must be plain int32 data.
    if bias_data.len() != num_units {
        return Err(cx.invalid_tensor(bias, "malformed bias"));
    }

    // PrepareSvdf: float products, then double.
    let scale_1 = (in_q.scale * wf_q.scale / st_q.scale) as f64;
    let scale_2 = (st_q.scale * wt_q.scale / out_q.scale) as f64;
    if (b_q.scale as f64 - (st_q.scale * wt_q.scale) as f64).abs() >= 1e-5 {
        return Err(cx.invalid_tensor(
            bias,
            format!("bias scale {} is not state scale * time weights scale {}", b_q.scale, st_q.scale * wt_q.scale),
        ));
    }
    let (feature_multiplier, feature_shift) = quantize_multiplier(scale_1)
        .ok_or_else(|| cx.invalid_tensor(wf, format!("effective scale {scale_1} cannot be quantized")))?;
    let (output_multiplier, output_shift) = quantize_multiplier(scale_2)
        .ok_or_else(|| cx.invalid_tensor(output, format!("effective scale {scale_2} cannot be quantized")))?;

    Ok(Svdf {
        input: input.id,
        weights_feature: wf.id,
        weights_time: wt.id,
        bias: bias.id,
        state: state.id,
        output: output.id,
        params: SvdfParams {
            batches,
            input_size,
            num_filters,
            num_units,
            rank,
            memory_size,
            input_zero_point: in_q.zero_point,
            state_zero_point: st_q.zero_point,
            output_zero_point: out_q.zero_point,
            feature_multiplier,
            feature_shift,
            output_multiplier,
            output_shift,
        },
        weights_feature_data,
        weights_time_data,
        bias_data,
    })
}

impl Kernel for Svdf {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = &self.params;
        let mut state = s.i8(self.state)?.to_vec();
        if state.len() != p.batches * p.num_filters * p.memory_size {
            return Err(ExecError(format!("SVDF: state has {} elements", state.len())));
        }
        let input = s.i8(self.input)?;
        if input.len() != p.batches * p.input_size {
            return Err(ExecError(format!("SVDF: input has {} elements", input.len())));
        }
        let mut out = vec![0i8; p.batches * p.num_units];
        svdf_s8(p, input, &self.weights_feature_data, &self.weights_time_data, &self.bias_data, &mut state, &mut out);
        s.insert(self.state, TensorData::I8(state));
        s.insert(self.output, TensorData::I8(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let params = cx.params_lit(quote! { kernels::svdf::SvdfParams }, &self.params);
        let input = cx.input(self.input);
        let wf = cx.input(self.weights_feature);
        let wt = cx.input(self.weights_time);
        let bias = cx.input(self.bias);
        let state = cx.output(self.state);
        let output = cx.output(self.output);
        quote! { #rt::kernels::svdf::svdf_s8(&#params, #input, #wf, #wt, #bias, #state, #output); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::*;
    use super::super::TensorData;
    use crate::ir::{Activation, OpKind, Quantization, SvdfOptions};
    use crate::tflite::builder::{ModelBuilder, TensorSpec};

    struct Spec {
        batches: usize,
        input_size: usize,
        units: usize,
        rank: usize,
        memory: usize,
        state_dtype: DType,
        state_variable: bool,
        bias: bool,
        bias_scale_factor: f32,
    }

    const BASE: Spec = Spec {
        batches: 2,
        input_size: 5,
        units: 3,
        rank: 2,
        memory: 3,
        state_dtype: DType::I8,
        state_variable: true,
        bias: true,
        bias_scale_factor: 1.0,
    };

    /// One SVDF: batches 2, rank 2, memory 3 (the corpus only has batch 1, rank 1), an int8
    /// state with a non-zero zero point.
    fn build(s: &Spec) -> (Vec<u8>, TensorId, TensorId, TensorId) {
        let nf = s.units * s.rank;
        let (st_scale, wt_scale) = (0.5f32, 0.03f32);
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[s.batches, s.input_size], Some((0.1, 3)));
        let wf = b.constant_i8("wf", &[nf, s.input_size], &i8s(41, nf * s.input_size), Some((0.02, 0)));
        let wt = b.constant_i8("wt", &[nf, s.memory], &i8s(42, nf * s.memory), Some((wt_scale, 0)));
        let bias_v: Vec<i32> = (0..s.units as i32).map(|u| u * 97 - 150).collect();
        let bias = s
            .bias
            .then(|| b.constant_i32("bias", &[s.units], &bias_v, Some((st_scale * wt_scale * s.bias_scale_factor, 0))));
        let state = b.tensor(TensorSpec {
            name: "state".into(),
            dtype: s.state_dtype,
            shape: vec![s.batches as i32, (s.memory * nf) as i32],
            shape_signature: None,
            quant: Some(Quantization { scale: vec![st_scale], zero_point: vec![-20], axis: None }),
            data: None,
            variable: s.state_variable,
        });
        let y = b.activation("y", DType::I8, &[s.batches, s.units], Some((2.0, 5)));
        b.op(
            OpKind::Svdf(SvdfOptions { rank: s.rank as i32, activation: Activation::Relu, asymmetric_quantize_inputs: false }),
            &[Some(x), Some(wf), Some(wt), bias, Some(state)],
            &[y],
        );
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, state, y)
    }

    /// Expected outputs: TFLite Micro (pip `tflite-micro`) invoked twice on one interpreter
    /// after `reset()`, on the model this test builds (dumped with
    /// `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc svdf`) and inputs `i8s(51, 10)` then
    /// `i8s(52, 10)`.
    #[test]
    fn two_steps_batches_and_rank() {
        let (bytes, x, state, y) = build(&BASE);
        let in0 = i8s(51, 10);
        let mut store = run_op0("svdf_b2_r2_m3", &bytes, &[(x, TensorData::I8(in0))]);
        let model = crate::passes::read_model(&bytes).expect("parses");
        let k = super::super::lower(model.main(), &model.main().ops[crate::ir::OpId::new(0)]).expect("lowers");
        let step0 = out_i8(&store, y);
        store.insert(x, TensorData::I8(i8s(52, 10)));
        k.execute(&mut store).expect("runs");
        let step1 = out_i8(&store, y);
        assert_eq!(store.i8(state).expect("state").len(), 36);
        let want0: &[i8] = &[-18, 22, -27, -23, 18, 71];
        let want1: &[i8] = &[-6, 17, -1, -6, -31, 62];
        assert_eq!((step0.as_slice(), step1.as_slice()), (want0, want1));
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, ..) = build(&BASE);
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        let cases = [
            (Spec { state_dtype: DType::I16, ..BASE }, "int16 state"),
            (Spec { state_variable: false, ..BASE }, "state not variable"),
            (Spec { bias: false, ..BASE }, "no bias"),
            (Spec { bias_scale_factor: 2.0, ..BASE }, "bias scale"),
        ];
        for (spec, what) in cases {
            let (bytes, ..) = build(&spec);
            let e = lower_op0(&bytes).expect_err(what);
            assert!(e.to_string().contains("SVDF"), "{what}: {e}");
        }
        // Filters not a multiple of the rank: 3 units * rank 2 = 6 filters, declared rank 4.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[1, 2], Some((0.1, 0)));
        let wf = b.constant_i8("wf", &[6, 2], &[1; 12], Some((0.02, 0)));
        let wt = b.constant_i8("wt", &[6, 2], &[1; 12], Some((0.03, 0)));
        let bias = b.constant_i32("bias", &[3], &[0; 3], Some((0.015, 0)));
        let state = b.tensor(TensorSpec {
            name: "state".into(),
            dtype: DType::I8,
            shape: vec![1, 12],
            shape_signature: None,
            quant: Some(Quantization { scale: vec![0.5], zero_point: vec![0], axis: None }),
            data: None,
            variable: true,
        });
        let y = b.activation("y", DType::I8, &[1, 3], Some((0.25, 0)));
        b.op(
            OpKind::Svdf(SvdfOptions { rank: 4, activation: Activation::None, asymmetric_quantize_inputs: false }),
            &[Some(x), Some(wf), Some(wt), Some(bias), Some(state)],
            &[y],
        );
        let e = lower_op0(&b.finish()).expect_err("rank");
        assert!(matches!(e, LowerError::Invalid { .. }), "{e}");
    }

    /// A float32 SVDF model: bytes, input, state, output, and the feature weights, time
    /// weights and bias it holds.
    type SvdfF32Model = (Vec<u8>, TensorId, TensorId, TensorId, Vec<f32>, Vec<f32>, Vec<f32>);

    /// One float32 SVDF: batches 2, input 5, 3 units, rank 2, memory 3; `bias` or none.
    fn build_f32(activation: Activation, bias: bool) -> SvdfF32Model {
        let (units, rank, memory, input_size, batches) = (3usize, 2usize, 3usize, 5usize, 2usize);
        let nf = units * rank;
        let f = |seed, n| -> Vec<f32> { i8s(seed, n).iter().map(|&q| f32::from(q) / 64.0 + 0.01).collect() };
        let (wf_v, wt_v, b_v) = (f(61, nf * input_size), f(62, nf * memory), f(63, units));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::F32, &[batches, input_size], None);
        let wf = b.constant_f32("wf", &[nf, input_size], &wf_v);
        let wt = b.constant_f32("wt", &[nf, memory], &wt_v);
        let bias_t = bias.then(|| b.constant_f32("bias", &[units], &b_v));
        let state = b.tensor(TensorSpec {
            name: "state".into(),
            dtype: DType::F32,
            shape: vec![batches as i32, (memory * nf) as i32],
            shape_signature: None,
            quant: None,
            data: None,
            variable: true,
        });
        let y = b.activation("y", DType::F32, &[batches, units], None);
        b.op(OpKind::Svdf(SvdfOptions { rank: rank as i32, activation, asymmetric_quantize_inputs: false }), &[Some(x), Some(wf), Some(wt), bias_t, Some(state)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, state, y, wf_v, wt_v, if bias { b_v } else { Vec::new() })
    }

    /// float32 over three steps (the state carried), RELU, TANH and no activation: bit for bit with TFLite Micro (one interpreter invoked three times on
    /// `i8s(71..74, 10) / 16`), and within 1e-5 of SVDF's definition in f64 (each unit the sum
    /// over its filters and the last `memory` steps of time weight times the feature
    /// activation of that step, the oldest first, plus the bias).
    #[test]
    #[allow(clippy::needless_range_loop)] // the definition indexes as the formula does
    fn float32_three_steps_against_tflite_micro() {
        for (k, (act, bias)) in [(Activation::Relu, true), (Activation::None, true), (Activation::Tanh, true)].into_iter().enumerate() {
            let (bytes, x, _state, y, wf, wt, bv) = build_f32(act, bias);
            let name = format!("svdf_f32_{k}");
            let inputs: Vec<Vec<f32>> = (0..3).map(|t| i8s(71 + t, 10).iter().map(|&q| f32::from(q) / 16.0).collect()).collect();
            let mut store = run_op0(&name, &bytes, &[(x, TensorData::F32(inputs[0].clone()))]);
            let model = crate::passes::read_model(&bytes).expect("parses");
            let kern = super::super::lower(model.main(), &model.main().ops[crate::ir::OpId::new(0)]).expect("lowers");
            let mut got = vec![store.f32(y).unwrap().to_vec()];
            for (r, input) in inputs.iter().enumerate().skip(1) {
                if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
                    std::fs::write(std::path::Path::new(&dir).join(format!("{name}.run{r}.bin")), TensorData::F32(input.clone()).to_le_bytes()).expect("dump");
                }
                store.insert(x, TensorData::F32(input.clone()));
                kern.execute(&mut store).expect("runs");
                got.push(store.f32(y).unwrap().to_vec());
            }
            // The definition in f64.
            let (units, rank, memory, isz) = (3, 2, 3, 5);
            let mut hist: Vec<Vec<f64>> = Vec::new(); // per step: [batch][filter] activations
            for (t, input) in inputs.iter().enumerate() {
                let act_t: Vec<f64> = (0..2 * units * rank)
                    .map(|bf| {
                        let (b, fl) = (bf / (units * rank), bf % (units * rank));
                        (0..isz).map(|i| wf[fl * isz + i] as f64 * input[b * isz + i] as f64).sum()
                    })
                    .collect();
                hist.push(act_t);
                for b in 0..2 {
                    for u in 0..units {
                        let mut r = if bias { bv[u] as f64 } else { 0.0 };
                        for fl in u * rank..(u + 1) * rank {
                            for m in 0..memory {
                                // slot m holds step t - (memory - 1 - m) (zero before the start).
                                let back = memory - 1 - m;
                                if back <= t {
                                    r += wt[fl * memory + m] as f64 * hist[t - back][b * units * rank + fl];
                                }
                            }
                        }
                        let r = match act {
                            Activation::Relu => r.max(0.0),
                            Activation::Tanh => r.tanh(),
                            _ => r,
                        };
                        let g = got[t][b * units + u] as f64;
                        assert!((g - r).abs() <= 1e-5 * (1.0 + r.abs()), "{name} step {t} batch {b} unit {u}: {g} vs {r}");
                    }
                }
            }
            let want = SVDF_F32_TFLM.iter().find(|(n, _)| *n == name).map_or(&[][..], |(_, v)| *v);
            if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
                continue;
            }
            let flat: Vec<u32> = got.concat().iter().map(|v| v.to_bits()).collect();
            assert_eq!(flat, want.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), "{name}");
        }
    }

    /// A float32 SVDF without a bias is refused: TFLite Micro's float path reads the bias
    /// unconditionally (its `TODO(#1751)`; the pip interpreter crashes on such a model).
    #[test]
    fn float32_without_bias_is_refused() {
        let e = lower_op0(&build_f32(Activation::None, false).0).expect_err("no bias");
        assert!(matches!(e, LowerError::Unsupported { .. }) && e.to_string().contains("bias"), "{e}");
    }

    /// TFLite Micro's outputs of the three steps, concatenated.
    const SVDF_F32_TFLM: &[(&str, &[f32])] = &[
        ("svdf_f32_0", &[
            0.0, 0.0, 10.609716, 11.916148, 2.5697403, 9.277988, 1.7960458, 0.0, 41.42278, 16.767971, 15.03532,
            6.843853, 4.9010534, 0.0, 34.598835, 8.28801, 17.816038, 0.0
        ]),
        ("svdf_f32_1", &[
            -25.394705, -14.915637, 10.609716, 11.916148, 2.5697403, 9.277988, 1.7960458, -38.223785, 41.42278,
            16.767971, 15.03532, 6.843853, 4.9010534, -8.422168, 34.598835, 8.28801, 17.816038, -52.121094
        ]),
        ("svdf_f32_2", &[
            -1.0, -1.0, 1.0, 1.0, 0.9883468, 1.0, 0.946395, -1.0, 1.0, 1.0, 1.0, 0.99999774, 0.9998893, -0.9999999,
            1.0, 0.9999999, 1.0, -1.0
        ]),
    ];
}
