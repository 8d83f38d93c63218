//! Deterministic fuzzing inside `cargo test`: case `i` always gets the same bytes, so a run
//! explores the same prefix of cases on every machine (only how far it gets within the time
//! budget varies), and a failure names its case for replay.

use arbtest::arbitrary::{Result, Unstructured};
use std::time::{Duration, Instant};

/// Runs `check` on cases 0, 1, 2, … until `budget` is spent (or `max_cases` ran); returns
/// the number of cases. `check` may return `Err` when the bytes run out (that case is simply
/// short); a panic is reported with its case number and re-raised.
#[allow(dead_code)]
pub fn fuzz(budget: Duration, max_cases: u64, mut check: impl FnMut(&mut Unstructured<'_>) -> Result<()>) -> u64 {
    let start = Instant::now();
    let mut buf = Vec::new();
    let mut case = 0u64;
    while case < max_cases && start.elapsed() < budget {
        fill(case, &mut buf);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut u = Unstructured::new(&buf);
            let _ = check(&mut u);
        }));
        if let Err(panic) = result {
            eprintln!("fuzz: case {case} panicked (replay with `replay_case({case})`)");
            std::panic::resume_unwind(panic);
        }
        case += 1;
    }
    case
}

/// The bytes of case `case`: 32 to 4 KiB from a xorshift stream seeded by the case number.
pub fn fill(case: u64, buf: &mut Vec<u8>) {
    let mut s = case.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let len = 32 + (next() % 4064) as usize;
    buf.clear();
    buf.extend((0..len).map(|_| next() as u8));
}
