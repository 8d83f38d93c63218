//! Operator coverage against TFLite Micro: every operator TFLite Micro registers (its
//! `MicroMutableOpResolver::Add*` list at the pinned commit 90b983c2b3f1,
//! `tensorflow/lite/micro/micro_mutable_op_resolver.h`) with tflc's status, written to
//! `docs/OP_COVERAGE.md` so the gap is one table.
//!
//! The status comes from the compiler itself and from `SUPPORTED_OPS.md`, cross-checked:
//! a builtin lowers when it is in the lowering registry (`tflc::internal::lower::ops::LOWERED`), and
//! then `SUPPORTED_OPS.md` must have a row for it (its element types are the union of its
//! rows); a builtin `SUPPORTED_OPS.md` lists must be in the registry or always folded
//! (`tflc::internal::passes::fold::ALWAYS_FOLDED`). A custom operator lowers when `SUPPORTED_OPS.md`
//! has its row. The suite fails when the committed table is stale; `BLESS=1` rewrites it.
//!
//! A second table goes per (operator, element type) for int8, int16 and float32: TFLite
//! Micro's kernels' type switches (`op_coverage/types.rs`, `TFLM_TYPES`) against what
//! `tflc::compile` does with a single-op model of each pair (`types::probe`), so a type gap
//! (a 16x8 model stopping at an int16 MEAN) shows as a "gap" cell with tflc's reason.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

#[path = "op_coverage/types.rs"]
mod types;

/// TFLite Micro's registrable operators, builtins by `BuiltinOperator` name, custom
/// operators by the name they register (`ethos-u` is `GetString_ETHOSU()`).
const TFLM_BUILTINS: &[&str] = &[
    "ABS", "ADD", "ADD_N", "ARG_MAX", "ARG_MIN", "ASSIGN_VARIABLE", "AVERAGE_POOL_2D", "BATCH_MATMUL",
    "BATCH_TO_SPACE_ND", "BROADCAST_ARGS", "BROADCAST_TO", "CALL_ONCE", "CAST", "CEIL", "CONCATENATION", "CONV_2D",
    "COS", "CUMSUM", "DEPTH_TO_SPACE", "DEPTHWISE_CONV_2D", "DEQUANTIZE", "DIV", "DYNAMIC_UPDATE_SLICE",
    "EMBEDDING_LOOKUP", "ELU", "EQUAL", "EXP", "EXPAND_DIMS", "FILL", "FLOOR", "FLOOR_DIV", "FLOOR_MOD",
    "FULLY_CONNECTED", "GATHER", "GATHER_ND", "GREATER", "GREATER_EQUAL", "HARD_SWISH", "IF", "L2_NORMALIZATION",
    "L2_POOL_2D", "LEAKY_RELU", "LESS", "LESS_EQUAL", "LOG", "LOGICAL_AND", "LOGICAL_NOT", "LOGICAL_OR", "LOGISTIC",
    "LOG_SOFTMAX", "MAXIMUM", "MAX_POOL_2D", "MIRROR_PAD", "MEAN", "MINIMUM", "MUL", "NEG", "NOT_EQUAL", "PACK", "PAD",
    "PADV2", "PRELU", "QUANTIZE", "READ_VARIABLE", "REDUCE_ALL", "REDUCE_MAX", "REDUCE_MIN", "RELU", "RELU6",
    "RESHAPE", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR", "REVERSE_V2", "ROUND", "RSQRT", "SELECT_V2", "SHAPE",
    "SIN", "SLICE", "SOFTMAX", "SPACE_TO_BATCH_ND", "SPACE_TO_DEPTH", "SPLIT", "SPLIT_V", "SQUEEZE", "SQRT", "SQUARE",
    "SQUARED_DIFFERENCE", "STRIDED_SLICE", "SUB", "SUM", "SVDF", "TANH", "TRANSPOSE_CONV", "TRANSPOSE", "UNPACK",
    "UNIDIRECTIONAL_SEQUENCE_LSTM", "VAR_HANDLE", "WHILE", "ZEROS_LIKE",
];
const TFLM_CUSTOM: &[&str] = &[
    "CIRCULAR_BUFFER", "TFLM_DECODE", "SignalDelay", "TFLite_Detection_PostProcess", "SignalEnergy",
    "SignalFftAutoScale", "SignalFilterBank", "SignalFilterBankLog", "SignalFilterBankSquareRoot",
    "SignalFilterBankSpectralSubtraction", "SignalFramer", "SignalIrfft", "SignalOverlapAdd", "SignalPCAN",
    "SignalRfft", "SignalStacker", "SignalWindow", "ethos-u",
];

/// Why an operator does not lower yet: the issue that covers it, or why tflc refuses it.
fn missing_reason(op: &str) -> &'static str {
    match op {
        "UNIDIRECTIONAL_SEQUENCE_LSTM" | "IF" | "WHILE" | "CALL_ONCE" => "not yet: issue 12 (recurrent models and control flow)",
        o if o.starts_with("Signal") => "not yet: issue 12 (TFLite Micro's signal library)",
        "ethos-u" => "refused: an Arm Ethos-U NPU command stream, run by the NPU driver, not a CPU kernel",
        _ => "not yet: issue 14 (operator coverage)",
    }
}

/// Builtin names and element types of every row of `SUPPORTED_OPS.md`'s tables (first
/// column: builtins separated by commas; second: element types), merged per builtin.
fn supported_rows(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut rows: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut in_table = false;
    for line in text.lines() {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        if !line.trim_start().starts_with('|') {
            in_table = false;
            continue;
        }
        if matches!(cells.first(), Some(&"builtin") | Some(&"custom op")) {
            in_table = true;
            continue;
        }
        if !in_table || cells.len() < 2 || cells[0].starts_with("---") {
            continue;
        }
        for name in cells[0].split(',').map(str::trim).filter(|n| !n.is_empty()) {
            rows.entry(name.trim_matches('`').to_string()).or_default().insert(cells[1].to_string());
        }
    }
    rows
}

fn table() -> (String, Vec<String>) {
    let supported = supported_rows(include_str!("../SUPPORTED_OPS.md"));
    // Registry modules are builtin names in snake case (`if_`, `while_` dodge keywords), but
    // `custom`, which lowers TFLite Micro's custom operators by name.
    let lowered: BTreeSet<String> =
        tflc::internal::lower::ops::LOWERED.iter().filter(|&&m| m != "custom").map(|m| m.trim_end_matches('_').to_ascii_uppercase()).collect();
    let folded: BTreeSet<&str> = tflc::internal::passes::fold::ALWAYS_FOLDED.iter().copied().collect();
    let mut problems = Vec::new();
    for b in &lowered {
        if !supported.contains_key(b) {
            problems.push(format!("{b} lowers but SUPPORTED_OPS.md has no row for it"));
        }
    }
    let mut out = String::new();
    let mut counts = BTreeMap::<&str, usize>::new();
    let mut rows = String::new();
    for (kind, names) in [("builtin", TFLM_BUILTINS), ("custom", TFLM_CUSTOM)] {
        for &op in names {
            let (status, detail) = if folded.contains(op) {
                let why = if kind == "custom" {
                    "decoded at compile time (LUT, prune, Huffman); LUT filters of int8 CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED stay compressed in flash by default and the `_lut` kernels decode them (`--decode-weights` decodes them at compile time)"
                } else {
                    "evaluated at compile time (shapes are static); no code on the device"
                };
                ("folded", why.to_string())
            } else if (kind == "builtin" && lowered.contains(op)) || (kind == "custom" && supported.contains_key(op)) {
                let types: Vec<&str> = supported.get(op).map(|t| t.iter().map(String::as_str).collect()).unwrap_or_default();
                ("lowers", types.join("; "))
            } else if missing_reason(op).starts_with("refused") {
                ("refused", missing_reason(op).trim_start_matches("refused: ").to_string())
            } else {
                ("missing", missing_reason(op).trim_start_matches("not yet: ").to_string())
            };
            *counts.entry(status).or_default() += 1;
            let _ = writeln!(rows, "| {op} | {kind} | {status} | {detail} |");
        }
    }
    for name in supported.keys() {
        let known = TFLM_BUILTINS.contains(&name.as_str()) || TFLM_CUSTOM.contains(&name.as_str());
        let lowers = lowered.contains(name) || folded.contains(name.as_str()) || TFLM_CUSTOM.contains(&name.as_str());
        if !lowers && known {
            problems.push(format!("SUPPORTED_OPS.md has a row for {name}, which does not lower"));
        }
    }
    // Builtins TFLite Micro does not register: lowered ones, and folded ones (DENSIFY has a
    // lowering only to explain why one could not fold).
    let extra: Vec<&String> = lowered.iter().filter(|b| !TFLM_BUILTINS.contains(&b.as_str()) && !folded.contains(b.as_str())).collect();
    let extra_folded: Vec<&str> = folded.iter().copied().filter(|b| !TFLM_BUILTINS.contains(b) && !TFLM_CUSTOM.contains(b)).collect();
    // MediaPipe's custom operators tflc builds in (not TFLite Micro's): each needs its row.
    let mediapipe = tflc::internal::lower::ops::mediapipe::CODES;
    for code in mediapipe {
        if !supported.contains_key(*code) {
            problems.push(format!("MediaPipe's {code} lowers but SUPPORTED_OPS.md has no row for it"));
        }
    }
    let _ = writeln!(out, "# Operator coverage against TFLite Micro\n");
    let _ = writeln!(
        out,
        "Written by `cargo test -p tflc-tests --test op_coverage` (`BLESS=1` rewrites it; the test fails when it is stale). \
         Every operator TFLite Micro registers (`MicroMutableOpResolver`, commit 90b983c2b3f1), {} in all: \
         {} lower, {} fold at compile time, {} are refused, {} are missing. \
         Element types and limits per row: `SUPPORTED_OPS.md`. tflc also lowers {} and folds {}, and builds in MediaPipe's custom operators {} (rows at the end), which TFLite Micro does not register.\n",
        TFLM_BUILTINS.len() + TFLM_CUSTOM.len(),
        counts.get("lowers").unwrap_or(&0),
        counts.get("folded").unwrap_or(&0),
        counts.get("refused").unwrap_or(&0),
        counts.get("missing").unwrap_or(&0),
        if extra.is_empty() { "nothing".to_string() } else { extra.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ") },
        if extra_folded.is_empty() { "nothing".to_string() } else { extra_folded.join(", ") },
        mediapipe.join(", "),
    );
    for op in &extra {
        let types: Vec<&str> = supported.get(op.as_str()).map(|t| t.iter().map(String::as_str).collect()).unwrap_or_default();
        let _ = writeln!(rows, "| {op} | builtin (not in TFLite Micro) | lowers | {} |", types.join("; "));
    }
    for op in &extra_folded {
        let _ = writeln!(rows, "| {op} | builtin (not in TFLite Micro) | folded | a sparse constant densified at compile time; no code on the device |");
    }
    for op in mediapipe {
        let types: Vec<&str> = supported.get(*op).map(|t| t.iter().map(String::as_str).collect()).unwrap_or_default();
        let _ = writeln!(rows, "| {op} | custom (MediaPipe, not in TFLite Micro) | lowers | {} |", types.join("; "));
    }
    let _ = writeln!(out, "| operator | kind | status | element types (lowers) or reason |");
    let _ = writeln!(out, "|---|---|---|---|");
    out.push_str(&rows);
    out.push_str(&type_table(&mut problems));
    (out, problems)
}

/// The per-(operator, element type) section: for int8, int16 and float32, TFLite Micro's
/// kernels' types ([`types::TFLM_TYPES`]) against what `tflc::compile` does with a
/// single-op model of that type ([`types::probe`]).
fn type_table(problems: &mut Vec<String>) -> String {
    let mut rows = String::new();
    let mut gaps: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut undefined: Vec<String> = Vec::new();
    let (mut pairs, mut compiled, mut beyond) = (0, 0, 0);
    for &(op, tflm) in types::TFLM_TYPES {
        if !TFLM_BUILTINS.contains(&op) {
            problems.push(format!("types::TFLM_TYPES lists {op}, which TFLite Micro does not register"));
        }
        let mut cells = Vec::new();
        for d in types::TYPES {
            let accepted = tflm.contains(&d);
            let cell = match (types::probe(op, d), accepted) {
                (None, true) => {
                    pairs += 1;
                    "not probed".to_string()
                }
                (None, false) => "-".to_string(),
                (Some(Ok(())), true) => {
                    pairs += 1;
                    compiled += 1;
                    "compiles".to_string()
                }
                (Some(Ok(())), false) => {
                    beyond += 1;
                    "compiles (TFLite Micro: no)".to_string()
                }
                (Some(Err(e)), true) => {
                    pairs += 1;
                    if let Some((.., why)) = types::TFLM_UNDEFINED.iter().find(|(o, t, _)| *o == op && *t == d) {
                        undefined.push(format!("{}: {op}", types::short(d)));
                        format!("refused: undefined in TFLite Micro ({why})")
                    } else {
                        gaps.entry(types::short(d)).or_default().push(op.to_string());
                        format!("**gap**: {}", e.replace('|', "/"))
                    }
                }
                (Some(Err(_)), false) => "-".to_string(),
            };
            cells.push(cell);
        }
        let _ = writeln!(rows, "| {op} | {} |", cells.join(" | "));
    }
    let mut out = String::new();
    let _ = writeln!(out, "\n## Per element type: int8, int16 (16x8), float32\n");
    let _ = writeln!(
        out,
        "For each builtin with an int8, int16 or float32 data input, whether TFLite Micro's kernel takes that type (its Prepare and Eval type switches at commit 90b983c2b3f1; \
         where the PyPI release 0.dev20261023182759 takes more, the release: RSQRT int16; every probed pair checked against real runs of the release with `tools/op_type_check.py`) and whether `tflc::compile` compiles a single-op model of it \
         (`tests/op_coverage/types.rs`: the usual quantization, int16 symmetric with int8 weights and int64 bias as 16x8 models have it, \
         the fixed output quantization TFLite Micro requires of LOGISTIC, TANH, SOFTMAX, LOG_SOFTMAX and L2_NORMALIZATION). \
         \"compiles\" is the compiler's word, not a conformance check (that is `SUPPORTED_OPS.md`'s \"checked\" column); \
         \"**gap**\" is a type TFLite Micro runs and tflc refuses, with tflc's reason; \"refused: undefined in TFLite Micro\" is a type its kernel takes but computes nothing defined for, which tflc refuses on purpose (`types::TFLM_UNDEFINED`, with the reason); \"-\" is a type TFLite Micro refuses; \"not probed\" has no single-op recipe yet.\n"
    );
    let _ = writeln!(
        out,
        "{pairs} (operator, type) pairs TFLite Micro runs: {compiled} compile, {} are gaps ({}), {} run with undefined results in TFLite Micro and are refused ({}); {beyond} more compile that TFLite Micro refuses.\n",
        gaps.values().map(Vec::len).sum::<usize>(),
        if gaps.is_empty() { "none".to_string() } else { gaps.iter().map(|(d, ops)| format!("{d}: {}", ops.join(", "))).collect::<Vec<_>>().join("; ") },
        undefined.len(),
        if undefined.is_empty() { "none".to_string() } else { undefined.join("; ") },
    );
    let _ = writeln!(out, "| operator | int8 | int16 | float32 |");
    let _ = writeln!(out, "|---|---|---|---|");
    out.push_str(&rows);
    out
}

#[test]
fn every_tflite_micro_operator_has_a_status() {
    let (text, problems) = table();
    assert!(problems.is_empty(), "SUPPORTED_OPS.md and the lowering registry disagree:\n{}", problems.join("\n"));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/OP_COVERAGE.md");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &text).expect("write docs/OP_COVERAGE.md");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    println!("{text}");
    assert!(committed == text, "docs/OP_COVERAGE.md is stale: rerun with BLESS=1 (`BLESS=1 cargo test -p tflc-tests --test op_coverage`)");
}

#[test]
fn the_list_has_no_duplicates() {
    let all: Vec<&str> = TFLM_BUILTINS.iter().chain(TFLM_CUSTOM).copied().collect();
    let set: BTreeSet<&str> = all.iter().copied().collect();
    assert_eq!(set.len(), all.len());
    assert_eq!(all.len(), 118, "TFLite Micro's resolver at 90b983c2b3f1 has 118 Add* operators besides AddCustom/AddBuiltin");
}
