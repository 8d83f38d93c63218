//! `cargo +nightly fuzz run parser`: the reader must return an error, never panic, on any
//! bytes. The same check runs for about two seconds in `cargo test` (`fuzz_smoke_reader`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = tflc::read_model(data) {
        // Walk what a later phase would touch.
        let _ = tflc::inspect::summarize(&model);
    }
});
