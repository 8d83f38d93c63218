//! Bit-exactness of the conv / depthwise / fully-connected / pooling kernels *and* of the
//! `prepare` functions that fill their parameters, against TFLite Micro.
//!
//! `data/tflm_golden/*.txt` are single-operator test vectors taken from the TFLite Micro
//! golden data of `../shared` (reference kernels; see `../shared/README.md`): every
//! operator of the single-op models `../shared/ops/models/op_*` that this suite covers
//! (weights included; `_run1` files are the second golden run), plus AVERAGE_POOL_2D of
//! real int8 models with their recorded intermediate activations. They are committed, so
//! this test needs neither `../shared` nor any tool.
//!
//! These are the last vectors in this file format: the runtime's committed vectors are
//! Rust literals in `tflm_vectors.rs` (the weight-free operators recorded here moved
//! there); these follow when the conv / depthwise / FC / pool kernel API rework lands.
//!
//! Format, one item per line, space separated:
//! `op <BUILTIN>`, `model <name>`, `index <op index>`, `iopt <name> <int>` (builtin
//! options as in the schema: padding 0 = SAME / 1 = VALID, act = fused activation code,
//! beta_bits = f32 bits of the softmax beta), and per tensor (`in0`, `in1`, `in2`, `out`)
//! `t <role> <dtype> shape <d,..> scales <f32 bits,..> zps <z,..> qdim <k> data <v,..>`
//! or `t <role> none` for an absent optional input.
//!
//! The test starts from what the compiler reads from a `.tflite` (float scales, zero
//! points, options, shapes), derives every kernel parameter through
//! `tflc_runtime::prepare`, runs the kernel and requires identical bytes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tflc_runtime::kernels::{average_pool_2d, conv_2d, depthwise_conv_2d, fully_connected, max_pool_2d};
use tflc_runtime::kernels::numerics::{Clamp, QuantS8};
use tflc_runtime::kernels::window::{ConvGeometry, PoolGeometry};
use tflc_runtime::prepare::*;

#[derive(Default, Debug)]
struct Tensor {
    dtype: String,
    shape: Vec<usize>,
    scales: Vec<f32>,
    zero_points: Vec<i32>,
    data: Vec<i64>,
    absent: bool,
}

#[derive(Default, Debug)]
struct Vector {
    op: String,
    options: HashMap<String, i64>,
    tensors: HashMap<String, Tensor>,
}

fn list(s: &str) -> Vec<&str> {
    if s == "-" || s.is_empty() {
        Vec::new()
    } else {
        s.split(',').collect()
    }
}

fn parse(path: &Path) -> Vector {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut v = Vector::default();
    for line in text.lines() {
        let w: Vec<&str> = line.split(' ').collect();
        match w[0] {
            "op" => v.op = w[1].to_string(),
            "iopt" => {
                v.options.insert(w[1].to_string(), w[2].parse().unwrap());
            }
            "t" => {
                let mut t = Tensor::default();
                if w[2] == "none" {
                    t.absent = true;
                } else {
                    assert_eq!((w[3], w[5], w[7], w[9], w[11]), ("shape", "scales", "zps", "qdim", "data"), "{}", path.display());
                    t.dtype = w[2].to_string();
                    t.shape = list(w[4]).iter().map(|x| x.parse().unwrap()).collect();
                    t.scales = list(w[6]).iter().map(|x| f32::from_bits(x.parse().unwrap())).collect();
                    t.zero_points = list(w[8]).iter().map(|x| x.parse().unwrap()).collect();
                    t.data = list(w[12]).iter().map(|x| x.parse().unwrap()).collect();
                }
                v.tensors.insert(w[1].to_string(), t);
            }
            _ => {}
        }
    }
    v
}

fn i8s(t: &Tensor) -> Vec<i8> {
    t.data.iter().map(|&x| i8::try_from(x).unwrap()).collect()
}

fn bias(v: &Vector) -> Option<Vec<i32>> {
    v.tensors.get("in2").filter(|b| !b.absent).map(|b| {
        assert_eq!(b.dtype, "int32");
        b.data.iter().map(|&x| i32::try_from(x).unwrap()).collect()
    })
}

fn activation(code: i64) -> FusedActivation {
    match code {
        0 => FusedActivation::None,
        1 => FusedActivation::Relu,
        2 => FusedActivation::ReluN1To1,
        3 => FusedActivation::Relu6,
        _ => panic!("unexpected fused activation {code}"),
    }
}

fn padding(code: i64) -> Padding {
    match code {
        0 => Padding::Same,
        1 => Padding::Valid,
        _ => panic!("unexpected padding {code}"),
    }
}

fn shape4(s: &[usize]) -> [usize; 4] {
    let mut r = [1; 4];
    r[4 - s.len()..].copy_from_slice(s);
    r
}

/// Runs the vector's kernel, returning its output.
fn run(v: &Vector) -> Vec<i8> {
    let input = &v.tensors["in0"];
    let out = &v.tensors["out"];
    assert_eq!((input.dtype.as_str(), out.dtype.as_str()), ("int8", "int8"));
    let x = i8s(input);
    let mut y = vec![0i8; out.data.len()];
    let opt = |k: &str| v.options[k];
    let optu = |k: &str| usize::try_from(v.options[k]).unwrap();
    let (in_scale, in_zp) = (input.scales[0], input.zero_points[0]);
    let (out_scale, out_zp) = (out.scales[0], out.zero_points[0]);
    match v.op.as_str() {
        "CONV_2D" | "DEPTHWISE_CONV_2D" => {
            let w = &v.tensors["in1"];
            let out_depth = out.shape[3];
            let (multipliers, shifts): (Vec<i32>, Vec<i32>) = (0..out_depth)
                .map(|c| {
                    let filter_scale = if w.scales.len() > 1 { w.scales[c] } else { w.scales[0] };
                    conv_channel_multiplier(in_scale, filter_scale, out_scale).unwrap()
                })
                .unzip();
            let (act_min, act_max) = activation_range_s8(activation(opt("act")), out_scale, out_zp).unwrap();
            let (stride_h, stride_w, dil_h, dil_w) = (optu("stride_h"), optu("stride_w"), optu("dil_h"), optu("dil_w"));
            let (out_h, pad_top) = compute_padding(padding(opt("padding")), input.shape[1], w.shape[1], stride_h, dil_h).unwrap();
            let (out_w, pad_left) = compute_padding(padding(opt("padding")), input.shape[2], w.shape[2], stride_w, dil_w).unwrap();
            assert_eq!([out_h, out_w], [out.shape[1], out.shape[2]]);
            if v.op == "CONV_2D" {
                let p = conv_2d::Conv2dParams::<tflc_runtime::kernels::numerics::S8> { geometry: ConvGeometry { input_shape: shape4(&input.shape), filter_shape: shape4(&w.shape), output_shape: shape4(&out.shape), stride_height: stride_h, stride_width: stride_w, dilation_height: dil_h, dilation_width: dil_w, pad_top, pad_left }, quant: QuantS8 { input_offset: -in_zp, output_offset: out_zp, output_multiplier: &multipliers, output_shift: &shifts }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
                let (wv, bv) = (i8s(w), bias(v));
                conv_2d::conv_2d_s8(&p, &x, &wv, bv.as_deref(), &mut y);
                // The variant the compiler selects, with its packed weights, must agree
                // with the reference.
                let variant = conv_2d::Conv2dVariant::select(&p.geometry);
                let mut packed = vec![0; variant.packed_len(&p.geometry)];
                variant.pack(&p, &wv, bv.as_deref(), &mut packed);
                let mut fast = vec![0; y.len()];
                match variant {
                    conv_2d::Conv2dVariant::Reference => conv_2d::conv_2d_s8(&p, &x, &wv, bv.as_deref(), &mut fast),
                    conv_2d::Conv2dVariant::Pointwise => conv_2d::conv_2d_s8_pointwise(&p, &x, &wv, &packed, &mut fast),
                    conv_2d::Conv2dVariant::Window => conv_2d::conv_2d_s8_window(&p, &x, &wv, bv.as_deref(), &packed, &mut fast),
                    conv_2d::Conv2dVariant::Im2col => conv_2d::conv_2d_s8_im2col(&p, &x, &wv, &packed, &mut fast),
                }
                assert_eq!(fast, y, "{}: the selected variant differs from the reference", v.op);
            } else {
                assert_eq!(optu("mult") * input.shape[3], out_depth);
                let p = depthwise_conv_2d::DepthwiseConv2dParams { geometry: ConvGeometry { input_shape: shape4(&input.shape), filter_shape: shape4(&w.shape), output_shape: shape4(&out.shape), stride_height: stride_h, stride_width: stride_w, dilation_height: dil_h, dilation_width: dil_w, pad_top, pad_left }, quant: QuantS8 { input_offset: -in_zp, output_offset: out_zp, output_multiplier: &multipliers, output_shift: &shifts }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
                let (wv, bv) = (i8s(w), bias(v));
                depthwise_conv_2d::depthwise_conv_2d_s8(&p, &x, &wv, bv.as_deref(), &mut y);
                let variant = depthwise_conv_2d::DepthwiseConv2dVariant::select(&p.geometry);
                let mut packed = vec![0; variant.packed_len(&p.geometry)];
                variant.pack(&p, &wv, bv.as_deref(), &mut packed);
                let mut fast = vec![0; y.len()];
                match variant {
                    depthwise_conv_2d::DepthwiseConv2dVariant::Reference => depthwise_conv_2d::depthwise_conv_2d_s8(&p, &x, &wv, bv.as_deref(), &mut fast),
                    depthwise_conv_2d::DepthwiseConv2dVariant::Window => {
                        depthwise_conv_2d::depthwise_conv_2d_s8_window(&p, &x, &wv, bv.as_deref(), &packed, &mut fast)
                    }
                    depthwise_conv_2d::DepthwiseConv2dVariant::Mult1 => {
                        depthwise_conv_2d::depthwise_conv_2d_s8_mult1(&p, &x, bv.as_deref(), &packed, &mut fast)
                    }
                }
                assert_eq!(fast, y, "{}: the selected variant differs from the reference", v.op);
            }
        }
        "FULLY_CONNECTED" => {
            let w = &v.tensors["in1"];
            let (units, depth) = (w.shape[0], w.shape[1]);
            let per_channel = w.scales.len() > 1;
            let (multipliers, shifts): (Vec<i32>, Vec<i32>) = if per_channel {
                (0..units).map(|c| conv_channel_multiplier(in_scale, w.scales[c], out_scale).unwrap()).unzip()
            } else {
                let (m, s) = fully_connected_tensor_multiplier(in_scale, w.scales[0], out_scale).unwrap();
                (vec![m], vec![s])
            };
            let (act_min, act_max) = activation_range_s8(activation(opt("act")), out_scale, out_zp).unwrap();
            let p = fully_connected::FullyConnectedParams { geometry: fully_connected::FullyConnectedGeometry { batches: y.len() / units, input_depth: depth, output_depth: units }, weights_offset: if per_channel { 0 } else { -w.zero_points[0] }, quant: QuantS8 { input_offset: -in_zp, output_offset: out_zp, output_multiplier: &multipliers, output_shift: &shifts }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
            let (wv, bv) = (i8s(w), bias(v));
            fully_connected::fully_connected_s8(&p, &x, &wv, bv.as_deref(), &mut y);
            if fully_connected::FullyConnectedVariant::select(&p) == fully_connected::FullyConnectedVariant::Dot4 {
                let variant = fully_connected::FullyConnectedVariant::Dot4;
                let mut packed = vec![0; variant.packed_len(&p.geometry)];
                variant.pack(&p, &wv, bv.as_deref(), &mut packed);
                let mut fast = vec![0; y.len()];
                fully_connected::fully_connected_s8_dot4(&p, &x, &wv, &packed, &mut fast);
                assert_eq!(fast, y, "{}: the selected variant differs from the reference", v.op);
            }
        }
        "AVERAGE_POOL_2D" | "MAX_POOL_2D" => {
            assert_eq!((in_scale, in_zp), (out_scale, out_zp));
            let (filter_h, filter_w, stride_h, stride_w) = (optu("filter_h"), optu("filter_w"), optu("stride_h"), optu("stride_w"));
            let (out_h, pad_top) = compute_padding(padding(opt("padding")), input.shape[1], filter_h, stride_h, 1).unwrap();
            let (out_w, pad_left) = compute_padding(padding(opt("padding")), input.shape[2], filter_w, stride_w, 1).unwrap();
            let (act_min, act_max) = activation_range_s8(activation(opt("act")), out_scale, out_zp).unwrap();
            if v.op == "MAX_POOL_2D" {
                let p = max_pool_2d::MaxPool2dParams { geometry: PoolGeometry { input_shape: shape4(&input.shape), output_height: out_h, output_width: out_w, filter_height: filter_h, filter_width: filter_w, stride_height: stride_h, stride_width: stride_w, pad_top, pad_left }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
                max_pool_2d::max_pool_2d_s8(&p, &x, &mut y);
            } else {
                let p = average_pool_2d::AveragePool2dParams { geometry: PoolGeometry { input_shape: shape4(&input.shape), output_height: out_h, output_width: out_w, filter_height: filter_h, filter_width: filter_w, stride_height: stride_h, stride_width: stride_w, pad_top, pad_left }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
                average_pool_2d::average_pool_2d_s8(&p, &x, &mut y);
            }
        }
        other => panic!("no kernel for {other}"),
    }
    y
}

#[test]
fn tflm_golden_vectors() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tflm_golden");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.sort();
    let mut per_op: HashMap<String, usize> = HashMap::new();
    let mut failures = Vec::new();
    for path in &paths {
        let v = parse(path);
        let want = i8s(&v.tensors["out"]);
        let got = run(&v);
        let differ = got.iter().zip(&want).filter(|(g, w)| g != w).count();
        if differ == 0 && got.len() == want.len() {
            *per_op.entry(v.op.clone()).or_default() += 1;
        } else {
            let max = got.iter().zip(&want).map(|(g, w)| (*g as i32 - *w as i32).abs()).max().unwrap_or(0);
            failures.push(format!("{}: {differ}/{} bytes differ (max |diff| {max})", path.display(), want.len()));
        }
    }
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
    // Every covered kernel has vectors (guards against a silently emptied data directory).
    for op in ["CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "AVERAGE_POOL_2D", "MAX_POOL_2D"] {
        assert!(per_op.get(op).copied().unwrap_or(0) > 0, "no passing vector for {op}");
    }
    eprintln!("{} vectors bit-exact: {per_op:?}", paths.len());
}
