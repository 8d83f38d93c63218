#!/usr/bin/env python3
"""A 16x8 test model for tflc (issue 28, point 4): a small residual CNN and an attention-like
block, quantized by Google's `ai-edge-quantizer` (int16 activations, int8 weights), and
TFLite Micro's outputs on it.

The float model (tf.function, seeded weights) on a [1, 6, 6, 3] input:
    conv 3x3 (8) + relu -> conv 3x3 (8) -> ADD (residual) -> relu
    -> reshape to 36 tokens of 8 -> layer norm by hand: MEAN, SUB, MUL (square), MEAN, ADD eps,
       RSQRT, MUL
    -> q, k, v: FULLY_CONNECTED (8) -> BATCH_MATMUL q k^T, MUL (1 / sqrt 8), SOFTMAX,
       BATCH_MATMUL with v -> ADD (residual)
    -> MEAN over the tokens -> FULLY_CONNECTED (4) -> SOFTMAX

Three steps, each in the environment it needs:
    /tmp/tfvenv/bin/python tools/int16_model.py float DIR      # tensorflow-cpu: DIR/int16_attn_f32.tflite
    python3 tools/int16_model.py quantize DIR                  # ai-edge-quantizer: DIR/int16_attn_a16w8.tflite
    python3 tools/int16_model.py golden DIR                    # tflite-micro: prints the Rust literals
(pip install numpy tflite-micro ai-edge-litert ai-edge-quantizer; tensorflow-cpu 2.21.0,
ai-edge-quantizer 0.10.0 and tflite-micro 0.dev20261023182759 made the committed files.)
Only the quantized model is committed; the float one is an intermediate.
"""
import os
import sys

import numpy as np

SHAPE = (1, 6, 6, 3)


def calibration(n, seed):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1.0, 1.0, SHAPE).astype(np.float32) for _ in range(n)]


def test_input():
    """The golden input: `x[i] = ((i * 37) % 17 - 8) / 8`."""
    n = int(np.prod(SHAPE))
    return np.array([((i * 37) % 17 - 8) / 8 for i in range(n)], dtype=np.float32).reshape(SHAPE)


def float_model(out):
    import tensorflow as tf

    rng = np.random.default_rng(2816)
    w = lambda *s: tf.constant((rng.standard_normal(s) * 0.4).astype(np.float32))
    c1, b1, c2, b2 = w(3, 3, 3, 8), w(8), w(3, 3, 8, 8), w(8)
    wq, wk, wv, wo, bo = w(8, 8), w(8, 8), w(8, 8), w(8, 4), w(4)

    @tf.function(input_signature=[tf.TensorSpec(SHAPE, tf.float32)])
    def model(x):
        h = tf.nn.relu(tf.nn.conv2d(x, c1, 1, "SAME") + b1)
        r = tf.nn.conv2d(h, c2, 1, "SAME") + b2
        h = tf.nn.relu(h + r)
        t = tf.reshape(h, [1, 36, 8])
        mu = tf.reduce_mean(t, axis=-1, keepdims=True)
        d = t - mu
        var = tf.reduce_mean(d * d, axis=-1, keepdims=True)
        n = d * tf.math.rsqrt(var + 1e-3)
        q, k, v = tf.matmul(n, wq), tf.matmul(n, wk), tf.matmul(n, wv)
        s = tf.nn.softmax(tf.matmul(q, k, transpose_b=True) * (1.0 / np.sqrt(8.0)))
        a = tf.matmul(s, v) + n
        g = tf.reduce_mean(a, axis=1)
        return tf.nn.softmax(tf.matmul(g, wo) + bo)

    import tempfile

    module = tf.Module()
    module.model = model
    with tempfile.TemporaryDirectory() as d:
        tf.saved_model.save(module, d, signatures={"serving_default": model.get_concrete_function()})
        raw = tf.lite.TFLiteConverter.from_saved_model(d).convert()
    with open(os.path.join(out, "int16_attn_f32.tflite"), "wb") as f:
        f.write(raw)
    print("float model", len(raw))


def quantize(out):
    from ai_edge_quantizer import quantizer, recipe

    qt = quantizer.Quantizer(os.path.join(out, "int16_attn_f32.tflite"), recipe.static_wi8_ai16())
    from ai_edge_litert.interpreter import Interpreter
    it = Interpreter(model_path=os.path.join(out, "int16_attn_f32.tflite"))
    sigs = it.get_signature_list()
    sig = list(sigs)[0]
    name = sigs[sig]["inputs"][0]
    calib = qt.calibrate({sig: [{name: x} for x in calibration(64, 7)]})
    res = qt.quantize(calib)
    path = os.path.join(out, "int16_attn_a16w8.tflite")
    with open(path, "wb") as f:
        f.write(res.quantized_model)
    print("quantized model", len(res.quantized_model))


def golden(out):
    from tflite_micro.python.tflite_micro import runtime
    from ai_edge_litert.interpreter import Interpreter

    raw = open(os.path.join(out, "int16_attn_a16w8.tflite"), "rb").read()
    it = Interpreter(model_content=raw)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    scale, zp = d["quantization"]
    x = test_input()
    if d["dtype"] != np.float32:
        x = np.clip(np.round(x / scale) + zp, np.iinfo(d["dtype"]).min, np.iinfo(d["dtype"]).max).astype(d["dtype"])
    print("input", d["dtype"].__name__, d["quantization"])
    m = runtime.Interpreter.from_bytes(raw, arena_size=1 << 20)
    m.set_input(x, 0)
    m.invoke()
    y = np.asarray(m.get_output(0))
    print("TFLite Micro output", y.dtype, y.shape)
    print("    input: &[" + ", ".join(str(int(v)) for v in np.asarray(x).ravel()) + "]")
    print("    output: &[" + ", ".join(str(int(v)) for v in y.ravel()) + "]")
    it.set_tensor(d["index"], x)
    it.invoke()
    print("    litert: &[" + ", ".join(str(int(v)) for v in it.get_tensor(it.get_output_details()[0]["index"]).ravel()) + "]")


if __name__ == "__main__":
    step, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    {"float": float_model, "quantize": quantize, "golden": golden}[step](out)
