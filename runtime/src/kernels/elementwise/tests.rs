//! The elementwise math kernels against independent oracles: the host's C library (std's
//! `f32` functions) for the float unaries, real-number results for the quantized kernels,
//! the naive definitions for the binaries.

use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::Rng;
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

fn ulps(a: f32, b: f32) -> u64 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
}

/// Floats from every binade, both signs, and the specials.
fn float_inputs(rng: &mut Rng, n: usize) -> Vec<f32> {
    let mut v: Vec<f32> = (0..n).map(|_| f32::from_bits(rng.next_u64() as u32)).collect();
    v.extend([0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 1e-45, f32::MAX]);
    v.extend((0..n).map(|_| (rng.range(-4000, 4000) as f32) / 8.0));
    v
}

/// A float kernel, its in-place form, and an element function.
type Apart = fn(&[f32], &mut [f32]);
type InPlace = fn(&mut [f32]);
type Elem = fn(f32) -> f32;

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// The error bound of quantized SQUARED_DIFFERENCE: each scaled input is in units of
/// `u = 2 max_scale / 2^left_shift` and rounds twice (the doubling high multiply, then the
/// rounding shift: up to one unit), so the difference is off by up to `e = 2u` and its
/// square by `2 |d| e + e^2`, plus one output step for the requantization. (With int16's
/// left shift 0 the units are coarse: s = 0.109 and 0.118, |d| = 159 was 91 steps off.)
fn tol(real_diff: f64, max_scale: f32, out_scale: f32, left_shift: i32) -> i32 {
    let e = 2.0 * (2.0 * max_scale as f64 / (1 << left_shift) as f64);
    ((2.0 * real_diff.abs() * e + e * e) / out_scale as f64).ceil() as i32 + 1
}

proptest! {
    /// Bit-exact with the host's C library (IEEE operations) for the exact ops, the naive
    /// definition for ROUND, both forms (apart and in place).
    #[test]
    fn exact_float_unaries(seed: u64) {
        let x = float_inputs(&mut Rng(seed), 300);
        let cases: [(Apart, InPlace, Elem); 8] = [
            (abs_f32, abs_f32_in_place, |v| v.abs()),
            (neg_f32, neg_f32_in_place, |v| -v),
            (ceil_f32_op, ceil_f32_op_in_place, |v| v.ceil()),
            (floor_f32_op, floor_f32_op_in_place, |v| v.floor()),
            // TFLite's `floor + 1` makes the zero of -0.5 < x < 0 positive.
            (round_f32, round_f32_in_place, |v| if v != 0.0 && v.round_ties_even() == 0.0 { 0.0 } else { v.round_ties_even() }),
            (sqrt_f32, sqrt_f32_in_place, |v| v.sqrt()),
            (rsqrt_f32, rsqrt_f32_in_place, |v| 1.0 / v.sqrt()),
            (square_f32, square_f32_in_place, |v| v * v),
        ];
        for (i, (f, g, oracle)) in cases.iter().enumerate() {
            let mut y = vec![0.0; x.len()];
            f(&x, &mut y);
            let mut z = x.clone();
            g(&mut z);
            for k in 0..x.len() {
                prop_assert!(same(y[k], oracle(x[k])), "op {i}: f({:e}) = {:e}, want {:e}", x[k], y[k], oracle(x[k]));
                prop_assert!(same(y[k], z[k]), "op {i}: in place differs at {k}");
            }
        }
    }

    /// Within one ulp of the host's libm (glibc `expf`, `logf`, `sinf`, `cosf`, `expm1f`, which
    /// TFLite calls).
    #[test]
    fn transcendental_float_unaries(seed: u64) {
        let x = float_inputs(&mut Rng(seed), 300);
        let cases: [(Apart, Elem); 5] = [
            (exp_f32, |v| v.exp()),
            (log_f32, |v| v.ln()),
            (sin_f32, |v| v.sin()),
            (cos_f32, |v| v.cos()),
            (elu_f32, |v| if v < 0.0 { v.exp_m1() } else { v }),
        ];
        for (i, (f, oracle)) in cases.iter().enumerate() {
            let mut y = vec![0.0; x.len()];
            f(&x, &mut y);
            for k in 0..x.len() {
                let want = oracle(x[k]);
                prop_assert!(same(y[k], want) || (y[k].is_finite() && ulps(y[k], want) <= 1), "op {i}: f({:e}) = {:e}, want {:e}", x[k], y[k], want);
            }
        }
    }

    /// int8 / int16 ABS: the real |x| rescaled, within one step (the multiplier rounds);
    /// exact without a rescale. Both forms agree.
    #[test]
    fn quantized_abs(in_scale in 1e-3f32..1.0, ratio in prop::sample::select(vec![1.0f32, 0.3, 0.7, 2.0, 5.5]), zi in -128i32..=127, zo in -128i32..=127) {
        let out_scale = in_scale * ratio;
        let p = prepare_abs(in_scale, zi, out_scale, zo).unwrap();
        let x: Vec<i8> = (-128..=127).collect();
        let mut y = vec![0i8; 256];
        abs_s8(&p, &x, &mut y);
        let mut z = x.clone();
        abs_s8_in_place(&p, &mut z);
        prop_assert_eq!(&y, &z);
        for (k, &v) in x.iter().enumerate() {
            let real = ((v as i32 - zi).abs() as f64) * in_scale as f64 / out_scale as f64 + zo as f64;
            let want = real.round().clamp(-128.0, 127.0) as i32;
            let tol = if ratio == 1.0 { 0 } else { 1 };
            prop_assert!((y[k] as i32 - want).abs() <= tol, "{} -> {} want {}", v, y[k], want);
        }
        let p16 = prepare_abs(in_scale, 0, out_scale, 0).unwrap();
        let x16: Vec<i16> = vec![-32768, -32767, -1000, -1, 0, 1, 77, 32767];
        let mut y16 = vec![0i16; x16.len()];
        abs_s16(&p16, &x16, &mut y16);
        for (k, &v) in x16.iter().enumerate() {
            let want = ((v as f64).abs() * in_scale as f64 / out_scale as f64).round().clamp(-32768.0, 32767.0) as i32;
            prop_assert!((y16[k] as i32 - want).abs() <= 1, "{} -> {} want {}", v, y16[k], want);
        }
    }

    /// int8 RSQRT: 1 / sqrt of the real input, requantized, within one step for positive
    /// inputs; the maximum at the zero point.
    #[test]
    fn quantized_rsqrt(in_scale in 1e-3f32..0.5, out_scale in 1e-2f32..1.0, zi in -128i32..=100, zo in -128i32..=127) {
        let p = prepare_rsqrt(in_scale, zi, out_scale, zo).unwrap();
        let x: Vec<i8> = (zi..=127).map(|v| v as i8).collect();
        let mut y = vec![0i8; x.len()];
        rsqrt_s8(&p, &x, &mut y);
        let mut z = x.clone();
        rsqrt_s8_in_place(&p, &mut z);
        prop_assert_eq!(&y, &z);
        prop_assert_eq!(y[0], 127);
        for (k, &v) in x.iter().enumerate().skip(1) {
            let real = 1.0 / (((v as i32 - zi) as f64) * in_scale as f64).sqrt() / out_scale as f64 + zo as f64;
            let want = real.round().clamp(-128.0, 127.0) as i32;
            prop_assert!((y[k] as i32 - want).abs() <= 1, "{} -> {} want {} ({})", v, y[k], want, real);
        }
    }

    /// int16 RSQRT (zero points 0): 1 / sqrt of the real input, requantized, within one step
    /// plus the rounding of the kernel's `2^20 / sqrt(value)` intermediate (relative
    /// `sqrt(value) / 2^21`); the maximum at 0; in place the same.
    #[test]
    fn quantized_rsqrt_s16(in_scale in 1e-5f32..0.05, out_scale in 1e-5f32..0.01, seed: u64) {
        let p = prepare_rsqrt(in_scale, 0, out_scale, 0).unwrap();
        let mut rng = Rng(seed);
        let x: Vec<i16> = [0, 1, 2, 32767].into_iter().chain((0..64).map(|_| rng.range(0, 32767) as i16)).collect();
        let mut y = vec![0i16; x.len()];
        rsqrt_s16(&p, &x, &mut y);
        let mut z = x.clone();
        rsqrt_s16_in_place(&p, &mut z);
        prop_assert_eq!(&y, &z);
        prop_assert_eq!(y[0], 32767);
        for (k, &v) in x.iter().enumerate().skip(1) {
            let real = 1.0 / ((v as f64) * in_scale as f64).sqrt() / out_scale as f64;
            let want = real.round().clamp(-32768.0, 32767.0);
            let tol = 1.0 + real.min(32767.0) * (v as f64).sqrt() / 2f64.powi(21);
            prop_assert!((y[k] as f64 - want).abs() <= tol, "{} -> {} want {} ({})", v, y[k], want, real);
        }
    }

    /// SQUARED_DIFFERENCE int8 and int16 within one step of the real result, with
    /// broadcasting; float32 and int32 exactly the naive definition.
    #[test]
    fn squared_difference(seed: u64, s1 in 1e-3f32..0.2, s2 in 1e-3f32..0.2, so in 1e-3f32..2.0, z1 in -128i32..=127, z2 in -128i32..=127, zo in -128i32..=127) {
        let mut rng = Rng(seed);
        let (sh1, sh2) = ([2usize, 3, 4], [3usize, 1]);
        let plan = plan_broadcast(&sh1, &sh2).unwrap();
        let b = plan.as_broadcast();
        let a: Vec<i8> = (0..24).map(|_| rng.range(-128, 127) as i8).collect();
        let c: Vec<i8> = (0..3).map(|_| rng.range(-128, 127) as i8).collect();
        let p = prepare_squared_difference((s1, z1), (s2, z2), (so, zo), false, b).unwrap();
        let mut y = vec![0i8; 24];
        squared_difference_s8(&p, &a, &c, &mut y);
        for i in 0..24 {
            let (ra, rc) = ((a[i] as i32 - z1) as f64 * s1 as f64, (c[(i / 4) % 3] as i32 - z2) as f64 * s2 as f64);
            let want = (((ra - rc) * (ra - rc)) / so as f64 + zo as f64).round().clamp(-128.0, 127.0) as i32;
            prop_assert!((y[i] as i32 - want).abs() <= tol(ra - rc, s1.max(s2), so, 7), "{i}: {} want {}", y[i], want);
        }
        let a16: Vec<i16> = (0..24).map(|_| rng.range(-3000, 3000) as i16).collect();
        let c16: Vec<i16> = (0..3).map(|_| rng.range(-3000, 3000) as i16).collect();
        let p16 = prepare_squared_difference((s1, 0), (s2, 0), (so * 1000.0, 0), true, b).unwrap();
        let mut y16 = vec![0i16; 24];
        squared_difference_s16(&p16, &a16, &c16, &mut y16);
        for i in 0..24 {
            let (ra, rc) = (a16[i] as f64 * s1 as f64, c16[(i / 4) % 3] as f64 * s2 as f64);
            let want = (((ra - rc) * (ra - rc)) / (so as f64 * 1000.0)).round().clamp(-32768.0, 32767.0) as i32;
            prop_assert!((y16[i] as i32 - want).abs() <= tol(ra - rc, s1.max(s2), so * 1000.0, 0), "{i}: {} want {}", y16[i], want);
        }
        let af: Vec<f32> = a.iter().map(|&v| v as f32 * 0.37).collect();
        let cf: Vec<f32> = c.iter().map(|&v| v as f32 * -1.3).collect();
        let mut yf = vec![0.0f32; 24];
        squared_difference_f32(&b, &af, &cf, &mut yf);
        let mut zf = af.clone();
        squared_difference_f32_in_place(&b, &mut zf, &cf);
        let ai: Vec<i32> = a.iter().map(|&v| v as i32 * 1_000_003).collect();
        let ci: Vec<i32> = c.iter().map(|&v| v as i32 * 7).collect();
        let mut yi = vec![0i32; 24];
        squared_difference_i32(&b, &ai, &ci, &mut yi);
        for i in 0..24 {
            let d = af[i] - cf[(i / 4) % 3];
            prop_assert_eq!(yf[i].to_bits(), (d * d).to_bits());
            prop_assert_eq!(zf[i].to_bits(), (d * d).to_bits());
            let di = ai[i].wrapping_sub(ci[(i / 4) % 3]);
            prop_assert_eq!(yi[i], di.wrapping_mul(di));
        }
    }

    /// FLOOR_DIV is the host's `floor(x / y)`; FLOOR_MOD's result has the divisor's sign
    /// (or is zero), is smaller than the divisor, and differs from x by a multiple of it.
    #[test]
    fn floor_div_and_mod(seed: u64) {
        let mut rng = Rng(seed);
        let x: Vec<f32> = (0..64).map(|_| rng.range(-100_000, 100_000) as f32 / 64.0).collect();
        let y: Vec<f32> = (0..64).map(|_| { let v = rng.range(-2000, 2000) as f32 / 16.0; if v == 0.0 { 0.5 } else { v } }).collect();
        let plan = plan_broadcast(&[64], &[64]).unwrap();
        let b = plan.as_broadcast();
        let (mut d, mut m) = (vec![0.0f32; 64], vec![0.0f32; 64]);
        floor_div_f32(&b, &x, &y, &mut d);
        floor_mod_f32(&b, &x, &y, &mut m);
        for i in 0..64 {
            prop_assert_eq!(d[i].to_bits(), (x[i] / y[i]).floor().to_bits());
            let r = m[i] as f64;
            prop_assert!(r == 0.0 || (r < 0.0) == (y[i] < 0.0), "{} mod {} = {}", x[i], y[i], r);
            prop_assert!(r.abs() < (y[i] as f64).abs());
            let q = (x[i] as f64 - r) / y[i] as f64;
            prop_assert!((q - q.round()).abs() < 1e-6, "{} mod {} = {}", x[i], y[i], r);
        }
    }
}

/// `GetInvSqrtQuantizedMultiplierExp`: `multiplier * 2^shift / 2^31` is `1 / sqrt(input)`
/// within 1e-5 relative (five Newton steps from 1), across the input range.
#[test]
fn inv_sqrt_multiplier_is_accurate() {
    let mut rng = Rng(7);
    for input in (2..300).chain((0..2000).map(|_| rng.range(2, i32::MAX as i64) as i32)) {
        let (m, s) = get_inv_sqrt_quantized_multiplier_exp(input, -1);
        let got = m as f64 * 2f64.powi(s) / 2f64.powi(31);
        let want = 1.0 / (input as f64).sqrt();
        assert!(((got - want) / want).abs() < 1e-5, "{input}: {got} vs {want} ({m}, {s})");
    }
    assert_eq!(get_inv_sqrt_quantized_multiplier_exp(1, -1), (i32::MAX, 0));
    assert_eq!(get_inv_sqrt_quantized_multiplier_exp(0, -1), (i32::MAX, 0));
}

/// The lookup kernel reads entry `x as u8`.
#[test]
fn lut_reads_by_byte() {
    let table: Vec<i8> = (0..=255u8).map(|b| b.wrapping_mul(3) as i8).collect();
    let x: Vec<i8> = (-128..=127).collect();
    let mut y = vec![0i8; 256];
    lut_s8(&table, &x, &mut y);
    let mut z = x.clone();
    lut_s8_in_place(&table, &mut z);
    for k in 0..256 {
        assert_eq!(y[k], (x[k] as u8).wrapping_mul(3) as i8);
    }
    assert_eq!(y, z);
}

/// ABS int16 without quantization wraps at -32768 as C's narrowing does.
#[test]
fn unquantized_abs_i16() {
    let x = [-32768i16, -32767, -1, 0, 5, 32767];
    let mut y = [0i16; 6];
    abs_i16(&x, &mut y);
    assert_eq!(y, [-32768, 32767, 1, 0, 5, 32767]);
    let mut z = x;
    abs_i16_in_place(&mut z);
    assert_eq!(y, z);
}

proptest! {
    /// L2_NORMALIZATION: float32 is the naive row loop in TFLite's order bit for bit; int8
    /// is the real `x / |x|` in units of 1/128 within one step (the inverse square root is
    /// five Newton steps), clamped to 127.
    #[test]
    fn l2_normalization(seed: u64, depth in 1usize..40, rows in 0usize..4, zp in -128i32..=127) {
        let mut rng = Rng(seed);
        let p = L2NormalizationParams { depth, input_zero_point: zp };
        let x: Vec<i8> = (0..depth * rows).map(|_| rng.range(-128, 127) as i8).collect();
        let mut y = vec![0i8; x.len()];
        l2_normalization_s8(&p, &x, &mut y);
        let xf: Vec<f32> = x.iter().map(|&v| v as f32 * 0.013).collect();
        let mut yf = vec![0.0f32; x.len()];
        l2_normalization_f32(&p, &xf, &mut yf);
        for r in 0..rows {
            let row = &x[r * depth..(r + 1) * depth];
            let norm = row.iter().map(|&v| ((v as i32 - zp) as f64).powi(2)).sum::<f64>().sqrt();
            let mut sq = 0.0f32;
            for &v in &xf[r * depth..(r + 1) * depth] {
                sq += v * v;
            }
            let n = sq.sqrt().max(1e-6);
            for c in 0..depth {
                let k = r * depth + c;
                prop_assert_eq!(yf[k].to_bits(), (xf[k] / n).to_bits());
                let d = (x[k] as i32 - zp) as f64;
                let want = if norm == 0.0 { 0.0 } else { (128.0 * d / norm).round().clamp(-128.0, 127.0) };
                prop_assert!((y[k] as f64 - want).abs() <= 1.0, "{}: {} want {}", k, y[k], want);
            }
        }
    }
}

/// LOG_SOFTMAX float32: the real `x - log(sum(exp(x)))` within 1e-5 per row.
#[test]
fn log_softmax_rows() {
    let mut rng = Rng(5);
    let depth = 17;
    let x: Vec<f32> = (0..depth * 3).map(|_| rng.range(-4000, 4000) as f32 / 300.0).collect();
    let mut y = vec![0.0f32; x.len()];
    log_softmax_f32(&LogSoftmaxParams { depth }, &x, &mut y);
    for r in 0..3 {
        let row = &x[r * depth..(r + 1) * depth];
        let lse = row.iter().map(|&v| (v as f64).exp()).sum::<f64>().ln();
        for c in 0..depth {
            let want = row[c] as f64 - lse;
            assert!((y[r * depth + c] as f64 - want).abs() < 1e-5, "{r} {c}: {} vs {want}", y[r * depth + c]);
        }
    }
}

/// LOG_SOFTMAX int8: the real log-softmax of the dequantized row, quantized to scale 16/256
/// and zero point 127, within one step (the fixed-point `exp` and `log` are approximations;
/// TFLite Micro vectors check the bits, in the compiler's tests), at input scales from
/// 0.005 to 40 (where the multiplier is capped), rows of 1 to 40 elements, random and
/// constant rows and -128 beside 127.
#[test]
fn log_softmax_s8_near_the_real_value() {
    let mut rng = Rng(9);
    for &scale in &[0.005f32, 0.03, 0.1, 0.4, 1.0, 3.0, 16.0, 40.0] {
        for &depth in &[1usize, 2, 7, 16, 40] {
            let p = prepare_log_softmax_s8(scale, depth).unwrap();
            let mut x: Vec<i8> = (0..depth * 4).map(|_| rng.range(-128, 128) as i8).collect();
            x[depth..2 * depth].fill(-7);
            for (k, v) in x[2 * depth..3 * depth].iter_mut().enumerate() {
                *v = if k % 2 == 0 { -128 } else { 127 };
            }
            let mut y = vec![0i8; x.len()];
            log_softmax_s8(&p, &x, &mut y);
            for (r, (row, out)) in x.chunks(depth).zip(y.chunks(depth)).enumerate() {
                let max = *row.iter().max().unwrap() as f64;
                let lse = row.iter().map(|&v| ((v as f64 - max) * scale as f64).exp()).sum::<f64>().ln();
                for (c, (&v, &o)) in row.iter().zip(out).enumerate() {
                    let want = ((((v as f64 - max) * scale as f64 - lse) / 0.0625).round() + 127.0).clamp(-128.0, 127.0);
                    assert!((o as f64 - want).abs() <= 1.0, "scale {scale} depth {depth} row {r} col {c}: {o} want {want}");
                }
            }
        }
    }
    // The parameters are TFLite's: scale 40 caps the multiplier at 2^31 - 1 (an effective
    // scale of 32, every difference still far below the cut-off).
    let p = prepare_log_softmax_s8(40.0, 4).unwrap();
    assert_eq!((p.input_multiplier, p.input_left_shift), (i32::MAX, 31));
}

proptest! {
    /// The broadcasting binaries of the family in place (output over operand 1, operand 2
    /// broadcasting) give the out-of-place bytes in every element type, on every
    /// broadcasting pattern: SQUARED_DIFFERENCE float32 / int32 / int8 / int16, FLOOR_DIV and
    /// FLOOR_MOD float32.
    #[test]
    fn binaries_in_place_match((s1, s2) in crate::kernels::test_util::broadcast_shapes(), seed: u64, s in 0.001f32..0.1, z in -20i32..20) {
        use crate::kernels::test_util::{binary_in_place_matches, random_i16s, special_f32s};
        const NO_BROADCAST: Broadcast<'static> = Broadcast { out_shape: &[], in1_strides: &[], in2_strides: &[] };
        let mut rng = Rng(seed);
        let (n1, n2) = (s1.iter().product(), s2.iter().product());
        let fail = proptest::test_runner::TestCaseError::fail;
        let (x, y) = (special_f32s(&mut rng, n1), special_f32s(&mut rng, n2));
        binary_in_place_matches((&s1, &x), (&s2, &y), squared_difference_f32, squared_difference_f32_in_place).map_err(fail)?;
        binary_in_place_matches((&s1, &x), (&s2, &y), floor_div_f32, floor_div_f32_in_place).map_err(fail)?;
        binary_in_place_matches((&s1, &x), (&s2, &y), floor_mod_f32, floor_mod_f32_in_place).map_err(fail)?;
        let (x, y): (Vec<i32>, Vec<i32>) = ((0..n1).map(|_| rng.next_u64() as i32).collect(), (0..n2).map(|_| rng.next_u64() as i32).collect());
        binary_in_place_matches((&s1, &x), (&s2, &y), squared_difference_i32, squared_difference_i32_in_place).map_err(fail)?;
        let (x, y) = (rng.i8s(n1), rng.i8s(n2));
        let p8 = prepare_squared_difference((s, z), (s * 1.7, -z), (s * 0.3, z / 2), false, NO_BROADCAST).unwrap();
        binary_in_place_matches(
            (&s1, &x),
            (&s2, &y),
            |b, x, y, o| squared_difference_s8(&SquaredDifferenceParams { broadcast: *b, ..p8 }, x, y, o),
            |b, x, y| squared_difference_s8_in_place(&SquaredDifferenceParams { broadcast: *b, ..p8 }, x, y),
        )
        .map_err(fail)?;
        let (x, y) = (random_i16s(&mut rng, n1), random_i16s(&mut rng, n2));
        let p16 = prepare_squared_difference((s, 0), (s * 1.7, 0), (s * 30.0, 0), true, NO_BROADCAST).unwrap();
        binary_in_place_matches(
            (&s1, &x),
            (&s2, &y),
            |b, x, y, o| squared_difference_s16(&SquaredDifferenceParams { broadcast: *b, ..p16 }, x, y, o),
            |b, x, y| squared_difference_s16_in_place(&SquaredDifferenceParams { broadcast: *b, ..p16 }, x, y),
        )
        .map_err(fail)?;
    }
}
