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
. tools/qemu-user-target.sh
qemu_user_target "$target" qemu-aarch64 aarch64-linux-gnu gcc-aarch64-linux-gnu libc6-dev-arm64-cross
# TFLC_TEST_FEATURE=neon: a suite that cannot run the NEON implementation fails instead of
# printing UNTESTED.
# PROPTEST_CASES=64 (overridable): emulation is slow; every fixed edge case still runs.
PROPTEST_CASES="${PROPTEST_CASES:-64}" TFLC_TEST_FEATURE="${TFLC_TEST_FEATURE:-neon}" cargo test --locked -p tflc-runtime --target "$target" "$@"
# Three models end to end (the full corpus would take most of the CI budget under QEMU).
TFLC_E2E_MODELS=mlperf_kws_dscnn_int8,mlperf_vww_mobilenet_int8,mlperf_ic_resnet8_int8 \
    cargo test --locked -p tflc-e2e --target "$target" --test conformance
