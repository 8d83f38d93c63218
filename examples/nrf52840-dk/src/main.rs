//! A tflc-compiled model on a Nordic nRF52840-DK (Cortex-M4F at 64 MHz): one inference every
//! second, printing the winning class, the cycles of the whole inference and of each operator
//! (DWT cycle counter, read by an observer passed to `run_with`) over RTT.
//!
//! The model is compiled at build time by `include_model!` (build.rs chooses it; default: the
//! MLPerf Tiny keyword-spotting model with its golden input). Its arena is inside a `static`
//! `Model` in `.bss`; the weights are in flash; nothing is computed at start-up.

#![no_std]
#![no_main]

use core::cell::RefCell;
use cortex_m::peripheral::DWT;
use cortex_m_rt::entry;
use critical_section::Mutex;
use panic_rtt_target as _;
use rtt_target::{rprintln, rtt_init_print};
use tflc_runtime::{Observer, OpInfo};

#[forbid(unsafe_code)]
mod model {
    include!(concat!(env!("OUT_DIR"), "/model.rs"));
}

/// Input 0's bytes (empty: zeros).
static INPUT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/input.bin"));

static MODEL: Mutex<RefCell<model::Model>> = Mutex::new(RefCell::new(model::Model::new()));

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
    rtt_init_print!();
    let Some(mut cp) = cortex_m::Peripherals::take() else {
        panic!("core peripherals already taken");
    };
    cp.DCB.enable_trace();
    cp.DWT.enable_cycle_counter();
    rprintln!("tflc on nRF52840-DK: arena {} bytes, {} operators", model::ARENA_BYTES, model::OPS.len());
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
            rprintln!("inference {}: class {}, {} cycles ({} us at 64 MHz)", n, class, total, total / 64);
            // Once, per operator: the same inference through an observer.
            if n == 0 {
                let mut c = Cycles { per_op: [0; model::OPS.len()], next: 0, start: 0 };
                m.run_with(&mut c);
                for (op, cycles) in model::OPS.iter().zip(c.per_op) {
                    rprintln!("  op {:>3} {:<20} {:>9} cycles  {}", op.index, op.opcode, cycles, op.output);
                }
            }
        });
        n = n.wrapping_add(1);
        // About one second at 64 MHz.
        cortex_m::asm::delay(64_000_000);
    }
}
