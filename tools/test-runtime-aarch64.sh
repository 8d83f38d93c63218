#!/usr/bin/env bash
# Runs the runtime's test suite on aarch64 (aarch64-unknown-linux-gnu) under qemu-aarch64
# user-mode emulation, so that the NEON dot micro-kernels (runtime/src/kernels/dot/neon.rs,
# compiled on every aarch64 build) run the same kernel suites as the scalar ones, then the
# end-to-end suite for kws, vww and resnet8 built for aarch64 (bit-exact against the golden
# outputs). On x86 hosts NEON is not compiled and reports UNTESTED.
# Installs what it needs (rustup target, Debian qemu-user and the aarch64 cross linker).
# Usage: tools/test-runtime-aarch64.sh [cargo test args for the runtime suite…]
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    rustup target add "$target"
fi
pkgs=()
command -v qemu-aarch64 >/dev/null 2>&1 || pkgs+=(qemu-user)
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
if ((${#pkgs[@]})); then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    echo "test-runtime-aarch64: apt-get install ${pkgs[*]}"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${pkgs[@]}"
fi
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
# TFLC_TEST_FEATURE=neon: a suite that cannot run the NEON implementation fails instead of
# printing UNTESTED.
# PROPTEST_CASES=64 (overridable): emulation is slow; every fixed edge case still runs.
PROPTEST_CASES="${PROPTEST_CASES:-64}" TFLC_TEST_FEATURE="${TFLC_TEST_FEATURE:-neon}" cargo test --locked -p tflc-runtime --target "$target" "$@"
# Three models end to end (the full corpus would take most of the CI budget under QEMU).
TFLC_E2E_MODELS=mlperf_kws_dscnn_int8,mlperf_vww_mobilenet_int8,mlperf_ic_resnet8_int8 \
    cargo test --locked -p tflc-e2e --target "$target" --test conformance
