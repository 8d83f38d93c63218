//! The pipeline end to end on builder models (from `pipeline.rs`'s unit tests: they use only
//! the public API, so they live here, beside the other integration suites).
#![cfg(feature = "format")]
use tflc::error::Error;
use tflc::internal::lower::lower_subgraph;
use tflc::{compile, CompileOptions};
use tflc::ir::{Activation, DType, OpKind};
use tflc::internal::tflite::builder::ModelBuilder;

/// x -> LEAKY_RELU -> a -> RELU -> b -> ADD(x, b) -> c -> MUL(c, c) -> d -> TANH -> y:
/// RELU, ADD (over its operand 2, swapped) and TANH run in place; LEAKY_RELU cannot (x is
/// a model input), MUL cannot (it reads c twice).
#[test]
fn in_place_pairs_reach_the_plan_and_the_generated_calls() {
    let q = Some((0.05, -3));
    let mut m = ModelBuilder::new();
    let s = [1, 64];
    let x = m.activation("x", DType::I8, &s, q);
    let a = m.activation("a", DType::I8, &s, q);
    let b = m.activation("b", DType::I8, &s, q);
    let c = m.activation("c", DType::I8, &s, Some((0.1, 2)));
    let d = m.activation("d", DType::I8, &s, Some((0.2, 0)));
    let y = m.activation("y", DType::I8, &s, Some((1.0 / 128.0, 0)));
    m.op(OpKind::LeakyRelu { alpha: 0.25 }, &[Some(x)], &[a]);
    m.op(OpKind::Relu, &[Some(a)], &[b]);
    m.op(OpKind::Add { activation: Activation::None }, &[Some(x), Some(b)], &[c]);
    m.op(OpKind::Mul { activation: Activation::None }, &[Some(c), Some(c)], &[d]);
    m.op(OpKind::Tanh, &[Some(d)], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    let bytes = m.finish();

    let model = tflc::read_model(&bytes).unwrap();
    let declared = lower_subgraph(model.main()).in_place();
    let ops: Vec<usize> = declared.iter().map(|p| p.0.index()).collect();
    assert_eq!(ops, [0, 1, 2, 2, 4], "{declared:?}");

    let compiled = compile(&bytes, &CompileOptions::default()).unwrap();
    let realized: Vec<usize> = compiled.plan.in_place_pairs().iter().map(|p| p.0.index()).collect();
    assert_eq!(realized, [1, 2, 4]);
    // x, and one slot for a/b/c, then c and d (MUL), d/y in one slot.
    assert_eq!(compiled.plan.plan.arena_bytes, 128);
    let code = &compiled.code;
    for call in ["leaky_relu_s8(", "relu_s8_in_place(", "add_s8_in_place(", "mul_s8(", "tanh_s8_in_place("] {
        assert!(code.contains(call), "{call} missing:\n{code}");
    }
    assert!(!code.contains("leaky_relu_s8_in_place") && !code.contains("mul_s8_in_place"));
    // ADD writes c over b (its operand 2): x is the only input view, c the only output.
    let add = code.find("add_s8_in_place(").unwrap();
    let io_call = &code[code[..add].rfind("io(").unwrap()..add];
    assert!(io_call.contains(&format!("[T{}], [T{}]", x.index(), c.index())), "{io_call}");
    assert_eq!(compiled.plan.tensor_region(b), compiled.plan.tensor_region(c));
}

/// The `(start, end)` of every `const NAME: ::core::ops::Range<usize> = a..b;` in `code`
/// whose name starts with `prefix`.
fn ranges(code: &str, prefix: &str) -> Vec<(usize, usize)> {
    code.lines()
        .filter_map(|l| l.strip_prefix("const ")?.strip_prefix(prefix))
        .filter_map(|l| l.split_once(": ::core::ops::Range<usize> = "))
        .filter_map(|(_, r)| r.trim_end_matches(';').split_once(".."))
        .map(|(a, b)| (a.parse().unwrap(), b.parse().unwrap()))
        .collect()
}

/// `--align 64`: arena and blob wrappers, every arena range and every weight and table
/// offset are multiples of 64, and the planner planned with 64.
#[test]
fn align_reaches_arena_blob_and_every_offset() {
    for (name, bytes) in tflc::internal::testing::models::all() {
        let opts = CompileOptions { align: 64, ..CompileOptions::default() };
        let c = compile(&bytes, &opts).unwrap();
        let code = &c.code;
        assert_eq!(c.plan.plan.align, 64);
        assert!(!code.contains("Align16"), "{name}:\n{code}");
        assert!(code.contains("arena: rt::__private::Align64<[u8; ARENA_BYTES]>"), "{name}");
        let (t, w) = (ranges(code, "T"), ranges(code, "W"));
        assert!(!t.is_empty(), "{name}");
        for (a, _) in t.iter().chain(&w) {
            assert_eq!(a % 64, 0, "{name}: range at {a}\n{code}");
        }
        assert_eq!(c.arena_bytes() % 64, 0, "{name}");
        if !c.weights.is_empty() {
            assert!(code.contains("static WEIGHTS: rt::__private::Align64<"), "{name}");
            assert!(code.contains("/// Every weight and compile-time table, 64-byte aligned, in flash."), "{name}");
        }
        // The default keeps 16.
        let d = compile(&bytes, &CompileOptions::default()).unwrap();
        assert!(d.code.contains("Align16") && !d.code.contains("Align64"), "{name}");
    }
}

/// Every lowering error at once, before anything is planned or emitted.
#[test]
fn every_lowering_error_is_reported() {
    let q = Some((0.1, 0));
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[1, 8], q);
    let a = m.activation("a", DType::I8, &[1, 8], q);
    // An output scale that makes int8 DIV's multiplier 2^27: refused (a negative shift).
    let y = m.activation("y", DType::I8, &[1, 8], Some((1e-8, 0)));
    // A custom operator with an omitted input (the caller's kernel takes every input).
    m.op_spec(tflc::internal::tflite::builder::OpSpecCode::Custom("Mine".into()), &[Some(x), None], &[a]);
    m.op(OpKind::Div { activation: Activation::None }, &[Some(a), Some(a)], &[y]);
    m.inputs(&[x]).outputs(&[y]);
    match compile(&m.finish(), &CompileOptions::default()) {
        Err(Error::Unsupported { count: 2, details }) => {
            assert!(details.starts_with("op 0 (CUSTOM:Mine): unsupported: input 1 is omitted"), "{details}");
            assert!(details.contains("\nop 1 (DIV)"), "{details}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn alignments_outside_16_to_4096_are_refused() {
    let bytes = tflc::internal::testing::models::tiny_cnn();
    for align in [0, 8, 24, 8192] {
        let e = compile(&bytes, &CompileOptions { align, ..CompileOptions::default() }).unwrap_err().to_string();
        assert!(e.contains(&format!("alignment {align} is not a power of two from 16 to 4096")), "{e}");
    }
    for align in [16, 32, 128, 4096] {
        let c = compile(&bytes, &CompileOptions { align, ..CompileOptions::default() }).unwrap();
        assert!(c.code.contains(&format!("Align{align}<")), "{align}");
    }
}

/// The observer hooks: every kernel call sits between `observer.before(&OPS[k])` and
/// `observer.after(&OPS[k])`, k counting the operators that run code, and `OPS` names
/// each (index in the model, opcode); `run()` is `run_with(&mut NoObserver)`.
#[test]
fn every_kernel_call_is_observed() {
    let bytes = tflc::internal::testing::models::tiny_cnn();
    let code = compile(&bytes, &CompileOptions::default()).unwrap().code;
    let calls = code.matches("rt::__private::io(").count();
    assert_eq!(calls, 6, "{code}");
    for k in 0..calls {
        let before = code.find(&format!("observer.before(&OPS[{k}]);")).unwrap();
        let after = code.find(&format!("observer.after(&OPS[{k}]);")).unwrap();
        assert_eq!(code[before..after].matches("rt::__private::io(").count(), 1, "{code}");
    }
    assert!(code.contains(&format!("pub const OPS: [rt::OpInfo; {calls}]")), "{code}");
    assert!(code.contains("self.run_with(&mut rt::NoObserver)"), "{code}");
    // Op 4 (RESHAPE) is a view: no code, no entry.
    assert!(code.contains("index: 3,") && !code.contains("index: 4,") && code.contains("index: 5,"), "{code}");
    assert!(code.contains("opcode: \"DEPTHWISE_CONV_2D\""), "{code}");
}

/// The builder model `in_place`: every op after the first writes over its input.
#[test]
fn every_in_place_variant_is_emitted() {
    let compiled = compile(&tflc::internal::testing::models::in_place(), &CompileOptions::default()).unwrap();
    assert_eq!(compiled.plan.in_place_pairs().len(), 12, "{:?}", compiled.plan.in_place_pairs());
    for f in [
        "quantize_s8_s8_in_place(", "add_s8_in_place(", "mul_s8_in_place(", "hard_swish_s8_in_place(",
        "maximum_in_place(", "minimum_in_place(", "prelu_s8_in_place(", "sub_s8_in_place(", "relu_s8_in_place(",
        "tanh_s8_in_place(", "logistic_s8_in_place(", "squared_difference_s8_in_place(",
    ] {
        assert!(compiled.code.contains(f), "{f} missing:\n{}", compiled.code);
    }
    // x (input) and one slot for the chain.
    assert_eq!(compiled.plan.plan.arena_bytes, 2 * 80);
}

/// The arena of `bytes` planned without the kernels' in-place pairs (what it was before
/// the kernels declared them).
fn arena_without_in_place(bytes: &[u8]) -> u64 {
    let model = tflc::read_model(bytes).unwrap();
    let lowered = lower_subgraph(model.main());
    let options = tflc::internal::pipeline::plan_options(&lowered, tflc::internal::plan::PlanOptions { verify: true, ..tflc::internal::plan::PlanOptions::default() });
    let apart = tflc::internal::plan::PlanOptions { in_place: Vec::new(), ..options };
    tflc::internal::plan::plan_subgraph(model.main(), &apart).unwrap().plan.arena_bytes
}

/// The builder models `in_place_f32` and `in_place_s16`: every float32, int32 and int16
/// `_in_place` kernel is emitted (operand 2 too for ADD and MUL), and each chain runs in
/// one slot.
#[test]
fn every_float_int32_and_int16_in_place_variant_is_emitted() {
    let bytes = tflc::internal::testing::models::in_place_f32();
    let compiled = compile(&bytes, &CompileOptions::default()).unwrap();
    assert_eq!(compiled.plan.in_place_pairs().len(), 17 + 5, "{:?}", compiled.plan.in_place_pairs());
    for f in [
        "relu_f32_in_place(", "add_f32_in_place(", "relu6_f32_in_place(", "mul_f32_in_place(", "sub_f32_in_place(",
        "div_f32_in_place(", "relu_n1_to_1_f32_in_place(", "prelu_f32_in_place(", "hard_swish_f32_in_place(",
        "tanh_f32_in_place(", "logistic_f32_in_place(", "maximum_in_place(", "minimum_in_place(",
        "squared_difference_f32_in_place(", "floor_div_f32_in_place(", "floor_mod_f32_in_place(", "neg_f32_in_place(",
        "mul_i32_in_place(", "sub_i32_in_place(", "div_i32_in_place(", "squared_difference_i32_in_place(",
    ] {
        assert!(compiled.code.contains(f), "{f} missing:\n{}", compiled.code);
    }
    // x and one slot for the float32 chain, plus the int32 input n (a model input, live
    // from the start); the int32 chain's one slot runs after the float32 chain, in x's.
    let (f32_bytes, i32_bytes): (u64, u64) = (72 * 4, 24 * 4);
    assert_eq!(compiled.plan.plan.arena_bytes, 2 * f32_bytes + i32_bytes);
    assert!(arena_without_in_place(&bytes) >= 3 * f32_bytes + i32_bytes);

    let bytes = tflc::internal::testing::models::in_place_s16();
    let compiled = compile(&bytes, &CompileOptions::default()).unwrap();
    assert_eq!(compiled.plan.in_place_pairs().len(), 9, "{:?}", compiled.plan.in_place_pairs());
    for f in [
        "add_s16_in_place(", "mul_s16_in_place(", "sub_s16_in_place(", "relu_s16_in_place(",
        "squared_difference_s16_in_place(", "quantize_s16_s16_in_place(", "maximum_in_place(", "minimum_in_place(",
    ] {
        assert!(compiled.code.contains(f), "{f} missing:\n{}", compiled.code);
    }
    let s16_bytes: u64 = 72 * 2;
    assert_eq!(compiled.plan.plan.arena_bytes, 2 * s16_bytes);
    assert!(arena_without_in_place(&bytes) >= 3 * s16_bytes);
}

/// The caller's custom operators: one trait method per (code, element types), snake case,
/// suffixed on a clash or a keyword; `run` takes the implementation only in such a model.
#[test]
fn custom_operators_become_trait_methods() {
    use tflc::internal::tflite::builder::OpSpecCode;
    let q = Some((0.1, 0));
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[1, 8], q);
    let a = m.activation("a", DType::I8, &[1, 8], q);
    let b = m.activation("b", DType::F32, &[8], None);
    let c = m.activation("c", DType::I8, &[1, 8], q);
    let d = m.activation("d", DType::Bool, &[8], None);
    let e = m.activation("e", DType::I8, &[1, 8], q);
    m.op_spec(OpSpecCode::Custom("MyOp".into()), &[Some(x)], &[a]);
    m.op_spec(OpSpecCode::Custom("MyOp".into()), &[Some(a)], &[b]);
    m.op_spec(OpSpecCode::Custom("my-op".into()), &[Some(a)], &[c]);
    m.op_spec(OpSpecCode::Custom("type".into()), &[Some(c)], &[d]);
    m.op_spec(OpSpecCode::Custom("MyOp".into()), &[Some(c)], &[e]);
    m.inputs(&[x]).outputs(&[b, d, e]);
    let code = compile(&m.finish(), &CompileOptions::default()).unwrap().code;
    let flat: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    for sig in [
        "fn my_op( &mut self, op: &'static rt::custom::CustomOpInfo, input_0: &[i8], output_0: &mut [i8], )",
        "fn my_op_2( &mut self, op: &'static rt::custom::CustomOpInfo, input_0: &[i8], output_0: &mut [f32], )",
        "fn my_op_3( &mut self, op: &'static rt::custom::CustomOpInfo, input_0: &[i8], output_0: &mut [i8], )",
        "fn type_2( &mut self, op: &'static rt::custom::CustomOpInfo, input_0: &[i8], output_0: &mut [u8], )",
        "pub fn run( &mut self, ops: &mut impl CustomOps, ) -> ::core::result::Result<(), rt::custom::CustomOpFailed>",
    ] {
        assert!(flat.contains(sig), "{sig}\n{code}");
    }
    // Ops 0 and 4 share `my_op`; the bool output is a byte view.
    assert!(flat.contains("ops.my_op(&CUSTOM_4,") || flat.contains("ops.my_op( &CUSTOM_4,"), "{code}");
    assert!(flat.contains("`CUSTOM:MyOp`: runs op 0 ([`CUSTOM_0`]), op 4 ([`CUSTOM_4`])"), "{code}");
    assert!(!code.contains("unsafe"));
    // Deterministic.
    assert_eq!(code, compile(&m.finish(), &CompileOptions::default()).unwrap().code);
    // A model without custom operators keeps `run(&mut self)`.
    let plain = compile(&tflc::internal::testing::models::tiny_cnn(), &CompileOptions::default()).unwrap().code;
    assert!(plain.contains("pub fn run(&mut self) {") && !plain.contains("CustomOps"));
}

/// `custom_scratch` for a code the model lacks, and custom operators in a shared arena, are
/// the user's to change (typed `OptionsError`s naming the option or the op).
#[test]
fn custom_operator_options_are_checked() {
    let bytes = tflc::internal::testing::models::custom_ops();
    let opts = CompileOptions { custom_scratch: [("Clamp".to_string(), 8)].into(), ..CompileOptions::default() };
    let e = compile(&bytes, &opts).unwrap_err();
    assert!(matches!(e, Error::Options(_)) && e.to_string().contains("no custom operator CUSTOM:Clamp"), "{e}");
    let e = tflc::compile_models(&[("a.tflite".into(), bytes.clone()), ("b.tflite".into(), tflc::internal::testing::models::tiny_cnn())], &CompileOptions::default()).unwrap_err();
    assert!(e.to_string().contains("a.tflite: op 0 is a custom operator whose kernel is the caller's"), "{e}");
    assert_eq!(
        CompileOptions::parse_custom_scratch("MyOp=2K"),
        Ok(("MyOp".to_string(), 2048))
    );
    assert!(CompileOptions::parse_custom_scratch("=5").is_err() && CompileOptions::parse_custom_scratch("MyOp=lots").is_err());
}

/// The runtime's `no_std` FlexBuffer reader (what custom kernels use) reads what the
/// compiler's reader reads, on the builder's maps and on every custom options of the builder
/// models.
#[test]
fn runtime_flexbuffer_reader_agrees_with_the_compilers() {
    use tflc::internal::tflite::flexbuffers::{write_map, FlexMap, FlexValue};
    use tflc_runtime::flexbuffers::{Map, Value};
    let mut buffers = vec![write_map(&[
        ("a", FlexValue::Int(-3)),
        ("big", FlexValue::UInt(1 << 40)),
        ("f", FlexValue::Float(0.25)),
        ("t", FlexValue::Bool(true)),
    ])];
    let mut seeds = tflc::internal::testing::models::all();
    seeds.push(("custom_ops", tflc::internal::testing::models::custom_ops()));
    for (_, bytes) in &seeds {
        let model = tflc::read_model(bytes).unwrap();
        for sg in model.subgraphs.iter() {
            buffers.extend(sg.ops.iter().filter_map(|o| o.custom_options).filter(|o| FlexMap::parse(o).is_ok()).map(|o| o.to_vec()));
        }
    }
    assert!(buffers.len() > 3, "{}", buffers.len());
    for b in &buffers {
        let theirs = FlexMap::parse(b).unwrap();
        let ours = Map::parse(b).unwrap();
        assert_eq!(ours.len(), theirs.entries.len());
        for (i, (k, v)) in theirs.entries.iter().enumerate() {
            assert_eq!(ours.key(i), Some(k.as_str()));
            let got = ours.value(i).unwrap();
            match *v {
                FlexValue::Int(x) => assert_eq!(got, Value::Int(x), "{k}"),
                FlexValue::UInt(x) => assert_eq!(got, Value::UInt(x), "{k}"),
                FlexValue::Float(x) => assert_eq!(got, Value::Float(x), "{k}"),
                FlexValue::Bool(x) => assert_eq!(got, Value::Bool(x), "{k}"),
                FlexValue::Null => assert_eq!(got, Value::Null, "{k}"),
                FlexValue::Other(_) => assert!(!matches!(got, Value::Int(_) | Value::UInt(_) | Value::Float(_) | Value::Bool(_)), "{k}"),
            }
        }
    }
}

/// `Config::custom_scratch` reaches the generated trait as `--custom-scratch` does.
#[test]
fn config_gives_custom_operators_scratch() {
    let dir = std::env::temp_dir().join(format!("tflc-config-custom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("custom_ops.tflite");
    std::fs::write(&model, tflc::internal::testing::models::custom_ops()).unwrap();
    let written = tflc::Config::new().model(&model).custom_scratch("ClampI8", 48).quiet(true).compile_to(&dir).unwrap();
    let code = std::fs::read_to_string(&written[0]).unwrap();
    assert!(code.contains("48 bytes of scratch, live during the call only") && code.contains("scratch: &mut [u8],"), "{code}");
    let e = tflc::Config::new().model(&model).custom_scratch("Nope", 8).quiet(true).compile_to(&dir).unwrap_err();
    assert!(e.to_string().contains("CUSTOM:Nope"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// MediaPipe's operators are built in (`builder_mediapipe` keeps `run(&mut self)`); asking
/// for your own kernel (`Config::custom_kernel`, `--custom-kernel`) sends that code to the
/// generated `CustomOps` trait, and scratch may then be given to it. Names the model lacks,
/// TFLite Micro's own custom operators, and scratch for a built-in kernel are refused.
#[test]
fn a_users_kernel_overrides_a_built_in_mediapipe_operator() {
    let bytes = tflc::internal::testing::models::mediapipe();
    let built_in = compile(&bytes, &CompileOptions::default()).unwrap().code;
    assert!(built_in.contains("pub fn run(&mut self) {") && !built_in.contains("CustomOps"));
    assert!(built_in.contains("rt::kernels::convolution_2d_transpose_bias::convolution_2d_transpose_bias_f32("));
    let dir = std::env::temp_dir().join(format!("tflc-config-mediapipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("mediapipe.tflite");
    std::fs::write(&model, &bytes).unwrap();
    let written = tflc::Config::new()
        .model(&model)
        .custom_kernel("Convolution2DTransposeBias")
        .custom_scratch("Convolution2DTransposeBias", 64)
        .quiet(true)
        .compile_to(&dir)
        .unwrap();
    let code = std::fs::read_to_string(&written[0]).unwrap();
    assert!(code.contains("pub trait CustomOps") && code.contains("fn convolution2_d_transpose_bias("), "{code}");
    assert!(code.contains("64 bytes of scratch") && code.contains("ops: &mut impl CustomOps"), "{code}");
    assert!(!code.contains("kernels::convolution_2d_transpose_bias::") && code.contains("kernels::max_unpooling_2d::max_unpooling_2d_f32("));
    let _ = std::fs::remove_dir_all(&dir);
    let with = |kernels: &[&str], scratch: &[(&str, usize)]| CompileOptions {
        custom_kernels: kernels.iter().map(|s| s.to_string()).collect(),
        custom_scratch: scratch.iter().map(|(s, n)| (s.to_string(), *n)).collect(),
        ..CompileOptions::default()
    };
    let e = compile(&bytes, &with(&["Resampler"], &[])).unwrap_err();
    assert!(matches!(e, Error::Options(_)) && e.to_string().contains("--custom-kernel Resampler: the model has no custom operator"), "{e}");
    let e = compile(&bytes, &with(&[], &[("MaxUnpooling2D", 16)])).unwrap_err();
    assert!(e.to_string().contains("tflc has a built-in kernel for CUSTOM:MaxUnpooling2D") && e.to_string().contains("--custom-kernel MaxUnpooling2D"), "{e}");
    let e = compile(&tflc::internal::testing::models::custom_postprocess(), &with(&["TFLite_Detection_PostProcess"], &[])).unwrap_err();
    assert!(e.to_string().contains("its kernel cannot be replaced"), "{e}");
}
