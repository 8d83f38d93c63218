//! A tflc-compiled model on an Arm MPS3 board with the AN547 image (Corstone-300: a
//! Cortex-M55 with Helium at 32 MHz): one inference after another, printing the winning class
//! and the cycles of the whole inference and of each operator (DWT cycle counter, read by an
//! observer passed to `run_with`) on UART0.
//!
//! The model is compiled at build time by `include_model!` (build.rs chooses it; default: the
//! MLPerf Tiny keyword-spotting model with its golden input). It runs the Helium micro-kernels:
//! `.cargo/config.toml` builds with `-C target-cpu=cortex-m55`, which makes tflc-runtime set
//! `cfg(tflc_mve)`. Its arena is inside a `static` `Model` in `.bss`, which `memory.x` puts in
//! the DTCM; the code and the weights are in the ITCM; nothing is computed at start-up.

#![no_std]
#![no_main]

use core::cell::RefCell;
use core::fmt::Write as _;
use cortex_m::peripheral::DWT;
use cortex_m_rt::entry;
use critical_section::Mutex;
use tflc_runtime::{Observer, OpInfo};

#[forbid(unsafe_code)]
mod model {
    include!(concat!(env!("OUT_DIR"), "/model.rs"));
}

/// Input 0's bytes (empty: zeros).
static INPUT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/input.bin"));

static MODEL: Mutex<RefCell<model::Model>> = Mutex::new(RefCell::new(model::Model::new()));

/// UART0 of the AN547 (a CMSDK APB UART; the Secure alias of 0x4930_3000, the core runs
/// Secure): on the MPS3's first USB serial port, and on QEMU's `-nographic` terminal.
const UART0: usize = 0x5930_3000;
/// Its registers: data, state (bit 0: transmit buffer full), control (bit 0: transmit
/// enable), baud-rate divider (the peripheral clock over the baud rate: 25 MHz / 115200).
const DATA: usize = 0x00;
const STATE: usize = 0x04;
const CTRL: usize = 0x08;
const BAUDDIV: usize = 0x10;

struct Uart;

impl Uart {
    fn write_reg(offset: usize, value: u32) {
        // SAFETY: UART0's registers are memory-mapped device registers of this board, 4-byte
        // aligned, written with volatile accesses only from this single-threaded program.
        unsafe { core::ptr::write_volatile((UART0 + offset) as *mut u32, value) }
    }

    fn read_reg(offset: usize) -> u32 {
        // SAFETY: as in `write_reg`: a device register of this board, read volatile.
        unsafe { core::ptr::read_volatile((UART0 + offset) as *const u32) }
    }

    fn init() -> Uart {
        Uart::write_reg(BAUDDIV, 25_000_000 / 115_200);
        Uart::write_reg(CTRL, 1);
        Uart
    }
}

impl core::fmt::Write for Uart {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for b in s.bytes() {
            while Uart::read_reg(STATE) & 1 != 0 {}
            Uart::write_reg(DATA, u32::from(b));
        }
        Ok(())
    }
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    let _ = writeln!(Uart, "panic: {info}");
    loop {
        cortex_m::asm::wfi();
    }
}

/// Cycles of each operator of [`model::OPS`], in order.
struct Cycles {
    per_op: [u32; model::OPS.len()],
    next: usize,
    start: u32,
}

impl Observer for Cycles {
    fn before(&mut self, _op: &OpInfo) {
        self.start = DWT::cycle_count();
    }
    fn after(&mut self, _op: &OpInfo) {
        let now = DWT::cycle_count();
        if let Some(slot) = self.per_op.get_mut(self.next) {
            *slot = now.wrapping_sub(self.start);
        }
        self.next += 1;
    }
}

/// Index of the largest byte of `out` read as int8 (the class of a quantized classifier).
fn argmax_i8(out: &[u8]) -> usize {
    let mut best = 0;
    for (i, &b) in out.iter().enumerate() {
        if (b as i8) > (out[best] as i8) {
            best = i;
        }
    }
    best
}

#[entry]
fn main() -> ! {
    let mut uart = Uart::init();
    let Some(mut cp) = cortex_m::Peripherals::take() else {
        panic!("core peripherals already taken");
    };
    cp.DCB.enable_trace();
    cp.DWT.enable_cycle_counter();
    let _ = writeln!(
        uart,
        "tflc on MPS3 AN547 (Cortex-M55, {} kernels): arena {} bytes, {} operators",
        tflc_runtime::isa::DOT,
        model::ARENA_BYTES,
        model::OPS.len()
    );
    let mut n = 0u32;
    loop {
        critical_section::with(|cs| {
            let mut m = MODEL.borrow_ref_mut(cs);
            let dst = m.input_bytes_mut(0);
            if INPUT.len() == dst.len() {
                dst.copy_from_slice(INPUT);
            } else {
                dst.fill(0);
            }
            // The whole inference with plain run(): what a product ships.
            let t0 = DWT::cycle_count();
            m.run();
            let total = DWT::cycle_count().wrapping_sub(t0);
            let class = argmax_i8(m.output_bytes(0));
            let _ = writeln!(uart, "inference {n}: class {class}, {total} cycles ({} us at 32 MHz)", total / 32);
            // Once, per operator: the same inference through an observer.
            if n == 0 {
                let mut c = Cycles { per_op: [0; model::OPS.len()], next: 0, start: 0 };
                m.run_with(&mut c);
                for (op, cycles) in model::OPS.iter().zip(c.per_op) {
                    let _ = writeln!(uart, "  op {:>3} {:<20} {:>9} cycles  {}", op.index, op.opcode, cycles, op.output);
                }
            }
        });
        n = n.wrapping_add(1);
        // About one second at 32 MHz.
        cortex_m::asm::delay(32_000_000);
    }
}
