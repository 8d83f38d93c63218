use super::*;
use crate::kernels::nd::Broadcast;
use crate::kernels::test_util::check_output;
use std::vec::Vec;

fn params<T>(lo: T, hi: T, shape: &'static [usize], s1: &'static [usize], s2: &'static [usize]) -> PlainBinaryParams<'static, T> {
    PlainBinaryParams { activation_min: lo, activation_max: hi, broadcast: Broadcast { out_shape: shape, in1_strides: s1, in2_strides: s2 } }
}

#[test]
fn int32_truncates_toward_zero_and_broadcasts() {
    let a: Vec<i32> = std::vec![7, -7, 7, -7, i32::MIN, i32::MIN, 5, 0];
    let b: Vec<i32> = std::vec![2, 2, -2, -2, -1, 1, 0, 0];
    let mut out = std::vec![0; 8];
    div_i32(&params(i32::MIN, i32::MAX, &[8], &[1], &[1]), &a, &b, &mut out);
    // The naive definition in i64 (truncating), with the Cortex-M SDIV cases.
    let want: Vec<i32> = a.iter().zip(&b).map(|(&x, &y)| if y == 0 { 0 } else { ((x as i64) / (y as i64)) as i32 }).collect();
    let mut want_sdiv = want.clone();
    want_sdiv[4] = i32::MIN;
    check_output(&out, &want_sdiv, Some(&[3, -3, -3, 3, i32::MIN, i32::MIN, 0, 0])).unwrap();
    // A scalar divisor broadcast over a [2, 3] tensor, clamped as RELU6 does.
    let a: Vec<i32> = std::vec![-30, 0, 9, 12, 40, 100];
    let mut out = std::vec![0; 6];
    div_i32(&params(0, 6, &[2, 3], &[3, 1], &[0, 0]), &a, &[3], &mut out);
    check_output(&out, &[0, 0, 3, 4, 6, 6], None).unwrap();
}

#[test]
fn float32_is_ieee_division() {
    let a = [1.0f32, -1.0, 0.0, 3.0];
    let b = [3.0f32, 0.0, 0.0, -4.0];
    let mut out = [0f32; 4];
    div_f32(&params(f32::MIN, f32::MAX, &[4], &[1], &[1]), &a, &b, &mut out);
    assert_eq!(out[0].to_bits(), (1.0f32 / 3.0).to_bits());
    assert_eq!(out[1], f32::MIN);
    assert!(out[2].is_nan());
    assert_eq!(out[3], -0.75);
}

/// float32 DIV (IEEE division), through the unquantized binary suite: every broadcasting
/// pattern and fused activation, in place against out of place.
#[derive(Clone, Debug)]
struct DivF32;

impl crate::kernels::test_util::PlainBinaryOp for DivF32 {
    type T = f32;
    const REFERENCE: crate::kernels::test_util::PlainKernel<f32> = (div_f32, div_f32_in_place);
    fn apply(a: f32, b: f32) -> f32 {
        a / b
    }
}

/// int32 DIV (truncating, Cortex-M `SDIV` where C is undefined).
#[derive(Clone, Debug)]
struct DivI32;

impl crate::kernels::test_util::PlainBinaryOp for DivI32 {
    type T = i32;
    const REFERENCE: crate::kernels::test_util::PlainKernel<i32> = (div_i32, div_i32_in_place);
    fn apply(a: i32, b: i32) -> i32 {
        div_i32_elem(a, b)
    }
}

crate::kernels::test_util::kernel_tests!(impl_f32, crate::kernels::test_util::Plain<DivF32>, (div_f32, div_f32_in_place));
crate::kernels::test_util::kernel_tests!(impl_i32, crate::kernels::test_util::Plain<DivI32>, (div_i32, div_i32_in_place));

/// TFLite Micro's `DivElementwise` built for a Cortex-M4 (`tools/div_s8_arm_vectors.sh`):
/// `(input1_offset, input2_offset, output_offset, multiplier, shift, min, max)` and the
/// FNV-1a-32 of its outputs over every int8 pair (input1 `i >> 8`, input2 `i & 255`). Every
/// case but `relu` has pairs whose shift C leaves undefined (its x86 build then differs).
type ArmCase = ((i32, i32, i32, i32, i32, i32, i32), u32);
const ARM_CASES: [ArmCase; 5] = [
    ((-3, 7, -2, 1677721600, 5, -128, 127), 0x6c11_6a0c),
    ((0, 0, 0, 1073741824, 1, -128, 127), 0x5e2e_6264),
    ((20, -9, 5, 1511828488, 9, 5, 127), 0x42df_7bc0),
    ((128, -127, -128, 2147483647, 0, -128, 127), 0x9216_ae9b),
    ((1, -1, 0, 1431655765, -3, -128, 127), 0x5587_2784),
];

#[test]
fn int8_matches_tflite_micro_on_a_cortex_m4_for_every_pair() {
    for ((input1_offset, input2_offset, output_offset, output_multiplier, output_shift, activation_min, activation_max), want) in ARM_CASES {
        let p = DivS8Params {
            input1_offset,
            input2_offset,
            output_offset,
            output_multiplier,
            output_shift,
            activation_min,
            activation_max,
            broadcast: crate::kernels::nd::Broadcast { out_shape: &[], in1_strides: &[], in2_strides: &[] },
        };
        assert_eq!(div_s8_defined(&p), Ok(()));
        let mut h: u32 = 2_166_136_261;
        for i in 0..65536u32 {
            let o = div_s8_elem(&p, (i >> 8) as u8 as i8, i as u8 as i8);
            h = (h ^ o as u8 as u32).wrapping_mul(16_777_619);
        }
        assert_eq!(h, want, "{p:?}");
    }
}

/// A shift large enough to make the final exponent negative is refused.
#[test]
fn int8_negative_exponents_are_refused() {
    let p = DivS8Params {
        input1_offset: 0,
        input2_offset: 0,
        output_offset: 0,
        output_multiplier: 1 << 30,
        output_shift: 30,
        activation_min: -128,
        activation_max: 127,
        broadcast: crate::kernels::nd::Broadcast { out_shape: &[], in1_strides: &[], in2_strides: &[] },
    };
    assert!(div_s8_defined(&p).is_err());
}

/// In place equals out of place, with a broadcast divisor.
#[test]
fn int8_in_place_matches() {
    let plan = crate::kernels::nd::plan_broadcast(&[4, 64], &[64]).unwrap();
    let q = |scale, zero_point| crate::quant::QuantParams { scale, zero_point };
    let p = prepare_div_s8(q(0.05, 3), q(0.02, -7), q(0.02, -2), (-128, 127), plan.as_broadcast()).unwrap();
    let a: Vec<i8> = (0..256).map(|i| (i * 37 % 256) as u8 as i8).collect();
    let b: Vec<i8> = (0..64).map(|i| (i * 11 % 256) as u8 as i8).collect();
    let mut out = std::vec![0i8; 256];
    div_s8(&p, &a, &b, &mut out);
    let mut inout = a.clone();
    div_s8_in_place(&p, &mut inout, &b);
    assert_eq!(inout, out);
}
