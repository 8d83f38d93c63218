#!/usr/bin/env python3
"""Reference values for tflc's sparse-tensor tests, from TFLite's DENSIFY kernel.

    TFLC_DUMP_SPARSE_MODELS=/tmp/sparse cargo test -p tflc --lib densify::tests
    python3 tools/sparse_vectors.py /tmp/sparse              # builder models
    python3 tools/sparse_vectors.py --converter DIR          # tools/sparse_converter_models.py's

Runs every `DIR/*.tflite` in ai-edge-litert (TFLite's reference kernels, every tensor
preserved) and prints, per model, what `compiler/src/lower/ops/densify.rs` compares with:
each DENSIFY output (the dense tensor TFLite's `FormatConverter<T>::SparseToDense` made) as a
Rust literal of exact bit patterns (float32 as u32 bits, float16 as u16 bits, integers as
values). With `--converter` each DENSIFY and DEQUANTIZE output (float16 weights widened) as
its byte count and the FNV-1a 64-bit hash of its little-endian bytes (thousands of weights
per tensor), and the model's output in full for the input `x[i] = ((i * 37) % 17 - 8) / 8`
(float32 bits).

pip install numpy ai-edge-litert
"""
import sys, pathlib
import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def bits(a):
    a = np.asarray(a).reshape(-1)
    if a.dtype == np.float32:
        a = a.view(np.uint32)
    elif a.dtype == np.float16:
        a = a.view(np.uint16)
    return ", ".join(str(int(v)) for v in a)


def fnv1a64(b):
    h = 0xcbf29ce484222325
    for x in b:
        h = ((h ^ x) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def run(path, converter):
    it = Interpreter(model_path=str(path), experimental_op_resolver_type=OpResolverType.BUILTIN_REF,
                     experimental_preserve_all_tensors=True)
    it.allocate_tensors()
    for d in it.get_input_details():
        n = int(np.prod(d["shape"]))
        x = np.array([((i * 37) % 17 - 8) / 8 for i in range(n)], dtype=np.float32).astype(d["dtype"])
        it.set_tensor(d["index"], x.reshape(d["shape"]))
    it.invoke()
    name = path.stem
    wanted = ("DENSIFY", "DEQUANTIZE") if converter else ("DENSIFY",)
    for op in it._get_ops_details():
        if op["op_name"] in wanted:
            t = int(op["outputs"][0])
            v = it.get_tensor(t)
            if converter:
                b = np.ascontiguousarray(v).astype(v.dtype.newbyteorder("<")).tobytes()
                print(f'    ("{name}", {t}, {len(b)}, 0x{fnv1a64(b):016x}),')
            else:
                print(f'    ("{name}", {t}, &[{bits(v)}]),')
    if converter:
        for d in it.get_output_details():
            print(f'    ("{name} output", {d["index"]}, &[{bits(it.get_tensor(d["index"]))}]),')


def main():
    args = sys.argv[1:]
    converter = "--converter" in args
    args = [a for a in args if a != "--converter"]
    for path in sorted(pathlib.Path(args[0]).glob("*.tflite")):
        run(path, converter)


if __name__ == "__main__":
    main()
