//! The 16x8 paths (int16 activations, int8 weights, int64 bias) of CONV_2D,
//! DEPTHWISE_CONV_2D and FULLY_CONNECTED, int16 AVERAGE_POOL_2D and int16 SOFTMAX, on
//! single-op models with what the corpus lacks (strides, SAME padding, depth multiplier 2,
//! RELU clamps in int16, batches). Kept in one file because they share
//! the int16 model builders.
//!
//! Expected outputs: the TFLite Micro interpreter (pip `tflite-micro`, reference kernels)
//! run once on the models and inputs these tests build, dumped with
//! `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc tests_16x8` and run through
//! `tools/op_test_vectors.py <dir> s16_`.

use super::test_helpers::*;
use super::{TensorData, TensorStore};
use crate::ir::*;
use crate::tflite::builder::ModelBuilder;

/// Deterministic int16 values over the full range.
fn i16s(seed: u64, n: usize) -> Vec<i16> {
    let a = i8s(seed, 2 * n);
    a.chunks(2).map(|c| i16::from_le_bytes([c[0] as u8, c[1] as u8])).collect()
}

fn q(scale: f32) -> Option<(f32, i64)> {
    Some((scale, 0))
}

fn per_axis(scales: &[f32], axis: usize) -> Quantization {
    Quantization { scale: scales.to_vec(), zero_point: vec![0; scales.len()], axis: Some(axis) }
}

fn bias_i64(b: &mut ModelBuilder, v: &[i64], scales: &[f32]) -> TensorId {
    let bytes = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    let quant = if scales.len() == 1 {
        Quantization { scale: scales.to_vec(), zero_point: vec![0], axis: None }
    } else {
        per_axis(scales, 0)
    };
    b.constant("bias", DType::I64, &[v.len()], bytes, Some(quant))
}

fn run16(name: &str, bytes: &[u8], x: TensorId, n: usize, seed: u64, y: TensorId) -> Vec<i16> {
    let store: TensorStore = run_op0(name, bytes, &[(x, TensorData::I16(i16s(seed, n)))]);
    store.i16(y).expect("an int16 output").to_vec()
}

#[test]
fn conv_2d_same_stride_2_relu() {
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I16, &[1, 7, 6, 3], q(0.002));
    let ws = [0.01f32, 0.02, 0.015, 0.03];
    let w = b.constant_i8_per_axis("w", &[4, 3, 3, 3], &i8s(61, 108), &ws, 0);
    let bs: Vec<f32> = ws.iter().map(|s| s * 0.002).collect();
    let bias = bias_i64(&mut b, &[120_000, -3_000_000, 45, 2_000_000], &bs);
    let y = b.activation("y", DType::I16, &[1, 4, 3, 4], q(0.5));
    b.op(
        OpKind::Conv2d(Conv2dOptions { padding: Padding::Same, stride_w: 2, stride_h: 2, dilation_w: 1, dilation_h: 1, activation: Activation::Relu }),
        &[Some(x), Some(w), Some(bias)],
        &[y],
    );
    b.inputs(&[x]).outputs(&[y]);
    let got = run16("s16_conv", &b.finish(), x, 126, 62, y);
    let want: &[i16] = &[
        257, 0, 0, 293, 0, 197, 259, 631, 201, 364, 0, 0, 101, 115, 0, 0,
        184, 0, 0, 0, 7, 0, 0, 394, 0, 361, 0, 0, 165, 0, 65, 491,
        57, 27, 0, 0, 204, 71, 0, 306, 0, 0, 0, 303, 192, 600, 287, 0,
    ];
    assert_eq!(got, want);
}

#[test]
fn depthwise_conv_2d_multiplier_2() {
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I16, &[1, 5, 5, 2], q(0.002));
    let ws = [0.01f32, 0.02, 0.005, 0.04];
    let w = b.constant_i8_per_axis("w", &[1, 3, 3, 4], &i8s(71, 36), &ws, 3);
    let bs: Vec<f32> = ws.iter().map(|s| s * 0.002).collect();
    let bias = bias_i64(&mut b, &[-50_000, 7, 300_000, -1], &bs);
    let y = b.activation("y", DType::I16, &[1, 5, 5, 4], q(0.1));
    b.op(
        OpKind::DepthwiseConv2d(DepthwiseConv2dOptions {
            padding: Padding::Same,
            stride_w: 1,
            stride_h: 1,
            depth_multiplier: 2,
            dilation_w: 1,
            dilation_h: 1,
            activation: Activation::None,
        }),
        &[Some(x), Some(w), Some(bias)],
        &[y],
    );
    b.inputs(&[x]).outputs(&[y]);
    let got = run16("s16_depthwise", &b.finish(), x, 50, 72, y);
    let want: &[i16] = &[
        -739, -980, 353, 1376, -233, -1018, 84, 2651, -405, -1750, 600, -2810, -332, -775, -104, -279,
        -910, -1490, 191, -2503, 182, 61, 548, -937, 104, 389, 191, 621, -379, 81, 669, -8780,
        113, 1766, -156, 2323, -854, 207, -46, -1062, 191, 1302, 287, 168, 1007, 2310, 290, -2672,
        554, 1575, -103, 376, 355, -14, 436, -2128, 960, 565, -103, 3568, -570, -1200, 550, -1729,
        -1029, -3006, -353, 1223, 229, -2083, 693, -4838, -289, -1488, -179, -638, -840, -533, 244, -2190,
        259, 1080, 404, -3946, -447, 625, -808, 6382, 418, 1375, 322, -8142, -20, 1482, -495, 4416,
        -599, 73, 0, -1454,
    ];
    assert_eq!(got, want);
}

#[test]
fn average_pool_2d_same_relu() {
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I16, &[1, 5, 7, 3], q(0.01));
    let y = b.activation("y", DType::I16, &[1, 3, 4, 3], q(0.01));
    b.op(
        OpKind::AveragePool2d(Pool2dOptions { padding: Padding::Same, stride_w: 2, stride_h: 2, filter_w: 3, filter_h: 3, activation: Activation::Relu }),
        &[Some(x)],
        &[y],
    );
    b.inputs(&[x]).outputs(&[y]);
    let got = run16("s16_avgpool", &b.finish(), x, 105, 81, y);
    let want: &[i16] = &[
        0, 10616, 0, 3165, 0, 0, 6924, 0, 1823, 6099, 5135, 421, 603, 5108, 0, 2443,
        4162, 0, 3136, 0, 0, 8449, 0, 1434, 0, 8126, 1044, 774, 5165, 0, 839, 0,
        0, 10427, 5431, 11396,
    ];
    assert_eq!(got, want);
}

/// MAX_POOL_2D int16 (`reference_integer_ops::MaxPool`'s int16 overload): SAME 3x3
/// stride 2 on odd sizes (windows clipped at every edge), RELU clamping at 0; and VALID 2x2
/// with RELU6 (clamping at 6 / scale).
#[test]
fn max_pool_same_relu_and_valid_relu6() {
    #[allow(clippy::type_complexity)]
    let cases: [(&str, Padding, [i32; 2], [i32; 2], Activation, [usize; 4], [usize; 4]); 2] = [
        ("s16_maxpool_same_relu", Padding::Same, [3, 3], [2, 2], Activation::Relu, [1, 5, 7, 3], [1, 3, 4, 3]),
        ("s16_maxpool_valid_relu6", Padding::Valid, [2, 2], [2, 2], Activation::Relu6, [2, 4, 6, 2], [2, 2, 3, 2]),
    ];
    for (k, (name, padding, f, st, activation, xs, ys)) in cases.into_iter().enumerate() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I16, &xs, q(0.0005));
        let y = b.activation("y", DType::I16, &ys, q(0.0005));
        b.op(OpKind::MaxPool2d(Pool2dOptions { padding, stride_w: st[1], stride_h: st[0], filter_w: f[1], filter_h: f[0], activation }), &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        let n = xs.iter().product();
        let got = run16(name, &b.finish(), x, n, 120 + k as u64, y);
        let want = MAXPOOL_S16_TFLM.iter().find(|v| v.0 == name).map(|v| v.1);
        match want {
            Some(w) => assert_eq!(got, w, "{name}"),
            None => assert!(std::env::var_os("TFLC_DUMP_OP_MODELS").is_some(), "{name}: no vector"),
        }
    }
}

/// TFLite Micro's outputs (`tools/op_test_vectors.py`, pip tflite-micro
/// 0.dev20261023182759).
#[rustfmt::skip]
const MAXPOOL_S16_TFLM: &[(&str, &[i16])] = &[
    ("s16_maxpool_same_relu", &[32731, 11244, 26847, 29164, 27273, 0, 22391, 24671, 31572, 11050, 0, 1646, 32731, 31691, 29142, 32704, 27273, 29142, 27506, 32595, 31908, 28011, 32595, 29330, 0, 31691, 0, 27506, 22995, 32338, 27506, 32595, 25710, 24696, 32595, 25975]),
    ("s16_maxpool_valid_relu6", &[1693, 12000, 12000, 12000, 2651, 12000, 1480, 12000, 12000, 12000, 12000, 12000, 12000, 7145, 12000, 12000, 4041, 12000, 12000, 12000, 3023, 12000, 12000, 12000]),
];

#[test]
fn fully_connected_batches_relu() {
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I16, &[2, 10], q(0.002));
    let w = b.constant_i8("w", &[3, 10], &i8s(91, 30), q(0.01));
    let bias = bias_i64(&mut b, &[40_000, -90_000, 5], &[0.00002]);
    let y = b.activation("y", DType::I16, &[2, 3], q(0.004));
    b.op(
        OpKind::FullyConnected(FullyConnectedOptions { activation: Activation::Relu, ..Default::default() }),
        &[Some(x), Some(w), Some(bias)],
        &[y],
    );
    b.inputs(&[x]).outputs(&[y]);
    let got = run16("s16_fc", &b.finish(), x, 20, 92, y);
    let want: &[i16] = &[
        0, 0, 23271, 0, 0, 2286,
    ];
    assert_eq!(got, want);
}

/// An int16 SOFTMAX of `shape` (input scale `in_scale`, output 1/32768) run on
/// `i16s(seed, ..)`.
fn softmax16(name: &str, shape: [usize; 2], in_scale: f32, beta: f32, seed: u64) -> Vec<i16> {
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I16, &shape, q(in_scale));
    let y = b.activation("y", DType::I16, &shape, q(1.0 / 32768.0));
    b.op(OpKind::Softmax { beta }, &[Some(x)], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    run16(name, &b.finish(), x, shape[0] * shape[1], seed, y)
}

/// Rows of 9 with input scale 0.0002 (differences from the row maximum up to ~13, across
/// the whole exp table and beyond it), beta 0.8.
#[test]
fn softmax_int16_rows_of_9() {
    let got = softmax16("s16_softmax", [4, 9], 0.0002, 0.8, 101);
    let want: &[i16] = &[
        2, 38, 3207, 14684, 13433, 15, 144, 49, 1196, 26293, 6, 11, 63, 330, 5924, 65,
        60, 16, 249, 18787, 4, 588, 114, 11907, 636, 464, 17, 2, 17384, 4329, 1148, 4634,
        67, 3167, 6, 2032,
    ];
    assert_eq!(got, want);
}

/// Small differences (scale 0.00002): nearly uniform rows, where the 1/(1+x) table's
/// interpolation decides the low bits.
#[test]
fn softmax_int16_nearly_uniform() {
    let got = softmax16("s16_softmax_flat", [2, 12], 0.00002, 1.0, 102);
    let want: &[i16] = &[
        1997, 1999, 2168, 3845, 2337, 3368, 3247, 1522, 1592, 3165, 2738, 4789, 1600, 5226, 2861, 3932,
        2261, 1692, 1655, 2255, 2255, 2165, 3286, 3580,
    ];
    assert_eq!(got, want);
}

/// An effective scale of 2^8 or more breaks the 64-bit requantization's precondition:
/// refused, not a panic.
#[test]
fn huge_effective_scale_is_unsupported() {
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I16, &[1, 4], q(1.0));
    let w = b.constant_i8("w", &[2, 4], &[1; 8], q(1.0));
    let y = b.activation("y", DType::I16, &[1, 2], q(0.001));
    b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(w)], &[y]);
    let e = lower_op0(&b.finish()).expect_err("scale 1000");
    assert!(matches!(e, crate::error::LowerError::Unsupported { .. }), "{e}");
}

/// A whole 16x8 model as Google's `ai-edge-quantizer` writes it (`tools/int16_model.py`:
/// tensorflow-cpu 2.21.0, ai-edge-quantizer 0.10.0 `static_wi8_ai16`): a residual CNN
/// (CONV_2D, ADD) and an attention-like block (MEAN, SUB, MUL, ADD, RSQRT, FULLY_CONNECTED,
/// BATCH_MATMUL, SOFTMAX), int16 throughout. It used to stop at MEAN and RSQRT int16; its
/// output is TFLite Micro's (pip tflite-micro 0.dev20261023182759) on the input
/// `x[i] = ((i * 37) % 17 - 8) / 8`, quantized. `testing::models::all()` carries it, so
/// `tests/generated-compile` runs its generated code against the interpreter.
#[test]
fn int16_attention_model_matches_tflite_micro() {
    let bytes = crate::testing::models::int16_attention();
    let model = crate::passes::read_model(&bytes).unwrap();
    let scale = 3.004_616_2e-5f64;
    let x: Vec<u8> = (0..108)
        .flat_map(|i| {
            let v = (((i * 37) % 17) as f64 - 8.0) / 8.0 / scale;
            // numpy's round: half to even.
            let r = v.round_ties_even().clamp(-32768.0, 32767.0) as i16;
            r.to_le_bytes()
        })
        .collect();
    assert_eq!(&x[..8], &[0x00, 0x80, 0xbf, 0xae, 0x7f, 0xdf, 0x40, 0x10], "the golden input");
    let out = crate::interp::run(&model, &[&x]).unwrap();
    let got: Vec<i16> = out[0].chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
    assert_eq!(got, [4320, 12248, 7372, 8828], "TFLite Micro's output");
    crate::pipeline::compile(&bytes, &crate::pipeline::CompileOptions::default()).unwrap();
}
