//! Op-by-op conformance: every operator of every corpus model with intermediates in
//! `../shared/golden`, and every single-op model in `../shared/ops`, is fed its golden
//! inputs through the compiler's lowering phase (`lower_subgraph`: compile-time parameters)
//! and the runtime kernel; its output must equal the golden output byte for byte, or for a
//! float32 output be within the float tolerance (issue 11: `max |ours - ref| <= 1e-4 *
//! max |ref|`); the table counts the float outputs that came out bit-identical.
//!
//! Ops of the kinds tflc must support (int8 activations, the kernel issue's list) fail the
//! suite when they cannot be lowered, unless `op_conformance_pending.txt` lists the opcode
//! with a reason (and a pending opcode that lowers everywhere fails the suite too, so the
//! list only shrinks). Other ops (LSTM, SVDF, int16, custom signal ops) are reported.

use std::collections::{BTreeMap, BTreeSet};
use tflc::internal::lower::lower_subgraph;
use tflc::internal::lower::ops::{TensorData, TensorStore};
use tflc::error::LowerError;
use tflc::ir::{DType, OpCode, Operator, Subgraph};
use tflc_tests::{golden_cases, shared_dir_or_skip};

/// The kernel issue's list (point 1), as TFLite opcodes.
const REQUIRED: &[&str] = &[
    "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "AVERAGE_POOL_2D", "MAX_POOL_2D", "ADD", "SUB", "MUL",
    "SOFTMAX", "LOGISTIC", "TANH", "HARD_SWISH", "RELU", "RELU6", "LEAKY_RELU", "PRELU", "QUANTIZE",
    "DEQUANTIZE", "PAD", "PADV2", "CONCATENATION", "MEAN", "TRANSPOSE", "STRIDED_SLICE", "SLICE", "SPLIT",
    "SPLIT_V", "PACK", "UNPACK", "RESIZE_NEAREST_NEIGHBOR", "RESIZE_BILINEAR", "MAXIMUM", "MINIMUM", "RESHAPE",
    "SQUEEZE", "EXPAND_DIMS", "RELU_N1_TO_1",
];

/// Whether `op` is one tflc must run now: a listed kind on int8, legacy uint8 or float32 activations
/// (QUANTIZE from float32 or int8, DEQUANTIZE to float32).
fn required(sg: &Subgraph<'_>, op: &Operator<'_>) -> bool {
    let OpCode::Builtin { name, .. } = &op.opcode else { return false };
    if !REQUIRED.contains(&name.as_str()) {
        return false;
    }
    let acts_in: Vec<DType> = op.present_inputs().map(|t| sg.tensor(t)).filter(|t| !t.is_constant()).map(|t| t.dtype).collect();
    let acts_out: Vec<DType> = op.outputs.iter().map(|&t| sg.tensor(t).dtype).collect();
    match name.as_str() {
        "QUANTIZE" => acts_in.iter().all(|d| matches!(d, DType::F32 | DType::I8)) && acts_out.iter().all(|&d| d == DType::I8),
        "DEQUANTIZE" => acts_in.iter().all(|&d| d == DType::I8) && acts_out.iter().all(|&d| d == DType::F32),
        _ => [DType::I8, DType::U8, DType::F32].into_iter().any(|want| acts_in.iter().chain(&acts_out).all(|&d| d == want)),
    }
}

fn pending() -> BTreeMap<String, String> {
    let text = include_str!("op_conformance_pending.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (op, why) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            (op.to_owned(), why.trim().to_owned())
        })
        .collect()
}

#[derive(Default)]
struct Row {
    checked: usize,
    bytes: usize,
    differing: usize,
    /// float32 outputs, and how many of them are bit-identical.
    float_outputs: usize,
    float_identical: usize,
    /// Largest `max |ours - ref| / max |ref|` of a float32 output.
    float_error: f64,
}

/// Relative tolerance of a float32 output.
const FLOAT_TOLERANCE: f64 = 1e-4;

/// `max |got - want| / max |want|` of two float32 byte strings of one length.
fn float_error(got: &[u8], want: &[u8]) -> f64 {
    let f = |b: &[u8]| -> Vec<f32> { b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect() };
    let (got, want) = (f(got), f(want));
    let scale = want.iter().fold(0f64, |m, &w| m.max((w as f64).abs()));
    let err = got.iter().zip(&want).fold(0f64, |m, (&g, &w)| if g.is_nan() != w.is_nan() { f64::INFINITY } else if g.is_nan() { m } else { m.max((g as f64 - w as f64).abs()) });
    if scale > 0.0 { err / scale } else if err == 0.0 { 0.0 } else { f64::INFINITY }
}

#[test]
fn op_conformance() {
    let Some(shared) = shared_dir_or_skip("op_conformance") else { return };
    // `TFLC_TEST_FEATURE=avx2|avx512vnni|portable` runs the host kernels of that
    // implementation (it must be executable here); other values are other suites' (Arm).
    if let Ok(f) = std::env::var("TFLC_TEST_FEATURE") {
        if let Some(&s) = tflc_runtime::isa::HostSimd::ALL.iter().find(|s| s.name() == f) {
            tflc_runtime::isa::force(s).unwrap_or_else(|e| panic!("TFLC_TEST_FEATURE={f}: {e}"));
        }
    }
    eprintln!("op_conformance: host SIMD implementation {}", tflc_runtime::isa::selected().name());
    let pending = pending();
    let mut rows: BTreeMap<(String, String), Row> = BTreeMap::new();
    let mut not_checked: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    let mut lowered_pending: BTreeSet<String> = BTreeSet::new();
    let mut blocked_pending: BTreeSet<String> = BTreeSet::new();

    for case in golden_cases(&shared) {
        if !case.golden.has_intermediates() {
            continue;
        }
        let bytes = std::fs::read(&case.model).unwrap();
        let read = tflc::read_model(&bytes).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let folded = tflc::internal::passes::fold::FoldedModel::of(&read);
        let model = folded.apply(&read);
        let sg = model.main();
        let constants = TensorStore::with_constants(sg);
        let lowered = lower_subgraph(sg);
        for (op, l) in sg.ops.iter().zip(lowered.ops.iter()) {
            let opcode = op.opcode.to_string();
            let must = required(sg, op);
            let kernel = match &l.kernel {
                Ok(k) => {
                    if pending.contains_key(&opcode) {
                        lowered_pending.insert(opcode.clone());
                    }
                    k
                }
                Err(e) => {
                    let unsupported = matches!(e, LowerError::Unsupported { .. });
                    if must && unsupported && pending.contains_key(&opcode) {
                        blocked_pending.insert(opcode.clone());
                        not_checked.entry(opcode.clone()).or_default().push(format!("{} op {}: pending", case.name, op.id.index()));
                    } else if must {
                        failures.push(format!("{}: {e}", case.name));
                    } else {
                        not_checked.entry(opcode.clone()).or_default().push(format!("{} op {}: {e}", case.name, op.id.index()));
                    }
                    continue;
                }
            };
            // Feed the golden values of every non-constant input. A variable (state) input
            // keeps its reset value from `with_constants`: the op runs once per run, so
            // that is its value before run 0, and its golden value (after run 0) is
            // compared with the op's outputs.
            let mut store = constants.clone();
            let mut variables = Vec::new();
            let mut missing = None;
            for t in op.present_inputs().filter(|&t| !sg.tensor(t).is_constant()) {
                let tensor = sg.tensor(t);
                // A variable tensor an earlier op writes (an op's state output, such as the
                // signal library's noise estimate) has its golden value as this op's input.
                let written_before = sg.ops.iter().take_while(|o| o.id != op.id).any(|o| o.outputs.contains(&t));
                if tensor.is_variable && !written_before {
                    if store.get(t).is_none() {
                        missing = Some(format!("variable input {t} has no reset value of its type"));
                        break;
                    }
                    variables.push(t);
                    continue;
                }
                match case.golden.tensor(t.index()).and_then(|g| TensorData::from_le_bytes(tensor.dtype, &g.bytes)) {
                    Some(d) => store.insert(t, d),
                    None => {
                        missing = Some(format!("no golden data for input {t}"));
                        break;
                    }
                }
            }
            if let Some(why) = missing {
                let msg = format!("{} op {}: {why}", case.name, op.id.index());
                if must {
                    failures.push(msg);
                } else {
                    not_checked.entry(opcode.clone()).or_default().push(msg);
                }
                continue;
            }
            if let Err(e) = kernel.execute(&mut store) {
                failures.push(format!("{} op {} ({opcode}): execution failed: {e}", case.name, op.id.index()));
                continue;
            }
            let row = rows.entry((opcode.clone(), case.name.clone())).or_default();
            row.checked += 1;
            for &out in op.outputs.iter().chain(&variables) {
                let Some(want) = case.golden.tensor(out.index()) else {
                    failures.push(format!("{} op {}: no golden data for output {out}", case.name, op.id.index()));
                    continue;
                };
                let got = store.get(out).map(|d| d.to_le_bytes()).unwrap_or_default();
                let diff = if got.len() == want.bytes.len() {
                    got.iter().zip(&want.bytes).filter(|(a, b)| a != b).count()
                } else {
                    want.bytes.len().max(got.len())
                };
                row.bytes += want.bytes.len();
                if sg.tensor(out).dtype == DType::F32 && got.len() == want.bytes.len() {
                    let e = float_error(&got, &want.bytes);
                    row.float_outputs += 1;
                    row.float_identical += usize::from(diff == 0);
                    row.float_error = row.float_error.max(e);
                    if e > FLOAT_TOLERANCE {
                        failures.push(format!(
                            "{} op {} ({opcode}) output {out}: float error {e:e} of max |ref| (tolerance {FLOAT_TOLERANCE:e})",
                            case.name,
                            op.id.index()
                        ));
                    }
                    continue;
                }
                row.differing += diff;
                if diff > 0 {
                    failures.push(format!(
                        "{} op {} ({opcode}) output {out}: {diff} of {} bytes differ",
                        case.name,
                        op.id.index(),
                        want.bytes.len()
                    ));
                }
            }
        }
    }

    println!("\n{:<26} {:<36} {:>7} {:>9} {:>10}  float32", "operator", "model", "checked", "bytes", "differing");
    let (mut ops, mut bytes, mut differing) = (0, 0, 0);
    for ((opcode, model), r) in &rows {
        let float = if r.float_outputs > 0 {
            format!("  {}/{} bit-identical, max error {:.1e}", r.float_identical, r.float_outputs, r.float_error)
        } else {
            String::new()
        };
        println!("{opcode:<26} {model:<36} {:>7} {:>9} {:>10}{float}", r.checked, r.bytes, r.differing);
        ops += r.checked;
        bytes += r.bytes;
        differing += r.differing;
    }
    if !not_checked.is_empty() {
        println!("\nnot checked (not yet in scope, or pending):");
        for (opcode, v) in &not_checked {
            println!("  {opcode:<26} {} op(s), e.g. {}", v.len(), v[0]);
        }
    }
    println!("\nop_conformance: {ops} operators checked, {bytes} output bytes, {differing} differing, {} failure(s)", failures.len());

    for op in &lowered_pending {
        if !blocked_pending.contains(op) {
            failures.push(format!("{op} lowers everywhere now: remove it from op_conformance_pending.txt"));
        }
    }
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
    assert!(ops > 0, "no operator was checked");
}
