#!/usr/bin/env python3
"""Checks tests/op_coverage/types.rs's TFLM_TYPES against TFLite Micro's PyPI release.

    TFLC_DUMP_TYPE_MODELS=/tmp/types cargo test -p tflc-tests --test op_coverage
    python3 tools/op_type_check.py /tmp/types

Runs every probe model `<OP>_<type>.tflite` (one per builtin and int8 / int16 / float32) in
TFLite Micro's interpreter on inputs filled with 10 (int8, int16; bool true), 1 (int32: the
indices of EMBEDDING_LOOKUP) or 1.5 (floats), so
that no value is outside an operator's domain (RSQRT below the zero point, a zero divisor), and prints `OP type ok` or `OP type fails:
<message>`: which (operator, type) pairs the release runs.
pip install numpy tflite-micro
"""
import pathlib
import sys

import numpy as np


def main():
    from tflite_micro.python.tflite_micro import runtime
    for p in sorted(pathlib.Path(sys.argv[1]).glob("*.tflite")):
        op, ty = p.stem.rsplit("_", 1)
        try:
            it = runtime.Interpreter.from_bytes(p.read_bytes(), arena_size=1 << 20)
            i = 0
            while True:
                try:
                    d = it.get_input_details(i)
                except Exception:
                    break
                fill = 1.5 if np.issubdtype(d["dtype"], np.floating) else 1 if d["dtype"] == np.int32 else 10
                it.set_input(np.full(d["shape"], fill).astype(d["dtype"]), i)
                i += 1
            it.invoke()
            print(f"{op} {ty} ok")
        except Exception as e:  # noqa: BLE001 - the failure is the answer
            print(f"{op} {ty} fails: {str(e).splitlines()[-1] if str(e) else type(e).__name__}")


if __name__ == "__main__":
    main()
