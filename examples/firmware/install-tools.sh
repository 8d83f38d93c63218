#!/usr/bin/env bash
# Installs what examples/firmware/run.sh needs, skipping whatever is already present:
# the thumbv7em-none-eabihf and thumbv6m-none-eabi Rust targets, qemu-system-arm (Cortex-M4
# board mps2-an386, Cortex-M0 board microbit),
# the ARM binutils (arm-none-eabi-size, -nm) and gcc (to build the QEMU instruction-count plugin).
# Debian/Ubuntu only (apt-get); run as root or with sudo available. CI calls this before run.sh.
set -euo pipefail

for t in thumbv7em-none-eabihf thumbv6m-none-eabi; do
    if ! rustup target list --installed 2>/dev/null | grep -qx "$t"; then
        echo "install-tools: rustup target add $t"
        rustup target add "$t"
    fi
done

pkgs=()
command -v qemu-system-arm >/dev/null 2>&1 || pkgs+=(qemu-system-arm)
{ command -v arm-none-eabi-size && command -v arm-none-eabi-nm; } >/dev/null 2>&1 || pkgs+=(binutils-arm-none-eabi)
command -v gcc >/dev/null 2>&1 || pkgs+=(gcc libc6-dev)
if ((${#pkgs[@]})); then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    echo "install-tools: apt-get install ${pkgs[*]}"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${pkgs[@]}"
fi
echo "install-tools: ok (thumbv7em-none-eabihf, thumbv6m-none-eabi, qemu-system-arm, arm-none-eabi-size/-nm, gcc)"
