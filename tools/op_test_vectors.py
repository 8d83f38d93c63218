#!/usr/bin/env python3
"""Expected outputs for the per-op unit tests, from the pip reference interpreters.

    TFLC_DUMP_OP_MODELS=/tmp/opdump cargo test -p tflc --lib lower::ops
    python3 tools/op_test_vectors.py /tmp/opdump [name-prefix]

Every `<name>.tflite` (with `<name>.in<i>.bin` inputs, written by the tests' `run_op0`)
runs in TFLite Micro's interpreter (reference kernels), or in TFLite's reference kernels
(ai-edge-litert, BUILTIN_REF) when the name ends in `_litert`, for the ops TFLite Micro
lacks or gets wrong (RELU_N1_TO_1, requantizing RELU6). Prints output 0 as a Rust
literal. With `--bits` (first argument) float32 outputs print as their bit patterns
(`u32` as integers: NaN and infinities included, exact) and every output as a
`("name", &[..]),` entry. A model dumped with several steps (`<name>.s<k>.in<i>.bin`,
written by the stateful signal ops' tests) runs them as consecutive invokes of one
TFLite Micro interpreter, so state carries over, and prints every output of every step
(`<name> step k output i`) after its status (`<name> step k status s`: what `invoke()`
returned, 0 for kTfLiteOk, kTfLiteAbort's value when an operator such as CIRCULAR_BUFFER
ended the invoke early; the outputs after such an operator are not this step's).
pip install numpy tflite-micro ai-edge-litert
"""
import sys, pathlib
import numpy as np

def run_tflm(raw, inputs):
    from tflite_micro.python.tflite_micro import runtime
    it = runtime.Interpreter.from_bytes(raw, arena_size=1 << 24)
    for i, x in enumerate(inputs):
        it.set_input(x, i)
    it.invoke()
    outs = []
    while True:  # every output (the Python binding does not give their count)
        try:
            outs.append(np.asarray(it.get_output(len(outs))))
        except Exception:
            return outs

def run_tflm_steps(raw, steps):
    from tflite_micro.python.tflite_micro import runtime
    it = runtime.Interpreter.from_bytes(raw, arena_size=1 << 24)
    out = []
    for inputs in steps:
        for i, x in enumerate(inputs):
            it.set_input(x, i)
        status = it.invoke()
        outs = []
        while True:
            try:
                outs.append(np.asarray(it.get_output(len(outs))).copy())
            except Exception:
                break
        out.append([status] + outs)
    return out

def run_litert(raw, inputs):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    it = Interpreter(model_content=raw, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    for d, x in zip(it.get_input_details(), inputs):
        it.set_tensor(d["index"], x)
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]

def input_specs(raw):
    # dtype and shape of each subgraph input, from a TFLite interpreter that only allocates;
    # TFLite Micro's own when TFLite cannot resolve the model's ops (the signal library's
    # custom ops are registered only in TFLite Micro).
    try:
        from ai_edge_litert.interpreter import Interpreter
        it = Interpreter(model_content=raw)
        return [(d["dtype"], tuple(d["shape"])) for d in it.get_input_details()]
    except (RuntimeError, ValueError):
        from tflite_micro.python.tflite_micro import runtime
        it = runtime.Interpreter.from_bytes(raw, arena_size=1 << 24)
        specs, i = [], 0
        while True:
            try:
                d = it.get_input_details(i)
            except Exception:
                return specs
            specs.append((d["dtype"], tuple(d["shape"])))
            i += 1

def main():
    args = sys.argv[1:]
    bits = bool(args) and args[0] == "--bits"
    if bits:
        args = args[1:]
    d = pathlib.Path(args[0])
    prefix = args[1] if len(args) > 1 else ""
    for m in sorted(d.glob(prefix + "*.tflite")):
        raw = m.read_bytes()
        specs = input_specs(raw)
        if (d / f"{m.stem}.s0.in0.bin").exists():
            steps, k = [], 0
            while (d / f"{m.stem}.s{k}.in0.bin").exists():
                steps.append([np.frombuffer((d / f"{m.stem}.s{k}.in{i}.bin").read_bytes(), dtype=dt).reshape(shape)
                              for i, (dt, shape) in enumerate(specs)])
                k += 1
            for k, (status, *outs) in enumerate(run_tflm_steps(raw, steps)):
                print(f"{m.stem} step {k} status {status}")
                for i, o in enumerate(outs):
                    if o.dtype == np.float32:
                        o = o.view(np.uint32)
                    print(f"{m.stem} step {k} output {i}: &[{', '.join(str(int(v)) for v in o.flatten().tolist())}],")
            continue
        inputs = []
        for i, (dt, shape) in enumerate(specs):
            b = (d / f"{m.stem}.in{i}.bin").read_bytes()
            inputs.append(np.frombuffer(b, dtype=dt).reshape(shape))
        y = (run_litert if m.stem.endswith("_litert") else run_tflm)(raw, inputs)
        # Output 0, then (models with several outputs: control flow) every further one.
        for i, o in enumerate(y):
            o = np.asarray(o)
            if bits:
                if o.dtype == np.float32:
                    o = o.view(np.uint32)
                name = m.stem if i == 0 else f"{m.stem}.out{i}"
                print(f'    ("{name}", &[{", ".join(str(v) for v in o.flatten().tolist())}]),')
                continue
            tag = "" if i == 0 else f" output {i}"
            print(f"{m.stem}{tag}: &[{', '.join(str(v) for v in o.flatten().tolist())}],")

main()
