//! ADD_N and CUMSUM: sums of int8 or float32 values, elementwise over several tensors
//! (ADD_N) or running along one axis (CUMSUM).
//!
//! Mirrors TFLite Micro `add_n.cc` / `cumsum.cc` and `reference_ops::AddN` /
//! `reference_ops::CumSum`. float32 adds from `0.0` in input order. int8 rescales every
//! value to a common fixed point first, as both Prepares do ([`prepare_scaled_sum`]:
//! `left_shift` 20, input multiplier 1/2, output multiplier `2 s_in / (2^20 s_out)`), and
//! the accumulator starts at the rescaled *input offset* (`-zp_in`), not at 0: TFLite's
//! code says `// x = 0` but computes `scaled(input1_offset)`, so a nonzero input zero point
//! shifts every result by one more `-zp_in`. We reproduce it. The int32 sums wrap on
//! overflow (undefined in C++, two's complement on every target TFLite Micro runs on).

use crate::quant::multiply_by_quantized_multiplier_smaller_than_one_exp as mbqm;

/// TFLite's `ArithmeticParams` as ADD_N's and CUMSUM's Prepare fill them for int8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScaledSumParams {
    /// Bits each input is shifted left before rescaling (20 for int8, as in ADD).
    pub left_shift: i32,
    /// `-input.zero_point` (every input shares one quantization).
    pub input_offset: i32,
    /// Fixed-point multiplier of `input_scale / (2 * input_scale)`, i.e. 1/2.
    pub input_multiplier: i32,
    /// Exponent of `input_multiplier`, `<= 0` (a right shift).
    pub input_shift: i32,
    /// `output.zero_point`, added after rescaling.
    pub output_offset: i32,
    /// Fixed-point multiplier of `2 * input_scale / (2^left_shift * output_scale)`, below 1.
    pub output_multiplier: i32,
    /// Exponent of `output_multiplier`, `<= 0` (a right shift).
    pub output_shift: i32,
}

/// ADD_N's / CUMSUM's int8 Prepare; `None` where TFLite's
/// `QuantizeMultiplierSmallerThanOneExp` fails its check (an output multiplier `2 s_in /
/// (2^20 s_out)` of 1 or more).
#[cfg(feature = "prepare")]
pub fn prepare_scaled_sum(input_scale: f32, input_zero_point: i32, output_scale: f32, output_zero_point: i32) -> Option<ScaledSumParams> {
    let left_shift = 20;
    let twice = 2.0 * f64::from(input_scale);
    let (input_multiplier, input_shift) = crate::prepare::quantize_multiplier_smaller_than_one_exp(f64::from(input_scale) / twice)?;
    let (output_multiplier, output_shift) =
        crate::prepare::quantize_multiplier_smaller_than_one_exp(twice / (f64::from(1u32 << left_shift) * f64::from(output_scale)))?;
    Some(ScaledSumParams {
        left_shift,
        input_offset: -input_zero_point,
        input_multiplier,
        input_shift,
        output_offset: output_zero_point,
        output_multiplier,
        output_shift,
    })
}

impl ScaledSumParams {
    /// A value in the common fixed point: `MBQMSmallerThanOneExp((offset + q) << 20)`.
    #[inline(always)]
    pub fn scaled(&self, q: i32) -> i32 {
        mbqm((self.input_offset + q).wrapping_mul(1 << self.left_shift), self.input_multiplier, self.input_shift)
    }

    /// The accumulator's start: the scaled input offset (see the module doc).
    #[inline(always)]
    pub fn start(&self) -> i32 {
        mbqm(self.input_offset.wrapping_mul(1 << self.left_shift), self.input_multiplier, self.input_shift)
    }

    /// A sum back in the output's quantization, clamped to int8.
    #[inline(always)]
    pub fn output(&self, acc: i32) -> i8 {
        (mbqm(acc, self.output_multiplier, self.output_shift).wrapping_add(self.output_offset)).clamp(-128, 127) as i8
    }
}

/// CUMSUM's walk: `outer` blocks of `depth` steps along the axis, `inner` elements apart;
/// `exclusive` writes the sum before adding, `reverse` runs along the axis backwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CumsumParams {
    /// Product of the dimensions before the axis.
    pub outer: usize,
    /// Length of the summed axis.
    pub depth: usize,
    /// Product of the dimensions after the axis: the stride, in elements, between two steps along it.
    pub inner: usize,
    /// Each output is the sum of the elements strictly before it along the axis (the first is 0).
    pub exclusive: bool,
    /// Sums run from the end of the axis towards its start.
    pub reverse: bool,
}

/// float32 ADD_N: `output[i] = 0 + inputs[0][i] + inputs[1][i] + …`.
#[inline]
pub fn add_n_f32(inputs: &[&[f32]], output: &mut [f32]) {
    scalar::add_n_f32(inputs, output)
}

/// int8 ADD_N (all inputs one quantization).
#[inline]
pub fn add_n_s8(params: &ScaledSumParams, inputs: &[&[i8]], output: &mut [i8]) {
    scalar::add_n_s8(params, inputs, output)
}

/// float32 CUMSUM.
#[inline]
pub fn cumsum_f32(params: &CumsumParams, input: &[f32], output: &mut [f32]) {
    scalar::cumsum(params, input, output, 0.0, |x| x, |acc, x| acc + x, |acc| acc)
}

/// int8 CUMSUM.
#[inline]
pub fn cumsum_s8(params: &CumsumParams, scale: &ScaledSumParams, input: &[i8], output: &mut [i8]) {
    scalar::cumsum(params, input, output, scale.start(), |q| scale.scaled(i32::from(q)), i32::wrapping_add, |acc| scale.output(acc))
}

pub mod scalar {
    //! Scalar reference implementation.
    use super::*;

    /// float32 ADD_N: `output[i]` is the sum of `inputs[k][i]` in input order (all slices of one length).
    pub fn add_n_f32(inputs: &[&[f32]], output: &mut [f32]) {
        debug_assert!(inputs.iter().all(|x| x.len() == output.len()));
        for (i, o) in output.iter_mut().enumerate() {
            let mut x = 0.0f32;
            for input in inputs {
                x += input[i];
            }
            *o = x;
        }
    }

    /// int8 ADD_N: every value rescaled to the common fixed point ([`ScaledSumParams::scaled`]) and summed from [`ScaledSumParams::start`] in wrapping 32 bits, then rescaled to the output and clamped to int8.
    pub fn add_n_s8(p: &ScaledSumParams, inputs: &[&[i8]], output: &mut [i8]) {
        debug_assert!(inputs.iter().all(|x| x.len() == output.len()));
        let start = p.start();
        for (i, o) in output.iter_mut().enumerate() {
            let mut acc = start;
            for input in inputs {
                acc = acc.wrapping_add(p.scaled(i32::from(input[i])));
            }
            *o = p.output(acc);
        }
    }

    /// TFLite `CumSum`: for each (outer, inner) line along the axis, the running sum in
    /// the accumulator type `A`, `lift` taking an input into it and `out` back.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn cumsum<T: Copy, A: Copy, O>(
        p: &CumsumParams,
        input: &[T],
        output: &mut [O],
        start: A,
        lift: impl Fn(T) -> A,
        add: impl Fn(A, A) -> A,
        out: impl Fn(A) -> O,
    ) {
        debug_assert_eq!(input.len(), p.outer * p.depth * p.inner);
        debug_assert_eq!(output.len(), input.len());
        for o in 0..p.outer {
            for i in 0..p.inner {
                let mut acc = start;
                for d in 0..p.depth {
                    let d = if p.reverse { p.depth - 1 - d } else { d };
                    let k = (o * p.depth + d) * p.inner + i;
                    let y = lift(input[k]);
                    if p.exclusive {
                        output[k] = out(acc);
                        acc = add(acc, y);
                    } else {
                        acc = add(acc, y);
                        output[k] = out(acc);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::vec::Vec;

    #[test]
    fn cumsum_f32_modes() {
        let x = [1.0f32, 2.0, 3.0, 10.0, 20.0, 30.0];
        let p = CumsumParams { outer: 2, depth: 3, inner: 1, exclusive: false, reverse: false };
        let mut out = [0f32; 6];
        cumsum_f32(&p, &x, &mut out);
        assert_eq!(out, [1.0, 3.0, 6.0, 10.0, 30.0, 60.0]);
        cumsum_f32(&CumsumParams { exclusive: true, ..p }, &x, &mut out);
        assert_eq!(out, [0.0, 1.0, 3.0, 0.0, 10.0, 30.0]);
        cumsum_f32(&CumsumParams { reverse: true, ..p }, &x, &mut out);
        assert_eq!(out, [6.0, 5.0, 3.0, 60.0, 50.0, 30.0]);
        // Along the first axis of [3, 2] (inner 2).
        cumsum_f32(&CumsumParams { outer: 1, depth: 3, inner: 2, exclusive: false, reverse: false }, &x, &mut out);
        assert_eq!(out, [1.0, 2.0, 4.0, 12.0, 24.0, 42.0]);
        let mut o = [9f32; 2];
        add_n_f32(&[&[1.0, -0.0], &[2.0, -0.0]], &mut o);
        assert_eq!(o.map(f32::to_bits), [3.0f32.to_bits(), 0.0f32.to_bits()]);
    }

    proptest! {
        /// int8 ADD_N is within one output step of the real sum plus TFLite's extra
        /// `-zp_in` term, away from saturation.
        #[test]
        fn add_n_s8_near_real(a in any::<i8>(), b in any::<i8>(), c in any::<i8>(), si in 0.01f32..0.5, zi in -100i32..100, so in 0.05f32..1.0, zo in -20i32..20) {
            let p = prepare_scaled_sum(si, zi, so, zo).unwrap();
            let mut out = [0i8; 1];
            add_n_s8(&p, &[&[a], &[b], &[c]], &mut out);
            let real = (f64::from(i32::from(a) + i32::from(b) + i32::from(c) - 4 * zi)) * f64::from(si);
            let want = real / f64::from(so) + f64::from(zo);
            if (-120.0..120.0).contains(&want) {
                prop_assert!((f64::from(out[0]) - want).abs() <= 1.01, "{} vs {}", out[0], want);
            }
        }

        /// CUMSUM over a line equals ADD_N of its prefixes.
        #[test]
        fn cumsum_s8_is_prefix_add_n(x in proptest::collection::vec(any::<i8>(), 5), zi in -128i32..=127) {
            let p = prepare_scaled_sum(0.1, zi, 0.4, 3).unwrap();
            let mut out = [0i8; 5];
            cumsum_s8(&CumsumParams { outer: 1, depth: 5, inner: 1, exclusive: false, reverse: false }, &p, &x, &mut out);
            let want: Vec<i8> = (1..=5).map(|n| {
                let ins: Vec<&[i8]> = (0..n).map(|k| &x[k..k + 1]).collect();
                let mut o = [0i8; 1];
                add_n_s8(&p, &ins, &mut o);
                o[0]
            }).collect();
            prop_assert_eq!(out.to_vec(), want);
        }
    }
}
