//! Runs each snapshotted builder model's generated code and compares its outputs with the
//! reference interpreter (the same lowered kernels run op by op): the generated arena
//! layout, views and parameter constants must not change a single byte. Each model runs
//! twice on one instance, so variable tensors (state) must start and carry over as in the
//! interpreter. A run that an operator ends early (CIRCULAR_BUFFER) must end at the same
//! operator in both; its outputs that are state are compared, the others hold nothing new.

use tflc::internal::interp::Step;
use tflc_generated_compile::{dtcm_arena_addr, shared, shared_outputs, shared_run, Runner, ALIGNED, MODELS, POOLED, SHARED_NAMES};
use tflc_runtime::RunStatus;

#[test]
fn generated_code_matches_the_interpreter() {
    let builders = tflc::internal::testing::models::all();
    let mut checked = 0;
    for (name, make) in MODELS {
        let Some((_, bytes)) = builders.iter().find(|(n, _)| n == name) else { continue };
        check_against_interpreter(name, bytes, make(), |_| {});
        checked += 1;
    }
    assert!(checked > 0, "no builder snapshot was run");
}

/// The control-flow models with state shared across subgraphs (resource variables in IF and
/// WHILE bodies and a CALL_ONCE init, an SVDF's variable state in a WHILE body): the
/// generated code gives TFLite Micro's outputs over several consecutive runs of one `Model`
/// (`tflc::internal::testing::models::stateful_control_flow_cases`).
#[test]
fn stateful_control_flow_matches_tflite_micro_over_runs() {
    let cases = tflc::internal::testing::models::stateful_control_flow_cases();
    assert!(!cases.is_empty());
    for case in cases {
        let make = MODELS.iter().find(|(n, _)| *n == case.name).map(|m| m.1).unwrap_or_else(|| panic!("{} has no snapshot", case.name));
        let mut m = make();
        for (k, (inputs, want)) in case.runs.iter().enumerate() {
            for (i, x) in inputs.iter().enumerate() {
                m.input(i).copy_from_slice(x);
            }
            assert_eq!(m.run(), RunStatus::Complete, "{} run {k}", case.name);
            for (i, w) in want.iter().enumerate() {
                assert_eq!(m.output(i), w.as_slice(), "{} run {k} output {i}", case.name);
            }
        }
    }
}

/// CIRCULAR_BUFFER (TFLite Micro's custom operator): the generated `run()` of
/// `builder_circular_buffer` (two buffers, each before a CONV_2D) gives TFLite Micro's
/// status over eight runs of one `Model` (`Stopped` at op 0 or op 2 where TFLite Micro's
/// `invoke()` returned kTfLiteAbort) and its outputs: the buffers after every run, the
/// convolution's output after the complete ones
/// (`tflc::internal::testing::models::streaming_cases`).
#[test]
fn circular_buffer_matches_tflite_micro_over_runs() {
    let cases = tflc::internal::testing::models::streaming_cases();
    assert!(!cases.is_empty());
    for case in cases {
        let make = MODELS.iter().find(|(n, _)| *n == case.name).map(|m| m.1).unwrap_or_else(|| panic!("{} has no snapshot", case.name));
        let mut m = make();
        for (k, (inputs, stopped, want)) in case.runs.iter().enumerate() {
            for (i, x) in inputs.iter().enumerate() {
                m.input(i).copy_from_slice(x);
            }
            let status = m.run();
            let expected = stopped.map_or(RunStatus::Complete, |op| RunStatus::Stopped { op });
            assert_eq!(status, expected, "{} run {k}", case.name);
            for (i, w) in want.iter().enumerate() {
                assert_eq!(m.output(i), w.as_slice(), "{} run {k} output {i}", case.name);
            }
        }
    }
}

/// The interpreter's outputs of `step` worth comparing: all after a complete run; after a
/// stopped one only those that are state (variable tensors: the operators that write the
/// others may not have run).
fn comparable<'s>(sg: &tflc::ir::Subgraph<'_>, step: &'s Step) -> Vec<(usize, &'s [u8])> {
    step.outputs
        .iter()
        .enumerate()
        .filter(|&(i, _)| step.stopped.is_none() || sg.tensor(sg.outputs[i]).is_variable)
        .map(|(i, o)| (i, o.as_slice()))
        .collect()
}

/// The status the generated `run()` must return for `step`.
fn status(step: &Step) -> RunStatus {
    step.stopped.map_or(RunStatus::Complete, |op| RunStatus::Stopped { op })
}

/// The builder models compiled with `align: 64`: the `Model` (its arena) is 64-byte aligned,
/// every input and output starts at a multiple of 64, and the outputs are the interpreter's.
#[test]
fn aligned_builds_match_the_interpreter() {
    let builders = tflc::internal::testing::models::all();
    assert_eq!(ALIGNED.len(), builders.len());
    for &(name, align, model_align, make) in ALIGNED {
        assert_eq!(model_align, align, "{name}");
        let (_, bytes) = builders.iter().find(|(n, _)| *n == name).unwrap();
        let aligned = |s: &[u8]| (s.as_ptr() as usize).is_multiple_of(align);
        let model = tflc::read_model(bytes).unwrap();
        let (n_in, n_out) = (model.main().inputs.len(), model.main().outputs.len());
        check_against_interpreter(name, bytes, make(), |m| {
            for i in 0..n_in {
                assert!(aligned(m.input(i)), "{name} input {i}");
            }
            for i in 0..n_out {
                assert!(aligned(m.output(i)), "{name} output {i}");
            }
        });
    }
}

/// The builder models compiled with two and three memory pools, and with two whose fast
/// pool is in a linker section (its arena borrowed): outputs and state are the interpreter's
/// (so the single arena's) over two runs, and some operators read and write tensors of
/// different pools (`io_pools`).
#[test]
fn pooled_builds_match_the_interpreter() {
    let builders = tflc::internal::testing::models::all();
    let mut mixed = 0;
    for &(module, name, io_pools, make) in POOLED {
        let (_, bytes) = builders.iter().find(|(n, _)| *n == name).unwrap();
        check_against_interpreter(module, bytes, make(), |_| {});
        mixed += io_pools;
    }
    // Every builder model without calls (the `control_*` ones call subgraphs), three times.
    let without_calls = builders.iter().filter(|(n, _)| !n.contains("control")).count();
    assert_eq!(POOLED.len(), 3 * without_calls, "{}", POOLED.len());
    assert!(mixed >= 10, "only {mixed} operators span pools");
    // The `#[link_section = ".dtcm"]` static links (and is aligned).
    assert_eq!(dtcm_arena_addr() % 16, 0);
}

/// Runs `m` twice and compares every output with the interpreter's; `check` sees the model
/// after each run.
fn check_against_interpreter(name: &str, bytes: &[u8], mut m: Box<dyn Runner>, mut check: impl FnMut(&mut dyn Runner)) {
    let model = tflc::read_model(bytes).unwrap();
    let sg = model.main();
    // A fixed input pattern covering the int8 range.
    let inputs: Vec<Vec<u8>> = sg
        .inputs
        .iter()
        .map(|&t| (0..sg.tensor(t).byte_size().unwrap()).map(|i| (i * 37 + 11) as u8).collect())
        .collect();
    // A second run on other inputs: state (variable tensors) must carry over.
    let inputs2: Vec<Vec<u8>> = inputs.iter().map(|v| v.iter().map(|b| b.wrapping_mul(5) ^ 0x5a).collect()).collect();
    let refs: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let refs2: Vec<&[u8]> = inputs2.iter().map(|v| v.as_slice()).collect();
    let want = tflc::internal::interp::run_steps_with_status(&model, &[&refs, &refs2]).unwrap();
    for (run, (ins, step)) in [&inputs, &inputs2].into_iter().zip(&want).enumerate() {
        for (i, inp) in ins.iter().enumerate() {
            m.input(i).copy_from_slice(inp);
        }
        assert_eq!(m.run(), status(step), "{name} run {run}");
        for (i, w) in comparable(sg, step) {
            assert_eq!(m.output(i), w, "{name} run {run} output {i}");
        }
        check(m.as_mut());
    }
}

/// `run_with`: the observer sees `before(op)` then `after(op)` for every entry of `OPS`, in
/// order, and the outputs are those of `run()`.
#[test]
fn run_with_calls_the_observer_around_every_operator() {
    use tflc_generated_compile::builder_tiny_cnn as m;
    use tflc_runtime::{Observer, OpInfo};
    #[derive(Default)]
    struct Trace(Vec<(bool, u32, &'static str)>);
    impl Observer for Trace {
        fn before(&mut self, op: &OpInfo) {
            self.0.push((true, op.index, op.opcode));
        }
        fn after(&mut self, op: &OpInfo) {
            self.0.push((false, op.index, op.opcode));
        }
    }
    let input: Vec<i8> = (0..m::INPUT_0_SHAPE.iter().product::<usize>()).map(|i| (i * 37 + 11) as i8).collect();
    let mut plain = Box::new(m::Model::new());
    plain.input_0().copy_from_slice(&input);
    plain.run();
    let mut observed = Box::new(m::Model::new());
    observed.input_0().copy_from_slice(&input);
    let mut trace = Trace::default();
    observed.run_with(&mut trace);
    assert_eq!(plain.output_0(), observed.output_0());
    let want: Vec<(bool, u32, &str)> = m::OPS.iter().flat_map(|o| [(true, o.index, o.opcode), (false, o.index, o.opcode)]).collect();
    assert_eq!(trace.0, want);
    // tiny_cnn: six operators run code; op 4 (RESHAPE) is a view.
    let indices: Vec<u32> = m::OPS.iter().map(|o| o.index).collect();
    assert_eq!(indices, [0, 1, 2, 3, 5, 6]);
}

/// The builder models compiled into one module sharing one arena (`tflc A B… -o OUT.rs`):
/// every model, run in turn, gives the interpreter's outputs; each model's outputs are still
/// there after all the others have run; its state carries over from its first run to its
/// second though the others ran in between; and the joint arena is smaller than the
/// separate arenas together.
#[test]
fn models_sharing_one_arena_match_the_interpreter() {
    let builders = tflc::internal::testing::models::all();
    let models: Vec<(&str, &Vec<u8>)> = SHARED_NAMES
        .iter()
        .map(|n| {
            let builder = n.strip_suffix("_again").unwrap_or(n);
            (*n, &builders.iter().find(|(b, _)| *b == builder).unwrap_or_else(|| panic!("{n} is not a builder model")).1)
        })
        .collect();
    // Two runs per model on the same inputs as `check_against_interpreter`.
    let mut inputs = Vec::new();
    let mut want = Vec::new();
    let mut read = Vec::new();
    for (name, bytes) in &models {
        let model = tflc::read_model(bytes).unwrap();
        let sg = model.main();
        let a: Vec<Vec<u8>> = sg.inputs.iter().map(|&t| (0..sg.tensor(t).byte_size().unwrap()).map(|i| (i * 37 + 11) as u8).collect()).collect();
        let b: Vec<Vec<u8>> = a.iter().map(|v| v.iter().map(|x| x.wrapping_mul(5) ^ 0x5a).collect()).collect();
        let ra: Vec<&[u8]> = a.iter().map(|v| v.as_slice()).collect();
        let rb: Vec<&[u8]> = b.iter().map(|v| v.as_slice()).collect();
        want.push(tflc::internal::interp::run_steps_with_status(&model, &[&ra, &rb]).unwrap_or_else(|e| panic!("{name}: {e}")));
        read.push(tflc::read_model(bytes).unwrap());
        inputs.push([a, b]);
    }
    // The outputs to compare after run `r` of model `k`, and those the model holds.
    let check = |k: usize, r: usize, got: Vec<Vec<u8>>, what: &str| {
        for (i, w) in comparable(read[k].main(), &want[k][r]) {
            assert_eq!(got[i], w, "{} run {r} output {i}{what}", models[k].0);
        }
    };
    let mut m = Box::new(shared::Models::new());
    let n = models.len();
    // First runs in order, each checked at once; then every model's outputs again.
    for k in 0..n {
        let ins: Vec<&[u8]> = inputs[k][0].iter().map(|v| v.as_slice()).collect();
        assert_eq!(shared_run(&mut m, k, &ins), status(&want[k][0]), "{} run 0", models[k].0);
        check(k, 0, shared_outputs(&mut m, k), "");
    }
    for k in 0..n {
        check(k, 0, shared_outputs(&mut m, k), " after the other models ran");
    }
    // Second runs in reverse order: state from run 0 survives the others' runs.
    for k in (0..n).rev() {
        let ins: Vec<&[u8]> = inputs[k][1].iter().map(|v| v.as_slice()).collect();
        assert_eq!(shared_run(&mut m, k, &ins), status(&want[k][1]), "{} run 1", models[k].0);
        check(k, 1, shared_outputs(&mut m, k), "");
    }
    let files: Vec<(String, Vec<u8>)> = models.iter().map(|(n, b)| (format!("{n}.tflite"), (*b).clone())).collect();
    let joint = tflc::compile_models(&files, &tflc::CompileOptions::default()).unwrap();
    let separate: u64 = joint.separate_arena_bytes.iter().sum();
    assert_eq!(joint.arena_bytes(), shared::ARENA_BYTES as u64);
    assert!(joint.arena_bytes() < separate, "{}", joint.report());
    assert!(joint.arena_bytes() >= joint.joint.lower_bound_bytes, "{}", joint.report());
    // The two tiny_cnn share the region of their intermediate tensors.
    assert!(joint.joint.models.iter().filter(|m| m.shares).count() >= 2, "{}", joint.report());
    eprintln!("{}", joint.report());
}

/// The caller's custom operators (`builder_custom_ops`: ScaleShift twice with FlexBuffer
/// options and a constant input, ClampI8 with a raw struct and scratch): the generated `run`
/// with `TestOps` gives the outputs the same computation gives with builtins
/// (`custom_ops_builtin`, run by the interpreter), bit for bit; every custom operator is
/// called once per run with its `CUSTOM_<op>` info; the observer sees all four operators; a
/// failing kernel ends the run with `CustomOpFailed` naming it.
#[test]
fn custom_ops_match_their_builtin_equivalent() {
    use tflc_generated_compile::{builder_custom_ops as m, TestOps};
    use tflc_runtime::{Observer, OpInfo};
    let builtin = tflc::internal::testing::models::custom_ops_builtin();
    let model = tflc::read_model(&builtin).unwrap();
    for run in 0..3 {
        let xs: Vec<f32> = (0..8).map(|i| (i as f32 - 3.5) * (run as f32 + 0.75)).collect();
        let qs: Vec<i8> = (0..8).map(|i| ((i * 37 + 11 + run * 90) as u8) as i8).collect();
        let x_bytes: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
        let q_bytes: Vec<u8> = qs.iter().map(|&q| q as u8).collect();
        let want = tflc::internal::interp::run_steps_with_status(&model, &[&[x_bytes.as_slice(), q_bytes.as_slice()]]).unwrap();
        let mut g = Box::new(m::Model::new());
        g.input_0().copy_from_slice(&xs);
        g.input_1().copy_from_slice(&qs);
        let mut ops = TestOps::default();
        g.run(&mut ops).unwrap();
        assert_eq!(g.output_bytes(0), want[0].outputs[0].as_slice(), "run {run}: ScaleShift, RELU, ScaleShift");
        assert_eq!(g.output_bytes(1), want[0].outputs[1].as_slice(), "run {run}: ClampI8");
        assert_eq!(ops.calls, [(0, "ScaleShift"), (2, "ScaleShift"), (3, "ClampI8")]);
        assert_eq!(ops.scratch_bytes, tflc::internal::testing::models::CUSTOM_OPS_SCRATCH.1);
    }
    assert_eq!((m::CUSTOM_3.index, m::CUSTOM_3.code, m::CUSTOM_3.options.len()), (3, "ClampI8", 8));
    assert_eq!(m::CUSTOM_3.inputs[0].per_tensor(), Some((0.1, 3)));
    assert!(m::CUSTOM_0.inputs[1].constant && !m::CUSTOM_0.inputs[0].constant);

    // The observer brackets every operator, custom ones included.
    #[derive(Default)]
    struct Trace(Vec<u32>);
    impl Observer for Trace {
        fn before(&mut self, op: &OpInfo) {
            self.0.push(op.index);
        }
    }
    let mut g = Box::new(m::Model::new());
    let mut trace = Trace::default();
    g.run_with(&mut TestOps::default(), &mut trace).unwrap();
    assert_eq!(trace.0, [0, 1, 2, 3]);

    // A failing kernel ends the run, naming its operator.
    let mut ops = TestOps { fail_clamp: true, ..TestOps::default() };
    let e = g.run(&mut ops).unwrap_err();
    assert_eq!((e.op.index, e.op.code, e.error.reason), (3, "ClampI8", "asked to fail"));
    assert_eq!(e.to_string(), "op 3 (CUSTOM:ClampI8) failed: asked to fail");
}

/// A custom operator after a CIRCULAR_BUFFER: the runs the buffer ends early return
/// `Ok(Stopped { op: 0 })` without calling the kernel; the others `Ok(Complete)` with the
/// kernel's output (the clamped buffer).
#[test]
fn custom_ops_after_a_stop() {
    use tflc_generated_compile::{custom_ops_streaming as m, TestOps};
    let mut g = Box::new(m::Model::new());
    let (mut stopped, mut complete) = (0, 0);
    for run in 0..6i32 {
        g.input_0().copy_from_slice(&[(run * 40 - 100) as i8, 0, 60, -128]);
        let mut ops = TestOps::default();
        match g.run(&mut ops).unwrap() {
            RunStatus::Stopped { op } => {
                assert_eq!(op, 0);
                assert!(ops.calls.is_empty());
                stopped += 1;
            }
            RunStatus::Complete => {
                assert_eq!(ops.calls, [(1, "ClampI8")]);
                let want: Vec<i8> = g.output_0().iter().map(|&x| x.clamp(-20, 50)).collect();
                assert_eq!(g.output_1().as_slice(), want.as_slice());
                complete += 1;
            }
        }
    }
    assert!(stopped > 0 && complete > 0, "{stopped} stopped, {complete} complete");
}
