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

/// The builder models by name, for suites that iterate over them.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![("builder_conv_same_relu", conv_same_relu()), ("builder_tiny_cnn", tiny_cnn())]
}

/// A model with a custom op tflc has no kernel for (for error tests).
pub fn unsupported_custom_op() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    let x = b.activation("input", DType::I8, &[1, 8], Some((0.1, 0)));
    let y = b.activation("output", DType::I8, &[1, 8], Some((0.1, 0)));
    b.op_spec(crate::tflite::builder::OpSpecCode::Custom("MyFancyOp".into()), &[Some(x)], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    b.finish()
}

/// A CONV_2D on int16 activations with int8 weights (16x8), which tflc does not compile yet.
pub fn unsupported_int16_conv() -> Vec<u8> {
    let mut b = ModelBuilder::new();
    let x = b.activation("input16", DType::I16, &[1, 4, 4, 1], Some((0.001, 0)));
    let w = b.constant_i8_per_axis("weights", &[2, 1, 1, 1], &[3, -5], &[0.01, 0.02], 0);
    let y = b.activation("conv16", DType::I16, &[1, 4, 4, 2], Some((0.002, 0)));
    b.op(
        OpKind::Conv2d(Conv2dOptions { padding: Padding::Valid, stride_w: 1, stride_h: 1, dilation_w: 1, dilation_h: 1, activation: Activation::None }),
        &[Some(x), Some(w), None],
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
        ("macros/tests/ui/models/conv.tflite", conv_same_relu()),
        ("macros/tests/ui/models/custom_op.tflite", unsupported_custom_op()),
        ("macros/tests/ui/models/int16_conv.tflite", unsupported_int16_conv()),
    ]
}
