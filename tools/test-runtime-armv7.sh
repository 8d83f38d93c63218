#!/usr/bin/env bash
# Runs the runtime's test suite on ARMv7-A (armv7-unknown-linux-gnueabihf) under qemu-arm
# user-mode emulation, so that the Armv7E-M DSP implementations (SXTB16/SMLAD, which
# ARMv7-A also has; runtime/build.rs enables them there) run the same kernel suites as the
# scalar ones. On x86 hosts those implementations are not compiled and report UNTESTED.
# Installs what it needs (rustup target, Debian qemu-user and the gnueabihf cross linker).
# Usage: tools/test-runtime-armv7.sh [cargo test args…]
set -euo pipefail
cd "$(dirname "$0")/.."

target=armv7-unknown-linux-gnueabihf
. tools/qemu-user-target.sh
qemu_user_target "$target" qemu-arm arm-linux-gnueabihf gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
# TFLC_TEST_FEATURE=arm-dsp: a suite that cannot run the DSP implementation fails instead
# of printing UNTESTED.
TFLC_TEST_FEATURE="${TFLC_TEST_FEATURE:-arm-dsp}" cargo test --locked -p tflc-runtime --target "$target" "$@"
