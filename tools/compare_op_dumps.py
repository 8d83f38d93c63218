#!/usr/bin/env python3
"""Compares the data-movement op tests' results with TFLite Micro.

    TFLC_DUMP_OP_MODELS=/tmp/opdump cargo test -p tflc --lib lower::ops
    python3 tools/compare_op_dumps.py /tmp/opdump

The tests' `movement::testing::run_op0` writes `<test>_<n>.tflite`, its graph inputs
(`.in<i>.bin`) and tflc's outputs (`.out<k>.bin`); this runs each model in the pip
TFLite Micro interpreter (reference kernels) and reports every output that differs.
Models TFLite Micro refuses (rank above its limits, empty tensors) are listed as ERR.
pip install numpy tflite-micro ai-edge-litert
"""
import sys, pathlib, numpy as np
from tflite_micro.python.tflite_micro import runtime
from ai_edge_litert.interpreter import Interpreter
d = pathlib.Path(sys.argv[1])
ok = bad = err = 0
for m in sorted(d.glob("*.tflite")):
    if not (d / f"{m.stem}.out0.bin").exists():
        continue
    raw = m.read_bytes()
    try:
        li = Interpreter(model_content=raw)
        ins = li.get_input_details(); outs = li.get_output_details()
        it = runtime.Interpreter.from_bytes(raw, arena_size=1 << 22)
        for i, dd in enumerate(ins):
            f = d / f"{m.stem}.in{i}.bin"
            x = np.frombuffer(f.read_bytes(), dtype=dd["dtype"]).reshape(dd["shape"])
            it.set_input(x, i)
        it.invoke()
        for k, od in enumerate(outs):
            got = np.asarray(it.get_output(k)).astype(od["dtype"]).tobytes()
            ours = (d / f"{m.stem}.out{k}.bin").read_bytes()
            if got != ours:
                bad += 1
                print("DIFF", m.stem, k, np.frombuffer(got, od["dtype"])[:20], np.frombuffer(ours, od["dtype"])[:20])
            else:
                ok += 1
    except Exception as e:
        err += 1
        print("ERR", m.stem, str(e).splitlines()[0][:150])
print("ok", ok, "diff", bad, "err", err)
