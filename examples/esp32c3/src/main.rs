//! A tflc-compiled model on an ESP32-C3 (RV32IMC at 160 MHz): one inference every second,
//! printing the winning class, the cycles of the whole inference and of each operator (the
//! core's cycle counter, read by an observer passed to `run_with`) on the USB serial console.
//!
//! The model is compiled at build time by `include_model!` (build.rs chooses it; default: the
//! MLPerf Tiny keyword-spotting model of `../shared` with its golden input). Its arena is
//! inside a `static` `Model` in `.bss` (internal SRAM); the weights stay in flash, read
//! through the cache; nothing is computed at start-up.

#![no_std]
#![no_main]

use core::cell::RefCell;
use critical_section::Mutex;
use esp_hal::main;
use esp_println::println;
use tflc_runtime::{Observer, OpInfo};

#[forbid(unsafe_code)]
mod model {
    include!(concat!(env!("OUT_DIR"), "/model.rs"));
}

// The application descriptor the ESP-IDF bootloader checks before it starts the image.
esp_bootloader_esp_idf::esp_app_desc!();

/// Input 0's bytes (empty: zeros).
static INPUT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/input.bin"));

static MODEL: Mutex<RefCell<model::Model>> = Mutex::new(RefCell::new(model::Model::new()));

/// The ESP32-C3's cycle counter. The C3 does not implement the standard `mcycle` CSR; its
/// machine performance counter is `mpccr` (CSR 0x7E2), counting the events `mpcer` (0x7E0)
/// selects while `mpcmr` (0x7E1) enables it (ESP32-C3 TRM, "Performance Counter"; ESP-IDF's
/// `esp_cpu_get_cycle_count` reads the same CSR). Event 0 is clock cycles.
mod cycles {
    /// Counts clock cycles from now on.
    pub fn enable() {
        // SAFETY: writes the C3's performance-counter CSRs (event select: cycles; mode: count),
        // which affect nothing but that counter; the code runs in machine mode.
        unsafe { core::arch::asm!("csrw 0x7e0, {0}", "csrw 0x7e1, {0}", in(reg) 1u32) };
    }

    /// The counter (32 bits, wraps about every 27 s at 160 MHz).
    #[inline(always)]
    pub fn now() -> u32 {
        let c: u32;
        // SAFETY: reads the C3's machine performance counter; no side effect.
        unsafe { core::arch::asm!("csrr {0}, 0x7e2", out(reg) c) };
        c
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
        self.start = cycles::now();
    }
    fn after(&mut self, _op: &OpInfo) {
        let now = cycles::now();
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

/// Busy-waits about `ms` milliseconds.
fn delay_ms(ms: u64) {
    let start = esp_hal::time::Instant::now();
    while start.elapsed() < esp_hal::time::Duration::from_millis(ms) {}
}

#[main]
fn main() -> ! {
    // 160 MHz, the C3's fastest clock.
    let _peripherals = esp_hal::init(esp_hal::Config::default().with_cpu_clock(esp_hal::clock::CpuClock::max()));
    cycles::enable();
    println!("tflc on ESP32-C3: arena {} bytes, {} operators", model::ARENA_BYTES, model::OPS.len());
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
            let t0 = cycles::now();
            m.run();
            let total = cycles::now().wrapping_sub(t0);
            let class = argmax_i8(m.output_bytes(0));
            println!("inference {}: class {}, {} cycles ({} us at 160 MHz)", n, class, total, total / 160);
            // Once, per operator: the same inference through an observer.
            if n == 0 {
                let mut c = Cycles { per_op: [0; model::OPS.len()], next: 0, start: 0 };
                m.run_with(&mut c);
                for (op, cycles) in model::OPS.iter().zip(c.per_op) {
                    println!("  op {:>3} {:<20} {:>9} cycles  {}", op.index, op.opcode, cycles, op.output);
                }
            }
        });
        n = n.wrapping_add(1);
        delay_ms(1000);
    }
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    println!("panic: {}", info);
    loop {}
}
