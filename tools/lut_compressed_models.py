#!/usr/bin/env python3
"""TFLite Micro LUT-compressed variants of int8 models, for tflc's compressed-weight
measurements (issue 30): every CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED int8 filter is
clustered to at most 2^BITS values per output channel (1-D k-means on the int8 values,
seeded by quantiles, deterministic), then TFLite Micro's own compression library
(`tflite_micro.tensorflow.lite.micro.compression.compress`) writes it in TFLM_DECODE LUT
form (per-channel value tables on the filter's quantized axis: 0 for CONV_2D and
FULLY_CONNECTED, 3 for DEPTHWISE_CONV_2D).

    python3 tools/lut_compressed_models.py compress IN.tflite OUT_DIR [BITS]   # default 4
    python3 tools/lut_compressed_models.py run MODEL.tflite INPUT.bin          # TFLite Micro
    python3 tools/lut_compressed_models.py golden MODEL.tflite INPUT.bin DIR   # golden run 0

`compress` writes OUT_DIR/<stem>_lut<BITS>.tflite (the compressed model) and
OUT_DIR/<stem>_clustered.tflite (the same clustered weights uncompressed: the int8 twin with
the same outputs) and prints the filter bytes of each. `run` prints TFLite Micro's output 0
(int8) for a raw int8 input file, to compare with `tflc run`. `golden` writes TFLite Micro's
run 0 as the firmware reads golden data (DIR/index.json, run0_in0.bin, run0_out0.bin), for
`examples/firmware/run.sh` with a TFLC_SHARED whose models/ and golden/ hold the model.

Needs `pip install numpy tflite-micro` (the December 2026 wheel has the compression
library). Write the models outside the repository (a temp dir or `target/`): the corpus
stays in ../shared.
"""
import os
import sys

import numpy as np


def _editor():
    from tflite_micro.tensorflow.lite.micro.compression import model_editor
    return model_editor


def cluster(values, k):
    """`values` (int8) mapped to at most `k` int8 centroids: Lloyd's 1-D k-means from the
    quantiles, centroids rounded to integers, 20 rounds."""
    v = values.astype(np.float64).ravel()
    uniq = np.unique(v)
    if len(uniq) <= k:
        return values.copy()
    cent = np.unique(np.round(np.quantile(v, (np.arange(k) + 0.5) / k)))
    for _ in range(20):
        idx = np.argmin(np.abs(v[:, None] - cent[None, :]), axis=1)
        new = np.array([np.round(v[idx == j].mean()) if np.any(idx == j) else cent[j] for j in range(len(cent))])
        new = np.unique(new)
        if len(new) == len(cent) and np.all(new == cent):
            break
        cent = new
    idx = np.argmin(np.abs(v[:, None] - cent[None, :]), axis=1)
    return np.clip(cent[idx], -128, 127).astype(np.int8).reshape(values.shape)


def upgrade_opcodes(raw):
    """`raw` with every operator code's `builtin_code` set from `deprecated_builtin_code`
    where only the latter is set (files written before schema 3a, like the MLPerf Tiny
    models): the compression library's model editor reads `builtin_code` only and would
    otherwise turn every operator into ADD."""
    import flatbuffers
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as tflite

    m = tflite.ModelT.InitFromObj(tflite.Model.GetRootAs(raw, 0))
    for c in m.operatorCodes:
        if c.builtinCode == 0 and c.deprecatedBuiltinCode not in (0, tflite.BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES):
            c.builtinCode = c.deprecatedBuiltinCode
    b = flatbuffers.Builder(len(raw) + 1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def compress_model(src, out_dir, bits):
    import importlib
    from tflite_micro.tensorflow.lite.micro.compression import spec
    # The package re-exports the function `compress` under the module's name.
    compress = importlib.import_module("tflite_micro.tensorflow.lite.micro.compression.compress")
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as tflite

    me = _editor()
    with open(src, "rb") as f:
        model = me.read(upgrade_opcodes(f.read()))
    axes = {tflite.BuiltinOperator.CONV_2D: 0, tflite.BuiltinOperator.DEPTHWISE_CONV_2D: 3, tflite.BuiltinOperator.FULLY_CONNECTED: 0}
    specs = []
    filter_bytes = 0
    seen = set()
    for s, sg in enumerate(model.subgraphs):
        for op in sg.operators:
            axis = axes.get(op.opcode)
            if axis is None or len(op.inputs) < 2 or op.inputs[1] is None:
                continue
            w = op.inputs[1]
            if w.dtype != tflite.TensorType.INT8 or w.array is None or (s, w.index) in seen:
                continue
            seen.add((s, w.index))
            a = w.array
            q = w.quantization
            scales = [] if q is None or q.scales is None else (q.scales if isinstance(q.scales, (list, tuple, np.ndarray)) else [q.scales])
            if len(scales) > 1:
                moved = np.moveaxis(a, axis, 0)
                out = np.stack([cluster(moved[c], 1 << bits) for c in range(moved.shape[0])])
                w.array = np.ascontiguousarray(np.moveaxis(out, 0, axis))
                mode = spec.PerChannel(axis=axis)
            else:
                # One scale: TFLite Micro's DECODE reads one table (its channel count comes
                # from the quantization), so the filter gets one table too.
                w.array = cluster(a, 1 << bits)
                mode = spec.PerTensor()
            filter_bytes += a.size
            specs.append(spec.Tensor(subgraph=s, tensor=w.index, compression=[spec.LookUpTableCompression(index_bitwidth=bits, mode=mode)]))
    clustered = bytes(model.build())
    stem = os.path.splitext(os.path.basename(src))[0]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, f"{stem}_clustered.tflite"), "wb") as f:
        f.write(clustered)
    compressed = bytes(compress.compress(clustered, specs))
    out = os.path.join(out_dir, f"{stem}_lut{bits}.tflite")
    with open(out, "wb") as f:
        f.write(compressed)
    # What the compressed file stores for the filters: TFLM_DECODE's inputs.
    cm = me.read(compressed)
    stored = 0
    for sg in cm.subgraphs:
        for op in sg.operators:
            if op.custom_code == "TFLM_DECODE":
                stored += sum(len(t.buffer.data) for t in op.inputs if t is not None and t.buffer is not None)
    print(f"{out}: {len(specs)} filters, {filter_bytes} bytes int8, {stored} bytes compressed (encoded + ancillary); file {len(compressed)} bytes (clustered int8 twin {len(clustered)})")


def run(model_path, input_path):
    from tflite_micro.python.tflite_micro import runtime

    interp = runtime.Interpreter.from_file(model_path)
    x = np.fromfile(input_path, dtype=np.int8)
    d = interp.get_input_details(0)
    interp.set_input(x.reshape(d["shape"]).astype(d["dtype"]), 0)
    interp.invoke()
    print(" ".join(str(v) for v in interp.get_output(0).ravel().tolist()))


def golden(model_path, input_path, out_dir, oracle="TFLite Micro interpreter (PyPI tflite-micro), reference kernels, TFLM_DECODE"):
    import json
    from tflite_micro.python.tflite_micro import runtime

    interp = runtime.Interpreter.from_file(model_path)
    x = np.fromfile(input_path, dtype=np.int8)
    d = interp.get_input_details(0)
    interp.set_input(x.reshape(d["shape"]).astype(d["dtype"]), 0)
    interp.invoke()
    y = interp.get_output(0)
    os.makedirs(out_dir, exist_ok=True)
    x.tofile(os.path.join(out_dir, "run0_in0.bin"))
    y.astype(np.int8).tofile(os.path.join(out_dir, "run0_out0.bin"))
    index = {
        "model": os.path.basename(model_path),
        "oracle": oracle,
        "runs": [{"inputs": [{"file": "run0_in0.bin", "dtype": "int8", "shape": [int(v) for v in d["shape"]]}],
                  "outputs": [{"file": "run0_out0.bin", "dtype": "int8", "shape": [int(v) for v in y.shape]}]}],
    }
    with open(os.path.join(out_dir, "index.json"), "w") as f:
        json.dump(index, f, indent=1)
    print(" ".join(str(v) for v in y.ravel().tolist()))


def main(argv):
    if len(argv) >= 4 and argv[1] == "compress":
        compress_model(argv[2], argv[3], int(argv[4]) if len(argv) > 4 else 4)
    elif len(argv) == 4 and argv[1] == "run":
        run(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "golden":
        golden(argv[2], argv[3], argv[4])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
