#!/usr/bin/env python3
"""Runs one model through TFLite's default CPU path (XNNPACK, one thread) exactly 1 + N times,
with all-zero inputs, and exits: the XNNPACK side of host_bench --callgrind, which counts the
instructions of one inference as (count(N) - count(0)) / N under `valgrind --tool=callgrind`
(where the CPU shows AVX2 and no AVX-512, so XNNPACK picks its AVX2 kernels, as tflc does).

    python3 tools/xnnpack_runs.py MODEL.tflite N

Needs: pip install numpy ai-edge-litert."""
import os
import sys

import numpy as np
from ai_edge_litert import interpreter as L


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    it = L.Interpreter(model_path=path, num_threads=1)
    it.allocate_tensors()
    for d in it.get_input_details():
        it.set_tensor(d["index"], np.zeros(d["shape"], d["dtype"]))
    it.invoke()
    for _ in range(n):
        it.invoke()
    # Leave without the interpreter's teardown (XNNPACK's operator deletion aborts on some
    # models after they ran); the count stops here either way.
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
