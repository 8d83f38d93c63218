#!/usr/bin/env bash
# Builds the firmware for each model, runs it under QEMU (Cortex-M4F, mps2-an386) with the
# instruction-count plugin, and prints a table against TFLite Micro's figures.
#
# Usage: examples/firmware/run.sh [--self-test] [model ...]
#   Models: arguments, else $FIRMWARE_MODELS (space or comma separated), else the models
#   issue 6 requires. Any model of ../shared/models or ../shared/ops/models with golden data
#   works (the ones listed as features in Cargo.toml are cached per model).
#   --self-test: first check that the firmware does fail: run a model against a golden output
#   with one flipped byte and require a reported mismatch and QEMU exit status 1.
# Environment:
#   TFLC_SHARED       shared data directory (default: <repo>/../shared)
#   FIRMWARE_TIMEOUT  seconds allowed per QEMU run (default 600)
#   FIRMWARE_PROF     N: also print the N functions that executed the most instructions
#   CARGO_TARGET_DIR  as for cargo (default: examples/firmware/target)
# Exit status: 0 only if every selected model compiled, ran and matched its golden output
# byte for byte (and the self-test, when asked, saw its mismatch); 1 otherwise; 2 when a
# tool or ../shared is missing (install-tools.sh installs the tools).
# Installs nothing. Outputs: <target>/firmware/<model>.{elf,log}, <target>/firmware/results.md.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
shared="${TFLC_SHARED:-$repo/../shared}"
timeout_s="${FIRMWARE_TIMEOUT:-600}"
required_models="mlperf_kws_dscnn_int8 mlperf_vww_mobilenet_int8 mlperf_ic_resnet8_int8 mlperf_ad_autoencoder_int8 tflm_person_detect_int8 tflm_micro_speech_int8 tflm_hello_world_int8"

self_test=0
if [ "${1:-}" = --self-test ]; then
    self_test=1
    shift
fi
if (($#)); then
    models="$*"
else
    models="${FIRMWARE_MODELS:-$required_models}"
fi
models="${models//,/ }"

# --- tools ---------------------------------------------------------------------------------
missing=()
for t in cargo rustc qemu-system-arm arm-none-eabi-size gcc timeout python3; do
    command -v "$t" >/dev/null 2>&1 || missing+=("$t")
done
if command -v rustc >/dev/null 2>&1; then
    libdir="$(rustc --print target-libdir --target thumbv7em-none-eabihf 2>/dev/null || true)"
    [ -n "$libdir" ] && [ -d "$libdir" ] || missing+=("rust target thumbv7em-none-eabihf")
fi
if ((${#missing[@]})); then
    echo "error: run.sh needs: ${missing[*]}" >&2
    echo "  install them with examples/firmware/install-tools.sh (rustup target add thumbv7em-none-eabihf;" >&2
    echo "  apt-get install qemu-system-arm binutils-arm-none-eabi gcc; python3 for the table)" >&2
    exit 2
fi
plugin_src="$shared/tools/qemu-insncount/insncount.c"
if [ ! -f "$plugin_src" ]; then
    echo "error: $plugin_src not found: set TFLC_SHARED to the shared data directory" >&2
    exit 2
fi

target_dir="${CARGO_TARGET_DIR:-$here/target}"
out="$target_dir/firmware"
mkdir -p "$out"
plugin="$target_dir/insncount/libinsncount.so"
mkdir -p "$(dirname "$plugin")"
if [ ! -f "$plugin" ] || [ "$plugin_src" -nt "$plugin" ]; then
    gcc -shared -fPIC -O2 -fvisibility=hidden -o "$plugin" "$plugin_src" || { echo "error: cannot build the QEMU plugin" >&2; exit 2; }
fi
plugin_arg="$plugin"
[ -n "${FIRMWARE_PROF:-}" ] && plugin_arg="$plugin,prof=$FIRMWARE_PROF"

# Models with a cargo feature build with --features (one cached artifact per model);
# others through TFLC_FW_MODEL.
features="$(sed -n '/^\[features\]/,/^\[/p' "$here/Cargo.toml" | sed -n 's/^\([a-z0-9_]*\) = \[\]$/\1/p')"

qemu() { # qemu ELF LOG: runs the firmware with the plugin under timeout; QEMU's status
    timeout "$timeout_s" qemu-system-arm -cpu cortex-m4 -machine mps2-an386 -nographic \
        -semihosting-config enable=on,target=native -icount shift=0 \
        -plugin "$plugin_arg" -kernel "$1" >"$2" 2>&1 </dev/null
}

if ((self_test)); then
    # A copy of one single-op model's data with byte 0 of the golden output flipped.
    st_model=op_conv_1x1_relu6
    st="$out/self-test-shared"
    rm -rf "$st" && mkdir -p "$st/ops/models" "$st/ops/golden"
    cp "$shared/ops/models/$st_model.tflite" "$st/ops/models/" &&
        cp -r "$shared/ops/golden/$st_model" "$st/ops/golden/" &&
        python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[0] ^= 1; open(p, "wb").write(b)' \
            "$st/ops/golden/$st_model/run0_out0.bin" ||
        { echo "error: self-test: cannot prepare $st" >&2; exit 2; }
    echo "== self-test: $st_model against a corrupted golden output (must be reported)" >&2
    if ! (cd "$here" && TFLC_SHARED="$st" TFLC_FW_MODEL=$st_model cargo build --release --quiet) >"$out/self-test.log" 2>&1; then
        echo "error: self-test: the firmware does not build, see $out/self-test.log" >&2
        exit 1
    fi
    qemu "$target_dir/thumbv7em-none-eabihf/release/tflc-firmware" "$out/self-test.run"
    rc=$?
    if [ "$rc" != 1 ] || ! grep -q '^tflc-fw: .*result=mismatch .*first_at=0 ' "$out/self-test.run"; then
        echo "error: self-test failed: expected a mismatch at byte 0 and exit status 1, got status $rc:" >&2
        cat "$out/self-test.run" >&2
        exit 1
    fi
    echo "   ok: $(grep -m1 '^tflc-fw:' "$out/self-test.run") (exit 1)" >&2
fi

results="$out/results.tsv"
: >"$results"
export TFLC_SHARED="$shared"
for m in $models; do
    echo "== $m" >&2
    log="$out/$m.log"
    if grep -qx "$m" <<<"$features"; then
        build=(cargo build --release --quiet --features "$m")
        envm=""
    else
        build=(cargo build --release --quiet)
        envm="$m"
    fi
    if ! (cd "$here" && TFLC_FW_MODEL="$envm" "${build[@]}") >"$log" 2>&1; then
        # The compiler's reason, from include_model!'s error, else the build's first error.
        # include_model!'s message: a first line, then one indented line per failing op
        # ("op 3 (FULLY_CONNECTED): unsupported: ..."), summarised per distinct reason.
        reason="$(awk '
            /include_model!: / && !done { sub(/.*include_model!: [^:]*\.tflite: /, ""); first = $0; on = 1; next }
            on && /^ +op [0-9]+ \(/ {
                sub(/^ +op [0-9]+ \(/, ""); op = $0; sub(/\).*/, "", op); msg = substr($0, length(op) + 2)
                k = index(msg, "unsupported: "); if (k) msg = substr(msg, k); else sub(/^[^:]*: /, "", msg)
                if (!(msg in ops)) order[n++] = msg
                if (index(", " ops[msg] ", ", ", " op ", ") == 0) ops[msg] = ops[msg] (ops[msg] ? ", " : "") op
                next }
            on { on = 0; done = 1 }
            END {
                if (first == "") exit
                for (i = 0; i < n; i++) rest = rest (i ? "; " : " ") ops[order[i]] " (" order[i] ")"
                print first rest }' "$log")"
        [ -z "$reason" ] && reason="$(grep -m1 '^error' "$log")"
        printf '%s\tnot-compiled\t%s\n' "$m" "${reason:-build failed, see $log}" >>"$results"
        echo "   not yet supported: ${reason:-build failed, see $log}" >&2
        continue
    fi
    elf="$out/$m.elf"
    cp "$target_dir/thumbv7em-none-eabihf/release/tflc-firmware" "$elf"
    qemu "$elf" "$out/$m.run"
    rc=$?
    cat "$out/$m.run" >>"$log"
    line="$(grep -m1 '^tflc-fw:' "$out/$m.run")"
    insns="$(sed -n 's/^insncount: .*windows=1 .*per_window=\([0-9]*\).*/\1/p' "$out/$m.run")"
    stack="$(sed -n 's/.*stack_peak_bytes=\([0-9]*\).*/\1/p' <<<"$line")"
    arena="$(sed -n 's/.*arena_bytes=\([0-9]*\).*/\1/p' <<<"$line")"
    sizes="$(arm-none-eabi-size -A "$elf" | awk '
        $1==".vector_table"||$1==".text"||$1==".rodata"||$1==".data" {f+=$2}
        $1==".data"||$1==".bss"||$1==".uninit" {r+=$2}
        END {printf "%d\t%d", f, r}')"
    if [ "$rc" = 0 ] && grep -q 'result=match' <<<"$line" && [ -n "$insns" ]; then
        status=match
    elif [ "$rc" = 124 ]; then
        status="timeout after ${timeout_s}s"
    else
        status="$(sed -n 's/.*result=\([a-z]*\).*/\1/p' <<<"$line")"
        status="${status:-failed} (exit $rc)"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$m" "$status" "${insns:-}" "$sizes" "$arena" "${stack:-}" "${line:-}" >>"$results"
    echo "   $status ${line:-}" >&2
    [ -n "${FIRMWARE_PROF:-}" ] && grep '^insncount' "$out/$m.run" >&2
done

python3 - "$results" "$shared/baselines/tflm_m4.json" "$shared/baselines/tflm_memory.json" "$out/results.md" <<'PY'
import json, sys
res_path, m4_path, mem_path, md_path = sys.argv[1:5]
def load(p):
    try:
        with open(p) as f:
            return json.load(f).get("models", {})
    except (OSError, ValueError):
        return {}
m4, mem = load(m4_path), load(mem_path)
def ratio(a, b):
    return f"{a / b:.2f}x" if a is not None and b else "-"
def num(v):
    return f"{v:,}" if isinstance(v, int) else "-"
rows, failed = [], 0
for line in open(res_path):
    f = line.rstrip("\n").split("\t")
    name, status = f[0], f[1]
    if status == "not-compiled":
        rows.append([name, "not yet supported: " + f[2]] + [""] * 9)
        failed += 1
        continue
    if status != "match":
        failed += 1
    ints = [int(x) if x.isdigit() else None for x in f[2:7]]
    insns, flash, ram, arena, stack = ints
    ref = m4.get(name, {}).get("ref", {})
    cm = m4.get(name, {}).get("cmsis_nn", {})
    tm = mem.get(name, {})
    rows.append([
        name, status, num(insns),
        ratio(insns, ref.get("instructions_per_invoke")), ratio(insns, cm.get("instructions_per_invoke")),
        num(flash), ratio(flash, ref.get("flash_bytes")),
        num(ram), ratio(ram, ref.get("static_ram_bytes")),
        f"{num(arena)} ({ratio(arena, tm.get('tflm_total'))})",
        f"{num(stack)} ({num(ref.get('stack_peak_bytes'))})",
    ])
head = ["model", "result", "instructions", "vs TFLM ref", "vs TFLM CMSIS-NN", "flash B", "vs TFLM",
        "static RAM B", "vs TFLM", "arena B (vs TFLM arena)", "peak stack B (TFLM ref)"]
md = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
md += ["| " + " | ".join(r) + " |" for r in rows]
note = ("\nRatios are ours / TFLite Micro's (below 1.00x is better). TFLite Micro: tflm_m4.json "
        "(same QEMU board; instructions of one Invoke; flash = whole image; static RAM = .data+.bss "
        "with the smallest working arena) and tflm_memory.json (arena = tflm_total, head + tail). "
        "Ours: flash = .vector_table+.text+.rodata+.data, static RAM = .data+.bss+.uninit "
        "(includes the arena), peak stack by painting from reset to the end of the comparison.")
text = "\n".join(md) + "\n" + note + "\n"
open(md_path, "w").write(text)
w = [max(len(r[i]) for r in [head] + rows if not r[1].startswith("not yet")) for i in range(len(head))]
for r in [head] + rows:
    if r[1].startswith("not yet"):
        print(f"{r[0]:<{w[0]}}  {r[1]}")
    else:
        print("  ".join(c.rjust(w[i]) if i > 1 else c.ljust(w[i]) for i, c in enumerate(r)))
print(note.strip())
sys.exit(1 if failed else 0)
PY
status=$?
echo "(table also in $out/results.md; logs in $out/)" >&2
exit $status
