//! Cortex-M (`thumbv6m`, `thumbv7em`, `thumbv8m.main`): cortex-m-rt's reset handler (its
//! `#[entry]` is on `main`) and
//! vector table (it zeroes `.bss`, copies `.data` and, on `eabihf` targets, enables the FPU,
//! CP10/CP11 in CPACR, which on the Cortex-M55 also enables Helium), reports over
//! semihosting and the exit status through semihosting's `SYS_EXIT`.

use crate::line::Line;
use cortex_m_rt::{exception, ExceptionFrame};
use cortex_m_semihosting::{debug, hio};

/// The report channel: semihosting's console (`:tt`), opened once per line.
pub struct Out(Option<hio::HostStream>);

impl Out {
    pub fn open() -> Self {
        Out(hio::hstdout().ok())
    }

    pub fn write(&mut self, b: &[u8]) {
        if let Some(out) = &mut self.0 {
            let _ = out.write_all(b);
        }
    }
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

/// Ends QEMU: exit status 0 when `ok`, else 1. Returns only without a semihosting host
/// (then [`halt`]).
#[inline(always)]
pub fn exit(ok: bool) {
    debug::exit(if ok { debug::EXIT_SUCCESS } else { debug::EXIT_FAILURE });
}

/// Stops here (after [`exit`]).
#[inline(always)]
pub fn halt() -> ! {
    loop {
        cortex_m::asm::bkpt();
    }
}

/// The current stack pointer (main stack).
#[inline(always)]
pub fn stack_pointer() -> usize {
    cortex_m::register::msp::read() as usize
}

// The markers of the measured window, in assembly so that their size and alignment are
// fixed: the instruction-count plugin starts (ends) a window at every translation block
// that starts inside `bench_start` (`bench_end`), and QEMU starts a new block at a page
// boundary, so a marker across one counted its window twice (seen on the M55 for vww when
// LLVM laid out `bench_end` with a frame-pointer prologue across a page). Eight-byte
// aligned, each at most four bytes, neither can straddle a page; their bodies differ
// (`nop; bx lr`, `bx lr`), so nothing merges them. A call to them is opaque to LLVM, a
// compiler barrier: no memory access of the inference moves across a marker.
core::arch::global_asm!(
    ".section .text.tflc_fw_markers,\"ax\",%progbits",
    ".balign 8",
    ".global bench_start",
    ".type bench_start,%function",
    ".thumb_func",
    "bench_start:",
    "nop",
    "bx lr",
    ".size bench_start, . - bench_start",
    ".balign 8",
    ".global bench_end",
    ".type bench_end,%function",
    ".thumb_func",
    "bench_end:",
    "bx lr",
    ".size bench_end, . - bench_end",
);

/// A fault ends the run with exit status 1 instead of hanging until the timeout.
#[exception]
// SAFETY: cortex-m-rt requires the HardFault handler to be an `unsafe fn` (it must not be
// called from Rust code); this one only reads the stacked frame and exits.
unsafe fn HardFault(ef: &ExceptionFrame) -> ! {
    Line::new().s("tflc-fw: model=").s(crate::golden::NAME).s(" result=fault HardFault pc=").hex(ef.pc()).s(" lr=").hex(ef.lr());
    exit(false);
    halt()
}

/// Any other exception or interrupt (none is enabled) is a fault as well.
#[exception]
// SAFETY: cortex-m-rt requires `DefaultHandler` to be an `unsafe fn`; it only reports and exits.
unsafe fn DefaultHandler(irqn: i16) {
    Line::new().s("tflc-fw: model=").s(crate::golden::NAME).s(" result=fault unexpected exception ").i(i32::from(irqn));
    exit(false);
}
