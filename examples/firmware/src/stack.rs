//! Peak stack measurement by painting: at the start of `main`, every free word between the
//! end of the statics (`_stack_end`, after `.bss`/`.uninit`) and the current stack pointer is
//! filled with a pattern; after the inference, the lowest word that no longer holds the
//! pattern is the deepest point the stack reached. The stack starts at `_stack_start` (the
//! top of RAM) and grows down. (cortex-m-rt's linker script defines both symbols on Arm,
//! build.rs's `tflc-fw-riscv.x` on RISC-V.)
//!
//! The reported figure covers everything from reset to the call of [`peak_bytes`]: start-up,
//! copying the inputs, the inference and the comparison. It is exact to the word as long as
//! no frame happens to store the pattern itself, and it never under-reports by more than that.

use core::ptr::{addr_of, read_volatile, write_volatile};

const PATTERN: u32 = 0xCDCD_5A5A;
/// Words left unpainted right below the stack pointer: the painter's own spills.
const MARGIN_WORDS: usize = 16;

extern "C" {
    /// Top of the stack (initial SP), from cortex-m-rt's `link.x` (RISC-V: `tflc-fw-riscv.x`).
    static _stack_start: u32;
    /// Lowest address the stack may use: the end of `.bss`/`.uninit`.
    static _stack_end: u32;
}

fn bounds() -> (usize, usize) {
    // Only the addresses of the linker symbols are taken (safe); they are never read.
    (addr_of!(_stack_end) as usize, addr_of!(_stack_start) as usize)
}

/// Paints the free stack below the current stack pointer. Call first thing in `main`.
#[inline(never)]
pub fn paint() {
    let (low, _) = bounds();
    let sp = crate::platform::stack_pointer();
    let mut p = low;
    while p + 4 * MARGIN_WORDS < sp {
        // SAFETY: [low, sp - margin) is RAM between the end of the statics and the live
        // stack (the linker script guarantees low <= top of stack, and nothing below the
        // stack pointer is in use); no Rust object lives there, so writing to it cannot
        // alias any reference. Word-aligned: `_stack_end` is 4-aligned (linker assert).
        unsafe { write_volatile(p as *mut u32, PATTERN) };
        p += 4;
    }
}

/// The deepest the stack has been since [`paint`], in bytes below the top of RAM.
#[inline(never)]
pub fn peak_bytes() -> usize {
    let (low, top) = bounds();
    let mut p = low;
    // SAFETY: reads of aligned words in [low, top), which is RAM (see `paint`); the words
    // below the deepest stack frame are not Rust objects, and the ones above it are read
    // as plain integers through volatile reads, never through references.
    while p < top && unsafe { read_volatile(p as *const u32) } == PATTERN {
        p += 4;
    }
    top - p
}
