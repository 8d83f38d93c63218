//! Runs one tflc-compiled model on a Cortex-M4F (QEMU `mps2-an386`; built for
//! `thumbv6m-none-eabi`, a Cortex-M0 on QEMU `microbit`; for `thumbv8m.main-none-eabihf`, a
//! Cortex-M33 on `mps2-an505` or a Cortex-M55 on `mps3-an547`; for `riscv32imc` /
//! `riscv32imac`, a 32-bit RISC-V core on `virt`) and checks it against TFLite Micro's
//! golden output. What differs per architecture (start-up, report channel, exit, markers)
//! is in `arm.rs` and `riscv.rs`.
//!
//! The model (chosen by a cargo feature, see build.rs) is compiled by `include_model!` at
//! build time: its weights are `static`s in flash, its arena lives inside a `static`
//! [`Model`](model::Model) in `.bss`, and there is no start-up work. `main` copies golden
//! run 0's inputs into the arena, runs one inference between [`bench_start`] and
//! [`bench_end`] (the QEMU instruction-count plugin's window), compares every output byte
//! with the golden output, prints one `tflc-fw:` report line (semihosting on Arm, the UART on
//! RISC-V) and ends QEMU with exit status 0 on a match, 1 on a mismatch, a panic or a fault. With the `op-markers`
//! feature, `main` runs the model with `run_with(&mut Markers)`, an observer that calls
//! `op_marker(N)` before each operator (for `run.sh --per-op`); without it, `run()`. With
//! `dot-self-test`, `main` first checks the runtime's dot micro-kernels against the scalar
//! reference on this core (`run.sh --m55`: the Helium ones, which no host can run).

#![no_std]
#![no_main]
#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(target_arch = "arm")]
mod arm;
#[cfg(target_arch = "riscv32")]
mod riscv;
mod line;
mod stack;

#[cfg(target_arch = "arm")]
use arm as platform;
#[cfg(target_arch = "riscv32")]
use riscv as platform;

use core::cell::RefCell;
use critical_section::Mutex;
use line::Line;

/// The window markers `bench_start` and `bench_end`: `global_asm!` in `arm.rs` and
/// `riscv.rs` (fixed size and alignment, see there), called through these wrappers.
mod markers {
    extern "C" {
        pub fn bench_start();
        pub fn bench_end();
    }
}

/// Start of the measured window (the platform's `bench_start`).
#[inline(always)]
fn bench_start() {
    // SAFETY: the platform's `bench_start` is `nop` and return; it touches no memory.
    unsafe { markers::bench_start() }
}

/// End of the measured window (the platform's `bench_end`).
#[inline(always)]
fn bench_end() {
    // SAFETY: the platform's `bench_end` is a return; it touches no memory.
    unsafe { markers::bench_end() }
}

/// The generated model module (`tflc_macros::include_model!`, path written by build.rs).
#[forbid(unsafe_code)]
// include_model!'s expansion is not linted for unused items; the op-markers build's
// include! of the same code is.
#[cfg_attr(feature = "op-markers", allow(dead_code))]
mod model {
    include!(concat!(env!("OUT_DIR"), "/model.rs"));
}

/// Golden run 0 of the model: `NAME`, `INPUTS`, `OUTPUTS` (byte slices in flash).
mod golden {
    include!(concat!(env!("OUT_DIR"), "/golden.rs"));
}

/// The model and its arena. `Model::new()` is a `const fn` that zeroes the arena, so this
/// is `.bss`: nothing is copied or computed at start-up.
static MODEL: Mutex<RefCell<model::Model>> = Mutex::new(RefCell::new(model::Model::new()));

/// The observer of the per-operator build: a call of the never-inlined
/// `__private::op_marker(index)` before each operator, where the QEMU plugin splits the count.
#[cfg(feature = "op-markers")]
struct Markers;

#[cfg(feature = "op-markers")]
impl tflc_runtime::Observer for Markers {
    #[inline(always)]
    fn before(&mut self, op: &tflc_runtime::OpInfo) {
        tflc_runtime::__private::op_marker(op.index);
    }
}

/// How the run went.
enum Verdict {
    Match,
    /// Output `output`: `differing` bytes differ, the first at `first`.
    Mismatch { output: usize, first: usize, got: u8, want: u8, differing: usize },
    /// The golden data does not fit the model's I/O (wrong model or golden files).
    Shape { what: &'static str, index: usize, model_bytes: usize, golden_bytes: usize },
    /// The model was already borrowed (it is borrowed nowhere else: a harness bug).
    Busy,
}

fn run_once(m: &mut model::Model) -> Verdict {
    // Opaque to the optimiser: the golden bytes stay in flash as the `TFLC_FW_GOLDEN_*`
    // statics (run.sh reads their sizes) instead of being folded into the code.
    let (inputs, outputs) = core::hint::black_box((golden::INPUTS, golden::OUTPUTS));
    if inputs.len() != model::INPUTS {
        return Verdict::Shape { what: "input count", index: 0, model_bytes: model::INPUTS, golden_bytes: inputs.len() };
    }
    if outputs.len() != model::OUTPUTS {
        return Verdict::Shape { what: "output count", index: 0, model_bytes: model::OUTPUTS, golden_bytes: outputs.len() };
    }
    for (i, g) in inputs.iter().enumerate() {
        let dst = m.input_bytes_mut(i);
        if dst.len() != g.len() {
            return Verdict::Shape { what: "input", index: i, model_bytes: dst.len(), golden_bytes: g.len() };
        }
        dst.copy_from_slice(g);
    }

    bench_start();
    #[cfg(not(feature = "op-markers"))]
    m.run();
    #[cfg(feature = "op-markers")]
    m.run_with(&mut Markers);
    bench_end();

    for (i, want) in outputs.iter().enumerate() {
        let got = m.output_bytes(i);
        if got.len() != want.len() {
            return Verdict::Shape { what: "output", index: i, model_bytes: got.len(), golden_bytes: want.len() };
        }
        let mut diff = got.iter().zip(want.iter()).enumerate().filter(|(_, (a, b))| a != b);
        if let Some((first, (&g, &w))) = diff.next() {
            return Verdict::Mismatch { output: i, first, got: g, want: w, differing: 1 + diff.count() };
        }
    }
    Verdict::Match
}

/// The `dot-self-test` build (`run.sh --m55`): before the model, the runtime's selected dot
/// micro-kernels against its scalar reference on this core (`__private::dot_self_test`; for
/// Helium the only place they run), one `tflc-fw: dot-self-test` line, the first ten
/// differences, and exit status 1 if any.
#[cfg(feature = "dot-self-test")]
fn dot_self_test() {
    let mut shown = 0;
    let (name, checks, failures) = tflc_runtime::__private::dot_self_test(4, &mut |what, len, got, want| {
        if shown < 10 {
            Line::new().s("tflc-fw: dot-self-test difference kernel=").s(what).s(" len=").u(len).s(" got=").i(got).s(" want=").i(want);
            shown += 1;
        }
    });
    Line::new().s("tflc-fw: dot-self-test implementation=").s(name).s(" checks=").u(checks as usize).s(" failures=").u(failures as usize);
    if failures != 0 {
        platform::exit(false);
        platform::halt()
    }
}

/// The entry point once statics are set up: cortex-m-rt's `#[entry]` on Arm, `riscv.rs`'s
/// start-up on RISC-V.
#[cfg_attr(target_arch = "arm", cortex_m_rt::entry)]
fn main() -> ! {
    #[cfg(feature = "dot-self-test")]
    dot_self_test();
    stack::paint();
    // `try_borrow_mut`: `borrow_mut`'s panic would link `core::fmt` (see `line.rs`); the
    // model is borrowed nowhere else.
    let verdict = critical_section::with(|cs| match MODEL.borrow(cs).try_borrow_mut() {
        Ok(mut m) => run_once(&mut m),
        Err(_) => Verdict::Busy,
    });
    let stack_peak = stack::peak_bytes();
    let name = golden::NAME;
    let arena = model::ARENA_BYTES;
    match verdict {
        Verdict::Match => {
            Line::new().s("tflc-fw: model=").s(name).s(" result=match arena_bytes=").u(arena).s(" stack_peak_bytes=").u(stack_peak);
            platform::exit(true);
        }
        Verdict::Mismatch { output, first, got, want, differing } => {
            Line::new()
                .s("tflc-fw: model=")
                .s(name)
                .s(" result=mismatch output=")
                .u(output)
                .s(" differing_bytes=")
                .u(differing)
                .s(" first_at=")
                .u(first)
                .s(" got=")
                .i(i32::from(got as i8))
                .s(" want=")
                .i(i32::from(want as i8))
                .s(" arena_bytes=")
                .u(arena)
                .s(" stack_peak_bytes=")
                .u(stack_peak);
            platform::exit(false);
        }
        Verdict::Shape { what, index, model_bytes, golden_bytes } => {
            Line::new()
                .s("tflc-fw: model=")
                .s(name)
                .s(" result=error golden data does not fit the model: ")
                .s(what)
                .s(" ")
                .u(index)
                .s(": model ")
                .u(model_bytes)
                .s(" bytes, golden ")
                .u(golden_bytes)
                .s(" bytes");
            platform::exit(false);
        }
        Verdict::Busy => {
            Line::new().s("tflc-fw: model=").s(name).s(" result=error the model is already borrowed");
            platform::exit(false);
        }
    }
    // `exit` returns only without a host that ends the emulation; stop here.
    platform::halt()
}
