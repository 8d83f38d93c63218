//! MediaPipe's operators against golden vectors: `vectors.json`, written by
//! `tools/mediapipe_vectors.py` from NumPy transcriptions of MediaPipe's C++ kernels (each
//! case names the function it follows). Every case builds the single-op model (custom
//! options as the case gives them: a raw C struct's `int`s), runs it through the reference
//! execution (the runtime kernel), and compares with the transcription: the kernels follow
//! the C++'s order and precision, so every bit must match (well within the float tolerance,
//! `1e-4` of the output's largest magnitude, which is also checked). Convolution2DTransposeBias
//! is also checked against TFLite's own TRANSPOSE_CONV with a bias (ai-edge-litert,
//! BUILTIN_REF) within that tolerance: the same sum with the bias added last.

use super::super::test_helpers::*;
use super::super::TensorData;
use crate::ir::{DType, OpKind, Padding, TransposeConvOptions};
use crate::tflite::builder::{ModelBuilder, OpSpecCode};
use serde::Deserialize;

#[derive(Deserialize)]
struct Tensor {
    shape: Vec<usize>,
    data: Vec<f64>,
    #[serde(default)]
    constant: bool,
}

#[derive(Deserialize)]
struct Case {
    op: String,
    name: String,
    options: serde_json::Value,
    oracle: String,
    inputs: Vec<Tensor>,
    outputs: Vec<Tensor>,
    version: i32,
}

fn cases() -> Vec<Case> {
    serde_json::from_str(include_str!("vectors.json")).expect("vectors.json parses")
}

fn f32s(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}

/// The case's custom options: the raw struct's `int`s, little-endian; or a FlexBuffer map
/// of ints; or none.
fn options(c: &Case) -> Vec<u8> {
    if let Some(bytes) = c.options.get("bytes").and_then(|r| r.as_array()) {
        return bytes.iter().map(|v| v.as_u64().expect("a byte") as u8).collect();
    }
    if let Some(raw) = c.options.get("raw").and_then(|r| r.as_array()) {
        return raw.iter().flat_map(|v| (v.as_i64().expect("an int") as i32).to_le_bytes()).collect();
    }
    let Some(flex) = c.options.get("flex").and_then(|f| f.as_object()) else { return Vec::new() };
    let entries: Vec<(&str, crate::tflite::flexbuffers::FlexValue)> =
        flex.iter().map(|(k, v)| (k.as_str(), crate::tflite::flexbuffers::FlexValue::Int(v.as_i64().expect("an int")))).collect();
    crate::tflite::flexbuffers::write_map(&entries)
}

/// The single-op model of case `c`, its activation inputs with their data, and its outputs.
fn model(c: &Case, opts: Vec<u8>) -> (Vec<u8>, Vec<(crate::ir::TensorId, TensorData)>, Vec<crate::ir::TensorId>) {
    let mut m = ModelBuilder::new();
    let mut ins = Vec::new();
    let mut data = Vec::new();
    for (i, t) in c.inputs.iter().enumerate() {
        let id = if t.constant {
            m.constant_f32(&format!("in{i}"), &t.shape, &f32s(&t.data))
        } else {
            let id = m.activation(&format!("in{i}"), DType::F32, &t.shape, None);
            data.push((id, TensorData::F32(f32s(&t.data))));
            id
        };
        ins.push(Some(id));
    }
    let outs: Vec<_> = c.outputs.iter().enumerate().map(|(i, t)| m.activation(&format!("out{i}"), DType::F32, &t.shape, None)).collect();
    let op = m.op_spec(OpSpecCode::Custom(c.op.clone()), &ins, &outs);
    if !opts.is_empty() {
        m.custom_options(op, opts);
    }
    m.op_version(op, c.version);
    let graph_ins: Vec<_> = data.iter().map(|(t, _)| *t).collect();
    m.inputs(&graph_ins).outputs(&outs);
    (m.finish(), data, outs)
}

/// Largest `|got - want|` over the output, and the tolerance `1e-4 * max |want|`.
fn error(got: &[f32], want: &[f32]) -> (f32, f32) {
    let err = got.iter().zip(want).map(|(g, w)| (g - w).abs()).fold(0.0, f32::max);
    (err, 1e-4 * want.iter().fold(0.0f32, |m, w| m.max(w.abs())))
}

#[test]
fn every_case_matches_its_numpy_transcription_bit_for_bit() {
    let cases = cases();
    assert!(cases.len() >= 26);
    for c in &cases {
        let (bytes, data, outs) = model(c, options(c));
        let s = run_op0(&c.name, &bytes, &data);
        for (k, (&t, want)) in outs.iter().zip(&c.outputs).enumerate() {
            let got = s.f32(t).unwrap();
            let want = f32s(&want.data);
            let (err, tol) = error(got, &want);
            assert!(err <= tol, "{} ({}) output {k}: error {err} > {tol}", c.name, c.oracle);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(got), bits(&want), "{} ({}) output {k}", c.name, c.oracle);
        }
    }
}

/// TFLite's TRANSPOSE_CONV with the bias as its fourth input, on the case's data: the model
/// `run_op0` dumps as `mp_<name>_litert` for `tools/op_test_vectors.py --bits`.
fn builtin_transpose_conv(c: &Case) -> (Vec<u8>, Vec<(crate::ir::TensorId, TensorData)>, crate::ir::TensorId) {
    let raw = c.options["raw"].as_array().unwrap();
    let (padding, stride_w, stride_h) = (raw[0].as_i64().unwrap(), raw[1].as_i64().unwrap() as i32, raw[2].as_i64().unwrap() as i32);
    let mut m = ModelBuilder::new();
    let out = &c.outputs[0].shape;
    let shape = m.constant_i32("output_shape", &[4], &out.iter().map(|&d| d as i32).collect::<Vec<_>>(), None);
    let w = m.constant_f32("w", &c.inputs[1].shape, &f32s(&c.inputs[1].data));
    let x = m.activation("x", DType::F32, &c.inputs[0].shape, None);
    let b = m.constant_f32("b", &c.inputs[2].shape, &f32s(&c.inputs[2].data));
    let y = m.activation("y", DType::F32, out, None);
    let o = TransposeConvOptions { padding: if padding == 1 { Padding::Same } else { Padding::Valid }, stride_w, stride_h, ..Default::default() };
    m.op(OpKind::TransposeConv(o), &[Some(shape), Some(w), Some(x), Some(b)], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    (m.finish(), vec![(x, TensorData::F32(f32s(&c.inputs[0].data)))], y)
}

#[test]
fn convolution_2d_transpose_bias_is_tflites_transpose_conv_plus_bias() {
    for c in cases().iter().filter(|c| c.op == "Convolution2DTransposeBias") {
        let (bytes, data, y) = builtin_transpose_conv(c);
        let name = format!("mp_{}_litert", c.name);
        run_op0(&name, &bytes, &data);
        let Some(want) = litert::vector(&name) else {
            assert!(std::env::var_os("TFLC_DUMP_OP_MODELS").is_some(), "{name}: no litert vector");
            continue;
        };
        let want: Vec<f32> = want.iter().map(|&b| f32::from_bits(b)).collect();
        let (mbytes, mdata, outs) = model(c, options(c));
        let s = run_op0(&c.name, &mbytes, &mdata);
        let got = s.f32(outs[0]).unwrap();
        let (err, tol) = error(got, &want);
        assert!(err <= tol, "{}: {err} from TFLite's TRANSPOSE_CONV + bias (tolerance {tol})", c.name);
        eprintln!("{}: largest error {err:e} = {:e} of the largest output (TFLite TRANSPOSE_CONV + bias)", c.name, err / (tol / 1e-4));
        let _ = y;
    }
}

/// TFLite's outputs (`tools/op_test_vectors.py --bits`, ai-edge-litert BUILTIN_REF) for the
/// builtin graphs of `convolution_2d_transpose_bias_is_tflites_transpose_conv_plus_bias`.
mod litert {
    include!("litert_vectors.rs");
}

/// What MediaPipe would misread or misplan is refused naming op, opcode and (where one is
/// at fault) tensor: options too short for their struct, strides of 0, an unknown pooling
/// padding, an output shape other than the one Prepare computes, mismatched operands.
#[test]
fn malformed_operators_are_refused_by_name() {
    let all = cases();
    let by_name = |n: &str| all.iter().find(|c| c.name == n).unwrap();
    let err = |c: &Case, opts: Vec<u8>| {
        let (bytes, _, _) = model(c, opts);
        lower_op0(&bytes).map(|_| ()).unwrap_err().to_string()
    };
    let ints = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let tconv = by_name("tconv_bias_0");
    let pool = by_name("max_pool_argmax_0");
    let unpool = by_name("max_unpooling_0");
    let e = err(tconv, ints(&[1, 2]));
    assert!(e.contains("op 0 (CUSTOM:Convolution2DTransposeBias)") && e.contains("custom options: 8 bytes, too short for the TfLiteTransposeConvParams"), "{e}");
    let e = err(pool, vec![1, 0, 0, 0, 2]);
    assert!(e.contains("CUSTOM:MaxPoolingWithArgmax2D") && e.contains("5 bytes, too short for the TfLitePoolParams"), "{e}");
    let e = err(unpool, Vec::new());
    assert!(e.contains("CUSTOM:MaxUnpooling2D") && e.contains("0 bytes"), "{e}");
    let e = err(tconv, ints(&[1, 0, 2]));
    assert!(e.contains("stride_width = 0"), "{e}");
    let e = err(pool, ints(&[0, 2, 2, 2, 2, 0]));
    assert!(e.contains("padding = 0, neither SAME (1) nor VALID (2)"), "{e}");
    // A stride that gives another output shape than the model's.
    let e = err(pool, ints(&[2, 1, 1, 2, 2, 0]));
    assert!(e.contains("out0") && e.contains("shape [1, 2, 2, 2], but the operator computes [1, 3, 3, 2]"), "{e}");
    let e = err(unpool, ints(&[2, 2, 2, 3, 2, 0]));
    assert!(e.contains("out0") && e.contains("computes [1, 4, 6, 2]"), "{e}");
    // A filter larger than a VALID input.
    let e = err(pool, ints(&[2, 1, 1, 5, 5, 0]));
    assert!(e.contains("in0") && e.contains("leaves no output"), "{e}");
    // Filter depth against input depth.
    let mut bad = cases().into_iter().find(|c| c.name == "tconv_bias_0").unwrap();
    bad.inputs[1].shape[3] = 1;
    let n = bad.inputs[1].shape.iter().product();
    bad.inputs[1].data.truncate(n);
    let e = err(&bad, options(&bad));
    assert!(e.contains("in1") && e.contains("filter depth 1 for input depth 2"), "{e}");
    // Version 1 of the transforms: MediaPipe registers version 2 only.
    for name in ["transform_tensor_bilinear_0", "transform_landmarks_0"] {
        let mut v1 = cases().into_iter().find(|c| c.name == name).unwrap();
        v1.version = 1;
        let e = err(&v1, options(&v1));
        assert!(e.contains(&format!("CUSTOM:{}", v1.op)) && e.contains("operator code version 1: MediaPipe registers version 2"), "{e}");
    }
    // A matrix of fewer than 8 floats; landmarks of 4 coordinates; more channels than the image.
    let mut small = cases().into_iter().find(|c| c.name == "transform_landmarks_0").unwrap();
    small.inputs[1].shape = vec![1, 7];
    small.inputs[1].data.truncate(7);
    let e = err(&small, Vec::new());
    assert!(e.contains("in1") && e.contains("8 floats"), "{e}");
    let mut four = cases().into_iter().find(|c| c.name == "transform_landmarks_0").unwrap();
    four.inputs[0].shape = vec![1, 2, 5];
    four.outputs[0].shape = vec![1, 2, 5];
    let e = err(&four, Vec::new());
    assert!(e.contains("in0") && e.contains("5 coordinates per landmark"), "{e}");
    let mut wide = cases().into_iter().find(|c| c.name == "transform_tensor_bilinear_2").unwrap();
    wide.outputs[0].shape[3] = 4;
    let e = err(&wide, options(&wide));
    assert!(e.contains("out0") && e.contains("4 channels, more than the image's 3"), "{e}");
    // Landmarks2TransformMatrix's FlexBuffer options: indices past the landmarks, non-positive
    // sizes and scales, an empty subset, a subset that is not a typed vector.
    let l2t = by_name("landmarks_to_transform_matrix_0");
    let flex = |entries: Vec<(&str, crate::tflite::flexbuffers::FlexValue)>| crate::tflite::flexbuffers::write_map(&entries);
    use crate::tflite::flexbuffers::FlexValue::{Float, Int};
    let e = err(l2t, flex(vec![("left_rotation_idx", Int(6)), ("output_height", Int(8)), ("output_width", Int(8)), ("scale_x", Float(1.0)), ("scale_y", Float(1.0))]));
    assert!(e.contains("CUSTOM:Landmarks2TransformMatrix") && e.contains("subset_idxs\" is empty or missing"), "{e}");
    let mut opts = l2t.options["bytes"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u8).collect::<Vec<u8>>();
    assert!(err(l2t, opts[..3].to_vec()).contains("not a FlexBuffer map"));
    // The case's own options on an input with fewer landmarks than its indices name.
    let mut few = cases().into_iter().find(|c| c.name == "landmarks_to_transform_matrix_0").unwrap();
    few.inputs[0].shape = vec![1, 3, 3];
    few.inputs[0].data.truncate(9);
    let e = err(&few, std::mem::take(&mut opts));
    assert!(e.contains("in0") && e.contains("subset_idxs[3] = 3: not one of the input's 3 landmarks"), "{e}");
}

/// With `--custom-kernel NAME` (`Subgraph::custom_kernels`) the operator is the caller's.
#[test]
fn a_custom_kernel_of_the_callers_overrides_the_built_in_one() {
    let c = cases().into_iter().find(|c| c.name == "max_pool_argmax_0").unwrap();
    let (bytes, _, _) = model(&c, options(&c));
    let mut m = crate::passes::read_model(&bytes).unwrap();
    assert!(super::super::lower(m.main(), &m.main().ops[crate::ir::OpId::new(0)]).unwrap().user_custom().is_none());
    m.subgraphs.iter_mut().for_each(|sg| {
        sg.custom_kernels.insert("MaxPoolingWithArgmax2D".into());
    });
    let k = super::super::lower(m.main(), &m.main().ops[crate::ir::OpId::new(0)]).unwrap();
    assert_eq!(k.user_custom().map(|u| u.code.as_str()), Some("MaxPoolingWithArgmax2D"));
}
