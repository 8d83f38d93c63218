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

/// CONV_2D as kws's first layer ([1, 49, 10, 1] -> [1, 25, 5, c]: a [c, 10, 4, 1] filter,
/// stride 2, SAME, RELU), scaled down to [1, 13, 6, 1], per-channel filter values in -7..=7
/// as `tools/int4_firmware_models.py` makes them.
fn conv_kws_first(store: Store) -> Vec<u8> {
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[1, 13, 6, 1], Some((0.58, 83)));
    let values: Vec<i8> = i4s(21, 8 * 40).into_iter().map(|v| v.max(-7)).collect();
    let scales: Vec<f32> = (0..8).map(|c| 0.01 + 0.002 * c as f32).collect();
    let w = filter(&mut m, store, &[8, 10, 4, 1], &values, per_axis(&scales, 0));
    let bias: Vec<i32> = (0..8).map(|c| 300 * c - 1000).collect();
    let bias_scales: Vec<f32> = scales.iter().map(|s| s * 0.58).collect();
    let b = m.constant_i32_per_axis("b", &[8], &bias, &bias_scales);
    let y = m.activation("y", DType::I8, &[1, 7, 3, 8], Some((0.1, -128)));
    let o = Conv2dOptions { padding: Padding::Same, stride_w: 2, stride_h: 2, dilation_w: 1, dilation_h: 1, activation: Activation::Relu };
    m.op(OpKind::Conv2d(o), &[Some(x), Some(w), Some(b)], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    m.finish()
}

/// The shapes `tools/int4_firmware_models.py` gives kws (its firmware rows in
/// docs/KERNELS.md): the first CONV_2D on one input channel with a 10x4 window, and
/// DEPTHWISE_CONV_2D with whole blocks of four channels and multiplier 1 (the `_int4`
/// kernel's one-run input path) next to a tail block. Checked against the int8 twin (the
/// interpreter also runs the `_int4` kernel beside the int8 variant on each op).
#[test]
fn firmware_script_shapes() {
    for (name, make, input) in [
        ("int4_conv_kws_first", &conv_kws_first as &dyn Fn(Store) -> Vec<u8>, i8s(22, 78)),
        ("int4_depthwise_8ch", &|s| depthwise(s, 8, 1), i8s(23, 160)),
        ("int4_depthwise_10ch", &|s| depthwise(s, 10, 1), i8s(24, 200)),
    ] {
        let input = vec![bytes_of(&input)];
        let got = run(name, &make(Store::Int4), &input);
        let twin = run(&format!("{name}_int8twin"), &make(Store::Int8), &input);
        assert_eq!(got, twin, "{name}: int4 and its int8 twin differ");
        let kept = crate::compile(&make(Store::Int4), &crate::CompileOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(kept.int4_kept.filters, 1, "{name}: the filter is not kept packed");
        // kws's first layer (rows of four taps) takes the Gemm drivers on nibble words.
        if name == "int4_conv_kws_first" {
            assert!(kept.code.contains("int4::conv_2d_s8_int4_gemm("), "{name}: {}", kept.code);
        }
    }
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

/// Bytes of weight blob a build for `arm` (Arm and RV32) or a host (x86-64) links: the main
/// blob and every scoped blob whose `cfg` holds for it.
fn flash(c: &crate::Compiled, arm: bool) -> usize {
    let scopes: &[&str] = if arm { &["arm", "not_x86", "arm_x86", "all"] } else { &["x86", "host", "arm_x86", "all"] };
    c.weights.len() + c.scoped_weights.iter().filter(|(s, _)| scopes.contains(s)).map(|(_, b)| b.len()).sum::<usize>()
}

/// The int4 filters stay packed for the microcontroller builds (issue 30): each of the three
/// ops' Arm / RV32 call is its `_int4` kernel on a nibble table of half the filter, hosts
/// keep their int8 variants, and `decode_weights` unpacks everywhere (the int8 twin's
/// module, blob for blob). The interpreter (every `run` above) runs the `_int4` kernel
/// beside the int8 variant on each such op and fails on any difference.
#[test]
fn int4_filters_kept_packed_for_microcontrollers() {
    use crate::testing::models::{int4_weights, int4_weights_int8_twin};
    let bytes = int4_weights();
    if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("dump dir");
        std::fs::write(dir.join("builder_int4_weights.tflite"), &bytes).expect("dump model");
        std::fs::write(dir.join("builder_int4_weights_int8twin.tflite"), int4_weights_int8_twin()).expect("dump model");
    }
    let kept = crate::compile(&bytes, &crate::CompileOptions::default()).unwrap();
    let unpacked = crate::compile(&bytes, &crate::CompileOptions { decode_weights: true, ..Default::default() }).unwrap();
    let twin = crate::compile(&int4_weights_int8_twin(), &crate::CompileOptions::default()).unwrap();
    for call in ["int4::conv_2d_s8_int4(", "int4::depthwise_conv_2d_s8_int4(", "int4::fully_connected_s8_int4("] {
        assert_eq!(kept.code.matches(call).count(), 1, "{call}\n{}", kept.code);
        assert!(!unpacked.code.contains(call) && !twin.code.contains(call), "{call}");
    }
    // Under the microcontroller `cfg` only (the calls live in `mod target` for Arm and RV32).
    assert!(kept.code.contains("OP0_INT4_FILTER") && kept.code.contains("WEIGHTS_ARM"), "{}", kept.code);
    // Nibbles: conv 81 weights -> 41 bytes, depthwise 27 -> 14, FULLY_CONNECTED 525 -> 263.
    let k = &kept.int4_kept;
    assert_eq!((k.filters, k.packed_bytes, k.unpacked_bytes), (3, 41 + 14 + 263, 81 + 27 + 525), "{k:?}");
    assert_eq!(unpacked.int4_kept.filters, 0);
    // Hosts and `decode_weights` link what the int8 twin links.
    assert_eq!(flash(&kept, false), flash(&twin, false));
    assert_eq!((flash(&unpacked, true), flash(&unpacked, false)), (flash(&twin, true), flash(&twin, false)));
    let (arm, arm_twin) = (flash(&kept, true), flash(&twin, true));
    eprintln!("builder_int4_weights: Arm/RV32 weight blob {arm} bytes, int8 twin {arm_twin} ({:.3}x)", arm as f64 / arm_twin as f64);
    assert!(arm < arm_twin, "{arm} {arm_twin}");
    // `inspect` says so.
    let text = crate::inspect::summarize(&crate::passes::read_model(&bytes).unwrap()).render_text("m");
    assert!(text.contains("kept packed for Arm and RV32: 3 filter(s), 318 bytes in flash there instead of 633"), "{text}");
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
    let got = run("int4_weight_only_fc_litert", &bytes, std::slice::from_ref(&x));
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

/// Models ai-edge-quantizer made (`tools/int4_converter_models.py`): int8 activations with
/// int4 CONV_2D (per channel) and FULLY_CONNECTED (per tensor) weights, against TFLite Micro;
/// and weight-only int4 (asymmetric, per channel, behind DEQUANTIZE), against TFLite's
/// reference kernels within a few ulps (host float32 kernels use fused multiply-adds).
#[test]
fn converter_made_int4_models() {
    let a8w4: &[u8] = include_bytes!("../../../tests/data/int4/int4_a8w4.tflite");
    let model = crate::passes::read_model(a8w4).unwrap();
    assert_eq!(model.main().tensors.iter().filter(|t| t.dtype == DType::I4).count(), 2);
    let got = run("int4_converter_a8w4", a8w4, &[bytes_of(INT4_A8W4_INPUT)]);
    assert_eq!(got, bytes_of(INT4_A8W4));
    // Issue 30's bound: the Arm / RV32 weight blob at most 0.52x the int8 twin's (the same
    // file with `decode_weights`, which unpacks the int4 filters: the twin's module).
    let kept = crate::compile(a8w4, &crate::CompileOptions::default()).unwrap();
    let twin = crate::compile(a8w4, &crate::CompileOptions { decode_weights: true, ..Default::default() }).unwrap();
    assert_eq!((kept.int4_kept.filters, kept.int4_kept.packed_bytes, kept.int4_kept.unpacked_bytes), (2, 1041, 2082));
    assert_eq!((flash(&kept, true), flash(&twin, true)), (1208, 2336));
    assert!(flash(&kept, true) * 100 <= flash(&twin, true) * 52);
    assert_eq!(flash(&kept, false), flash(&twin, false));

    let weight_only: &[u8] = include_bytes!("../../../tests/data/int4/int4_weight_only.tflite");
    let model = crate::passes::read_model(weight_only).unwrap();
    let folded = crate::passes::fold::FoldedModel::of(&model);
    assert!(!folded.subgraphs[0].unpacked_int4.is_empty());
    let dequantizes = model.main().ops.iter().filter(|o| o.kind == OpKind::Dequantize).count();
    assert!(dequantizes >= 2 && folded.count() >= dequantizes, "{dequantizes} DEQUANTIZE, {} folded", folded.count());
    let x: Vec<u8> = INT4_WEIGHT_ONLY_INPUT.iter().flat_map(|b| b.to_le_bytes()).collect();
    let got = run("int4_converter_weight_only", weight_only, &[x]);
    let got: Vec<f32> = got.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    for (g, &w) in got.iter().zip(INT4_WEIGHT_ONLY) {
        let w = f32::from_bits(w);
        assert!((g - w).abs() <= 1e-4 * w.abs().max(1.0), "{got:?}");
    }
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
// `tools/int4_converter_models.py vectors`.
const INT4_A8W4_INPUT: &[i8] = &[-68, -18, -105, 24, 73, 95, -45, -101, -26, 24, -64, 37, 104, -28, -5, 69, 29, 63, 2, 99, -89, 25, -105, 120, -17, -98, 104, 111, -68, -46, -82, -28, -6, -53, -45, -61, -100, -90, 125, -84, 84, 104, 34, 45, -52, -87, 117, -62, 114, 77, 102, -28, -22, -15, -84, -17, -98, 36, -67, -11, 15, -43, 76, 127, 119, -11, -11, -44, 17, -35, 35, -16, 114, -23, 94, -29, 21, 42, 127, -53, 37, -32, -73, -31, -85, 20, 7, 87, 14, -29, -90, -20, -72, 5, -66, -20, 105, -26, 117, -44, 84, 86, 73, 99, 25, 34, -43, 41, 121, 27, 109, -121, -42, -33, 104, -118, -116, -3, 100, -69, 112, -31, -24, -38, -35, -73, 118, -78, -125, 105, 104, -117, -20, 39, -124, 16, -49, -54, 30, 107, 104, 91, -12, 114, 118, 123, 17, -30, 30, 22, -97, 22, -79, -17, -111, 74, 69, 98, -58, -101, -105, 71, -16, -116, 3, -91, -73, 44, -102, -1, -75, 12, -115, 101, 95, -89, 7, -118, 127, 9, 44, -99, -61, -68, -50, -16, 8, -40, -124, 106, 39, 37];
const INT4_A8W4: &[i8] = &[-128, 14, 103, 60, 127];
const INT4_WEIGHT_ONLY_INPUT: &[u32] = &[3204924769, 3188797530, 3209740695, 1044227716, 1058061794, 1060909871, 3199317457, 3209159957, 3192863993, 1044093489, 3204436646, 1049858503, 1062075563, 3193908187, 3173768907, 1057544218, 1046703242, 1056544084, 1013028674, 1061426533, 3207613514, 1044891021, 3209671641, 1064189880, 3188087231, 3208760984, 1062076055, 1062966596, 3204956235, 3199770562, 3206694430, 3194043141, 3174890948, 3201464346, 3199261067, 3203612838, 3209041572, 3207756001, 1064794786, 3206956686, 1059545798, 1062109676, 1049085955, 1051991358, 3201189794, 3207390100, 1063810740, 3203701904, 1063393812, 1058615010, 1061871595, 3193890224, 3190693322, 3186206046, 3207005258, 3188005492, 3208821525, 1049523805, 3204816904, 3182721706, 1038782741, 3198913423, 1058437225, 1065314985, 1064024295, 3182829937, 3182120632, 3199006241, 1040882832, 3196708641, 1049172499, 3187686582, 1063447612, 3191503912, 1060793335, 3194402585, 1042725458, 1051114568, 1065061715, 3201391021, 1049938860, 3196077698, 3205618425, 3195590026, 3207097603, 1042209682, 1028714596, 1059873191, 1038419138, 3194370799, 3207729792, 3189624697, 3205399133, 1024642447, 3204636967, 3189446888, 1062215473, 3192946108, 1063754440, 3199189493, 1059559629, 1059754839, 1058055549, 1061470542, 1044962461, 1049161240, 3198988335, 1050953163, 1064374310, 1045712313, 1062834175, 3211793463, 3198502966, 3196211989, 1062092900, 3211426092, 3211220619, 3165944275, 1061578901, 3205032154, 1063111569, 3195379149, 3191692790, 3197498151, 3196708839, 3205575635, 1063945841, 3206184192, 3212302028, 1062258365, 1062132571, 3211288878, 3189749843, 1050240364, 3212181536, 1039941308, 3200351964, 3201722477, 1047576077, 1062511898, 1062085025, 1060403844, 3183671626, 1063424958, 1063933137, 1064551952, 1040546854, 3194857572, 1047211251, 1043154642, 3208751723, 1043022406, 3206405260, 3188112459, 3210510193, 1058258465, 1057610630, 1061378858, 3202746797, 3209268765, 3209713019, 1057837546, 3187772163, 3211148550, 1017412259, 3207882450, 3205620804, 1051556507, 3209368162, 3149702538, 3205828600, 1035771791, 3211053836, 1061713457, 1060942009, 3207592499, 1029898909, 3211451871, 1065127129, 1032433855, 1051570485, 3208950736, 3203547785, 3204973172, 3200661978, 3187099837, 1031819531, 3198139616, 3212186123, 1062319755, 1050317920, 1049806668];
const INT4_WEIGHT_ONLY: &[u32] = &[3188866601, 1034978127, 1049544735, 1041282939, 1050090303];

/// The fuzzers' int4 seed (`testing::models::int4_weights`) compiles, every int4 constant
/// unpacked.
#[test]
fn fuzz_seed_compiles() {
    let bytes = crate::testing::models::int4_weights();
    let model = crate::passes::read_model(&bytes).unwrap();
    let folded = crate::passes::fold::FoldedModel::of(&model);
    assert_eq!(folded.subgraphs[0].unpacked_int4.len(), 4);
    crate::compile(&bytes, &crate::CompileOptions::default()).unwrap();
}
