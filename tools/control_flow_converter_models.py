#!/usr/bin/env python3
"""Converter-made control-flow models for tflc's control-flow tests (issue 28, point 5).

Builds tiny Keras / tf.function models whose time loop or branch the TFLite converter writes
as WHILE / IF subgraphs that receive constants (the loop counter's start, its bound, the
initial state), converts each to float32 TFLite and writes them to DIR:

    cf_gru.tflite         Keras GRU(4), unroll=False, on [1, 3, 2]
    cf_lstm_cell.tflite   Keras RNN(LSTMCell(4)), unroll=False, on [1, 3, 2] (a WHILE; the
                          plain LSTM layer becomes the fused UNIDIRECTIONAL_SEQUENCE_LSTM)
    cf_while_loop.tflite  tf.while_loop: x <- 0.5 * x + 1 for i < 5, on [1, 4]
    cf_cond.tflite        tf.cond(sum(x) > 0, relu(x) * 2, x - 1) on [1, 4]

Seeded weights. `tools/control_flow_vectors.py DIR` then runs them in TFLite Micro (and
TFLite) and prints the Rust literals `compiler/src/lower/ops/control_flow.rs` checks.

    python3 -m venv /tmp/tfvenv && /tmp/tfvenv/bin/pip install tensorflow-cpu
    /tmp/tfvenv/bin/python tools/control_flow_converter_models.py DIR

(tensorflow-cpu 2.21.0 made the committed models.)
"""
import os
import sys

import numpy as np
import tensorflow as tf


def seeded(layer, rng):
    layer.set_weights([(rng.standard_normal(w.shape) * 0.5).astype(np.float32) for w in layer.get_weights()])


def convert_keras(model):
    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    return conv.convert()


def convert_fn(fn, spec):
    f = tf.function(fn, input_signature=[spec])
    conv = tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()])
    return conv.convert()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(28)

    x = tf.keras.Input(shape=(3, 2), batch_size=1)
    gru = tf.keras.layers.GRU(4, unroll=False)
    m = tf.keras.Model(x, gru(x))
    seeded(gru, rng)
    models = {"cf_gru": convert_keras(m)}

    x = tf.keras.Input(shape=(3, 2), batch_size=1)
    rnn = tf.keras.layers.RNN(tf.keras.layers.LSTMCell(4), unroll=False)
    m = tf.keras.Model(x, rnn(x))
    seeded(rnn, rng)
    models["cf_lstm_cell"] = convert_keras(m)

    def while_loop(x):
        i = tf.constant(0)
        _, y = tf.while_loop(lambda i, y: i < 5, lambda i, y: (i + 1, 0.5 * y + 1.0), (i, x))
        return y

    models["cf_while_loop"] = convert_fn(while_loop, tf.TensorSpec([1, 4], tf.float32))

    def cond(x):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.nn.relu(x) * 2.0, lambda: x - 1.0)

    models["cf_cond"] = convert_fn(cond, tf.TensorSpec([1, 4], tf.float32))

    for name, raw in models.items():
        with open(os.path.join(out, name + ".tflite"), "wb") as f:
            f.write(raw)
        print(name, len(raw))


if __name__ == "__main__":
    main()
