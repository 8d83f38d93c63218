//! int4 filters (TFLite's `INT4`: two elements a byte, low nibble first, two's complement)
//! on CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED with int8 activations, and weight-only
//! int4 behind DEQUANTIZE. `passes::fold` unpacks them to int8 at compile time, so these
//! run the whole pipeline (`interp::run`, which folds) rather than one lowered op.
//!
//! Each model is checked two ways: against its int8 twin (the same filter values stored as
//! int8, which TFLite Micro's unpacking into scratch makes it compute), and against TFLite
//! Micro's reference kernels (the literals below; DEQUANTIZE against TFLite's reference
//! kernels, `_litert`):
//!
//!     TFLC_DUMP_OP_MODELS=/tmp/int4dump cargo test -p tflc --lib tests_int4
//!     python3 tools/op_test_vectors.py /tmp/int4dump int4_

use super::test_helpers::i8s;
use crate::ir::{Activation, Conv2dOptions, DType, DepthwiseConv2dOptions, FullyConnectedOptions, OpKind, Padding, Quantization, TensorId};
use crate::tflite::builder::ModelBuilder;

/// Values in the int4 range, -8..=7.
fn i4s(seed: u64, n: usize) -> Vec<i8> {
    i8s(seed, n).into_iter().map(|v| v >> 4).collect()
}

fn bytes_of(v: &[i8]) -> Vec<u8> {
    v.iter().map(|&x| x as u8).collect()
}

/// Runs `bytes` (every input int8) through the whole pipeline; writes the model and its
/// inputs under `TFLC_DUMP_OP_MODELS` as `run_op0` does. Returns output 0's bytes.
fn run(name: &str, bytes: &[u8], inputs: &[Vec<u8>]) -> Vec<u8> {
    if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("dump dir");
        std::fs::write(dir.join(format!("{name}.tflite")), bytes).expect("dump model");
        for (i, d) in inputs.iter().enumerate() {
            std::fs::write(dir.join(format!("{name}.in{i}.bin")), d).expect("dump input");
        }
    }
    let model = crate::passes::read_model(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let ins: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let mut outs = crate::interp::run(&model, &ins).unwrap_or_else(|e| panic!("{name}: {e}"));
    // The generated module compiles too (the unpacked filter is an int8 constant).
    crate::compile(bytes, &crate::CompileOptions::default()).unwrap_or_else(|e| panic!("{name}: compile: {e}"));
    outs.swap_remove(0)
}

/// How a test model stores its filter.
#[derive(Clone, Copy, PartialEq)]
enum Store {
    Int4,
    Int8,
}

fn filter(m: &mut ModelBuilder, store: Store, shape: &[usize], v: &[i8], q: Quantization) -> TensorId {
    match store {
        Store::Int4 => m.constant_i4("filter", shape, v, Some(q)),
        Store::Int8 => m.constant("filter", DType::I8, shape, bytes_of(v), Some(q)),
    }
}

fn per_axis(scales: &[f32], axis: usize) -> Quantization {
    Quantization { scale: scales.to_vec(), zero_point: vec![0; scales.len()], axis: Some(axis) }
}

fn per_tensor(scale: f32) -> Quantization {
    Quantization { scale: vec![scale], zero_point: vec![0], axis: None }
}

/// CONV_2D, per-channel filter [3, 3, 3, 3] (81 elements: the last byte's high nibble is
/// padding), SAME padding with stride 2 (every padding edge), RELU.
fn conv_same(store: Store) -> Vec<u8> {
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[1, 5, 6, 3], Some((0.05, -3)));
    let w = filter(&mut m, store, &[3, 3, 3, 3], &i4s(1, 81), per_axis(&[0.11, 0.07, 0.23], 0));
    let b = m.constant_i32_per_axis("b", &[3], &[37, -120, 5], &[0.0055, 0.0035, 0.0115]);
    let y = m.activation("y", DType::I8, &[1, 3, 3, 3], Some((0.09, -20)));
    let o = Conv2dOptions { padding: Padding::Same, stride_w: 2, stride_h: 2, dilation_w: 1, dilation_h: 1, activation: Activation::Relu };
    m.op(OpKind::Conv2d(o), &[Some(x), Some(w), Some(b)], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    m.finish()
}

/// CONV_2D, per-tensor filter [4, 2, 2, 3], VALID, dilation 2, no bias.
fn conv_valid(store: Store) -> Vec<u8> {
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[1, 5, 5, 3], Some((0.04, 7)));
    let w = filter(&mut m, store, &[4, 2, 2, 3], &i4s(2, 48), per_tensor(0.13));
    let y = m.activation("y", DType::I8, &[1, 3, 3, 4], Some((0.2, 1)));
    let o = Conv2dOptions { padding: Padding::Valid, stride_w: 1, stride_h: 1, dilation_w: 2, dilation_h: 2, activation: Activation::None };
    m.op(OpKind::Conv2d(o), &[Some(x), Some(w), None], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    m.finish()
}

/// DEPTHWISE_CONV_2D, per-channel filter [1, 3, 3, c * mult] along axis 3, SAME, stride 1,
/// RELU6. `channels = 3, mult = 1` has 27 elements (odd).
fn depthwise(store: Store, channels: usize, mult: usize) -> Vec<u8> {
    let out_d = channels * mult;
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[1, 4, 5, channels], Some((0.06, 4)));
    let scales: Vec<f32> = (0..out_d).map(|c| 0.05 + 0.03 * c as f32).collect();
    let w = filter(&mut m, store, &[1, 3, 3, out_d], &i4s(3 + out_d as u64, 9 * out_d), per_axis(&scales, 3));
    let bias: Vec<i32> = (0..out_d as i32).map(|c| 40 * c - 70).collect();
    let bias_scales: Vec<f32> = scales.iter().map(|s| s * 0.06).collect();
    let b = m.constant_i32_per_axis("b", &[out_d], &bias, &bias_scales);
    let y = m.activation("y", DType::I8, &[1, 4, 5, out_d], Some((0.05, -128)));
    let o = DepthwiseConv2dOptions {
        padding: Padding::Same,
        stride_w: 1,
        stride_h: 1,
        depth_multiplier: mult as i32,
        dilation_w: 1,
        dilation_h: 1,
        activation: Activation::Relu6,
    };
    m.op(OpKind::DepthwiseConv2d(o), &[Some(x), Some(w), Some(b)], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    m.finish()
}

/// FULLY_CONNECTED, filter [5, 7] (35 elements: rows straddle bytes), per channel or per
/// tensor, with a bias.
fn fully_connected(store: Store, per_channel: bool) -> Vec<u8> {
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[2, 7], Some((0.07, -5)));
    let q = if per_channel { per_axis(&[0.1, 0.2, 0.05, 0.15, 0.3], 0) } else { per_tensor(0.12) };
    let w = filter(&mut m, store, &[5, 7], &i4s(4, 35), q);
    let b = m.constant_i32("b", &[5], &[100, -50, 0, 7, -300], Some((0.0084, 0)));
    let y = m.activation("y", DType::I8, &[2, 5], Some((0.1, 3)));
    let o = FullyConnectedOptions { activation: Activation::None, ..Default::default() };
    m.op(OpKind::FullyConnected(o), &[Some(x), Some(w), Some(b)], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    m.finish()
}

/// The int4 model computes what its int8 twin computes and what TFLite Micro computes.
fn check(name: &str, make: impl Fn(Store) -> Vec<u8>, input: Vec<i8>, want: &[i8]) {
    let input = vec![bytes_of(&input)];
    let got = run(name, &make(Store::Int4), &input);
    let twin = run(&format!("{name}_int8twin"), &make(Store::Int8), &input);
    assert_eq!(got, twin, "{name}: int4 and its int8 twin differ");
    assert_eq!(got, bytes_of(want), "{name}: differs from TFLite Micro");
}

#[test]
fn conv_2d_int4_filters() {
    check("int4_conv_same", conv_same, i8s(11, 90), INT4_CONV_SAME);
    check("int4_conv_valid", conv_valid, i8s(12, 75), INT4_CONV_VALID);
}

#[test]
fn depthwise_conv_2d_int4_filters() {
    check("int4_depthwise_m1", |s| depthwise(s, 3, 1), i8s(13, 60), INT4_DEPTHWISE_M1);
    check("int4_depthwise_m2", |s| depthwise(s, 2, 2), i8s(14, 40), INT4_DEPTHWISE_M2);
}

#[test]
fn fully_connected_int4_filters() {
    // TFLite Micro refuses per-channel int4 FULLY_CONNECTED weights (its Prepare); tflc runs
    // them as TFLite Micro runs the unpacked int8 weights (the literal is TFLite Micro's
    // output for the int8 twin; TFLite's own reference kernels differ in one value here, as
    // they do for the int8 twin).
    check("int4_fc_per_channel", |s| fully_connected(s, true), i8s(15, 14), INT4_FC_PER_CHANNEL);
    check("int4_fc_per_tensor", |s| fully_connected(s, false), i8s(16, 14), INT4_FC_PER_TENSOR);
}

/// The unpacked filter replaces the packed one: an int8 constant after folding, the packed
/// bytes listed in `int4_packed`; `inspect` reports both sizes.
#[test]
fn int4_filters_unpack_at_compile_time() {
    let bytes = conv_same(Store::Int4);
    let model = crate::passes::read_model(&bytes).unwrap();
    assert_eq!(model.main().tensor(TensorId::new(1)).dtype, DType::I4);
    assert_eq!(model.main().tensor(TensorId::new(1)).data.map(<[u8]>::len), Some(41));
    let folded = crate::passes::fold::FoldedModel::of(&model);
    let applied = folded.apply(&model);
    let t = applied.main().tensor(TensorId::new(1));
    assert_eq!((t.dtype, t.data.map(<[u8]>::len)), (DType::I8, Some(81)));
    assert_eq!(t.data.map(|d| d.to_vec()), Some(bytes_of(&i4s(1, 81))));
    assert_eq!(applied.main().int4_packed.get(&TensorId::new(1)).map(|p| p.len()), Some(41));
    let s = crate::inspect::summarize(&model);
    assert_eq!(s.int4.len(), 1);
    assert_eq!((s.int4[0].stored_bytes, s.int4[0].unpacked_bytes, s.int4[0].unpacked), (41, 81, true));
    let text = s.render_text("m");
    assert!(text.contains("int4:        1 constant(s), 41 bytes stored packed, 81 bytes unpacked to int8"), "{text}");
}

/// Weight-only int4 (int4 constant -> DEQUANTIZE -> float32 FULLY_CONNECTED): the
/// DEQUANTIZE folds (per channel: TFLite's `PerChannelDequantize`), and the float model
/// computes what it computes with the dequantized float32 weights as a constant.
#[test]
fn weight_only_int4_dequantize_folds() {
    let w = i4s(5, 35);
    let scales = [0.1f32, 0.2, 0.05, 0.15, 0.3];
    let make = |dequantized: bool| {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::F32, &[2, 7], None);
        let wf = if dequantized {
            let v: Vec<f32> = w.iter().enumerate().map(|(i, &q)| scales[i / 7] * q as f32).collect();
            m.constant_f32("w", &[5, 7], &v)
        } else {
            let w4 = m.constant_i4_per_axis("w4", &[5, 7], &w, &scales, 0);
            let wf = m.activation("w", DType::F32, &[5, 7], None);
            m.op(OpKind::Dequantize, &[Some(w4)], &[wf]);
            wf
        };
        let y = m.activation("y", DType::F32, &[2, 5], None);
        m.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(wf), None], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        m.finish()
    };
    let x: Vec<u8> = (0..14).flat_map(|i| (i as f32 * 0.37 - 2.0).to_le_bytes()).collect();
    let bytes = make(false);
    let got = run("int4_weight_only_fc_litert", &bytes, &[x.clone()]);
    assert_eq!(got, run("int4_weight_only_fc_twin", &make(true), &[x]));
    // Host float32 kernels are not bit-exact (fused multiply-adds, docs/KERNELS.md): the
    // output is within a few ulps of TFLite's reference kernels.
    let got: Vec<f32> = got.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    for (g, &w) in got.iter().zip(INT4_WEIGHT_ONLY_FC_LITERT) {
        let w = f32::from_bits(w);
        assert!((g - w).abs() <= 1e-5 * w.abs().max(1.0), "{got:?}");
    }
    let model = crate::passes::read_model(&bytes).unwrap();
    assert_eq!(crate::passes::fold::FoldedModel::of(&model).subgraphs[0].ops.len(), 1);
}

fn compile_err(bytes: &[u8]) -> String {
    match crate::compile(bytes, &crate::CompileOptions::default()) {
        Ok(_) => panic!("must not compile"),
        Err(e) => format!("{e:#}"),
    }
}

/// Malformed or unsupported int4 models are refused with the tensor named, never a
/// panic or a wrong read.
#[test]
fn int4_refusals_name_the_tensor() {
    // Packed data one byte short of ceil(81 / 2).
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[1, 3, 3, 3], Some((0.05, 0)));
    let w = m.constant("short_filter", DType::I4, &[3, 3, 3, 3], vec![0; 40], Some(per_tensor(0.1)));
    let y = m.activation("y", DType::I8, &[1, 1, 1, 3], Some((0.1, 0)));
    let o = Conv2dOptions { padding: Padding::Valid, stride_w: 1, stride_h: 1, dilation_w: 1, dilation_h: 1, activation: Activation::None };
    m.op(OpKind::Conv2d(o.clone()), &[Some(x), Some(w), None], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    let e = compile_err(&m.finish());
    assert!(e.contains("short_filter") && e.contains("constant data is 40 bytes, but int4[3, 3, 3, 3] needs 41"), "{e}");

    // int4 filter on int16 activations (TFLite Micro refuses it too).
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I16, &[1, 2], Some((0.05, 0)));
    let w = m.constant_i4("w16x4", &[3, 2], &[1, -2, 3, -4, 5, -6], Some(per_tensor(0.1)));
    let y = m.activation("y", DType::I16, &[1, 3], Some((0.1, 0)));
    m.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(w), None], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    let e = compile_err(&m.finish());
    assert!(e.contains("w16x4") && e.contains("int4 filter on int16 activations"), "{e}");

    // Quantization that does not fit the op: CONV_2D per-channel along axis 3.
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[1, 3, 3, 2], Some((0.05, 0)));
    let w = m.constant_i4_per_axis("axis3", &[2, 3, 3, 2], &i4s(6, 36), &[0.1, 0.2], 3);
    let y = m.activation("y", DType::I8, &[1, 1, 1, 2], Some((0.1, 0)));
    m.op(OpKind::Conv2d(o), &[Some(x), Some(w), None], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    let e = compile_err(&m.finish());
    assert!(e.contains("axis3") && e.contains("neither per-tensor nor per output channel"), "{e}");

    // A zero point outside the int4 range.
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[1, 2], Some((0.05, 0)));
    let q = Quantization { scale: vec![0.1], zero_point: vec![9], axis: None };
    let w = m.constant_i4("zp9", &[3, 2], &[1, -2, 3, -4, 5, -6], Some(q));
    let y = m.activation("y", DType::I8, &[1, 3], Some((0.1, 0)));
    m.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(w), None], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    let e = compile_err(&m.finish());
    assert!(e.contains("zp9") && e.contains("int4 filter zero point 9"), "{e}");

    // An int4 filter another operator (ADD) also reads: not unpacked, refused by both.
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[3, 2], Some((0.05, 0)));
    let w = m.constant_i4("shared", &[3, 2], &[1, -2, 3, -4, 5, -6], Some(per_tensor(0.1)));
    let y = m.activation("y", DType::I8, &[3, 3], Some((0.1, 0)));
    let z = m.activation("z", DType::I8, &[3, 2], Some((0.1, 0)));
    m.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(w), None], &[y]);
    m.op(OpKind::Add { activation: Activation::None }, &[Some(x), Some(w)], &[z]);
    m.inputs(&[x]).outputs(&[y, z]);
    let e = compile_err(&m.finish());
    assert!(e.contains("shared") && e.contains("int4"), "{e}");
}

// Expected outputs from TFLite Micro's reference kernels (`tools/op_test_vectors.py`).
const INT4_CONV_SAME: &[i8] = &[33, -20, -20, -20, -20, -20, 8, -7, 63, 127, 19, 127, -20, 0, -20, -20, -20, -20, 51, -20, -20, -20, -20, -20, -20, -20, 41];
const INT4_CONV_VALID: &[i8] = &[-15, 23, -51, -18, -43, -1, 2, 7, -5, 38, -5, -19, 10, -21, 29, 13, 30, 15, -6, 21, 5, -40, 24, 67, -14, 4, -24, -5, -40, 18, 8, 19, 8, 45, 31, 22];
const INT4_DEPTHWISE_M1: &[i8] = &[-128, -128, -128, -128, -98, -51, -91, -28, -95, -76, -76, -19, -128, -128, -57, -100, -42, -121, -118, -8, -128, -128, -123, -128, -128, -96, -128, -116, -8, -128, -128, -128, -124, -108, -128, -8, -111, -96, -8, -98, -128, -8, -115, -48, -107, -71, -128, -128, -128, -92, -128, -66, -128, -128, -128, -128, -42, -128, -128, -65];
const INT4_DEPTHWISE_M2: &[i8] = &[-128, -79, -112, -128, -63, -84, -122, -8, -119, -128, -128, -40, -128, -128, -44, -128, -128, -128, -128, -57, -128, -128, -116, -16, -59, -128, -128, -128, -124, -128, -8, -8, -112, -117, -128, -128, -128, -128, -128, -128, -99, -119, -128, -128, -128, -128, -8, -106, -128, -128, -59, -128, -108, -8, -8, -8, -48, -78, -63, -128, -128, -128, -128, -128, -128, -77, -128, -128, -128, -128, -11, -128, -70, -33, -94, -67, -128, -128, -8, -80];
const INT4_FC_PER_CHANNEL: &[i8] = &[127, 118, -2, 127, 40, -124, -128, 25, -128, -128];
const INT4_FC_PER_TENSOR: &[i8] = &[5, 63, 96, -53, 1, -111, 23, 127, -113, 91];
// TFLite's reference kernels (ai-edge-litert, BUILTIN_REF), float32 bits.
const INT4_WEIGHT_ONLY_FC_LITERT: &[u32] = &[1053911156, 1076434568, 1057157547, 1080597414, 3227672118, 3221984641, 3236324966, 3207031949, 3223664460, 1085878044];
