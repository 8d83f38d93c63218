#!/usr/bin/env bash
# Installs what examples/firmware/run.sh needs, skipping whatever is already present:
# the thumbv7em-none-eabihf, thumbv6m-none-eabi, thumbv8m.main-none-eabihf (Cortex-M33/M55),
# riscv32imc-unknown-none-elf and riscv32imac-unknown-none-elf Rust targets, qemu-system-arm
# (Cortex-M4 board mps2-an386, Cortex-M0 board microbit, Cortex-M33 mps2-an505, Cortex-M55
# mps3-an547), qemu-system-misc (qemu-system-riscv32, board virt), the ARM and RISC-V
# binutils (arm-none-eabi-size/-nm, riscv64-unknown-elf-size/-nm, which read rv32 ELF files
# too) and gcc (to build the QEMU instruction-count plugin).
# Debian/Ubuntu only (apt-get); run as root or with sudo available. CI calls this before run.sh.
set -euo pipefail

for t in thumbv7em-none-eabihf thumbv6m-none-eabi thumbv8m.main-none-eabihf riscv32imc-unknown-none-elf riscv32imac-unknown-none-elf; do
    if ! rustup target list --installed 2>/dev/null | grep -qx "$t"; then
        echo "install-tools: rustup target add $t"
        rustup target add "$t"
    fi
done

pkgs=()
command -v qemu-system-arm >/dev/null 2>&1 || pkgs+=(qemu-system-arm)
command -v qemu-system-riscv32 >/dev/null 2>&1 || pkgs+=(qemu-system-misc)
{ command -v arm-none-eabi-size && command -v arm-none-eabi-nm; } >/dev/null 2>&1 || pkgs+=(binutils-arm-none-eabi)
{ command -v riscv64-unknown-elf-size && command -v riscv64-unknown-elf-nm; } >/dev/null 2>&1 || pkgs+=(binutils-riscv64-unknown-elf)
command -v gcc >/dev/null 2>&1 || pkgs+=(gcc libc6-dev)
if ((${#pkgs[@]})); then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    echo "install-tools: apt-get install ${pkgs[*]}"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${pkgs[@]}"
fi
echo "install-tools: ok (thumbv7em-none-eabihf, thumbv6m-none-eabi, thumbv8m.main-none-eabihf, riscv32imc/riscv32imac-unknown-none-elf," \
    "qemu-system-arm, qemu-system-riscv32, arm-none-eabi-size/-nm, riscv64-unknown-elf-size/-nm, gcc)"
