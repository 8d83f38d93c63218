#!/usr/bin/env bash
# Runs the runtime's test suite on aarch64 (aarch64-unknown-linux-gnu) under qemu-aarch64
# user-mode emulation, twice, so that every NEON implementation runs the same kernel suites
# as the scalar ones:
#   1. QEMU_CPU=cortex-a53 (NEON without the dot-product extension), TFLC_TEST_FEATURE=neon:
#      the plain NEON kernels (runtime/src/arch/aarch64), the NEON dot micro-kernels; the
#      `sdot` suites print UNTESTED.
#   2. QEMU_CPU=max (has FEAT_DotProd), TFLC_TEST_FEATURE=neon-dotprod: the `sdot` forms
#      too (the run fails if this CPU could not execute them).
# then the end-to-end suite for kws, vww and resnet8 built for aarch64 with the best
# implementation (neon-dotprod under QEMU_CPU=max) and with plain NEON (cortex-a53),
# bit-exact against the golden outputs.
# On x86 hosts NEON is not compiled and reports UNTESTED.
# Installs what it needs (rustup target, Debian qemu-user and the aarch64 cross linker).
# Usage: tools/test-runtime-aarch64.sh [cargo test args for the runtime suite…]
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
. tools/qemu-user-target.sh
qemu_user_target "$target" qemu-aarch64 aarch64-linux-gnu gcc-aarch64-linux-gnu libc6-dev-arm64-cross
# TFLC_TEST_FEATURE: a suite that cannot run the named implementation fails instead of
# printing UNTESTED.
# PROPTEST_CASES=64 (overridable): emulation is slow; every fixed edge case still runs.
cases="${PROPTEST_CASES:-64}"
echo "== runtime suite, QEMU_CPU=cortex-a53 (NEON, no dot product)"
QEMU_CPU=cortex-a53 PROPTEST_CASES="$cases" TFLC_TEST_FEATURE=neon cargo test --locked -p tflc-runtime --target "$target" "$@"
# The second pass runs only what depends on the dot-product extension: the `sdot` suites
# (`*_sdot`), the public variant functions of the three ops (which now dispatch to the
# `sdot` forms), the NEON module's own tests and the selection report; the rest ran above.
echo "== runtime suite, QEMU_CPU=max (NEON with the dot product), sdot suites"
QEMU_CPU=max PROPTEST_CASES="$cases" TFLC_TEST_FEATURE=neon-dotprod cargo test --locked -p tflc-runtime --target "$target" --lib "$@" -- \
    isa:: arch::aarch64 _sdot:: conv_2d::tests::public_api fully_connected::tests::public_api depthwise_conv_2d::tests::public_api
# Three models end to end (the full corpus would take most of the CI budget under QEMU),
# with the best implementation, then (the same binary, seconds) with plain NEON.
models=mlperf_kws_dscnn_int8,mlperf_vww_mobilenet_int8,mlperf_ic_resnet8_int8
echo "== e2e kws, vww, resnet8, QEMU_CPU=max, neon-dotprod"
QEMU_CPU=max TFLC_TEST_FEATURE=neon-dotprod TFLC_E2E_MODELS="$models" cargo test --locked -p tflc-e2e --target "$target" --test conformance
echo "== e2e kws, vww, resnet8, QEMU_CPU=cortex-a53, neon"
QEMU_CPU=cortex-a53 TFLC_TEST_FEATURE=neon TFLC_E2E_MODELS="$models" cargo test --locked -p tflc-e2e --target "$target" --test conformance
