//! Model mutation and the whole-pipeline check, for the pipeline fuzz target
//! (`fuzz/fuzz_targets/pipeline.rs`), the campaign driver (`examples/fuzz_campaign.rs`) and
//! the smoke tests in `cargo test`.
//!
//! [`mutate`] makes the kinds of damage a hostile or broken file has: bit flips, bytes set to
//! extreme values, little-endian words set to extreme integers (huge and negative dims, bad
//! indices, out-of-range zero points) or floats (NaN, zero, negative, infinite scales),
//! truncations, splices of another model's bytes, and duplicated or deleted runs.
//! [`check_pipeline`] runs what `tflc inspect`, `tflc plan --verify` and `tflc compile` run and
//! reports anything that is not a clean answer: a plan the verifier rejects, or a module the
//! target could not link. A panic propagates to the caller (the fuzzer's crash).

use arbitrary::{Result, Unstructured};

/// Structure-aware mutation: fields changed through the schema, written back as a valid
/// flatbuffer (`tflite::mutate`, docs/FUZZING.md).
pub use crate::tflite::mutate::{mutate_fields, round_trip, EDIT_KINDS};

/// Extreme little-endian 32-bit words.
const WORDS: [u32; 12] = [
    0,
    1,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0xffff_fffe,
    0x0001_0000,
    0x4000_0000,
    0x7fc0_0000, // NaN
    0xbf80_0000, // -1.0
    0x7f80_0000, // +inf
    0x0000_8000,
];

/// One to `max_edits` random edits of `seed` (`other` is a source of spliced bytes).
pub fn mutate(seed: &[u8], other: &[u8], max_edits: usize, u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    let mut b = seed.to_vec();
    for _ in 0..u.int_in_range(1..=max_edits.max(1))? {
        if b.is_empty() {
            break;
        }
        let pos = u.choose_index(b.len())?;
        match u.int_in_range(0..=7u8)? {
            0 => b[pos] ^= 1 << u.int_in_range(0..=7u8)?,
            1 => b[pos] = *u.choose(&[0u8, 1, 0x7f, 0x80, 0xff])?,
            2 | 3 => {
                let w = u.choose(&WORDS)?.to_le_bytes();
                // Aligned like flatbuffer scalars most of the time.
                let at = if u.ratio(3, 4)? { pos & !3 } else { pos };
                for (k, &x) in w.iter().enumerate() {
                    if let Some(slot) = b.get_mut(at + k) {
                        *slot = x;
                    }
                }
            }
            4 => b.truncate(pos.max(1)),
            5 if !other.is_empty() => {
                let from = u.choose_index(other.len())?;
                let len = u.int_in_range(1..=64usize)?.min(other.len() - from);
                for k in 0..len {
                    if let Some(slot) = b.get_mut(pos + k) {
                        *slot = other[from + k];
                    }
                }
            }
            6 => {
                let len = u.int_in_range(1..=16usize)?.min(b.len() - pos);
                let run: Vec<u8> = b[pos..pos + len].to_vec();
                b.splice(pos..pos, run);
            }
            _ => {
                let len = u.int_in_range(1..=16usize)?.min(b.len() - pos);
                b.drain(pos..pos + len);
            }
        }
    }
    Ok(b)
}

/// How far a model got through [`check_pipeline`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reached {
    /// The bytes parsed into the IR.
    pub read: bool,
    /// Subgraph 0 was planned and its plan verified.
    pub planned: bool,
    /// The model compiled to Rust.
    pub compiled: bool,
}

/// Runs `bytes` through read + inspect, plan + verify, and compile (with `opts`); `Err`
/// describes a wrong answer (a plan that fails verification, an emitted module whose arena or
/// weights exceed what its target can address). Errors the model deserves are fine.
pub fn check_pipeline(bytes: &[u8], opts: &crate::CompileOptions) -> std::result::Result<Reached, String> {
    let mut reached = Reached::default();
    let Ok(model) = crate::passes::read_model(bytes) else { return Ok(reached) };
    reached.read = true;
    let _ = crate::inspect::summarize(&model);
    let lowered = crate::lower::lower_subgraph(model.main());
    let popts = crate::pipeline::plan_options(
        &lowered,
        crate::plan::PlanOptions { align: opts.align as u64, verify: true, ..crate::plan::PlanOptions::default() },
    );
    match crate::plan::plan_subgraph(model.main(), &popts) {
        Ok(sp) => {
            reached.planned = true;
            let v = crate::plan::verify::verify(&sp.problem, &sp.plan);
            if !v.is_empty() {
                return Err(format!("the plan fails verification: {v:?}"));
            }
        }
        Err(crate::plan::PlanError::Verification { violations }) => {
            return Err(format!("the plan fails verification: {violations:?}"));
        }
        Err(_) => {}
    }
    if let Ok(c) = crate::compile(bytes, opts) {
        reached.compiled = true;
        let limits = crate::pipeline::SizeLimits::for_target(opts.target_pointer_width).map_err(|e| e.to_string())?;
        let (arena, weights) = (c.arena_bytes() as u64, c.weights.len() as u64);
        if arena > limits.max_object || weights > limits.max_object || arena + weights > limits.max_total {
            return Err(format!("emitted a module the target cannot link: arena {arena} bytes, weights {weights} bytes"));
        }
        if !c.code.contains("pub const ARENA_BYTES") {
            return Err("the module has no ARENA_BYTES".into());
        }
    }
    Ok(reached)
}
