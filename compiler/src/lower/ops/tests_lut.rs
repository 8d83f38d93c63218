//! TFLite Micro's LUT-compressed filters (TFLM_DECODE, decode type 0) kept compressed for
//! the `_lut` kernels (`tflc_runtime::kernels::lut`), against the same filters decoded at
//! compile time (`CompileOptions::decode_weights`). The interpreter runs the `_lut` kernel
//! beside the reference on every such op and fails on any difference
//! (`decode::LutFilter::check`), so each `interp::run` here is a bit-exactness check;
//! `tests/generated-compile` runs the generated code of `builder_lut_weights` against it.

use super::test_helpers::i8s;
use crate::testing::models::{lut_constant, lut_weights};

fn count(code: &str, call: &str) -> usize {
    code.matches(&format!("lut::{call}(")).count()
}

/// The builder model: every layer reads its filter compressed by default and decoded with
/// `decode_weights`; the weight blob holds the tables and indices, not the int8 filters.
#[test]
fn builder_model_kept_and_decoded() {
    let bytes = lut_weights();
    let kept = crate::compile(&bytes, &crate::CompileOptions::default()).unwrap();
    let decoded = crate::compile(&bytes, &crate::CompileOptions { decode_weights: true, ..Default::default() }).unwrap();
    assert_eq!(count(&kept.code, "conv_2d_s8_lut"), 3, "{}", kept.code);
    assert_eq!(count(&kept.code, "depthwise_conv_2d_s8_lut"), 2);
    assert_eq!(count(&kept.code, "fully_connected_s8_lut"), 3);
    assert!(!decoded.code.contains("_lut("));
    // int8 filters: 108 + 100 + 144 + 48 + 200 + 40 + 1152 + 1024 bytes.
    let int8 = 2816;
    let c = &kept.compressed;
    assert_eq!((c.tensors, c.kept, c.decoded_bytes), (8, 8, int8), "{c:?}");
    // The kept form is what the file stores less the 16-byte headers.
    assert_eq!(c.flash_bytes + 8 * 16, c.stored_bytes, "{c:?}");
    assert_eq!(decoded.compressed.flash_bytes, int8);
    // A build's blob: the main one and its target's (the variants' packed filters).
    let blob = |c: &crate::Compiled| c.weights.len() + c.scoped_weights.iter().map(|(_, b)| b.len()).max().unwrap_or(0);
    assert!(blob(&kept) + int8 / 2 < blob(&decoded), "kept {} decoded {}", blob(&kept), blob(&decoded));
    // Both run, and the interpreter's LUT check passes.
    let x: Vec<u8> = i8s(1, 108).iter().map(|&v| v as u8).collect();
    let xb: Vec<u8> = i8s(2, 576).iter().map(|&v| v as u8).collect();
    let xf: Vec<u8> = i8s(3, 512).iter().map(|&v| v as u8).collect();
    let model = crate::passes::read_model(&bytes).unwrap();
    crate::interp::run(&model, &[&x, &xb, &xf]).unwrap();
}

/// A FULLY_CONNECTED on a LUT filter of every width 1..=7, per-unit tables and one table
/// (rows of 1200 weights: kept compressed even with 128-entry tables), run by the
/// interpreter (its check compares the `_lut` kernel with the reference).
#[test]
fn every_width_per_channel_and_per_tensor() {
    use crate::ir::{DType, FullyConnectedOptions, OpKind};
    for width in 1..=7 {
        for per_channel in [true, false] {
            let mut b = crate::tflite::builder::ModelBuilder::new();
            let x = b.activation("x", DType::I8, &[2, 1200], Some((0.05, -3)));
            let scales: Vec<f32> = if per_channel { (0..3).map(|c| 0.003 + 0.001 * c as f32).collect() } else { vec![0.004] };
            let w = lut_constant(&mut b, width as u64 * 31 + per_channel as u64, "w", &[3, 1200], &scales, 0, width);
            let y = b.activation("y", DType::I8, &[2, 3], Some((0.1, 1)));
            b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(w), None], &[y]);
            b.inputs(&[x]).outputs(&[y]);
            let bytes = b.finish();
            let compiled = crate::compile(&bytes, &crate::CompileOptions::default()).unwrap();
            assert_eq!(count(&compiled.code, "fully_connected_s8_lut"), 1, "width {width}");
            let model = crate::passes::read_model(&bytes).unwrap();
            let input: Vec<u8> = i8s(width as u64, 2400).iter().map(|&v| v as u8).collect();
            crate::interp::run(&model, &[&input]).unwrap_or_else(|e| panic!("width {width}: {e}"));
        }
    }
}

/// A LUT filter whose tables outweigh its weights (a 3x3 depthwise filter with 16 entries
/// per channel) is decoded at compile time: the default makes the firmware smaller.
#[test]
fn tables_larger_than_the_weights_are_decoded() {
    use crate::ir::{Activation, DType, DepthwiseConv2dOptions, OpKind, Padding};
    let mut b = crate::tflite::builder::ModelBuilder::new();
    let x = b.activation("x", DType::I8, &[1, 4, 4, 8], Some((0.05, 0)));
    let scales: Vec<f32> = (0..8).map(|c| 0.01 + 0.001 * c as f32).collect();
    let w = lut_constant(&mut b, 9, "w", &[1, 3, 3, 8], &scales, 3, 4);
    let y = b.activation("y", DType::I8, &[1, 4, 4, 8], Some((0.1, 0)));
    let o = DepthwiseConv2dOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, depth_multiplier: 1, dilation_w: 1, dilation_h: 1, activation: Activation::None };
    b.op(OpKind::DepthwiseConv2d(o), &[Some(x), Some(w), None], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    let compiled = crate::compile(&b.finish(), &crate::CompileOptions::default()).unwrap();
    assert_eq!(count(&compiled.code, "depthwise_conv_2d_s8_lut"), 0);
    assert_eq!((compiled.compressed.kept, compiled.compressed.flash_bytes), (0, 72));
}

/// The fuzzers' seeds include a compressed model (it is in `models::all()`).
#[test]
fn fuzz_seeds_include_a_compressed_model() {
    assert!(crate::testing::models::fuzz_seeds().iter().any(|(n, _)| *n == "builder_lut_weights"));
}

/// A compressed filter TFLite Micro would refuse, or whose reads would leave its data, is
/// refused by name whether or not it would be kept compressed: indices shorter than the
/// tensor, an index past the value table, index width 0, a DCM version other than 1.
#[test]
fn bad_compressed_filters_are_refused_by_name() {
    use crate::ir::{DType, FullyConnectedOptions, OpKind, Quantization};
    use crate::tflite::builder::{ModelBuilder, OpSpecCode, TensorSpec};
    let build = |encoded: Vec<u8>, anc: Vec<u8>| {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[1, 8], Some((0.05, 0)));
        let e = b.constant("w/encoded", DType::U8, &[encoded.len()], encoded, None);
        let a = b.constant("w/ancillary", DType::U8, &[anc.len()], anc, None);
        let quant = Some(Quantization { scale: vec![0.01, 0.02], zero_point: vec![0, 0], axis: Some(0) });
        let w = b.tensor(TensorSpec { name: "w".into(), dtype: DType::I8, shape: vec![2, 8], shape_signature: None, quant, data: None, variable: false });
        b.op_spec(OpSpecCode::Custom("TFLM_DECODE".into()), &[Some(e), Some(a)], &[w]);
        let y = b.activation("y", DType::I8, &[1, 2], Some((0.1, 0)));
        b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(w), None], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        b.finish()
    };
    // 2 channels x 4 entries, 2-bit indices: 16 weights take 4 bytes.
    let anc = |width: u8, stride: u8, version: u8, entries: usize| {
        let mut a = vec![0u8, version, 0, 0, 1, width, stride, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        a.extend((0..entries).map(|i| i as u8 * 3));
        a
    };
    assert!(crate::compile(&build(vec![0x1b; 4], anc(2, 4, 1, 8)), &crate::CompileOptions::default()).is_ok());
    for (encoded, anc, needle) in [
        (vec![0x1b; 3], anc(2, 4, 1, 8), "end before element 12"),
        (vec![0xff; 4], anc(2, 4, 1, 6), "past the value table"),
        (vec![0x1b; 4], anc(0, 4, 1, 8), "width 0"),
        (vec![0x1b; 4], anc(2, 4, 2, 8), "DCM version 2"),
    ] {
        let e = crate::compile(&build(encoded, anc), &crate::CompileOptions::default()).map(|_| ()).unwrap_err().to_string();
        assert!(e.contains(needle) && e.contains("TFLM_DECODE") && e.contains("op 0"), "{needle}: {e}");
    }
}

/// TFLite Micro's compression library leaves the filter's per-channel quantization on the
/// encoded bytes (shape `[n]`, which it does not fit); TFLite Micro never reads it, and the
/// reader drops it on TFLM_DECODE's uint8 inputs instead of refusing the file.
#[test]
fn encoded_bytes_may_carry_the_filters_quantization() {
    use crate::ir::{DType, FullyConnectedOptions, OpKind, Quantization};
    use crate::tflite::builder::{ModelBuilder, OpSpecCode, TensorSpec};
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I8, &[1, 8], Some((0.05, 0)));
    let q = Quantization { scale: vec![0.01, 0.02, 0.03], zero_point: vec![0; 3], axis: Some(1) };
    let e = b.constant("w/encoded", DType::U8, &[4], vec![0x1b, 0x1b, 0x1b, 0], Some(q.clone()));
    let mut anc = vec![0u8, 1, 0, 0, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    anc.extend([5, 0xfb, 7, 0xf9, 9, 0xf7]);
    let a = b.constant("w/ancillary", DType::U8, &[anc.len()], anc, None);
    let wq = Quantization { axis: Some(0), ..q };
    let w = b.tensor(TensorSpec { name: "w".into(), dtype: DType::I8, shape: vec![3, 8], shape_signature: None, quant: Some(wq), data: None, variable: false });
    b.op_spec(OpSpecCode::Custom("TFLM_DECODE".into()), &[Some(e), Some(a)], &[w]);
    let y = b.activation("y", DType::I8, &[1, 3], Some((0.1, 0)));
    b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(x), Some(w), None], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    let bytes = b.finish();
    let model = crate::passes::read_model(&bytes).unwrap();
    assert!(model.main().tensor(crate::ir::TensorId::new(1)).quant.is_none());
    crate::compile(&bytes, &crate::CompileOptions::default()).unwrap();
}
