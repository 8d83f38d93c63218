#!/usr/bin/env bash
# Builds the firmware for each model, runs it under QEMU (Cortex-M4F, mps2-an386; or with --m0
# Cortex-M0, microbit; --m33 Cortex-M33, mps2-an505; --m55 Cortex-M55, mps3-an547; --rv32 /
# --rv32a RV32IMC / RV32IMAC, virt) with the instruction-count plugin, and prints a table
# against TFLite Micro's figures.
#
# Usage: examples/firmware/run.sh [--self-test] [--dot-self-test] [--per-op] [--m0|--m33|--m55|--m85|--rv32|--rv32a] [model ...]
#   Models: arguments, else $FIRMWARE_MODELS (space or comma separated), else the models
#   issue 6 requires and issue 11's two float32 models (hardware FPU; their scalar float
#   kernels give TFLite Micro's bits, so they match byte for byte too) (with --m0: tflm_micro_speech_int8 tflm_hello_world_int8, the ones that
#   fit the micro:bit's 16 KiB of RAM; with --m33, --m55, --rv32, --rv32a: the seven int8
#   models of tflm_rv32.json / tflm_m55.json). Any model of ../shared/models or ../shared/ops/models
#   with golden data works (the ones listed as features in Cargo.toml are cached per model).
#   --self-test: first check that the firmware does fail: run a model against a golden output
#   with one flipped byte and require a reported mismatch and QEMU exit status 1.
#   --dot-self-test: first build tflm_hello_world_int8 with the cargo feature dot-self-test
#   (the runtime's selected dot micro-kernels against its scalar reference on the emulated
#   core, tflc_runtime::__private::dot_self_test) and require no difference. Always on with
#   --m55, --rv32 and --rv32a: the Helium (MVE) and RV32 asm! micro-kernels run nowhere else
#   (no host executes them).
#   --per-op: also build each model with op markers (cargo feature op-markers: main calls
#   run_with(&mut Markers), an observer calling tflc_runtime::__private::op_marker(N)
#   before each operator) and print, per operator, its
#   MACs and instructions (QEMU plugin qemu/opcount.c), checking that the operators, the
#   harness part before the first operator and the markers' own instructions add up to the
#   marked build's whole-inference count. Tables also in <target>/firmware/<model>.per-op.md.
#   --m0: build for thumbv6m-none-eabi (no DSP) and run on QEMU's microbit board (nRF51822,
#   Cortex-M0, 256 KiB flash, 16 KiB RAM). TFLite Micro's figures are M4 ones: no ratios.
#   --m33: build for thumbv8m.main-none-eabihf with -C target-cpu=cortex-m33 (Armv8-M
#   Mainline with the DSP extension: the runtime's DSP kernels) and run on QEMU's mps2-an505
#   (-cpu cortex-m33). No TFLite Micro figures for this core: no ratios but the arena's.
#   --m55: thumbv8m.main-none-eabihf with -C target-cpu=cortex-m55 (DSP, MVE (Helium) with
#   float, double-precision FPU) on QEMU's mps3-an547 (-cpu cortex-m55), against
#   tflm_m55.json (TFLite Micro's reference kernels and CMSIS-NN's Helium kernels). The
#   runtime's build.rs turns on its Helium micro-kernels (cfg(tflc_mve): kernels::dot::mve)
#   for this CPU, the DSP kernels for what they do not cover; --m55 first runs the
#   dot-self-test (see --dot-self-test).
#   --m85: as --m55 with -C target-cpu=cortex-m85 (the same MVE, DSP and FPU, plus PACBTI,
#   which nothing here enables), run on the same QEMU Cortex-M55 model (QEMU has no M85):
#   checks that a Cortex-M85 build takes the Helium kernels and matches; its instruction
#   counts are the M55 model's, the ratios against tflm_m55.json.
#   --rv32: build for riscv32imc-unknown-none-elf and run on QEMU's virt with
#   -cpu rv32,a=false,f=false,d=false -bios none (TFLite Micro's RV32 baseline's settings),
#   against tflm_rv32.json; a model whose image links libgcc's 64-bit helpers (__muldi3,
#   __ashldi3, ...: a 64-bit product or shift the kernels failed to keep inline) fails.
#   --rv32a: riscv32imac-unknown-none-elf, -cpu rv32,f=false,d=false
#   (atomics on); tflm_rv32.json is an RV32IMC measurement (ratios shown, noted so).
# Environment:
#   TFLC_SHARED       shared data directory (default: <repo>/../shared)
#   FIRMWARE_TIMEOUT  seconds allowed per QEMU run (default 600)
#   FIRMWARE_PROF     N: also print the N functions that executed the most instructions
#   FIRMWARE_PER_OP   1: as --per-op
#   FIRMWARE_TARGET   thumbv6m: as --m0; cortex-m33: as --m33; cortex-m55: as --m55; cortex-m85: as --m85;
#                     riscv32imc: as --rv32; riscv32imac: as --rv32a (default thumbv7em)
#   TFLC_FW_KEEP_F16  1: compile with keep_f16_weights (float16 weights stay float16 in flash)
#   TFLC_FW_DECODE_WEIGHTS  1: compile with decode_weights (TFLite Micro's compressed
#                     weights decoded at compile time instead of kept compressed)
#   CARGO_TARGET_DIR  as for cargo (default: examples/firmware/target)
# Exit status: 0 only if every selected model compiled, ran and matched its golden output
# byte for byte (and the self-test, when asked, saw its mismatch); 1 otherwise; 2 when a
# tool or ../shared is missing (install-tools.sh installs the tools).
# Installs nothing. Outputs: <target>/firmware[-m0|-m33|-m55|-rv32|-rv32a]/<model>.{elf,log},
# .../results.md.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
shared="${TFLC_SHARED:-$repo/../shared}"
timeout_s="${FIRMWARE_TIMEOUT:-600}"
required_models="mlperf_kws_dscnn_int8 mlperf_vww_mobilenet_int8 mlperf_ic_resnet8_int8 mlperf_ad_autoencoder_int8 tflm_person_detect_int8 tflm_micro_speech_int8 tflm_hello_world_int8 tflm_hello_world_f32 mlperf_ic_resnet8_f32 tflm_audio_preprocessor_int8 tflm_mnist_lstm_int8"

m0_models="tflm_micro_speech_int8 tflm_hello_world_int8"
# The seven int8 models TFLite Micro was measured with on RV32IMC and on the Cortex-M55.
tflm_int8_models="mlperf_kws_dscnn_int8 mlperf_vww_mobilenet_int8 mlperf_ic_resnet8_int8 mlperf_ad_autoencoder_int8 tflm_person_detect_int8 tflm_micro_speech_int8 tflm_hello_world_int8"

self_test=0
dot_self_test=0
per_op=0
[ "${FIRMWARE_PER_OP:-}" = 1 ] && per_op=1
arch="${FIRMWARE_TARGET:-thumbv7em}"
while (($#)); do
    case "$1" in
        --self-test) self_test=1 ;;
        --dot-self-test) dot_self_test=1 ;;
        --per-op) per_op=1 ;;
        --m0) arch=thumbv6m ;;
        --m33) arch=cortex-m33 ;;
        --m55) arch=cortex-m55 ;;
        --m85) arch=cortex-m85 ;;
        --rv32) arch=riscv32imc ;;
        --rv32a) arch=riscv32imac ;;
        --*) echo "error: unknown option $1 (see the head of $0)" >&2; exit 2 ;;
        *) break ;;
    esac
    shift
done
# Per architecture: the Rust target, the QEMU binary and machine, the binutils prefix, the
# output folder's suffix and TFLite Micro's figures for the same core (none: no ratios).
qemu_bin=qemu-system-arm
semihosting=(-semihosting-config enable=on,target=native)
binutils=arm-none-eabi
suffix=""
baseline=""
case "$arch" in
    thumbv7em)
        target=thumbv7em-none-eabihf
        machine=(-cpu cortex-m4 -machine mps2-an386)
        board="Cortex-M4F (QEMU mps2-an386)"
        baseline=tflm_m4.json
        ;;
    thumbv6m)
        target=thumbv6m-none-eabi
        machine=(-cpu cortex-m0 -machine microbit)
        board="Cortex-M0 (QEMU microbit, nRF51822: 256 KiB flash, 16 KiB RAM)"
        required_models="$m0_models"
        suffix=-m0
        ;;
    cortex-m33 | cortex-m55 | cortex-m85)
        # One Rust target for both; -C target-cpu picks the core's features (the runtime's
        # build.rs turns on its DSP kernels for both, the firmware's build.rs the board's
        # memory map). Set here for the target only, so host crates stay shared.
        target=thumbv8m.main-none-eabihf
        export CARGO_TARGET_THUMBV8M_MAIN_NONE_EABIHF_RUSTFLAGS="-C target-cpu=$arch"
        required_models="$tflm_int8_models"
        if [ "$arch" = cortex-m33 ]; then
            machine=(-cpu cortex-m33 -machine mps2-an505)
            board="Cortex-M33 (QEMU mps2-an505; thumbv8m.main-none-eabihf, -C target-cpu=cortex-m33: DSP extension, single-precision FPU)"
            suffix=-m33
        elif [ "$arch" = cortex-m55 ]; then
            machine=(-cpu cortex-m55 -machine mps3-an547)
            board="Cortex-M55 (QEMU mps3-an547; thumbv8m.main-none-eabihf, -C target-cpu=cortex-m55: DSP extension, MVE with float, double-precision FPU)"
            suffix=-m55
            baseline=tflm_m55.json
            dot_self_test=1
        else
            # QEMU has no Cortex-M85: its build (Armv8.1-M with the same MVE and DSP, plus
            # PACBTI, which nothing here turns on) runs on the M55 model.
            machine=(-cpu cortex-m55 -machine mps3-an547)
            board="Cortex-M85 build (thumbv8m.main-none-eabihf, -C target-cpu=cortex-m85: DSP extension, MVE with float, double-precision FPU) run on QEMU's Cortex-M55 (mps3-an547; QEMU has no M85 model, the instruction set is the same)"
            suffix=-m85
            baseline=tflm_m55.json
            dot_self_test=1
        fi
        ;;
    riscv32imc | riscv32imac)
        target=$arch-unknown-none-elf
        qemu_bin=qemu-system-riscv32
        semihosting=()
        binutils=riscv64-unknown-elf
        required_models="$tflm_int8_models"
        baseline=tflm_rv32.json
        # The RV32 asm! micro-kernels run only here: check them against the scalar
        # reference before the models.
        dot_self_test=1
        if [ "$arch" = riscv32imc ]; then
            machine=(-machine virt -cpu rv32,a=false,f=false,d=false -bios none -m 128M)
            board="RV32IMC (QEMU virt, -cpu rv32,a=false,f=false,d=false)"
            suffix=-rv32
        else
            machine=(-machine virt -cpu rv32,f=false,d=false -bios none -m 128M)
            board="RV32IMAC (QEMU virt, -cpu rv32,f=false,d=false)"
            suffix=-rv32a
        fi
        ;;
    *) echo "error: FIRMWARE_TARGET=$arch: expected thumbv7em, thumbv6m, cortex-m33, cortex-m55, cortex-m85, riscv32imc or riscv32imac" >&2; exit 2 ;;
esac
if (($#)); then
    models="$*"
else
    models="${FIRMWARE_MODELS:-$required_models}"
fi
models="${models//,/ }"

# --- tools ---------------------------------------------------------------------------------
missing=()
for t in cargo rustc "$qemu_bin" "$binutils-size" "$binutils-nm" gcc timeout python3; do
    command -v "$t" >/dev/null 2>&1 || missing+=("$t")
done
if command -v rustc >/dev/null 2>&1; then
    libdir="$(rustc --print target-libdir --target "$target" 2>/dev/null || true)"
    [ -n "$libdir" ] && [ -d "$libdir" ] || missing+=("rust target $target")
fi
if ((${#missing[@]})); then
    echo "error: run.sh needs: ${missing[*]}" >&2
    echo "  install them with examples/firmware/install-tools.sh (rustup target add thumbv7em-none-eabihf thumbv6m-none-eabi" >&2
    echo "  thumbv8m.main-none-eabihf riscv32imc-unknown-none-elf riscv32imac-unknown-none-elf; apt-get install qemu-system-arm" >&2
    echo "  qemu-system-misc binutils-arm-none-eabi binutils-riscv64-unknown-elf gcc; python3 for the table)" >&2
    exit 2
fi
plugin_src="$shared/tools/qemu-insncount/insncount.c"
if [ ! -f "$plugin_src" ]; then
    echo "error: $plugin_src not found: set TFLC_SHARED to the shared data directory" >&2
    exit 2
fi

target_dir="${CARGO_TARGET_DIR:-$here/target}"
out="$target_dir/firmware$suffix"
mkdir -p "$out"
build_plugin() { # build_plugin SRC SO (the M4 timing header is a dependency of ours)
    mkdir -p "$(dirname "$2")"
    if [ ! -f "$2" ] || [ "$1" -nt "$2" ] || [ "$here/qemu/m4timing.h" -nt "$2" ]; then
        gcc -shared -fPIC -O2 -fvisibility=hidden -o "$2" "$1" || { echo "error: cannot build the QEMU plugin $1" >&2; exit 2; }
    fi
}
plugin="$target_dir/insncount/libinsncount.so"
build_plugin "$plugin_src" "$plugin"
plugin_arg="$plugin"
[ -n "${FIRMWARE_PROF:-}" ] && plugin_arg="$plugin,prof=$FIRMWARE_PROF"
opcount="$target_dir/opcount/libopcount.so"
((per_op)) && build_plugin "$here/qemu/opcount.c" "$opcount"
# On the Cortex-M4, a second plugin estimates the window's cycles from the Technical
# Reference Manual's timings (qemu/m4timing.h), beside insncount's exact instructions.
cycles_plugin=()
if [ "$arch" = thumbv7em ]; then
    build_plugin "$here/qemu/cycles.c" "$target_dir/cycles/libcycles.so"
    cycles_plugin=(-plugin "$target_dir/cycles/libcycles.so")
fi

# Models with a cargo feature build with --features (one cached artifact per model);
# others through TFLC_FW_MODEL.
features="$(sed -n '/^\[features\]/,/^\[/p' "$here/Cargo.toml" | sed -n 's/^\([a-z0-9_]*\) = \[\]$/\1/p')"

qemu() { # qemu ELF LOG [PLUGIN]: runs the firmware with the plugin under timeout; QEMU's status
    timeout "$timeout_s" "$qemu_bin" "${machine[@]}" -nographic \
        "${semihosting[@]}" -icount shift=0 \
        -plugin "${3:-$plugin_arg}" "${cycles_plugin[@]}" -kernel "$1" >"$2" 2>&1 </dev/null
}

# build LOG JSON cargo-args...: cargo build for $target; cargo's JSON messages go to JSON,
# its human-readable output to LOG. Then $built_elf and $built_out (build.rs's OUT_DIR).
build() {
    local log="$1" json="$2"
    shift 2
    built_elf="" built_out=""
    (cd "$here" && cargo build --release --quiet --target "$target" --message-format=json-render-diagnostics "$@") >"$json" 2>"$log" || return 1
    read -r built_elf built_out < <(python3 -c '
import json, sys
exe = out = ""
for line in open(sys.argv[1]):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if not m.get("package_id", "").count("tflc-firmware"):
        continue
    if m.get("reason") == "build-script-executed":
        out = m.get("out_dir") or ""
    if m.get("reason") == "compiler-artifact" and m.get("executable"):
        exe = m["executable"]
print(exe or "-", out or "-")' "$json")
    [ -f "$built_elf" ] && [ -d "$built_out" ] || { echo "error: cannot find the firmware or its OUT_DIR in $json" >>"$log"; return 1; }
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
    if ! TFLC_SHARED="$st" TFLC_FW_MODEL=$st_model build "$out/self-test.log" "$out/self-test.json"; then
        echo "error: self-test: the firmware does not build, see $out/self-test.log" >&2
        exit 1
    fi
    qemu "$built_elf" "$out/self-test.run"
    rc=$?
    if [ "$rc" != 1 ] || ! grep -q '^tflc-fw: .*result=mismatch .*first_at=0 ' "$out/self-test.run"; then
        echo "error: self-test failed: expected a mismatch at byte 0 and exit status 1, got status $rc:" >&2
        cat "$out/self-test.run" >&2
        exit 1
    fi
    echo "   ok: $(grep -m1 '^tflc-fw:' "$out/self-test.run") (exit 1)" >&2
fi

if ((dot_self_test)); then
    echo "== dot-self-test: the runtime's dot micro-kernels against the scalar reference on this core" >&2
    if ! build "$out/dot-self-test.log" "$out/dot-self-test.json" --features tflm_hello_world_int8,dot-self-test; then
        echo "error: dot-self-test: the firmware does not build, see $out/dot-self-test.log" >&2
        exit 1
    fi
    qemu "$built_elf" "$out/dot-self-test.run"
    rc=$?
    line="$(grep -m1 '^tflc-fw: dot-self-test implementation=' "$out/dot-self-test.run")"
    if [ "$rc" != 0 ] || [ -z "$line" ] || ! grep -q ' failures=0$' <<<"$line"; then
        echo "error: dot-self-test failed (exit status $rc):" >&2
        cat "$out/dot-self-test.run" >&2
        exit 1
    fi
    echo "   ok: $line" >&2
fi

# golden_bytes ELF: the flash bytes of the golden data, from the sizes of the TFLC_FW_GOLDEN_*
# symbols (build.rs names them so); empty when there are none.
golden_bytes() {
    "$binutils-nm" -S "$1" | awk '$4 ~ /^TFLC_FW_GOLDEN_/ { print $2 }' | {
        n=0 total=0
        while read -r size; do total=$((total + 16#$size)); n=$((n + 1)); done
        ((n)) && echo "$total"
    }
}

# per_op MODEL BUILD-ARGS...: builds MODEL with op markers, runs it with the opcount plugin and
# prints (and writes to $out/MODEL.per-op.md) the per-operator table. Needs $insns (the
# unmarked build's count) and $m_out (its OUT_DIR, for inspect.json). Status 0 only if the
# marked build matched its golden output and every count adds up.
per_op() {
    local m="$1" log="$out/$1.per-op.log" elf="$out/$1.per-op.elf" run="$out/$1.per-op.run"
    shift
    if ! build "$log" "$out/$m.per-op.json" "$@" --features op-markers; then
        echo "   per-op: the build with op markers failed, see $log" >&2
        return 1
    fi
    cp "$built_elf" "$elf"
    local syms
    syms="$("$binutils-nm" -S "$elf" | awk '$4 ~ /9__private9op_marker/ { print $1, $2 }')"
    if [ "$(wc -l <<<"$syms")" != 1 ] || [ -z "$syms" ]; then
        echo "   per-op: expected one op_marker function in $elf, found: ${syms:-none}" >&2
        return 1
    fi
    local addr size
    read -r addr size <<<"$syms"
    qemu "$elf" "$run" "$opcount,marker=0x$addr,marker_size=$((16#$size))"
    local rc=$?
    cat "$run" >>"$log"
    if [ "$rc" != 0 ] || ! grep -q '^tflc-fw: .*result=match' "$run"; then
        echo "   per-op: the build with op markers did not match (exit $rc), see $run" >&2
        return 1
    fi
    python3 - "$m" "$run" "$built_out/model.rs" "$m_out/inspect.json" "$insns" "$out/$m.per-op.md" "$board" <<'PY'
import json, re, sys
name, run_path, model_rs, inspect_path, whole, md_path, board = sys.argv[1:8]
def die(msg):
    print(f"   per-op: {name}: {msg}", file=sys.stderr)
    sys.exit(1)
run = open(run_path).read()
head = re.search(r"^opcount: total=\d+ windows=(\d+) window_insns=(\d+) before=(\d+) markers=(\d+) marker_insns=(\d+) stray_markers=(\d+)$", run, re.M)
if not head:
    die(f"no opcount summary line in {run_path}")
windows, window, before, markers, marker_insns, stray = map(int, head.groups())
seg_rows = re.findall(r"^opcount: segment \d+ insns=(\d+) cycles=(\d+)$", run, re.M)
segs = [int(a) for a, _ in seg_rows]
# The Cortex-M4 cycle estimate per segment (m4timing.h); shown on the Cortex-M4 only.
cyc = [int(c) for _, c in seg_rows]
chead = re.search(r"^opcount: cycles window=(\d+) before=(\d+) marker=(\d+)$", run, re.M)
with_cycles = "Cortex-M4F" in board
if with_cycles:
    if not chead:
        die(f"no opcount cycles line in {run_path}")
    cwindow, cbefore, cmarker = map(int, chead.groups())
    if cbefore + sum(cyc) + cmarker != cwindow:
        die(f"cycles: before {cbefore} + operators {sum(cyc)} + markers {cmarker} != window {cwindow}")
# The operators in run()'s order: the generated OPS table, which run_with's observer (the
# firmware's op_marker calls) walks.
code = open(model_rs).read()
ops_table = re.search(r"pub const OPS: \[rt::OpInfo; \d+\] = \[(.*?)\];", code, re.S)
if not ops_table:
    die(f"no OPS table in {model_rs}")
order = [int(x) for x in re.findall(r"\bindex:\s*(\d+),", ops_table.group(1))]
# Every operator in schedule order, from the `// op N: ...` statement comments of run().
schedule = [int(x) for x in re.findall(r"^\s*// op (\d+): ", code, re.M)]
if windows != 1 or stray:
    die(f"expected one measured window and no marker outside it, got windows={windows} stray_markers={stray}")
if not (len(order) == markers == len(segs)):
    die(f"OPS has {len(order)} operators, the plugin saw {markers} markers and recorded {len(segs)} segments")
if before + sum(segs) + marker_insns != window:
    die(f"before {before} + operators {sum(segs)} + markers {marker_insns} != window {window}")
summary = json.load(open(inspect_path))
ops = {o["index"]: o for o in summary.get("operators", []) if o.get("subgraph") == 0}
if not ops:
    die(f"no operators in {inspect_path}")
counted = dict(zip(order, segs))
counted_c = dict(zip(order, cyc))
if len(counted) != len(order) or any(i not in ops for i in order):
    die(f"op_marker indices {order} do not match the model's operators")
def num(v):
    return f"{v:,}"
rows = []
total_macs = 0
if [i for i in schedule if i in counted] != order or len(set(schedule)) != len(schedule):
    die(f"run()'s operator comments {schedule} do not fit its op_marker calls {order}")
for i in schedule + sorted(set(ops) - set(schedule)):
    o = ops[i]
    macs = o["macs"]
    total_macs += macs
    if i in counted:
        n = counted[i]
        cc = [num(counted_c[i]), f"{counted_c[i] / macs:.2f}" if macs else ""] if with_cycles else []
        rows.append([str(i), o["opcode"], num(macs) if macs else "", num(n),
                     f"{n / macs:.2f}" if macs else ""] + cc + [f"{100 * n / window:.1f}%"])
    else:
        rows.append([str(i), o["opcode"], num(macs) if macs else "", "no code (view)", ""] + ["", ""] * bool(with_cycles) + [""])
ops_sum = sum(segs)
whole = int(whole) if whole.isdigit() else None
def percyc(c):
    return [num(c), f"{c / total_macs:.2f}" if total_macs else ""] if with_cycles else []
blank = ["", ""] if with_cycles else []
rows.append(["", "sum of operators", num(total_macs) if total_macs else "", num(ops_sum), f"{ops_sum / total_macs:.2f}" if total_macs else ""] + percyc(sum(cyc)) + [f"{100 * ops_sum / window:.1f}%"])
rows.append(["", "harness before op 0", "", num(before), ""] + (percyc(cbefore)[:1] + [""] if with_cycles else []) + [""])
rows.append(["", f"op_marker bodies ({markers} calls)", "", num(marker_insns), ""] + (percyc(cmarker)[:1] + [""] if with_cycles else []) + [""])
rows.append(["", "whole inference, marked build", "", num(window), f"{window / total_macs:.2f}" if total_macs else ""] + (percyc(cwindow) if with_cycles else []) + ["100.0%"])
if whole is not None:
    rows.append(["", "whole inference, unmarked build", "", num(whole), f"{whole / total_macs:.2f}" if total_macs else ""] + blank + [""])
head = ["op", "opcode", "MACs", "instructions", "insns/MAC"] + (["M4 cycles (est.)", "cycles/MAC"] if with_cycles else []) + ["share"]
note = (f"{name} on {board}, operators in run()'s order. Each operator's count runs from its op_marker call "
        "to the next one (or to bench_end): its arena views and kernel call, and for the last operator run()'s "
        "return; the markers' own instructions are counted apart. Operators + harness + markers = the marked "
        "build's window exactly (checked)." + (" M4 cycles (est.): the cycle model of qemu/m4timing.h (the Cortex-M4 "
        "TRM's timings, zero wait states), per operator over the same segments (also adding up, checked)." if with_cycles else ""))
if whole is not None:
    d = window - whole
    note += (f" The unmarked build (the main table's figure) needs {num(whole)}: {d:+,} instructions "
             f"({100 * d / whole:+.3f}%) are the markers, their calls and the code changes they cause.")
# The same counts per opcode (kernel kind).
kinds = {}
for i in order:
    k = kinds.setdefault(ops[i]["opcode"], [0, 0, 0, 0])
    k[0] += 1; k[1] += ops[i]["macs"]; k[2] += counted[i]; k[3] += counted_c.get(i, 0)
khead = ["opcode", "ops", "MACs", "instructions", "insns/MAC"] + (["M4 cycles (est.)", "cycles/MAC"] if with_cycles else []) + ["share"]
krows = [[op, str(n), num(mc) if mc else "", num(c), f"{c / mc:.2f}" if mc else ""]
         + ([num(cc), f"{cc / mc:.2f}" if mc else ""] if with_cycles else []) + [f"{100 * c / window:.1f}%"]
         for op, (n, mc, c, cc) in sorted(kinds.items(), key=lambda kv: -kv[1][2])]
md = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)] + ["| " + " | ".join(r) + " |" for r in rows]
md += ["", "| " + " | ".join(khead) + " |", "|---|" + "---:|" * (len(khead) - 1)] + ["| " + " | ".join(r) + " |" for r in krows]
open(md_path, "w").write(f"### {name}\n\n" + "\n".join(md) + "\n\n" + note + "\n")
w = [max(len(r[k]) for r in [head] + rows) for k in range(len(head))]
print(f"\nper operator: {name}")
for r in [head] + rows:
    print("  ".join(c.ljust(w[k]) if k < 2 else c.rjust(w[k]) for k, c in enumerate(r)))
print()
kw = [max(len(r[k]) for r in [khead] + krows) for k in range(len(khead))]
for r in [khead] + krows:
    print("  ".join(c.ljust(kw[k]) if k < 1 else c.rjust(kw[k]) for k, c in enumerate(r)))
print(note)
PY
}

results="$out/results.tsv"
: >"$results"
per_op_failed=0
export TFLC_SHARED="$shared"
for m in $models; do
    echo "== $m" >&2
    log="$out/$m.log"
    if grep -qx "$m" <<<"$features"; then
        build_args=(--features "$m")
        envm=""
    else
        build_args=()
        envm="$m"
    fi
    if ! TFLC_FW_MODEL="$envm" build "$log" "$out/$m.json" "${build_args[@]}"; then
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
    m_out="$built_out"
    elf="$out/$m.elf"
    cp "$built_elf" "$elf"
    qemu "$elf" "$out/$m.run"
    rc=$?
    cat "$out/$m.run" >>"$log"
    line="$(grep -m1 '^tflc-fw:' "$out/$m.run")"
    insns="$(sed -n 's/^insncount: .*windows=1 .*per_window=\([0-9]*\).*/\1/p' "$out/$m.run")"
    # The M4 cycle estimate, over the same window (its instruction count must be insncount's).
    cycles="" cycles_insns=""
    if ((${#cycles_plugin[@]})); then
        read -r cycles_insns cycles < <(sed -n 's/^cycles: windows=1 window_insns=\([0-9]*\) window_cycles=\([0-9]*\) .*/\1 \2/p' "$out/$m.run")
    fi
    stack="$(sed -n 's/.*stack_peak_bytes=\([0-9]*\).*/\1/p' <<<"$line")"
    arena="$(sed -n 's/.*arena_bytes=\([0-9]*\).*/\1/p' <<<"$line")"
    sizes="$("$binutils-size" -A "$elf" | awk '
        $1==".vector_table"||$1==".text"||$1==".rodata"||$1==".data" {f+=$2}
        $1==".data"||$1==".bss"||$1==".uninit" {r+=$2}
        END {printf "%d\t%d", f, r}')"
    # Weight bytes as `tflc inspect` reports them; golden bytes from the ELF, checked
    # against the golden files' sizes.
    weights="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("weight_bytes", ""))' "$m_out/inspect.json" 2>/dev/null)"
    golden="$(golden_bytes "$elf")"
    golden_files="$(cat "$m_out/golden_bytes.txt" 2>/dev/null)"
    if [ "$rc" = 0 ] && grep -q 'result=match' <<<"$line" && [ -n "$insns" ]; then
        status=match
        if [ -z "$weights" ] || [ -z "$golden" ] || [ "$golden" != "$golden_files" ]; then
            status="flash accounting failed: weights=${weights:-?} golden symbols=${golden:-none} golden files=${golden_files:-?}"
        fi
        if ((${#cycles_plugin[@]})) && { [ -z "$cycles" ] || [ "$cycles_insns" != "$insns" ]; }; then
            status="cycle estimate failed: the cycles plugin counted ${cycles_insns:-no} window instructions, insncount $insns"
        fi
        # RV32 (issue 33): the kernels' 64-bit products and shifts must stay inline (mul /
        # mulh / mulhsu, 32-bit shifts); a libgcc helper in the image means one did not.
        if [ "$binutils" = riscv64-unknown-elf ]; then
            helpers="$("$binutils-nm" "$elf" | awk '$3 ~ /^__(muldi3|ashldi3|ashrdi3|lshrdi3|divdi3|udivdi3|moddi3|umoddi3)$/ { print $3 }' | tr '\n' ' ')"
            [ -n "$helpers" ] && status="links libgcc 64-bit helpers: $helpers"
        fi
    elif [ "$rc" = 124 ]; then
        status="timeout after ${timeout_s}s"
    else
        status="$(sed -n 's/.*result=\([a-z]*\).*/\1/p' <<<"$line")"
        status="${status:-failed} (exit $rc)"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$m" "$status" "${insns:-}" "${cycles:-}" "$sizes" "$arena" "${stack:-}" "${weights:-}" "${golden:-}" "${line:-}" >>"$results"
    echo "   $status ${line:-}" >&2
    [ -n "${FIRMWARE_PROF:-}" ] && grep '^insncount' "$out/$m.run" >&2
    if ((per_op)) && [ "$status" = match ]; then
        TFLC_FW_MODEL="$envm" per_op "$m" "${build_args[@]}" || per_op_failed=1
    fi
done

python3 - "$results" "$shared/baselines/${baseline:-none}" "$shared/baselines/tflm_memory.json" "$out/results.md" "$arch" "$board" <<'PY'
import json, sys
res_path, m4_path, mem_path, md_path, arch, board = sys.argv[1:7]
def load(p):
    try:
        with open(p) as f:
            return json.load(f).get("models", {})
    except (OSError, ValueError):
        return {}
# m4: TFLite Micro's figures for this core (tflm_m4.json, tflm_rv32.json, tflm_m55.json; the
# same structure: per model "ref" and, on Arm, "cmsis_nn"), none on a core it was not run on.
m4, mem = load(m4_path), load(mem_path)
if arch not in ("thumbv7em", "riscv32imc", "riscv32imac", "cortex-m55", "cortex-m85"):
    m4 = {}  # TFLite Micro was not measured on this core: no ratios
def ratio(a, b):
    return f"{a / b:.2f}x" if a is not None and b else "-"
def num(v):
    return f"{v:,}" if isinstance(v, int) else "-"
rows, failed = [], 0
with_cycles = 2 if arch == "thumbv7em" else 0  # the cycle estimate's columns (Cortex-M4 only)
for line in open(res_path):
    f = line.rstrip("\n").split("\t")
    name, status = f[0], f[1]
    if status == "not-compiled":
        rows.append([name, "not yet supported: " + f[2]] + [""] * (14 + with_cycles))
        failed += 1
        continue
    if status != "match":
        failed += 1
    ints = [int(x) if x.isdigit() else None for x in f[2:10]]
    insns, cycles, flash, ram, arena, stack, weights, golden = ints
    nonweight = flash - weights - golden if None not in (flash, weights, golden) else None
    tflm_flash = m4.get(name, {}).get("ref", {}).get("flash_bytes")
    tflm_nonweight = tflm_flash - weights if tflm_flash is not None and weights is not None else None
    ref = m4.get(name, {}).get("ref", {})
    cm = m4.get(name, {}).get("cmsis_nn", {})
    tm = mem.get(name, {})
    rows.append([
        name, status, num(insns)] + ([num(cycles), f"{cycles / insns:.2f}" if cycles and insns else "-"] if with_cycles else []) + [
        ratio(insns, ref.get("instructions_per_invoke")), ratio(insns, cm.get("instructions_per_invoke")),
        num(flash), ratio(flash, ref.get("flash_bytes")),
        num(weights), num(golden), num(nonweight), num(tflm_nonweight), ratio(nonweight, tflm_nonweight),
        num(ram), ratio(ram, ref.get("static_ram_bytes")),
        f"{num(arena)} ({ratio(arena, tm.get('tflm_total'))})",
        f"{num(stack)} ({num(ref.get('stack_peak_bytes'))})",
    ])
head = ["model", "result", "instructions"] + (["M4 cycles (est.)", "CPI"] if with_cycles else []) + ["vs TFLM ref", "vs TFLM CMSIS-NN", "flash B", "vs TFLM",
        "weights B", "golden B", "non-weight flash B", "TFLM ref non-weight B", "vs TFLM",
        "static RAM B", "vs TFLM", "arena B (vs TFLM arena)", "peak stack B (TFLM ref)"]
md = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
md += ["| " + " | ".join(r) + " |" for r in rows]
if arch == "thumbv7em":
    theirs = ("M4 cycles (est.): a model of the Cortex-M4 TRM's instruction timings (examples/firmware/qemu/m4timing.h: "
              "zero wait states, loads 2 cycles or 1 when pipelined behind a load, LDM/STM/PUSH/POP 1+N, taken branches "
              "1+P with P = 2, multiplies 1), counted over the same window by qemu/cycles.c; CPI = cycles per instruction; "
              "not a board measurement (no unaligned-access, wait-state or result-latency stalls). "
              "TFLite Micro: tflm_m4.json (same QEMU board; instructions of one Invoke; flash = whole image; "
              "static RAM = .data+.bss with the smallest working arena) and tflm_memory.json (arena = tflm_total, head + tail). ")
elif arch in ("riscv32imc", "riscv32imac"):
    theirs = ("TFLite Micro: tflm_rv32.json (its reference kernels, RV32IMC, same QEMU machine and CPU settings, "
              "-march=rv32imc, linked with -mno-relax as TFLite Micro's riscv32_generic target does; there is no "
              "CMSIS-NN for RISC-V, hence no such ratio; instructions of one Invoke; flash = whole load image; "
              "static RAM = .data+.bss with the smallest working arena) and tflm_memory.json (arena = tflm_total, head + tail). "
              + ("This build is RV32IMAC (A on), TFLite Micro's is RV32IMC: the ratios compare different ISAs by one extension. "
                 if arch == "riscv32imac" else ""))
elif arch in ("cortex-m55", "cortex-m85"):
    theirs = (("This is the Cortex-M85 build run on QEMU's Cortex-M55 model; TFLite Micro's figures are its M55 build's. "
               if arch == "cortex-m85" else "") +
              "TFLite Micro: tflm_m55.json (same QEMU board and CPU; 'vs TFLM ref' = its reference kernels, "
              "'vs TFLM CMSIS-NN' = CMSIS-NN's Helium (MVE) kernels; instructions of one Invoke; flash = whole image; "
              "static RAM = .data+.bss with the smallest working arena; flash, RAM and stack ratios are against the "
              "reference build) and tflm_memory.json (arena = tflm_total, head + tail). This build runs tflc's Helium "
              "(MVE) micro-kernels (runtime kernels::dot::mve: CONV_2D Gemm/GemmChunked on int8 bytes, depthwise 3x3 Mult1, "
              "FULLY_CONNECTED, dense int8 ADD) and its Armv7E-M DSP kernels (SMLAD/SXTB16) for the rest. ")
else:
    theirs = ("TFLite Micro was not measured on this core (its figures are for the Cortex-M4F, RV32IMC and Cortex-M55): "
              "no instruction, flash or RAM ratios here; the arena ratio is against tflm_memory.json (tflm_total, "
              "core-independent). ")
flash_def = ".text+.rodata+.data" if arch.startswith("riscv") else ".vector_table+.text+.rodata+.data"
note = (f"\nBoard: {board}. "
        "Ratios are ours / TFLite Micro's (below 1.00x is better). " + theirs +
        f"Ours: flash = {flash_def}, static RAM = .data+.bss+.uninit "
        "(includes the arena), peak stack by painting from reset to the end of the comparison. "
        "Non-weight flash = flash - weights - golden: weights = the model's constant bytes as "
        "`tflc inspect` reports them (weight_bytes), golden = the golden run-0 inputs and outputs "
        "the harness embeds (sizes of the ELF's TFLC_FW_GOLDEN_* symbols); TFLite Micro's = its "
        "reference build's flash - the same weights (its harness embeds no golden data).")
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
if ((per_op)); then
    echo "(per-operator tables also in $out/<model>.per-op.md)" >&2
    if ((per_op_failed)); then
        echo "error: a per-operator measurement failed (see the 'per-op:' lines above)" >&2
        status=1
    fi
fi
echo "(table also in $out/results.md; logs in $out/)" >&2
exit $status
