//! TRANSPOSE_CONV tests: one [`KernelCase`] over the three numerics (random geometry and
//! quantization; fixed edge cases), whose oracle is TFLite's own definition, the scatter:
//! every input element added into an output-sized accumulator buffer (int8: i64 wrapped to
//! int32 as TFLite's int32 buffer wraps; 16x8: i64; float32: f32 in TFLite's loop order),
//! then bias, requantization and clamp. The kernel under test gathers instead.

use super::{ConvGeometry, TransposeConvParams};
use crate::kernels::numerics::{Clamp, QuantS16, QuantS8, F32, S16, S8};
use crate::kernels::test_util::{kernel_tests, multipliers, KernelCase, Rng, LANE_TAILS};
use crate::prepare::{compute_padding, Padding};
use crate::quant::{multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_i64};
use proptest::prelude::*;
use std::string::String;
use std::vec;
use std::vec::Vec;

type Kernels = (
    fn(&TransposeConvParams<S8>, &[i8], &[i8], Option<&[i32]>, &mut [i8]),
    fn(&TransposeConvParams<S16>, &[i16], &[i8], Option<&[i64]>, &mut [i16]),
    fn(&TransposeConvParams<F32>, &[f32], &[f32], Option<&[f32]>, &mut [f32]),
);

#[derive(Clone, Debug, PartialEq)]
enum Data {
    S8 { input: Vec<i8>, filter: Vec<i8>, bias: Option<Vec<i32>>, input_offset: i32, output_offset: i32, mult: Vec<i32>, shift: Vec<i32>, clamp: Clamp<i8> },
    S16 { input: Vec<i16>, filter: Vec<i8>, bias: Option<Vec<i64>>, mult: Vec<i32>, shift: Vec<i32>, clamp: Clamp<i16> },
    F32 { input: Vec<f32>, filter: Vec<f32>, bias: Option<Vec<f32>>, clamp: Clamp<f32> },
}

#[derive(Clone, Debug, PartialEq)]
enum Out {
    S8(Vec<i8>),
    S16(Vec<i16>),
    F32(Vec<u32>),
}

#[derive(Clone, Debug)]
struct Case {
    g: ConvGeometry,
    data: Data,
    /// False when TFLite's padding computation fails for the geometry.
    ok: bool,
}

/// The geometry of an output `[n, oh, ow, oc]` from `[n, ih, iw, ic]` with `f` and strides,
/// padding from the output size as TFLite Micro computes it.
fn geometry(input: [usize; 4], f: [usize; 2], out: [usize; 3], stride: [usize; 2], same: bool) -> (ConvGeometry, bool) {
    let padding = if same { Padding::Same } else { Padding::Valid };
    let ph = compute_padding(padding, out[0], f[0], stride[0], 1);
    let pw = compute_padding(padding, out[1], f[1], stride[1], 1);
    let g = ConvGeometry {
        input_shape: input,
        filter_shape: [out[2], f[0], f[1], input[3]],
        output_shape: [input[0], out[0], out[1], out[2]],
        stride_height: stride[0],
        stride_width: stride[1],
        dilation_height: 1,
        dilation_width: 1,
        pad_top: ph.map_or(0, |p| p.1),
        pad_left: pw.map_or(0, |p| p.1),
    };
    (g, ph.is_some() && pw.is_some())
}

fn i16s(rng: &mut Rng, n: usize) -> Vec<i16> {
    (0..n)
        .map(|_| match rng.below(8) {
            0 => i16::MIN,
            1 => i16::MAX,
            _ => rng.next_u64() as i16,
        })
        .collect()
}

fn f32s(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n).map(|_| (rng.range(-1000, 1000) as f32) / 97.0).collect()
}

fn data(rng: &mut Rng, g: &ConvGeometry, scheme: u8, with_bias: bool) -> Data {
    let n_in: usize = g.input_shape.iter().product();
    let n_f: usize = g.filter_shape.iter().product();
    let oc = g.filter_shape[0];
    match scheme {
        0 => {
            let (mult, shift) = multipliers(rng, oc, -12, 1);
            let (a, b) = rng.activation_range();
            Data::S8 {
                input: rng.i8s(n_in),
                filter: rng.i8s(n_f),
                bias: with_bias.then(|| rng.i32s(oc, -70_000, 70_000)),
                input_offset: rng.range(-127, 128) as i32,
                output_offset: rng.range(-128, 127) as i32,
                mult,
                shift,
                clamp: Clamp { min: a as i8, max: b as i8 },
            }
        }
        1 => {
            let (mult, shift) = multipliers(rng, oc, -20, 1);
            Data::S16 {
                input: i16s(rng, n_in),
                filter: rng.i8s(n_f),
                bias: with_bias.then(|| (0..oc).map(|_| rng.range(-(1 << 40), 1 << 40)).collect()),
                mult,
                shift,
                clamp: if rng.below(2) == 0 { Clamp { min: i16::MIN, max: i16::MAX } } else { Clamp { min: -1000, max: 20000 } },
            }
        }
        _ => Data::F32 {
            input: f32s(rng, n_in),
            filter: f32s(rng, n_f),
            bias: with_bias.then(|| f32s(rng, oc)),
            clamp: if rng.below(2) == 0 { Clamp { min: f32::MIN, max: f32::MAX } } else { Clamp { min: 0.0, max: 6.0 } },
        },
    }
}

/// TFLite's scatter: for every input element and tap, the output it lands on.
fn scatter(g: &ConvGeometry, mut f: impl FnMut(usize, usize, usize)) {
    let [n, ih, iw, ic] = g.input_shape;
    let [oc, fh, fw, _] = g.filter_shape;
    let [_, oh, ow, _] = g.output_shape;
    for b in 0..n {
        for iy in 0..ih {
            for ix in 0..iw {
                for c in 0..ic {
                    let ox0 = (ix * g.stride_width) as isize - g.pad_left as isize;
                    let oy0 = (iy * g.stride_height) as isize - g.pad_top as isize;
                    for ky in 0..fh {
                        for kx in 0..fw {
                            for o in 0..oc {
                                let (y, x) = (oy0 + ky as isize, ox0 + kx as isize);
                                if y >= 0 && x >= 0 && (y as usize) < oh && (x as usize) < ow {
                                    let out = ((b * oh + y as usize) * ow + x as usize) * oc + o;
                                    let inp = ((b * ih + iy) * iw + ix) * ic + c;
                                    let w = ((o * fh + ky) * fw + kx) * ic + c;
                                    f(out, inp, w);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn pick(v: &[i32], c: usize) -> i32 {
    if v.len() == 1 {
        v[0]
    } else {
        v[c]
    }
}

fn oracle(g: &ConvGeometry, d: &Data) -> Out {
    let len: usize = g.output_shape.iter().product();
    let oc = g.filter_shape[0];
    match d {
        Data::S8 { input, filter, bias, input_offset, output_offset, mult, shift, clamp } => {
            let mut acc = vec![0i64; len];
            scatter(g, |o, i, w| acc[o] += (input[i] as i64 + *input_offset as i64) * filter[w] as i64);
            Out::S8(
                acc.iter()
                    .enumerate()
                    .map(|(o, &a)| {
                        let c = o % oc;
                        let a = (a as i32).wrapping_add(bias.as_ref().map_or(0, |b| b[c]));
                        let v = multiply_by_quantized_multiplier(a, pick(mult, c), pick(shift, c)) + output_offset;
                        v.clamp(clamp.min as i32, clamp.max as i32) as i8
                    })
                    .collect(),
            )
        }
        Data::S16 { input, filter, bias, mult, shift, clamp } => {
            let mut acc = vec![0i64; len];
            scatter(g, |o, i, w| acc[o] += input[i] as i64 * filter[w] as i64);
            Out::S16(
                acc.iter()
                    .enumerate()
                    .map(|(o, &a)| {
                        let c = o % oc;
                        let a = a + bias.as_ref().map_or(0, |b| b[c]);
                        let v = multiply_by_quantized_multiplier_i64(a, pick(mult, c), pick(shift, c));
                        v.clamp(clamp.min as i32, clamp.max as i32) as i16
                    })
                    .collect(),
            )
        }
        Data::F32 { input, filter, bias, clamp } => {
            let mut acc = vec![0.0f32; len];
            scatter(g, |o, i, w| acc[o] += input[i] * filter[w]);
            Out::F32(
                acc.iter()
                    .enumerate()
                    .map(|(o, &a)| {
                        let a = match bias {
                            Some(b) => a + b[o % oc],
                            None => a,
                        };
                        a.max(clamp.min).min(clamp.max).to_bits()
                    })
                    .collect(),
            )
        }
    }
}

impl KernelCase for Case {
    type Kernel = Kernels;
    type Output = Out;
    const REFERENCE: Kernels = (super::scalar::transpose_conv::<S8>, super::scalar::transpose_conv::<S16>, super::scalar::transpose_conv::<F32>);

    fn strategy() -> BoxedStrategy<Self> {
        (
            (1usize..=2, 1usize..=4, 1usize..=4, 1usize..=6),
            (1usize..=4, 1usize..=4, 1usize..=6),
            (1usize..=3, 1usize..=3, any::<bool>()),
            (0u8..3, any::<bool>(), any::<u64>()),
            (0usize..=2, 0usize..=2),
        )
            .prop_map(|((n, ih, iw, ic), (fh, fw, oc), (sh, sw, same), (scheme, with_bias, seed), (ey, ex))| {
                // The usual output size, (in - 1) * stride + filter, give or take `e`.
                let oh = ((ih - 1) * sh + fh + ey).saturating_sub(1).max(1);
                let ow = ((iw - 1) * sw + fw + ex).saturating_sub(1).max(1);
                let (g, ok) = geometry([n, ih, iw, ic], [fh, fw], [oh, ow, oc], [sh, sw], same);
                let mut rng = Rng(seed);
                let data = data(&mut rng, &g, scheme, with_bias);
                Case { g, data, ok }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut cases = Vec::new();
        let mut rng = Rng(7);
        // Lane tails of the input depth, every scheme, both paddings.
        for ic in LANE_TAILS.step_by(4) {
            for scheme in 0..3 {
                let (g, ok) = geometry([1, 2, 3, ic], [3, 3], [4, 6, 3], [2, 2], ic % 2 == 0);
                cases.push(Case { data: data(&mut rng, &g, scheme, true), g, ok });
            }
        }
        // Stride larger than the filter: outputs no input reaches (bias only).
        for scheme in 0..3 {
            let (g, ok) = geometry([1, 3, 3, 2], [1, 1], [9, 9, 2], [3, 3], false);
            cases.push(Case { data: data(&mut rng, &g, scheme, true), g, ok });
        }
        // int8 extremes: every input -128 or 127 with offset 128 / -127, weights -128.
        let (g, ok) = geometry([1, 3, 3, 8], [3, 3], [6, 6, 4], [2, 2], true);
        for (x, off) in [(-128i8, 128), (127, -127), (127, 128)] {
            cases.push(Case {
                data: Data::S8 {
                    input: vec![x; 72],
                    filter: vec![-128; 4 * 9 * 8],
                    bias: Some(vec![i32::MAX - 5, i32::MIN + 5, 0, 1]),
                    input_offset: off,
                    output_offset: 127,
                    mult: vec![i32::MAX, 1 << 30, i32::MAX, 1 << 30],
                    shift: vec![-31, 0, 1, -1],
                    clamp: Clamp { min: -128, max: 127 },
                },
                g,
                ok,
            });
        }
        // 16x8 extremes.
        cases.push(Case {
            data: Data::S16 {
                input: vec![i16::MIN; 72],
                filter: vec![-128; 4 * 9 * 8],
                bias: Some(vec![i64::MAX / 4, i64::MIN / 4, 0, 1]),
                mult: vec![i32::MAX],
                shift: vec![-20],
                clamp: Clamp { min: i16::MIN, max: i16::MAX },
            },
            g,
            ok,
        });
        cases
    }

    fn prepares(&self) -> bool {
        self.ok
    }

    fn run(&self, (s8, s16, f32k): Kernels) -> Result<Out, String> {
        let g = self.g;
        let len: usize = g.output_shape.iter().product();
        Ok(match &self.data {
            Data::S8 { input, filter, bias, input_offset, output_offset, mult, shift, clamp } => {
                let p = TransposeConvParams::<S8> {
                    geometry: g,
                    quant: QuantS8 { input_offset: *input_offset, output_offset: *output_offset, output_multiplier: mult, output_shift: shift },
                    clamp: *clamp,
                };
                let mut out = vec![0; len];
                s8(&p, input, filter, bias.as_deref(), &mut out);
                Out::S8(out)
            }
            Data::S16 { input, filter, bias, mult, shift, clamp } => {
                let p = TransposeConvParams::<S16> { geometry: g, quant: QuantS16 { output_multiplier: mult, output_shift: shift }, clamp: *clamp };
                let mut out = vec![0; len];
                s16(&p, input, filter, bias.as_deref(), &mut out);
                Out::S16(out)
            }
            Data::F32 { input, filter, bias, clamp } => {
                let p = TransposeConvParams::<F32> { geometry: g, quant: (), clamp: *clamp };
                let mut out = vec![0.0; len];
                f32k(&p, input, filter, bias.as_deref(), &mut out);
                Out::F32(out.iter().map(|v| v.to_bits()).collect())
            }
        })
    }

    fn check(&self, out: &Out) -> Result<(), String> {
        let want = oracle(&self.g, &self.data);
        if *out != want {
            return Err(std::format!("differs from TFLite's scatter definition:\n  got  {out:?}\n  want {want:?}"));
        }
        Ok(())
    }
}

kernel_tests!(reference, Case, <Case as KernelCase>::REFERENCE);
kernel_tests!(public_api, if true, Case, (crate::kernels::transpose_conv::transpose_conv_s8, crate::kernels::transpose_conv::transpose_conv_s16, crate::kernels::transpose_conv::transpose_conv_f32));

/// A hand-computed case: a 2x2 input, 2x2 filter of ones, stride 2, VALID: each input
/// element becomes a 2x2 block of itself.
#[test]
fn stride_2_ones_is_nearest_upsampling() {
    let (g, ok) = geometry([1, 2, 2, 1], [2, 2], [4, 4, 1], [2, 2], false);
    assert!(ok);
    let p = TransposeConvParams::<F32> { geometry: g, quant: (), clamp: Clamp { min: f32::MIN, max: f32::MAX } };
    let mut out = [0.0; 16];
    super::transpose_conv_f32(&p, &[1.0, 2.0, 3.0, 4.0], &[1.0; 4], None, &mut out);
    assert_eq!(out, [1.0, 1.0, 2.0, 2.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 3.0, 3.0, 4.0, 4.0]);
}
