use super::*;
use crate::kernels::test_util::check_output;
use std::vec::Vec;

/// The naive definition through i64 / f64 (exact for every value here): truncation modulo
/// 2^n for integers, round-to-nearest for integer to float.
#[test]
fn integer_pairs_truncate_and_sign_extend() {
    let xs: Vec<i32> = std::vec![0, 1, -1, 127, 128, -129, 32767, 32768, -32769, i32::MIN, i32::MAX, 0x1234_5678];
    let mut y8 = std::vec![0i8; xs.len()];
    cast(&xs, &mut y8);
    let want: Vec<i8> = xs.iter().map(|&x| (x as i64).rem_euclid(256) as u8 as i8).collect();
    check_output(&y8, &want, Some(&[0, 1, -1, 127, -128, 127, -1, 0, -1, 0, -1, 0x78])).unwrap();
    let mut yu = std::vec![0u32; xs.len()];
    cast(&xs, &mut yu);
    let want: Vec<u32> = xs.iter().map(|&x| (x as i64).rem_euclid(1 << 32) as u32).collect();
    check_output(&yu, &want, None).unwrap();
    let us: Vec<u32> = std::vec![0, 1, 0x8000_0000, u32::MAX, 0x7fff_ffff];
    let mut yi = std::vec![0i32; us.len()];
    cast(&us, &mut yi);
    check_output(&yi, &[0, 1, i32::MIN, -1, i32::MAX], None).unwrap();
    let s: Vec<i16> = std::vec![-32768, -1, 0, 32767];
    let mut y = std::vec![0i32; 4];
    cast(&s, &mut y);
    check_output(&y, &[-32768, -1, 0, 32767], None).unwrap();
}

#[test]
fn floats_round_to_nearest_and_truncate_toward_zero() {
    let xs: Vec<i32> = std::vec![16_777_217, -16_777_219, 3, i32::MAX];
    let mut y = std::vec![0f32; 4];
    cast(&xs, &mut y);
    let want: Vec<f32> = xs.iter().map(|&x| x as f64 as f32).collect();
    check_output(&y, &want, Some(&[16_777_216.0, -16_777_220.0, 3.0, 2_147_483_648.0])).unwrap();
    let fs: Vec<f32> = std::vec![1.9, -1.9, 0.5, -0.0, 126.99];
    let mut yi = std::vec![0i8; fs.len()];
    cast(&fs, &mut yi);
    check_output(&yi, &[1, -1, 0, 0, 126], None).unwrap();
}
