#!/usr/bin/env python3
"""Converter-made int4 models for tflc's int4 tests (issue 30).

Stage `float` (TensorFlow): a tiny seeded Keras model, Conv2D 3x3 (6 filters, SAME, RELU) ->
DepthwiseConv2D 3x3 (SAME) -> Flatten -> Dense(5), on a [1, 8, 8, 3] input, converted to a
float32 .tflite.

Stage `quantize` (ai-edge-quantizer): that float model quantized twice:

    int4_a8w4.tflite      int8 activations, int4 weights: per-channel for CONV_2D,
                          per-tensor for FULLY_CONNECTED (TFLite Micro refuses per-channel
                          int4 FULLY_CONNECTED weights); the quantizer has no int4 weights
                          with int8 activations for DEPTHWISE_CONV_2D, which gets int8 ones
    int4_weight_only.tflite  float32 activations, int4 weights behind DEQUANTIZE (the
                          quantizer's af32w4 recipe: asymmetric, per channel)

Stage `vectors` runs both with the input below (seeded) and prints the Rust literals
`compiler/src/lower/ops/tests_int4.rs` checks: int4_a8w4 in TFLite Micro (reference kernels),
int4_weight_only in TFLite's reference kernels (ai-edge-litert BUILTIN_REF), float32 bits.

    /tmp/tfvenv/bin/python tools/int4_converter_models.py float DIR       # tensorflow-cpu
    python3 tools/int4_converter_models.py quantize DIR                   # pip install ai-edge-quantizer
    python3 tools/int4_converter_models.py vectors DIR                    # pip install tflite-micro ai-edge-litert

(tensorflow-cpu 2.21.0 and the pip ai-edge-quantizer / tflite-micro / ai-edge-litert of
December 2026 made the committed models and vectors.)
"""
import json
import os
import sys

import numpy as np


def input_data():
    rng = np.random.default_rng(30)
    return rng.uniform(-1.0, 1.0, (1, 8, 8, 3)).astype(np.float32)


def make_float(d):
    import tensorflow as tf
    tf.keras.utils.set_random_seed(30)
    x = tf.keras.Input(shape=(8, 8, 3), batch_size=1)
    y = tf.keras.layers.Conv2D(6, 3, padding="same", activation="relu")(x)
    y = tf.keras.layers.DepthwiseConv2D(3, padding="same")(y)
    y = tf.keras.layers.Flatten()(y)
    y = tf.keras.layers.Dense(5)(y)
    m = tf.keras.Model(x, y)
    raw = tf.lite.TFLiteConverter.from_keras_model(m).convert()
    # The float model is the quantizer's input only (not committed).
    with open(os.path.join(d, "int4_float.tflite"), "wb") as f:
        f.write(raw)


def recipe(activations, granularity_fc):
    def entry(op, granularity, bits=4):
        cfg = {
            "weight_tensor_config": {"num_bits": bits, "symmetric": activations, "granularity": granularity, "dtype": "INT"},
            "compute_precision": "INTEGER" if activations else "FLOAT",
            "explicit_dequantize": not activations,
            "skip_checks": False,
            "min_weight_elements": 0,
        }
        if activations:
            cfg["activation_tensor_config"] = {"num_bits": 8, "symmetric": False, "granularity": "TENSORWISE", "dtype": "INT"}
        return {"regex": ".*", "operation": op, "algorithm_key": "min_max_uniform_quantize", "op_config": cfg}
    r = [entry("*", "CHANNELWISE")]
    if granularity_fc:
        r.append(entry("FULLY_CONNECTED", granularity_fc))
    if activations:
        # The quantizer's policy has int4 weights with int8 activations for CONV_2D and
        # FULLY_CONNECTED only: the depthwise layer gets int8 weights.
        r.append(entry("DEPTHWISE_CONV_2D", "CHANNELWISE", 8))
    return r


def quantize(d):
    from ai_edge_quantizer import quantizer
    src = os.path.join(d, "int4_float.tflite")
    q = quantizer.Quantizer(src)
    q.load_quantization_recipe(recipe(True, "TENSORWISE"))
    rng = np.random.default_rng(31)
    calib = {"serving_default": [{"input_1": rng.uniform(-1, 1, (1, 8, 8, 3)).astype(np.float32)} for _ in range(8)]}
    try:
        result = q.quantize(q.calibrate(calib))
    except Exception:
        # The signature's input name differs between Keras versions: read it from the model.
        from ai_edge_litert.interpreter import Interpreter
        runner = Interpreter(model_path=src).get_signature_runner()
        name = list(runner.get_input_details())[0]
        calib = {"serving_default": [{name: v} for v in (list(c.values())[0] for c in calib["serving_default"])]}
        result = q.quantize(q.calibrate(calib))
    result.export_model(os.path.join(d, "int4_a8w4.tflite"), overwrite=True)
    q = quantizer.Quantizer(src)
    q.load_quantization_recipe(recipe(False, None))
    q.quantize().export_model(os.path.join(d, "int4_weight_only.tflite"), overwrite=True)


def vectors(d):
    from tflite_micro.python.tflite_micro import runtime
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    x = input_data()
    raw = open(os.path.join(d, "int4_a8w4.tflite"), "rb").read()
    it = Interpreter(model_content=raw)
    it.allocate_tensors()
    di = it.get_input_details()[0]
    scale, zp = di["quantization"]
    xq = np.clip(np.round(x / scale) + zp, -128, 127).astype(np.int8)
    m = runtime.Interpreter.from_bytes(raw, arena_size=1 << 22)
    m.set_input(xq, 0)
    m.invoke()
    y = np.asarray(m.get_output(0)).flatten()
    print(f"INT4_A8W4_INPUT: &[{', '.join(str(int(v)) for v in xq.flatten())}],")
    print(f"INT4_A8W4: &[{', '.join(str(int(v)) for v in y)}],")
    raw = open(os.path.join(d, "int4_weight_only.tflite"), "rb").read()
    it = Interpreter(model_content=raw, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    y = it.get_tensor(it.get_output_details()[0]["index"]).flatten().view(np.uint32)
    print(f"INT4_WEIGHT_ONLY_INPUT: &[{', '.join(str(int(v)) for v in x.flatten().view(np.uint32))}],")
    print(f"INT4_WEIGHT_ONLY: &[{', '.join(str(int(v)) for v in y)}],")


if __name__ == "__main__":
    {"float": make_float, "quantize": quantize, "vectors": vectors}[sys.argv[1]](sys.argv[2])
