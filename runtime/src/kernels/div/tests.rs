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
