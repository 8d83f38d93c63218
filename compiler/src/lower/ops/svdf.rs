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
//! The state is read and written in place: the kernel gets it as an output of the op, and
//! the generated `Model::new()` fills it with its reset value
//! ([`crate::ir::Tensor::reset_byte`]).

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, SvdfOptions, Tensor, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::svdf::{svdf_s8, SvdfParams};
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

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &SvdfOptions) -> Result<Svdf, LowerError> {
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

    let (batches, input_size) = rank2(cx, input, "input")?;
    let (num_filters, wf_cols) = rank2(cx, wf, "feature weights")?;
    let (wt_rows, memory_size) = rank2(cx, wt, "time weights")?;
    let rank = usize::try_from(o.rank).ok().filter(|&r| r > 0).ok_or_else(|| cx.invalid(format!("rank {}", o.rank)))?;
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
    if bias.shape != [num_units] {
        return Err(cx.invalid_tensor(bias, format!("bias of shape {:?} for {num_units} units", bias.shape)));
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
        let model = crate::tflite::read_model(&bytes).expect("parses");
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
}
