//! The 16x8 elementwise ops (int16 activations): ADD, SUB and MUL on single-op models,
//! broadcasting, different scales, fused activations, full-range inputs, against TFLite
//! Micro's outputs (`TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc --lib tests_16x8_elementwise`,
//! then `tools/op_test_vectors.py <dir> s16e_`), and the configurations TFLite Micro
//! refuses.

use super::test_helpers::*;
use super::TensorData;
use crate::ir::*;
use crate::tflite::builder::ModelBuilder;

/// Deterministic int16 values over the full range.
fn i16s(seed: u64, n: usize) -> Vec<i16> {
    let a = i8s(seed, 2 * n);
    a.chunks(2).map(|c| i16::from_le_bytes([c[0] as u8, c[1] as u8])).collect()
}

/// A two-input int16 op, quantized `(scale, zero point)` per operand.
fn model(kind: OpKind, a: (&[usize], (f32, i64)), b: (&[usize], (f32, i64)), out: (&[usize], (f32, i64))) -> (Vec<u8>, [TensorId; 3]) {
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I16, a.0, Some(a.1));
    let y = m.activation("y", DType::I16, b.0, Some(b.1));
    let z = m.activation("z", DType::I16, out.0, Some(out.1));
    m.op(kind, &[Some(x), Some(y)], &[z]);
    m.inputs(&[x, y]).outputs(&[z]);
    (m.finish(), [x, y, z])
}

/// Runs op 0 and compares the int16 output with TFLite Micro's.
fn check(name: &str, kind: OpKind, a: (&[usize], (f32, i64)), b: (&[usize], (f32, i64)), out: (&[usize], (f32, i64)), want: &[i16]) {
    let (bytes, [x, y, z]) = model(kind, a, b, out);
    let av = i16s(name.len() as u64 * 31 + 1, a.0.iter().product());
    let bv = i16s(name.len() as u64 * 37 + 2, b.0.iter().product());
    let s = run_op0(name, &bytes, &[(x, TensorData::I16(av)), (y, TensorData::I16(bv))]);
    if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
        return;
    }
    assert_eq!(s.i16(z).unwrap(), want, "{name}: differs from TFLite Micro");
}

#[test]
fn add_matches_tflite_micro() {
    let act = |a| OpKind::Add { activation: a };
    check("s16e_add", act(Activation::None), (&[2, 3, 4], (0.0007, 0)), (&[4], (0.0003, 0)), (&[2, 3, 4], (0.0009, 0)), ADD);
    check("s16e_add_relu", act(Activation::Relu), (&[1, 8], (0.0002, 0)), (&[3, 1], (0.0005, 0)), (&[3, 8], (0.0004, 0)), ADD_RELU);
}

#[test]
fn sub_matches_tflite_micro() {
    let act = |a| OpKind::Sub { activation: a };
    check("s16e_sub", act(Activation::None), (&[2, 3, 4], (0.0007, 0)), (&[1, 3, 1], (0.0011, 0)), (&[2, 3, 4], (0.0013, 0)), SUB);
    check("s16e_sub_relu6", act(Activation::Relu6), (&[12], (0.0004, 0)), (&[12], (0.0004, 0)), (&[12], (0.0003, 0)), SUB_RELU6);
}

#[test]
fn mul_matches_tflite_micro() {
    let act = |a| OpKind::Mul { activation: a };
    check("s16e_mul", act(Activation::None), (&[2, 3, 4], (0.0007, 0)), (&[4], (0.0003, 0)), (&[2, 3, 4], (0.01, 0)), MUL);
    check("s16e_mul_n1", act(Activation::ReluN1To1), (&[5, 2], (0.0001, 0)), (&[], (0.0002, 0)), (&[5, 2], (0.00005, 0)), MUL_N1);
}

/// int16 RELU (requantizing) and RELU6 (input and output quantized alike).
#[test]
fn relu_matches_tflite_micro() {
    for (name, kind, qo, want) in [
        ("s16e_relu", OpKind::Relu, 0.0003f32, RELU),
        ("s16e_relu6", OpKind::Relu6, 0.0005, RELU6),
    ] {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I16, &[64], Some((0.0005, 0)));
        let y = m.activation("y", DType::I16, &[64], Some((qo, 0)));
        m.op(kind.clone(), &[Some(x)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let bytes = m.finish();
        let s = run_op0(name, &bytes, &[(x, TensorData::I16(i16s(90, 64)))]);
        if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
            continue;
        }
        assert_eq!(s.i16(y).unwrap(), want, "{name}: differs from TFLite Micro");
        #[cfg(feature = "format")]
        assert!(emit_op0(&bytes).contains("relu_s16"));
    }
    // RELU6 with another output quantization, RELU_N1_TO_1: refused.
    for (kind, qo) in [(OpKind::Relu6, 0.0003f32), (OpKind::ReluN1To1, 0.0005)] {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I16, &[4], Some((0.0005, 0)));
        let y = m.activation("y", DType::I16, &[4], Some((qo, 0)));
        m.op(kind, &[Some(x)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        expect_unsupported(&m.finish());
    }
}

#[test]
fn emitted_calls() {
    #[cfg(feature = "format")]
    for (kind, f) in [(OpKind::Add { activation: Activation::None }, "add_s16"), (OpKind::Sub { activation: Activation::None }, "sub_s16"), (OpKind::Mul { activation: Activation::None }, "mul_s16")] {
        let (bytes, _) = model(kind, (&[4], (0.001, 0)), (&[4], (0.002, 0)), (&[4], (0.003, 0)));
        let text = emit_op0(&bytes);
        assert!(text.contains(f), "{text}");
    }
}

#[test]
fn refused_as_tflite_micro_refuses() {
    // MUL needs every int16 zero point 0.
    let (bytes, _) = model(OpKind::Mul { activation: Activation::None }, (&[4], (0.001, 3)), (&[4], (0.002, 0)), (&[4], (0.003, 0)));
    expect_unsupported(&bytes);
    // Mixed int16 / int8 operands.
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[4], Some((0.1, 0)));
    let y = m.activation("y", DType::I16, &[4], Some((0.1, 0)));
    let z = m.activation("z", DType::I16, &[4], Some((0.1, 0)));
    m.op(OpKind::Add { activation: Activation::None }, &[Some(x), Some(y)], &[z]);
    m.inputs(&[x, y]).outputs(&[z]);
    expect_unsupported(&m.finish());
    // Unquantized int16.
    let mut m = ModelBuilder::new();
    let x = m.activation("x", DType::I16, &[4], None);
    let z = m.activation("z", DType::I16, &[4], Some((0.1, 0)));
    m.op(OpKind::Sub { activation: Activation::None }, &[Some(x), Some(x)], &[z]);
    m.inputs(&[x]).outputs(&[z]);
    expect_unsupported(&m.finish());
}

const ADD: &[i16] = &[
    15360, 1317, -25039, -5964, -4106, -8427, -3081, -18356, 9223, -9799, 3431, -8352, 13135, 326,
    -10588, 19467, -9373, -28524, -29499, 7145, -2973, -21456, -11179, -6761,
];
const ADD_RELU: &[i16] = &[
    20747, 29949, 32767, 32767, 32767, 26120, 32767, 32767, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 509, 0,
    0, 0, 0, 0,
];
const SUB: &[i16] = &[
    6713, 1307, -13532, -7448, 9060, 10384, 17494, -203, 30786, 21932, 32767, 19220, 5172, 621,
    -3527, 10158, 5414, -3529, -795, 17451, 22342, 13862, 24385, 20322,
];
const SUB_RELU6: &[i16] = &[
    0, 0, 4801, 0, 13648, 0, 10949, 6323, 0, 0, 12960, 20000,
];
const MUL: &[i16] = &[
    1391, -2577, 12158, -176, -523, 1386, -5527, -521, 787, 1943, -10771, -242, 1172, -2174, 519,
    533, -1041, 9557, 15750, 189, -412, 6683, 995, -198,
];
const MUL_N1: &[i16] = &[
    -20000, -20000, -16288, -20000, 20000, -4900, 20000, 20000, -20000, -20000,
];
const RELU: &[i16] = &[
    0, 0, 0, 0, 6345, 0, 4608, 0, 6443, 3673, 0, 0, 0, 2442, 0, 27580, 22553, 32767, 15452, 0, 0,
    0, 280, 24527, 0, 32767, 8573, 32767, 11390, 32767, 8078, 0, 0, 32767, 28032, 0, 32767, 0,
    3538, 29290, 0, 16662, 31153, 0, 0, 32767, 5765, 0, 0, 32767, 30335, 0, 10747, 32767, 32767,
    11443, 0, 32767, 2728, 0, 0, 31262, 0, 0,
];
const RELU6: &[i16] = &[
    0, 0, 0, 0, 3807, 0, 2765, 0, 3866, 2204, 0, 0, 0, 1465, 0, 12000, 12000, 12000, 9271, 0, 0, 0,
    168, 12000, 0, 12000, 5144, 12000, 6834, 12000, 4847, 0, 0, 12000, 12000, 0, 12000, 0, 2123,
    12000, 0, 9997, 12000, 0, 0, 12000, 3459, 0, 0, 12000, 12000, 0, 6448, 12000, 12000, 6866, 0,
    12000, 1637, 0, 0, 12000, 0, 0,
];

/// 16x8 PRELU: int16 input and output, int8 alpha (a constant per channel, and an
/// activation of the input's shape), unequal scales and non-zero alpha zero points, against
/// TFLite Micro's `kTfLiteInt16` case.
#[test]
fn prelu_matches_tflite_micro() {
    for (name, alpha_const, want) in [("s16e_prelu_channel", true, PRELU_CHANNEL), ("s16e_prelu_full", false, PRELU_FULL)] {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I16, &[1, 3, 4, 5], Some((0.00031, 0)));
        let (a, inputs) = if alpha_const {
            (m.constant_i8("alpha", &[1, 1, 5], &[-100, 0, 37, 127, -128], Some((0.0041, 12))), vec![x])
        } else {
            let a = m.activation("alpha", DType::I8, &[1, 3, 4, 5], Some((0.011, -3)));
            (a, vec![x, a])
        };
        let z = m.activation("z", DType::I16, &[1, 3, 4, 5], Some((0.00027, 0)));
        m.op(OpKind::Prelu, &[Some(x), Some(a)], &[z]);
        m.inputs(&inputs).outputs(&[z]);
        let bytes = m.finish();
        let mut data = vec![(x, TensorData::I16(i16s(91, 60)))];
        if !alpha_const {
            data.push((a, TensorData::I8(i8s(92, 60))));
        }
        let s = run_op0(name, &bytes, &data);
        if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
            continue;
        }
        assert_eq!(s.i16(z).unwrap(), want, "{name}: differs from TFLite Micro");
    }
}

const PRELU_CHANNEL: &[i16] = &[
    19699, 939, -121, 26213, 28659, 30732, 644, -3047, 32767, 32767, 11874, 1151, 1604, -9792,
    16277, 10747, 98, 10595, 13547, 8975, 29757, 32767, 1494, -5299, 2621, 32767, 473, 28882, 5318,
    7739, 15772, 1730, 19129, 26308, 9285, 1196, 24631, 16203, 6608, 9070, 26699, 1361, -541, 17052,
    32767, 14745, 6986, 31588, 11423, 18747, 2026, 21010, -2989, 26120, 2117, 5893, 32767, -77,
    -5940, 18597,
];
const PRELU_FULL: &[i16] = &[
    19699, 10912, -712, 26213, 28659, 30732, -9640, -26155, 32767, 32767, -19341, 26244, 1604,
    -15306, 16277, -772, 567, 10595, 13547, -10148, 29757, 32767, 1494, 4698, 5877, 32767, -3597,
    28882, 5318, 3115, 15772, 1934, 19129, 26308, 7651, -659, 24631, 16203, 6608, 19468, 26699,
    -32768, -5926, 17052, 32767, 14745, 6986, 31588, 11423, 4670, 1504, 21010, -32768, 26120, 2117,
    5893, 32767, -956, 4711, 18597,
];
