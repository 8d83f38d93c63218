#!/usr/bin/env python3
"""Expected outputs of the converter-made control-flow models
(`tools/control_flow_converter_models.py`), from TFLite Micro and TFLite.

    python3 tools/control_flow_vectors.py compiler/tests/data/control_flow

Each `<name>.tflite` runs on the input `x[i] = ((i * 37) % 17 - 8) / 8` (float32, every
input in order) in TFLite Micro's interpreter (pip tflite-micro) and in TFLite's reference
kernels (ai-edge-litert, BUILTIN_REF); prints output 0 of each as float32 bit patterns, a
`("name", "tflm" | "litert", &[..]),` Rust literal, or the error that stopped the
interpreter as a comment.
pip install numpy tflite-micro ai-edge-litert
"""
import pathlib
import sys

import numpy as np


def inputs_of(shapes):
    out = []
    for s in shapes:
        n = int(np.prod(s))
        out.append(np.array([((i * 37) % 17 - 8) / 8 for i in range(n)], dtype=np.float32).reshape(s))
    return out


def litert(raw):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    it = Interpreter(model_content=raw, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    ins = inputs_of([d["shape"] for d in it.get_input_details()])
    for d, x in zip(it.get_input_details(), ins):
        it.set_tensor(d["index"], x)
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"]), ins


def tflm(raw, ins):
    from tflite_micro.python.tflite_micro import runtime
    it = runtime.Interpreter.from_bytes(raw, arena_size=1 << 20)
    for i, x in enumerate(ins):
        it.set_input(x, i)
    it.invoke()
    return np.asarray(it.get_output(0))


def bits(a):
    return ", ".join(str(int(v)) for v in np.asarray(a, dtype=np.float32).view(np.uint32).ravel())


def main():
    for p in sorted(pathlib.Path(sys.argv[1]).glob("*.tflite")):
        raw = p.read_bytes()
        ref, ins = litert(raw)
        try:
            print(f'    ("{p.stem}", "tflm", &[{bits(tflm(raw, ins))}]),')
        except Exception as e:  # noqa: BLE001 - report what stopped TFLite Micro
            print(f"    // {p.stem}: TFLite Micro: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
        print(f'    ("{p.stem}", "litert", &[{bits(ref)}]),')


if __name__ == "__main__":
    main()
