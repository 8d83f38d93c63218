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

/// Start of the measured window. Not inlined, and with a body different from
/// [`bench_end`] so that LLVM does not merge the two; `dmb` is a compiler barrier too, so
/// no memory access of the inference moves across the marker.
#[no_mangle]
#[inline(never)]
pub extern "C" fn bench_start() {
    cortex_m::asm::dmb();
}

/// End of the measured window (see [`bench_start`]).
#[no_mangle]
#[inline(never)]
pub extern "C" fn bench_end() {
    cortex_m::asm::dmb();
    cortex_m::asm::nop();
}

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
