//! Small models built with the model builder, shared by tests, snapshots, examples and the
//! default model (`examples/models/tiny_cnn_int8.tflite`).

use crate::ir::*;
use crate::tflite::builder::ModelBuilder;

/// xorshift64*: a fixed sequence so the model never changes.
pub(crate) struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn i8s(&mut self, n: usize) -> Vec<i8> {
        (0..n).map(|_| (self.next() >> 56) as u8 as i8).map(|v| v.max(-127)).collect()
    }
    fn i32s(&mut self, n: usize, range: i32) -> Vec<i32> {
        (0..n).map(|_| (self.next() % (2 * range as u64 + 1)) as i32 - range).collect()
    }
    fn scales(&mut self, n: usize, base: f32) -> Vec<f32> {
        (0..n).map(|_| base * (0.5 + (self.next() % 1000) as f32 / 1000.0)).collect()
    }
}

/// Builds the model's bytes.
pub fn tiny_cnn() -> Vec<u8> {
    let mut r = Rng(0x7f1c_2026);
    let mut b = ModelBuilder::new();
    b.description("tflc default model: tiny int8 CNN (12x12x1 -> 4 classes)");
    let in_scale = 1.0 / 128.0;
    let x = b.activation("input", DType::I8, &[1, 12, 12, 1], Some((in_scale, 0)));

    // conv1: 3x3, 8 filters, SAME, RELU6.
    let w1s = r.scales(8, 0.01);
    let w1 = b.constant_i8_per_axis("conv1/weights", &[8, 3, 3, 1], &r.i8s(8 * 9), &w1s, 0);
    let b1s: Vec<f32> = w1s.iter().map(|s| s * in_scale).collect();
    let b1 = b.constant_i32_per_axis("conv1/bias", &[8], &r.i32s(8, 2000), &b1s);
    let a1_scale = 6.0 / 255.0;
    let a1 = b.activation("conv1/Relu6", DType::I8, &[1, 12, 12, 8], Some((a1_scale, -128)));
    b.op(
        OpKind::Conv2d(Conv2dOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, dilation_w: 1, dilation_h: 1, activation: Activation::Relu6 }),
        &[Some(x), Some(w1), Some(b1)],
        &[a1],
    );

    // dw2: 3x3 depthwise, stride 2, SAME, RELU.
    let w2s = r.scales(8, 0.02);
    let w2 = b.constant_i8_per_axis("dw2/weights", &[1, 3, 3, 8], &r.i8s(9 * 8), &w2s, 3);
    let b2s: Vec<f32> = w2s.iter().map(|s| s * a1_scale).collect();
    let b2 = b.constant_i32_per_axis("dw2/bias", &[8], &r.i32s(8, 500), &b2s);
    let a2_scale = 0.05;
    let a2 = b.activation("dw2/Relu", DType::I8, &[1, 6, 6, 8], Some((a2_scale, -128)));
    b.op(
        OpKind::DepthwiseConv2d(DepthwiseConv2dOptions {
            padding: Padding::Same,
            stride_w: 2,
            stride_h: 2,
            depth_multiplier: 1,
            dilation_w: 1,
            dilation_h: 1,
            activation: Activation::Relu,
        }),
        &[Some(a1), Some(w2), Some(b2)],
        &[a2],
    );

    // conv3: 1x1, 16 filters, RELU.
    let w3s = r.scales(16, 0.01);
    let w3 = b.constant_i8_per_axis("conv3/weights", &[16, 1, 1, 8], &r.i8s(16 * 8), &w3s, 0);
    let b3s: Vec<f32> = w3s.iter().map(|s| s * a2_scale).collect();
    let b3 = b.constant_i32_per_axis("conv3/bias", &[16], &r.i32s(16, 300), &b3s);
    let a3_scale = 0.04;
    let a3 = b.activation("conv3/Relu", DType::I8, &[1, 6, 6, 16], Some((a3_scale, -128)));
    b.op(
        OpKind::Conv2d(Conv2dOptions { padding: Padding::Valid, stride_w: 1, stride_h: 1, dilation_w: 1, dilation_h: 1, activation: Activation::Relu }),
        &[Some(a2), Some(w3), Some(b3)],
        &[a3],
    );

    // Global average pool, flatten.
    let a4 = b.activation("pool", DType::I8, &[1, 1, 1, 16], Some((a3_scale, -128)));
    b.op(
        OpKind::AveragePool2d(Pool2dOptions { padding: Padding::Valid, stride_w: 1, stride_h: 1, filter_w: 6, filter_h: 6, activation: Activation::None }),
        &[Some(a3)],
        &[a4],
    );
    let shape = b.constant_i32("flatten/shape", &[2], &[1, 16], None);
    let a5 = b.activation("flatten", DType::I8, &[1, 16], Some((a3_scale, -128)));
    b.op(OpKind::Reshape { new_shape: Some(vec![1, 16]) }, &[Some(a4), Some(shape)], &[a5]);

    // Classifier: FC 16 -> 4, softmax.
    let w6s = 0.02;
    let w6 = b.constant_i8("fc/weights", &[4, 16], &r.i8s(4 * 16), Some((w6s, 0)));
    let b6 = b.constant_i32("fc/bias", &[4], &r.i32s(4, 1000), Some((w6s * a3_scale, 0)));
    let a6 = b.activation("fc/logits", DType::I8, &[1, 4], Some((0.1, 10)));
    b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(a5), Some(w6), Some(b6)], &[a6]);
    let y = b.activation("probabilities", DType::I8, &[1, 4], Some((1.0 / 256.0, -128)));
    b.op(OpKind::Softmax { beta: 1.0 }, &[Some(a6)], &[y]);

    b.inputs(&[x]).outputs(&[y]);
    b.finish()
}


/// One CONV_2D (3x3, SAME, RELU) over an odd-sized input with per-channel weights.
pub fn conv_same_relu() -> Vec<u8> {
    let mut r = Rng(0x5eed_c0de);
    let mut b = ModelBuilder::new();
    b.description("tflc test model: one CONV_2D");
    let x = b.activation("input", DType::I8, &[1, 7, 5, 3], Some((0.05, -7)));
    let ws = r.scales(4, 0.01);
    let w = b.constant_i8_per_axis("weights", &[4, 3, 3, 3], &r.i8s(4 * 27), &ws, 0);
    let bs: Vec<f32> = ws.iter().map(|s| s * 0.05).collect();
    let bias = b.constant_i32_per_axis("bias", &[4], &r.i32s(4, 3000), &bs);
    let y = b.activation("conv/Relu", DType::I8, &[1, 7, 5, 4], Some((0.03, -128)));
    b.op(
        OpKind::Conv2d(Conv2dOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, dilation_w: 1, dilation_h: 1, activation: Activation::Relu }),
        &[Some(x), Some(w), Some(bias)],
        &[y],
    );
    b.inputs(&[x]).outputs(&[y]);
    b.finish()
}

/// Every data-movement op in one int8 graph (PAD, STRIDED_SLICE with masks and a negative
/// step, TRANSPOSE, SPLIT, CONCATENATION on a negative axis with a constant, the views RESHAPE / SQUEEZE /
/// EXPAND_DIMS, UNPACK, PACK, SPLIT_V with a -1 size, SLICE, PADV2, both RESIZE ops), with
/// several graph outputs, so that the generated calls, multi-output params and views are
/// compiled and run. (Its outputs on the generated-compile input pattern were checked once
/// against the pip `tflite-micro` interpreter: identical.)
pub fn data_movement() -> Vec<u8> {
    let q = Some((0.05, -3));
    let mut b = ModelBuilder::new();
    b.description("tflc test model: data movement");
    let x = b.activation("input", DType::I8, &[1, 4, 6, 3], q);
    let pads = b.constant_i32("pad/paddings", &[4, 2], &[0, 0, 1, 0, 0, 2, 0, 0], None);
    let padded = b.activation("pad", DType::I8, &[1, 5, 8, 3], q);
    b.op(OpKind::Pad, &[Some(x), Some(pads)], &[padded]);

    let begin = b.constant_i32("ss/begin", &[4], &[0, 0, 0, 0], None);
    let end = b.constant_i32("ss/end", &[4], &[1, 5, 8, 3], None);
    let strides = b.constant_i32("ss/strides", &[4], &[1, 2, -1, 1], None);
    let sliced = b.activation("strided_slice", DType::I8, &[1, 3, 8, 3], q);
    let ss = StridedSliceOptions { begin_mask: 4, end_mask: 4, ..Default::default() };
    b.op(OpKind::StridedSlice(ss), &[Some(padded), Some(begin), Some(end), Some(strides)], &[sliced]);

    let perm = b.constant_i32("transpose/perm", &[4], &[0, 3, 1, 2], None);
    let tr = b.activation("transpose", DType::I8, &[1, 3, 3, 8], q);
    b.op(OpKind::Transpose, &[Some(sliced), Some(perm)], &[tr]);

    let axis1 = b.constant_i32("split/axis", &[], &[1], None);
    let parts: Vec<TensorId> = (0..3).map(|k| b.activation(&format!("split:{k}"), DType::I8, &[1, 1, 3, 8], q)).collect();
    b.op(OpKind::Split { num_splits: 3 }, &[Some(axis1), Some(tr)], &parts);

    let c = b.constant_i8("concat/const", &[1, 1, 3, 2], &[-128, 127, 0, 1, -1, 64], q);
    let cat = b.activation("concat", DType::I8, &[1, 1, 3, 18], q);
    b.op(OpKind::Concatenation { axis: -1, activation: Activation::None }, &[Some(parts[0]), Some(c), Some(parts[2])], &[cat]);

    let shape = b.constant_i32("reshape/shape", &[2], &[-1, 18], None);
    let flat = b.activation("reshape", DType::I8, &[3, 18], q);
    b.op(OpKind::Reshape { new_shape: None }, &[Some(cat), Some(shape)], &[flat]);

    let rows: Vec<TensorId> = (0..3).map(|k| b.activation(&format!("unpack:{k}"), DType::I8, &[18], q)).collect();
    b.op(OpKind::Unpack { num: 3, axis: 0 }, &[Some(flat)], &rows);
    let packed = b.activation("pack", DType::I8, &[18, 2], q);
    b.op(OpKind::Pack { values_count: 2, axis: 1 }, &[Some(rows[0]), Some(rows[2])], &[packed]);

    let squeezed = b.activation("squeeze", DType::I8, &[3, 8], q);
    b.op(OpKind::Squeeze { squeeze_dims: vec![] }, &[Some(parts[1])], &[squeezed]);
    let axis0 = b.constant_i32("expand_dims/axis", &[], &[0], None);
    let expanded = b.activation("expand_dims", DType::I8, &[1, 3, 8], q);
    b.op(OpKind::ExpandDims, &[Some(squeezed), Some(axis0)], &[expanded]);

    let sizes = b.constant_i32("split_v/sizes", &[2], &[5, -1], None);
    let axis2 = b.constant_i32("split_v/axis", &[], &[-1], None);
    let sv = [b.activation("split_v:0", DType::I8, &[1, 3, 5], q), b.activation("split_v:1", DType::I8, &[1, 3, 3], q)];
    b.op(OpKind::SplitV { num_splits: 2 }, &[Some(expanded), Some(sizes), Some(axis2)], &sv);

    let sb = b.constant_i32("slice/begin", &[3], &[0, 1, 1], None);
    let sz = b.constant_i32("slice/size", &[3], &[1, 2, -1], None);
    let sl = b.activation("slice", DType::I8, &[1, 2, 4], q);
    b.op(OpKind::Slice, &[Some(sv[0]), Some(sb), Some(sz)], &[sl]);

    let pads2 = b.constant_i32("padv2/paddings", &[3, 2], &[0, 0, 1, 1, 0, 1], None);
    let value = b.constant_i8("padv2/value", &[], &[100], q);
    let padded2 = b.activation("padv2", DType::I8, &[1, 4, 5], q);
    b.op(OpKind::PadV2, &[Some(sl), Some(pads2), Some(value)], &[padded2]);

    let nn_size = b.constant_i32("resize_nn/size", &[2], &[2, 5], None);
    let nn = b.activation("resize_nn", DType::I8, &[1, 2, 5, 18], q);
    b.op(OpKind::ResizeNearestNeighbor(ResizeOptions { align_corners: false, half_pixel_centers: true }), &[Some(cat), Some(nn_size)], &[nn]);

    let bl_size = b.constant_i32("resize_bilinear/size", &[2], &[7, 4], None);
    let bl = b.activation("resize_bilinear", DType::I8, &[1, 7, 4, 3], q);
    b.op(OpKind::ResizeBilinear(ResizeOptions { align_corners: true, half_pixel_centers: false }), &[Some(padded), Some(bl_size)], &[bl]);

    b.inputs(&[x]).outputs(&[packed, padded2, sv[1], nn, bl, rows[1]]);
    b.finish()
}

/// The data-movement ops on float32 and int16 tensors (the generic, non-`_s8` kernels):
/// PAD with a negative float value, CONCATENATION with a constant, TRANSPOSE, RESHAPE,
/// SPLIT; and int16 PAD, SLICE, UNPACK. (Checked once against `tflite-micro`, as above.)
pub fn data_movement_f32_i16() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    b.description("tflc test model: data movement on float32 and int16");
    let x = b.activation("input_f32", DType::F32, &[2, 3], None);
    let pads = b.constant_i32("padv2/paddings", &[2, 2], &[0, 1, 1, 0], None);
    let value = b.constant_f32("padv2/value", &[], &[-1.5]);
    let padded = b.activation("padv2", DType::F32, &[3, 4], None);
    b.op(OpKind::PadV2, &[Some(x), Some(pads), Some(value)], &[padded]);
    let c = b.constant_f32("concat/const", &[3, 1], &[0.25, -0.0, 8.0]);
    let cat = b.activation("concat", DType::F32, &[3, 5], None);
    b.op(OpKind::Concatenation { axis: 1, activation: Activation::None }, &[Some(padded), Some(c)], &[cat]);
    let perm = b.constant_i32("transpose/perm", &[2], &[1, 0], None);
    let tr = b.activation("transpose", DType::F32, &[5, 3], None);
    b.op(OpKind::Transpose, &[Some(cat), Some(perm)], &[tr]);
    let flat = b.activation("reshape", DType::F32, &[15], None);
    b.op(OpKind::Reshape { new_shape: Some(vec![15]) }, &[Some(tr)], &[flat]);
    let axis = b.constant_i32("split/axis", &[], &[0], None);
    let parts = [b.activation("split:0", DType::F32, &[5], None), b.activation("split:1", DType::F32, &[5], None), b.activation("split:2", DType::F32, &[5], None)];
    b.op(OpKind::Split { num_splits: 3 }, &[Some(axis), Some(flat)], &parts);

    let q16 = Some((0.001, 0));
    let h = b.activation("input_i16", DType::I16, &[2, 2], q16);
    let pads16 = b.constant_i32("pad16/paddings", &[2, 2], &[1, 0, 0, 1], None);
    let padded16 = b.activation("pad16", DType::I16, &[3, 3], q16);
    b.op(OpKind::Pad, &[Some(h), Some(pads16)], &[padded16]);
    let sb = b.constant_i32("slice16/begin", &[2], &[1, 0], None);
    let sz = b.constant_i32("slice16/size", &[2], &[2, -1], None);
    let sl = b.activation("slice16", DType::I16, &[2, 3], q16);
    b.op(OpKind::Slice, &[Some(padded16), Some(sb), Some(sz)], &[sl]);
    let rows = [b.activation("unpack16:0", DType::I16, &[2], q16), b.activation("unpack16:1", DType::I16, &[2], q16), b.activation("unpack16:2", DType::I16, &[2], q16)];
    b.op(OpKind::Unpack { num: 3, axis: 1 }, &[Some(sl)], &rows);

    b.inputs(&[x, h]).outputs(&[parts[0], parts[2], rows[0], rows[2]]);
    b.finish()
}

/// The elementwise ops on every element type they lower for: int8 ADD/SUB/MUL with
/// broadcasting and fused activations, MAXIMUM/MINIMUM, RELU/RELU6/RELU_N1_TO_1,
/// LEAKY_RELU, PRELU, QUANTIZE (int8 -> int8, float32 -> int8), DEQUANTIZE; float32
/// MUL/SUB/ADD/RELU/RELU6/LEAKY_RELU/PRELU; int32 ADD/MUL/SUB/MINIMUM. (Its outputs on the
/// generated-compile input pattern were checked once against TFLite's reference kernels,
/// pip `ai-edge-litert` with `BUILTIN_REF`: identical.)
pub fn elementwise() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    b.description("tflc test model: elementwise ops");
    let qa = Some((0.05, -3));
    let a = b.activation("a", DType::I8, &[1, 4, 6, 3], qa);
    let bb = b.activation("b", DType::I8, &[1, 1, 6, 1], Some((0.02, 5)));
    let act = |b: &mut ModelBuilder, name: &str, shape: &[usize], q: (f32, i64)| b.activation(name, DType::I8, shape, Some(q));
    let s4 = [1, 4, 6, 3];

    let add = act(&mut b, "add", &s4, (0.06, -128));
    b.op(OpKind::Add { activation: Activation::Relu6 }, &[Some(a), Some(bb)], &[add]);
    let c = b.constant_i8("sub/const", &[3], &[-100, 0, 77], Some((0.03, 2)));
    let sub = act(&mut b, "sub", &s4, (0.01, 0));
    b.op(OpKind::Sub { activation: Activation::ReluN1To1 }, &[Some(add), Some(c)], &[sub]);
    let mul = act(&mut b, "mul", &s4, (0.004, 1));
    b.op(OpKind::Mul { activation: Activation::None }, &[Some(sub), Some(a)], &[mul]);
    let mc = b.constant_i8("maximum/const", &[1, 1, 1, 3], &[-5, 0, 9], Some((0.004, 1)));
    let max = act(&mut b, "maximum", &s4, (0.004, 1));
    b.op(OpKind::Maximum, &[Some(mul), Some(mc)], &[max]);
    let nc = b.constant_i8("minimum/const", &[6, 1], &[20, -20, 3, 127, -128, 0], Some((0.004, 1)));
    let min = act(&mut b, "minimum", &s4, (0.004, 1));
    b.op(OpKind::Minimum, &[Some(max), Some(nc)], &[min]);
    let relu = act(&mut b, "relu", &s4, (0.002, -128));
    b.op(OpKind::Relu, &[Some(min)], &[relu]);
    let relu6 = act(&mut b, "relu6", &s4, (0.05, -3));
    b.op(OpKind::Relu6, &[Some(a)], &[relu6]);
    let n1 = act(&mut b, "relu_n1_to_1", &s4, (0.008, 0));
    b.op(OpKind::ReluN1To1, &[Some(a)], &[n1]);
    let leaky = act(&mut b, "leaky_relu", &s4, (0.04, 10));
    b.op(OpKind::LeakyRelu { alpha: 0.3 }, &[Some(a)], &[leaky]);
    let alpha = b.constant_i8("prelu/alpha", &[3], &[12, -40, 127], Some((0.01, 0)));
    let prelu = act(&mut b, "prelu", &s4, (0.05, 0));
    b.op(OpKind::Prelu, &[Some(a), Some(alpha)], &[prelu]);
    let requant = act(&mut b, "quantize", &s4, (0.1, 7));
    b.op(OpKind::Quantize, &[Some(relu6)], &[requant]);

    // float32, from DEQUANTIZE.
    let f = b.activation("dequantize", DType::F32, &s4, None);
    b.op(OpKind::Dequantize, &[Some(requant)], &[f]);
    let fc = b.constant_f32("mul_f32/const", &[3], &[0.5, -2.0, 3.25]);
    let fmul = b.activation("mul_f32", DType::F32, &s4, None);
    b.op(OpKind::Mul { activation: Activation::Relu }, &[Some(f), Some(fc)], &[fmul]);
    let fsub = b.activation("sub_f32", DType::F32, &s4, None);
    b.op(OpKind::Sub { activation: Activation::None }, &[Some(fmul), Some(f)], &[fsub]);
    let fadd = b.activation("add_f32", DType::F32, &s4, None);
    b.op(OpKind::Add { activation: Activation::ReluN1To1 }, &[Some(fsub), Some(fmul)], &[fadd]);
    let frelu6 = b.activation("relu6_f32", DType::F32, &s4, None);
    b.op(OpKind::Relu6, &[Some(fsub)], &[frelu6]);
    let frelu = b.activation("relu_f32", DType::F32, &s4, None);
    b.op(OpKind::Relu, &[Some(fsub)], &[frelu]);
    let fleaky = b.activation("leaky_relu_f32", DType::F32, &s4, None);
    b.op(OpKind::LeakyRelu { alpha: -0.5 }, &[Some(fsub)], &[fleaky]);
    let fa = b.constant_f32("prelu_f32/alpha", &[1, 6, 1], &[0.1, -0.2, 0.3, -0.4, 0.5, 2.0]);
    let fprelu = b.activation("prelu_f32", DType::F32, &s4, None);
    b.op(OpKind::Prelu, &[Some(fsub), Some(fa)], &[fprelu]);
    let q2 = act(&mut b, "quantize_f32", &s4, (0.07, -1));
    b.op(OpKind::Quantize, &[Some(fleaky)], &[q2]);

    // int32.
    let i = b.activation("i", DType::I32, &[2, 3], None);
    let ic = b.constant_i32("add_i32/const", &[3], &[1, -7, 1 << 20], None);
    let iadd = b.activation("add_i32", DType::I32, &[2, 3], None);
    b.op(OpKind::Add { activation: Activation::Relu }, &[Some(i), Some(ic)], &[iadd]);
    let imul = b.activation("mul_i32", DType::I32, &[2, 3], None);
    b.op(OpKind::Mul { activation: Activation::None }, &[Some(iadd), Some(i)], &[imul]);
    let isub = b.activation("sub_i32", DType::I32, &[2, 3], None);
    b.op(OpKind::Sub { activation: Activation::None }, &[Some(imul), Some(ic)], &[isub]);
    let imin = b.activation("minimum_i32", DType::I32, &[2, 3], None);
    b.op(OpKind::Minimum, &[Some(isub), Some(i)], &[imin]);

    b.inputs(&[a, bb, i]).outputs(&[relu, n1, leaky, prelu, q2, fadd, frelu6, frelu, fprelu, imin]);
    b.finish()
}

/// A chain of elementwise int8 ops whose outputs the plan puts over their inputs: every
/// `_in_place` kernel variant, ADD / MUL / MINIMUM over their operand 2 (swapped operands),
/// MAXIMUM / SUB / PRELU over operand 1; LEAKY_RELU reads the model input, which stays.
pub fn in_place() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    b.description("tflc test model: elementwise ops in place");
    let s4 = [1, 4, 6, 3];
    let act = |b: &mut ModelBuilder, name: &str, q: (f32, i64)| b.activation(name, DType::I8, &s4, Some(q));
    let x = act(&mut b, "x", (0.05, -3));
    let leaky = act(&mut b, "leaky_relu", (0.04, 10));
    b.op(OpKind::LeakyRelu { alpha: 0.3 }, &[Some(x)], &[leaky]);
    let requant = act(&mut b, "quantize", (0.03, 2));
    b.op(OpKind::Quantize, &[Some(leaky)], &[requant]);
    let add = act(&mut b, "add", (0.06, -10));
    b.op(OpKind::Add { activation: Activation::Relu6 }, &[Some(x), Some(requant)], &[add]);
    let mul = act(&mut b, "mul", (0.01, 1));
    b.op(OpKind::Mul { activation: Activation::None }, &[Some(x), Some(add)], &[mul]);
    let hs = act(&mut b, "hard_swish", (0.02, -5));
    b.op(OpKind::HardSwish, &[Some(mul)], &[hs]);
    let mc = b.constant_i8("maximum/const", &[3], &[-5, 0, 9], Some((0.02, -5)));
    let max = act(&mut b, "maximum", (0.02, -5));
    b.op(OpKind::Maximum, &[Some(hs), Some(mc)], &[max]);
    let nc = b.constant_i8("minimum/const", &[6, 1], &[20, -20, 3, 127, -128, 0], Some((0.02, -5)));
    let min = act(&mut b, "minimum", (0.02, -5));
    b.op(OpKind::Minimum, &[Some(nc), Some(max)], &[min]);
    let alpha = b.constant_i8("prelu/alpha", &[3], &[12, -40, 127], Some((0.01, 0)));
    let prelu = act(&mut b, "prelu", (0.03, 0));
    b.op(OpKind::Prelu, &[Some(min), Some(alpha)], &[prelu]);
    let sc = b.constant_i8("sub/const", &[3], &[-100, 0, 77], Some((0.03, 2)));
    let sub = act(&mut b, "sub", (0.05, 3));
    b.op(OpKind::Sub { activation: Activation::None }, &[Some(prelu), Some(sc)], &[sub]);
    let relu = act(&mut b, "relu", (0.04, -128));
    b.op(OpKind::Relu, &[Some(sub)], &[relu]);
    let tanh = act(&mut b, "tanh", (1.0 / 128.0, 0));
    b.op(OpKind::Tanh, &[Some(relu)], &[tanh]);
    let logistic = act(&mut b, "logistic", (1.0 / 256.0, -128));
    b.op(OpKind::Logistic, &[Some(tanh)], &[logistic]);
    let dc = b.constant_i8("squared_difference/const", &[3], &[-128, 0, 90], Some((1.0 / 256.0, -128)));
    let sqd = act(&mut b, "squared_difference", (1.0 / 1024.0, -100));
    b.op(OpKind::SquaredDifference, &[Some(logistic), Some(dc)], &[sqd]);
    b.inputs(&[x]).outputs(&[sqd]);
    b.finish()
}

/// The float32 and int32 forms of the elementwise ops written over their inputs: a float32
/// chain (LEAKY_RELU reads the model input, which stays; ADD writes over its operand 2, the
/// chain, and the rest over operand 1: RELU, RELU6, RELU_N1_TO_1, MUL, SUB, DIV, PRELU,
/// HARD_SWISH, TANH, LOGISTIC, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE, FLOOR_DIV, FLOOR_MOD,
/// NEG) and an int32 one (ADD of the input and a constant, then MUL, SUB, DIV,
/// SQUARED_DIFFERENCE over operand 1, and MUL over operand 2 with the input as operand 1).
pub fn in_place_f32() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    b.description("tflc test model: float32 and int32 elementwise ops in place");
    let s4 = [1, 4, 6, 3];
    let x = b.activation("x", DType::F32, &s4, None);
    let chain = |b: &mut ModelBuilder, kind: OpKind, name: &str, inputs: &[Option<TensorId>]| {
        let y = b.activation(name, DType::F32, &s4, None);
        b.op(kind, inputs, &[y]);
        y
    };
    let leaky = chain(&mut b, OpKind::LeakyRelu { alpha: 0.2 }, "leaky_relu", &[Some(x)]);
    let relu = chain(&mut b, OpKind::Relu, "relu", &[Some(leaky)]);
    let add = chain(&mut b, OpKind::Add { activation: Activation::None }, "add", &[Some(x), Some(relu)]);
    let relu6 = chain(&mut b, OpKind::Relu6, "relu6", &[Some(add)]);
    let mc = b.constant_f32("mul/const", &[3], &[0.5, -1.25, 3.0]);
    let mul = chain(&mut b, OpKind::Mul { activation: Activation::Relu6 }, "mul", &[Some(relu6), Some(mc)]);
    let sc = b.constant_f32("sub/const", &[6, 1], &[0.25, -2.0, 1.5, 0.0, -0.75, 4.0]);
    let sub = chain(&mut b, OpKind::Sub { activation: Activation::None }, "sub", &[Some(mul), Some(sc)]);
    let dc = b.constant_f32("div/const", &[3], &[2.0, -0.5, 3.0]);
    let div = chain(&mut b, OpKind::Div { activation: Activation::None }, "div", &[Some(sub), Some(dc)]);
    let n1 = chain(&mut b, OpKind::ReluN1To1, "relu_n1_to_1", &[Some(div)]);
    let alpha = b.constant_f32("prelu/alpha", &[3], &[0.1, -0.5, 2.0]);
    let prelu = chain(&mut b, OpKind::Prelu, "prelu", &[Some(n1), Some(alpha)]);
    let hs = chain(&mut b, OpKind::HardSwish, "hard_swish", &[Some(prelu)]);
    let tanh = chain(&mut b, OpKind::Tanh, "tanh", &[Some(hs)]);
    let logistic = chain(&mut b, OpKind::Logistic, "logistic", &[Some(tanh)]);
    let xc = b.constant_f32("maximum/const", &[3], &[0.55, 0.5, 0.6]);
    let max = chain(&mut b, OpKind::Maximum, "maximum", &[Some(logistic), Some(xc)]);
    let nc = b.constant_f32("minimum/const", &[1], &[0.58]);
    let min = chain(&mut b, OpKind::Minimum, "minimum", &[Some(max), Some(nc)]);
    let qc = b.constant_f32("squared_difference/const", &[3], &[0.5, 0.0, -1.0]);
    let sqd = chain(&mut b, OpKind::SquaredDifference, "squared_difference", &[Some(min), Some(qc)]);
    let fc = b.constant_f32("floor_div/const", &[3], &[0.01, -0.003, 0.25]);
    let fdiv = chain(&mut b, OpKind::FloorDiv, "floor_div", &[Some(sqd), Some(fc)]);
    let mc2 = b.constant_f32("floor_mod/const", &[3], &[7.0, -5.0, 3.0]);
    let fmod = chain(&mut b, OpKind::FloorMod, "floor_mod", &[Some(fdiv), Some(mc2)]);
    let neg = chain(&mut b, OpKind::Neg, "neg", &[Some(fmod)]);
    let si = [2, 3, 4];
    let n = b.activation("n", DType::I32, &si, None);
    let chain_i32 = |b: &mut ModelBuilder, kind: OpKind, name: &str, inputs: &[Option<TensorId>]| {
        let y = b.activation(name, DType::I32, &si, None);
        b.op(kind, inputs, &[y]);
        y
    };
    let ac = b.constant_i32("add_i32/const", &[4], &[1, -2, 300, 0], None);
    let addi = chain_i32(&mut b, OpKind::Add { activation: Activation::None }, "add_i32", &[Some(n), Some(ac)]);
    let mci = b.constant_i32("mul_i32/const", &[3, 1], &[3, -7, 1 << 20], None);
    let muli = chain_i32(&mut b, OpKind::Mul { activation: Activation::None }, "mul_i32", &[Some(addi), Some(mci)]);
    let sci = b.constant_i32("sub_i32/const", &[], &[-12345], None);
    let subi = chain_i32(&mut b, OpKind::Sub { activation: Activation::None }, "sub_i32", &[Some(muli), Some(sci)]);
    let dci = b.constant_i32("div_i32/const", &[4], &[3, -1, 0, 1000], None);
    let divi = chain_i32(&mut b, OpKind::Div { activation: Activation::None }, "div_i32", &[Some(subi), Some(dci)]);
    let qci = b.constant_i32("squared_difference_i32/const", &[4], &[5, -5, 0, 99], None);
    let sqdi = chain_i32(&mut b, OpKind::SquaredDifference, "squared_difference_i32", &[Some(divi), Some(qci)]);
    let mul2 = chain_i32(&mut b, OpKind::Mul { activation: Activation::None }, "mul2_i32", &[Some(n), Some(sqdi)]);
    b.inputs(&[x, n]).outputs(&[neg, mul2]);
    b.finish()
}

/// The 16x8 (int16) forms of the elementwise ops written over their inputs: QUANTIZE int16
/// -> int16 reads the model input (which stays), ADD writes over its operand 2 (the
/// chain), then MUL, SUB, RELU, RELU6, SQUARED_DIFFERENCE, QUANTIZE, MAXIMUM and MINIMUM
/// over operand 1.
pub fn in_place_s16() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    b.description("tflc test model: int16 elementwise ops in place");
    let s4 = [1, 4, 6, 3];
    let act = |b: &mut ModelBuilder, name: &str, scale: f32| b.activation(name, DType::I16, &s4, Some((scale, 0)));
    let c16 = |b: &mut ModelBuilder, name: &str, shape: &[usize], v: &[i16], scale: f32| {
        let data = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        b.constant(name, DType::I16, shape, data, Some(Quantization { scale: vec![scale], zero_point: vec![0], axis: None }))
    };
    let x = act(&mut b, "x", 1.0 / 1024.0);
    let requant = act(&mut b, "quantize", 1.0 / 2048.0);
    b.op(OpKind::Quantize, &[Some(x)], &[requant]);
    let add = act(&mut b, "add", 1.0 / 512.0);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(x), Some(requant)], &[add]);
    let mc = c16(&mut b, "mul/const", &[3], &[16384, -8192, 32767], 1.0 / 16384.0);
    let mul = act(&mut b, "mul", 1.0 / 512.0);
    b.op(OpKind::Mul { activation: Activation::None }, &[Some(add), Some(mc)], &[mul]);
    let sc = c16(&mut b, "sub/const", &[6, 1], &[100, -2000, 0, 32767, -32768, 5], 1.0 / 1024.0);
    let sub = act(&mut b, "sub", 1.0 / 256.0);
    b.op(OpKind::Sub { activation: Activation::None }, &[Some(mul), Some(sc)], &[sub]);
    let relu = act(&mut b, "relu", 1.0 / 512.0);
    b.op(OpKind::Relu, &[Some(sub)], &[relu]);
    let relu6 = act(&mut b, "relu6", 1.0 / 512.0);
    b.op(OpKind::Relu6, &[Some(relu)], &[relu6]);
    let dc = c16(&mut b, "squared_difference/const", &[3], &[1000, 0, -3000], 1.0 / 512.0);
    let sqd = act(&mut b, "squared_difference", 1.0 / 128.0);
    b.op(OpKind::SquaredDifference, &[Some(relu6), Some(dc)], &[sqd]);
    let out = act(&mut b, "quantize_out", 1.0 / 64.0);
    b.op(OpKind::Quantize, &[Some(sqd)], &[out]);
    let xc = c16(&mut b, "maximum/const", &[3], &[40, 0, 900], 1.0 / 64.0);
    let max = act(&mut b, "maximum", 1.0 / 64.0);
    b.op(OpKind::Maximum, &[Some(out), Some(xc)], &[max]);
    let nc = c16(&mut b, "minimum/const", &[3], &[100, 2000, 1200], 1.0 / 64.0);
    let min = act(&mut b, "minimum", 1.0 / 64.0);
    b.op(OpKind::Minimum, &[Some(max), Some(nc)], &[min]);
    b.inputs(&[x]).outputs(&[min]);
    b.finish()
}

/// PAD and CONCATENATION written over their input (issue 16): an int8 PAD whose output
/// holds its input at its place (the input 36 bytes above the output's start), then a
/// CONCATENATION along the height that puts a second model input above the padded tensor
/// (the padded tensor 64 bytes into the output: a negative reversed bound). Each overlap
/// saves bytes at its own step (464 -> 320 and 640 -> 384 live bytes), so the plan realises
/// both.
pub fn overlap_copies() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    b.description("tflc test model: PAD and CONCATENATION over their inputs");
    let q = Some((0.05, -4));
    let x = b.activation("x", DType::I8, &[1, 6, 6, 4], q);
    let z = b.activation("z", DType::I8, &[1, 2, 8, 4], q);
    let pads = b.constant_i32("pad/paddings", &[4, 2], &[0, 0, 1, 1, 1, 1, 0, 0], None);
    let padded = b.activation("pad", DType::I8, &[1, 8, 8, 4], q);
    b.op(OpKind::Pad, &[Some(x), Some(pads)], &[padded]);
    let cat = b.activation("concat", DType::I8, &[1, 10, 8, 4], q);
    b.op(OpKind::Concatenation { axis: 1, activation: Activation::None }, &[Some(z), Some(padded)], &[cat]);
    b.inputs(&[x, z]).outputs(&[cat]);
    b.finish()
}

/// A float32 PADV2 written over its input (issue 16: the overlapped view is typed, offsets
/// in elements), after a RELU so that the padded tensor is an activation.
pub fn overlap_pad_f32() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    b.description("tflc test model: float32 PADV2 over its input");
    let x = b.activation("x", DType::F32, &[1, 5, 6, 3], None);
    let r = b.activation("relu", DType::F32, &[1, 5, 6, 3], None);
    b.op(OpKind::Relu, &[Some(x)], &[r]);
    let pads = b.constant_i32("padv2/paddings", &[4, 2], &[0, 0, 1, 1, 1, 1, 0, 0], None);
    let value = b.constant_f32("padv2/value", &[], &[0.5]);
    let padded = b.activation("padv2", DType::F32, &[1, 7, 8, 3], None);
    b.op(OpKind::PadV2, &[Some(r), Some(pads), Some(value)], &[padded]);
    b.inputs(&[x]).outputs(&[padded]);
    b.finish()
}

/// State across runs: an SVDF (batch 2, rank 2, memory 3) whose int8 variable state has a
/// non-zero zero point, so the generated `Model::new()` must fill it, followed by SOFTMAX
/// int8 -> int16. (Its outputs over the two generated-compile runs were checked once
/// against the pip `tflite-micro` interpreter: identical.)
pub fn svdf_state() -> Vec<u8> {
    let mut r = Rng(0x5fdf_2026);
    let mut b = ModelBuilder::new();
    b.description("tflc test model: SVDF with a variable state, SOFTMAX to int16");
    let (units, rank, memory, input_size) = (4usize, 2usize, 3usize, 8usize);
    let nf = units * rank;
    let x = b.activation("input", DType::I8, &[2, input_size], Some((0.1, 3)));
    let wf = b.constant_i8("svdf/weights_feature", &[nf, input_size], &r.i8s(nf * input_size), Some((0.002, 0)));
    let wt = b.constant_i8("svdf/weights_time", &[nf, memory], &r.i8s(nf * memory), Some((0.001, 0)));
    let bias = b.constant_i32("svdf/bias", &[units], &r.i32s(units, 5000), Some((0.5 * 0.001, 0)));
    let state = b.tensor(crate::tflite::builder::TensorSpec {
        name: "svdf/state".into(),
        dtype: DType::I8,
        shape: vec![2, (nf * memory) as i32],
        shape_signature: None,
        quant: Some(Quantization { scale: vec![0.5], zero_point: vec![-20], axis: None }),
        data: None,
        variable: true,
    });
    let s = b.activation("svdf", DType::I8, &[2, units], Some((0.25, 5)));
    b.op(
        OpKind::Svdf(SvdfOptions { rank: rank as i32, activation: Activation::Relu, asymmetric_quantize_inputs: false }),
        &[Some(x), Some(wf), Some(wt), Some(bias), Some(state)],
        &[s],
    );
    let y = b.activation("softmax", DType::I16, &[2, units], Some((1.0 / 65536.0, -32768)));
    b.op(OpKind::Softmax { beta: 1.0 }, &[Some(s)], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    b.finish()
}

/// The convolution family's issue-14 operators in all their element types: int8
/// TRANSPOSE_CONV (per-channel, int32 bias) into an int8 BATCH_MATMUL with a constant RHS
/// (packed at compile time); 16x8 TRANSPOSE_CONV with an int16 bias (widened at compile
/// time) into an int16 BATCH_MATMUL of two activations (`adj_y`); float32 L2_POOL_2D into a
/// float32 TRANSPOSE_CONV and a BATCH_MATMUL with `adj_x`.
pub fn conv_family() -> Vec<u8> {
    let mut r = Rng(0x7c0_2026);
    let mut b = ModelBuilder::new();
    b.description("tflc test model: TRANSPOSE_CONV, BATCH_MATMUL, L2_POOL_2D");
    let tconv = |stride: i32, padding: Padding, activation: Activation| {
        OpKind::TransposeConv(TransposeConvOptions { padding, stride_w: stride, stride_h: stride, activation })
    };
    // int8.
    let x8 = b.activation("x8", DType::I8, &[1, 3, 3, 4], Some((0.05, 3)));
    let shape8 = b.constant_i32("t8/output_shape", &[4], &[1, 6, 6, 3], None);
    let ws = r.scales(3, 0.01);
    let w8 = b.constant_i8_per_axis("t8/weights", &[3, 3, 3, 4], &r.i8s(108), &ws, 0);
    let b8 = b.constant_i32_per_axis("t8/bias", &[3], &r.i32s(3, 2000), &ws.iter().map(|s| s * 0.05).collect::<Vec<_>>());
    let t8 = b.activation("t8", DType::I8, &[1, 6, 6, 3], Some((0.1, -5)));
    b.op(tconv(2, Padding::Same, Activation::Relu), &[Some(shape8), Some(w8), Some(x8), Some(b8)], &[t8]);
    let rhs8 = b.constant_i8("m8/rhs", &[3, 2], &r.i8s(6), Some((0.02, -4)));
    let m8 = b.activation("m8", DType::I8, &[1, 6, 6, 2], Some((0.08, 2)));
    b.op(OpKind::BatchMatmul { adj_x: false, adj_y: false }, &[Some(t8), Some(rhs8)], &[m8]);
    // 16x8.
    let x16 = b.activation("x16", DType::I16, &[1, 2, 3, 2], Some((0.002, 0)));
    let shape16 = b.constant_i32("t16/output_shape", &[4], &[1, 4, 6, 2], None);
    let ws16 = r.scales(2, 0.01);
    let w16 = b.constant_i8_per_axis("t16/weights", &[2, 2, 2, 2], &r.i8s(16), &ws16, 0);
    let bias16: Vec<u8> = r.i32s(2, 300).iter().flat_map(|&v| (v as i16).to_le_bytes()).collect();
    let bq = Quantization { scale: ws16.iter().map(|s| s * 0.002).collect(), zero_point: vec![0, 0], axis: Some(0) };
    let b16 = b.constant("t16/bias", DType::I16, &[2], bias16, Some(bq));
    let t16 = b.activation("t16", DType::I16, &[1, 4, 6, 2], Some((0.0005, 0)));
    b.op(tconv(2, Padding::Valid, Activation::None), &[Some(shape16), Some(w16), Some(x16), Some(b16)], &[t16]);
    let y16 = b.activation("y16", DType::I16, &[1, 4, 3, 2], Some((0.003, 0)));
    let m16 = b.activation("m16", DType::I16, &[1, 4, 6, 3], Some((0.01, 0)));
    b.op(OpKind::BatchMatmul { adj_x: false, adj_y: true }, &[Some(t16), Some(y16)], &[m16]);
    // float32.
    let xf = b.activation("xf", DType::F32, &[1, 5, 5, 2], None);
    let pf = b.activation("l2pool", DType::F32, &[1, 3, 3, 2], None);
    let pool = Pool2dOptions { padding: Padding::Same, stride_w: 2, stride_h: 2, filter_w: 3, filter_h: 3, activation: Activation::None };
    b.op(OpKind::L2Pool2d(pool), &[Some(xf)], &[pf]);
    let shapef = b.constant_i32("tf/output_shape", &[4], &[1, 5, 5, 2], None);
    let wf: Vec<f32> = r.i8s(36).iter().map(|&v| v as f32 / 50.0).collect();
    let wf = b.constant_f32("tf/weights", &[2, 3, 3, 2], &wf);
    let tf = b.activation("tf", DType::F32, &[1, 5, 5, 2], None);
    b.op(tconv(2, Padding::Same, Activation::Relu6), &[Some(shapef), Some(wf), Some(pf)], &[tf]);
    let rf: Vec<f32> = r.i8s(10).iter().map(|&v| v as f32 / 30.0).collect();
    let rf = b.constant_f32("mf/rhs", &[5, 2], &rf);
    let mf = b.activation("mf", DType::F32, &[1, 5, 2, 2], None);
    b.op(OpKind::BatchMatmul { adj_x: true, adj_y: false }, &[Some(tf), Some(rf)], &[mf]);
    b.inputs(&[x8, x16, y16, xf]).outputs(&[m8, m16, mf]);
    b.finish()
}

/// A small 16x8 network in the shape of `armzoo_ds_cnn_s_int16`: int16 activations, int8
/// per-channel weights, int64 biases through CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D,
/// RESHAPE, FULLY_CONNECTED and int16 SOFTMAX (its compile-time tables in the params).
/// (Its outputs on the generated-compile input pattern were checked once against the pip
/// `tflite-micro` interpreter: identical.)
pub fn int16_ds() -> Vec<u8> {
    let mut r = Rng(0x16b8_2026);
    let mut b = ModelBuilder::new();
    b.description("tflc test model: 16x8 CONV/DEPTHWISE/POOL/FC and int16 SOFTMAX");
    let i64_bias = |b: &mut ModelBuilder, name: &str, v: Vec<i32>, scales: Vec<f32>| {
        let bytes = v.iter().flat_map(|&x| (x as i64 * 37).to_le_bytes()).collect();
        let n = scales.len();
        let quant = Quantization { scale: scales, zero_point: vec![0; n], axis: if n > 1 { Some(0) } else { None } };
        b.constant(name, DType::I64, &[v.len()], bytes, Some(quant))
    };
    let x = b.activation("input", DType::I16, &[1, 6, 5, 2], Some((0.002, 0)));
    let ws = r.scales(4, 0.01);
    let w = b.constant_i8_per_axis("conv/weights", &[4, 3, 3, 2], &r.i8s(72), &ws, 0);
    let bias = i64_bias(&mut b, "conv/bias", r.i32s(4, 100_000), ws.iter().map(|s| s * 0.002).collect());
    let c = b.activation("conv/Relu", DType::I16, &[1, 6, 5, 4], Some((0.02, 0)));
    b.op(
        OpKind::Conv2d(Conv2dOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, dilation_w: 1, dilation_h: 1, activation: Activation::Relu }),
        &[Some(x), Some(w), Some(bias)],
        &[c],
    );
    let ds = r.scales(4, 0.01);
    let dw = b.constant_i8_per_axis("dw/weights", &[1, 3, 3, 4], &r.i8s(36), &ds, 3);
    let dbias = i64_bias(&mut b, "dw/bias", r.i32s(4, 100_000), ds.iter().map(|s| s * 0.02).collect());
    let d = b.activation("dw/Relu", DType::I16, &[1, 6, 5, 4], Some((0.05, 0)));
    b.op(
        OpKind::DepthwiseConv2d(DepthwiseConv2dOptions {
            padding: Padding::Same,
            stride_w: 1,
            stride_h: 1,
            depth_multiplier: 1,
            dilation_w: 1,
            dilation_h: 1,
            activation: Activation::Relu,
        }),
        &[Some(c), Some(dw), Some(dbias)],
        &[d],
    );
    let p = b.activation("pool", DType::I16, &[1, 1, 1, 4], Some((0.05, 0)));
    b.op(
        OpKind::AveragePool2d(Pool2dOptions { padding: Padding::Valid, stride_w: 1, stride_h: 1, filter_w: 5, filter_h: 6, activation: Activation::None }),
        &[Some(d)],
        &[p],
    );
    let shape = b.constant_i32("reshape/shape", &[2], &[1, 4], None);
    let flat = b.activation("reshape", DType::I16, &[1, 4], Some((0.05, 0)));
    b.op(OpKind::Reshape { new_shape: Some(vec![1, 4]) }, &[Some(p), Some(shape)], &[flat]);
    let fw = b.constant_i8("fc/weights", &[3, 4], &r.i8s(12), Some((0.00005, 0)));
    let fbias = i64_bias(&mut b, "fc/bias", r.i32s(3, 1000), vec![0.05 * 0.00005]);
    let logits = b.activation("fc", DType::I16, &[1, 3], Some((0.001, 0)));
    b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(flat), Some(fw), Some(fbias)], &[logits]);
    let y = b.activation("softmax", DType::I16, &[1, 3], Some((1.0 / 32768.0, 0)));
    b.op(OpKind::Softmax { beta: 1.0 }, &[Some(logits)], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    b.finish()
}

/// IF on a scalar: `x` (int8 [1, 4]) goes through subgraph 1 (ADD of a constant) when
/// `k < 0` (int32 scalar, LESS), else through subgraph 2 (RELU).
pub fn control_if() -> Vec<u8> {
    let q = Some((0.1, -2));
    let mut b = ModelBuilder::new();
    let k = b.activation("k", DType::I32, &[], None);
    let x = b.activation("x", DType::I8, &[1, 4], q);
    let zero = b.constant_i32("zero", &[], &[0], None);
    let c = b.activation("k_lt_0", DType::Bool, &[], None);
    let y = b.activation("y", DType::I8, &[1, 4], q);
    b.op(OpKind::Less, &[Some(k), Some(zero)], &[c]);
    b.op(OpKind::If { then_subgraph: SubgraphId::new(1), else_subgraph: SubgraphId::new(2) }, &[Some(c), Some(x)], &[y]);
    b.inputs(&[k, x]).outputs(&[y]);

    add_or_relu_branches(&mut b, q, &[10, -20, 30, 127]);
    b.finish()
}

/// The two branches the IF models choose between, as the builder's next two subgraphs:
/// `then_add` (an int8 [1, 4] plus the constant `w`) and `else_relu`.
fn add_or_relu_branches(b: &mut ModelBuilder, q: Option<(f32, i64)>, w: &[i8]) {
    b.new_subgraph("then_add");
    let a = b.activation("a", DType::I8, &[1, 4], q);
    let w = b.constant_i8("w", &[1, 4], w, q);
    let s = b.activation("sum", DType::I8, &[1, 4], q);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(a), Some(w)], &[s]);
    b.inputs(&[a]).outputs(&[s]);

    b.new_subgraph("else_relu");
    let a = b.activation("a", DType::I8, &[1, 4], q);
    let r = b.activation("relu", DType::I8, &[1, 4], q);
    b.op(OpKind::Relu, &[Some(a)], &[r]);
    b.inputs(&[a]).outputs(&[r]);
}

/// CALL_ONCE that initialises a resource variable, then accumulates over runs: subgraph 1
/// (the init, run on the first invocation only) assigns `[10, -20, 30, 100]` (int8 [1, 4],
/// scale 0.1, zero point -2) to the variable `acc`; the main subgraph reads it, ADDs the input
/// `x` and assigns the sum back; the output is the sum.
pub fn control_call_once_var() -> Vec<u8> {
    let q = Some((0.1, -2));
    let resource = DType::Resource;
    let handle = || OpKind::VarHandle { container: String::new(), shared_name: "acc".into() };
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I8, &[1, 4], q);
    let h = b.activation("acc_handle", resource, &[], None);
    let v = b.activation("acc_value", DType::I8, &[1, 4], q);
    let y = b.activation("y", DType::I8, &[1, 4], q);
    b.op(OpKind::CallOnce { init_subgraph: SubgraphId::new(1) }, &[], &[]);
    b.op(handle(), &[], &[h]);
    b.op(OpKind::ReadVariable, &[Some(h)], &[v]);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(v), Some(x)], &[y]);
    b.op(OpKind::AssignVariable, &[Some(h), Some(y)], &[]);
    b.inputs(&[x]).outputs(&[y]);

    b.new_subgraph("init");
    let h = b.activation("acc_handle", resource, &[], None);
    let c = b.constant_i8("acc_init", &[1, 4], &[10, -20, 30, 100], q);
    b.op(handle(), &[], &[h]);
    b.op(OpKind::AssignVariable, &[Some(h), Some(c)], &[]);
    b.inputs(&[]).outputs(&[]);
    b.finish()
}

/// A WHILE that counts with an IF inside its body: `i` starts at `clamp(n, 0, 8)` (int32)
/// and goes up by 1 while `i < 10` (subgraph 1, LESS); each iteration (subgraph 2) adds `w`
/// to `acc` (int8 [1, 4], starting at `x`) when `i < 6` (IF: subgraph 3) and takes its RELU
/// otherwise (subgraph 4). Outputs: `acc`, then `i`.
pub fn control_while_if() -> Vec<u8> {
    let q = Some((0.1, -2));
    let mut b = ModelBuilder::new();
    let n = b.activation("n", DType::I32, &[], None);
    let x = b.activation("x", DType::I8, &[1, 4], q);
    let lo = b.constant_i32("lo", &[], &[0], None);
    let hi = b.constant_i32("hi", &[], &[8], None);
    let n0 = b.activation("n_max_0", DType::I32, &[], None);
    let i0 = b.activation("i0", DType::I32, &[], None);
    let i_out = b.activation("i", DType::I32, &[], None);
    let acc_out = b.activation("acc", DType::I8, &[1, 4], q);
    b.op(OpKind::Maximum, &[Some(n), Some(lo)], &[n0]);
    b.op(OpKind::Minimum, &[Some(n0), Some(hi)], &[i0]);
    b.op(OpKind::While { cond_subgraph: SubgraphId::new(1), body_subgraph: SubgraphId::new(2) }, &[Some(i0), Some(x)], &[i_out, acc_out]);
    b.inputs(&[n, x]).outputs(&[acc_out, i_out]);

    b.new_subgraph("cond_i_lt_10");
    let ci = b.activation("i", DType::I32, &[], None);
    let cacc = b.activation("acc", DType::I8, &[1, 4], q);
    let ten = b.constant_i32("ten", &[], &[10], None);
    let more = b.activation("more", DType::Bool, &[], None);
    b.op(OpKind::Less, &[Some(ci), Some(ten)], &[more]);
    b.inputs(&[ci, cacc]).outputs(&[more]);

    b.new_subgraph("body");
    let bi = b.activation("i", DType::I32, &[], None);
    let bacc = b.activation("acc", DType::I8, &[1, 4], q);
    let one = b.constant_i32("one", &[], &[1], None);
    let six = b.constant_i32("six", &[], &[6], None);
    let next = b.activation("i_plus_1", DType::I32, &[], None);
    let early = b.activation("i_lt_6", DType::Bool, &[], None);
    let acc1 = b.activation("acc_next", DType::I8, &[1, 4], q);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(bi), Some(one)], &[next]);
    b.op(OpKind::Less, &[Some(bi), Some(six)], &[early]);
    b.op(OpKind::If { then_subgraph: SubgraphId::new(3), else_subgraph: SubgraphId::new(4) }, &[Some(early), Some(bacc)], &[acc1]);
    b.inputs(&[bi, bacc]).outputs(&[next, acc1]);

    add_or_relu_branches(&mut b, q, &[7, -3, 15, 1]);
    b.finish()
}

/// Constants passed across subgraph boundaries, as the converter writes recurrent loops: a
/// WHILE whose loop values start as constants of the entry subgraph (`i0 = 0`, the bound
/// `lim = 3`, the step `w0`, int8 [1, 4]) beside the input `x`; the condition (subgraph 1)
/// compares `i < lim`; the body (subgraph 2) returns `i + 1`, `lim` unchanged (its input is
/// its output), `acc + w` (ADD) and, as the next `w`, a constant of its own (`w1`). After the
/// loop an IF on `k < 0` passes `acc` and the constant `c` (int8 [1, 4]): the then-branch
/// (subgraph 3) returns their ADD, the else-branch (subgraph 4) a constant of its own.
/// Outputs: the IF's result, the loop's `i`, its `acc`, its `w`.
pub fn control_constants() -> Vec<u8> {
    let q = Some((0.1, -2));
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I8, &[1, 4], q);
    let k = b.activation("k", DType::I32, &[], None);
    let i0 = b.constant_i32("i0", &[], &[0], None);
    let lim = b.constant_i32("lim", &[], &[3], None);
    let w0 = b.constant_i8("w0", &[1, 4], &[5, -7, 20, 1], q);
    let i_out = b.activation("i", DType::I32, &[], None);
    let lim_out = b.activation("lim_out", DType::I32, &[], None);
    let acc_out = b.activation("acc", DType::I8, &[1, 4], q);
    let w_out = b.activation("w", DType::I8, &[1, 4], q);
    b.op(
        OpKind::While { cond_subgraph: SubgraphId::new(1), body_subgraph: SubgraphId::new(2) },
        &[Some(i0), Some(lim), Some(x), Some(w0)],
        &[i_out, lim_out, acc_out, w_out],
    );
    let zero = b.constant_i32("zero", &[], &[0], None);
    let neg = b.activation("k_lt_0", DType::Bool, &[], None);
    b.op(OpKind::Less, &[Some(k), Some(zero)], &[neg]);
    let c = b.constant_i8("c", &[1, 4], &[-30, 40, 3, -100], q);
    let y = b.activation("y", DType::I8, &[1, 4], q);
    b.op(OpKind::If { then_subgraph: SubgraphId::new(3), else_subgraph: SubgraphId::new(4) }, &[Some(neg), Some(acc_out), Some(c)], &[y]);
    b.inputs(&[x, k]).outputs(&[y, i_out, acc_out, w_out]);

    b.new_subgraph("cond_i_lt_lim");
    let ci = b.activation("i", DType::I32, &[], None);
    let clim = b.activation("lim", DType::I32, &[], None);
    let cacc = b.activation("acc", DType::I8, &[1, 4], q);
    let cw = b.activation("w", DType::I8, &[1, 4], q);
    let more = b.activation("more", DType::Bool, &[], None);
    b.op(OpKind::Less, &[Some(ci), Some(clim)], &[more]);
    b.inputs(&[ci, clim, cacc, cw]).outputs(&[more]);

    b.new_subgraph("body");
    let bi = b.activation("i", DType::I32, &[], None);
    let blim = b.activation("lim", DType::I32, &[], None);
    let bacc = b.activation("acc", DType::I8, &[1, 4], q);
    let bw = b.activation("w", DType::I8, &[1, 4], q);
    let one = b.constant_i32("one", &[], &[1], None);
    let next = b.activation("i_plus_1", DType::I32, &[], None);
    let sum = b.activation("acc_plus_w", DType::I8, &[1, 4], q);
    let w1 = b.constant_i8("w1", &[1, 4], &[-3, 9, 2, 30], q);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(bi), Some(one)], &[next]);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(bacc), Some(bw)], &[sum]);
    b.inputs(&[bi, blim, bacc, bw]).outputs(&[next, blim, sum, w1]);

    b.new_subgraph("then_add");
    let a = b.activation("a", DType::I8, &[1, 4], q);
    let d = b.activation("d", DType::I8, &[1, 4], q);
    let s = b.activation("sum", DType::I8, &[1, 4], q);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(a), Some(d)], &[s]);
    b.inputs(&[a, d]).outputs(&[s]);

    b.new_subgraph("else_constant");
    let a = b.activation("a", DType::I8, &[1, 4], q);
    let d = b.activation("d", DType::I8, &[1, 4], q);
    let e = b.constant_i8("e", &[1, 4], &[11, -22, 33, -44], q);
    b.inputs(&[a, d]).outputs(&[e]);
    b.finish()
}

/// The int16 (16x8) kernels of issue 28 in one chain, so that their generated calls compile
/// and run (`tests/generated-compile`): MAX_POOL_2D (SAME 3x3 stride 2, RELU), LEAKY_RELU
/// (alpha 0.3, rescaling), MEAN over the spatial axes (kept), MUL (its square) then RSQRT,
/// LOGISTIC and TANH (output scale 2^-15), on `[1, 6, 6, 3]` int16.
pub fn int16_activations() -> Vec<u8> {
    let q = |s: f32| Some((s, 0i64));
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I16, &[1, 6, 6, 3], q(0.00005));
    let p = b.activation("pool", DType::I16, &[1, 3, 3, 3], q(0.00005));
    b.op(
        OpKind::MaxPool2d(Pool2dOptions { padding: Padding::Same, stride_w: 2, stride_h: 2, filter_w: 3, filter_h: 3, activation: Activation::Relu }),
        &[Some(x)],
        &[p],
    );
    let l = b.activation("leaky", DType::I16, &[1, 3, 3, 3], q(0.00004));
    b.op(OpKind::LeakyRelu { alpha: 0.3 }, &[Some(p)], &[l]);
    let axes = b.constant_i32("axes", &[2], &[1, 2], None);
    let m = b.activation("mean", DType::I16, &[1, 1, 1, 3], q(0.00003));
    b.op(OpKind::Mean { keep_dims: true }, &[Some(l), Some(axes)], &[m]);
    let sq = b.activation("square", DType::I16, &[1, 1, 1, 3], q(0.00002));
    b.op(OpKind::Mul { activation: Activation::None }, &[Some(m), Some(m)], &[sq]);
    let r = b.activation("rsqrt", DType::I16, &[1, 1, 1, 3], q(0.0005));
    b.op(OpKind::Rsqrt, &[Some(sq)], &[r]);
    let g = b.activation("sigmoid", DType::I16, &[1, 3, 3, 3], q(1.0 / 32768.0));
    b.op(OpKind::Logistic, &[Some(l)], &[g]);
    let t = b.activation("tanh", DType::I16, &[1, 3, 3, 3], q(1.0 / 32768.0));
    b.op(OpKind::Tanh, &[Some(p)], &[t]);
    b.inputs(&[x]).outputs(&[r, g, t]);
    b.finish()
}

/// A 16x8 residual CNN with an attention-like block, as Google's `ai-edge-quantizer` writes it
/// (`tools/int16_model.py`; `compiler/tests/data/int16`, 7.5 KB): CONV_2D, ADD, RESHAPE,
/// MEAN, SUB, MUL, RSQRT, FULLY_CONNECTED, BATCH_MATMUL, SOFTMAX, all int16.
pub fn int16_attention() -> Vec<u8> {
    include_bytes!("../../tests/data/int16/int16_attn_a16w8.tflite").to_vec()
}

/// A WHILE whose body accumulates into a resource variable: `i` (int32) counts from `n` up
/// while `i < 3` (subgraph 1, LESS); each iteration (subgraph 2) reads the variable `acc`
/// (int8 [1, 4], scale 0.1, zero point -2), ADDs the loop value `x` and assigns the sum
/// back. The variable is assigned only in the body (TFLite Micro allocates it there, filled
/// with the zero point); the entry subgraph reads it after the loop. Outputs: `acc`, then
/// `i`. State carries over from run to run.
pub fn control_while_var() -> Vec<u8> {
    let q = Some((0.1, -2));
    let handle = || OpKind::VarHandle { container: String::new(), shared_name: "acc".into() };
    let mut b = ModelBuilder::new();
    let n = b.activation("n", DType::I32, &[], None);
    let x = b.activation("x", DType::I8, &[1, 4], q);
    let i_out = b.activation("i", DType::I32, &[], None);
    let x_out = b.activation("x_out", DType::I8, &[1, 4], q);
    let h = b.activation("acc_handle", DType::Resource, &[], None);
    let y = b.activation("acc", DType::I8, &[1, 4], q);
    b.op(OpKind::While { cond_subgraph: SubgraphId::new(1), body_subgraph: SubgraphId::new(2) }, &[Some(n), Some(x)], &[i_out, x_out]);
    b.op(handle(), &[], &[h]);
    b.op(OpKind::ReadVariable, &[Some(h)], &[y]);
    b.inputs(&[n, x]).outputs(&[y, i_out]);

    b.new_subgraph("cond_i_lt_3");
    let ci = b.activation("i", DType::I32, &[], None);
    let cx = b.activation("x", DType::I8, &[1, 4], q);
    let three = b.constant_i32("three", &[], &[3], None);
    let more = b.activation("more", DType::Bool, &[], None);
    b.op(OpKind::Less, &[Some(ci), Some(three)], &[more]);
    b.inputs(&[ci, cx]).outputs(&[more]);

    b.new_subgraph("body_accumulate");
    let bi = b.activation("i", DType::I32, &[], None);
    let bx = b.activation("x", DType::I8, &[1, 4], q);
    let one = b.constant_i32("one", &[], &[1], None);
    let next = b.activation("i_plus_1", DType::I32, &[], None);
    let h = b.activation("acc_handle", DType::Resource, &[], None);
    let v = b.activation("acc_value", DType::I8, &[1, 4], q);
    let sum = b.activation("acc_sum", DType::I8, &[1, 4], q);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(bi), Some(one)], &[next]);
    b.op(handle(), &[], &[h]);
    b.op(OpKind::ReadVariable, &[Some(h)], &[v]);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(v), Some(bx)], &[sum]);
    b.op(OpKind::AssignVariable, &[Some(h), Some(sum)], &[]);
    b.inputs(&[bi, bx]).outputs(&[next, bx]);
    b.finish()
}

/// A resource variable assigned two calls deep: `i` (int32) counts from `n` up while
/// `i < 4` (subgraph 1); each iteration (subgraph 2) runs an IF on `i < 2`: subgraph 3 reads
/// `acc` (int8 [1, 4], scale 0.1, zero point -2), ADDs the loop value `x`, assigns and returns
/// the sum; subgraph 4 returns the RELU of `x`. The IF's result is the next `x`. The entry
/// subgraph reads `acc` after the loop. Outputs: `acc`, then `x`.
pub fn control_while_if_var() -> Vec<u8> {
    let q = Some((0.1, -2));
    let handle = || OpKind::VarHandle { container: String::new(), shared_name: "acc".into() };
    let mut b = ModelBuilder::new();
    let n = b.activation("n", DType::I32, &[], None);
    let x = b.activation("x", DType::I8, &[1, 4], q);
    let i_out = b.activation("i", DType::I32, &[], None);
    let x_out = b.activation("x_out", DType::I8, &[1, 4], q);
    let h = b.activation("acc_handle", DType::Resource, &[], None);
    let y = b.activation("acc", DType::I8, &[1, 4], q);
    b.op(OpKind::While { cond_subgraph: SubgraphId::new(1), body_subgraph: SubgraphId::new(2) }, &[Some(n), Some(x)], &[i_out, x_out]);
    b.op(handle(), &[], &[h]);
    b.op(OpKind::ReadVariable, &[Some(h)], &[y]);
    b.inputs(&[n, x]).outputs(&[y, x_out]);

    b.new_subgraph("cond_i_lt_4");
    let ci = b.activation("i", DType::I32, &[], None);
    let cx = b.activation("x", DType::I8, &[1, 4], q);
    let four = b.constant_i32("four", &[], &[4], None);
    let more = b.activation("more", DType::Bool, &[], None);
    b.op(OpKind::Less, &[Some(ci), Some(four)], &[more]);
    b.inputs(&[ci, cx]).outputs(&[more]);

    b.new_subgraph("body");
    let bi = b.activation("i", DType::I32, &[], None);
    let bx = b.activation("x", DType::I8, &[1, 4], q);
    let one = b.constant_i32("one", &[], &[1], None);
    let two = b.constant_i32("two", &[], &[2], None);
    let next = b.activation("i_plus_1", DType::I32, &[], None);
    let early = b.activation("i_lt_2", DType::Bool, &[], None);
    let x1 = b.activation("x_next", DType::I8, &[1, 4], q);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(bi), Some(one)], &[next]);
    b.op(OpKind::Less, &[Some(bi), Some(two)], &[early]);
    b.op(OpKind::If { then_subgraph: SubgraphId::new(3), else_subgraph: SubgraphId::new(4) }, &[Some(early), Some(bx)], &[x1]);
    b.inputs(&[bi, bx]).outputs(&[next, x1]);

    b.new_subgraph("then_accumulate");
    let a = b.activation("a", DType::I8, &[1, 4], q);
    let h = b.activation("acc_handle", DType::Resource, &[], None);
    let v = b.activation("acc_value", DType::I8, &[1, 4], q);
    let sum = b.activation("acc_sum", DType::I8, &[1, 4], q);
    b.op(handle(), &[], &[h]);
    b.op(OpKind::ReadVariable, &[Some(h)], &[v]);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(v), Some(a)], &[sum]);
    b.op(OpKind::AssignVariable, &[Some(h), Some(sum)], &[]);
    b.inputs(&[a]).outputs(&[sum]);

    b.new_subgraph("else_relu");
    let a = b.activation("a", DType::I8, &[1, 4], q);
    let r = b.activation("relu", DType::I8, &[1, 4], q);
    b.op(OpKind::Relu, &[Some(a)], &[r]);
    b.inputs(&[a]).outputs(&[r]);
    b.finish()
}

/// An IF whose branches share a resource variable with a CALL_ONCE init: subgraph 1 (the
/// init, first run only) assigns `[10, -20, 30, 100]` to `acc` (int8 [1, 4], scale 0.1,
/// zero point -2); when `k < 0` the IF runs subgraph 2, which ADDs `x` to `acc`, assigns
/// the sum and returns it, else subgraph 3, which returns `acc` as read.
pub fn control_call_once_if_var() -> Vec<u8> {
    let q = Some((0.1, -2));
    let handle = || OpKind::VarHandle { container: String::new(), shared_name: "acc".into() };
    let mut b = ModelBuilder::new();
    let k = b.activation("k", DType::I32, &[], None);
    let x = b.activation("x", DType::I8, &[1, 4], q);
    let zero = b.constant_i32("zero", &[], &[0], None);
    let c = b.activation("k_lt_0", DType::Bool, &[], None);
    let y = b.activation("y", DType::I8, &[1, 4], q);
    b.op(OpKind::CallOnce { init_subgraph: SubgraphId::new(1) }, &[], &[]);
    b.op(OpKind::Less, &[Some(k), Some(zero)], &[c]);
    b.op(OpKind::If { then_subgraph: SubgraphId::new(2), else_subgraph: SubgraphId::new(3) }, &[Some(c), Some(x)], &[y]);
    b.inputs(&[k, x]).outputs(&[y]);

    b.new_subgraph("init");
    let h = b.activation("acc_handle", DType::Resource, &[], None);
    let c0 = b.constant_i8("acc_init", &[1, 4], &[10, -20, 30, 100], q);
    b.op(handle(), &[], &[h]);
    b.op(OpKind::AssignVariable, &[Some(h), Some(c0)], &[]);
    b.inputs(&[]).outputs(&[]);

    b.new_subgraph("then_accumulate");
    let a = b.activation("a", DType::I8, &[1, 4], q);
    let h = b.activation("acc_handle", DType::Resource, &[], None);
    let v = b.activation("acc_value", DType::I8, &[1, 4], q);
    let sum = b.activation("acc_sum", DType::I8, &[1, 4], q);
    b.op(handle(), &[], &[h]);
    b.op(OpKind::ReadVariable, &[Some(h)], &[v]);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(v), Some(a)], &[sum]);
    b.op(OpKind::AssignVariable, &[Some(h), Some(sum)], &[]);
    b.inputs(&[a]).outputs(&[sum]);

    b.new_subgraph("else_read");
    let a = b.activation("a", DType::I8, &[1, 4], q);
    let h = b.activation("acc_handle", DType::Resource, &[], None);
    let v = b.activation("acc_value", DType::I8, &[1, 4], q);
    b.op(handle(), &[], &[h]);
    b.op(OpKind::ReadVariable, &[Some(h)], &[v]);
    b.inputs(&[a]).outputs(&[v]);
    b.finish()
}

/// A variable tensor inside a WHILE body: `i` (int32) counts from `n` up while `i < 2`
/// (subgraph 1); each iteration (subgraph 2) feeds the loop value `x` (int8 [2, 8]) through
/// an int8 SVDF (8 units, rank 1, memory 3) whose state (int8 [2, 24], a variable tensor of
/// the body) carries over from iteration to iteration and from run to run, as TFLite Micro
/// keeps every subgraph's variable tensors. Outputs: `x` after the loop, then `i`.
pub fn control_while_svdf() -> Vec<u8> {
    let mut r = Rng(0x5fdf_0c0f);
    let q = Some((0.1, 3));
    let mut b = ModelBuilder::new();
    let n = b.activation("n", DType::I32, &[], None);
    let x = b.activation("x", DType::I8, &[2, 8], q);
    let i_out = b.activation("i", DType::I32, &[], None);
    let x_out = b.activation("x_out", DType::I8, &[2, 8], q);
    b.op(OpKind::While { cond_subgraph: SubgraphId::new(1), body_subgraph: SubgraphId::new(2) }, &[Some(n), Some(x)], &[i_out, x_out]);
    b.inputs(&[n, x]).outputs(&[x_out, i_out]);

    b.new_subgraph("cond_i_lt_2");
    let ci = b.activation("i", DType::I32, &[], None);
    let cx = b.activation("x", DType::I8, &[2, 8], q);
    let two = b.constant_i32("two", &[], &[2], None);
    let more = b.activation("more", DType::Bool, &[], None);
    b.op(OpKind::Less, &[Some(ci), Some(two)], &[more]);
    b.inputs(&[ci, cx]).outputs(&[more]);

    b.new_subgraph("body_svdf");
    let (units, rank, memory, input_size) = (8usize, 1usize, 3usize, 8usize);
    let nf = units * rank;
    let bi = b.activation("i", DType::I32, &[], None);
    let bx = b.activation("x", DType::I8, &[2, input_size], q);
    let one = b.constant_i32("one", &[], &[1], None);
    let next = b.activation("i_plus_1", DType::I32, &[], None);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(bi), Some(one)], &[next]);
    let wf = b.constant_i8("svdf/weights_feature", &[nf, input_size], &r.i8s(nf * input_size), Some((0.004, 0)));
    let wt = b.constant_i8("svdf/weights_time", &[nf, memory], &r.i8s(nf * memory), Some((0.002, 0)));
    let bias = b.constant_i32("svdf/bias", &[units], &r.i32s(units, 5000), Some((0.5 * 0.002, 0)));
    let state = b.tensor(crate::tflite::builder::TensorSpec {
        name: "svdf/state".into(),
        dtype: DType::I8,
        shape: vec![2, (nf * memory) as i32],
        shape_signature: None,
        quant: Some(Quantization { scale: vec![0.5], zero_point: vec![-20], axis: None }),
        data: None,
        variable: true,
    });
    let s = b.activation("svdf", DType::I8, &[2, units], q);
    b.op(
        OpKind::Svdf(SvdfOptions { rank: rank as i32, activation: Activation::None, asymmetric_quantize_inputs: false }),
        &[Some(bx), Some(wf), Some(wt), Some(bias), Some(state)],
        &[s],
    );
    b.inputs(&[bi, bx]).outputs(&[next, s]);
    b.finish()
}

/// The bytes of each input or output of one run, in order.
pub type Tensors = Vec<Vec<u8>>;

/// A builder model run over consecutive runs on one TFLite Micro interpreter: each run's
/// inputs and TFLite Micro's outputs (every output, little-endian bytes).
pub struct StatefulCase {
    /// The name in [`all`].
    pub name: &'static str,
    /// The model file's bytes.
    pub model: Vec<u8>,
    /// `(inputs, outputs)` of each run, in order: state carries over.
    pub runs: Vec<(Tensors, Tensors)>,
}

/// The control-flow models with state shared across subgraphs, and TFLite Micro's outputs
/// over several consecutive runs of one interpreter (`tools/op_test_vectors.py`, from the
/// steps `lower::ops::control_flow`'s tests dump under `TFLC_DUMP_OP_MODELS`).
pub fn stateful_control_flow_cases() -> Vec<StatefulCase> {
    fn i8s(v: &[i8]) -> Vec<u8> {
        v.iter().map(|&x| x as u8).collect()
    }
    let x = i8s(&[5, -7, 1, 20]);
    let x2 = i8s(&[-30, 2, 0, -1]);
    let run = |n: i32, x: &[u8], y: &[i8], i: Option<i32>| {
        let mut outs = vec![i8s(y)];
        outs.extend(i.map(|i| i.to_le_bytes().to_vec()));
        (vec![n.to_le_bytes().to_vec(), x.to_vec()], outs)
    };
    let run2 = |n: i32, x: &[u8], acc: &[i8], y: &[i8]| (vec![n.to_le_bytes().to_vec(), x.to_vec()], vec![i8s(acc), i8s(y)]);
    let sx = i8s(&[12, -40, 7, 90, -128, 3, 55, -9, 0, 33, -71, 127, 18, -2, 64, -100]);
    let sx2 = i8s(&[-5, 8, 100, -60, 21, 0, -33, 47, 90, -12, 6, -80, 2, 75, -19, 40]);
    vec![
        // Run 0 adds `x` three times to the zero-point fill, run 1 twice more, run 2 not at
        // all, run 3 adds `x2` once (int8 ADD saturating at 127); output 1 is `i`.
        StatefulCase {
            name: "builder_control_while_var",
            model: control_while_var(),
            runs: vec![
                run(0, &x, &[19, -17, 7, 64], Some(3)),
                run(1, &x, &[33, -27, 13, 108], Some(3)),
                run(3, &x, &[33, -27, 13, 108], Some(3)),
                run(2, &x2, &[5, -23, 15, 109], Some(3)),
            ],
        },
        // `k` < 0 takes the then branch (accumulate), else the variable is read: then, else,
        // then, else, then; the init's value is there from the first run.
        StatefulCase {
            name: "builder_control_call_once_if_var",
            model: control_call_once_if_var(),
            runs: vec![
                run(-1, &x, &[17, -25, 33, 122], None),
                run(5, &x2, &[17, -25, 33, 122], None),
                run(-3, &x2, &[-11, -21, 35, 123], None),
                run(0, &x, &[-11, -21, 35, 123], None),
                run(-1, &x, &[-4, -26, 38, 127], None),
            ],
        },
        // The IF inside the WHILE body accumulates while `i < 2`, its result feeding the
        // next iteration; RELU after. Output 1 is the loop's `x`.
        StatefulCase {
            name: "builder_control_while_if_var",
            model: control_while_if_var(),
            runs: vec![
                run2(0, &x, &[12, -12, 4, 42], &[12, -2, 4, 42]),
                run2(1, &x2, &[-16, -8, 6, 43], &[-2, -2, 6, 43]),
                run2(3, &x, &[-16, -8, 6, 43], &[5, -2, 1, 20]),
                run2(-1, &x2, &[-128, -10, 38, 127], &[-2, -2, 38, 127]),
            ],
        },
        // Two, one and two iterations: the SVDF state moves on with each.
        StatefulCase {
            name: "builder_control_while_svdf",
            model: control_while_svdf(),
            runs: vec![
                run(0, &sx, &[25, 11, -9, -15, 57, 34, 17, 7, 24, 4, -20, -25, 53, 34, 19, 31], Some(2)),
                run(1, &sx2, &[18, 8, -15, -20, 49, 36, 43, 28, 19, 9, -2, -12, 58, 37, 46, 41], Some(2)),
                run(0, &sx2, &[42, 5, -12, -11, 49, 34, 30, -20, 37, -21, -10, -10, 59, 35, 31, -22], Some(2)),
            ],
        },
    ]
}

/// CALL_ONCE before a RELU: the init subgraph (subgraph 1) has no operators, so the output
/// is the RELU's whatever the flag; it pins the code that keeps CALL_ONCE's flag in `Model`
/// (`called_once`, false in `Model::new`). `control_call_once_var` initialises state.
pub fn control_call_once() -> Vec<u8> {
    let q = Some((0.1, -2));
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I8, &[1, 4], q);
    let y = b.activation("y", DType::I8, &[1, 4], q);
    b.op(OpKind::CallOnce { init_subgraph: SubgraphId::new(1) }, &[], &[]);
    b.op(OpKind::Relu, &[Some(x)], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    b.new_subgraph("init");
    b.inputs(&[]).outputs(&[]);
    b.finish()
}

/// TFLite Micro's signal ops with hidden state, and the inverse FFT, side by side (each its
/// own input and outputs): SignalDelay (3 samples, int16 [2, 5]), SignalFramer (frames of 5
/// every 2 samples, prefilled: int16 [1, 4] -> [1, 2, 5] and its flag), SignalStacker (3
/// channels, left context 2, step 1: int16 \[3\] -> \[9\] and its flag), SignalOverlapAdd int16
/// ([2, 3, 4] -> [2, 6], step 2) and float32 ([3, 4] -> \[9\], step 3), SignalIrfft (int16,
/// length 32: [1, 34] -> [1, 32]). The state tensors the reader adds carry over between runs;
/// every configuration sets its valid flags on every call, so each output is written.
pub fn signal_state() -> Vec<u8> {
    use crate::tflite::builder::OpSpecCode;
    use crate::tflite::flexbuffers::{write_map, FlexValue};
    let mut b = ModelBuilder::new();
    let custom = |b: &mut ModelBuilder, name: &str, opts: &[(&str, FlexValue)], x: TensorId, outs: &[TensorId]| {
        let op = b.op_spec(OpSpecCode::Custom(name.into()), &[Some(x)], outs);
        b.custom_options(op, write_map(opts));
    };
    let x0 = b.activation("delay_in", DType::I16, &[2, 5], None);
    let y0 = b.activation("delayed", DType::I16, &[2, 5], None);
    custom(&mut b, "SignalDelay", &[("delay_length", FlexValue::Int(3))], x0, &[y0]);
    let x1 = b.activation("framer_in", DType::I16, &[1, 4], None);
    let y1 = b.activation("frames", DType::I16, &[1, 2, 5], None);
    let v1 = b.activation("frames_valid", DType::Bool, &[], None);
    let opts = [("frame_size", FlexValue::Int(5)), ("frame_step", FlexValue::Int(2)), ("prefill", FlexValue::Bool(true))];
    custom(&mut b, "SignalFramer", &opts, x1, &[y1, v1]);
    let x2 = b.activation("stacker_in", DType::I16, &[3], None);
    let y2 = b.activation("stacked", DType::I16, &[9], None);
    let v2 = b.activation("stacked_valid", DType::Bool, &[], None);
    let opts = [
        ("num_channels", FlexValue::Int(3)),
        ("stacker_left_context", FlexValue::Int(2)),
        ("stacker_right_context", FlexValue::Int(0)),
        ("stacker_step", FlexValue::Int(1)),
    ];
    custom(&mut b, "SignalStacker", &opts, x2, &[y2, v2]);
    let x3 = b.activation("ola_in", DType::I16, &[2, 3, 4], None);
    let y3 = b.activation("ola", DType::I16, &[2, 6], None);
    custom(&mut b, "SignalOverlapAdd", &[("T", FlexValue::Int(7)), ("frame_step", FlexValue::Int(2))], x3, &[y3]);
    let x4 = b.activation("ola_f32_in", DType::F32, &[3, 4], None);
    let y4 = b.activation("ola_f32", DType::F32, &[9], None);
    custom(&mut b, "SignalOverlapAdd", &[("T", FlexValue::Int(0)), ("frame_step", FlexValue::Int(3))], x4, &[y4]);
    let x5 = b.activation("spectrum", DType::I16, &[1, 34], None);
    let y5 = b.activation("time", DType::I16, &[1, 32], None);
    custom(&mut b, "SignalIrfft", &[("T", FlexValue::Int(7)), ("fft_length", FlexValue::Int(32))], x5, &[y5]);
    b.inputs(&[x0, x1, x2, x3, x4, x5]).outputs(&[y0, y1, v1, y2, v2, y3, y4, y5]);
    b.finish()
}

/// TFLite Micro's TFLite_Detection_PostProcess (regular NMS, 6 anchors, 2 classes plus
/// background, 3 detections) on float32 box encodings and class predictions, its anchors
/// a TFLM_DECODE constant (a 2-bit LUT of float32 values, decoded at compile time).
pub fn custom_postprocess() -> Vec<u8> {
    use crate::tflite::builder::OpSpecCode;
    use crate::tflite::flexbuffers::{write_map, FlexValue};
    let mut b = ModelBuilder::new();
    let boxes = b.activation("box_encodings", DType::F32, &[1, 6, 4], None);
    let scores = b.activation("class_predictions", DType::F32, &[1, 6, 3], None);
    // 24 anchor values, 2-bit indices MSB first into the table [0.1, 0.25, 0.5, 0.75].
    let idx: [u8; 24] = [1, 2, 0, 1, 2, 2, 1, 1, 3, 1, 2, 2, 1, 3, 1, 0, 2, 0, 3, 3, 1, 1, 2, 2];
    let encoded: Vec<u8> = idx.chunks(4).map(|c| c[0] << 6 | c[1] << 4 | c[2] << 2 | c[3]).collect();
    let mut ancillary = vec![0u8, 1, 0, 0, 1, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    ancillary.extend([0.1f32, 0.25, 0.5, 0.75].iter().flat_map(|v| v.to_le_bytes()));
    let e = b.constant("anchors_encoded", DType::U8, &[encoded.len()], encoded, None);
    let a = b.constant("anchors_ancillary", DType::U8, &[ancillary.len()], ancillary, None);
    let anchors = b.activation("anchors", DType::F32, &[6, 4], None);
    b.op_spec(OpSpecCode::Custom("TFLM_DECODE".into()), &[Some(e), Some(a)], &[anchors]);
    let outs = [
        b.activation("detection_boxes", DType::F32, &[1, 3, 4], None),
        b.activation("detection_classes", DType::F32, &[1, 3], None),
        b.activation("detection_scores", DType::F32, &[1, 3], None),
        b.activation("num_detections", DType::F32, &[1], None),
    ];
    let op = b.op_spec(OpSpecCode::Custom("TFLite_Detection_PostProcess".into()), &[Some(boxes), Some(scores), Some(anchors)], &outs);
    let options = [
        ("h_scale", FlexValue::Float(5.0)),
        ("max_classes_per_detection", FlexValue::Int(1)),
        ("max_detections", FlexValue::Int(3)),
        ("nms_iou_threshold", FlexValue::Float(0.5)),
        ("nms_score_threshold", FlexValue::Float(0.25)),
        ("num_classes", FlexValue::Int(2)),
        ("use_regular_nms", FlexValue::Bool(true)),
        ("w_scale", FlexValue::Float(5.0)),
        ("x_scale", FlexValue::Float(10.0)),
        ("y_scale", FlexValue::Float(10.0)),
    ];
    b.custom_options(op, write_map(&options));
    b.inputs(&[boxes, scores]).outputs(&outs);
    b.finish()
}

/// A strided streaming pair of CIRCULAR_BUFFERs (TFLite Micro's custom operator), each
/// feeding a convolution: `x` (int8 [1, 1, 1, 4]) enters a 3-slot buffer (no options: TFLite
/// Micro's heuristic gives period 2), a 3x1 CONV_2D makes [1, 1, 1, 6], which enters a 2-slot
/// buffer (option `cycles_max` 2), and a 2x1 CONV_2D makes `y` [1, 1, 1, 3]. Run after run,
/// the first buffer stops the run every other call (at op 0) and the second every other
/// call that reaches it (at op 2): one complete run in four. The buffers are variable
/// tensors in the file (as TFLite Micro's kernel expects: its Reset sets them to their zero
/// point). Outputs: the two buffers (state, defined after every run), then `y`.
pub fn circular_buffer() -> Vec<u8> {
    use crate::tflite::builder::{OpSpecCode, TensorSpec};
    use crate::tflite::flexbuffers::{write_map, FlexValue};
    let mut r = Rng(0xcb0f_2026);
    let mut b = ModelBuilder::new();
    let buffer = |b: &mut ModelBuilder, name: &str, shape: &[i32], q: (f32, i64)| {
        b.tensor(TensorSpec {
            name: name.into(),
            dtype: DType::I8,
            shape: shape.to_vec(),
            shape_signature: None,
            quant: Some(Quantization { scale: vec![q.0], zero_point: vec![q.1], axis: None }),
            data: None,
            variable: true,
        })
    };
    let conv = |k: usize| OpKind::Conv2d(Conv2dOptions { padding: Padding::Valid, stride_w: 1, stride_h: 1, dilation_w: 1, dilation_h: 1, activation: if k == 0 { Activation::Relu } else { Activation::None } });
    let qx = (0.05, -3);
    let x = b.activation("x", DType::I8, &[1, 1, 1, 4], Some(qx));
    let buf = buffer(&mut b, "stream/buffer", &[1, 3, 1, 4], qx);
    b.op_spec(OpSpecCode::Custom("CIRCULAR_BUFFER".into()), &[Some(x)], &[buf]);
    let w1s = r.scales(6, 0.01);
    let w1 = b.constant_i8_per_axis("conv1/weights", &[6, 3, 1, 4], &r.i8s(6 * 12), &w1s, 0);
    let b1s: Vec<f32> = w1s.iter().map(|s| s * qx.0).collect();
    let b1 = b.constant_i32_per_axis("conv1/bias", &[6], &r.i32s(6, 800), &b1s);
    let q1 = (0.02, -128);
    let c1 = b.activation("conv1/Relu", DType::I8, &[1, 1, 1, 6], Some(q1));
    b.op(conv(0), &[Some(buf), Some(w1), Some(b1)], &[c1]);
    let buf2 = buffer(&mut b, "stream2/buffer", &[1, 2, 1, 6], q1);
    let op = b.op_spec(OpSpecCode::Custom("CIRCULAR_BUFFER".into()), &[Some(c1)], &[buf2]);
    b.custom_options(op, write_map(&[("cycles_max", FlexValue::Int(2))]));
    let w2s = r.scales(3, 0.01);
    let w2 = b.constant_i8_per_axis("conv2/weights", &[3, 2, 1, 6], &r.i8s(3 * 12), &w2s, 0);
    let b2s: Vec<f32> = w2s.iter().map(|s| s * q1.0).collect();
    let b2 = b.constant_i32_per_axis("conv2/bias", &[3], &r.i32s(3, 800), &b2s);
    let y = b.activation("conv2", DType::I8, &[1, 1, 1, 3], Some((0.03, 5)));
    b.op(conv(1), &[Some(buf2), Some(w2), Some(b2)], &[y]);
    b.inputs(&[x]).outputs(&[buf, buf2, y]);
    b.finish()
}

/// A builder model run over consecutive invokes of one TFLite Micro interpreter, some of
/// which an operator ends early (`kTfLiteAbort`).
pub struct StreamingCase {
    /// The name in [`all`].
    pub name: &'static str,
    /// The model file's bytes.
    pub model: Vec<u8>,
    /// `(inputs, stopped, outputs)` of each run, in order: the operator that ended the run
    /// (`None`: complete), and TFLite Micro's outputs: every output after a complete run, the
    /// leading outputs that are state (defined whatever ran) after a stopped one.
    pub runs: Vec<(Tensors, Option<u32>, Tensors)>,
}

/// [`circular_buffer`] over eight invokes against TFLite Micro
/// (`tools/op_test_vectors.py --status`, the steps `lower::ops::circular_buffer`'s tests
/// dump under `TFLC_DUMP_OP_MODELS`): the status of each and its outputs.
pub fn streaming_cases() -> Vec<StreamingCase> {
    let i8s = |v: &[i8]| -> Vec<u8> { v.iter().map(|&x| x as u8).collect() };
    let runs = STREAM_RUNS
        .iter()
        .zip(STREAM_INPUTS)
        .map(|((x, stopped, outs), input)| {
            assert_eq!(*x, input);
            (vec![i8s(x)], *stopped, outs.iter().map(|o| i8s(o)).collect())
        })
        .collect();
    vec![StreamingCase { name: "builder_circular_buffer", model: circular_buffer(), runs }]
}

/// The inputs of [`streaming_cases`]' runs.
pub const STREAM_INPUTS: [[i8; 4]; 8] =
    [[10, -20, 30, 127], [-128, 5, 0, 77], [64, 64, -64, -1], [3, 99, -50, 12], [-7, -8, 9, 100], [0, 0, 0, 0], [120, -120, 60, -60], [1, 2, 3, 4]];

/// One run of TFLite Micro: the input, the operator that stopped it, the outputs.
type StreamRun = ([i8; 4], Option<u32>, &'static [&'static [i8]]);

/// TFLite Micro's results over [`STREAM_INPUTS`]: stopped at, outputs.
/// Status 15 (kTfLiteAbort) or 0 from `invoke()`; which operator stopped a run shows in the
/// second buffer, which changes only when op 2 runs.
#[rustfmt::skip]
const STREAM_RUNS: [StreamRun; 8] = [
    ([10, -20, 30, 127], Some(0), &[&[-3, -3, -3, -3, -3, -3, -3, -3, 10, -20, 30, 127], &[-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128]]),
    ([-128, 5, 0, 77], Some(2), &[&[-3, -3, -3, -3, 10, -20, 30, 127, -128, 5, 0, 77], &[-128, -128, -128, -128, -128, -128, 103, -128, -128, 127, 127, 127]]),
    ([64, 64, -64, -1], Some(0), &[&[10, -20, 30, 127, -128, 5, 0, 77, 64, 64, -64, -1], &[-128, -128, -128, -128, -128, -128, 103, -128, -128, 127, 127, 127]]),
    ([3, 99, -50, 12], None, &[&[-128, 5, 0, 77, 64, 64, -64, -1, 3, 99, -50, 12], &[103, -128, -128, 127, 127, 127, -128, -128, -45, -55, -128, -44], &[-128, -85, 127]]),
    ([-7, -8, 9, 100], Some(0), &[&[64, 64, -64, -1, 3, 99, -50, 12, -7, -8, 9, 100], &[103, -128, -128, 127, 127, 127, -128, -128, -45, -55, -128, -44]]),
    ([0, 0, 0, 0], Some(2), &[&[3, 99, -50, 12, -7, -8, 9, 100, 0, 0, 0, 0], &[-128, -128, -45, -55, -128, -44, 7, -128, -128, 127, -128, 127]]),
    ([120, -120, 60, -60], Some(0), &[&[-7, -8, 9, 100, 0, 0, 0, 0, 120, -120, 60, -60], &[-128, -128, -45, -55, -128, -44, 7, -128, -128, 127, -128, 127]]),
    ([1, 2, 3, 4], None, &[&[0, 0, 0, 0, 120, -120, 60, -60, 1, 2, 3, 4], &[7, -128, -128, 127, -128, 127, -128, -128, 127, -128, -128, -128], &[-82, 110, 127]]),
];

/// The builder models by name, for suites that iterate over them.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("builder_circular_buffer", circular_buffer()),
        ("builder_control_call_once", control_call_once()),
        ("builder_control_call_once_if_var", control_call_once_if_var()),
        ("builder_control_call_once_var", control_call_once_var()),
        ("builder_control_constants", control_constants()),
        ("builder_control_if", control_if()),
        ("builder_control_while_if", control_while_if()),
        ("builder_control_while_if_var", control_while_if_var()),
        ("builder_control_while_svdf", control_while_svdf()),
        ("builder_control_while_var", control_while_var()),
        ("builder_conv_family", conv_family()),
        ("builder_custom_postprocess", custom_postprocess()),
        ("builder_conv_same_relu", conv_same_relu()),
        ("builder_data_movement", data_movement()),
        ("builder_data_movement_f32_i16", data_movement_f32_i16()),
        ("builder_elementwise", elementwise()),
        ("builder_int16_activations", int16_activations()),
        ("builder_int16_ds", int16_ds()),
        ("builder_lut_weights", lut_weights()),
        ("builder_int4_weights", int4_weights()),
        ("builder_mediapipe", mediapipe()),
        ("converter_int16_attention", int16_attention()),
        ("builder_in_place", in_place()),
        ("builder_in_place_f32", in_place_f32()),
        ("builder_in_place_s16", in_place_s16()),
        ("builder_overlap_copies", overlap_copies()),
        ("builder_overlap_pad_f32", overlap_pad_f32()),
        ("builder_signal_state", signal_state()),
        ("builder_svdf_state", svdf_state()),
        ("builder_tiny_cnn", tiny_cnn()),
    ]
}

/// MediaPipe's built-in custom operators in one chain (`lower::ops::mediapipe`):
/// MaxPoolingWithArgmax2D (2x2, stride 2, VALID, raw `TfLitePoolParams`) and MaxUnpooling2D on
/// its indices, Convolution2DTransposeBias (3x3, stride 2, SAME, raw
/// `TfLiteTransposeConvParams`), then TransformTensorBilinear (version 2) through the matrix
/// Landmarks2TransformMatrix (version 2, FlexBuffer options) makes of 3D landmarks, which
/// TransformLandmarks (version 2) also applies to them: MediaPipe's crop-and-track pattern.
pub fn mediapipe() -> Vec<u8> {
    use crate::tflite::builder::OpSpecCode;
    use crate::tflite::flexbuffers::{write_map, FlexValue};
    let ints = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let mut rng = Rng(0x3d);
    let mut b = ModelBuilder::new();
    let x = b.activation("image", DType::F32, &[1, 4, 4, 2], None);
    let landmarks = b.activation("landmarks", DType::F32, &[1, 5, 3], None);
    let matrix = b.activation("matrix", DType::F32, &[1, 4, 4], None);
    let pooled = b.activation("pool/values", DType::F32, &[1, 2, 2, 2], None);
    let indices = b.activation("pool/indices", DType::F32, &[1, 2, 2, 2], None);
    let op = b.op_spec(OpSpecCode::Custom("MaxPoolingWithArgmax2D".into()), &[Some(x)], &[pooled, indices]);
    b.custom_options(op, ints(&[2, 2, 2, 2, 2, 0, 0, 0, 0, 0]));
    let unpooled = b.activation("unpool", DType::F32, &[1, 4, 4, 2], None);
    let op = b.op_spec(OpSpecCode::Custom("MaxUnpooling2D".into()), &[Some(pooled), Some(indices)], &[unpooled]);
    b.custom_options(op, ints(&[2, 2, 2, 2, 2, 0, 0, 0, 0, 0]));
    let wv: Vec<f32> = (0..3 * 3 * 3 * 2).map(|_| ((rng.next() % 33) as f32 - 16.0) / 16.0).collect();
    let w = b.constant_f32("up/filter", &[3, 3, 3, 2], &wv);
    let bias = b.constant_f32("up/bias", &[3], &[0.25, -0.5, 0.125]);
    let up = b.activation("up", DType::F32, &[1, 8, 8, 3], None);
    let op = b.op_spec(OpSpecCode::Custom("Convolution2DTransposeBias".into()), &[Some(unpooled), Some(w), Some(bias)], &[up]);
    b.custom_options(op, ints(&[1, 2, 2]));
    let op = b.op_spec(OpSpecCode::Custom("Landmarks2TransformMatrix".into()), &[Some(landmarks)], &[matrix]);
    b.custom_options(op, landmarks_to_transform_matrix_options());
    b.op_version(op, 2);
    let crop = b.activation("crop", DType::F32, &[1, 4, 4, 3], None);
    let op = b.op_spec(OpSpecCode::Custom("TransformTensorBilinear".into()), &[Some(up), Some(matrix)], &[crop]);
    b.custom_options(op, write_map(&[("output_height", FlexValue::Int(4)), ("output_width", FlexValue::Int(4))]));
    b.op_version(op, 2);
    let moved = b.activation("landmarks/transformed", DType::F32, &[1, 5, 3], None);
    let op = b.op_spec(OpSpecCode::Custom("TransformLandmarks".into()), &[Some(landmarks), Some(matrix)], &[moved]);
    b.op_version(op, 2);
    b.inputs(&[x, landmarks]).outputs(&[crop, moved]);
    b.finish()
}

/// Landmarks2TransformMatrix's options for [`mediapipe`]: a FlexBuffer map with
/// `subset_idxs` a typed vector of ints `[0, 2, 4]` (bytes as the `flatbuffers` Python
/// package's `TypedVectorFromElements` writes them), rotation from landmark 0 to 1, target
/// 0, a 4x4 crop, scale 1.5.
fn landmarks_to_transform_matrix_options() -> Vec<u8> {
    vec![
        115, 117, 98, 115, 101, 116, 95, 105, 100, 120, 115, 0, 3, 0, 2, 4, 108, 101, 102, 116, 95, 114, 111, 116,
        97, 116, 105, 111, 110, 95, 105, 100, 120, 0, 114, 105, 103, 104, 116, 95, 114, 111, 116, 97, 116, 105, 111, 110,
        95, 105, 100, 120, 0, 116, 97, 114, 103, 101, 116, 95, 114, 111, 116, 97, 116, 105, 111, 110, 95, 114, 97, 100,
        105, 97, 110, 115, 0, 111, 117, 116, 112, 117, 116, 95, 104, 101, 105, 103, 104, 116, 0, 111, 117, 116, 112, 117,
        116, 95, 119, 105, 100, 116, 104, 0, 115, 99, 97, 108, 101, 95, 120, 0, 115, 99, 97, 108, 101, 95, 121, 0,
        8, 105, 45, 32, 90, 21, 14, 127, 75, 0, 0, 0, 11, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0,
        0, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 192, 63, 0, 0, 192, 63,
        155, 0, 0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 14, 14, 44, 14, 40, 38, 1,
    ]
}

/// Sparse weights as the converter's `EXPERIMENTAL_SPARSITY` writes them: a float16 CONV_2D
/// filter stored CSR in its input channels (uint8 indices) through DENSIFY and DEQUANTIZE,
/// and float32 FULLY_CONNECTED weights in 1x4 blocks (uint16 indices) through DENSIFY.
pub fn sparse_weights() -> Vec<u8> {
    use super::sparse::{encode, Format, Width};
    let mut rng = Rng(0x28);
    let mut b = ModelBuilder::new();
    let x = b.activation("input", DType::F32, &[1, 4, 4, 2], None);
    // Filter [4, 3, 3, 2] float16, two thirds zero.
    let halves: Vec<u8> = (0..72)
        .flat_map(|_| {
            let r = rng.next();
            let h: u16 = if !r.is_multiple_of(3) { 0 } else { (0x3000 + ((r >> 8) % 0x0c00) as u16) | ((((r >> 20) & 1) as u16) << 15) };
            h.to_le_bytes()
        })
        .collect();
    let (sp, stored) = encode(&halves, &[4, 3, 3, 2], 2, &Format::csr_levels(4, &[3], Width::U8));
    let w16 = b.constant_sparse("conv/filter_sparse", DType::F16, &[4, 3, 3, 2], stored, sp, None);
    let w16d = b.activation("conv/filter_f16", DType::F16, &[4, 3, 3, 2], None);
    let w = b.activation("conv/filter", DType::F32, &[4, 3, 3, 2], None);
    let c = b.activation("conv", DType::F32, &[1, 4, 4, 4], None);
    b.op(OpKind::Densify, &[Some(w16)], &[w16d]);
    b.op(OpKind::Dequantize, &[Some(w16d)], &[w]);
    let conv = Conv2dOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, dilation_w: 1, dilation_h: 1, activation: Activation::Relu };
    b.op(OpKind::Conv2d(conv), &[Some(x), Some(w), None], &[c]);
    let shape = b.constant_i32("flat_shape", &[2], &[1, 64], None);
    let flat = b.activation("flat", DType::F32, &[1, 64], None);
    b.op(OpKind::Reshape { new_shape: None }, &[Some(c), Some(shape)], &[flat]);
    // FC weights [3, 64] float32 in 1x4 blocks, half of the blocks zero.
    let mut dense = vec![0f32; 3 * 64];
    for (i, v) in dense.iter_mut().enumerate() {
        if (i / 4 + i / 64) % 2 == 0 {
            *v = ((rng.next() % 41) as f32 - 20.0) / 16.0;
        }
    }
    let dense: Vec<u8> = dense.iter().flat_map(|v| v.to_le_bytes()).collect();
    let f = Format { traversal_order: vec![0, 1, 2], block_map: vec![1], block_sizes: vec![4], csr: vec![false, true, false], width: Width::U16 };
    let (sp, stored) = encode(&dense, &[3, 64], 4, &f);
    let fw = b.constant_sparse("fc/weights_sparse", DType::F32, &[3, 64], stored, sp, None);
    let fwd = b.activation("fc/weights", DType::F32, &[3, 64], None);
    b.op(OpKind::Densify, &[Some(fw)], &[fwd]);
    let y = b.activation("output", DType::F32, &[1, 3], None);
    b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(flat), Some(fwd), None], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    b.finish()
}

/// The seeds of the mutation fuzzers (`examples/fuzz_campaign.rs`, the robustness smoke
/// tests): the builder models of [`all`] and the models that exercise parts of the reader
/// and compiler they do not (sparse constants, the caller's custom operators).
pub fn fuzz_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let mut seeds = all();
    seeds.push(("builder_sparse_weights", sparse_weights()));
    seeds.push(("builder_custom_ops", custom_ops()));
    // TFLite Micro's LUT-compressed weights and int4 weights are also in `all()`
    // (`builder_lut_weights`, `builder_int4_weights`).
    seeds
}

/// A filter in TFLite Micro's LUT-compressed form: TFLM_DECODE(encoded, ancillary) ->
/// `name`, an int8 constant of `shape` (random from `seed`) whose quantization has `scales` along `axis` (one
/// value table per scale, `2^width` entries each, random), indices of `width` bits (MSB
/// first) in TFLite Micro's element order: channel `k / (count / n)` along axis 0,
/// `k % n` on the last axis (`DecodeStateLut`).
pub fn lut_constant(b: &mut ModelBuilder, seed: u64, name: &str, shape: &[usize], scales: &[f32], axis: usize, width: usize) -> TensorId {
    use crate::tflite::builder::{OpSpecCode, TensorSpec};
    let rng = &mut Rng(seed | 1);
    let count: usize = shape.iter().product();
    let n = scales.len();
    let stride = 1usize << width;
    let mut anc = vec![0u8, 1, 0, 0, 1, width as u8, stride as u8, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    anc.extend((0..n * stride).map(|_| (rng.next() % 255) as u8 ^ 0x80));
    let mut encoded = vec![0u8; (count * width).div_ceil(8)];
    for k in 0..count {
        let i = (rng.next() as usize) % stride;
        for j in 0..width {
            if i >> (width - 1 - j) & 1 == 1 {
                let bit = k * width + j;
                encoded[bit / 8] |= 0x80 >> (bit % 8);
            }
        }
    }
    let e = b.constant(&format!("{name}/encoded"), DType::U8, &[encoded.len()], encoded, None);
    let a = b.constant(&format!("{name}/ancillary"), DType::U8, &[anc.len()], anc, None);
    let quant = Some(Quantization { scale: scales.to_vec(), zero_point: vec![0; n], axis: Some(axis) });
    let t = b.tensor(TensorSpec { name: name.into(), dtype: DType::I8, shape: shape.iter().map(|&d| d as i32).collect(), shape_signature: None, quant, data: None, variable: false });
    b.op_spec(OpSpecCode::Custom("TFLM_DECODE".into()), &[Some(e), Some(a)], &[t]);
    t
}

/// TFLite Micro's LUT-compressed weights (TFLM_DECODE, decode type 0) on every layer type
/// the `_lut` kernels take, each smaller kept compressed than decoded (so a default compile
/// keeps it): CONV_2D 3x3 SAME stride 1 (3-bit indices) and VALID stride 2 (1-bit),
/// DEPTHWISE_CONV_2D 5x5 multiplier 1 SAME (3-bit) and multiplier 2 VALID stride 2 (2-bit),
/// FULLY_CONNECTED with per-unit tables (1-bit, 4-bit over two batches) and one table
/// (2-bit), and a CONV_2D with one table whose rows (576 weights) exceed the kernel's
/// buffer (7-bit, decoded a tap at a time).
pub fn lut_weights() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    let scales = |n: usize, s: f32| (0..n).map(|c| s * (1.0 + 0.25 * c as f32)).collect::<Vec<f32>>();
    let same = |s: i32| Conv2dOptions { padding: Padding::Same, stride_w: s, stride_h: s, dilation_w: 1, dilation_h: 1, activation: Activation::Relu };
    let dw = |padding: Padding, s: i32, m: i32| DepthwiseConv2dOptions { padding, stride_w: s, stride_h: s, depth_multiplier: m, dilation_w: 1, dilation_h: 1, activation: Activation::None };
    let x = b.activation("input", DType::I8, &[1, 6, 6, 3], Some((0.05, -2)));
    let w1 = lut_constant(&mut b, 0x1a71, "conv1/filter", &[4, 3, 3, 3], &scales(4, 0.004), 0, 3);
    let bias1 = b.constant_i32_per_axis("conv1/bias", &[4], &[37, -120, 5, 900], &scales(4, 0.0002));
    let c1 = b.activation("conv1", DType::I8, &[1, 6, 6, 4], Some((0.03, -10)));
    b.op(OpKind::Conv2d(same(1)), &[Some(x), Some(w1), Some(bias1)], &[c1]);
    let wd1 = lut_constant(&mut b, 0x1a72, "dw1/filter", &[1, 5, 5, 4], &scales(4, 0.004), 3, 3);
    let d1 = b.activation("dw1", DType::I8, &[1, 6, 6, 4], Some((0.04, 3)));
    b.op(OpKind::DepthwiseConv2d(dw(Padding::Same, 1, 1)), &[Some(c1), Some(wd1), None], &[d1]);
    let w2 = lut_constant(&mut b, 0x1a73, "conv2/filter", &[4, 3, 3, 4], &scales(4, 0.005), 0, 1);
    let c2 = b.activation("conv2", DType::I8, &[1, 2, 2, 4], Some((0.05, 0)));
    let valid2 = Conv2dOptions { padding: Padding::Valid, stride_w: 2, stride_h: 2, dilation_w: 1, dilation_h: 1, activation: Activation::None };
    b.op(OpKind::Conv2d(valid2), &[Some(d1), Some(w2), None], &[c2]);
    let shape2 = b.constant_i32("flat2_shape", &[2], &[1, 16], None);
    let flat2 = b.activation("flat2", DType::I8, &[1, 16], Some((0.05, 0)));
    b.op(OpKind::Reshape { new_shape: None }, &[Some(c2), Some(shape2)], &[flat2]);
    let wf2 = lut_constant(&mut b, 0x1a74, "fc2/weights", &[3, 16], &scales(3, 0.01), 0, 1);
    let y2 = b.activation("output2", DType::I8, &[1, 3], Some((0.08, -3)));
    b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(flat2), Some(wf2), None], &[y2]);
    let wd2 = lut_constant(&mut b, 0x1a75, "dw2/filter", &[1, 5, 5, 8], &scales(8, 0.003), 3, 2);
    let bias2 = b.constant_i32_per_axis("dw2/bias", &[8], &[1, -2, 300, -400, 50, 60, -7000, 8], &scales(8, 0.00012));
    let d2 = b.activation("dw2", DType::I8, &[1, 1, 1, 8], Some((0.05, -1)));
    b.op(OpKind::DepthwiseConv2d(dw(Padding::Valid, 2, 2)), &[Some(d1), Some(wd2), Some(bias2)], &[d2]);
    let shape = b.constant_i32("flat_shape", &[2], &[1, 8], None);
    let flat = b.activation("flat", DType::I8, &[1, 8], Some((0.05, -1)));
    b.op(OpKind::Reshape { new_shape: None }, &[Some(d2), Some(shape)], &[flat]);
    let wf = lut_constant(&mut b, 0x1a76, "fc1/weights", &[5, 8], &[0.01], 0, 2);
    let bf = b.constant_i32("fc1/bias", &[5], &[10, -20, 30, -40, 50], Some((0.0005, 0)));
    let y1 = b.activation("output1", DType::I8, &[1, 5], Some((0.1, 2)));
    b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(flat), Some(wf), Some(bf)], &[y1]);
    // Rows longer than the kernel's buffer (`tflc_runtime::kernels::lut::BLOCK`), one table.
    let xb = b.activation("input_deep", DType::I8, &[1, 3, 3, 64], Some((0.02, 5)));
    let wb = lut_constant(&mut b, 0x1a77, "deep/filter", &[2, 3, 3, 64], &[0.002], 0, 7);
    let y3 = b.activation("output3", DType::I8, &[1, 2, 2, 2], Some((0.06, 1)));
    b.op(OpKind::Conv2d(same(2)), &[Some(xb), Some(wb), None], &[y3]);
    // Two batch rows through per-unit 4-bit tables.
    let xf = b.activation("input_fc", DType::I8, &[2, 256], Some((0.03, 7)));
    let wf3 = lut_constant(&mut b, 0x1a78, "fc3/weights", &[4, 256], &scales(4, 0.002), 0, 4);
    let y4 = b.activation("output4", DType::I8, &[2, 4], Some((0.2, -4)));
    b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(xf), Some(wf3), None], &[y4]);
    b.inputs(&[x, xb, xf]).outputs(&[y1, y2, y3, y4]);
    b.finish()
}

/// int4 weights (TFLite's packed `INT4`) as ai-edge-quantizer writes them: an int8 CONV_2D
/// with a per-channel int4 filter of odd size (the last byte's high nibble unused), an int8
/// DEPTHWISE_CONV_2D and FULLY_CONNECTED with int4 filters (per channel, per tensor), and a
/// float32 FULLY_CONNECTED whose int4 weights sit behind DEQUANTIZE (weight-only).
pub fn int4_weights() -> Vec<u8> {
    int4_weights_stored(true)
}

/// [`int4_weights`]'s int8 twin: the same weights (every one in `-8..=7`) stored as int8,
/// which is what TFLite Micro computes with once it has unpacked the int4 filters (the
/// flash measurements compare the two).
pub fn int4_weights_int8_twin() -> Vec<u8> {
    int4_weights_stored(false)
}

fn int4_weights_stored(int4: bool) -> Vec<u8> {
    let mut rng = Rng(0x30);
    let mut i4s = |n: usize| -> Vec<i8> { (0..n).map(|_| (rng.next() % 16) as i8 - 8).collect() };
    let mut b = ModelBuilder::new();
    let per_axis = |b: &mut ModelBuilder, name: &str, shape: &[usize], v: &[i8], scales: &[f32], axis: usize| {
        if int4 {
            b.constant_i4_per_axis(name, shape, v, scales, axis)
        } else {
            let q = Quantization { scale: scales.to_vec(), zero_point: vec![0; scales.len()], axis: Some(axis) };
            b.constant(name, DType::I8, shape, v.iter().map(|&w| w as u8).collect(), Some(q))
        }
    };
    let x = b.activation("input", DType::I8, &[1, 5, 5, 3], Some((0.05, -2)));
    let w = per_axis(&mut b, "conv/filter", &[3, 3, 3, 3], &i4s(81), &[0.11, 0.07, 0.23], 0);
    let bias = b.constant_i32_per_axis("conv/bias", &[3], &[37, -120, 5], &[0.0055, 0.0035, 0.0115]);
    let c = b.activation("conv", DType::I8, &[1, 5, 5, 3], Some((0.08, -10)));
    let conv = Conv2dOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, dilation_w: 1, dilation_h: 1, activation: Activation::Relu };
    b.op(OpKind::Conv2d(conv), &[Some(x), Some(w), Some(bias)], &[c]);
    let dw = per_axis(&mut b, "dw/filter", &[1, 3, 3, 3], &i4s(27), &[0.05, 0.09, 0.12], 3);
    let d = b.activation("dw", DType::I8, &[1, 5, 5, 3], Some((0.1, 4)));
    let dwo = DepthwiseConv2dOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, depth_multiplier: 1, dilation_w: 1, dilation_h: 1, activation: Activation::None };
    b.op(OpKind::DepthwiseConv2d(dwo), &[Some(c), Some(dw), None], &[d]);
    let shape = b.constant_i32("flat_shape", &[2], &[1, 75], None);
    let flat = b.activation("flat", DType::I8, &[1, 75], Some((0.1, 4)));
    b.op(OpKind::Reshape { new_shape: None }, &[Some(d), Some(shape)], &[flat]);
    let (fv, fq) = (i4s(525), Some(Quantization { scale: vec![0.04], zero_point: vec![0], axis: None }));
    let fw = if int4 { b.constant_i4("fc/weights", &[7, 75], &fv, fq) } else { b.constant("fc/weights", DType::I8, &[7, 75], fv.iter().map(|&w| w as u8).collect(), fq) };
    let y = b.activation("output", DType::I8, &[1, 7], Some((0.2, 0)));
    b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(flat), Some(fw), None], &[y]);
    // Weight-only: int4 -> DEQUANTIZE -> float32 FULLY_CONNECTED.
    let xf = b.activation("input_f", DType::F32, &[1, 9], None);
    let w4 = per_axis(&mut b, "fc_f/weights_int4", &[4, 9], &i4s(36), &[0.1, 0.2, 0.05, 0.3], 0);
    let wf = b.activation("fc_f/weights", DType::F32, &[4, 9], None);
    b.op(OpKind::Dequantize, &[Some(w4)], &[wf]);
    let yf = b.activation("output_f", DType::F32, &[1, 4], None);
    b.op(OpKind::FullyConnected(FullyConnectedOptions::default()), &[Some(xf), Some(wf), None], &[yf]);
    b.inputs(&[x, xf]).outputs(&[y, yf]);
    b.finish()
}

/// Two custom operators tflc has no kernel for, whose kernels the caller provides
/// (`docs/CUSTOM_OPS.md`), around a builtin:
/// - `ScaleShift` (twice, FlexBuffer options `{"add": f, "relu": b}`): float32
///   `y = x * w[c] + add` with `w` a constant per-channel vector (its second input), then
///   `max(y, 0)` when `relu`; the two are separated by a RELU;
/// - `ClampI8` (a raw struct of options: `lo: i32, hi: i32`, little-endian): int8
///   `y = clamp(x, lo, hi)` on the quantized values.
///
/// [`custom_ops_builtin`] computes the same with builtins; [`CUSTOM_OPS_SCRATCH`] is the
/// scratch the snapshot gives `ClampI8`.
pub fn custom_ops() -> Vec<u8> {
    use crate::tflite::builder::OpSpecCode;
    use crate::tflite::flexbuffers::{write_map, FlexValue};
    let mut b = ModelBuilder::new();
    b.description("tflc test model: two custom operators (flexbuffer and raw-struct options)");
    let x = b.activation("input", DType::F32, &[1, 2, 2, 2], None);
    let w1 = b.constant_f32("scale_shift1/w", &[2], &[0.5, -2.0]);
    let t1 = b.activation("scale_shift1", DType::F32, &[1, 2, 2, 2], None);
    let op = b.op_spec(OpSpecCode::Custom("ScaleShift".into()), &[Some(x), Some(w1)], &[t1]);
    b.custom_options(op, write_map(&[("add", FlexValue::Float(1.25)), ("relu", FlexValue::Bool(false))]));
    let t2 = b.activation("relu", DType::F32, &[1, 2, 2, 2], None);
    b.op(OpKind::Relu, &[Some(t1)], &[t2]);
    let w2 = b.constant_f32("scale_shift2/w", &[2], &[3.0, 0.25]);
    let y0 = b.activation("output", DType::F32, &[1, 2, 2, 2], None);
    let op = b.op_spec(OpSpecCode::Custom("ScaleShift".into()), &[Some(t2), Some(w2)], &[y0]);
    b.custom_options(op, write_map(&[("add", FlexValue::Float(-0.5)), ("relu", FlexValue::Bool(true))]));
    let q = Some((0.1, 3));
    let xq = b.activation("input_q", DType::I8, &[1, 8], q);
    let yq = b.activation("clamped", DType::I8, &[1, 8], q);
    let op = b.op_spec(OpSpecCode::Custom("ClampI8".into()), &[Some(xq)], &[yq]);
    b.custom_options(op, [(-20i32).to_le_bytes(), 50i32.to_le_bytes()].concat());
    b.inputs(&[x, xq]).outputs(&[y0, yq]);
    b.finish()
}

/// The scratch the `builder_custom_ops` snapshot gives `ClampI8` (`--custom-scratch
/// ClampI8=32`).
pub const CUSTOM_OPS_SCRATCH: (&str, usize) = ("ClampI8", 32);

/// A CIRCULAR_BUFFER (which ends a run early until it has filled) feeding a custom operator
/// of the caller's, `ClampI8` (as in [`custom_ops`], no scratch): `run` returns
/// `Result<RunStatus, CustomOpFailed>`. Outputs: the buffer and the clamped buffer.
pub fn custom_ops_streaming() -> Vec<u8> {
    use crate::tflite::builder::{OpSpecCode, TensorSpec};
    let q = (0.05, -3);
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I8, &[1, 1, 1, 4], Some(q));
    let buf = b.tensor(TensorSpec {
        name: "stream/buffer".into(),
        dtype: DType::I8,
        shape: vec![1, 3, 1, 4],
        shape_signature: None,
        quant: Some(Quantization { scale: vec![q.0], zero_point: vec![q.1], axis: None }),
        data: None,
        variable: true,
    });
    b.op_spec(OpSpecCode::Custom("CIRCULAR_BUFFER".into()), &[Some(x)], &[buf]);
    let y = b.activation("clamped", DType::I8, &[1, 3, 1, 4], Some(q));
    let op = b.op_spec(OpSpecCode::Custom("ClampI8".into()), &[Some(buf)], &[y]);
    b.custom_options(op, [(-20i32).to_le_bytes(), 50i32.to_le_bytes()].concat());
    b.inputs(&[x]).outputs(&[buf, y]);
    b.finish()
}

/// [`custom_ops`] with builtins: MUL and ADD for each ScaleShift (the second ADD with a fused
/// RELU), RELU between them, MAXIMUM and MINIMUM for ClampI8. Same inputs, same outputs.
pub fn custom_ops_builtin() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    b.description("tflc test model: custom_ops with builtins");
    let x = b.activation("input", DType::F32, &[1, 2, 2, 2], None);
    let scale_shift = |b: &mut ModelBuilder, x: TensorId, w: [f32; 2], add: f32, activation: Activation, name: &str| {
        let w = b.constant_f32(&format!("{name}/w"), &[2], &w);
        let m = b.activation(&format!("{name}/mul"), DType::F32, &[1, 2, 2, 2], None);
        b.op(OpKind::Mul { activation: Activation::None }, &[Some(x), Some(w)], &[m]);
        let a = b.constant_f32(&format!("{name}/add"), &[1], &[add]);
        let y = b.activation(name, DType::F32, &[1, 2, 2, 2], None);
        b.op(OpKind::Add { activation }, &[Some(m), Some(a)], &[y]);
        y
    };
    let t1 = scale_shift(&mut b, x, [0.5, -2.0], 1.25, Activation::None, "scale_shift1");
    let t2 = b.activation("relu", DType::F32, &[1, 2, 2, 2], None);
    b.op(OpKind::Relu, &[Some(t1)], &[t2]);
    let y0 = scale_shift(&mut b, t2, [3.0, 0.25], -0.5, Activation::Relu, "output");
    let q = Some((0.1, 3));
    let xq = b.activation("input_q", DType::I8, &[1, 8], q);
    let lo = b.constant_i8("lo", &[1], &[-20], q);
    let hi = b.constant_i8("hi", &[1], &[50], q);
    let m = b.activation("at_least_lo", DType::I8, &[1, 8], q);
    b.op(OpKind::Maximum, &[Some(xq), Some(lo)], &[m]);
    let yq = b.activation("clamped", DType::I8, &[1, 8], q);
    b.op(OpKind::Minimum, &[Some(m), Some(hi)], &[yq]);
    b.inputs(&[x, xq]).outputs(&[y0, yq]);
    b.finish()
}

/// A custom operator whose output shape the converter could not infer (`shape_signature`
/// `[-1, 8]`): tflc cannot compile it (the caller's kernel needs a static shape).
pub fn dynamic_custom_op() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    let x = b.activation("input", DType::I8, &[1, 8], Some((0.1, 0)));
    let y = b.tensor(crate::tflite::builder::TensorSpec {
        name: "dynamic_output".into(),
        dtype: DType::I8,
        shape: vec![1, 8],
        shape_signature: Some(vec![-1, 8]),
        quant: Some(Quantization { scale: vec![0.1], zero_point: vec![0], axis: None }),
        data: None,
        variable: false,
    });
    b.op_spec(crate::tflite::builder::OpSpecCode::Custom("MyFancyOp".into()), &[Some(x)], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    b.finish()
}

/// A custom operator tflc lowers (SignalEnergy) whose custom options are too short to be a
/// FlexBuffer (two bytes): refused naming op and the options.
pub fn short_custom_options() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    let x = b.activation("spectrum", DType::I16, &[8], None);
    let y = b.activation("energy", DType::U32, &[4], None);
    let op = b.op_spec(crate::tflite::builder::OpSpecCode::Custom("SignalEnergy".into()), &[Some(x)], &[y]);
    b.custom_options(op, vec![1, 2]);
    b.inputs(&[x]).outputs(&[y]);
    b.finish()
}

/// A model with a custom op tflc has no kernel for: the caller's (`tflc run` refuses it).
pub fn unsupported_custom_op() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    let x = b.activation("input", DType::I8, &[1, 8], Some((0.1, 0)));
    let y = b.activation("output", DType::I8, &[1, 8], Some((0.1, 0)));
    b.op_spec(crate::tflite::builder::OpSpecCode::Custom("MyFancyOp".into()), &[Some(x)], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    b.finish()
}

/// A CONV_2D on int16 activations with int8 weights (16x8) and an int32 bias, which tflc
/// does not compile (it implements the 16x8 kernels with TFLite's int64 bias).
pub fn unsupported_int16_conv() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    let x = b.activation("input16", DType::I16, &[1, 4, 4, 1], Some((0.001, 0)));
    let w = b.constant_i8_per_axis("weights", &[2, 1, 1, 1], &[3, -5], &[0.01, 0.02], 0);
    let bias = b.constant_i32_per_axis("bias32", &[2], &[7, -9], &[0.00001, 0.00002]);
    let y = b.activation("conv16", DType::I16, &[1, 4, 4, 2], Some((0.002, 0)));
    b.op(
        OpKind::Conv2d(Conv2dOptions { padding: Padding::Valid, stride_w: 1, stride_h: 1, dilation_w: 1, dilation_h: 1, activation: Activation::None }),
        &[Some(x), Some(w), Some(bias)],
        &[y],
    );
    b.inputs(&[x]).outputs(&[y]);
    b.finish()
}

/// Model files committed for tests that need a file on disk (the `include_model!` UI tests),
/// with their builder: `cargo run -p tflc --example make_default_model` rewrites them and a
/// test checks they are current.
pub fn committed_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("examples/models/tiny_cnn_int8.tflite", tiny_cnn()),
        ("examples/models/custom_ops.tflite", custom_ops()),
        ("macros/tests/ui/models/conv.tflite", conv_same_relu()),
        ("macros/tests/ui/models/custom_op.tflite", dynamic_custom_op()),
        ("macros/tests/ui/models/custom_ops.tflite", custom_ops()),
        ("macros/tests/ui/models/int16_conv.tflite", unsupported_int16_conv()),
    ]
}

/// Structural stress models (issue 17): large graphs of cheap int8 ops, built in memory so
/// the regression tests, the fuzz smoke tests and `examples/stress_models.rs` share them.
pub mod stress {
    use super::*;

    const Q: Option<(f32, i64)> = Some((0.05, -3));

    /// `n` RELUs in a chain over `[1, 16]` int8: input -> RELU -> ... -> output.
    pub fn relu_chain(n: usize) -> Vec<u8> {
        let mut b = ModelBuilder::new();
        b.description("tflc stress model: RELU chain");
        let x = b.activation("x", DType::I8, &[1, 16], Q);
        let mut cur = x;
        for i in 0..n {
            let y = b.activation(&format!("relu{i}"), DType::I8, &[1, 16], Q);
            b.op(OpKind::Relu, &[Some(cur)], &[y]);
            cur = y;
        }
        b.inputs(&[x]).outputs(&[cur]);
        b.finish()
    }

    /// `n` RELUs all reading the one graph input, each writing its own graph output.
    pub fn relu_fan_out(n: usize) -> Vec<u8> {
        let mut b = ModelBuilder::new();
        b.description("tflc stress model: RELU fan-out");
        let x = b.activation("x", DType::I8, &[1, 16], Q);
        let mut outs = Vec::with_capacity(n);
        for i in 0..n {
            let y = b.activation(&format!("relu{i}"), DType::I8, &[1, 16], Q);
            b.op(OpKind::Relu, &[Some(x)], &[y]);
            outs.push(y);
        }
        b.inputs(&[x]).outputs(&outs);
        b.finish()
    }

    /// A random DAG of `n` int8 RELU / ADD ops, each reading one or two earlier tensors of one
    /// of three shapes (`[1, 16]`, `[1, 64]`, `[1, 256]`; mostly recent ones, so the graph is
    /// both deep and wide); the unread tensors are the graph outputs. Deterministic in `seed`.
    pub fn random_dag(n: usize, seed: u64) -> Vec<u8> {
        let mut r = crate::testing::Rng(seed);
        let mut b = ModelBuilder::new();
        b.description("tflc stress model: random DAG");
        let shapes: [&[usize]; 3] = [&[1, 16], &[1, 64], &[1, 256]];
        let mut by_shape: Vec<Vec<TensorId>> = vec![Vec::new(); shapes.len()];
        let mut read = Vec::new();
        let mut inputs = Vec::new();
        for (k, s) in shapes.iter().enumerate() {
            let x = b.activation(&format!("x{k}"), DType::I8, s, Q);
            by_shape[k].push(x);
            inputs.push(x);
            read.push(true);
        }
        // Tensors are numbered in creation order: `all[t.index()] == t`.
        let mut all: Vec<TensorId> = inputs.clone();
        for i in 0..n {
            let k = (r.next_u64() % shapes.len() as u64) as usize;
            let pool = &by_shape[k];
            // Mostly recent tensors (deep), sometimes any (wide).
            let pick = |r: &mut crate::testing::Rng| {
                let len = pool.len();
                if r.next_u64().is_multiple_of(4) {
                    pool[(r.next_u64() % len as u64) as usize]
                } else {
                    pool[len - 1 - (r.next_u64() % len.min(8) as u64) as usize]
                }
            };
            let a = pick(&mut r);
            let y = b.activation(&format!("op{i}"), DType::I8, shapes[k], Q);
            if r.next_u64().is_multiple_of(2) {
                b.op(OpKind::Relu, &[Some(a)], &[y]);
            } else {
                let c = pick(&mut r);
                b.op(OpKind::Add { activation: Activation::None }, &[Some(a), Some(c)], &[y]);
                read[c.index()] = false;
            }
            read[a.index()] = false;
            by_shape[k].push(y);
            all.push(y);
            read.push(true);
        }
        let outs: Vec<TensorId> = all.iter().zip(&read).skip(inputs.len()).filter(|(_, &r)| r).map(|(&t, _)| t).collect();
        b.inputs(&inputs).outputs(&outs);
        b.finish()
    }

    /// One RELU over an int8 tensor of `shape` (for size limits).
    pub fn relu_of_shape(shape: &[usize]) -> Vec<u8> {
        let mut b = ModelBuilder::new();
        b.description("tflc stress model: one large RELU");
        let x = b.activation("x", DType::I8, shape, Q);
        let y = b.activation("y", DType::I8, shape, Q);
        b.op(OpKind::Relu, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        b.finish()
    }
}
