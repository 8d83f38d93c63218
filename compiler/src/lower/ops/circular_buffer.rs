//! CIRCULAR_BUFFER, TFLite Micro's custom operator for strided streaming models
//! (`tensorflow/lite/micro/kernels/circular_buffer.cc`, `circular_buffer_common.cc` at the
//! pinned commit 90b983c2b3f1). The runtime kernel is
//! `tflc_runtime::kernels::circular_buffer`.
//!
//! What TFLite Micro does, and tflc with it:
//! - **Init** reads `cycles_max` from the FlexBuffer custom options, element 0
//!   (`ElementAsInt32(kCircularBufferCyclesMaxIndex)`, the key `cycles_max`), or takes 0 when
//!   there are no options.
//! - **Prepare** requires `input[0] == output[0]`, `input[1] == 1`, `input[2] == output[2]`,
//!   `input[3] == output[3]` (it reads four dimensions of each, unchecked: tflc refuses
//!   other ranks), equal element types, int8. When `cycles_max <= 0` a heuristic
//!   picks it with a `static int cb_prepare_count` that counts such operators across every
//!   Prepare of the process: 1 when the output has 5, 13 or 25 slots (dimension 1), or when
//!   the count is 5 and the output's dimensions 2 and 3 are 2 and 96 (the count then restarts
//!   at 0); 2 otherwise. tflc replays that count over the model's operators in file order
//!   ([`heuristic_cycles_max`]), as a process that loads this one model once would.
//!   **Deviation**: the C counter is shared by every interpreter of the process, so a second
//!   interpreter (or another model before this one) can change the period TFLite Micro picks;
//!   tflc cannot see that.
//! - **Eval** always shifts the output one slot (`depth = output[2] * output[3]` elements)
//!   towards the start and copies the input's first slot into the last, then decrements its
//!   countdown: unless it reached zero, it returns `kTfLiteAbort` and the interpreter ends the
//!   invoke after this operator (`MicroInterpreterGraph::InvokeSubgraph` breaks out of its
//!   loop; `Invoke()` returns the status, the Python binding returns it as an int). The
//!   kernel returns `false` then; [`Kernel::stops`] makes it a barrier of the file order for
//!   the planner, and codegen returns `rt::RunStatus::Stopped { op }` from `run()`; the
//!   interpreter (`interp`) stops the same way ([`TensorStore::stop`]).
//! - **State**: the output is the buffer, kept across invokes. TFLite Micro relies on it
//!   being a variable tensor (persistent, its zero point after `Reset`); the reader makes it
//!   one ([`add_state`]) whether the file marks it or not (**deviation** for an output the
//!   file does not mark: TFLite Micro plans it like any activation, so other tensors may
//!   overwrite it between invokes, and its first contents are undefined). The countdown
//!   (`cycles_until_run`, reset to `cycles_max` by Prepare and `CircularBufferReset`) is a
//!   state tensor the reader adds: int32 \[1\], the calls since the last complete run, zero at
//!   reset.
//! - Refused, op named: another element type, shapes Prepare refuses, an output with no slot
//!   or batch (TFLite Micro's `memmove` would get a negative size or write past the tensor),
//!   an operator in a subgraph other than the entry one (TFLite Micro would pass the abort up
//!   through the calling IF or WHILE; tflc does not model that), malformed options.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, OpCode, Operator, Subgraph, Tensor, TensorId};
use crate::tflite::flexbuffers::{FlexMap, FlexValue};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::circular_buffer::{circular_buffer_s8, CircularBufferParams};

crate::runtime_struct_lit!(kernels::circular_buffer::CircularBufferParams { depth, num_slots, cycles_max });

/// The custom operator's name.
pub(crate) const NAME: &str = "CIRCULAR_BUFFER";

fn is_circular_buffer(op: &Operator<'_>) -> bool {
    matches!(&op.opcode, OpCode::Custom(c) if c == NAME)
}

/// Makes every CIRCULAR_BUFFER's state explicit (the reader calls it on each subgraph): its
/// output becomes a variable tensor, and a new variable tensor int32 \[1\] (the countdown)
/// is appended to the subgraph and to the op's outputs. Only for an operator with one output
/// that is not a constant (any other is refused by its lowering, which sees no state).
pub(crate) fn add_state(sg: &mut Subgraph<'_>) {
    let ops: Vec<_> = sg.ops.iter().filter(|op| is_circular_buffer(op) && op.outputs.len() == 1).map(|op| (op.id, op.outputs[0])).collect();
    for (op, out) in ops {
        let Some(t) = sg.tensors.get_mut(out) else { continue };
        if t.is_constant() {
            continue;
        }
        t.is_variable = true;
        let id = TensorId::new(sg.tensors.len());
        sg.tensors.push(Tensor {
            id,
            name: format!("{NAME} countdown (op {})", op.index()),
            dtype: DType::I32,
            shape: vec![1],
            shape_signature: None,
            quant: None,
            data: None,
            is_variable: true,
            sparsity: None,
        });
        sg.ops[op].outputs.push(id);
    }
}

/// `cycles_max` as TFLite Micro's Init reads it: element 0 of the FlexBuffer map (the key
/// `cycles_max`), as int32; 0 without options. `ElementAsInt64` reads the element's bytes as
/// an integer whatever its type, so only integer (and bool, null) values mean the same to
/// both; a float is refused.
fn option_cycles_max(op: &Operator<'_>) -> Result<i32, String> {
    let Some(bytes) = op.custom_options.filter(|b| !b.is_empty()) else { return Ok(0) };
    let m = FlexMap::parse(bytes).map_err(|e| format!("custom options: {e}"))?;
    let v = m.at(0, "cycles_max")?;
    match v {
        FlexValue::Float(_) | FlexValue::Other(_) => None,
        _ => v.as_i32(),
    }
    .ok_or_else(|| format!("custom option \"cycles_max\" is {v:?}, not an integer"))
}

/// The period TFLite Micro's Prepare picks for operator `op` of `sg` when its option is not
/// positive: the static `cb_prepare_count` replayed over the CIRCULAR_BUFFERs of `sg` without
/// a positive option, in file order (Prepare's order), up to `op`.
fn heuristic_cycles_max(sg: &Subgraph<'_>, op: &Operator<'_>) -> i32 {
    let mut count = 0;
    let mut cycles = 2;
    for o in sg.ops.iter().filter(|o| is_circular_buffer(o) && o.id <= op.id) {
        if option_cycles_max(o).is_ok_and(|c| c > 0) {
            continue;
        }
        let dims = o.outputs.first().map(|&t| sg.tensor(t).shape.clone()).unwrap_or_default();
        let dim = |i: usize| dims.get(i).copied().unwrap_or(0);
        count += 1;
        if matches!(dim(1), 5 | 13 | 25) || (count == 5 && dim(2) == 2 && dim(3) == 96) {
            cycles = 1;
            count = 0;
        } else {
            cycles = 2;
        }
    }
    cycles
}

/// A lowered CIRCULAR_BUFFER.
#[derive(Debug, Clone)]
pub struct CircularBuffer {
    input: TensorId,
    output: TensorId,
    countdown: TensorId,
    params: CircularBufferParams,
}

/// Lowers a CIRCULAR_BUFFER (checks as TFLite Micro's Prepare, and the state [`add_state`]
/// gave it).
pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<CircularBuffer, LowerError> {
    if cx.sg.id.index() != 0 {
        return Err(cx.unsupported(
            "CIRCULAR_BUFFER inside a called subgraph (its kTfLiteAbort would end the caller's IF or WHILE and the whole invoke); tflc supports it in the entry subgraph only",
        ));
    }
    if cx.op.inputs.len() != 1 || cx.op.outputs.len() != 2 {
        return Err(cx.invalid(format!(
            "expected 1 input and 1 output (TFLite Micro's CIRCULAR_BUFFER), found {} and {}",
            cx.op.inputs.len(),
            cx.op.outputs.len().saturating_sub(1)
        )));
    }
    let (input, output, countdown) = (cx.input(0)?, cx.output(0)?, cx.output(1)?);
    if !countdown.is_variable || countdown.is_constant() || countdown.dtype != DType::I32 || countdown.num_elements() != 1 || cx.op.inputs.contains(&Some(countdown.id)) {
        return Err(cx.invalid_tensor(countdown, "not the op's countdown state (the reader adds an int32 [1] variable tensor)"));
    }
    if !output.is_variable || output.is_constant() || output.id == input.id || cx.sg.inputs.contains(&output.id) {
        return Err(cx.unsupported_tensor(output, "the output is the buffer kept across invokes: it cannot be a constant, a subgraph input or the op's own input"));
    }
    for t in [input, output] {
        if t.shape.len() != 4 {
            return Err(cx.unsupported_tensor(t, format!("rank {} (TFLite Micro reads four dimensions: input [batch, 1, h, w], output [batch, slots, h, w])", t.shape.len())));
        }
    }
    let (i, o) = (&input.shape, &output.shape);
    if i[0] != o[0] || i[1] != 1 || i[2] != o[2] || i[3] != o[3] {
        return Err(cx.unsupported_tensor(input, format!("shape {i:?} for output {o:?} (TFLite Micro requires input [batch, 1, h, w] and output [batch, slots, h, w])")));
    }
    if input.dtype != output.dtype {
        return Err(cx.unsupported_tensor(output, format!("element type {} for input {} (TFLite Micro requires equal types)", output.dtype, input.dtype)));
    }
    cx.expect_dtype(input, DType::I8)?;
    if o[0] == 0 || o[1] == 0 {
        return Err(cx.unsupported_tensor(output, format!("shape {o:?}: no batch or no slot (TFLite Micro's shift would write outside the tensor)")));
    }
    let cycles_max = match option_cycles_max(cx.op).map_err(|e| cx.invalid(e))? {
        c if c > 0 => c,
        _ => heuristic_cycles_max(cx.sg, cx.op),
    };
    let params = CircularBufferParams { depth: o[2] * o[3], num_slots: o[1], cycles_max };
    Ok(CircularBuffer { input: input.id, output: output.id, countdown: countdown.id, params })
}

impl Kernel for CircularBuffer {
    fn execute(&self, store: &mut TensorStore) -> Result<(), ExecError> {
        let p = &self.params;
        let x = store.i8(self.input)?.to_vec();
        if x.len() < p.depth {
            return Err(ExecError(format!("tensor {} holds {} elements, fewer than a slot of {}", self.input, x.len(), p.depth)));
        }
        let n = store.i8(self.output).map(|y| y.len()).unwrap_or(p.depth * p.num_slots);
        let mut y = store.take_i8(self.output, n.max(p.depth * p.num_slots));
        let mut s = store.take_i32(self.countdown, 1);
        let complete = circular_buffer_s8(p, &x, &mut y, &mut s);
        store.insert(self.output, TensorData::I8(y));
        store.insert(self.countdown, TensorData::I32(s));
        if !complete {
            store.stop();
        }
        Ok(())
    }

    /// An expression: `true` when the run goes on (codegen returns `Stopped` otherwise).
    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::circular_buffer::CircularBufferParams }, &self.params);
        let (x, y, s) = (cx.input(self.input), cx.output(self.output), cx.output(self.countdown));
        quote! { #rt::kernels::circular_buffer::circular_buffer_s8(&#p, #x, #y, #s) }
    }

    fn stops(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::*;
    use crate::error::LowerError;
    use crate::tflite::builder::{ModelBuilder, OpSpecCode};
    use crate::tflite::flexbuffers::write_map;

    /// One CIRCULAR_BUFFER `in_shape` -> `out_shape` (int8 unless `dtype`), with options
    /// `cycles_max` when given.
    fn model(in_shape: &[usize], out_shape: &[usize], dtype: DType, cycles_max: Option<FlexValue>) -> Vec<u8> {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", dtype, in_shape, Some((0.1, 0)));
        let y = m.activation("y", dtype, out_shape, Some((0.1, 0)));
        let op = m.op_spec(OpSpecCode::Custom(NAME.into()), &[Some(x)], &[y]);
        if let Some(c) = cycles_max {
            m.custom_options(op, write_map(&[("cycles_max", c)]));
        }
        m.inputs(&[x]).outputs(&[y]);
        m.finish()
    }

    fn params(bytes: &[u8]) -> CircularBufferParams {
        let model = crate::passes::read_model(bytes).unwrap();
        let sg = model.main();
        lower(&OpCx { sg, op: &sg.ops[crate::ir::OpId::new(0)] }).unwrap().params
    }

    /// The period: the option when positive, else TFLite Micro's heuristic (1 for 5, 13 or
    /// 25 slots, else 2).
    #[test]
    fn cycles_max_from_the_option_or_the_heuristic() {
        let cases = [
            (vec![1, 4, 1, 3], Some(FlexValue::Int(3)), 3),
            (vec![1, 4, 1, 3], Some(FlexValue::Int(1)), 1),
            (vec![1, 4, 1, 3], None, 2),
            (vec![1, 4, 1, 3], Some(FlexValue::Int(0)), 2),
            (vec![1, 4, 1, 3], Some(FlexValue::Int(-4)), 2),
            (vec![1, 5, 1, 3], None, 1),
            (vec![1, 13, 2, 2], Some(FlexValue::Int(0)), 1),
            (vec![1, 25, 1, 1], None, 1),
            (vec![1, 5, 1, 3], Some(FlexValue::Int(4)), 4),
            // Truncated to 32 bits as `ElementAsInt32` does: 2^32 + 2 is 2.
            (vec![1, 4, 1, 3], Some(FlexValue::Int((1 << 32) + 2)), 2),
        ];
        for (out, c, want) in cases {
            let p = params(&model(&[1, 1, out[2], out[3]], &out, DType::I8, c));
            assert_eq!(p.cycles_max, want, "{out:?} {c:?}");
            assert_eq!((p.num_slots, p.depth), (out[1], out[2] * out[3]));
        }
    }

    /// The static prepare counter: the fifth CIRCULAR_BUFFER without a positive option whose
    /// output is [_, _, 2, 96] runs every call (the count restarts after a 5/13/25-slot one).
    #[test]
    fn the_prepare_counter_is_replayed_in_file_order() {
        let mut m = ModelBuilder::new();
        let mut outs = Vec::new();
        let mut x = m.activation("x", DType::I8, &[1, 1, 2, 96], Some((0.1, 0)));
        let first = x;
        for k in 0..6 {
            let slots = if k == 1 { 5 } else { 3 };
            let y = m.activation(&format!("y{k}"), DType::I8, &[1, slots, 2, 96], Some((0.1, 0)));
            m.op_spec(OpSpecCode::Custom(NAME.into()), &[Some(x)], &[y]);
            outs.push(y);
            x = m.activation(&format!("x{k}"), DType::I8, &[1, 1, 2, 96], Some((0.1, 0)));
            let z = m.activation(&format!("z{k}"), DType::I8, &[1, 2, 2, 96], Some((0.1, 0)));
            m.op_spec(OpSpecCode::Custom(NAME.into()), &[Some(x)], &[z]);
        }
        m.inputs(&[first]).outputs(&outs);
        let bytes = m.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        let sg = model.main();
        let got: Vec<i32> = sg.ops.iter().map(|op| heuristic_cycles_max(sg, op)).collect();
        // Counts 1, 2, 3 (op 2 has 5 slots: period 1, count back to 0), 1, 2, 3, 4, 5 (op 7
        // is [1, 2, 2, 96] at count 5: period 1, count 0), 1, 2, 3, 4.
        assert_eq!(got, [2, 2, 1, 2, 2, 2, 2, 1, 2, 2, 2, 2]);
    }

    /// Shapes and types TFLite Micro's Prepare refuses, and what tflc cannot run, are
    /// refused naming the op.
    #[test]
    fn refusals_name_the_op() {
        let cases: [(Vec<u8>, &str); 8] = [
            (model(&[1, 1, 1, 3], &[1, 4, 1, 3], DType::I16, None), "element type"),
            (model(&[1, 2, 1, 3], &[1, 4, 1, 3], DType::I8, None), "input [batch, 1, h, w]"),
            (model(&[1, 1, 1, 4], &[1, 4, 1, 3], DType::I8, None), "input [batch, 1, h, w]"),
            (model(&[2, 1, 1, 3], &[1, 4, 1, 3], DType::I8, None), "input [batch, 1, h, w]"),
            (model(&[1, 1, 3], &[1, 4, 3], DType::I8, None), "rank 3"),
            (model(&[1, 1, 1, 3], &[1, 0, 1, 3], DType::I8, None), "no slot"),
            (model(&[1, 1, 1, 3], &[1, 4, 1, 3], DType::I8, Some(FlexValue::Float(3.0))), "not an integer"),
            (model(&[1, 1, 1, 3], &[1, 4, 1, 3], DType::F32, None), "element type"),
        ];
        for (bytes, needle) in cases {
            let e = lower_op0(&bytes).expect_err(needle);
            let s = e.to_string();
            assert!(matches!(e, LowerError::Unsupported { .. } | LowerError::Invalid { .. }), "{s}");
            assert!(s.contains("op 0") && s.contains(NAME) && s.contains(needle), "{needle}: {s}");
        }
        // Options with another key at position 0.
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[1, 1, 1, 3], None);
        let y = m.activation("y", DType::I8, &[1, 4, 1, 3], None);
        let op = m.op_spec(OpSpecCode::Custom(NAME.into()), &[Some(x)], &[y]);
        m.custom_options(op, write_map(&[("a_period", FlexValue::Int(3))]));
        m.inputs(&[x]).outputs(&[y]);
        let e = lower_op0(&m.finish()).unwrap_err().to_string();
        assert!(e.contains("cycles_max") && e.contains("op 0"), "{e}");
        // Garbage options: an error, no panic.
        for junk in [&[0xffu8][..], &[1, 2, 3, 4, 5], &[0; 9]] {
            let mut m = ModelBuilder::new();
            let x = m.activation("x", DType::I8, &[1, 1, 1, 3], None);
            let y = m.activation("y", DType::I8, &[1, 4, 1, 3], None);
            let op = m.op_spec(OpSpecCode::Custom(NAME.into()), &[Some(x)], &[y]);
            m.custom_options(op, junk.to_vec());
            m.inputs(&[x]).outputs(&[y]);
            assert!(lower_op0(&m.finish()).is_err(), "{junk:?}");
        }
    }

    /// The reference run: TFLite Micro's `OutputTensorLength4` goldens (depth 3, 4 slots,
    /// period 2 from the heuristic), each call shifting, every other one stopping the run.
    #[test]
    fn execute_shifts_and_stops_every_other_call() {
        let bytes = model(&[1, 1, 1, 3], &[1, 4, 1, 3], DType::I8, None);
        let model = crate::passes::read_model(&bytes).unwrap();
        let sg = model.main();
        let k = lower(&OpCx { sg, op: &sg.ops[crate::ir::OpId::new(0)] }).unwrap();
        let mut store = TensorStore::with_constants(sg);
        let goldens: [[i8; 12]; 3] = [[0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3], [0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6], [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]];
        for (i, g) in goldens.iter().enumerate() {
            store.insert(k.input, TensorData::I8((0..3).map(|j| (i * 3 + j + 1) as i8).collect()));
            k.execute(&mut store).unwrap();
            assert_eq!(store.i8(k.output).unwrap(), g);
            assert_eq!(store.take_stop(), i % 2 == 0, "call {i}");
        }
    }

    /// `builder_circular_buffer` (two buffers, periods 2 and 2, each before a CONV_2D) over
    /// eight invokes: the interpreter stops where TFLite Micro's interpreter stopped
    /// (`kTfLiteAbort` at op 0 or op 2) and gives its outputs (the buffer on every run, the
    /// convolution's output after the complete ones). The model and each step's inputs go to
    /// `TFLC_DUMP_OP_MODELS` for `tools/op_test_vectors.py`.
    #[test]
    fn streaming_model_matches_tflite_micro_over_runs() {
        let bytes = crate::testing::models::circular_buffer();
        if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("circular_buffer_stream.tflite"), &bytes).unwrap();
            for (k, x) in crate::testing::models::STREAM_INPUTS.iter().enumerate() {
                std::fs::write(dir.join(format!("circular_buffer_stream.s{k}.in0.bin")), x.map(|v| v as u8)).unwrap();
            }
        }
        let cases = crate::testing::models::streaming_cases();
        let case = &cases[0];
        assert_eq!(case.runs.len(), crate::testing::models::STREAM_INPUTS.len());
        let model = crate::passes::read_model(&case.model).unwrap();
        let steps: Vec<Vec<&[u8]>> = case.runs.iter().map(|r| r.0.iter().map(|v| v.as_slice()).collect()).collect();
        let steps: Vec<&[&[u8]]> = steps.iter().map(|s| s.as_slice()).collect();
        let got = crate::interp::run_steps_with_status(&model, &steps).unwrap();
        let mut stops = std::collections::BTreeSet::new();
        for (k, (step, (_, stopped, want))) in got.iter().zip(&case.runs).enumerate() {
            assert_eq!(step.stopped, *stopped, "run {k}");
            stops.insert(*stopped);
            for (i, w) in want.iter().enumerate() {
                assert_eq!(&step.outputs[i], w, "run {k} output {i}");
            }
        }
        // Stopped at op 0, at op 2, and complete.
        assert_eq!(stops.len(), 3, "{stops:?}");
    }

    /// The static prepare counter against TFLite Micro itself: five CIRCULAR_BUFFERs without
    /// options, in file order. Ops 0 to 3 (3 slots of one element) get period 2; op 4, the
    /// fifth, [1, 2, 2, 96], gets period 1 by the counter rule. Each gates the next, so op
    /// `k` runs every `2^k`th invoke and op 4 completes only on invoke 16 (it would never, in
    /// 16 invokes, with period 2). The model (outputs: the five buffers, variable tensors) and
    /// 16 steps go to `TFLC_DUMP_OP_MODELS`; TFLite Micro's interpreter (a fresh process, so
    /// its counter starts at 0) gave the statuses and buffers below, op 4's buffer written as
    /// the value filling each of its two slots.
    #[test]
    fn prepare_counter_matches_tflite_micro() {
        use crate::tflite::builder::TensorSpec;
        let mut m = ModelBuilder::new();
        let var = |m: &mut ModelBuilder, name: &str, shape: &[i32]| {
            m.tensor(TensorSpec {
                name: name.into(),
                dtype: DType::I8,
                shape: shape.to_vec(),
                shape_signature: None,
                quant: Some(crate::ir::Quantization { scale: vec![0.1], zero_point: vec![-1], axis: None }),
                data: None,
                variable: true,
            })
        };
        let x = m.activation("x", DType::I8, &[1, 1, 1, 1], Some((0.1, -1)));
        let x4 = m.activation("x4", DType::I8, &[1, 1, 2, 96], Some((0.1, -1)));
        let mut outs = Vec::new();
        for k in 0..5 {
            let (input, shape) = if k < 4 { (x, [1, 3, 1, 1]) } else { (x4, [1, 2, 2, 96]) };
            let y = var(&mut m, &format!("buf{k}"), &shape);
            m.op_spec(OpSpecCode::Custom(NAME.into()), &[Some(input)], &[y]);
            outs.push(y);
        }
        m.inputs(&[x, x4]).outputs(&outs);
        let bytes = m.finish();
        let steps: Vec<[Vec<u8>; 2]> = (0..16u8).map(|k| [vec![k + 1], vec![100 + k; 192]]).collect();
        if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("circular_buffer_counter.tflite"), &bytes).unwrap();
            for (k, s) in steps.iter().enumerate() {
                for (i, x) in s.iter().enumerate() {
                    std::fs::write(dir.join(format!("circular_buffer_counter.s{k}.in{i}.bin")), x).unwrap();
                }
            }
        }
        let model = crate::passes::read_model(&bytes).unwrap();
        let refs: Vec<Vec<&[u8]>> = steps.iter().map(|s| s.iter().map(|v| v.as_slice()).collect()).collect();
        let refs: Vec<&[&[u8]]> = refs.iter().map(|s| s.as_slice()).collect();
        let got = crate::interp::run_steps_with_status(&model, &refs).unwrap();
        assert_eq!(got.len(), COUNTER_RUNS.len());
        for (k, (step, (status, small, slots))) in got.iter().zip(COUNTER_RUNS).enumerate() {
            // TFLite Micro's invoke() status: 0 (kTfLiteOk) or 15 (kTfLiteAbort).
            assert_eq!(step.stopped.is_some(), status == 15, "run {k}");
            for (i, want) in small.iter().enumerate() {
                assert_eq!(step.outputs[i], want.map(|v| v as u8), "run {k} buffer {i}");
            }
            let want4: Vec<u8> = slots.iter().flat_map(|&v| [v as u8; 192]).collect();
            assert_eq!(step.outputs[4], want4, "run {k} buffer 4");
        }
    }

    /// TFLite Micro's results for `prepare_counter_matches_tflite_micro`: status, buffers 0 to
    /// 3, the fill of op 4's two slots.
    #[rustfmt::skip]
    const COUNTER_RUNS: [(i32, [[i8; 3]; 4], [i8; 2]); 16] = [
        (15, [[-1, -1, 1], [-1, -1, -1], [-1, -1, -1], [-1, -1, -1]], [-1, -1]),
        (15, [[-1, 1, 2], [-1, -1, 2], [-1, -1, -1], [-1, -1, -1]], [-1, -1]),
        (15, [[1, 2, 3], [-1, -1, 2], [-1, -1, -1], [-1, -1, -1]], [-1, -1]),
        (15, [[2, 3, 4], [-1, 2, 4], [-1, -1, 4], [-1, -1, -1]], [-1, -1]),
        (15, [[3, 4, 5], [-1, 2, 4], [-1, -1, 4], [-1, -1, -1]], [-1, -1]),
        (15, [[4, 5, 6], [2, 4, 6], [-1, -1, 4], [-1, -1, -1]], [-1, -1]),
        (15, [[5, 6, 7], [2, 4, 6], [-1, -1, 4], [-1, -1, -1]], [-1, -1]),
        (15, [[6, 7, 8], [4, 6, 8], [-1, 4, 8], [-1, -1, 8]], [-1, -1]),
        (15, [[7, 8, 9], [4, 6, 8], [-1, 4, 8], [-1, -1, 8]], [-1, -1]),
        (15, [[8, 9, 10], [6, 8, 10], [-1, 4, 8], [-1, -1, 8]], [-1, -1]),
        (15, [[9, 10, 11], [6, 8, 10], [-1, 4, 8], [-1, -1, 8]], [-1, -1]),
        (15, [[10, 11, 12], [8, 10, 12], [4, 8, 12], [-1, -1, 8]], [-1, -1]),
        (15, [[11, 12, 13], [8, 10, 12], [4, 8, 12], [-1, -1, 8]], [-1, -1]),
        (15, [[12, 13, 14], [10, 12, 14], [4, 8, 12], [-1, -1, 8]], [-1, -1]),
        (15, [[13, 14, 15], [10, 12, 14], [4, 8, 12], [-1, -1, 8]], [-1, -1]),
        (0, [[14, 15, 16], [12, 14, 16], [8, 12, 16], [-1, 8, 16]], [-1, 115]),
    ];
}
