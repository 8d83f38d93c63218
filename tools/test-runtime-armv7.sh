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
if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    rustup target add "$target"
fi
pkgs=()
command -v qemu-arm >/dev/null 2>&1 || pkgs+=(qemu-user)
command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1 || pkgs+=(gcc-arm-linux-gnueabihf libc6-dev-armhf-cross)
if ((${#pkgs[@]})); then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    echo "test-runtime-armv7: apt-get install ${pkgs[*]}"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${pkgs[@]}"
fi
export CARGO_TARGET_ARMV7_UNKNOWN_LINUX_GNUEABIHF_LINKER=arm-linux-gnueabihf-gcc
export CARGO_TARGET_ARMV7_UNKNOWN_LINUX_GNUEABIHF_RUNNER="qemu-arm -L /usr/arm-linux-gnueabihf"
# TFLC_TEST_FEATURE=arm-dsp: a suite that cannot run the DSP implementation fails instead
# of printing UNTESTED.
TFLC_TEST_FEATURE="${TFLC_TEST_FEATURE:-arm-dsp}" cargo test --locked -p tflc-runtime --target "$target" "$@"
