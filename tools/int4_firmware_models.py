#!/usr/bin/env python3
"""int4-filter variants of int8 models, for tflc's int4 firmware measurements (issue 30,
point 4): every int8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED filter is re-quantized to
TFLite's INT4 tensor type, the rest of the model unchanged.

The corpus has no float kws or ad, so the converter and ai-edge-quantizer cannot make these
from a float model; this script re-quantizes the int8 model's own filters instead, the way
a symmetric int4 quantizer would have from the dequantized weights:

- per quantization block (an output channel for a per-channel filter: axis 0 for CONV_2D,
  3 for DEPTHWISE_CONV_2D; the whole tensor for a per-tensor one), with m = max |q| of the
  int8 values, each value becomes q4 = round(q * 7 / m) in -7..=7 (round half away from
  zero, as TFLite's quantizer rounds) and the block's scale s * m / 7, zero point 0;
- the int32 bias is re-derived for bias_scale = input_scale * filter_scale: b4 = round(b *
  7 / m), its scales the old ones times m / 7 (TFLite Micro reads only the filter's, but the
  file stays consistent);
- the filter's buffer holds TFLite's packing: two values a byte, element 2k in the low
  nibble, two's complement, an odd count's last high nibble 0.

TFLite Micro (the PyPI interpreter) runs int4 filters for all three operators, with
per-channel CONV_2D and DEPTHWISE_CONV_2D filters and per-tensor FULLY_CONNECTED ones (it
refuses per-channel int4 FULLY_CONNECTED filters); the corpus's FULLY_CONNECTED filters are
per-tensor already, so every filter of kws and ad becomes int4.

    python3 tools/int4_firmware_models.py quantize IN.tflite OUT_DIR          # OUT_DIR/<stem>_int4.tflite
    python3 tools/int4_firmware_models.py run MODEL.tflite INPUT.bin          # TFLite Micro's output 0
    python3 tools/int4_firmware_models.py golden MODEL.tflite INPUT.bin DIR   # golden run 0

`golden` writes TFLite Micro's run 0 as the firmware reads golden data (DIR/index.json,
run0_in0.bin, run0_out0.bin), for `examples/firmware/run.sh` with a TFLC_SHARED whose
models/ and golden/ hold the model (see docs/KERNELS.md, "int4 filters kept packed").

Deterministic: no randomness, so the same input model gives the same bytes. Needs `pip
install numpy flatbuffers tflite-micro` (the December 2026 wheel made the figures in
docs/KERNELS.md). Write the models outside the repository (a temp dir or `target/`): the
corpus stays in ../shared.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lut_compressed_models as lut  # noqa: E402  (upgrade_opcodes, run, golden)


def round_away(x):
    """TFLite's rounding (std::round): half away from zero."""
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def pack_int4(values):
    """TFLite's INT4 packing of `values` (each in -8..=7): element 2k in the low nibble of
    byte k, element 2k+1 in its high nibble."""
    v = (values.astype(np.int16).ravel() & 0xF).astype(np.uint8)
    if len(v) % 2:
        v = np.append(v, np.uint8(0))
    return (v[0::2] | (v[1::2] << 4)).astype(np.uint8)


def requantize(q, axis):
    """int8 `q` re-quantized to -7..=7 per block along `axis` (None: one block): the int4
    values and each block's factor m / 7 (1 for an all-zero block)."""
    moved = q.astype(np.int64) if axis is None else np.moveaxis(q.astype(np.int64), axis, 0)
    blocks = moved.reshape(1 if axis is None else moved.shape[0], -1)
    m = np.abs(blocks).max(axis=1)
    m = np.where(m == 0, 7, m)
    q4 = np.clip(round_away(blocks * 7.0 / m[:, None]), -7, 7).astype(np.int8).reshape(moved.shape)
    if axis is not None:
        q4 = np.moveaxis(q4, 0, axis)
    return q4, m / 7.0


def quantize_model(src, out_dir):
    import flatbuffers
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as tflite

    with open(src, "rb") as f:
        raw = lut.upgrade_opcodes(f.read())
    m = tflite.ModelT.InitFromObj(tflite.Model.GetRootAs(raw, 0))
    axes = {tflite.BuiltinOperator.CONV_2D: 0, tflite.BuiltinOperator.DEPTHWISE_CONV_2D: 3, tflite.BuiltinOperator.FULLY_CONNECTED: 0}
    # Buffers more than one tensor names are not rewritten in place.
    refs = {}
    for sg in m.subgraphs:
        for t in sg.tensors:
            refs[t.buffer] = refs.get(t.buffer, 0) + 1

    def set_data(t, data):
        if refs.get(t.buffer, 0) != 1:
            m.buffers.append(tflite.BufferT())
            t.buffer = len(m.buffers) - 1
            refs[t.buffer] = 1
        m.buffers[t.buffer].data = np.frombuffer(bytes(data), dtype=np.uint8)

    done = set()
    int8_bytes = int4_bytes = 0
    for s, sg in enumerate(m.subgraphs):
        for i, op in enumerate(sg.operators):
            axis = axes.get(m.operatorCodes[op.opcodeIndex].builtinCode)
            if axis is None or len(op.inputs) < 2 or op.inputs[1] < 0:
                continue
            inp, w = sg.tensors[op.inputs[0]], sg.tensors[op.inputs[1]]
            data = m.buffers[w.buffer].data
            if inp.type != tflite.TensorType.INT8 or w.type != tflite.TensorType.INT8 or data is None or len(data) == 0:
                continue
            if (s, op.inputs[1]) in done:
                continue
            q = w.quantization
            if q is None or q.scale is None or len(q.scale) == 0:
                raise SystemExit(f"op {i}: filter t{op.inputs[1]} has no quantization scales")
            scales = np.asarray(q.scale, dtype=np.float64)
            zps = np.asarray(q.zeroPoint if q.zeroPoint is not None else [0])
            if np.any(zps != 0):
                raise SystemExit(f"op {i}: filter t{op.inputs[1]} has non-zero zero points: not a symmetric int8 filter")
            shape = tuple(int(d) for d in w.shape)
            values = np.frombuffer(bytes(data), dtype=np.int8).reshape(shape)
            per_channel = len(scales) > 1
            if per_channel and q.quantizedDimension != axis:
                raise SystemExit(f"op {i}: filter t{op.inputs[1]} is per-channel along {q.quantizedDimension}, expected {axis}")
            q4, factor = requantize(values, axis if per_channel else None)
            w.type = tflite.TensorType.INT4
            q.scale = (scales * factor).astype(np.float32).tolist()
            q.zeroPoint = [0] * len(q.scale)
            set_data(w, pack_int4(q4))
            int8_bytes += values.size
            int4_bytes += (values.size + 1) // 2
            done.add((s, op.inputs[1]))
            if len(op.inputs) > 2 and op.inputs[2] >= 0:
                b = sg.tensors[op.inputs[2]]
                bdata = m.buffers[b.buffer].data
                if b.type != tflite.TensorType.INT32 or bdata is None or len(bdata) == 0:
                    raise SystemExit(f"op {i}: bias t{op.inputs[2]} is not a constant int32 tensor")
                bias = np.frombuffer(bytes(bdata), dtype=np.int32).astype(np.float64)
                new = np.clip(round_away(bias / np.broadcast_to(factor, bias.shape)), -(1 << 31), (1 << 31) - 1).astype(np.int32)
                bq = b.quantization
                if bq is not None and bq.scale is not None and len(bq.scale):
                    bq.scale = (np.asarray(bq.scale, dtype=np.float64) * np.broadcast_to(factor, (len(bq.scale),))).astype(np.float32).tolist()
                set_data(b, new.tobytes())
    b = flatbuffers.Builder(len(raw) + 1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    out = bytes(b.Output())
    stem = os.path.splitext(os.path.basename(src))[0]
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{stem}_int4.tflite")
    with open(path, "wb") as f:
        f.write(out)
    print(f"{path}: {len(done)} filters, {int8_bytes} bytes int8, {int4_bytes} bytes int4; file {len(out)} bytes (int8 model {len(raw)})")


def main(argv):
    if len(argv) == 4 and argv[1] == "quantize":
        quantize_model(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "run":
        lut.run(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "golden":
        lut.golden(argv[2], argv[3], argv[4], "TFLite Micro interpreter (PyPI tflite-micro), reference kernels, int4 filters")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
