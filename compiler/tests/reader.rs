//! The reader: round trips through the model builder, every corpus model, and malformed
//! files (truncated, corrupted, inconsistent) that must give an error and never a panic.

mod common;

use tflc::error::ParseError;
use tflc::ir::*;
use tflc::internal::testing;
use tflc::internal::tflite::builder::{BufferPlacement, ModelBuilder, OpSpecCode};
use tflc::read_model;

fn every_kind() -> Vec<OpKind> {
    vec![
        OpKind::Conv2d(Conv2dOptions {
            padding: Padding::Valid,
            stride_w: 2,
            stride_h: 3,
            dilation_w: 2,
            dilation_h: 1,
            activation: Activation::Relu6,
        }),
        OpKind::DepthwiseConv2d(DepthwiseConv2dOptions {
            padding: Padding::Same,
            stride_w: 1,
            stride_h: 2,
            depth_multiplier: 3,
            dilation_w: 1,
            dilation_h: 2,
            activation: Activation::Relu,
        }),
        OpKind::FullyConnected(FullyConnectedOptions { activation: Activation::ReluN1To1, keep_num_dims: true, ..Default::default() }),
        OpKind::AveragePool2d(Pool2dOptions { padding: Padding::Valid, stride_w: 2, stride_h: 2, filter_w: 3, filter_h: 2, activation: Activation::None }),
        OpKind::MaxPool2d(Pool2dOptions { padding: Padding::Same, stride_w: 1, stride_h: 1, filter_w: 2, filter_h: 2, activation: Activation::Relu }),
        OpKind::Add { activation: Activation::Relu },
        OpKind::Sub { activation: Activation::None },
        OpKind::Mul { activation: Activation::Relu6 },
        OpKind::Div { activation: Activation::None },
        OpKind::Softmax { beta: 0.5 },
        OpKind::Logistic,
        OpKind::Tanh,
        OpKind::HardSwish,
        OpKind::Relu,
        OpKind::Relu6,
        OpKind::ReluN1To1,
        OpKind::LeakyRelu { alpha: 0.125 },
        OpKind::Prelu,
        OpKind::Quantize,
        OpKind::Dequantize,
        OpKind::Densify,
        OpKind::Pad,
        OpKind::PadV2,
        OpKind::Concatenation { axis: -1, activation: Activation::None },
        OpKind::Mean { keep_dims: true },
        OpKind::Sum { keep_dims: false },
        OpKind::Transpose,
        OpKind::StridedSlice(StridedSliceOptions { begin_mask: 1, end_mask: 2, ellipsis_mask: 0, new_axis_mask: 0, shrink_axis_mask: 4, offset: false }),
        OpKind::Slice,
        OpKind::Split { num_splits: 2 },
        OpKind::SplitV { num_splits: 3 },
        OpKind::Pack { values_count: 2, axis: 1 },
        OpKind::Unpack { num: 2, axis: 0 },
        OpKind::ResizeNearestNeighbor(ResizeOptions { align_corners: false, half_pixel_centers: true }),
        OpKind::ResizeBilinear(ResizeOptions { align_corners: true, half_pixel_centers: false }),
        OpKind::Maximum,
        OpKind::Minimum,
        OpKind::Reshape { new_shape: Some(vec![1, -1]) },
        OpKind::Reshape { new_shape: None },
        OpKind::Squeeze { squeeze_dims: vec![0, 2] },
        OpKind::ExpandDims,
        OpKind::Cast,
        OpKind::Gather { axis: 1, batch_dims: 0 },
        OpKind::Svdf(SvdfOptions { rank: 2, activation: Activation::Relu, asymmetric_quantize_inputs: false }),
        OpKind::UnidirectionalSequenceLstm(SequenceLstmOptions {
            activation: Activation::Tanh,
            cell_clip: 10.0,
            proj_clip: 0.0,
            time_major: false,
            asymmetric_quantize_inputs: false,
            diagonal_recurrent_tensors: false,
        }),
        OpKind::If { then_subgraph: SubgraphId::new(1), else_subgraph: SubgraphId::new(1) },
        OpKind::While { cond_subgraph: SubgraphId::new(1), body_subgraph: SubgraphId::new(1) },
        OpKind::CallOnce { init_subgraph: SubgraphId::new(1) },
    ]
}

/// A model with one op of every kind over two int8 tensors, and an empty subgraph 1.
fn every_kind_model(placement: BufferPlacement) -> Vec<u8> {
    let mut b = ModelBuilder::new();
    b.buffer_placement(placement);
    let x = b.activation("x", DType::I8, &[1, 4], Some((0.5, -3)));
    let w = b.constant_i8_per_axis("w", &[2, 2], &[1, -2, 3, -4], &[0.1, 0.2], 0);
    let y = b.activation("y", DType::I8, &[1, 4], Some((0.25, 7)));
    for k in every_kind() {
        b.op(k, &[Some(x), None, Some(w)], &[y]);
    }
    b.op_spec(OpSpecCode::Custom("MyCustomOp".into()), &[Some(x)], &[y]);
    b.op_spec(OpSpecCode::RawBuiltin(148), &[Some(x)], &[y]); // a builtin code past 127
    b.inputs(&[x]).outputs(&[y]);
    b.new_subgraph("branch");
    let z = b.activation("z", DType::F32, &[3], None);
    b.inputs(&[z]).outputs(&[z]);
    b.finish()
}

#[test]
fn every_op_kind_round_trips_through_the_builder() {
    for placement in [BufferPlacement::Inline, BufferPlacement::Appended] {
        let bytes = every_kind_model(placement);
        let m = read_model(&bytes).expect("builder output reads back");
        let sg = m.main();
        let kinds = every_kind();
        assert_eq!(sg.ops.len(), kinds.len() + 2);
        for (op, k) in sg.ops.iter().zip(&kinds) {
            assert_eq!(&op.kind, k, "op {} ({})", op.id, op.opcode);
            assert_eq!(op.inputs, vec![Some(TensorId::new(0)), None, Some(TensorId::new(1))]);
            assert_eq!(op.outputs, vec![TensorId::new(2)]);
        }
        let custom = &sg.ops.as_slice()[kinds.len()];
        assert_eq!(custom.opcode.to_string(), "CUSTOM:MyCustomOp");
        assert_eq!(custom.kind, OpKind::Unsupported);
        let raw = &sg.ops.as_slice()[kinds.len() + 1];
        assert_eq!(raw.opcode, OpCode::Builtin { code: 148, name: "RANDOM_UNIFORM".into() });
        // Constant data and per-axis quantization survive, in both buffer placements.
        let w = sg.tensor(TensorId::new(1));
        assert_eq!(w.data, Some(&[1u8, 0xfe, 3, 0xfc][..]));
        assert_eq!(w.quant.as_ref().map(|q| q.axis), Some(Some(0)));
        assert_eq!(sg.tensor(TensorId::new(0)).quant.as_ref().and_then(|q| q.per_tensor()), Some((0.5, -3)));
        assert_eq!(m.subgraphs.len(), 2);
        assert_eq!(m.subgraphs.as_slice()[1].name, "branch");
    }
}

#[test]
fn one_d_bias_with_filter_quantized_dimension_reads_as_axis_0() {
    // tflm_person_detect_int8 writes quantized_dimension = 3 on 1-D biases.
    let mut b = ModelBuilder::new();
    let q = Quantization { scale: vec![0.1, 0.2, 0.3], zero_point: vec![0, 0, 0], axis: Some(3) };
    let bias = b.constant("bias", DType::I32, &[3], vec![0; 12], Some(q));
    let x = b.activation("x", DType::I32, &[3], None);
    b.op(OpKind::Add { activation: Activation::None }, &[Some(bias), Some(bias)], &[x]);
    b.inputs(&[]).outputs(&[x]);
    let bytes = b.finish();
    let m = read_model(&bytes).unwrap();
    assert_eq!(m.main().tensor(bias).quant.as_ref().unwrap().axis, Some(0));
}

fn expect_err(bytes: &[u8], needle: &str) {
    match read_model(bytes) {
        Ok(_) => panic!("expected an error containing {needle:?}"),
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.contains(needle), "error {msg:?} does not contain {needle:?}");
        }
    }
}

#[test]
fn inconsistent_models_get_errors_naming_op_and_tensor() {
    // Tensor index out of range in an operator.
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I8, &[4], None);
    b.op_raw(OpSpecCode::Kind(OpKind::Relu), &[0], &[7]);
    b.inputs(&[x]);
    expect_err(&b.finish(), "op 0 (RELU): an output refers to tensor 7");

    // Negative (dynamic) shape.
    let mut b = ModelBuilder::new();
    b.tensor(tflc::internal::tflite::builder::TensorSpec {
        name: "dyn".into(),
        dtype: DType::I8,
        shape: vec![-1, 4],
        shape_signature: None,
        quant: None,
        data: None,
        variable: false,
    });
    expect_err(&b.finish(), "tensor 0 \"dyn\": shape [-1, 4] is not fixed");

    // Constant data of the wrong size.
    let mut b = ModelBuilder::new();
    b.constant("w", DType::I32, &[3], vec![0; 11], None);
    expect_err(&b.finish(), "tensor 0 \"w\": constant data is 11 bytes, but int32[3] needs 12");

    // Per-axis quantization that does not fit the shape.
    let mut b = ModelBuilder::new();
    let q = Quantization { scale: vec![0.1, 0.2], zero_point: vec![0, 0], axis: Some(1) };
    b.constant("w", DType::I8, &[2, 3], vec![0; 6], Some(q));
    expect_err(&b.finish(), "tensor 0 \"w\": per-axis quantization along dimension 1 with 2 scales");

    // IF naming a subgraph that does not exist.
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I8, &[4], None);
    b.op(OpKind::If { then_subgraph: SubgraphId::new(5), else_subgraph: SubgraphId::new(0) }, &[Some(x)], &[x]);
    expect_err(&b.finish(), "op 0 (IF): IF's then subgraph 5 does not exist");

    // Subgraph input out of range.
    let mut b = ModelBuilder::new();
    b.inputs_raw(&[3]);
    expect_err(&b.finish(), "a subgraph input refers to tensor 3");

    // Not a model at all.
    expect_err(b"hello", "not a TFLite model");
    expect_err(&[0u8; 64], "not a TFLite model");
    assert!(matches!(read_model(b"1234TFL3"), Err(ParseError::Corrupt { .. })));
}

/// Truncation at many points and random byte flips: an error or a model, never a panic.
/// Each check runs the whole reader (verification and IR construction).
fn mangle_checks(bytes: &[u8], seed: u64, truncations: usize, flips: usize) -> usize {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut errors = 0;
    let n = bytes.len();
    for i in 0..truncations {
        // Spread the cut points over the file, plus a few random ones.
        let cut = if i % 2 == 0 { (n * i) / truncations.max(1) } else { (next() as usize) % n.max(1) };
        // A file may end in bytes nothing references (padding, trailing data); cutting
        // those away leaves a valid model. Cutting into the first 90% never does.
        match read_model(&bytes[..cut]) {
            Err(_) => errors += 1,
            Ok(_) if cut * 10 >= n * 9 => {}
            Ok(_) => panic!("a model truncated to {cut} of {n} bytes was accepted"),
        }
    }
    let mut buf = bytes.to_vec();
    for _ in 0..flips {
        buf.copy_from_slice(bytes);
        // Flip 1..8 bytes, mostly in the flatbuffer's tables near the front and back.
        for _ in 0..(1 + next() % 8) {
            let pos = (next() as usize) % n;
            buf[pos] ^= (next() % 255 + 1) as u8;
        }
        if read_model(&buf).is_err() {
            errors += 1;
        }
    }
    errors
}

#[test]
fn malformed_builder_models_never_panic() {
    let bytes = every_kind_model(BufferPlacement::Inline);
    mangle_checks(&bytes, 1, 200, 2000);
    let bytes = every_kind_model(BufferPlacement::Appended);
    mangle_checks(&bytes, 2, 200, 2000);
}

#[test]
fn corpus_models_read_with_manifest_operator_counts() {
    let Some(shared) = testing::shared_dir_or_skip("corpus reader test") else { return };
    let manifest = std::fs::read_to_string(shared.join("models/MANIFEST.md")).expect("MANIFEST.md");
    let models = testing::corpus_models(&shared);
    assert!(models.len() >= 22, "expected the 22 corpus models, found {}", models.len());
    for path in &models {
        let name = testing::model_name(path);
        let bytes = std::fs::read(path).unwrap();
        let m = read_model(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ops: usize = m.subgraphs.iter().map(|s| s.ops.len()).sum();
        // The manifest row: | `name.tflite` | source | bytes | io | ops | …
        let row = manifest
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}.tflite`")))
            .unwrap_or_else(|| panic!("{name} is not in MANIFEST.md"));
        let cols: Vec<&str> = row.split('|').map(str::trim).collect();
        let want: usize = cols[5].parse().unwrap_or_else(|_| panic!("{name}: bad ops column {:?}", cols[5]));
        assert_eq!(ops, want, "{name}: operator count");
    }
}

#[test]
fn corpus_models_truncated_and_corrupted_never_panic() {
    let Some(shared) = testing::shared_dir_or_skip("corpus malformed-input test") else { return };
    for (i, path) in testing::corpus_models(&shared).iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        // Large models verify slower; fewer cuts keep the suite quick.
        let (cuts, flips) = if bytes.len() > 1_000_000 { (24, 48) } else { (64, 256) };
        mangle_checks(&bytes, i as u64 + 10, cuts, flips);
    }
}

#[test]
fn person_detect_bias_quantization_and_dynamic_signatures() {
    let Some(shared) = testing::shared_dir_or_skip("corpus quirks test") else { return };
    let bytes = std::fs::read(shared.join("models/tflm_person_detect_int8.tflite")).unwrap();
    let m = read_model(&bytes).unwrap();
    // Its 28 per-channel biases (14 of them written with quantized_dimension = 3) all read
    // as quantized along their only axis.
    let per_axis_1d: Vec<_> = m
        .main()
        .tensors
        .iter()
        .filter(|t| t.shape.len() == 1 && t.quant.as_ref().is_some_and(|q| q.scale.len() > 1))
        .collect();
    assert_eq!(per_axis_1d.len(), 28);
    assert!(per_axis_1d.iter().all(|t| t.quant.as_ref().unwrap().axis == Some(0)));
    // Nine corpus models carry a dynamic batch in shape_signature; we compile for `shape`.
    let mut dynamic = 0;
    for path in testing::corpus_models(&shared) {
        let bytes = std::fs::read(&path).unwrap();
        let m = read_model(&bytes).unwrap();
        if m.main().inputs.iter().any(|&t| m.main().tensor(t).has_dynamic_signature()) {
            dynamic += 1;
        }
    }
    assert_eq!(dynamic, 9);
}

/// The fuzz target's check, run for about two seconds on every `cargo test`: arbitrary
/// mutations of a valid model (byte flips, splices, truncation, insertions), and arbitrary
/// bytes behind a valid identifier. The reader must return, never panic.
#[test]
fn fuzz_smoke_reader() {
    // Every op kind, and sparse constants (the reader's SparsityParameters checks).
    let seed_models = [every_kind_model(BufferPlacement::Inline), tflc::internal::testing::models::sparse_weights()];
    let runs = common::fuzz(std::time::Duration::from_secs(2), 200_000, |u| {
        let mut bytes = if u.arbitrary::<bool>()? { u.choose(&seed_models)?.clone() } else {
            let mut b = b"\x1c\0\0\0TFL3".to_vec();
            b.extend(u.arbitrary::<Vec<u8>>()?);
            b
        };
        for _ in 0..u.int_in_range(0..=8)? {
            if bytes.is_empty() {
                break;
            }
            let pos = u.choose_index(bytes.len())?;
            match u.int_in_range(0..=3)? {
                0 => bytes[pos] = u.arbitrary()?,
                1 => bytes.truncate(pos),
                2 => bytes.insert(pos, u.arbitrary()?),
                _ => {
                    // Overwrite a little-endian u32 (offsets, lengths, indices).
                    let v: u32 = u.arbitrary()?;
                    for (i, b) in v.to_le_bytes().iter().enumerate() {
                        if let Some(x) = bytes.get_mut(pos + i) {
                            *x = *b;
                        }
                    }
                }
            }
        }
        if let Ok(m) = read_model(&bytes) {
            let _ = tflc::inspect::summarize(&m);
        }
        Ok(())
    });
    assert!(runs > 100, "the fuzz smoke test ran only {runs} cases");
}

#[test]
fn committed_model_files_match_their_builders() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (rel, bytes) in tflc::internal::testing::models::committed_files() {
        let on_disk = std::fs::read(root.join(rel)).unwrap_or_default();
        assert!(on_disk == bytes, "{rel} is stale: run `cargo run -p tflc --example make_default_model`");
    }
}

#[test]
fn metadata_and_offline_memory_allocation_are_read() {
    let mut b = ModelBuilder::new();
    let x = b.activation("x", DType::I8, &[4], None);
    let y = b.activation("y", DType::I8, &[4], None);
    b.op(OpKind::Relu, &[Some(x)], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    // TFLite Micro's layout: [version, subgraphs, tensors, offset per tensor (-1: online)].
    let words: [i32; 5] = [1, 1, 2, 0, -1];
    b.metadata("OfflineMemoryAllocation", words.iter().flat_map(|w| w.to_le_bytes()).collect());
    b.metadata("min_runtime_version", b"1.5.0\0".to_vec());
    for placement in [BufferPlacement::Inline, BufferPlacement::Appended] {
        b.buffer_placement(placement);
        let bytes = b.finish();
        let m = read_model(&bytes).unwrap();
        let names: Vec<&str> = m.metadata.iter().map(|md| md.name.as_str()).collect();
        assert_eq!(names, ["OfflineMemoryAllocation", "min_runtime_version"]);
        assert_eq!(m.metadata[1].data, b"1.5.0\0");
        let oma = m.offline_memory_allocation.expect("parsed");
        assert_eq!((oma.version, oma.subgraphs, oma.offsets), (1, 1, vec![0, -1]));
    }
    // A table that declares more offsets than it holds is an error, not a panic.
    let mut b = ModelBuilder::new();
    b.metadata("OfflineMemoryAllocation", [1i32, 1, 5, 0].iter().flat_map(|w| w.to_le_bytes()).collect());
    expect_err(&b.finish(), "OfflineMemoryAllocation declares 5 tensors but holds 1 offsets");
}

#[test]
fn corpus_signature_defs_and_subgraphs() {
    let Some(shared) = testing::shared_dir_or_skip("corpus signature test") else { return };
    let mut with_signatures = 0;
    for path in testing::corpus_models(&shared) {
        let bytes = std::fs::read(&path).unwrap();
        let m = read_model(&bytes).unwrap();
        for sig in &m.signature_defs {
            let sg = &m.subgraphs[sig.subgraph];
            // Signature tensors are that subgraph's inputs and outputs.
            for (_, t) in &sig.inputs {
                assert!(sg.inputs.contains(t), "{}: signature input {t} is not a subgraph input", path.display());
            }
            with_signatures += 1;
        }
    }
    assert!(with_signatures > 0, "some corpus models carry signature defs");
}
