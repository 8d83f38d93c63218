//! RISC-V (`riscv32imc`, `riscv32imac`) on QEMU `virt` (`-bios none`, machine mode, one
//! hart): a hand-written start-up, trap handler, report line on the ns16550a UART and exit
//! status through the SiFive test finisher, as TFLite Micro's RV32 baseline harness does
//! (`tflm_rv32_results.md`). No runtime crate: the whole start-up is the `_start` below.
//!
//! The memory map is build.rs's `tflc-fw-riscv.x`: the load image ("flash": `.text`,
//! `.rodata`, the initial `.data`) at 0x8000_0000, RAM (`.data`, `.bss`, `.uninit`, then the
//! stack growing down from the top) at 0x8040_0000.

use crate::line::Line;
use core::arch::{asm, global_asm};
use core::ptr::{read_volatile, write_volatile};

/// The ns16550a UART of QEMU `virt` (`VIRT_UART0`).
const UART0: usize = 0x1000_0000;
/// Line status register: bit 5 = transmit holding register empty.
const UART_LSR: usize = UART0 + 5;
/// The SiFive test finisher of QEMU `virt` (`VIRT_TEST`): writing `0x5555` ends QEMU with
/// status 0, `(code << 16) | 0x3333` with status `code`.
const TEST_FINISHER: usize = 0x0010_0000;

// Reset: QEMU `virt` with `-bios none` jumps to 0x8000_0000, the first byte of `.text.start`
// (the linker script keeps it first). Sets gp (for gp-relative accesses, if the linker
// relaxes any) and sp, zeroes `.bss`, copies `.data` from its load address, points mtvec at
// the trap handler and calls `tflc_fw_start`. Word loops: the linker script aligns every
// bound to 4.
global_asm!(
    r#"
    .section .text.start, "ax"
    .global _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, _stack_start
    la t0, _sbss
    la t1, _ebss
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  la t0, _sdata
    la t1, _edata
    la t2, _sidata
3:  bgeu t0, t1, 4f
    lw t3, 0(t2)
    sw t3, 0(t0)
    addi t0, t0, 4
    addi t2, t2, 4
    j 3b
4:  la t0, _tflc_fw_trap_entry
    .option push
    .option arch, +zicsr
    csrw mtvec, t0
    .option pop
    call tflc_fw_start
5:  j 5b

    .balign 4
_tflc_fw_trap_entry:
    .option push
    .option arch, +zicsr
    csrr a0, mcause
    csrr a1, mepc
    csrr a2, mtval
    .option pop
    la sp, _stack_start
    j tflc_fw_trap
"#
);

#[no_mangle]
extern "C" fn tflc_fw_start() -> ! {
    crate::main()
}

/// Any trap (an illegal instruction, e.g. an A-extension instruction on the IMC core, a
/// misaligned or faulting access, `ebreak`) ends the run with exit status 1. Runs on a fresh
/// stack (the trap entry resets sp).
#[no_mangle]
extern "C" fn tflc_fw_trap(mcause: usize, mepc: usize, mtval: usize) -> ! {
    Line::new().s("tflc-fw: model=").s(crate::golden::NAME).s(" result=fault trap mcause=").hex(mcause as u32).s(" mepc=").hex(mepc as u32).s(" mtval=").hex(mtval as u32);
    exit(false);
    halt()
}

/// A panic ends the run with exit status 1, reporting where (not the message: formatting
/// it would link `core::fmt`, see `line.rs`).
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    let mut line = Line::new();
    line.s("tflc-fw: model=").s(crate::golden::NAME).s(" result=panic");
    if let Some(at) = info.location() {
        line.s(" at ").s(at.file()).s(":").u(at.line() as usize);
    }
    drop(line);
    exit(false);
    halt()
}

/// The report channel: the UART (QEMU `-nographic` sends it to stdout).
pub struct Out;

impl Out {
    pub fn open() -> Self {
        Out
    }

    pub fn write(&mut self, b: &[u8]) {
        for &b in b {
            // SAFETY: UART0 and UART_LSR are the ns16550a's registers on QEMU `virt` (MMIO,
            // byte wide, always mapped); volatile byte accesses, no Rust object lives there.
            unsafe {
                while read_volatile(UART_LSR as *const u8) & 0x20 == 0 {}
                write_volatile(UART0 as *mut u8, b);
            }
        }
    }
}

/// Ends QEMU through the test finisher: exit status 0 when `ok`, else 1.
pub fn exit(ok: bool) {
    let code: u32 = if ok { 0x5555 } else { (1 << 16) | 0x3333 };
    // SAFETY: TEST_FINISHER is the SiFive test device on QEMU `virt` (MMIO, word wide); the
    // write ends the emulation.
    unsafe { write_volatile(TEST_FINISHER as *mut u32, code) };
}

/// Stops here (after [`exit`], which does not return under QEMU).
pub fn halt() -> ! {
    loop {
        // SAFETY: `wfi` only waits; nothing wakes this hart (no interrupt is enabled).
        unsafe { asm!("wfi", options(nomem, nostack)) };
    }
}

/// The current stack pointer.
#[inline(always)]
pub fn stack_pointer() -> usize {
    let sp: usize;
    // SAFETY: reads the sp register into a general register; no memory, no side effect.
    unsafe { asm!("mv {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags)) };
    sp
}

// The markers of the measured window, in assembly so that their size and alignment are
// fixed (see `arm.rs`: the plugin starts or ends a window at every translation block that
// starts inside a marker, and QEMU starts one at each page boundary). Eight-byte aligned,
// at most four bytes each (`nop; ret` as in TFLite Micro's RV32 harness, and `ret`), so
// neither straddles a page and nothing merges them; a call to them is opaque to LLVM, a
// compiler barrier.
global_asm!(
    ".section .text.tflc_fw_markers,\"ax\",@progbits",
    ".balign 8",
    ".global bench_start",
    ".type bench_start,@function",
    "bench_start:",
    "c.nop",
    "ret",
    ".size bench_start, . - bench_start",
    ".balign 8",
    ".global bench_end",
    ".type bench_end,@function",
    "bench_end:",
    "ret",
    ".size bench_end, . - bench_end",
);

/// critical-section for one hart in machine mode: masks machine interrupts (mstatus.MIE)
/// and restores the previous state. (The firmware enables no interrupt; this keeps the
/// `critical_section::Mutex` around the model honest anyway.)
struct SingleHart;
critical_section::set_impl!(SingleHart);

// SAFETY: one hart, machine mode: clearing mstatus.MIE excludes every other context (trap
// handlers here never return), and `release` restores exactly the state `acquire` saw.
unsafe impl critical_section::Impl for SingleHart {
    unsafe fn acquire() -> bool {
        let mstatus: usize;
        // SAFETY: atomically reads mstatus and clears MIE (bit 3); machine mode may.
        unsafe { asm!(".option push", ".option arch, +zicsr", "csrrci {}, mstatus, 8", ".option pop", out(reg) mstatus, options(nostack)) };
        mstatus & 8 != 0
    }

    unsafe fn release(was_enabled: bool) {
        if was_enabled {
            // SAFETY: sets mstatus.MIE again, as it was before `acquire`.
            unsafe { asm!(".option push", ".option arch, +zicsr", "csrsi mstatus, 8", ".option pop", options(nostack)) };
        }
    }
}
