#!/usr/bin/env python3
"""Converter-made sparse models for tflc's sparse tests (issue 28).

Builds two tiny Keras models whose weights are mostly zero (pruned by hand, seeded), converts
each with TensorFlow's converter and `tf.lite.Optimize.EXPERIMENTAL_SPARSITY`, in float32 and
with float16 weights, and writes them to DIR:

    sparse_fc_f32.tflite, sparse_fc_f16.tflite      Dense(16) <- Dense(32) on a [1, 24] input
    sparse_conv_f32.tflite, sparse_conv_f16.tflite  Conv2D 3x3 (8 filters) on [1, 6, 6, 4], then Dense

The converter stores the sparse weights with SparsityParameters and a DENSIFY op (feeding a
DEQUANTIZE for float16). `tools/sparse_vectors.py --converter DIR` then runs them in
ai-edge-litert and prints the Rust literals `compiler/src/passes/sparse_tests.rs` checks.

    python3 -m venv /tmp/tfvenv && /tmp/tfvenv/bin/pip install tensorflow-cpu
    /tmp/tfvenv/bin/python tools/sparse_converter_models.py DIR

(tensorflow-cpu 2.21.0 made the committed vectors.)
"""
import os
import sys

import numpy as np
import tensorflow as tf


def pruned(shape, rng, keep):
    w = rng.standard_normal(shape).astype(np.float32) * 0.5
    mask = rng.random(shape) < keep
    return (w * mask).astype(np.float32)


def fc_model(rng):
    x = tf.keras.Input(shape=(24,), batch_size=1)
    d1 = tf.keras.layers.Dense(32, activation="relu")
    d2 = tf.keras.layers.Dense(16)
    y = d2(d1(x))
    m = tf.keras.Model(x, y)
    d1.set_weights([pruned((24, 32), rng, 0.2), rng.standard_normal(32).astype(np.float32) * 0.1])
    d2.set_weights([pruned((32, 16), rng, 0.25), rng.standard_normal(16).astype(np.float32) * 0.1])
    return m


def conv_model(rng):
    x = tf.keras.Input(shape=(6, 6, 4), batch_size=1)
    c = tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu")
    f = tf.keras.layers.Flatten()
    d = tf.keras.layers.Dense(10)
    y = d(f(c(x)))
    m = tf.keras.Model(x, y)
    c.set_weights([pruned((3, 3, 4, 8), rng, 0.2), rng.standard_normal(8).astype(np.float32) * 0.1])
    d.set_weights([pruned((288, 10), rng, 0.15), rng.standard_normal(10).astype(np.float32) * 0.1])
    return m


def convert(model, f16):
    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    conv.optimizations = [tf.lite.Optimize.EXPERIMENTAL_SPARSITY]
    if f16:
        conv.optimizations.append(tf.lite.Optimize.DEFAULT)
        conv.target_spec.supported_types = [tf.float16]
    return conv.convert()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    for name, make in [("fc", fc_model), ("conv", conv_model)]:
        for f16 in (False, True):
            model = make(np.random.default_rng(28))
            data = convert(model, f16)
            path = os.path.join(out, f"sparse_{name}_{'f16' if f16 else 'f32'}.tflite")
            with open(path, "wb") as f:
                f.write(data)
            print(path, len(data), "bytes")


if __name__ == "__main__":
    main()
