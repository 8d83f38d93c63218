//! Tests of the 16x8 / int16 kernels (`conv_2d_s16`, `depthwise_conv_2d_s16`,
//! `fully_connected_s16`, `average_pool_2d_s16`) against naive implementations that pad
//! the image explicitly and accumulate in i128, over random shapes, strides, dilations,
//! paddings, multipliers and clamps. Bit-exactness with TFLite Micro is checked on golden
//! data (op_conformance, `armzoo_ds_cnn_s_int16`) and on single-op vectors in the
//! compiler (`lower::ops::tests_16x8`). `softmax_s16` depends on compile-time tables and
//! is tested there.

use super::average_pool_2d::{average_pool_2d_s16, AveragePool2dParams};
use super::conv_2d::{conv_2d_s16, Conv2dParams};
use super::depthwise_conv_2d::{depthwise_conv_2d_s16, DepthwiseConv2dParams};
use super::fully_connected::{fully_connected_s16, FullyConnectedGeometry, FullyConnectedParams};
use super::numerics::{Clamp, QuantS16};
use super::window::{ConvGeometry, PoolGeometry};
use super::test_util::{multipliers, Rng};
use crate::quant::multiply_by_quantized_multiplier_i64;
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

fn i16s(rng: &mut Rng, n: usize) -> Vec<i16> {
    (0..n)
        .map(|_| match rng.next_u64() % 8 {
            0 => i16::MIN,
            1 => i16::MAX,
            _ => rng.next_u64() as i16,
        })
        .collect()
}

fn i64s(rng: &mut Rng, n: usize) -> Vec<i64> {
    (0..n).map(|_| rng.range(-(1 << 36), 1 << 36)).collect()
}

fn clamp16(rng: &mut Rng) -> (i32, i32) {
    if rng.next_u64().is_multiple_of(2) {
        (-32768, 32767)
    } else {
        let a = rng.range(-32768, 32767) as i32;
        let b = rng.range(-32768, 32767) as i32;
        (a.min(b), a.max(b))
    }
}

fn requant(acc: i128, m: &[i32], s: &[i32], c: usize, lo: i32, hi: i32) -> i16 {
    let q = if m.len() == 1 { 0 } else { c };
    let acc = i64::try_from(acc).expect("test accumulators fit i64");
    multiply_by_quantized_multiplier_i64(acc, m[q], s[q]).clamp(lo, hi) as i16
}

/// Zero-padded NHWC image: `pad = [top, bottom, left, right]`.
fn padded(x: &[i16], [n, h, w, c]: [usize; 4], pad: [usize; 4]) -> (Vec<i16>, usize, usize) {
    let (ph, pw) = (h + pad[0] + pad[1], w + pad[2] + pad[3]);
    let mut out = vec![0i16; n * ph * pw * c];
    for b in 0..n {
        for y in 0..h {
            for xx in 0..w {
                for ch in 0..c {
                    out[((b * ph + y + pad[0]) * pw + xx + pad[2]) * c + ch] = x[((b * h + y) * w + xx) * c + ch];
                }
            }
        }
    }
    (out, ph, pw)
}

fn out_size(total: usize, k: usize, stride: usize, dil: usize) -> usize {
    let eff = (k - 1) * dil + 1;
    if total < eff {
        0
    } else {
        (total - eff) / stride + 1
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn conv_2d_s16_matches_naive(
        batches in 1usize..3, h in 1usize..8, w in 1usize..8, in_d in 1usize..5, out_d in 1usize..5,
        kh in 1usize..4, kw in 1usize..4, sh in 1usize..3, sw in 1usize..3, dh in 1usize..3, dw in 1usize..3,
        pad in [0usize..3, 0usize..3, 0usize..3, 0usize..3], with_bias in any::<bool>(), seed in any::<u64>(),
    ) {
        let mut rng = Rng(seed);
        let (xp, ph, pw) = {
            let x = i16s(&mut rng, batches * h * w * in_d);
            let (xp, ph, pw) = padded(&x, [batches, h, w, in_d], pad);
            ((x, xp), ph, pw)
        };
        let (x, xp) = xp;
        let (oh, ow) = (out_size(ph, kh, sh, dh), out_size(pw, kw, sw, dw));
        let filter = rng.i8s(out_d * kh * kw * in_d);
        let bias = i64s(&mut rng, out_d);
        let (m, s) = multipliers(&mut rng, out_d, -24, 0);
        let (lo, hi) = clamp16(&mut rng);
        let p = Conv2dParams { geometry: ConvGeometry { input_shape: [batches, h, w, in_d], filter_shape: [out_d, kh, kw, in_d], output_shape: [batches, oh, ow, out_d], stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw, pad_top: pad[0], pad_left: pad[2] }, quant: QuantS16 { output_multiplier: &m, output_shift: &s }, clamp: Clamp { min: (lo) as i16, max: (hi) as i16 } };
        let mut got = vec![0x5555i16; batches * oh * ow * out_d];
        conv_2d_s16(&p, &x, &filter, with_bias.then_some(&bias[..]), &mut got);
        let mut want = vec![0i16; got.len()];
        for b in 0..batches { for oy in 0..oh { for ox in 0..ow { for oc in 0..out_d {
            let mut acc: i128 = if with_bias { bias[oc] as i128 } else { 0 };
            for ky in 0..kh { for kx in 0..kw { for ic in 0..in_d {
                let xv = xp[((b * ph + oy * sh + ky * dh) * pw + ox * sw + kx * dw) * in_d + ic] as i128;
                acc += xv * filter[((oc * kh + ky) * kw + kx) * in_d + ic] as i128;
            }}}
            want[((b * oh + oy) * ow + ox) * out_d + oc] = requant(acc, &m, &s, oc, lo, hi);
        }}}}
        prop_assert_eq!(got, want);
    }

    #[test]
    fn depthwise_conv_2d_s16_matches_naive(
        h in 1usize..8, w in 1usize..8, in_d in 1usize..4, mult in 1usize..3,
        kh in 1usize..4, kw in 1usize..4, sh in 1usize..3, sw in 1usize..3, dh in 1usize..3, dw in 1usize..3,
        pad in [0usize..3, 0usize..3, 0usize..3, 0usize..3], with_bias in any::<bool>(), seed in any::<u64>(),
    ) {
        let mut rng = Rng(seed);
        let out_d = in_d * mult;
        let x = i16s(&mut rng, h * w * in_d);
        let (xp, ph, pw) = padded(&x, [1, h, w, in_d], pad);
        let (oh, ow) = (out_size(ph, kh, sh, dh), out_size(pw, kw, sw, dw));
        let filter = rng.i8s(kh * kw * out_d);
        let bias = i64s(&mut rng, out_d);
        let (m, s) = multipliers(&mut rng, out_d, -20, 0);
        let (lo, hi) = clamp16(&mut rng);
        let p = DepthwiseConv2dParams { geometry: ConvGeometry { input_shape: [1, h, w, in_d], filter_shape: [1, kh, kw, out_d], output_shape: [1, oh, ow, out_d], stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw, pad_top: pad[0], pad_left: pad[2] }, quant: QuantS16 { output_multiplier: &m, output_shift: &s }, clamp: Clamp { min: (lo) as i16, max: (hi) as i16 } };
        let mut got = vec![0x5555i16; oh * ow * out_d];
        depthwise_conv_2d_s16(&p, &x, &filter, with_bias.then_some(&bias[..]), &mut got);
        let mut want = vec![0i16; got.len()];
        for oy in 0..oh { for ox in 0..ow { for oc in 0..out_d {
            let ic = oc / mult;
            let mut acc: i128 = if with_bias { bias[oc] as i128 } else { 0 };
            for ky in 0..kh { for kx in 0..kw {
                let xv = xp[((oy * sh + ky * dh) * pw + ox * sw + kx * dw) * in_d + ic] as i128;
                acc += xv * filter[(ky * kw + kx) * out_d + oc] as i128;
            }}
            want[(oy * ow + ox) * out_d + oc] = requant(acc, &m, &s, oc, lo, hi);
        }}}
        prop_assert_eq!(got, want);
    }

    #[test]
    fn fully_connected_s16_matches_naive(
        batches in 1usize..4, depth in 1usize..40, units in 1usize..8, filter_zp in -3i32..4,
        with_bias in any::<bool>(), seed in any::<u64>(),
    ) {
        let mut rng = Rng(seed);
        let x = i16s(&mut rng, batches * depth);
        let filter = rng.i8s(units * depth);
        let bias = i64s(&mut rng, units);
        let (m, s) = multipliers(&mut rng, units, -24, 0);
        let filter_offset = if m.len() == 1 { -filter_zp } else { 0 };
        let (lo, hi) = clamp16(&mut rng);
        let p = FullyConnectedParams { geometry: FullyConnectedGeometry { batches, input_depth: depth, output_depth: units }, weights_offset: filter_offset, quant: QuantS16 { output_multiplier: &m, output_shift: &s }, clamp: Clamp { min: (lo) as i16, max: (hi) as i16 } };
        let mut got = vec![0x5555i16; batches * units];
        fully_connected_s16(&p, &x, &filter, with_bias.then_some(&bias[..]), &mut got);
        let mut want = vec![0i16; got.len()];
        for b in 0..batches { for u in 0..units {
            let mut acc: i128 = if with_bias { bias[u] as i128 } else { 0 };
            for d in 0..depth {
                acc += (filter[u * depth + d] as i128 + filter_offset as i128) * x[b * depth + d] as i128;
            }
            want[b * units + u] = requant(acc, &m, &s, u, lo, hi);
        }}
        prop_assert_eq!(got, want);
    }

    #[test]
    fn average_pool_2d_s16_matches_naive(
        h in 1usize..9, w in 1usize..9, depth in 1usize..5, fh in 1usize..5, fw in 1usize..5,
        sh in 1usize..3, sw in 1usize..3, pt in 0usize..2, pl in 0usize..2, seed in any::<u64>(),
    ) {
        // SAME-like: the padding before is below the window, so every window overlaps.
        prop_assume!(pt < fh && pl < fw);
        let mut rng = Rng(seed);
        let x = i16s(&mut rng, h * w * depth);
        let oh = (h + pt - 1) / sh + 1;
        let ow = (w + pl - 1) / sw + 1;
        let (lo, hi) = clamp16(&mut rng);
        let p = AveragePool2dParams { geometry: PoolGeometry { input_shape: [1, h, w, depth], output_height: oh, output_width: ow, filter_height: fh, filter_width: fw, stride_height: sh, stride_width: sw, pad_top: pt, pad_left: pl }, clamp: Clamp { min: (lo) as i16, max: (hi) as i16 } };
        let mut got = vec![0x5555i16; oh * ow * depth];
        average_pool_2d_s16(&p, &x, &mut got);
        let mut want = vec![0i16; got.len()];
        for oy in 0..oh { for ox in 0..ow { for c in 0..depth {
            let (mut sum, mut count) = (0i64, 0i64);
            for ky in 0..fh { for kx in 0..fw {
                let (iy, ix) = ((oy * sh + ky) as i64 - pt as i64, (ox * sw + kx) as i64 - pl as i64);
                if iy >= 0 && ix >= 0 && (iy as usize) < h && (ix as usize) < w {
                    sum += x[(iy as usize * w + ix as usize) * depth + c] as i64;
                    count += 1;
                }
            }}
            prop_assume!(count > 0);
            // Round half away from zero.
            let avg = (2 * sum.abs() + count) / (2 * count) * sum.signum();
            want[(oy * ow + ox) * depth + c] = avg.clamp(lo as i64, hi as i64) as i16;
        }}}
        prop_assert_eq!(got, want);
    }
}

#[test]
fn lut_lookup_interpolates_and_wraps_like_cpp() {
    use crate::quant::lut_lookup_i16;
    // A linear table: lut[i] = 64 * i - 16384; lookups interpolate exactly.
    let lut: Vec<i16> = (0..513).map(|i| (64 * i - 16384) as i16).collect();
    // value = -32768 -> index 0, offset 0.
    assert_eq!(lut_lookup_i16(-32768, &lut), -16384);
    // value = 0 -> index 256; value 64 -> offset 64: base 0 + (64*64 + 64) >> 7 = 32.
    assert_eq!(lut_lookup_i16(0, &lut), 0);
    assert_eq!(lut_lookup_i16(64, &lut), 32);
    // value = 32767 -> index 511, offset 127: 16320 + (64*127 + 64) >> 7 = 16320 + 64.
    assert_eq!(lut_lookup_i16(32767, &lut), 16384);
    // A slope beyond int16 wraps when narrowed (C++ `int16_t slope = a - b`).
    let mut steep = vec![0i16; 513];
    steep[256] = -30000;
    steep[257] = 30000; // 60000 - wraps to -5536 as int16
    let want = (-30000i32 + ((-5536 * 100 + 64) >> 7)) as i16;
    assert_eq!(lut_lookup_i16(100, &steep), want);
}
