#!/usr/bin/env bash
# TFLite Micro's int8 DIV (reference/div.h DivElementwise) compiled for a Cortex-M4 as TFLite
# Micro builds it (arm-none-eabi-g++, -O2, -mcpu=cortex-m4, hard float) and run under QEMU
# (mps2-an386, semihosting), over all 65,536 int8 operand pairs for each parameter set of
# runtime/src/kernels/div/tests.rs's ARM_CASES; prints each case's FNV-1a-32 of the outputs,
# which that test compares with tflc's div_s8_elem. Where C leaves the reference's shifts
# undefined (an exponent of 32 or more for small quotients), the Cortex-M build and an x86
# build differ; tflc follows the Cortex-M one. The x86 hash is printed beside it.
#
# Usage: tools/div_s8_arm_vectors.sh TFLITE_MICRO_CHECKOUT GEMMLOWP_CHECKOUT
#   (tensorflow/tflite-micro at 90b983c2b3f1, google/gemmlowp at 719139ce as TFLite Micro
#   pins it; only headers are read). Needs arm-none-eabi-g++ with newlib (Debian:
#   gcc-arm-none-eabi libnewlib-arm-none-eabi), qemu-system-arm and g++.
set -euo pipefail
tflm="${1:?usage: $0 TFLITE_MICRO_CHECKOUT GEMMLOWP_CHECKOUT}"
gemm="${2:?usage: $0 TFLITE_MICRO_CHECKOUT GEMMLOWP_CHECKOUT}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > div.cc <<'EOF'
#include <cstdio>
#include <cstdint>
#include "tensorflow/lite/kernels/internal/reference/div.h"
static int8_t a[65536], b[65536], o[65536];
int main() {
  tflite::ArithmeticParams p = {};
  p.input1_offset = P_IN1; p.input2_offset = P_IN2; p.output_offset = P_OUT;
  p.output_multiplier = P_MULT; p.output_shift = P_SHIFT;
  p.quantized_activation_min = P_MIN; p.quantized_activation_max = P_MAX;
  for (int i = 0; i < 65536; i++) { a[i] = (int8_t)(i >> 8); b[i] = (int8_t)(i & 255); }
  tflite::reference_ops::DivElementwise(65536, p, a, b, o);
  uint32_t h = 2166136261u;
  for (int i = 0; i < 65536; i++) h = (h ^ (uint8_t)o[i]) * 16777619u;
  printf("%08lx\n", (unsigned long)h);
  return 0;
}
EOF
cat > start.c <<'EOF'
extern int main(void);
extern void initialise_monitor_handles(void);
extern void exit(int);
extern unsigned long __data_start__, __data_end__, __bss_start__, __bss_end__, __etext_data;
void reset(void) {
  *(volatile unsigned long *)0xE000ED88 |= (0xFul << 20); /* CPACR: the FPU */
  __asm volatile("dsb; isb");
  unsigned long *src = &__etext_data, *dst = &__data_start__;
  while (dst < &__data_end__) *dst++ = *src++;
  for (dst = &__bss_start__; dst < &__bss_end__;) *dst++ = 0;
  initialise_monitor_handles();
  exit(main());
}
void _init(void) {}
void _fini(void) {}
__attribute__((section(".vectors"), used)) const void *vectors[] = { (void *)0x20400000, (void *)reset };
EOF
cat > link.ld <<'EOF'
MEMORY { FLASH (rx) : ORIGIN = 0x00000000, LENGTH = 4M  RAM (rwx) : ORIGIN = 0x20000000, LENGTH = 4M }
ENTRY(reset)
SECTIONS {
  .text : { KEEP(*(.vectors)) *(.text*) *(.rodata*) . = ALIGN(4); } > FLASH
  .ARM.exidx : { *(.ARM.exidx*) } > FLASH
  .init_array : { PROVIDE_HIDDEN(__init_array_start = .); KEEP(*(.init_array*)) PROVIDE_HIDDEN(__init_array_end = .); } > FLASH
  .fini_array : { PROVIDE_HIDDEN(__fini_array_start = .); KEEP(*(.fini_array*)) PROVIDE_HIDDEN(__fini_array_end = .); } > FLASH
  __etext_data = LOADADDR(.data);
  .data : { __data_start__ = .; *(.data*) . = ALIGN(4); __data_end__ = .; } > RAM AT > FLASH
  .bss : { __bss_start__ = .; *(.bss*) *(COMMON) . = ALIGN(4); __bss_end__ = .; } > RAM
  end = .; __end__ = .;
}
EOF
inc=(-I"$tflm" -I"$gemm" -DTF_LITE_STATIC_MEMORY -DNDEBUG)
m4=(-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2 -ffunction-sections -fdata-sections)
arm-none-eabi-gcc "${m4[@]}" -c start.c -o start.o
# name in1_offset in2_offset out_offset multiplier shift act_min act_max (ARM_CASES)
while read -r name in1 in2 out mult shift lo hi; do
    defs=(-DP_IN1="$in1" -DP_IN2="$in2" -DP_OUT="$out" -DP_MULT="$mult" -DP_SHIFT="$shift" -DP_MIN="$lo" -DP_MAX="$hi")
    arm-none-eabi-g++ "${m4[@]}" -fno-rtti -fno-exceptions "${inc[@]}" "${defs[@]}" --specs=rdimon.specs -nostartfiles \
        -T link.ld -Wl,--gc-sections -o "$name.elf" div.cc start.o 2>/dev/null
    arm="$(timeout 120 qemu-system-arm -machine mps2-an386 -cpu cortex-m4 -nographic -monitor none -serial none \
        -semihosting-config enable=on,target=native -kernel "$name.elf" </dev/null)"
    g++ -O2 "${inc[@]}" "${defs[@]}" -o "$name.x86" div.cc
    echo "$name cortex-m4=$arm x86=$(./"$name.x86")"
done <<'EOF'
shift5 -3 7 -2 1677721600 5 -128 127
unit 0 0 0 1073741824 1 -128 127
relu 20 -9 5 1511828488 9 5 127
extremes 128 -127 -128 2147483647 0 -128 127
small 1 -1 0 1431655765 -3 -128 127
EOF
