//! Nothing derived from a model may panic the compiler: random single-op models (every op
//! kind, random shapes, element types, quantization, options and constant operands) and
//! byte-level mutations of valid models go through the whole pipeline (`tflc::compile`:
//! read, plan, lower, emit), which must return `Ok` or an error, never panic.

mod common;

use std::time::Duration;
use tflc::ir::*;
use tflc::internal::tflite::builder::{ModelBuilder, TensorSpec};

fn kinds(u: &mut arbtest::arbitrary::Unstructured<'_>) -> arbtest::arbitrary::Result<OpKind> {
    let act = *u.choose(&[Activation::None, Activation::Relu, Activation::Relu6, Activation::ReluN1To1, Activation::Tanh])?;
    let pad = *u.choose(&[Padding::Same, Padding::Valid])?;
    let small = |u: &mut arbtest::arbitrary::Unstructured<'_>| u.int_in_range(-1..=4);
    Ok(match u.int_in_range(0..=58)? {
        0 => OpKind::Conv2d(Conv2dOptions { padding: pad, stride_w: small(u)?, stride_h: small(u)?, dilation_w: small(u)?, dilation_h: small(u)?, activation: act }),
        1 => OpKind::DepthwiseConv2d(DepthwiseConv2dOptions {
            padding: pad,
            stride_w: small(u)?,
            stride_h: small(u)?,
            depth_multiplier: small(u)?,
            dilation_w: small(u)?,
            dilation_h: small(u)?,
            activation: act,
        }),
        2 => OpKind::FullyConnected(FullyConnectedOptions { activation: act, keep_num_dims: u.arbitrary()?, ..Default::default() }),
        3 => OpKind::AveragePool2d(Pool2dOptions { padding: pad, stride_w: small(u)?, stride_h: small(u)?, filter_w: small(u)?, filter_h: small(u)?, activation: act }),
        4 => OpKind::MaxPool2d(Pool2dOptions { padding: pad, stride_w: small(u)?, stride_h: small(u)?, filter_w: small(u)?, filter_h: small(u)?, activation: act }),
        5 => OpKind::Add { activation: act },
        6 => OpKind::Sub { activation: act },
        7 => OpKind::Mul { activation: act },
        8 => OpKind::Softmax { beta: *u.choose(&[1.0, 0.5, 0.0, -1.0, f32::NAN])? },
        9 => OpKind::Logistic,
        10 => OpKind::Tanh,
        11 => OpKind::HardSwish,
        12 => OpKind::Relu,
        13 => OpKind::Relu6,
        14 => OpKind::ReluN1To1,
        15 => OpKind::LeakyRelu { alpha: *u.choose(&[0.1, -2.0, 0.0, f32::INFINITY])? },
        16 => OpKind::Prelu,
        17 => OpKind::Quantize,
        18 => OpKind::Dequantize,
        19 => OpKind::Pad,
        20 => OpKind::PadV2,
        21 => OpKind::Concatenation { axis: small(u)? - 2, activation: act },
        22 => OpKind::Mean { keep_dims: u.arbitrary()? },
        23 => OpKind::Transpose,
        24 => OpKind::StridedSlice(StridedSliceOptions {
            begin_mask: u.int_in_range(0..=15)?,
            end_mask: u.int_in_range(0..=15)?,
            ellipsis_mask: u.int_in_range(0..=1)?,
            new_axis_mask: u.int_in_range(0..=1)?,
            shrink_axis_mask: u.int_in_range(0..=15)?,
            offset: u.arbitrary()?,
        }),
        25 => OpKind::Slice,
        26 => OpKind::Split { num_splits: small(u)? },
        27 => OpKind::SplitV { num_splits: small(u)? },
        28 => OpKind::Pack { values_count: small(u)?, axis: small(u)? - 2 },
        29 => OpKind::Unpack { num: small(u)?, axis: small(u)? - 2 },
        30 => OpKind::ResizeNearestNeighbor(ResizeOptions { align_corners: u.arbitrary()?, half_pixel_centers: u.arbitrary()? }),
        31 => OpKind::ResizeBilinear(ResizeOptions { align_corners: u.arbitrary()?, half_pixel_centers: u.arbitrary()? }),
        32 => OpKind::Maximum,
        33 => OpKind::Minimum,
        34 => OpKind::Reshape { new_shape: if u.arbitrary()? { Some(vec![small(u)?, small(u)?]) } else { None } },
        35 => OpKind::Squeeze { squeeze_dims: vec![small(u)? - 2] },
        36 => OpKind::ExpandDims,
        37 => OpKind::Cast,
        38 => OpKind::Div { activation: act },
        39 => OpKind::Sum { keep_dims: u.arbitrary()? },
        // The elementwise math family.
        41 => OpKind::Abs,
        42 => OpKind::Neg,
        43 => OpKind::Ceil,
        44 => OpKind::Floor,
        45 => OpKind::Round,
        46 => OpKind::Sqrt,
        47 => OpKind::Rsqrt,
        48 => OpKind::Square,
        49 => OpKind::Log,
        50 => OpKind::Exp,
        51 => OpKind::Elu,
        52 => OpKind::SquaredDifference,
        53 => OpKind::FloorDiv,
        54 => OpKind::FloorMod,
        55 => OpKind::LogSoftmax,
        56 => OpKind::L2Normalization { activation: act },
        57 => OpKind::Sin,
        58 => OpKind::Cos,
        _ => OpKind::Gather { axis: small(u)?, batch_dims: 0 },
    })
}

/// Most tensors of a model share `common` (shape) and are int8 with a sane quantization, so
/// that a good share of the random models is coherent enough to get deep into lowering.
fn random_tensor(
    u: &mut arbtest::arbitrary::Unstructured<'_>,
    b: &mut ModelBuilder,
    name: &str,
    constant: bool,
    common: &[i32],
) -> arbtest::arbitrary::Result<TensorId> {
    let dtype = if u.int_in_range(0..=3)? > 0 {
        DType::I8
    } else {
        *u.choose(&[DType::I32, DType::F32, DType::I16, DType::U8, DType::Bool])?
    };
    let shape: Vec<i32> = if u.int_in_range(0..=3)? > 0 {
        common.to_vec()
    } else {
        let rank = u.int_in_range(0..=5)?;
        (0..rank).map(|_| u.int_in_range(0..=6)).collect::<Result<_, _>>()?
    };
    let n: usize = shape.iter().map(|&d| d as usize).product();
    let quant = match u.int_in_range(0..=5)? {
        3..=5 => Some(Quantization {
            scale: vec![*u.choose(&[0.02f32, 0.1, 0.0039])?],
            zero_point: vec![*u.choose(&[0i64, -128, 3])?],
            axis: None,
        }),
        0 => None,
        1 => {
            let k = u.int_in_range(1..=4)?;
            let axis = u.int_in_range(0..=3)?;
            Some(Quantization { scale: vec![0.05; k], zero_point: vec![0; k], axis: Some(axis) })
        }
        _ => Some(Quantization {
            scale: vec![*u.choose(&[0.02f32, 1.0, 1e-12, 0.0, -1.0, f32::NAN, 1e30])?],
            zero_point: vec![*u.choose(&[0i64, -128, 127, 5, 300, -100000])?],
            axis: None,
        }),
    };
    let data = if constant {
        let bytes = dtype.byte_size_of(n).unwrap_or(0);
        Some((0..bytes).map(|i| u.arbitrary::<u8>().unwrap_or(i as u8)).collect())
    } else {
        None
    };
    Ok(b.tensor(TensorSpec { name: name.into(), dtype, shape, shape_signature: None, quant, data, variable: false }))
}

#[test]
fn random_single_op_models_never_panic_the_compiler() {
    fn arity(k: &OpKind) -> usize {
        match k {
            OpKind::Conv2d(_) | OpKind::DepthwiseConv2d(_) | OpKind::FullyConnected(_) | OpKind::PadV2 | OpKind::Slice | OpKind::SplitV { .. } => 3,
            OpKind::StridedSlice(_) => 4,
            OpKind::Add { .. }
            | OpKind::Sub { .. }
            | OpKind::Mul { .. }
            | OpKind::Div { .. }
            | OpKind::Maximum
            | OpKind::Minimum
            | OpKind::Prelu
            | OpKind::Pad
            | OpKind::Concatenation { .. }
            | OpKind::Mean { .. }
            | OpKind::Sum { .. }
            | OpKind::Transpose
            | OpKind::Split { .. }
            | OpKind::Pack { .. }
            | OpKind::ResizeNearestNeighbor(_)
            | OpKind::ResizeBilinear(_)
            | OpKind::Gather { .. }
            | OpKind::ExpandDims => 2,
            _ => 1,
        }
    }
    let mut ran = 0u64;
    let mut compiled = 0u64;
    common::fuzz(Duration::from_secs(3), 20_000, |u| {
        let mut b = ModelBuilder::new();
        let kind = kinds(u)?;
        let rank = u.int_in_range(1..=4)?;
        let common: Vec<i32> = (0..rank).map(|_| u.int_in_range(1..=5)).collect::<Result<_, _>>()?;
        let n_in = if u.int_in_range(0..=3)? > 0 { arity(&kind) } else { u.int_in_range(0..=4)? };
        let mut inputs = Vec::new();
        let mut graph_inputs = Vec::new();
        for i in 0..n_in {
            if u.int_in_range(0..=9)? == 0 {
                inputs.push(None);
                continue;
            }
            let constant = i > 0 && u.arbitrary()?;
            let t = random_tensor(u, &mut b, &format!("in{i}"), constant, &common)?;
            if !constant {
                graph_inputs.push(t);
            }
            inputs.push(Some(t));
        }
        let n_out = u.int_in_range(1..=3)?;
        let mut outputs = Vec::new();
        for i in 0..n_out {
            outputs.push(random_tensor(u, &mut b, &format!("out{i}"), false, &common)?);
        }
        b.op(kind, &inputs, &outputs);
        b.inputs(&graph_inputs).outputs(&outputs);
        let bytes = b.finish();
        ran += 1;
        if tflc::compile(&bytes, &tflc::CompileOptions::default()).is_ok() {
            compiled += 1;
        }
        Ok(())
    });
    eprintln!("{ran} random single-op models, {compiled} compiled");
    assert!(ran > 50, "only {ran} random models ran");
}

#[test]
fn mutated_models_never_panic_the_compiler() {
    let seeds: Vec<Vec<u8>> = tflc::internal::testing::models::fuzz_seeds().into_iter().map(|(_, b)| b).collect();
    common::fuzz(Duration::from_secs(2), 20_000, |u| {
        let mut bytes = u.choose(&seeds)?.clone();
        for _ in 0..u.int_in_range(1..=4)? {
            let pos = u.choose_index(bytes.len())?;
            bytes[pos] = u.arbitrary()?;
        }
        let _ = tflc::compile(&bytes, &tflc::CompileOptions::default());
        Ok(())
    });
}

/// The structural cases of issue 17, built by the model builder (a wide fan-out, a long chain,
/// a random DAG, a 2 GiB arena, a constant output, a CONV_2D without options), whole and
/// mutated, through read + inspect, plan + verify and compile
/// (`tflc::internal::fuzzing::models::check_pipeline`).
#[test]
fn structural_cases_and_their_mutants_never_panic_the_pipeline() {
    use tflc::internal::testing::models::stress;
    let q = Some((0.05, -3));
    let mut constant_out = ModelBuilder::new();
    let x = constant_out.activation("x", DType::I8, &[1, 4], q);
    let y = constant_out.activation("y", DType::I8, &[1, 4], q);
    constant_out.op(OpKind::Relu, &[Some(x)], &[y]);
    let c = constant_out.constant_i8("c", &[1, 4], &[1, 2, 3, 4], q);
    constant_out.inputs(&[x]).outputs(&[y, c]);
    let mut no_options = ModelBuilder::new();
    let x = no_options.activation("x", DType::I8, &[1, 4, 4, 1], q);
    let w = no_options.constant_i8("w", &[1, 1, 1, 1], &[3], Some((0.01, 0)));
    let y = no_options.activation("y", DType::I8, &[1, 4, 4, 1], q);
    no_options.op_spec(tflc::internal::tflite::builder::OpSpecCode::RawBuiltin(3), &[Some(x), Some(w), None], &[y]);
    no_options.inputs(&[x]).outputs(&[y]);
    let seeds: Vec<Vec<u8>> = vec![
        stress::relu_fan_out(120),
        stress::relu_chain(300),
        stress::random_dag(200, 5),
        stress::relu_of_shape(&[16384, 65536]),
        constant_out.finish(),
        no_options.finish(),
        tflc::internal::testing::models::sparse_weights(),
        tflc::internal::testing::models::custom_ops(),
    ];
    let opts = tflc::CompileOptions::default();
    for s in &seeds {
        if let Err(e) = tflc::internal::fuzzing::models::check_pipeline(s, &opts) {
            panic!("{e}");
        }
    }
    let ran = common::fuzz(Duration::from_secs(2), 20_000, |u| {
        let seed = u.choose(&seeds)?;
        let other = u.choose(&seeds)?;
        let bytes = tflc::internal::fuzzing::models::mutate(seed, other, 4, u)?;
        if let Err(e) = tflc::internal::fuzzing::models::check_pipeline(&bytes, &opts) {
            panic!("{e}");
        }
        Ok(())
    });
    eprintln!("{ran} structural mutants");
}

/// The structure-aware mutator (`models::mutate_fields`: shapes, element types, quantization,
/// builtin options, operator tensors, opcodes, subgraph references, sparsity metadata, custom
/// options, buffer data, written back as valid flatbuffers) over the builder seeds (a sparse
/// model and a custom-op model among them): 400 mutants, deterministic, through read +
/// inspect, plan + verify and compile. Most of them must get past the reader, or the mutator
/// has fallen back to damaging bytes.
#[test]
fn structure_aware_mutants_never_panic_the_pipeline() {
    use tflc::internal::fuzzing::models::{check_pipeline, mutate_fields, round_trip};
    let seeds: Vec<(&str, Vec<u8>)> = tflc::internal::testing::models::fuzz_seeds();
    assert!(seeds.iter().any(|s| s.0.contains("sparse")) && seeds.iter().any(|s| s.0.contains("custom")));
    let opts = tflc::CompileOptions::default();
    for (name, s) in &seeds {
        let again = round_trip(s).unwrap_or_else(|| panic!("{name}: the seed does not decode"));
        assert_eq!(check_pipeline(s, &opts), check_pipeline(&again, &opts), "{name}: the round trip changes how far it gets");
    }
    let (mut tried, mut read, mut planned, mut compiled) = (0, 0, 0, 0);
    for case in 0..400u64 {
        let mut rng = tflc::internal::testing::Rng(case.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x2828);
        let noise: Vec<u8> = (0..256).map(|_| rng.next_u64() as u8).collect();
        let mut u = arbtest::arbitrary::Unstructured::new(&noise);
        let (name, seed) = &seeds[case as usize % seeds.len()];
        let Ok(Some(bytes)) = mutate_fields(seed, 3, &mut u) else { panic!("{name}: no mutant") };
        tried += 1;
        match check_pipeline(&bytes, &opts) {
            Ok(r) => {
                read += r.read as u32;
                planned += r.planned as u32;
                compiled += r.compiled as u32;
            }
            Err(e) => panic!("case {case} ({name}): {e}"),
        }
    }
    eprintln!("{tried} structure-aware mutants: {read} read, {planned} planned, {compiled} compiled");
    assert!(read * 10 >= tried * 4 && compiled * 10 >= tried, "{read} read, {compiled} compiled of {tried}");
}
